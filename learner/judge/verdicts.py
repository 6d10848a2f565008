"""Why each verdict is what it is, and how much of a site a run decided.

Every parameter verdict the learner writes carries a typed cause (``cause`` in the learned
file, beside the counts): ``changed`` and ``no-change`` are verdicts decided by evidence;
every other cause says why a parameter was kept for want of it. :func:`account` adds up,
for one domain, how many studied parameters were decided and what kept the rest, naming
the sample failures behind each cause; :func:`warnings` turns a cause that keeps more than
a quarter of a domain's parameters into a line a run prints. A learner that keeps
everything looks safe and does nothing: this is what makes that loud.

The causes are :class:`samepage.learned.VerdictCause` (re-exported here): the learned file
owns its vocabulary, and its validator refuses a cause it does not name.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from learner.model import PairOutcome
from samepage import ParamVerdict, PatternEntry
from samepage.learned import VerdictCause

__all__ = [
    "WARN_SHARE",
    "Account",
    "VerdictCause",
    "account",
    "cause_of",
    "warnings",
]

WARN_SHARE = 0.25
"""A cause that keeps more than this share of a domain's studied parameters is warned of."""


def cause_of(verdict: ParamVerdict) -> VerdictCause:
    """The cause recorded with ``verdict`` (``cause`` in the learned file).

    Every verdict the learner writes records one; a set written without one (by hand, or
    by an older learner) reads as :attr:`VerdictCause.UNRECORDED`, never as a cause guessed
    from its counts.

    >>> cause_of(ParamVerdict("non-neutral", 3, 2, 0, cause=VerdictCause.CHANGED)).value
    'changed'
    >>> cause_of(ParamVerdict("neutral", 4, 0, 0)).value
    'unrecorded'
    """
    return verdict.cause or VerdictCause.UNRECORDED


@dataclass(frozen=True, slots=True)
class Account:
    """How many of one domain's studied parameters were decided, and what kept the rest."""

    studied: int = 0
    decided: int = 0
    kept: Mapping[str, int] = field(default_factory=dict)
    """Parameters kept for want of evidence, by :class:`VerdictCause` value."""
    failures: Mapping[str, Mapping[str, int]] = field(default_factory=dict)
    """For each such cause, the failures of its samples, by what the sample said."""
    uncovered: Mapping[str, str] = field(default_factory=dict)
    """Parameters kept for want of samples across a companion's values (``pattern name``),
    with the reason: the companion and the share of the URLs its covered values hold."""

    def commonest_failure(self, cause: str) -> str:
        """The failure met most by the samples of parameters kept for ``cause`` ("" if none)."""
        said = self.failures.get(cause, {})
        return max(said, key=lambda s: said[s]) if said else ""

    @property
    def decided_share(self) -> float:
        """The share of studied parameters decided by evidence (1.0 when none was studied)."""
        return self.decided / self.studied if self.studied else 1.0

    def to_json(self) -> dict[str, Any]:
        """This account as JSON (``stats.json``)."""
        return {
            "studied": self.studied,
            "decided": self.decided,
            "decided_share": round(self.decided_share, 3),
            "kept": dict(self.kept),
            "failures": {cause: dict(f) for cause, f in self.failures.items()},
            "uncovered": dict(self.uncovered),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Account:
        """Read an account written by :meth:`to_json` (the report reads ``stats.json``)."""
        kept, failures = data.get("kept"), data.get("failures")
        uncovered = data.get("uncovered")
        return cls(
            int(data.get("studied", 0)),
            int(data.get("decided", 0)),
            dict(kept) if isinstance(kept, dict) else {},
            dict(failures) if isinstance(failures, dict) else {},
            dict(uncovered) if isinstance(uncovered, dict) else {},
        )


def _failure(outcome: PairOutcome) -> str:
    """What a failed sample said, short enough to group by.

    A sample failed by a render says which render failure, and the step a timeout ran out
    in (``original-failed: timeout at screenshot``); an unsettled one what was still going
    on; otherwise its cause alone.
    """
    cause = "" if outcome.cause is None else outcome.cause.value
    evidence = outcome.evidence
    if evidence.failure is not None:
        said, step = f"{cause}: {evidence.failure.cause.value}", evidence.failure.step
        return said if step is None else f"{said} at {step.value}"
    if evidence.unsettled:
        return f"{cause}: {evidence.unsettled[0]}"
    return cause or "unknown"


def account(patterns: Mapping[str, PatternEntry], outcomes: Iterable[PairOutcome]) -> Account:
    """Add up one domain's verdicts: decided by evidence, or kept and why.

    A parameter is decided when its pattern's verdict, or its verdict on a template scope
    of the pattern, rests on evidence.

    Args:
        patterns: the domain's studied patterns, by pattern key.
        outcomes: every sample outcome of the domain (fresh or resumed), to name the
            failures behind the causes.
    """
    failed = {(o.original, o.candidate): o for o in outcomes if o.outcome == "failed"}
    studied = decided = 0
    kept: Counter[str] = Counter()
    failures: dict[str, Counter[str]] = {}
    uncovered: dict[str, str] = {}
    for key, entry in patterns.items():
        for name, verdict in entry.params.items():
            studied += 1
            cause = cause_of(verdict)
            scoped = (s.params[name] for s in entry.templates.values() if name in s.params)
            if cause.decided or any(cause_of(v).decided for v in scoped):
                decided += 1
                continue
            kept[cause.value] += 1
            if cause == VerdictCause.COMPANIONS:
                uncovered[f"{key} {name}"] = verdict.reason or ""
            said = failures.setdefault(cause.value, Counter())
            for sample in verdict.samples or ():
                outcome = failed.get((sample.url, sample.candidate))
                if outcome is not None:
                    said[_failure(outcome)] += 1
    return Account(
        studied,
        decided,
        dict(kept.most_common()),
        {cause: dict(said.most_common(5)) for cause, said in failures.items() if said},
        uncovered,
    )


def warnings(domain: str, found: Account) -> list[str]:
    """A line for each cause that kept over :data:`WARN_SHARE` of the studied parameters.

    Each names the domain, the cause and the failure its samples met most.
    """
    lines = []
    for cause, count in found.kept.items():
        if found.studied and count / found.studied > WARN_SHARE:
            top = found.commonest_failure(cause)
            lines.append(
                f"{domain}: {count} of {found.studied} studied parameters kept for want of "
                f"evidence ({cause}{'; most samples: ' + top if top else ''}); "
                f"decided {found.decided} of {found.studied}"
            )
    return lines
