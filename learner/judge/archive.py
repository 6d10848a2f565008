"""Web archive captures as evidence for samples (``learner crawl --archive INDEX``).

A sample compares an original URL with a candidate (the original without a parameter). An
archive that captured both, each answering 2xx, with the same payload digest, saw the server
send the same bytes for the two URLs. :meth:`ArchiveEvidence.match` finds such a pair of
captures, or says why there is none (:class:`ArchiveRefusal`); the pair is evidence only
once the live original vouches for it (:mod:`learner.judge.archive_live`). Captures are
used only when:

- their URLs are the sample's original and candidate byte for byte, exactly as the learner
  spells them (the URL as observed, and without the parameter's piece); no normalization
  at all, not even the normalizer's static form, so no assumption of samepage's stands in
  for the archive's evidence;
- both answered 2xx (a revisit counts with its own status and the payload digest it
  repeats; a revisit without a 2xx status or without a digest is not used), with a
  non-empty digest and a time to the second (a CDXJ timestamp of a year or a day is no
  evidence of when);
- both were served as ``text/html`` (a revisit that does not say takes the media type of
  the capture of its URL and digest it repeats);
- they were taken at most ``window_s`` seconds apart (:data:`DEFAULT_WINDOW_S`);
- every other URL captured with their digest is on the same path and agrees with the
  candidate on every parameter the two share (other than the tested one): the same bytes
  on another path, or for another value of a parameter the sample keeps, are a page served
  for everything (a block, login, consent or error page), which proves nothing. A digest
  shared by more than :data:`MAX_SHARED` URLs is not used at all;
- the path has 2xx captures with at least two digests: the server's bytes vary with the
  query there. A path that answers every URL with one body (an application shell whose
  scripts build the page from the URL, or a wall) proves nothing by its bytes.

A differing digest is no evidence of change (pages carry timestamps and tokens): the
sample is rendered as without an archive. Of several pairs that qualify, the closest in
time is used (then the earliest), so the choice does not depend on the order of the index.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from learner.config import ARCHIVE_WINDOW_S
from learner.errors import ConfigError
from learner.model import Cause, PairOutcome, SampleEvidence
from learner.plan.sampling import read_piece
from samepage.archives import (
    Capture,
    archive_format,
    file_captures,
    media_type,
    seconds_between,
)

logger = logging.getLogger(__name__)

__all__ = [
    "DEFAULT_WINDOW_S",
    "MAX_SHARED",
    "ArchiveEvidence",
    "ArchiveMatch",
    "ArchiveRefusal",
    "archive_outcome",
    "load_archive",
]

DEFAULT_WINDOW_S = ARCHIVE_WINDOW_S
"""The most seconds between the two captures of a sample: one day."""

MAX_SHARED = 1000
"""The most distinct URLs one digest may have been captured for and still be evidence."""

_HTML = "text/html"


class ArchiveRefusal(StrEnum):
    """Why the archive did not decide a sample; it is then rendered as without an archive."""

    NOT_CAPTURED = "not-captured"
    """No usable capture (2xx, with a digest) of the original or of the candidate."""
    ROUGH_TIME = "rough-time"
    """A usable capture's time is not to the second (a CDXJ timestamp of a year or a day)."""
    ONE_BODY = "one-body"
    """The path's captures all have one digest: it answers every URL with one body."""
    DIGESTS_DIFFER = "digests-differ"
    SHARED_DIGEST = "shared-digest"
    """The digest was captured for another page too (another path or kept value), or for
    more than :data:`MAX_SHARED` URLs."""
    MEDIA_TYPE = "media-type"
    """The two captures were not both served as ``text/html``."""
    TOO_FAR_APART = "too-far-apart"
    """One digest, but further apart in time than the window."""
    ROBOTS = "robots"
    """robots.txt does not let the learner render both URLs."""
    ORIGINAL_FAILED = "original-failed"
    """The original's render failed, did not settle, was not 2xx, or was sent elsewhere."""
    NO_DOCUMENT = "no-document"
    """The original's bytes could not be read from the browser."""
    LOADS_MORE = "loads-more"
    """The original's render requested more than its document."""
    LIVE_MEDIA_TYPE = "live-media-type"
    """The original is now served as another media type than it was captured as."""
    CONTENT_CODING = "content-coding"
    """The original is now sent compressed: the archive's digest is of other bytes."""
    LIVE_HEADERS = "live-headers"
    """The original now sends a ``Refresh`` or ``Link`` header, which can change the page."""
    DIGEST_ALGORITHM = "digest-algorithm"
    """A digest the learner cannot check (not SHA-1 or SHA-2, or not written as one)."""
    STALE = "stale"
    """The bytes the server sends for the original now are not the ones captured."""
    NOT_STATIC = "not-static"
    """The original's bytes may run script or load more (:mod:`learner.judge.static_html`)."""


@dataclass(frozen=True, slots=True)
class ArchiveMatch:
    """Captures of a sample's original and candidate with one payload digest."""

    original: Capture
    candidate: Capture
    seconds_apart: float
    window_s: float
    media_type: str

    def to_json(self) -> dict[str, Any]:
        """This match as the sample's evidence records it."""
        return {
            "original": self.original.to_json(),
            "candidate": self.candidate.to_json(),
            "seconds_apart": self.seconds_apart,
            "window_s": self.window_s,
            "media_type": self.media_type,
        }


def _split(url: str) -> tuple[str, list[str]]:
    """A URL's part before the query, and its query pieces, as spelled (no fragment)."""
    base, _, query = url.partition("#")[0].partition("?")
    return base, [piece for piece in query.split("&") if piece]


def _agrees(url: str, candidate: str, dropped: frozenset[str]) -> bool:
    """Whether ``url`` is on the candidate's path with its values of the shared parameters.

    Parameters are compared by name and value as the normaliser reads them
    (:func:`learner.plan.sampling.read_piece`: ``%61=1`` is ``a=1``); a parameter in
    ``dropped`` (the tested one) may take any value.
    """
    base, pieces = _split(url)
    want_base, want = _split(candidate)
    if base != want_base:
        return False
    mine, theirs = _params(pieces), _params(want)
    shared = (set(mine) & set(theirs)) - dropped
    return all(mine[n] == theirs[n] for n in shared)


def _params(pieces: list[str]) -> dict[str, list[str]]:
    """Each parameter's values, in order, from query pieces as spelled."""
    found: dict[str, list[str]] = {}
    for piece in pieces:
        name, value = read_piece(piece)
        found.setdefault(name, []).append(value)
    return found


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
    rough: set[str] = field(default_factory=set)
    """URLs with a 2xx capture with a digest whose time is not to the second."""
    types: dict[tuple[str, str], str] = field(default_factory=dict)
    """Per (URL, digest), the one media type its captures that say were served as."""

    def add(self, capture: Capture) -> None:
        """Keep ``capture`` if it can be evidence (2xx, with a digest, a time to the second)."""
        if not capture.ok or capture.digest is None:
            return
        if not capture.to_the_second:
            self.rough.add(capture.url)
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
        """Order every URL's captures by time (then digest); give revisits a media type."""
        seen: dict[tuple[str, str], set[str]] = {}
        for url, found in self.captures.items():
            found.sort(key=lambda c: (c.timestamp, c.digest or "", c.where))
            for capture in found:
                kind = media_type(capture.mime)
                if kind and capture.digest is not None:
                    seen.setdefault((url, capture.digest), set()).add(kind)
        self.types = {key: kinds.pop() for key, kinds in seen.items() if len(kinds) == 1}

    def _type(self, capture: Capture) -> str:
        """The media type a capture was served as ("" if unknown or in doubt)."""
        own = media_type(capture.mime)
        if own or capture.digest is None:
            return own
        return self.types.get((capture.url, capture.digest), "")

    def match(self, original: str, candidate: str) -> ArchiveMatch | ArchiveRefusal:
        """The captures that show ``original`` and ``candidate`` served the same bytes."""
        originals = self.captures.get(original)
        candidates = self.captures.get(candidate)
        if not originals or not candidates:
            rough = original in self.rough or candidate in self.rough
            return ArchiveRefusal.ROUGH_TIME if rough else ArchiveRefusal.NOT_CAPTURED
        if len(self.varied.get(_split(candidate)[0], ())) < 2:
            return ArchiveRefusal.ONE_BODY  # one body for every URL of the path
        kept = _params(_split(candidate)[1])
        had = _params(_split(original)[1])
        dropped = frozenset(n for n, values in had.items() if kept.get(n) != values)
        best: tuple[float, str, str, Capture, Capture] | None = None
        # The furthest check a pair of one digest passed, for the refusal.
        reached = ArchiveRefusal.DIGESTS_DIFFER
        for first in originals:
            for second in candidates:
                if second.digest != first.digest or first.digest is None:
                    continue
                if not self._specific(first.digest, candidate, dropped):
                    reached = _further(reached, ArchiveRefusal.SHARED_DIGEST)
                    continue  # the same bytes for another page too
                if not self._type(first) == self._type(second) == _HTML:
                    reached = _further(reached, ArchiveRefusal.MEDIA_TYPE)
                    continue
                apart = seconds_between(first.timestamp, second.timestamp)
                if apart > self.window_s:
                    reached = _further(reached, ArchiveRefusal.TOO_FAR_APART)
                    continue
                key = (apart, first.timestamp, second.timestamp, first, second)
                if best is None or key[:3] < best[:3]:
                    best = key
        if best is None:
            return reached
        apart, _, _, first, second = best
        return ArchiveMatch(first, second, apart, self.window_s, _HTML)


_ORDER = (
    ArchiveRefusal.DIGESTS_DIFFER,
    ArchiveRefusal.SHARED_DIGEST,
    ArchiveRefusal.MEDIA_TYPE,
    ArchiveRefusal.TOO_FAR_APART,
)


def _further(a: ArchiveRefusal, b: ArchiveRefusal) -> ArchiveRefusal:
    return a if _ORDER.index(a) >= _ORDER.index(b) else b


def archive_outcome(original: str, candidate: str, found: ArchiveMatch) -> PairOutcome:
    """The "same" outcome of a sample the archive decides (once the live original vouches)."""
    reason = (
        f"archived 2xx captures of both have payload digest {found.original.digest}, "
        f"{found.seconds_apart:.0f}s apart, and the original sends those bytes now"
    )
    evidence = SampleEvidence(archive=found.to_json())
    return PairOutcome(original, candidate, "same", reason, evidence, Cause.ARCHIVE)


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
