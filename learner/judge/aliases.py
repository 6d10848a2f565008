"""What the renders of a candidate alias prove: publish the rule, or keep the spellings apart.

A candidate (:mod:`learner.plan.aliases`) is published only when:

- every sample (a URL as observed against its other spelling) rendered "same" by
  :func:`~learner.judge.decision.decide` (``spellings=True``: the pages are compared, not
  where they end; settled renders, noise and confirmation as for any sample). A sample
  whose render failed or was not settled (:data:`REPLACEABLE`) proves nothing and never
  counts: it is replaced by a spare URL of its context (at most
  :data:`~learner.plan.aliases.REPLACEMENTS` times), and without one it keeps the spellings
  apart, as a changed sample does, or one that failed otherwise (noise too large, a change
  not confirmed);
- every context of the URLs the rule would rewrite was sampled, and at least
  ``min_samples`` samples succeeded;
- a control showed two values differ: the sample's page against the other spelling of
  another value of the same context is "changed". Without it, "same" could be a comparison
  that cannot tell two pages of this site apart (a login wall, an error page for every value),
  and two different pages would get one key. A control counts when the two pages differ
  with the same status (any page differs from an error page: a value the site does not
  serve is no control). A control whose render failed, or that differed only so, is
  replaced by another value's spelling; one that is "same" is never passed over.
"""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, TypeVar

from learner.model import Cause, PairOutcome
from learner.plan.aliases import REPLACEMENTS, AliasCandidate, AliasSample
from samepage.aliases import Alias
from samepage.errors import LearnedFormatError
from samepage.learned import RefusedAlias, check_aliases

__all__ = [
    "REPLACEABLE",
    "AliasAccount",
    "AliasFinding",
    "AliasVerdict",
    "check_alias",
    "publishable",
]

REPLACEABLE = frozenset(
    {
        Cause.ORIGINAL_FAILED,
        Cause.ORIGINAL_STATUS,
        Cause.ORIGINAL_UNSETTLED,
        Cause.REPEAT_FAILED,
        Cause.CANDIDATE_FAILED,
        Cause.UNSETTLED,
    }
)
"""Failed samples that say nothing of the two spellings, only that a render failed, was not
settled, or that the observed URL answered no page (a status other than 2xx): another URL
of the context is tried. A sample whose pages were compared and not found alike (noise too
large to judge, a change not confirmed) is not replaced."""

T = TypeVar("T")

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
    replaced: int = 0
    """Samples and controls replaced by another URL (never counted): a render failed, or a
    control differed by its status alone."""

    @property
    def rule(self) -> Alias:
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
        if self.replaced:
            evidence["replaced"] = self.replaced
        return dataclasses.replace(rule, evidence=evidence)

    def refused(self) -> RefusedAlias:
        """This verdict as a learned set records a candidate it did not publish."""
        from_, to = self.candidate.ends
        return RefusedAlias(
            from_,
            to,
            self.finding.value,
            self.reason,
            self.same,
            self.controls,
            self.replaced,
        )

    def to_json(self) -> dict[str, Any]:
        """This verdict as JSON (``stats.json``)."""
        return self.refused().to_json()


def _replaceable(outcome: PairOutcome) -> bool:
    return outcome.outcome == "failed" and outcome.cause in REPLACEABLE


def _status_only(control: PairOutcome) -> bool:
    """A control that differs by its status: any page differs from an error page."""
    return control.outcome == "changed" and control.cause == Cause.STATUS_CHANGED


async def check_alias(
    candidate: AliasCandidate, compare: Compare, min_samples: int
) -> AliasVerdict:
    """Render ``candidate``'s samples and controls (see the module) and judge them.

    The samples are rendered side by side, then the controls: the first that keeps the
    spellings apart (or publishes nothing) stops the others under way.
    """
    replaced = 0

    def verdict(finding: AliasFinding, reason: str, same: int, controls: int = 0) -> AliasVerdict:
        return AliasVerdict(candidate, finding, reason, same, controls, replaced)

    sampled = {s.context for s in candidate.samples}
    missing = [c for c in candidate.contexts if c not in sampled]
    if missing:
        return verdict(AliasFinding.UNPROVEN, f"context {missing[0]!r} not sampled", 0)
    spares = {c: candidate.spares_of(c) for c in sampled}
    in_use = {s.value for s in candidate.samples}

    async def settle(sample: AliasSample) -> tuple[AliasSample, PairOutcome]:
        nonlocal replaced
        outcome = await compare(sample.url, sample.spelled)
        for _ in range(REPLACEMENTS):
            if not _replaceable(outcome) or not spares[sample.context]:
                break
            replaced += 1
            sample = _spare(spares[sample.context], in_use)
            in_use.add(sample.value)
            outcome = await compare(sample.url, sample.spelled)
        return sample, outcome

    settled, finished = await _side_by_side(
        [settle(s) for s in candidate.samples], lambda found: found[1].outcome != "same"
    )
    if isinstance(settled, tuple):
        sample, outcome = settled
        why = f"{sample.url} and {sample.spelled}: {outcome.outcome} ({outcome.reason})"
        return verdict(AliasFinding.APART, why, finished)
    counted = [sample for sample, _ in settled]
    same = len(counted)
    if candidate.most_samples is not None:
        min_samples = min(min_samples, candidate.most_samples)
    if same < min_samples:
        return verdict(AliasFinding.UNPROVEN, f"{same} samples, {min_samples} needed", same)

    async def control(sample: AliasSample) -> tuple[str, PairOutcome]:
        nonlocal replaced
        others = iter(sample.others)
        other = next(others)
        outcome = await compare(sample.url, other)
        while (_replaceable(outcome) or _status_only(outcome)) and (other := next(others, "")):
            replaced += 1
            outcome = await compare(sample.url, other)
        return f"control {sample.url} against {other or sample.others[-1]}", outcome

    with_others = [s for s in counted if s.others]
    shown, controls = await _side_by_side(
        [control(s) for s in with_others],
        lambda found: found[1].outcome != "changed" or _status_only(found[1]),
    )
    if isinstance(shown, tuple):
        which, outcome = shown
        why = f"{which}: {outcome.outcome}, not changed ({outcome.reason})"
        return verdict(AliasFinding.UNPROVEN, why, same, controls)
    if not with_others:
        return verdict(AliasFinding.UNPROVEN, "no control: no two values in one context", same)
    controls = len(with_others)
    return verdict(
        AliasFinding.LEARNED, f"{same} samples the same, {controls} controls differ", same, controls
    )


async def _side_by_side(
    works: Sequence[Awaitable[T]], stops: Callable[[T], bool]
) -> tuple[list[T] | T, int]:
    """Every result of ``works`` (run at once) in order, or the first to finish that ``stops``.

    With the result that stops comes the number of results finished before it; the works
    still under way are cancelled.
    """
    tasks = [asyncio.ensure_future(work) for work in works]
    finished = 0
    try:
        pending: set[asyncio.Future[T]] = set(tasks)
        while pending:
            done, pending = await asyncio.wait(pending, return_when=asyncio.FIRST_COMPLETED)
            for task in (t for t in tasks if t in done):
                if stops(task.result()):
                    return task.result(), finished
                finished += 1
        return [task.result() for task in tasks], finished
    finally:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)


def _spare(spares: list[AliasSample], values: set[str]) -> AliasSample:
    """The next spare of a context (a value not yet in use first), taken off the list."""
    pick = next((s for s in spares if s.value not in values), spares[0])
    spares.remove(pick)
    return pick


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


def publishable(verdicts: list[AliasVerdict]) -> list[AliasVerdict]:
    """``verdicts``, a learned rule that the ones learned before it would refuse unpublished.

    A learned set's rules must leave every key a fixed point (no rule's result always
    rewritten again: ``docs/learned-format.md``); the reader refuses a set that breaks it.
    """
    kept: list[Alias] = []
    out = []
    for verdict in verdicts:
        if verdict.finding is AliasFinding.LEARNED:
            rule = verdict.rule
            try:
                check_aliases([*kept, rule])
            except LearnedFormatError as exc:
                why = f"refused beside the rules learned before it: {exc}"
                verdict = dataclasses.replace(verdict, finding=AliasFinding.UNPROVEN, reason=why)
            else:
                kept.append(rule)
        out.append(verdict)
    return out
