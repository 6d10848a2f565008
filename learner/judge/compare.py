"""Decide whether a page rendered without a parameter is the page rendered with it.

:func:`compare` measures the page's own noise from two renders of the original URL
(:class:`~learner.judge.fingerprint.Fingerprint`), masks it, and calls any difference outside
it a change. The design and the measurements behind it are in ``docs/fingerprint.md``.
"""

from __future__ import annotations

import difflib
import logging
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Literal
from urllib.parse import unquote, urlencode, urlsplit, urlunsplit

from learner.judge.fingerprint import TILE, Cell, Fingerprint
from learner.plan.sampling import edit_observed
from samepage import InvalidURL, query_params

logger = logging.getLogger(__name__)

__all__ = [
    "MAX_NOISE",
    "Comparison",
    "carried_destination",
    "compare",
    "lands_where",
    "names_value_of",
]

MAX_NOISE = 0.5
"""Above this share of tiles or text lines differing between two renders of the original
the page is too noisy to judge, and the verdict is ``"undecided"``."""

SampleVerdict = Literal["same", "changed", "undecided"]
Change = Literal["status", "destination", "text", "title", "tiles"]


@dataclass(frozen=True, slots=True)
class Comparison:
    """The verdict on one sample, with the measurements behind it (JSON-serialisable).

    ``distances`` measure reference against candidate outside the noise; ``noise`` measures
    reference against repeat.
    """

    verdict: SampleVerdict
    reasons: tuple[str, ...]
    distances: Mapping[str, float]
    noise: Mapping[str, float]
    changes: frozenset[Change] = frozenset()
    """What differed outside the noise, as data (the reasons say it in words)."""

    @property
    def pixels_only(self) -> bool:
        """Whether the only difference was in screen tiles (same text, title, status, height)."""
        return self.changes == {"tiles"} and self.distances.get("height_px", 1.0) == 0


def compare(
    reference: Fingerprint,
    repeat: Fingerprint | Sequence[Fingerprint],
    candidate: Fingerprint,
    *,
    carried: bool = False,
) -> Comparison:
    """Judge ``candidate`` (parameter removed) against renders of the original URL.

    Args:
        reference: the original URL rendered once.
        repeat: the original URL rendered again, once or more; what differs from
            ``reference`` in any of them is noise.
        candidate: the URL without the parameter under study.
        carried: the two destinations are known to differ only by the removed parameter
            the original's carries (:func:`carried_destination`, :func:`lands_where`):
            they are not compared.

    Differences outside the noise make the verdict ``"changed"``; none make it ``"same"``;
    originals that disagree on status or destination, or noise over more than
    :data:`MAX_NOISE` of the page, make it ``"undecided"``.
    """
    repeats = [repeat] if isinstance(repeat, Fingerprint) else list(repeat)
    removed = _query_names(reference.url) - _query_names(candidate.url)
    noisy_lines = _NoisyLines(frozenset(), ())
    tile_noise: set[Cell] = set()
    columns, rows = reference.columns, reference.rows
    for other in repeats:
        _, lines = _text_noise(reference.lines, other.lines)
        noisy_lines = _NoisyLines(noisy_lines.lines | lines.lines, noisy_lines.spans + lines.spans)
        tile_noise |= _tile_diff(reference, other)
        columns, rows = max(columns, other.columns), max(rows, other.rows)
    text_noise = len(noisy_lines.lines)
    mask = _dilate(tile_noise, columns, rows)
    changed_tiles = _tile_diff(reference, candidate) - mask
    # Hash every tile the reference is measured on at once: one decode of its PNG.
    reference.tile_hashes(tile_noise | changed_tiles)
    total_tiles = max(1, rows * columns)
    noise = {
        "tiles": round(len(mask) / total_tiles, 4),
        "text_lines": round(text_noise / max(1, len(reference.lines)), 4),
        "tile_hash_bits": float(max(_max_bits(reference, other, tile_noise) for other in repeats)),
        "title": float(any(reference.title != other.title for other in repeats)),
    }

    for other in repeats:
        if reference.status != other.status:
            return _undecided(
                f"the original gave status {reference.status} then {other.status}", noise
            )
        if _strip(reference.final_url, set()) != _strip(other.final_url, set()):
            return _undecided(
                f"the original led to {reference.final_url} then {other.final_url}", noise
            )
    reasons: list[str] = []
    changes: set[Change] = set()
    if candidate.status != reference.status:
        reasons.append(f"status {reference.status} became {candidate.status}")
        changes.add("status")
    # Request URLs differ by the removed parameter; compare where each one ended up.
    if not carried and _strip(reference.final_url, removed) != _strip(candidate.final_url, removed):
        reasons.append(f"led to {candidate.final_url} instead of {reference.final_url}")
        changes.add("destination")
    if noise["tiles"] > MAX_NOISE or noise["text_lines"] > MAX_NOISE:
        if reasons:
            return Comparison("changed", tuple(reasons), {}, noise, frozenset(changes))
        return _undecided(
            f"noise covers {noise['tiles']:.0%} of the screen and "
            f"{noise['text_lines']:.0%} of the text",
            noise,
        )

    changed_lines = _text_changes(reference.lines, candidate.lines, noisy_lines)
    if changed_lines:
        before, after = changed_lines[0]
        reasons.append(f"text differs: {_short(before)!r} became {_short(after)!r}")
        changes.add("text")
    if not noise["title"] and candidate.title != reference.title:
        reasons.append(f"title {reference.title!r} became {candidate.title!r}")
        changes.add("title")
    if changed_tiles:
        top = min(row for _, row in changed_tiles) * TILE
        reasons.append(f"{len(changed_tiles)} screen tiles differ outside the noise, from y={top}")
        changes.add("tiles")
    distances = {
        "tiles": round(len(changed_tiles) / total_tiles, 4),
        "text_lines": float(len(changed_lines)),
        "tile_hash_bits": float(_max_bits(reference, candidate, changed_tiles)),
        "height_px": float(abs(candidate.height - reference.height)),
    }
    if reasons:
        return Comparison("changed", tuple(reasons), distances, noise, frozenset(changes))
    return Comparison("same", ("no difference outside the page's own noise",), distances, noise)


def carried_destination(reference: Fingerprint, candidate: Fingerprint) -> str:
    """The original's final URL without the removed parameter, if it carries it (else "").

    The removed parameter is what ``reference.url`` has and ``candidate.url`` lacks. The
    original's final URL must carry it with the very values it was asked with, and the
    candidate's final URL none of it: a server that keeps the query on its way (MediaWiki's
    ``/wiki/Old_Mill?ref=a`` ends at ``/w/index.php?title=Riverside_Mill&ref=a``,
    ``/wiki/Old_Mill`` at ``/wiki/Riverside_Mill``). Where that URL then leads
    (:func:`lands_where`) says whether the destinations differ by the parameter alone.

    >>> from learner.judge.fingerprint import Fingerprint
    >>> def at(url: str, final: str) -> Fingerprint:
    ...     return Fingerprint(url, final, 200, "", (), 1, 1, 0, 0, ())
    >>> carried_destination(at("http://w.test/wiki/Old?ref=a", "http://w.test/w?title=New&ref=a"),
    ...                     at("http://w.test/wiki/Old", "http://w.test/wiki/New"))
    'http://w.test/w?title=New'
    >>> carried_destination(at("http://w.test/wiki/Old?ref=a", "http://w.test/w?title=New&ref=b"),
    ...                     at("http://w.test/wiki/Old", "http://w.test/wiki/New"))
    ''
    """
    removed = _query_names(reference.url) - _query_names(candidate.url)
    asked = [(n, v) for n, v in _params(reference.url) if n in removed]
    carried = [(n, v) for n, v in _params(reference.final_url) if n in removed]
    if not asked or carried != asked or _query_names(candidate.final_url) & removed:
        return ""
    return edit_observed(reference.final_url.partition("#")[0], drop=removed)


def lands_where(landed: Fingerprint, candidate: Fingerprint) -> bool:
    """Whether a render (of :func:`carried_destination`) ended where ``candidate`` did.

    Status and final URL (fragment left out, host in lower case) must be the same.
    """
    return landed.status == candidate.status and _strip(landed.final_url, set()) == _strip(
        candidate.final_url, set()
    )


def names_value_of(reference: Fingerprint, candidate: Fingerprint, destination: str) -> bool:
    """Whether ``destination`` spells a value of the parameter the candidate lacks.

    A destination that names the value (``/go?to=mill`` led to ``/page/mill``) was chosen by
    the parameter, whatever it carries. Values and the URL (its path and the values of its
    other parameters) are read as runs of letters and digits, case folded: ``x`` is not
    found in ``index.php``, ``Mill`` is in ``Riverside_Mill``. A value without letters or
    digits names nothing.

    >>> from learner.judge.fingerprint import Fingerprint
    >>> def at(url: str) -> Fingerprint:
    ...     return Fingerprint(url, url, 200, "", (), 1, 1, 0, 0, ())
    >>> old, bare = at("http://w.test/go?to=Mill&ref=x"), at("http://w.test/go?ref=x")
    >>> names_value_of(old, bare, "http://w.test/page/riverside-mill")
    True
    >>> names_value_of(at("http://w.test/wiki/Old?wprov=x"), at("http://w.test/wiki/Old"),
    ...                "http://w.test/w/index.php?title=Riverside_Mill")
    False
    """
    removed = _query_names(reference.url) - _query_names(candidate.url)
    words = _words(unquote(urlsplit(destination).path))
    for name, value in _params(destination):
        words += [] if name in removed else _words(value)
    for name, value in _params(reference.url):
        run = _words(value) if name in removed else []
        if run and any(words[i : i + len(run)] == run for i in range(len(words) - len(run) + 1)):
            return True
    return False


def _words(text: str) -> list[str]:
    return [word.casefold() for word in re.findall(r"[^\W_]+", text)]


def _short(text: str, limit: int = 80) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _undecided(reason: str, noise: Mapping[str, float]) -> Comparison:
    return Comparison("undecided", (reason,), {}, dict(noise))


def _params(url: str) -> list[tuple[str, str]]:
    """The query parameters as the normalizer reads them; none for a non-http(s) URL."""
    try:
        return query_params(url)
    except InvalidURL:
        return []


def _query_names(url: str) -> set[str]:
    return {name for name, _ in _params(url)}


def _strip(url: str, names: set[str]) -> str:
    """Drop the fragment and the named query parameters."""
    parts = urlsplit(url)
    query = [(n, v) for n, v in _params(url) if n not in names]
    return urlunsplit((parts.scheme, parts.netloc.lower(), parts.path, urlencode(query), ""))


def _tile_diff(a: Fingerprint, b: Fingerprint) -> set[Cell]:
    """Tiles whose pixels differ, or that exist in only one of the two screenshots."""
    cells: set[Cell] = set()
    for row in range(max(a.rows, b.rows)):
        for column in range(max(a.columns, b.columns)):
            one, other = a.tile(column, row), b.tile(column, row)
            if one is None or other is None or one != other:
                cells.add((column, row))
    return cells


def _dilate(cells: set[Cell], columns: int, rows: int) -> set[Cell]:
    # Noise seen in two samples rarely shows its full extent (a banner's next text may be
    # longer), so each noisy tile also masks its neighbours.
    grown: set[Cell] = set()
    for column, row in cells:
        for dc in (-1, 0, 1):
            for dr in (-1, 0, 1):
                if 0 <= column + dc < columns and 0 <= row + dr < rows:
                    grown.add((column + dc, row + dr))
    return grown


def _max_bits(a: Fingerprint, b: Fingerprint, cells: set[Cell]) -> int:
    """Largest perceptual-hash Hamming distance over the given tiles present in both."""
    if not cells:
        return 0
    ours, theirs = a.tile_hashes(cells), b.tile_hashes(cells)
    return max(((ours[c] ^ theirs[c]).bit_count() for c in ours.keys() & theirs.keys()), default=0)


@dataclass(frozen=True, slots=True)
class _NoisyLines:
    lines: frozenset[int]
    """Indices of reference lines that differ in the repeat."""
    spans: tuple[tuple[int, int, int], ...]
    """(first, end, width) for each differing run: reference lines [first, end) and the
    most lines either side had there."""

    def explains(self, i1: int, i2: int, candidate_lines: int) -> bool:
        if any(i not in self.lines for i in range(i1, i2)):
            return False
        # An insertion or replacement is noise only where the repeat also varied, and only
        # as many lines as it varied by there.
        budget = sum(width for first, end, width in self.spans if first <= i2 and end >= i1)
        return budget > 0 and candidate_lines <= budget


def _text_noise(reference: Sequence[str], repeat: Sequence[str]) -> tuple[int, _NoisyLines]:
    matcher = difflib.SequenceMatcher(None, reference, repeat, autojunk=False)
    lines: set[int] = set()
    spans = []
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag != "equal":
            lines.update(range(i1, i2))
            spans.append((i1, i2, max(i2 - i1, j2 - j1)))
    return len(lines), _NoisyLines(frozenset(lines), tuple(spans))


def _text_changes(
    reference: Sequence[str], candidate: Sequence[str], noisy: _NoisyLines
) -> list[tuple[str, str]]:
    """List (reference text, candidate text) for each difference the noise cannot explain."""
    matcher = difflib.SequenceMatcher(None, reference, candidate, autojunk=False)
    changes = []
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag != "equal" and not noisy.explains(i1, i2, j2 - j1):
            changes.append((" / ".join(reference[i1:i2]), " / ".join(candidate[j1:j2])))
    return changes
