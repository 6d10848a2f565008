"""The MIQPS method for one pattern: per-parameter verdicts, early exit, the joint check.

The renders and comparisons are behind one callable, ``compare(original, candidate)``, so this
module holds only the method: which pairs to look at, when to stop, and what to conclude.
A parameter is neutral only with ``min_samples`` successful samples, no change among them,
samples that covered ``min_contexts`` values of the other parameters (where the pattern has
that many), and successful samples on path templates that hold ``min_share`` of the
pattern's URLs; a parameter whose first ``give_up_after`` originals could not be used is
given up and kept.

Outcomes are grouped by path template (:func:`samepage.path_template`). Where templates
disagree (a change on one, none on another) or the pattern lacks the share while a template
has evidence enough, the pattern keeps the parameter and a template scope
(``PatternEntry.templates``) holds each template's own verdict.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from learner.config import LearnerConfig
from learner.judge.tally import Spread, Tally, coverage, coverage_gap, share_gap
from learner.judge.verdicts import VerdictCause, cause_of
from learner.model import PairOutcome
from learner.plan.picks import choose_samples, more_samples, one_per_template
from learner.plan.sampling import (
    PatternGroup,
    context_of,
    keep_only,
    param_values,
    template_of,
    template_urls,
    without_param,
)
from samepage import ParamVerdict, PatternEntry, TemplateScope

logger = logging.getLogger(__name__)

__all__ = ["classify_pattern", "gave_up", "kept"]

Compare = Callable[[str, str], Awaitable[PairOutcome]]


@dataclass(slots=True)
class _Outcomes:
    """One parameter's sample outcomes: all of them, and per path template."""

    name: str
    group: PatternGroup
    all: Tally = field(default_factory=Tally)
    by_template: dict[str, Tally] = field(default_factory=dict)
    planned: dict[str, int] = field(default_factory=dict)
    """Samples planned per template."""
    urls: list[str] = field(default_factory=list)
    """Every sample URL tested, in order."""

    def add(self, url: str, outcome: PairOutcome) -> None:
        static = self.group.static_of(url)
        context = context_of(static, self.name)
        self.all.add(outcome, context)
        self.by_template.setdefault(template_of(static), Tally()).add(outcome, context)
        self.urls.append(url)

    def changed_on(self, template: str, threshold: float) -> bool:
        """Whether the samples of ``template`` settled a change there."""
        tally = self.by_template.get(template)
        planned = max(self.planned.get(template, 0), 1)
        return tally is not None and tally.changed > threshold * planned

    def changed_templates(self, threshold: float) -> list[str]:
        return [t for t in sorted(self.by_template) if self.changed_on(t, threshold)]


async def _test_param(
    name: str,
    group: PatternGroup,
    urls: list[str],
    config: LearnerConfig,
    compare: Compare,
    seed: str,
) -> tuple[ParamVerdict, dict[str, ParamVerdict]]:
    """Test one parameter on its sample URLs, stopping as soon as the verdicts are settled.

    Returns the pattern's verdict and the verdicts of the templates that get a scope.
    """
    found = _Outcomes(name, group)
    templates = [template_of(group.static_of(url)) for url in urls]
    for template in templates:
        found.planned[template] = found.planned.get(template, 0) + 1
    # After a change, only a template that could still be neutral on its own (it has
    # min_samples distinct values of the parameter) is worth more samples.
    could_differ = _templates_with_values(group, name, config.min_samples)

    def settled(template: str) -> bool:
        changed = found.changed_templates(config.threshold)
        return template in changed or (bool(changed) and template not in could_differ)

    for index, url in enumerate(urls):
        if settled(templates[index]):
            continue  # a change is settled there, or its samples could prove no more
        outcome = await compare(url, without_param(url, name))
        found.add(url, outcome)
        tally, rest = found.all, templates[index + 1 :]
        changed = found.changed_templates(config.threshold)
        # Settled non-neutral: the change rate stays above the threshold whatever comes, and
        # no sample left could show a template that disagrees.
        if tally.changed > config.threshold * len(urls) and all(settled(t) for t in rest):
            break
        # Settled undecidable: too few samples left to reach min_samples successes.
        if not changed and tally.tested + len(rest) < config.min_samples:
            break
        # Hopeless: the originals themselves keep failing; more of them would cost a page
        # timeout each and could only end in "kept".
        if tally.hopeless >= config.give_up_after:
            break
    await _reach_share(found, config, compare, seed)
    await _settle_disagreement(found, config, compare, seed)
    verdict = _verdict(found, len(urls), config, Spread.of(group, name))
    return verdict, _scoped(found, config) if not verdict.neutral else {}


async def _reach_share(
    found: _Outcomes, config: LearnerConfig, compare: Compare, seed: str
) -> None:
    """Sample templates not sampled yet until the successes hold ``min_share`` of the URLs.

    Only for a parameter that looks neutral (no change, not given up) but whose successful
    samples are on too small a share of the pattern's URLs: one URL per template not yet
    sampled, most URLs first, at most ``samples`` more, and only when those could reach the
    share (a pattern spread over many small templates is kept without the renders).
    """
    tally = found.all
    if tally.changed or tally.hopeless >= config.give_up_after:
        return
    urls = template_urls(found.group)
    total = sum(urls.values())

    def covered() -> int:
        return sum(urls[t] for t, seen in found.by_template.items() if seen.tested)

    untried = [t for t in urls if t not in found.by_template][: config.samples]
    if covered() >= config.min_share * total:
        return
    if covered() + sum(urls[t] for t in untried) < config.min_share * total:
        return
    for url in one_per_template(found.group, found.name, untried, found.urls, seed):
        found.add(url, await compare(url, without_param(url, found.name)))
        if tally.changed or covered() >= config.min_share * total:
            break


def _templates_with_values(group: PatternGroup, name: str, least: int) -> set[str]:
    """The templates whose URLs hold at least ``least`` distinct values of ``name``."""
    values: dict[str, set[tuple[str, ...]]] = {}
    for static in group.statics:
        values.setdefault(template_of(static), set()).add(param_values(static, name))
    return {template for template, seen in values.items() if len(seen) >= least}


async def _settle_disagreement(
    found: _Outcomes, config: LearnerConfig, compare: Compare, seed: str
) -> None:
    """Where one template changed, give each template that looks neutral ``min_samples``.

    A template with successful samples and no change, but fewer than ``min_samples`` of
    them, gets more samples of its own (at most ``samples`` in all on it). Only templates
    that disagree pay: without a change elsewhere nothing more is drawn.
    """
    if not found.changed_templates(config.threshold):
        return
    could_differ = _templates_with_values(found.group, found.name, config.min_samples)
    for template in sorted(found.by_template):
        tally = found.by_template[template]
        if tally.changed or not tally.tested or tally.tested >= config.min_samples:
            continue
        if template not in could_differ:
            continue
        room = config.samples - tally.tested - tally.failed
        more = more_samples(found.group, found.name, template, found.urls, room, seed)
        for drawn, url in enumerate(more, start=1):
            found.add(url, await compare(url, without_param(url, found.name)))
            if tally.changed or tally.tested >= config.min_samples:
                break
            if tally.tested + len(more) - drawn < config.min_samples:
                break  # too few left to reach min_samples


def _verdict(found: _Outcomes, planned: int, config: LearnerConfig, spread: Spread) -> ParamVerdict:
    tally = found.all
    counts = (tally.tested, tally.changed, tally.failed)
    seen = coverage(tally, spread)
    extra: dict[str, Any] = {"samples": tally.samples, "coverage": seen}
    changed = tally.changed > config.threshold * max(tally.tested, 1) and tally.changed
    if changed or found.changed_templates(config.threshold):
        extra["cause"] = VerdictCause.CHANGED.value
        return ParamVerdict("non-neutral", *counts, extra=extra)
    reason, cause = _want(tally, planned, config)
    if not reason:
        gaps = (
            coverage_gap(seen, config.min_contexts, kinds=("companions",)),
            share_gap(seen, config.min_share),
        )
        reason = "; ".join(gap for gap in gaps if gap)
        cause = VerdictCause.COVERAGE if reason else cause
    extra["cause"] = cause.value
    if reason:
        if tally.reasons:
            reason += " (" + "; ".join(tally.reasons[:3]) + ")"
        return ParamVerdict("non-neutral", *counts, reason=reason, extra=extra)
    return ParamVerdict("neutral", *counts, extra=extra)


def _want(tally: Tally, planned: int, config: LearnerConfig) -> tuple[str, VerdictCause]:
    """Why too few samples succeeded to decide, if so (the reason is "" otherwise)."""
    if tally.hopeless >= config.give_up_after and tally.tested == 0:
        reason = f"given up: the first {tally.hopeless} originals could not be used"
        return reason, VerdictCause.ORIGINALS_UNUSABLE
    if tally.tested < config.min_samples:
        if planned < config.min_samples and not tally.failed:
            reason = f"only {planned} distinct value(s) observed; {config.min_samples} needed"
            return reason, VerdictCause.FEW_VALUES
        reason = f"only {tally.tested} successful sample(s); {config.min_samples} needed"
        return reason, VerdictCause.FAILED_SAMPLES
    return "", VerdictCause.NO_CHANGE


def _scoped(found: _Outcomes, config: LearnerConfig) -> dict[str, ParamVerdict]:
    """Each template's own verdict, where some template is neutral on its own evidence.

    Neutral on a template: ``min_samples`` successful samples there, no change, and the
    template's values of the other parameters covered; changed where its samples changed.
    A template with less evidence gets no scope (the pattern's keep holds there).
    """
    out: dict[str, ParamVerdict] = {}
    for template, tally in sorted(found.by_template.items()):
        spread = Spread.of(found.group, found.name, template)
        seen = coverage(tally, spread)
        extra: dict[str, Any] = {"samples": tally.samples, "coverage": seen}
        counts = (tally.tested, tally.changed, tally.failed)
        if found.changed_on(template, config.threshold):
            extra["cause"] = VerdictCause.CHANGED.value
            out[template] = ParamVerdict("non-neutral", *counts, extra=extra)
        elif (
            not tally.changed
            and tally.tested >= config.min_samples
            and not coverage_gap(seen, config.min_contexts, kinds=("companions",))
        ):
            extra["cause"] = VerdictCause.NO_CHANGE.value
            out[template] = ParamVerdict("neutral", *counts, extra=extra)
    return out if any(v.neutral for v in out.values()) else {}


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


async def _scoped_joint_check(
    group: PatternGroup,
    verdicts: Mapping[str, ParamVerdict],
    template: str,
    scoped: dict[str, ParamVerdict],
    config: LearnerConfig,
    compare: Compare,
) -> list[dict[str, str]]:
    """Check that a template's neutral parameters can be dropped together, on its samples.

    On that template the normalizer drops the pattern's neutral parameters and the
    template's scoped neutral ones at once: the URL reduced to the rest must render the
    original page on ``joint_samples`` samples of the template (the first one rendered
    with each scoped neutral parameter). If one changes, or none can be rendered, the
    scoped neutral verdicts are kept (``joint-check``, ``joint-unrendered``).
    """
    names = group.names
    neutral = {n for n, v in verdicts.items() if v.neutral}
    neutral |= {n for n, v in scoped.items() if v.neutral}
    neutral -= {n for n, v in scoped.items() if not v.neutral}
    scoped_neutral = sorted(n for n, v in scoped.items() if v.neutral)
    checks: list[dict[str, str]] = []
    if len(names) < 2 or not scoped_neutral:
        return checks  # nothing scoped to drop, or the one parameter's own test
    urls = [
        str(sample["url"])
        for sample in scoped[scoped_neutral[0]].extra.get("samples", ())
        if sample.get("outcome") == "same"
    ]
    verified, changed = 0, False
    for url in urls:
        if verified >= config.joint_samples:
            break
        outcome = await compare(url, keep_only(url, set(names) - neutral, names))
        checks.append({"url": url, "candidate": outcome.candidate, "outcome": outcome.outcome})
        verified += outcome.outcome == "same"
        if outcome.outcome == "changed":
            changed = True
            break
    if changed or not verified:
        cause = VerdictCause.JOINT_CHECK if changed else VerdictCause.JOINT_UNRENDERED
        reason = (
            f"joint check on {template}: dropping these together changes the page"
            if changed
            else f"joint check on {template} could not be rendered on any sample"
        )
        for name in scoped_neutral:
            scoped[name] = kept(scoped[name], reason, cause)
    return checks


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
        config: samples, threshold, min_samples, min_contexts, min_share, give_up_after and
            joint_samples come from here.
        compare: renders and compares two URLs (cached and polite: the caller's concern).
        seed: the seed of the sample choice (the run seed with the site and pattern).
    """
    names = group.names
    samples = choose_samples(group, names, config.samples, seed)
    results = await asyncio.gather(
        *(_test_param(n, group, samples[n], config, compare, seed) for n in names)
    )
    verdicts = {n: verdict for n, (verdict, _) in zip(names, results, strict=True)}
    checks: list[dict[str, str]] = []
    if any(v.neutral for v in verdicts.values()):
        # The URLs sampled for the first neutral parameter: they have rendered already.
        first = next(n for n in names if verdicts[n].neutral)
        verdicts, checks = await _joint_check(group, verdicts, samples[first], config, compare)
    by_template: dict[str, dict[str, ParamVerdict]] = {}
    for name, (_, scopes) in zip(names, results, strict=True):
        for template, verdict in scopes.items():
            by_template.setdefault(template, {})[name] = verdict
    urls = Spread.of(group, names[0]).templates
    templates: dict[str, TemplateScope] = {}
    for template, scoped in sorted(by_template.items()):
        joint = await _scoped_joint_check(group, verdicts, template, scoped, config, compare)
        extra: dict[str, Any] = {"joint_checks": joint} if joint else {}
        templates[template] = TemplateScope(urls.get(template, 0), scoped, extra)
    return PatternEntry(
        group.count,
        verdicts,
        extra={"joint_checks": checks} if checks else {},
        templates=templates,
    )
