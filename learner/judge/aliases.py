"""What the renders of a candidate alias prove: publish the rule, or keep the spellings apart.

A candidate (:mod:`learner.plan.aliases`) is published only when:

- every sample (a URL as observed against its other spelling) rendered "same" by
  :func:`~learner.judge.decision.decide` (``spellings=True``: the pages are compared, not
  where they end; settled renders, noise and confirmation as for any sample). A sample that
  failed, or was not settled, keeps the spellings apart, as a changed one does: it proves
  nothing, and an alias merges URLs;
- every context of the URLs the rule would rewrite was sampled, and at least
  ``min_samples`` samples succeeded;
- a control showed two values differ: the sample's page against the other spelling of
  another value of the same context is "changed". Without it, "same" could be a comparison
  that cannot tell two pages of this site apart (a login wall, an error page for every value),
  and two different pages would get one key.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from learner.model import PairOutcome
from learner.plan.aliases import AliasCandidate
from samepage import PathAlias

__all__ = ["AliasAccount", "AliasFinding", "AliasVerdict", "check_alias"]

Compare = Callable[[str, str], Awaitable[PairOutcome]]
"""Compare two spellings of one page (the sample runner with ``spellings=True``)."""


class AliasFinding(StrEnum):
    """What a candidate alias's samples showed."""

    LEARNED = "learned"
    """Every sample the same and a control different: published."""
    APART = "apart"
    """A sample changed or failed: the spellings stay two keys."""
    UNPROVEN = "unproven"
    """Too few samples, a context not sampled or no control that differed: not published."""


@dataclass(frozen=True, slots=True)
class AliasVerdict:
    """One candidate's finding, the reason and its evidence."""

    candidate: AliasCandidate
    finding: AliasFinding
    reason: str
    same: int = 0
    controls: int = 0

    @property
    def rule(self) -> PathAlias:
        """The candidate's rule, with its evidence when learned."""
        rule = self.candidate.rule
        if self.finding is not AliasFinding.LEARNED:
            return rule
        evidence = {
            "hint": self.candidate.hint,
            "shared_values": self.candidate.shared,
            "urls": self.candidate.urls,
            "samples": self.same,
            "contexts": len(self.candidate.contexts),
            "controls": self.controls,
        }
        return PathAlias(rule.from_, rule.to, evidence)

    def to_json(self) -> dict[str, Any]:
        """This verdict as JSON (``stats.json``)."""
        return {
            "from": self.candidate.rule.from_,
            "to": self.candidate.rule.to,
            "finding": self.finding.value,
            "reason": self.reason,
            "samples": self.same,
            "controls": self.controls,
        }


async def check_alias(
    candidate: AliasCandidate, compare: Compare, min_samples: int
) -> AliasVerdict:
    """Render ``candidate``'s samples and controls (see the module) and judge them."""

    def verdict(finding: AliasFinding, reason: str, same: int, controls: int = 0) -> AliasVerdict:
        return AliasVerdict(candidate, finding, reason, same, controls)

    sampled = {s.context for s in candidate.samples}
    missing = [c for c in candidate.contexts if c not in sampled]
    if missing:
        return verdict(AliasFinding.UNPROVEN, f"context {missing[0]!r} not sampled", 0)
    same = 0
    for sample in candidate.samples:
        outcome = await compare(sample.url, sample.spelled)
        if outcome.outcome != "same":
            why = f"{sample.url} and {sample.spelled}: {outcome.outcome} ({outcome.reason})"
            return verdict(AliasFinding.APART, why, same)
        same += 1
    if same < min_samples:
        return verdict(AliasFinding.UNPROVEN, f"{same} samples, {min_samples} needed", same)
    controls = 0
    for sample in (s for s in candidate.samples if s.other):
        outcome = await compare(sample.url, sample.other)
        if outcome.outcome != "changed":
            why = (
                f"control {sample.url} against {sample.other}: {outcome.outcome}, not changed "
                f"({outcome.reason})"
            )
            return verdict(AliasFinding.UNPROVEN, why, same, controls)
        controls += 1
    if controls == 0:
        return verdict(AliasFinding.UNPROVEN, "no control: no two values in one context", same)
    return verdict(
        AliasFinding.LEARNED, f"{same} samples the same, {controls} controls differ", same, controls
    )


@dataclass(frozen=True, slots=True)
class AliasAccount:
    """What the alias study of one domain cost and found."""

    renders: int = 0
    verdicts: tuple[AliasVerdict, ...] = ()
    bound: str = ""
    """Why the study stopped short ("" when it did not)."""

    def rules(self, finding: AliasFinding) -> list[AliasVerdict]:
        """The verdicts with this finding."""
        return [v for v in self.verdicts if v.finding is finding]

    def describe(self) -> str:
        """One line for the closing table and the report.

        >>> AliasAccount(4).describe()
        'aliases: 0 candidates, 4 renders'
        """
        head = f"aliases: {len(self.verdicts)} candidates, {self.renders} renders"
        parts = [head]
        for finding in AliasFinding:
            found = self.rules(finding)
            if found:
                parts.append(
                    f"{finding.value}: " + ", ".join(v.candidate.rule.describe() for v in found)
                )
        if self.bound:
            parts.append(self.bound)
        return "; ".join(parts)

    def to_json(self) -> dict[str, Any]:
        """This account as JSON (``stats.json``)."""
        return {
            "renders": self.renders,
            "candidates": [v.to_json() for v in self.verdicts],
            "bound": self.bound,
        }
