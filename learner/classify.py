"""The MIQPS method for one pattern: per-parameter verdicts, early exit, the joint check.

The renders and comparisons are behind one callable, ``compare(original, candidate)``, so this
module holds only the method: which pairs to look at, when to stop, and what to conclude.
A parameter is neutral only with ``min_samples`` successful samples, no change among them,
and samples that covered the pattern's contexts (``min_contexts`` paths and companion
values, where the pattern has that many); a parameter whose first ``give_up_after``
originals could not be used is given up and kept.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from learner.config import LearnerConfig
from learner.evidence import Spread, Tally, coverage, coverage_gap
from learner.model import PairOutcome
from learner.sampling import (
    PatternGroup,
    choose_samples,
    context_of,
    keep_only,
    without_param,
)
from learner.verdicts import VerdictCause, cause_of
from samepage import ParamVerdict, PatternEntry

logger = logging.getLogger(__name__)

__all__ = ["classify_pattern", "gave_up", "kept"]

Compare = Callable[[str, str], Awaitable[PairOutcome]]


async def _test_param(
    name: str, group: PatternGroup, urls: list[str], config: LearnerConfig, compare: Compare
) -> ParamVerdict:
    """Test one parameter on its sample URLs, stopping as soon as the verdict is settled."""
    tally = Tally()
    planned = len(urls)
    for url in urls:
        outcome = await compare(url, without_param(url, name))
        tally.add(outcome, context_of(group.static_of(url), name))
        # Settled non-neutral: even if every remaining sample came out the same, the change
        # rate would stay above the threshold.
        if tally.changed > config.threshold * planned:
            break
        # Settled undecidable: too few samples left to reach min_samples successes.
        if tally.tested + (planned - tally.tested - tally.failed) < config.min_samples:
            break
        # Hopeless: the originals themselves keep failing; more of them would cost a page
        # timeout each and could only end in "kept".
        if tally.hopeless >= config.give_up_after:
            break
    return _verdict(tally, planned, config, Spread.of(group, name))


def _verdict(tally: Tally, planned: int, config: LearnerConfig, spread: Spread) -> ParamVerdict:
    counts = (tally.tested, tally.changed, tally.failed)
    found = coverage(tally, spread)
    extra: dict[str, Any] = {"samples": tally.samples, "coverage": found}
    if tally.changed > config.threshold * max(tally.tested, 1) and tally.changed:
        extra["cause"] = VerdictCause.CHANGED.value
        return ParamVerdict("non-neutral", *counts, extra=extra)
    reason, cause = "", VerdictCause.NO_CHANGE
    if tally.hopeless >= config.give_up_after and tally.tested == 0:
        reason = f"given up: the first {tally.hopeless} originals could not be used"
        cause = VerdictCause.ORIGINALS_UNUSABLE
    elif tally.tested < config.min_samples:
        if planned < config.min_samples and not tally.failed:
            reason = f"only {planned} distinct value(s) observed; {config.min_samples} needed"
            cause = VerdictCause.FEW_VALUES
        else:
            reason = f"only {tally.tested} successful sample(s); {config.min_samples} needed"
            cause = VerdictCause.FAILED_SAMPLES
    else:
        reason = coverage_gap(found, config.min_contexts)
        cause = VerdictCause.COVERAGE if reason else cause
    extra["cause"] = cause.value
    if reason:
        if tally.reasons:
            reason += " (" + "; ".join(tally.reasons[:3]) + ")"
        return ParamVerdict("non-neutral", *counts, reason=reason, extra=extra)
    return ParamVerdict("neutral", *counts, extra=extra)


def gave_up(entry: PatternEntry) -> bool:
    """Whether every parameter of a studied pattern was given up (its originals failed)."""
    return all(cause_of(v).gave_up for v in entry.params.values())


async def _joint_check(
    group: PatternGroup,
    verdicts: dict[str, ParamVerdict],
    urls: list[str],
    config: LearnerConfig,
    compare: Compare,
) -> tuple[dict[str, ParamVerdict], list[dict[str, str]]]:
    """Grow the kept set until the URL reduced to it renders the original page.

    Parameters can stand in for each other (two ids, either of which finds the item): each
    looks neutral alone, but dropping both changes the page. On a few sample URLs, reduce the
    URL to its non-neutral parameters; if the page changes, add back the first neutral
    parameter that restores it (or all of them when none does alone). A sample that cannot
    be rendered proves nothing; if no sample can be, every parameter is kept.
    """
    names = group.names
    keep = {n for n in names if not verdicts[n].neutral}
    verified = 0
    checks: list[dict[str, str]] = []
    for url in urls:
        if verified >= config.joint_samples or keep.issuperset(names):
            break
        while not keep.issuperset(names):
            outcome = await compare(url, keep_only(url, keep, names))
            checks.append({"url": url, "candidate": outcome.candidate, "outcome": outcome.outcome})
            if outcome.outcome == "failed":
                break
            if outcome.outcome == "same":
                verified += 1
                break
            missing = sorted(n for n in names if n not in keep)
            restored = None
            for name in missing:
                trial = await compare(url, keep_only(url, keep | {name}, names))
                checks.append({"url": url, "candidate": trial.candidate, "outcome": trial.outcome})
                if trial.outcome == "same":
                    restored = name
                    break
            if restored:
                others = ", ".join(n for n in missing if n != restored) or "the others"
                _mark(
                    verdicts,
                    [restored],
                    f"joint check: needed once {others} are dropped",
                    VerdictCause.JOINT_CHECK,
                )
                keep.add(restored)
            else:
                _mark(
                    verdicts,
                    missing,
                    "joint check: dropping these together changes the page",
                    VerdictCause.JOINT_CHECK,
                )
                keep.update(missing)
    if verified == 0 and not keep.issuperset(names):
        missing = [n for n in names if n not in keep]
        _mark(
            verdicts,
            missing,
            "joint check could not be rendered on any sample",
            VerdictCause.JOINT_UNRENDERED,
        )
    return verdicts, checks


def _mark(
    verdicts: dict[str, ParamVerdict], names: list[str], reason: str, cause: VerdictCause
) -> None:
    for name in names:
        verdicts[name] = kept(verdicts[name], reason, cause)


def kept(verdict: ParamVerdict, reason: str, cause: VerdictCause) -> ParamVerdict:
    """``verdict`` made non-neutral for ``reason``, its counts and samples unchanged."""
    return ParamVerdict(
        "non-neutral",
        verdict.tested,
        verdict.changed,
        verdict.failed,
        reason=reason,
        extra={**verdict.extra, "cause": cause.value},
    )


async def classify_pattern(
    group: PatternGroup,
    config: LearnerConfig,
    compare: Compare,
    *,
    seed: str,
) -> PatternEntry:
    """Decide every parameter of one pattern, then check the kept set jointly.

    Args:
        group: the pattern and its URLs.
        config: samples, threshold, min_samples, min_contexts, give_up_after and
            joint_samples come from here.
        compare: renders and compares two URLs (cached and polite: the caller's concern).
        seed: the seed of the sample choice (the run seed with the site and pattern).
    """
    names = group.names
    samples = choose_samples(group, names, config.samples, seed)
    results = await asyncio.gather(
        *(_test_param(n, group, samples[n], config, compare) for n in names)
    )
    verdicts = dict(zip(names, results, strict=True))
    checks: list[dict[str, str]] = []
    if any(v.neutral for v in verdicts.values()):
        # The URLs sampled for the first neutral parameter: they have rendered already.
        first = next(n for n in names if verdicts[n].neutral)
        verdicts, checks = await _joint_check(group, verdicts, samples[first], config, compare)
    return PatternEntry(group.count, verdicts, extra={"joint_checks": checks} if checks else {})
