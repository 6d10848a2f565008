"""Expected verdicts of the studied parameters of a real application, each with its reason."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from samepage import LearnedSet, ParamVerdict

__all__ = [
    "Expected",
    "decided_by_evidence",
    "evidence_share",
    "neutral",
    "non_neutral",
    "studied",
]

Verdict = Literal["neutral", "non-neutral"]


@dataclass(frozen=True, slots=True)
class Expected:
    """The verdict a parameter must get, and why the application makes it so."""

    verdict: Verdict
    reason: str


def neutral(reason: str) -> Expected:
    """Removing the parameter changes nothing a reader sees, because of ``reason``."""
    return Expected("neutral", reason)


def non_neutral(reason: str) -> Expected:
    """The parameter changes the page, because of ``reason``."""
    return Expected("non-neutral", reason)


def decided_by_evidence(verdict: ParamVerdict) -> bool:
    """Whether a verdict rests on comparisons: neutral, or kept because a change was seen.

    A parameter kept with no change seen was kept for want of evidence (failed or unsettled
    renders, too few samples), which is safe but decides nothing.
    """
    return verdict.neutral or verdict.changed > 0


def studied(learned: LearnedSet, host: str) -> dict[str, dict[str, ParamVerdict]]:
    """pattern -> parameter -> verdict of every parameter the learner studied on ``host``."""
    domain = learned.domains.get(host)
    if domain is None:
        return {}
    return {pattern: dict(entry.params) for pattern, entry in domain.patterns.items()}


def evidence_share(verdicts: dict[str, dict[str, ParamVerdict]]) -> tuple[int, int]:
    """How many studied parameters were decided by evidence, and how many were studied."""
    every = [v for params in verdicts.values() for v in params.values()]
    return sum(decided_by_evidence(v) for v in every), len(every)
