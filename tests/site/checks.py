"""Checks the end-to-end learner tests share: verdict tables and merge pairs."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from samepage import LearnedSet, MIQPSNormalizer

__all__ = ["assert_merges_only_same_pages", "learned_defaults", "verdicts"]


def verdicts(learned: LearnedSet) -> dict[str, dict[str, dict[str, str]]]:
    """host -> pattern -> parameter -> verdict."""
    return {
        host: {
            p: {n: v.verdict for n, v in entry.params.items()}
            for p, entry in domain.patterns.items()
        }
        for host, domain in learned.domains.items()
    }


def learned_defaults(learned: LearnedSet, host: str) -> dict[str, dict[str, frozenset[str]]]:
    """pattern -> parameter -> its learned default values, for the patterns that have any."""
    return {
        key: {name: frozenset(v.defaults) for name, v in entry.params.items() if v.defaults}
        for key, entry in learned.domains[host].patterns.items()
        if any(v.defaults for v in entry.params.values())
    }


def assert_merges_only_same_pages(
    learned: Path,
    same: Iterable[tuple[str, str]],
    different: Iterable[tuple[str, str]],
) -> None:
    """The normalizer built from ``learned`` merges every ``same`` pair and no ``different``."""
    norm = MIQPSNormalizer(learned=learned)
    for a, b in same:
        assert norm.normalize(a) == norm.normalize(b), (a, b)
    for a, b in different:
        assert norm.normalize(a) != norm.normalize(b), (a, b)
