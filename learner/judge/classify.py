"""The MIQPS method for one pattern: per-parameter verdicts, early exit, the joint check.

The renders and comparisons are behind one callable, ``compare(original, candidate)``, so this
module holds only the method: which pairs to look at, when to stop, and what to conclude.
A parameter is neutral only with ``min_samples`` successful samples of as many distinct
values, no change among them that the change-rate rule counts (:mod:`learner.judge.rate`,
over the pattern and over each path template), samples that covered ``min_contexts`` values
of the other parameters (where the pattern has that many), successful samples on path
templates that hold ``min_share`` of the pattern's URLs, and successful samples across the
values of every kept companion parameter holding ``min_share`` of the URLs (every value of a
kept count, such as a page size: :mod:`learner.plan.companions`). A parameter whose first
``give_up_after`` originals could not be used is given up and kept.

Outcomes are grouped by path template (:func:`samepage.path_template`). Where templates
disagree (a change the rule counts on one, none on another) or the pattern lacks the share
while a template has evidence enough, the pattern keeps the parameter and a template scope
(``PatternEntry.templates``) holds each template's own verdict.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Collection
from dataclasses import dataclass, field

from learner.config import LearnerConfig
from learner.judge.joint import Compare, joint_check, scoped_joint_check
from learner.judge.rate import ChangeRule
from learner.judge.tally import (
    Spread,
    Tally,
    companion_gap,
    coverage,
    coverage_gap,
    held_values,
    missing_classes,
    share_gap,
)
from learner.judge.verdicts import VerdictCause, cause_of
from learner.model import PairOutcome
from learner.plan.picks import Picker
from learner.plan.sampling import (
    PatternGroup,
    Value,
    context_of,
    param_values,
    template_of,
    template_urls,
    without_param,
)
from samepage import ParamVerdict, PatternEntry, TemplateScope
from samepage.learned import Sample

logger = logging.getLogger(__name__)

__all__ = ["Compare", "classify_pattern", "gave_up"]


@dataclass(slots=True)
class _Outcomes:
    """One parameter's sample outcomes: all of them, and per path template."""

    name: str
    group: PatternGroup
    spread: Spread
    observed: int
    """Distinct values of the parameter among the pattern's URLs."""
    all: Tally = field(default_factory=Tally)
    by_template: dict[str, Tally] = field(default_factory=dict)
    planned: dict[str, int] = field(default_factory=dict)
    """Samples planned per template."""
    urls: list[str] = field(default_factory=list)
    """Every sample URL tested, in order."""
    values: set[Value] = field(default_factory=set)
    """The values of the parameter among the successful samples."""
    drawn: int = 0
    """Samples drawn to cover the values of kept companions."""

    def add(self, url: str, outcome: PairOutcome) -> None:
        static = self.group.static_of(url)
        context, value = context_of(static, self.name), param_values(static, self.name)
        self.all.add(outcome, context, value)
        self.by_template.setdefault(template_of(static), Tally()).add(outcome, context, value)
        self.urls.append(url)
        if outcome.outcome != "failed":
            self.values.add(value)

    @classmethod
    def of(cls, name: str, group: PatternGroup, config: LearnerConfig) -> _Outcomes:
        """No outcome yet of ``name``'s samples in ``group``."""
        # A class of companion values needs two values of the parameter: one may be the
        # value the page shows anyway (page=1).
        spread = Spread.of(
            group, name, min_share=config.min_share, most_each=config.samples, each=2
        )
        return cls(name, group, spread, len({param_values(s, name) for s in group.statics}))

    def changed_on(self, template: str, rule: ChangeRule) -> bool:
        """Whether the samples of ``template`` show a change there (its verdict)."""
        tally = self.by_template.get(template)
        return tally is not None and rule.changed(tally.changed, tested=tally.tested)

    def settled_on(self, template: str, rule: ChangeRule) -> bool:
        """Whether ``template`` shows a change whatever its planned samples left show."""
        tally = self.by_template.get(template)
        if tally is None:
            return False
        left = max(self.planned.get(template, 0) - tally.tested - tally.failed, 0)
        return rule.settled(tally.changed, tested=tally.tested, left=left)

    def changed(self, rule: ChangeRule) -> bool:
        """Whether the samples show a change: over the pattern, or on one template."""
        tally = self.all
        return rule.changed(tally.changed, tested=tally.tested) or bool(
            self.changed_templates(rule)
        )

    def changed_templates(self, rule: ChangeRule) -> list[str]:
        """The templates whose samples show a change (their verdicts)."""
        return [t for t in sorted(self.by_template) if self.changed_on(t, rule)]

    def settled_templates(self, rule: ChangeRule) -> list[str]:
        """The templates that show a change whatever their planned samples left show."""
        return [t for t in sorted(self.by_template) if self.settled_on(t, rule)]


async def _test_param(
    name: str,
    group: PatternGroup,
    urls: list[str],
    config: LearnerConfig,
    compare: Compare,
    picker: Picker,
) -> _Outcomes:
    """Test one parameter on its sample URLs, stopping as soon as the verdicts are settled."""
    found = _Outcomes.of(name, group, config)
    rule = ChangeRule(config.threshold)
    templates = [template_of(group.static_of(url)) for url in urls]
    for template in templates:
        found.planned[template] = found.planned.get(template, 0) + 1
    # After a change, only a template that could still be neutral on its own (it has
    # min_samples distinct values of the parameter) is worth more samples.
    could_differ = _templates_with_values(group, name, config.min_samples)

    def settled(template: str) -> bool:
        changed = found.settled_templates(rule)
        return template in changed or (bool(changed) and template not in could_differ)

    for index, url in enumerate(urls):
        if settled(templates[index]):
            continue  # a change is settled there, or its samples could prove no more
        outcome = await compare(url, without_param(url, name))
        found.add(url, outcome)
        tally, rest = found.all, templates[index + 1 :]
        changed = found.settled_templates(rule)
        # Settled non-neutral: the change rate stays above the threshold whatever comes, and
        # no sample left could show a template that disagrees.
        over = rule.settled(tally.changed, tested=tally.tested, left=len(rest))
        if over and all(settled(t) for t in rest):
            break
        # Settled undecidable: too few samples left to reach min_samples successes.
        if not changed and tally.tested + len(rest) < config.min_samples:
            break
        # Hopeless: the originals themselves keep failing; more of them would cost a page
        # timeout each and could only end in "kept".
        if tally.hopeless >= config.give_up_after:
            break
    await _reach_share(found, config, compare, picker)
    await _settle_disagreement(found, config, compare, picker)
    return found


async def _reach_share(
    found: _Outcomes, config: LearnerConfig, compare: Compare, picker: Picker
) -> None:
    """Sample templates not sampled yet until the successes hold ``min_share`` of the URLs.

    Only for a parameter that looks neutral (no change the rule counts, not given up) but
    whose successful samples are on too small a share of the pattern's URLs: one URL per
    template not yet sampled, most URLs first, at most ``samples`` more, and only when those
    could reach the share (a pattern spread over many small templates is kept without the
    renders).
    """
    rule = ChangeRule(config.threshold)
    if found.changed(rule) or found.all.hopeless >= config.give_up_after:
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
    for url in picker.one_per_template(found.name, untried, found.urls):
        found.add(url, await compare(url, without_param(url, found.name)))
        if found.changed(rule) or covered() >= config.min_share * total:
            break


def _templates_with_values(group: PatternGroup, name: str, least: int) -> set[str]:
    """The templates whose URLs hold at least ``least`` distinct values of ``name``."""
    values: dict[str, set[tuple[str, ...]]] = {}
    for static in group.statics:
        values.setdefault(template_of(static), set()).add(param_values(static, name))
    return {template for template, seen in values.items() if len(seen) >= least}


async def _settle_disagreement(
    found: _Outcomes, config: LearnerConfig, compare: Compare, picker: Picker
) -> None:
    """Where one template changed, give each template that looks neutral ``min_samples``.

    A template with successful samples and no change, but fewer than ``min_samples`` of
    them, gets more samples of its own (at most ``samples`` in all on it). Only templates
    that disagree pay: without a change elsewhere nothing more is drawn. A change is one the
    rule counts, on the template's own samples.
    """
    rule = ChangeRule(config.threshold)
    if not found.changed_templates(rule):
        return
    could_differ = _templates_with_values(found.group, found.name, config.min_samples)
    for template in sorted(found.by_template):
        tally = found.by_template[template]
        if found.changed_on(template, rule) or not 0 < tally.tested < config.min_samples:
            continue
        if template not in could_differ:
            continue
        room = config.samples - tally.tested - tally.failed
        more = picker.more_of_template(found.name, template, found.urls, room)
        for drawn, url in enumerate(more, start=1):
            found.add(url, await compare(url, without_param(url, found.name)))
            if found.changed_on(template, rule) or tally.tested >= config.min_samples:
                break
            if tally.tested + len(more) - drawn < config.min_samples:
                break  # too few left to reach min_samples


async def _cover_companions(
    found: _Outcomes,
    required: Collection[str],
    config: LearnerConfig,
    compare: Compare,
    picker: Picker,
) -> None:
    """Draw samples until the successes cover the values of the ``required`` companions.

    Only for a parameter that looks neutral otherwise: one URL at a time, the one that
    brings the uncovered values holding the most URLs (every value of a numeric companion),
    at most ``samples`` in all, until a change, or until nothing is missing.
    """
    spread = found.spread

    while found.drawn < config.samples and _verdict(found, config, ()).neutral:
        tally = found.all
        missing = missing_classes(tally.contexts, tally.values, spread, required)
        held = held_values(tally, spread)
        url = picker.covering(found.name, missing, spread.class_of, held, found.urls)
        if not missing or url is None:
            return
        found.drawn += 1
        found.add(url, await compare(url, without_param(url, found.name)))


def _verdict(found: _Outcomes, config: LearnerConfig, required: Collection[str]) -> ParamVerdict:
    """The pattern's verdict on ``found``, the values of the ``required`` companions covered."""
    tally = found.all
    counts = (tally.tested, tally.changed, tally.failed)
    seen = coverage(tally, found.spread)
    samples = tuple(tally.samples)
    if found.changed(ChangeRule(config.threshold)):
        return ParamVerdict(
            "non-neutral", *counts, cause=VerdictCause.CHANGED, samples=samples, coverage=seen
        )
    reason, cause = _want(found, config)
    if not reason:
        gaps = (
            coverage_gap(seen, config.min_contexts, kinds=("companions",)),
            share_gap(seen, config.min_share),
        )
        reason = "; ".join(gap for gap in gaps if gap)
        cause = VerdictCause.COVERAGE if reason else cause
    if not reason:
        reason = companion_gap(seen, required, config.min_share)
        cause = VerdictCause.COMPANIONS if reason else cause
    if reason:
        if tally.reasons:
            reason += " (" + "; ".join(tally.reasons[:3]) + ")"
        return ParamVerdict(
            "non-neutral", *counts, reason=reason, cause=cause, samples=samples, coverage=seen
        )
    return ParamVerdict("neutral", *counts, cause=cause, samples=samples, coverage=seen)


def _want(found: _Outcomes, config: LearnerConfig) -> tuple[str, VerdictCause]:
    """Why too few samples succeeded to decide, if so (the reason is "" otherwise).

    Neutral needs ``min_samples`` successful samples of as many distinct values: a
    parameter whose URLs hold fewer is decided value by value, as default values
    (:mod:`learner.judge.defaults`).
    """
    tally = found.all
    if tally.hopeless >= config.give_up_after and tally.tested == 0:
        reason = f"given up: the first {tally.hopeless} originals could not be used"
        return reason, VerdictCause.ORIGINALS_UNUSABLE
    if found.observed < config.min_samples:
        reason = f"only {found.observed} distinct value(s) observed; {config.min_samples} needed"
        return reason, VerdictCause.FEW_VALUES
    if tally.tested < config.min_samples:
        reason = f"only {tally.tested} successful sample(s); {config.min_samples} needed"
        return reason, VerdictCause.FAILED_SAMPLES
    if len(found.values) < config.min_samples:
        reason = (
            f"successful samples held {len(found.values)} distinct value(s); "
            f"{config.min_samples} needed"
        )
        return reason, VerdictCause.FAILED_SAMPLES
    return "", VerdictCause.NO_CHANGE


def _scoped(
    found: _Outcomes, config: LearnerConfig, required: Collection[str]
) -> dict[str, ParamVerdict]:
    """Each template's own verdict, where some template is neutral on its own evidence.

    Neutral on a template: ``min_samples`` successful samples there, no change the rule
    counts, and the template's values of the other parameters covered (those of the
    ``required`` kept companions by share of the template's URLs); changed where its samples
    show a change the rule counts. A template with less evidence gets no scope (the
    pattern's keep holds there).
    """
    rule = ChangeRule(config.threshold)
    out: dict[str, ParamVerdict] = {}
    for template, tally in sorted(found.by_template.items()):
        spread = Spread.of(
            found.group,
            found.name,
            template,
            min_share=config.min_share,
            most_each=config.samples,
            each=2,
        )
        seen = coverage(tally, spread)
        samples = tuple(tally.samples)
        counts = (tally.tested, tally.changed, tally.failed)
        if found.changed_on(template, rule):
            cause = VerdictCause.CHANGED
            out[template] = ParamVerdict(
                "non-neutral", *counts, cause=cause, samples=samples, coverage=seen
            )
        elif (
            tally.tested >= config.min_samples
            and not coverage_gap(seen, config.min_contexts, kinds=("companions",))
            and not companion_gap(seen, required, config.min_share)
        ):
            cause = VerdictCause.NO_CHANGE
            out[template] = ParamVerdict(
                "neutral", *counts, cause=cause, samples=samples, coverage=seen
            )
    return out if any(v.neutral for v in out.values()) else {}


async def _decide(
    found: dict[str, _Outcomes],
    forced: dict[str, ParamVerdict],
    config: LearnerConfig,
    compare: Compare,
    picker: Picker,
) -> dict[str, ParamVerdict]:
    """The verdicts of a pattern's parameters, each covering the values of the kept ones.

    Which companions are kept is known only once every parameter is decided, and a
    parameter kept for want of such coverage is a kept companion of the others: so, until
    the kept set stops growing, each parameter that looks neutral gets samples drawn to
    cover the values of the parameters kept so far, and is decided again. A parameter
    once kept stays among the companions the others must cover (more samples may make it
    neutral; asking for more coverage only keeps more), so the rounds end.
    ``forced`` verdicts (kept by a joint check) stand as they are.
    """
    kept = set(forced)
    while True:
        verdicts = {
            name: forced.get(name) or _verdict(f, config, kept - {name})
            for name, f in found.items()
        }
        now = {name for name, verdict in verdicts.items() if not verdict.neutral}
        if now <= kept:
            return verdicts
        kept |= now
        await asyncio.gather(
            *(
                _cover_companions(f, kept - {name}, config, compare, picker)
                for name, f in found.items()
                if name not in forced
                and (name not in kept or cause_of(verdicts[name]) == VerdictCause.COMPANIONS)
            )
        )


def gave_up(entry: PatternEntry) -> bool:
    """Whether every parameter of a studied pattern was given up (its originals failed)."""
    return all(cause_of(v).gave_up for v in entry.params.values())


async def classify_pattern(
    group: PatternGroup,
    config: LearnerConfig,
    compare: Compare,
    *,
    seed: str,
) -> PatternEntry:
    """Decide every parameter of one pattern, then check the kept set jointly.

    A parameter the joint check keeps is a kept companion of the others: those still
    neutral are decided again (with samples drawn to cover its values) and checked jointly
    again, until the check keeps nothing more.

    Args:
        group: the pattern and its URLs.
        config: samples, threshold, min_samples, min_contexts, min_share, give_up_after and
            joint_samples come from here.
        compare: renders and compares two URLs (cached and polite: the caller's concern).
        seed: the seed of the sample choice (the run seed with the site and pattern).
    """
    names = group.names
    picker = Picker.of(group, seed)
    samples = picker.first_picks(names, config.samples)
    tested = await asyncio.gather(
        *(_test_param(n, group, samples[n], config, compare, picker) for n in names)
    )
    found = dict(zip(names, tested, strict=True))
    forced: dict[str, ParamVerdict] = {}
    checks: list[Sample] = []
    while True:
        verdicts = await _decide(found, forced, config, compare, picker)
        neutral = [n for n in names if verdicts[n].neutral]
        if not neutral:
            break
        # The URLs tested for the first neutral parameter: they have rendered already.
        urls = found[neutral[0]].urls
        verdicts, done = await joint_check(picker, dict(verdicts), urls, config, compare)
        checks += [check for check in done if check not in checks]
        newly = {n: verdicts[n] for n in neutral if not verdicts[n].neutral}
        if not newly:
            break
        forced.update(newly)
    kept = {n for n in names if not verdicts[n].neutral}
    by_template: dict[str, dict[str, ParamVerdict]] = {}
    for name in sorted(kept):
        for template, verdict in _scoped(found[name], config, kept - {name}).items():
            by_template.setdefault(template, {})[name] = verdict
    urls_of = template_urls(group)
    templates: dict[str, TemplateScope] = {}
    for template, scoped in sorted(by_template.items()):
        joint = await scoped_joint_check(picker, verdicts, template, scoped, config, compare)
        templates[template] = TemplateScope(
            urls_of.get(template, 0), scoped, joint_checks=tuple(joint)
        )
    return PatternEntry(group.count, verdicts, templates=templates, joint_checks=tuple(checks))
