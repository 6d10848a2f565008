"""The MIQPS decision for one pattern: per-parameter verdicts, early exit, the joint check.

The renders and comparisons are behind one callable, ``compare(original, candidate)``, so this
module holds only the method: which pairs to look at, when to stop, and what to conclude.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from learner.config import LearnerConfig
from learner.sampling import PatternGroup, choose_samples, keep_only, without_param
from samepage import ParamVerdict, PatternEntry

logger = logging.getLogger(__name__)

__all__ = ["PairOutcome", "classify_pattern"]

Outcome = Literal["same", "changed", "failed"]


@dataclass(frozen=True, slots=True)
class PairOutcome:
    """The comparison of an original URL's page with a candidate URL's page."""

    original: str
    candidate: str
    outcome: Outcome
    reason: str = ""
    evidence: Mapping[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        """This outcome as JSON (for checkpoints and reports)."""
        return {
            "original": self.original,
            "candidate": self.candidate,
            "outcome": self.outcome,
            "reason": self.reason,
            "evidence": dict(self.evidence),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> PairOutcome:
        """Read an outcome written by :meth:`to_json`."""
        return cls(
            data["original"],
            data["candidate"],
            data["outcome"],
            data.get("reason", ""),
            data.get("evidence", {}),
        )


Compare = Callable[[str, str], Awaitable[PairOutcome]]


@dataclass(slots=True)
class _Tally:
    tested: int = 0
    changed: int = 0
    failed: int = 0
    reasons: list[str] = field(default_factory=list)
    samples: list[dict[str, Any]] = field(default_factory=list)

    def add(self, outcome: PairOutcome) -> None:
        if outcome.outcome == "failed":
            self.failed += 1
            if outcome.reason and outcome.reason not in self.reasons:
                self.reasons.append(outcome.reason)
        else:
            self.tested += 1
            self.changed += outcome.outcome == "changed"
        self.samples.append(
            {"url": outcome.original, "candidate": outcome.candidate, "outcome": outcome.outcome}
        )


async def _test_param(
    name: str, urls: list[str], config: LearnerConfig, compare: Compare
) -> ParamVerdict:
    """Test one parameter on its sample URLs, stopping as soon as the verdict is settled."""
    tally = _Tally()
    planned = len(urls)
    for url in urls:
        tally.add(await compare(url, without_param(url, name)))
        # Settled non-neutral: even if every remaining sample came out the same, the change
        # rate would stay above the threshold.
        if tally.changed > config.threshold * planned:
            break
        # Settled undecidable: too few samples left to reach min_samples successes.
        if tally.tested + (planned - tally.tested - tally.failed) < config.min_samples:
            break
    return _verdict(tally, planned, config)


def _verdict(tally: _Tally, planned: int, config: LearnerConfig) -> ParamVerdict:
    counts = (tally.tested, tally.changed, tally.failed)
    extra: dict[str, Any] = {"samples": tally.samples}
    if tally.changed > config.threshold * max(tally.tested, 1) and tally.changed:
        return ParamVerdict("non-neutral", *counts, extra=extra)
    if tally.tested < config.min_samples:
        if planned < config.min_samples and not tally.failed:
            reason = f"only {planned} distinct value(s) observed; {config.min_samples} needed"
        else:
            reason = f"only {tally.tested} successful sample(s); {config.min_samples} needed"
        if tally.reasons:
            reason += " (" + "; ".join(tally.reasons[:3]) + ")"
        return ParamVerdict("non-neutral", *counts, reason=reason, extra=extra)
    return ParamVerdict("neutral", *counts, extra=extra)


async def _joint_check(
    names: list[str],
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
    keep = {n for n in names if not verdicts[n].neutral}
    verified = 0
    checks: list[dict[str, str]] = []
    for url in urls:
        if verified >= config.joint_samples or keep.issuperset(names):
            break
        while not keep.issuperset(names):
            outcome = await compare(url, keep_only(url, keep))
            checks.append({"url": url, "candidate": outcome.candidate, "outcome": outcome.outcome})
            if outcome.outcome == "failed":
                break
            if outcome.outcome == "same":
                verified += 1
                break
            missing = sorted(n for n in names if n not in keep)
            restored = None
            for name in missing:
                trial = await compare(url, keep_only(url, keep | {name}))
                checks.append({"url": url, "candidate": trial.candidate, "outcome": trial.outcome})
                if trial.outcome == "same":
                    restored = name
                    break
            if restored:
                others = ", ".join(n for n in missing if n != restored) or "the others"
                _mark(verdicts, [restored], f"joint check: needed once {others} are dropped")
                keep.add(restored)
            else:
                _mark(verdicts, missing, "joint check: dropping these together changes the page")
                keep.update(missing)
    if verified == 0 and not keep.issuperset(names):
        missing = [n for n in names if n not in keep]
        _mark(verdicts, missing, "joint check could not be rendered on any sample")
    return verdicts, checks


def _mark(verdicts: dict[str, ParamVerdict], names: list[str], reason: str) -> None:
    for name in names:
        old = verdicts[name]
        verdicts[name] = ParamVerdict(
            "non-neutral", old.tested, old.changed, old.failed, reason=reason, extra=old.extra
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
        config: samples, threshold, min_samples and joint_samples come from here.
        compare: renders and compares two URLs (cached and polite: the caller's concern).
        seed: the seed of the sample choice (the run seed with the site and pattern).
    """
    names = group.names
    samples = choose_samples(group, names, config.samples, seed)
    results = await asyncio.gather(*(_test_param(n, samples[n], config, compare) for n in names))
    verdicts = dict(zip(names, results, strict=True))
    checks: list[dict[str, str]] = []
    if any(v.neutral for v in verdicts.values()):
        # The URLs sampled for the first neutral parameter: they have rendered already.
        first = next(n for n in names if verdicts[n].neutral)
        verdicts, checks = await _joint_check(names, verdicts, samples[first], config, compare)
    return PatternEntry(group.count, verdicts, extra={"joint_checks": checks} if checks else {})
