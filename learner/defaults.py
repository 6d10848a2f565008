"""Default values: the values of a kept parameter that render the page without it.

``page=1``, ``sort=relevance``, ``tab=description``: a parameter that matters can still have
values that mean "nothing". After a pattern's parameters are decided, each kept one has its
``default_values`` most frequent values tested, one at a time until one holds. For a value
*v* of parameter *p*, a sample is an observed URL whose only *p* is ``p=v``, compared
(through the same ``compare``, so by :func:`learner.decision.decide`, with its renders
shared and checkpointed) with the URL the normalizer would make of it: without *p* and
without the pattern's neutral parameters.

A value is a default only when all of these hold:

- at least ``min_samples`` samples came out "same", each in its own context (path and
  values of the other parameters);
- no sample changed and no sample failed (testing stops at the first that does: a wrong
  default merges distinct pages silently, so any doubt keeps the value);
- the successful samples cover ``min_contexts`` paths and values of the other parameters,
  where the pattern has them: the normalizer applies a default to every URL of the pattern.

Values observed in too few contexts to meet these are not tested at all, and a value whose
removal already changed the page in the parameter's own test is rejected on that evidence:
neither costs a render. Defaults of several parameters leave one URL together only after
the joint check of :mod:`learner.joint_defaults`.
"""

from __future__ import annotations

import asyncio
import random
from collections import Counter
from collections.abc import Awaitable, Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from learner.classify import Compare
from learner.config import LearnerConfig
from learner.evidence import Spread, Tally, coverage, coverage_gap
from learner.joint_defaults import check_joint_defaults
from learner.sampling import (
    Context,
    PatternGroup,
    context_of,
    keep_only,
    param_values,
)
from learner.verdicts import cause_of
from samepage import DefaultValue, ParamVerdict, PatternEntry

__all__ = ["candidate_values", "learn_defaults", "value_samples"]


@dataclass(frozen=True, slots=True)
class _Trial:
    """One value tested (or rejected on the parameter test's evidence)."""

    value: str
    default: DefaultValue | None
    why: dict[str, Any]
    """The evidence and reason of a rejection (empty for a default)."""

    @property
    def samples(self) -> list[dict[str, Any]]:
        """The samples the value was tested on (or rejected by)."""
        found = self.default.extra if self.default is not None else self.why
        return list(found.get("samples", ()))


def _contexts(group: PatternGroup, name: str, value: str) -> list[tuple[int, Context]]:
    """Index and context of each URL of ``group`` whose only ``name`` is ``value``."""
    return [
        (i, context_of(static, name))
        for i, static in enumerate(group.statics)
        if param_values(static, name) == (value,)
    ]


MIN_SHARE = 0.1
"""The least share of a pattern's URLs a value must have to be tested as a default.

Links point at a default (``?page=1`` from a menu, ``?size=M`` from a listing), so a default
is among a parameter's frequent values; a value rarer than this (one id of hundreds) is
not worth the renders.
"""


def candidate_values(group: PatternGroup, name: str, config: LearnerConfig) -> list[str]:
    """The ``default_values`` most frequent values of ``name`` that could become defaults.

    A value must be the parameter's only value in at least ``min_samples`` URLs with
    pairwise different contexts, and in at least :data:`MIN_SHARE` of the pattern's URLs;
    ties in frequency go to the smaller value.

    >>> urls = [f"https://s.example/l?page={p}&q={q}" for p in (1, 2) for q in "abc"]
    >>> group = PatternGroup("page&q", tuple(urls), 6)
    >>> candidate_values(group, "page", LearnerConfig(default_values=1))
    ['1']
    """
    counts: Counter[str] = Counter()
    for static in group.statics:
        values = param_values(static, name)
        if len(values) == 1:
            counts[values[0]] += 1
    ranked = sorted(counts, key=lambda v: (-counts[v], v))
    least = MIN_SHARE * len(group.statics)
    supported = [
        v
        for v in ranked
        if counts[v] >= least
        and len({c for _, c in _contexts(group, name, v)}) >= config.min_samples
    ]
    return supported[: config.default_values]


def value_samples(
    group: PatternGroup,
    name: str,
    value: str,
    size: int,
    seed: str,
    cost: Callable[[str], int] = lambda url: 0,
) -> list[str]:
    """Up to ``size`` URLs carrying ``name=value``, each in a context not picked yet.

    New paths come first, then new values of the other parameters; within each, the URLs
    whose sample would cost the fewest new renders (``cost``) come first, then the pattern's
    seeded order. The rules on contexts do not depend on ``cost``, which only chooses
    among URLs that bring an equally new context: sharing renders never narrows the
    evidence.
    """
    found = _contexts(group, name, value)
    order = list(range(len(group.urls)))
    random.Random(seed).shuffle(order)
    rank = {index: n for n, index in enumerate(order)}
    found.sort(key=lambda item: (cost(group.urls[item[0]]), rank[item[0]]))
    picks: list[int] = []
    paths: set[str] = set()
    contexts: set[Context] = set()
    for new_path_only in (True, False):
        for index, context in found:
            if len(picks) == size:
                break
            if context in contexts or (new_path_only and context[0] in paths):
                continue
            picks.append(index)
            paths.add(context[0])
            contexts.add(context)
    return [group.urls[i] for i in picks]


async def _test_value(
    name: str,
    value: str,
    group: PatternGroup,
    urls: list[str],
    candidate: Callable[[str], str],
    config: LearnerConfig,
    compare: Compare,
) -> _Trial:
    """Test one value on its samples; stop at the first sample that is not "same"."""
    tally = Tally()
    for url in urls:
        outcome = await compare(url, candidate(url))
        tally.add(outcome, context_of(group.static_of(url), name))
        if outcome.outcome != "same":
            break
    found = coverage(tally, Spread.of(group, name))
    evidence: dict[str, Any] = {"samples": tally.samples, "coverage": found}
    counts = {"tested": tally.tested, "changed": tally.changed, "failed": tally.failed}
    reason = ""
    if tally.changed:
        reason = "the page changed without the parameter"
    elif tally.failed:
        reason = "a sample could not be decided (" + "; ".join(tally.reasons[:3]) + ")"
    elif tally.tested < config.min_samples:
        reason = f"only {tally.tested} context(s) with this value; {config.min_samples} needed"
    else:
        reason = coverage_gap(found, config.min_contexts)
    if reason:
        return _Trial(value, None, {**evidence, **counts, "reason": reason})
    return _Trial(value, DefaultValue(tally.tested, 0, 0, evidence), {})


def _changed_values(
    group: PatternGroup, name: str, verdict: ParamVerdict
) -> dict[str, dict[str, Any]]:
    """Values whose removal changed the page in the parameter test, with that sample."""
    out: dict[str, dict[str, Any]] = {}
    for sample in verdict.extra.get("samples", ()):
        url = sample.get("url")
        if sample.get("outcome") != "changed" or url not in group.urls:
            continue
        values = param_values(group.static_of(url), name)
        if len(values) == 1:
            reason = "the page changed without the parameter, in the parameter's own test"
            out.setdefault(values[0], {"samples": [sample], "reason": reason})
    return out


def _rendered(entry: PatternEntry) -> set[str]:
    """The URLs the pattern's tests so far have rendered (read from their outcomes).

    Read from the recorded samples rather than the render cache, so a run resumed from its
    checkpoint, which renders nothing, picks the very same samples.
    """
    samples = [s for v in entry.params.values() for s in v.extra.get("samples", ())]
    samples += entry.extra.get("joint_checks", ())
    return _urls_rendered(samples)


def _urls_rendered(samples: Iterable[Mapping[str, Any]]) -> set[str]:
    """The URLs of ``samples``, but for samples a web archive decided (not rendered)."""
    return {
        url
        for s in samples
        if s.get("from") != "archive"
        for url in (s.get("url"), s.get("candidate"))
        if url
    }


async def learn_defaults(
    group: PatternGroup, entry: PatternEntry, config: LearnerConfig, compare: Compare, *, seed: str
) -> PatternEntry:
    """``entry`` with the default values of its kept parameters learned.

    Each kept parameter's candidate values are tested one at a time, most frequent first,
    until one becomes a default (a parameter rarely has two values that both mean
    "nothing"; one not tested stays a kept value). The parameters are tested side by side,
    and each value's samples are the URLs whose renders exist already where the contexts
    allow (:func:`value_samples`).

    Args:
        group: the pattern and its URLs.
        entry: the pattern's verdicts (after the joint check).
        config: ``default_values``, ``samples``, ``min_samples`` and ``min_contexts``.
        compare: renders and compares two URLs, as for the parameter tests.
        seed: the pattern's seed, as given to :func:`learner.classify.classify_pattern`.
    """
    if config.default_values == 0:
        return entry
    names = group.names
    kept = {n for n, v in entry.params.items() if not v.neutral}
    found: dict[str, list[_Trial]] = {name: [] for name in names}
    queues: dict[str, list[str]] = {}
    for name in names:
        verdict = entry.params[name]
        if name not in kept or cause_of(verdict).gave_up:
            continue
        changing = _changed_values(group, name, verdict)
        for value in candidate_values(group, name, config):
            if value in changing:
                found[name].append(_Trial(value, None, changing[value]))
            else:
                queues.setdefault(name, []).append(value)
    rendered = _rendered(entry)

    def new_renders(*urls: str) -> int:
        return sum(url not in rendered for url in urls)

    def test(name: str, value: str) -> Awaitable[_Trial]:
        def reduced(url: str) -> str:
            return keep_only(url, kept - {name}, names)

        urls = value_samples(
            group, name, value, config.samples, seed, lambda u: new_renders(u, reduced(u))
        )
        return _test_value(name, value, group, urls, reduced, config, compare)

    while queues:
        batch = [(name, values.pop(0)) for name, values in queues.items()]
        trials = await asyncio.gather(*(test(name, value) for name, value in batch))
        for (name, _), trial in zip(batch, trials, strict=True):
            found[name].append(trial)
            rendered.update(_urls_rendered(trial.samples))
            if trial.default is not None or not queues[name]:
                del queues[name]
    params = dict(entry.params)
    for name, trials in found.items():
        if trials:
            params[name] = _with_defaults(params[name], trials)
    joint, why = await check_joint_defaults(
        group, params, config, compare, seed=seed, new_renders=new_renders
    )
    extra = {**entry.extra, "rejected_joint_defaults": why} if why else dict(entry.extra)
    return PatternEntry(entry.urls, params, extra, joint)


def _with_defaults(old: ParamVerdict, trials: list[_Trial]) -> ParamVerdict:
    rejected = {t.value: t.why for t in trials if t.default is None}
    extra = {**old.extra, "rejected_defaults": rejected} if rejected else dict(old.extra)
    return ParamVerdict(
        old.verdict,
        old.tested,
        old.changed,
        old.failed,
        reason=old.reason,
        extra=extra,
        defaults={t.value: t.default for t in trials if t.default is not None},
    )
