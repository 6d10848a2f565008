"""Default values: the values of a kept parameter that render the page without it.

``page=1``, ``sort=relevance``, ``tab=description``: a parameter that matters can still have
values that mean "nothing". After a pattern's parameters are decided, each kept one has its
``default_values`` most frequent values tested. For a value *v* of parameter *p*, a sample is
an observed URL whose only *p* is ``p=v``, compared (through the same ``compare``, so by
:func:`learner.decision.decide`, with its renders shared and checkpointed) with the URL the
normalizer would make of it: without *p* and without the pattern's neutral parameters.

A value is a default only when all of these hold:

- at least ``min_samples`` samples came out "same", each in its own context (path and
  values of the other parameters);
- no sample changed and no sample failed (testing stops at the first that does: a wrong
  default merges distinct pages silently, so any doubt keeps the value);
- the successful samples cover ``min_contexts`` paths and values of the other parameters,
  where the pattern has them: the normalizer applies a default to every URL of the pattern.

Values observed in too few contexts to meet these are not tested at all, and a value whose
removal already changed the page in the parameter's own test is rejected on that evidence:
neither costs a render.
"""

from __future__ import annotations

import asyncio
import random
from collections import Counter
from collections.abc import Sequence
from typing import Any

from learner.classify import GAVE_UP, Compare
from learner.config import LearnerConfig
from learner.evidence import Spread, Tally, coverage, coverage_gap
from learner.sampling import (
    Context,
    PatternGroup,
    choose_samples,
    context_of,
    keep_only,
    param_values,
)
from samepage import DefaultValue, ParamVerdict, PatternEntry

__all__ = ["candidate_values", "learn_defaults", "value_samples"]


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
    prefer: Sequence[set[str]] = (),
) -> list[str]:
    """Up to ``size`` URLs carrying ``name=value``, each in a context not picked yet.

    New paths come first, then new values of the other parameters; within each, URLs of
    the first set of ``prefer`` come first (the parameter's own samples, whose comparison
    may be done already), then those of the next (rendered by other tests), then the
    pattern's seeded order.
    """
    found = _contexts(group, name, value)
    order = list(range(len(group.urls)))
    random.Random(seed).shuffle(order)
    rank = {index: n for n, index in enumerate(order)}

    def tier(url: str) -> int:
        return next((n for n, urls in enumerate(prefer) if url in urls), len(prefer))

    found.sort(key=lambda item: (tier(group.urls[item[0]]), rank[item[0]]))
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
    kept: set[str],
    config: LearnerConfig,
    compare: Compare,
) -> tuple[str, DefaultValue | None, dict[str, Any]]:
    """Test one value on its samples; stop at the first sample that is not "same"."""
    tally = Tally()
    keep = kept - {name}
    for url in urls:
        outcome = await compare(url, keep_only(url, keep, group.names))
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
        return value, None, {**evidence, **counts, "reason": reason}
    return value, DefaultValue(tally.tested, 0, 0, evidence), {}


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


async def learn_defaults(
    group: PatternGroup, entry: PatternEntry, config: LearnerConfig, compare: Compare, *, seed: str
) -> PatternEntry:
    """``entry`` with the default values of its kept parameters learned.

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
    chosen = choose_samples(group, names, config.samples, seed)
    sampled = {u for urls in chosen.values() for u in urls}
    trials = []
    seen_changing: dict[tuple[str, str], dict[str, Any]] = {}
    for name in names:
        verdict = entry.params[name]
        if name not in kept or (verdict.reason or "").startswith(GAVE_UP):
            continue
        changing = _changed_values(group, name, verdict)
        for value in candidate_values(group, name, config):
            if value in changing:
                seen_changing[(name, value)] = changing[value]
            else:
                trials.append((name, value))
    results = await asyncio.gather(
        *(
            _test_value(
                name,
                value,
                group,
                value_samples(
                    group, name, value, config.samples, seed, (set(chosen[name]), sampled)
                ),
                kept,
                config,
                compare,
            )
            for name, value in trials
        )
    )
    params = dict(entry.params)
    for name in names:
        found = [r for (n, _), r in zip(trials, results, strict=True) if n == name]
        found += [(v, None, why) for (n, v), why in seen_changing.items() if n == name]
        if not found:
            continue
        old = params[name]
        defaults = {value: d for value, d, _ in found if d is not None}
        rejected = {value: why for value, d, why in found if d is None}
        extra = dict(old.extra)
        if rejected:
            extra["rejected_defaults"] = rejected
        params[name] = ParamVerdict(
            old.verdict,
            old.tested,
            old.changed,
            old.failed,
            reason=old.reason,
            extra=extra,
            defaults=defaults,
        )
    return PatternEntry(entry.urls, params, entry.extra)
