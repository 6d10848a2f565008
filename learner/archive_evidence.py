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
- their digest was not also captured on another path: the same bytes on two paths are a
  page served for everything (a block, consent or error page), which proves nothing.

A differing digest is no evidence of change (pages carry timestamps and tokens): the sample
is rendered as without an archive. Of several pairs that qualify, the closest in time is
used (then the earliest), so the choice does not depend on the order of the index.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

from learner.decision import Cause
from learner.errors import ConfigError
from learner.model import PairOutcome
from samepage.archives import Capture, archive_format, file_captures, seconds_between

logger = logging.getLogger(__name__)

__all__ = ["DEFAULT_WINDOW_S", "ArchiveEvidence", "load_archive"]

DEFAULT_WINDOW_S = 86400.0
"""The most seconds between the two captures of a sample: one day."""


def _page(url: str) -> str:
    """``scheme://host:port/path`` of a URL: what tells two pages of a site apart."""
    parts = urlsplit(url)
    return f"{parts.scheme.lower()}://{parts.netloc.lower()}{parts.path}"


@dataclass(slots=True)
class ArchiveEvidence:
    """The usable captures of one or more indexes: 2xx, with a payload digest."""

    window_s: float = DEFAULT_WINDOW_S
    sources: tuple[str, ...] = ()
    captures: dict[str, list[Capture]] = field(default_factory=dict)
    """Per exact URL, its usable captures, oldest first."""
    pages: dict[str, set[str]] = field(default_factory=dict)
    """Per digest, the pages (:func:`_page`) it was captured on; two are enough to know."""

    def add(self, capture: Capture) -> None:
        """Keep ``capture`` if it can be evidence (2xx, with a digest)."""
        if not capture.ok or capture.digest is None:
            return
        self.captures.setdefault(capture.url, []).append(capture)
        pages = self.pages.setdefault(capture.digest, set())
        if len(pages) < 2:
            pages.add(_page(capture.url))

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
        best: tuple[float, str, str, Capture, Capture] | None = None
        for first in originals:
            if len(self.pages.get(first.digest or "", ())) != 1:
                continue  # the same bytes on another path too
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
