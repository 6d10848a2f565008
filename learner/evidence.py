"""What a parameter's samples showed: their outcomes, and the contexts they covered.

A verdict (neutral, or a default value) needs successful samples spread over the pattern's
paths and the values of its other parameters; :func:`coverage` measures that spread and
:func:`coverage_gap` says what is missing.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from learner.decision import HOPELESS_ORIGINAL, Cause
from learner.model import PairOutcome
from learner.sampling import Context, PatternGroup, context_of

__all__ = ["Spread", "Tally", "coverage", "coverage_gap"]


@dataclass(slots=True)
class Tally:
    """The outcomes of one parameter's (or value's) samples so far."""

    tested: int = 0
    changed: int = 0
    failed: int = 0
    hopeless: int = 0
    """Samples so far whose original could not be used, before any success."""
    reasons: list[str] = field(default_factory=list)
    samples: list[dict[str, Any]] = field(default_factory=list)
    contexts: list[Context] = field(default_factory=list)
    """The contexts of the successful samples."""

    def add(self, outcome: PairOutcome, context: Context) -> None:
        """Count one sample's outcome, tested in ``context``."""
        if outcome.outcome == "failed":
            self.failed += 1
            if outcome.cause in HOPELESS_ORIGINAL and self.tested == 0:
                self.hopeless += 1
            if outcome.reason and outcome.reason not in self.reasons:
                self.reasons.append(outcome.reason)
        else:
            self.tested += 1
            self.changed += outcome.outcome == "changed"
            self.contexts.append(context)
        sample = {"url": outcome.original, "candidate": outcome.candidate}
        sample["outcome"] = outcome.outcome
        if outcome.cause == Cause.ARCHIVE:
            sample["from"] = "archive"
        self.samples.append(sample)


@dataclass(frozen=True, slots=True)
class Spread:
    """How many paths and companion values a pattern offers for one parameter."""

    paths: int
    companions: int

    @classmethod
    def of(cls, group: PatternGroup, name: str) -> Spread:
        """The spread of ``group`` for the parameter ``name``."""
        contexts = [context_of(static, name) for static in group.statics]
        return cls(len({p for p, _ in contexts}), len({c for _, c in contexts}))


def coverage(tally: Tally, spread: Spread) -> dict[str, Any]:
    """The contexts the successful samples covered, against those the pattern offers."""
    paths = sorted({path for path, _ in tally.contexts})
    return {
        "paths": paths[:5],
        "paths_tested": len(paths),
        "paths_seen": spread.paths,
        "companions_tested": len({c for _, c in tally.contexts}),
        "companions_seen": spread.companions,
    }


def coverage_gap(coverage: dict[str, Any], least: int) -> str:
    """Why the successful samples did not cover enough of the pattern's contexts, if so."""
    for kind, what in (("paths", "paths"), ("companions", "values of the other parameters")):
        need = min(least, coverage[f"{kind}_seen"])
        if coverage[f"{kind}_tested"] < need:
            return (
                f"successful samples covered {coverage[f'{kind}_tested']} of "
                f"{coverage[f'{kind}_seen']} {what}; {need} needed"
            )
    return ""
