"""Web archive captures as evidence for samples (``learner crawl --archive INDEX``).

A sample compares an original URL with a candidate (the original without a parameter). An
archive that captured both, each answering 2xx, with the same payload digest, saw the server
send the same bytes for the two URLs: the sample is "same" without rendering. Captures are
used only when:

- their URLs are the sample's original and candidate byte for byte, exactly as the learner
  spells them (the URL as observed, and without the parameter's piece); no normalization
  at all, not even the normalizer's static form, so no assumption of samepage's stands in
  for the archive's evidence;
- both answered 2xx (a revisit counts with its own status and the payload digest it
  repeats; a revisit without a 2xx status or without a digest is not used);
- they were taken at most ``window_s`` seconds apart (:data:`DEFAULT_WINDOW_S`);
- every other URL captured with their digest is on the same path and agrees with the
  candidate on every parameter the two share (other than the tested one): the same bytes
  on another path, or for another value of a parameter the sample keeps, are a page served
  for everything (a block, login, consent or error page), which proves nothing. A digest
  shared by more than :data:`MAX_SHARED` URLs is not used at all;
- the path has 2xx captures with at least two digests: the server's bytes vary with the
  query there. A path that answers every URL with one body (an application shell whose
  scripts build the page from the URL, or a wall) proves nothing by its bytes.

A digest is of the bytes the server sent, not of the page a browser builds: a page whose
server renders one parameter and whose scripts read another can show a difference the
bytes do not (docs/archives.md says when to give ``--archive``).

The learner also asks robots.txt first, as before a render: a URL it may not render is not
decided from the archive either. A differing digest is no evidence of change (pages carry
timestamps and tokens): the sample is rendered as without an archive. Of several pairs that
qualify, the closest in time is used (then the earliest), so the choice does not depend on
the order of the index.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from learner.errors import ConfigError
from learner.judge.decision import Cause
from learner.model import PairOutcome
from samepage.archives import Capture, archive_format, file_captures, seconds_between

logger = logging.getLogger(__name__)

__all__ = ["DEFAULT_WINDOW_S", "MAX_SHARED", "ArchiveEvidence", "load_archive"]

DEFAULT_WINDOW_S = 86400.0
"""The most seconds between the two captures of a sample: one day."""

MAX_SHARED = 1000
"""The most distinct URLs one digest may have been captured for and still be evidence."""


def _split(url: str) -> tuple[str, list[str]]:
    """A URL's part before the query, and its query pieces, as spelled (no fragment)."""
    base, _, query = url.partition("#")[0].partition("?")
    return base, [piece for piece in query.split("&") if piece]


def _name(piece: str) -> str:
    return piece.partition("=")[0]


def _agrees(url: str, candidate: str, dropped: frozenset[str]) -> bool:
    """Whether ``url`` is on the candidate's path with its values of the shared parameters.

    Parameters are compared by name as spelled; a parameter in ``dropped`` (the tested
    one) may take any value.
    """
    base, pieces = _split(url)
    want_base, want = _split(candidate)
    if base != want_base:
        return False
    shared = ({_name(p) for p in pieces} & {_name(p) for p in want}) - dropped
    return all(
        [p for p in pieces if _name(p) == n] == [p for p in want if _name(p) == n] for n in shared
    )


@dataclass(slots=True)
class ArchiveEvidence:
    """The usable captures of one or more indexes: 2xx, with a payload digest."""

    window_s: float = DEFAULT_WINDOW_S
    sources: tuple[str, ...] = ()
    captures: dict[str, list[Capture]] = field(default_factory=dict)
    """Per exact URL, its usable captures, oldest first."""
    shared: dict[str, set[str] | None] = field(default_factory=dict)
    """Per digest, the URLs it was captured for; ``None`` past :data:`MAX_SHARED`."""
    varied: dict[str, set[str]] = field(default_factory=dict)
    """Per path (the URL before its query), up to two of the digests captured on it."""

    def add(self, capture: Capture) -> None:
        """Keep ``capture`` if it can be evidence (2xx, with a digest)."""
        if not capture.ok or capture.digest is None:
            return
        self.captures.setdefault(capture.url, []).append(capture)
        urls = self.shared.setdefault(capture.digest, set())
        if urls is not None:
            urls.add(capture.url)
            if len(urls) > MAX_SHARED:
                self.shared[capture.digest] = None
        digests = self.varied.setdefault(_split(capture.url)[0], set())
        if len(digests) < 2:
            digests.add(capture.digest)

    def _specific(self, digest: str, candidate: str, dropped: frozenset[str]) -> bool:
        """Whether ``digest`` was captured only for URLs that agree with ``candidate``."""
        urls = self.shared.get(digest)
        return urls is not None and all(_agrees(u, candidate, dropped) for u in urls)

    def finish(self) -> None:
        """Order every URL's captures by time (then digest), once all are added."""
        for found in self.captures.values():
            found.sort(key=lambda c: (c.timestamp, c.digest or "", c.where))

    def same(self, original: str, candidate: str) -> dict[str, Any] | None:
        """The archive's evidence that ``original`` and ``candidate`` served the same bytes."""
        originals = self.captures.get(original)
        candidates = self.captures.get(candidate)
        if not originals or not candidates:
            return None
        if len(self.varied.get(_split(candidate)[0], ())) < 2:
            return None  # one body for every URL of the path
        kept = _split(candidate)[1]
        dropped = frozenset(_name(p) for p in _split(original)[1] if p not in kept)
        best: tuple[float, str, str, Capture, Capture] | None = None
        for first in originals:
            if not self._specific(first.digest or "", candidate, dropped):
                continue  # the same bytes for another page too
            for second in candidates:
                if second.digest != first.digest:
                    continue
                apart = seconds_between(first.timestamp, second.timestamp)
                if apart > self.window_s:
                    continue
                key = (apart, first.timestamp, second.timestamp, first, second)
                if best is None or key[:3] < best[:3]:
                    best = key
        if best is None:
            return None
        apart, _, _, first, second = best
        return {
            "original": first.to_json(),
            "candidate": second.to_json(),
            "seconds_apart": apart,
            "window_s": self.window_s,
        }

    def outcome(self, original: str, candidate: str) -> PairOutcome | None:
        """The sample's outcome from the archive, or ``None`` when it must be rendered."""
        found = self.same(original, candidate)
        if found is None:
            return None
        digest = found["original"]["digest"]
        reason = (
            f"archived 2xx captures of both have payload digest {digest}, "
            f"{found['seconds_apart']:.0f}s apart"
        )
        evidence = {"archive": found, "renders": {"original": 0, "candidate": 0}}
        return PairOutcome(original, candidate, "same", reason, evidence, Cause.ARCHIVE.value)


def load_archive(paths: Sequence[str], window_s: float = DEFAULT_WINDOW_S) -> ArchiveEvidence:
    """Read CDXJ indexes (or WARC files, by extension) into archive evidence.

    Malformed records are skipped (they can only withhold evidence) and counted in one
    warning per file, naming the first.

    Raises:
        ConfigError: a file cannot be read, or the window is not a positive number.
    """
    if not window_s >= 0 or window_s == float("inf"):
        raise ConfigError(f"--archive-window {window_s}: give a finite number of seconds >= 0")
    archive = ArchiveEvidence(window_s=window_s, sources=tuple(paths))
    for path in paths:
        problems: list[str] = []
        try:
            _add_all(archive, file_captures(path, archive_format(path) or "cdxj", problems.append))
        except ImportError as exc:
            raise ConfigError(f"--archive {path}: WARC needs warcio ({exc})") from None
        except OSError as exc:
            raise ConfigError(f"--archive {path}: {exc.strerror or exc}") from None
        if problems:
            logger.warning(
                "--archive %s: %d malformed records skipped, first: %s",
                path,
                len(problems),
                problems[0],
            )
    archive.finish()
    logger.info(
        "archive: %d URLs with usable captures from %d files", len(archive.captures), len(paths)
    )
    return archive


def _add_all(archive: ArchiveEvidence, captures: Iterable[Capture]) -> None:
    for capture in captures:
        archive.add(capture)
