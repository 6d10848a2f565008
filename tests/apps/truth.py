"""Expected verdicts of the studied parameters of a real application, each with its reason."""

from __future__ import annotations

from dataclasses import dataclass

from learner.judge.verdicts import VerdictCause
from samepage import LearnedSet, ParamVerdict
from samepage.learned import Verdict

__all__ = ["Expected", "neutral", "non_neutral", "studied"]



@dataclass(frozen=True, slots=True)
class Expected:
    """The verdict a parameter must get, and why the application makes it so.

    ``kept_for`` is the cause that keeps a parameter for want of evidence where the log
    cannot prove anything (``None``: the verdict must be decided by comparisons).
    """

    verdict: Verdict
    reason: str
    kept_for: VerdictCause | None = None


def neutral(reason: str) -> Expected:
    """Removing the parameter changes nothing a reader sees, because of ``reason``."""
    return Expected("neutral", reason)


def non_neutral(reason: str, kept_for: VerdictCause | None = None) -> Expected:
    """The parameter changes the page, because of ``reason``."""
    return Expected("non-neutral", reason, kept_for)


def studied(learned: LearnedSet, host: str) -> dict[str, dict[str, ParamVerdict]]:
    """pattern -> parameter -> verdict of every parameter the learner studied on ``host``."""
    domain = learned.domains.get(host)
    if domain is None:
        return {}
    return {pattern: dict(entry.params) for pattern, entry in domain.patterns.items()}
