"""Which patterns of a domain are studied: most URLs first, until a share of them is covered.

A run studies a domain's patterns in descending count of observed URLs and stops once the
patterns chosen cover ``cover`` (default 0.95) of the domain's URLs that carry parameters,
or once ``cap`` patterns are chosen (``--top-patterns``). A URL counts as covered when its
pattern is chosen, or when the evidence shared across patterns can reach it
(:mod:`learner.judge.shared`): a chosen pattern has every parameter name of the URL's
pattern, and URLs on the same path template. That is what the normalizer asks of a shared
verdict before it drops a parameter of an unknown pattern: a pattern it rests on had the
parameter beside every other parameter of the URL. The shared evidence decides such a
URL's parameters only where the chosen patterns' samples land on that template and agree;
the learned file's ``shared`` section says what it decided, this module only what it can
reach.

Ties between patterns of the same count are never broken by name alone: the pattern that
brings more parameter names not yet reached (a name on one of its templates that no chosen
pattern carries there) comes first, then a seeded order (an MD5 of the run seed, the domain
and the pattern). A plan (``learner plan``) and a crawl make the choice through
:func:`choose_patterns`, on the same counts; the crawl then studies the chosen patterns in
order within its render budget, and :meth:`Choice.cut` moves those it had no renders left
for to the patterns left (:attr:`Left.BUDGET`).
"""

from __future__ import annotations

import hashlib
import heapq
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from learner.plan.sampling import PatternGroup, sample_seed, template_urls
from samepage.urls import pattern_names

__all__ = [
    "LEFT_SHOWN",
    "Choice",
    "Left",
    "LeftPattern",
    "PatternWeight",
    "Studied",
    "choose_groups",
    "choose_patterns",
    "floor_share",
    "left_line",
    "studied_groups",
    "weight_of",
]

LEFT_SHOWN = 20
"""Patterns left listed by name in an account (the most URLs first); the rest are counted."""


class Left(StrEnum):
    """Why a pattern of a domain was not studied."""

    SHARE = "share"
    """The patterns before it already covered the share asked for (``--cover``)."""
    CAP = "cap"
    """The most patterns a domain is studied on were chosen (``--top-patterns``)."""
    BUDGET = "budget"
    """The domain's render budget was spent before it, or during its study
    (``--renders-per-domain``)."""
    TIME = "time"
    """The domain's time limit was reached before it was studied."""


@dataclass(frozen=True, slots=True)
class PatternWeight:
    """What the choice knows of one pattern: its URLs and the path templates they fall on.

    Attributes:
        pattern: the pattern key.
        urls: observed URLs with this pattern, duplicates included.
        templates: distinct URLs per path template, among those the pattern keeps
            (:func:`~learner.plan.sampling.template_urls`); the pattern's ``urls`` are shared
            out among its templates in these proportions.
    """

    pattern: str
    urls: int
    templates: Mapping[str, int] = field(default_factory=dict)

    @property
    def names(self) -> tuple[str, ...]:
        """The parameter names of the pattern."""
        return tuple(pattern_names(self.pattern))

    def on(self, template: str) -> float:
        """The pattern's observed URLs on ``template`` (a share of :attr:`urls`)."""
        total = sum(self.templates.values())
        return self.urls * self.templates.get(template, 0) / total if total else 0.0


def weight_of(group: PatternGroup) -> PatternWeight:
    """The weight of a pattern's group: its count and its URLs per path template."""
    return PatternWeight(group.pattern, group.count, template_urls(group))


@dataclass(frozen=True, slots=True)
class Studied:
    """A pattern chosen for study, and the URLs covered once it and those before it are."""

    pattern: str
    urls: int
    covered: float


@dataclass(frozen=True, slots=True)
class LeftPattern:
    """A pattern not studied, with its observed URLs and why."""

    pattern: str
    urls: int
    because: Left


@dataclass(frozen=True, slots=True)
class Choice:
    """The patterns a domain studies, in order, and those it leaves.

    Attributes:
        urls: the domain's observed URLs that carry parameters, duplicates included.
        studied: the patterns chosen, in the order they are studied.
        left: the patterns not studied, most URLs first.
        cover: the share of ``urls`` the choice was asked to cover.
    """

    urls: int = 0
    studied: tuple[Studied, ...] = ()
    left: tuple[LeftPattern, ...] = ()
    cover: float = 1.0

    @property
    def covered(self) -> float:
        """The URLs the studied patterns and the evidence shared across them reach."""
        return self.studied[-1].covered if self.studied else 0.0

    @property
    def share(self) -> float:
        """The share of the domain's URLs with parameters covered (1.0 when it has none)."""
        return min(1.0, self.covered / self.urls) if self.urls else 1.0

    @property
    def patterns(self) -> tuple[str, ...]:
        """The patterns studied, in order."""
        return tuple(s.pattern for s in self.studied)

    def cut(self, done: int, because: Left = Left.BUDGET) -> Choice:
        """This choice with only its first ``done`` patterns studied: the rest left ``because``.

        The covered URLs of a prefix are those the choice counted when it took it, so a cut
        choice counts exactly what its studied patterns reach.
        """
        if done >= len(self.studied):
            return self
        spent = tuple(LeftPattern(s.pattern, s.urls, because) for s in self.studied[done:])
        left = sorted((*spent, *self.left), key=lambda p: -p.urls)
        return Choice(self.urls, self.studied[:done], tuple(left), self.cover)

    def to_json(self, shown: int = LEFT_SHOWN) -> dict[str, Any]:
        """This choice as JSON (``stats.json``, plan files); ``shown`` left patterns by name."""
        counts: dict[str, int] = {}
        for p in self.left:
            counts[p.because.value] = counts.get(p.because.value, 0) + 1
        return {
            "urls": self.urls,
            "covered": round(self.covered, 3),
            "share": floor_share(self.share),
            "cover": self.cover,
            "studied": [[s.pattern, s.urls, round(s.covered, 3)] for s in self.studied],
            "left": [[p.pattern, p.urls, p.because.value] for p in self.left[:shown]],
            "left_patterns": len(self.left),
            "left_urls": sum(p.urls for p in self.left),
            "left_because": dict(sorted(counts.items())),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Choice:
        """Read a choice written by :meth:`to_json` (its first left patterns only).

        Raises:
            KeyError, TypeError, ValueError: ``data`` is not such a choice.
        """
        studied = tuple(Studied(str(p), int(u), float(c)) for p, u, c in data["studied"])
        left = tuple(LeftPattern(str(p), int(u), Left(b)) for p, u, b in data["left"])
        return cls(int(data["urls"]), studied, left, float(data["cover"]))


def left_line(coverage: Mapping[str, Any], shown: int = 5) -> str:
    """The patterns left by a choice, in one line, from its JSON (:meth:`Choice.to_json`).

    How many, their URLs, why, and the largest (as many as the JSON lists, at most ``shown``).

    >>> left_line(Choice(10, (Studied("a", 8, 9.0),), (LeftPattern("b", 2, Left.SHARE),)).to_json())
    '1 pattern(s) left (2 URLs; 1 share): b (2)'
    """
    count = int(coverage.get("left_patterns", 0))
    if not count:
        return "no pattern left"
    because = dict(coverage.get("left_because", {}))
    why = ", ".join(f"{n} {reason}" for reason, n in sorted(because.items()))
    listed = list(coverage.get("left", []))[:shown]
    largest = ", ".join(f"{pattern} ({urls})" for pattern, urls, _ in listed)
    more = f", {count - len(listed)} more" if count > len(listed) else ""
    urls = int(coverage.get("left_urls", 0))
    return f"{count} pattern(s) left ({urls} URLs; {why}): {largest}{more}"


def floor_share(share: float) -> float:
    """A share to three decimals, rounded down (95.0% never shows for 94.99%)."""
    return int(share * 1000 + 1e-9) / 1000


def choose_patterns(
    weights: Iterable[PatternWeight],
    *,
    cover: float,
    cap: int,
    seed: int = 0,
    domain: str = "",
) -> Choice:
    """The patterns a domain studies: most URLs first, until ``cover`` of its URLs is covered.

    Args:
        weights: every pattern of the domain (URLs without parameters are not among them).
        cover: the share of the URLs to cover, in (0, 1].
        cap: the most patterns chosen.
        seed: the run seed; with ``domain``, it orders patterns tied on URLs and on the
            names they bring.
        domain: the domain's key.
    """
    pool = {w.pattern: w for w in weights}
    total = sum(w.urls for w in pool.values())
    reached: set[tuple[str, str]] = set()
    studied: list[Studied] = []
    covered = 0.0
    counted: set[str] = set()  # patterns whose every URL is already counted as covered
    partial: dict[tuple[str, str], float] = {}  # (pattern, template) reached: URLs counted
    by_template: dict[str, list[PatternWeight]] = {}
    for w in pool.values():
        for t in w.templates:
            by_template.setdefault(t, []).append(w)

    def fresh(w: PatternWeight) -> int:
        """Names of ``w`` that some template of it has, and no chosen pattern carries there."""
        return sum(1 for n in w.names if any((t, n) not in reached for t in w.templates))

    def tiebreak(w: PatternWeight) -> str:
        digest = hashlib.md5(sample_seed(seed, domain, w.pattern).encode(), usedforsecurity=False)
        return digest.hexdigest()

    # Lazy greedy: a pattern's fresh names only fall as patterns are chosen, so a stale
    # count popped first is recounted and pushed back until the top is up to date.
    heap = [(-w.urls, -fresh(w), tiebreak(w), w.pattern) for w in pool.values()]
    heapq.heapify(heap)
    while heap and len(studied) < cap and (total == 0 or covered < cover * total - 1e-9):
        urls, stale, order, pattern = heapq.heappop(heap)
        w = pool[pattern]
        now = -fresh(w)
        if now != stale and heap and (urls, now, order) > heap[0][:3]:
            heapq.heappush(heap, (urls, now, order, pattern))
            continue
        reached.update((t, n) for t in w.templates for n in w.names)
        covered += w.urls - sum(partial.pop((pattern, t), 0.0) for t in w.templates)
        counted.add(pattern)
        covered += _newly_reached(w, by_template, counted, partial)
        studied.append(Studied(pattern, w.urls, covered))
    because = Left.CAP if len(studied) >= cap and covered < cover * total - 1e-9 else Left.SHARE
    chosen = {s.pattern for s in studied}
    left = sorted(
        (w for w in pool.values() if w.pattern not in chosen),
        key=lambda w: (-w.urls, tiebreak(w)),
    )
    return Choice(
        total, tuple(studied), tuple(LeftPattern(w.pattern, w.urls, because) for w in left), cover
    )


def _newly_reached(
    chosen: PatternWeight,
    by_template: Mapping[str, Sequence[PatternWeight]],
    counted: set[str],
    partial: dict[tuple[str, str], float],
) -> float:
    """URLs of patterns not chosen that the shared evidence reaches now, not counted before.

    A pattern's URLs on a template are reached once a chosen pattern with URLs on that
    template has every one of its names: only ``chosen`` can reach more now. ``partial``
    holds the URLs counted so far per (pattern, template) reached.
    """
    names = set(chosen.names)
    gained = 0.0
    for template in chosen.templates:
        for w in by_template[template]:
            key = (w.pattern, template)
            if w.pattern in counted or key in partial or not names.issuperset(w.names):
                continue
            partial[key] = w.on(template)
            gained += partial[key]
    return gained


def studied_groups(groups: Sequence[PatternGroup], choice: Choice) -> list[PatternGroup]:
    """The groups of the studied patterns, in the order of ``choice``."""
    by_pattern = {g.pattern: g for g in groups}
    return [by_pattern[p] for p in choice.patterns]


def choose_groups(
    groups: Mapping[str, PatternGroup], *, cover: float, cap: int, seed: int, domain: str
) -> tuple[list[PatternGroup], Choice]:
    """The groups a domain studies, in order, and the choice they come from.

    The one choice of a crawl from its URLs and of a plan (:func:`choose_patterns` on
    :func:`weight_of` each group).
    """
    choice = choose_patterns(
        (weight_of(g) for g in groups.values()), cover=cover, cap=cap, seed=seed, domain=domain
    )
    return studied_groups(list(groups.values()), choice), choice
