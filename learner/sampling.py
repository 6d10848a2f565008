"""MIQPS sampling: group a site's URLs by pattern, pick the top patterns, pick samples."""

from __future__ import annotations

import logging
import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from samepage import InvalidURL, MIQPSNormalizer

logger = logging.getLogger(__name__)

__all__ = [
    "PatternGroup",
    "choose_samples",
    "group_by_pattern",
    "keep_only",
    "param_values",
    "top_patterns",
    "without_param",
]


@dataclass(frozen=True, slots=True)
class PatternGroup:
    """The URLs of one site that share a pattern.

    Attributes:
        pattern: the pattern key (``samepage.pattern_key``).
        urls: distinct URLs, blocklist applied (``MIQPSNormalizer.static_url``), first seen first.
        count: how many observed URLs had this pattern, duplicates included.
    """

    pattern: str
    urls: tuple[str, ...]
    count: int

    @property
    def names(self) -> list[str]:
        """The parameter names of the pattern."""
        return self.pattern.split("&")


def group_by_pattern(urls: Iterable[str], normalizer: MIQPSNormalizer) -> dict[str, PatternGroup]:
    """Group URLs by pattern key; URLs without parameters and invalid lines are skipped."""
    seen: dict[str, dict[str, None]] = {}
    counts: dict[str, int] = {}
    for url in urls:
        try:
            pattern = normalizer.pattern_key(url)
            static = normalizer.static_url(url)
        except InvalidURL as exc:
            logger.debug("skipping %s", exc)
            continue
        if not pattern:
            continue
        seen.setdefault(pattern, {})[static] = None
        counts[pattern] = counts.get(pattern, 0) + 1
    return {p: PatternGroup(p, tuple(u), counts[p]) for p, u in seen.items()}


def top_patterns(groups: dict[str, PatternGroup], k: int) -> list[PatternGroup]:
    """The ``k`` patterns seen most often (ties broken by pattern key, for determinism)."""
    return sorted(groups.values(), key=lambda g: (-g.count, g.pattern))[:k]


def _pairs(url: str) -> list[tuple[str, str]]:
    query = url.partition("#")[0].partition("?")[2]
    return [(piece.partition("=")[0], piece) for piece in query.split("&") if piece]


def param_values(url: str, name: str) -> tuple[str, ...]:
    """Every value of ``name`` in a normalised URL, in order."""
    return tuple(piece.partition("=")[2] for n, piece in _pairs(url) if n == name)


def _rebuild(url: str, keep: set[str] | None, drop: str | None) -> str:
    head, hash_, fragment = url.partition("#")
    base, _, _ = head.partition("?")
    pieces = [
        piece for name, piece in _pairs(url) if (keep is None or name in keep) and name != drop
    ]
    out = f"{base}?{'&'.join(pieces)}" if pieces else base
    return f"{out}{hash_}{fragment}"


def without_param(url: str, name: str) -> str:
    """A normalised URL with every occurrence of parameter ``name`` removed.

    >>> without_param("https://s.example/p?a=1&b=2&a=3#!/x", "a")
    'https://s.example/p?b=2#!/x'
    """
    return _rebuild(url, None, name)


def keep_only(url: str, names: Iterable[str]) -> str:
    """A normalised URL reduced to the parameters in ``names``.

    >>> keep_only("https://s.example/p?a=1&b=2&c=3", {"a", "c"})
    'https://s.example/p?a=1&c=3'
    """
    return _rebuild(url, set(names), None)


def choose_samples(
    group: PatternGroup, names: Sequence[str], size: int, seed: str
) -> dict[str, list[str]]:
    """For each parameter, up to ``size`` URLs with pairwise distinct values of it.

    One seeded shuffle of the group's URLs serves every parameter, so the same URLs tend to
    be chosen for all of them and one render of an original serves several tests.
    """
    order = list(group.urls)
    random.Random(seed).shuffle(order)
    chosen: dict[str, list[str]] = {}
    for name in names:
        values: set[tuple[str, ...]] = set()
        picks: list[str] = []
        for url in order:
            value = param_values(url, name)
            if value in values:
                continue
            values.add(value)
            picks.append(url)
            if len(picks) == size:
                break
        chosen[name] = picks
    return chosen
