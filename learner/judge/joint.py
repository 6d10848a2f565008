"""The joint check: the parameters a pattern drops, dropped together, leave the page as it is.

Parameters can stand in for each other (two ids, either of which finds the item): each looks
neutral alone, but dropping both changes the page. So before a pattern is published, sample
URLs reduced to what the pattern keeps are compared with the originals, on samples across
the values of the kept parameters (:mod:`learner.plan.companions`), as a neutral verdict's
own samples are.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterable, Mapping, Sequence
from dataclasses import replace

from learner.config import LearnerConfig
from learner.judge.tally import Spread, Tally, companion_gap, coverage, missing_classes
from learner.judge.verdicts import VerdictCause
from learner.model import PairOutcome
from learner.plan.picks import Picker
from learner.plan.sampling import PatternGroup, Value, context_of, keep_only
from samepage import ParamVerdict
from samepage.learned import Sample

__all__ = ["Compare", "joint_check", "kept", "scoped_joint_check"]

Compare = Callable[[str, str], Awaitable[PairOutcome]]


def kept(verdict: ParamVerdict, reason: str, cause: VerdictCause) -> ParamVerdict:
    """``verdict`` made non-neutral for ``reason``, its counts and samples unchanged.

    Its learned defaults are left out: they rest on the same comparisons.
    """
    return replace(verdict, verdict="non-neutral", reason=reason, cause=cause, defaults={})


def _mark(
    verdicts: dict[str, ParamVerdict], names: Iterable[str], reason: str, cause: VerdictCause
) -> None:
    for name in names:
        verdicts[name] = kept(verdicts[name], reason, cause)


class _Verified:
    """The samples a joint check showed the same page on, and the kept values they covered."""

    def __init__(
        self, group: PatternGroup, config: LearnerConfig, template: str | None = None
    ) -> None:
        self.group, self.config, self.template = group, config, template
        self.outcomes: list[PairOutcome] = []
        self._spreads: dict[str, Spread] = {}

    @property
    def urls(self) -> list[str]:
        """The URLs shown the same page reduced."""
        return [outcome.original for outcome in self.outcomes]

    def _pivot(self, keep: Iterable[str]) -> str | None:
        """A parameter the check drops: its companions are the kept parameters."""
        return next((n for n in self.group.names if n not in keep), None)

    def _seen(self, pivot: str) -> tuple[Tally, Spread]:
        if pivot not in self._spreads:
            self._spreads[pivot] = Spread.of(
                self.group,
                pivot,
                self.template,
                min_share=self.config.min_share,
                most_each=self.config.samples,
            )
        tally = Tally()
        for outcome in self.outcomes:
            tally.add(outcome, context_of(self.group.static_of(outcome.original), pivot))
        return tally, self._spreads[pivot]

    def missing(self, keep: Iterable[str]) -> dict[str, dict[Value, int]]:
        """The classes of the kept parameters' values no verified sample has covered yet."""
        names = set(keep)
        pivot = self._pivot(names)
        if pivot is None:
            return {}
        tally, spread = self._seen(pivot)
        return missing_classes(tally.contexts, tally.values, spread, names)

    def class_of(self, keep: Iterable[str], other: str, value: Value) -> Value:
        """The class of a kept parameter's value."""
        pivot = self._pivot(keep)
        assert pivot is not None
        return self._seen(pivot)[1].class_of(other, value)

    def gap(self, keep: Iterable[str]) -> str:
        """Why the verified samples do not cover the kept parameters' values, if so."""
        names = set(keep)
        pivot = self._pivot(names)
        if pivot is None:
            return ""
        found = coverage(*self._seen(pivot))
        return companion_gap(found, names, self.config.min_share)


def _draw(
    verified: _Verified, keep: set[str], tried: Sequence[str], name: str, picker: Picker
) -> list[str]:
    """One more URL that brings kept values the verified samples lack (none: nothing brings any)."""
    missing = verified.missing(keep)
    if not missing:
        return []

    def class_of(other: str, value: Value) -> Value:
        return verified.class_of(keep, other, value)

    url = picker.covering(name, missing, class_of, {}, tried, verified.template)
    return [] if url is None else [url]


async def joint_check(
    picker: Picker,
    verdicts: dict[str, ParamVerdict],
    urls: list[str],
    config: LearnerConfig,
    compare: Compare,
) -> tuple[dict[str, ParamVerdict], list[Sample]]:
    """Grow the kept set until the URL reduced to it renders the original page.

    On the sample URLs of the first neutral parameter (``urls``, rendered already), then on
    URLs drawn to bring kept values not covered yet, reduce the URL to its non-neutral
    parameters; if the page changes, add back the first neutral parameter that restores it
    (or all of them when none does alone). The check ends once ``joint_samples`` URLs showed
    the same page and those URLs cover the values of every kept parameter holding
    ``min_share`` of the pattern's URLs (every value of a kept count). A sample that cannot
    be rendered proves nothing: if no sample can be, every parameter is kept; if the kept
    values cannot be covered within ``samples`` more URLs, the neutral ones are kept too.
    More URLs are drawn by the pattern's ``picker``.
    """
    group = picker.group
    names = group.names
    keep = {n for n in names if not verdicts[n].neutral}
    first = next(n for n in names if n not in keep)
    verified = _Verified(group, config)
    checks: list[Sample] = []
    queue, tried, drawn = list(urls), list(urls), 0
    while queue and not keep.issuperset(names):
        url = queue.pop(0)
        if len(verified.urls) >= config.joint_samples and not verified.missing(keep):
            break
        await _check_url(group, verdicts, keep, url, compare, checks, verified)
        if not queue and drawn < config.samples and not keep.issuperset(names):
            queue = _draw(verified, keep, tried, first, picker)
            tried.extend(queue)
            drawn += len(queue)
    if keep.issuperset(names):
        return verdicts, checks
    missing = [n for n in names if n not in keep]
    if not verified.urls:
        reason = "joint check could not be rendered on any sample"
        _mark(verdicts, missing, reason, VerdictCause.JOINT_UNRENDERED)
    elif gap := verified.gap(keep):
        _mark(verdicts, missing, f"joint check: {gap}", VerdictCause.COMPANIONS)
    return verdicts, checks


async def _check_url(
    group: PatternGroup,
    verdicts: dict[str, ParamVerdict],
    keep: set[str],
    url: str,
    compare: Compare,
    checks: list[Sample],
    verified: _Verified,
) -> None:
    """Check one URL reduced to ``keep``, growing ``keep`` until it renders the original."""
    names = group.names
    while not keep.issuperset(names):
        outcome = await compare(url, keep_only(url, keep, names))
        checks.append(Sample(url, outcome.candidate, outcome.outcome))
        if outcome.outcome == "failed":
            return
        if outcome.outcome == "same":
            verified.outcomes.append(outcome)
            return
        missing = sorted(n for n in names if n not in keep)
        restored = None
        for name in missing:
            trial = await compare(url, keep_only(url, keep | {name}, names))
            checks.append(Sample(url, trial.candidate, trial.outcome))
            if trial.outcome == "same":
                restored = name
                break
        if restored:
            others = ", ".join(n for n in missing if n != restored) or "the others"
            reason = f"joint check: needed once {others} are dropped"
            _mark(verdicts, [restored], reason, VerdictCause.JOINT_CHECK)
            keep.add(restored)
        else:
            reason = "joint check: dropping these together changes the page"
            _mark(verdicts, missing, reason, VerdictCause.JOINT_CHECK)
            keep.update(missing)


async def scoped_joint_check(
    picker: Picker,
    verdicts: Mapping[str, ParamVerdict],
    template: str,
    scoped: dict[str, ParamVerdict],
    config: LearnerConfig,
    compare: Compare,
) -> list[Sample]:
    """Check that a template's neutral parameters can be dropped together, on its samples.

    On that template the normalizer drops the pattern's neutral parameters and the
    template's scoped neutral ones at once: the URL reduced to the rest must render the
    original page on ``joint_samples`` samples of the template (the first ones rendered
    with each scoped neutral parameter, then URLs of the template drawn to bring kept values
    not covered yet), covering the kept parameters' values on the template as
    :func:`joint_check` does. If one changes, or none can be rendered, or the kept values
    cannot be covered, the scoped neutral verdicts are kept (``joint-check``,
    ``joint-unrendered``, ``companions``).
    """
    group = picker.group
    names = group.names
    neutral = {n for n, v in verdicts.items() if v.neutral}
    neutral |= {n for n, v in scoped.items() if v.neutral}
    neutral -= {n for n, v in scoped.items() if not v.neutral}
    scoped_neutral = sorted(n for n, v in scoped.items() if v.neutral)
    checks: list[Sample] = []
    if len(names) < 2 or not scoped_neutral:
        return checks  # nothing scoped to drop, or the one parameter's own test
    keep = set(names) - neutral
    queue = [
        sample.url for sample in scoped[scoped_neutral[0]].samples or () if sample.outcome == "same"
    ]
    verified = _Verified(group, config, template)
    tried, drawn, changed = list(queue), 0, False
    while queue:
        url = queue.pop(0)
        if len(verified.urls) >= config.joint_samples and not verified.missing(keep):
            break
        outcome = await compare(url, keep_only(url, keep, names))
        checks.append(Sample(url, outcome.candidate, outcome.outcome))
        if outcome.outcome == "changed":
            changed = True
            break
        if outcome.outcome == "same":
            verified.outcomes.append(outcome)
        if not queue and drawn < config.samples:
            queue = _draw(verified, keep, tried, scoped_neutral[0], picker)
            tried.extend(queue)
            drawn += len(queue)
    gap = verified.gap(keep) if verified.urls and not changed else ""
    if changed or not verified.urls or gap:
        if changed:
            cause = VerdictCause.JOINT_CHECK
            reason = f"joint check on {template}: dropping these together changes the page"
        elif gap:
            cause, reason = VerdictCause.COMPANIONS, f"joint check on {template}: {gap}"
        else:
            cause = VerdictCause.JOINT_UNRENDERED
            reason = f"joint check on {template} could not be rendered on any sample"
        for name in scoped_neutral:
            scoped[name] = kept(scoped[name], reason, cause)
    return checks
