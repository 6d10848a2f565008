"""Default values: the values of a kept parameter that render the page without it.

``page=1``, ``sort=relevance``, ``tab=description``: a parameter that matters can still have
values that mean "nothing". After a pattern's parameters are decided, each kept one has
candidate values tested, one at a time until one holds: first those the parameter's own
test points at, however rarely the log spells them (a menu links to ``/list``, not to
``/list?lang=en``): a value whose removal showed the same page in that test, and a value
the page without the parameter marks as its own (its current language link, active tab,
selected option, canonical link; :mod:`learner.render.marks`, read from the renders that
test made); then its ``default_values`` most frequent values. For a value *v* of parameter *p*,
a sample is an observed URL whose only *p* is ``p=v`` (or, in a context where none is, an
observed URL with its one *p* set to *v*), compared (through the same ``compare``, so by
:func:`learner.judge.decision.decide`, with its renders shared and checkpointed) with the
URL the normalizer would make of it: without *p* and without the pattern's neutral
parameters.

A value is a default only when all of these hold:

- at least ``min_samples`` samples came out "same", each in its own context (path and
  values of the other parameters);
- no sample changed and no sample failed (testing stops at the first that does: a wrong
  default merges distinct pages silently, so any doubt keeps the value); whatever
  ``--threshold`` says, one change rejects a value (:data:`~learner.judge.rate.ANY_CHANGE`);
- the successful samples cover ``min_contexts`` paths and values of the other parameters,
  where the pattern has them, and path templates holding ``min_share`` of the pattern's
  URLs: the normalizer applies a default to every URL of the pattern.

Values observed in too few contexts to meet these are not tested at all, and a value whose
removal already changed the page in the parameter's own test is rejected on that evidence:
neither costs a render. A bare name (``flag``, :data:`~learner.plan.sampling.BARE`) is a
value of its own, never tested: a learned default names a value of ``flag=value``
(``""`` is ``flag=``), and the normalizer keeps a bare name whatever the defaults.
Defaults of several parameters leave one URL together only after the joint check
(:func:`check_joint_defaults`).

Each default is proven alone, so ``page=1`` and ``sort=relevance`` are each the page without
them. Whether ``?q=oak&page=1&sort=relevance`` is the page ``?q=oak`` is a further claim,
checked like the joint check of neutral parameters: on up to ``joint_samples`` observed URLs
that carry a default of every parameter that has one, each in its own context, the URL is
compared with what the normalizer would make of it. Only when every sample shows the same
page does the pattern record :class:`~samepage.JointDefaults`; the normalizer otherwise
drops at most one default from a URL.

This module runs that for one pattern (:func:`learn_defaults`): the values to try come from
:mod:`learner.judge.default_candidates`, each is tested by :mod:`learner.judge.default_trial`,
written into the verdict by :mod:`learner.judge.default_verdicts`, and checked together by
:mod:`learner.judge.joint_defaults`.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Iterable, Sequence

from learner.config import LearnerConfig
from learner.judge.classify import Compare
from learner.judge.default_candidates import (
    _changed_values,
    _marks,
    _testable,
    candidate_values,
    marked_values,
    observed_values,
    same_values,
)
from learner.judge.default_trial import _cover, _test_value, _Trial
from learner.judge.default_verdicts import _value_by_value, _with_defaults
from learner.judge.joint_defaults import check_joint_defaults
from learner.judge.tally import Spread
from learner.judge.verdicts import VerdictCause, cause_of
from learner.plan.picks import Picker
from learner.plan.sampling import PatternGroup, keep_only
from samepage import PatternEntry
from samepage.learned import Sample

__all__ = [
    "candidate_values",
    "check_joint_defaults",
    "learn_defaults",
    "marked_values",
    "observed_values",
    "same_values",
]


def _rendered(entry: PatternEntry) -> set[str]:
    """The URLs the pattern's tests so far have rendered (read from their outcomes).

    Read from the recorded samples rather than the render cache, so a run resumed from its
    checkpoint, which renders nothing, picks the very same samples.
    """
    samples = [s for v in entry.params.values() for s in v.samples or ()]
    samples += entry.joint_checks
    return _urls_rendered(samples)


def _urls_rendered(samples: Iterable[Sample]) -> set[str]:
    """The URLs of ``samples``, but for samples a web archive decided (not rendered)."""
    return {url for s in samples if not s.from_archive for url in (s.url, s.candidate) if url}


FROM_EVIDENCE = True
"""Whether the values the parameter test points at are candidates (:func:`candidate_values`).

Always on in a run; ``benchmarks/bench_defaults.py`` turns it off to measure what it adds.
"""


async def learn_defaults(
    group: PatternGroup,
    entry: PatternEntry,
    config: LearnerConfig,
    compare: Compare,
    *,
    seed: str,
    host: Sequence[PatternGroup] = (),
) -> PatternEntry:
    """``entry`` with the default values of its kept parameters learned.

    Each kept parameter's candidate values (:func:`candidate_values`: those its own test
    points at, then the most frequent) are tested one at a time, in that order, until one
    becomes a default (a parameter rarely has two values that both mean "nothing"; one not
    tested stays a kept value). The parameters are tested side by side, and each value's
    samples are the URLs whose renders exist already where the contexts allow
    (:meth:`Picker.value_samples <learner.plan.picks.Picker.value_samples>`).

    Args:
        group: the pattern and its URLs.
        entry: the pattern's verdicts (after the joint check).
        config: ``default_values``, ``samples``, ``min_samples`` and ``min_contexts``.
        compare: renders and compares two URLs, as for the parameter tests.
        seed: the pattern's seed, as given to :func:`learner.judge.classify.classify_pattern`.
        host: the site's pattern groups. A parameter with few values, tested value by
            value, may borrow contexts from their URLs on the pattern's path templates
            (:meth:`Picker.value_samples <learner.plan.picks.Picker.value_samples>`); the
            coverage its samples need is the pattern's, whatever they borrowed.
    """
    if config.default_values == 0:
        return entry
    names = group.names
    kept = {n for n, v in entry.params.items() if not v.neutral}
    found: dict[str, list[_Trial]] = {name: [] for name in names}
    queues: dict[str, list[str]] = {}
    few = {n for n in kept if cause_of(entry.params[n]) == VerdictCause.FEW_VALUES}
    for name in names:
        verdict = entry.params[name]
        if name not in kept or cause_of(verdict).gave_up:
            continue
        changing = _changed_values(group, name, verdict)
        if name in few:
            candidates = _testable(observed_values(group, name))
        else:
            pointed: list[str] = []
            if FROM_EVIDENCE:
                marked = marked_values(await _marks(verdict, compare), name)
                pointed = [*same_values(group, name, verdict), *marked]
            candidates = candidate_values(group, name, config, pointed)
        for value in candidates:
            if value in changing:
                found[name].append(_Trial(value, None, changing[value]))
            else:
                queues.setdefault(name, []).append(value)
    rendered = _rendered(entry)
    picker = Picker.of(group, seed, host)

    def new_renders(*urls: str) -> int:
        return sum(url not in rendered for url in urls)

    def test(name: str, value: str) -> Awaitable[_Trial]:
        def reduced(url: str) -> str:
            return keep_only(url, kept - {name}, names)

        required = kept - {name}
        spread = Spread.of(group, name, min_share=config.min_share, most_each=config.samples)
        samples, templates = picker.value_samples(
            name,
            value,
            config.samples,
            lambda u: new_renders(u, reduced(u)),
            _cover(spread, required, 2 * config.samples),
            borrow=name in few,
        )
        return _test_value(
            name, value, group, samples, templates, reduced, config, compare, required
        )

    while queues:
        batch = [(name, values.pop(0)) for name, values in queues.items()]
        trials = await asyncio.gather(*(test(name, value) for name, value in batch))
        for (name, _), trial in zip(batch, trials, strict=True):
            found[name].append(trial)
            rendered.update(_urls_rendered(trial.samples))
            # A parameter with few values is decided value by value: every value is tested.
            if (trial.default is not None and name not in few) or not queues[name]:
                del queues[name]
    params = dict(entry.params)
    for name, trials in found.items():
        if trials:
            params[name] = _with_defaults(params[name], trials)
            if name in few:
                params[name] = _value_by_value(params[name], trials, observed_values(group, name))
    joint, why = await check_joint_defaults(
        group, params, config, compare, seed=seed, new_renders=new_renders
    )
    return PatternEntry(
        entry.urls,
        params,
        entry.extra,
        joint,
        joint_checks=entry.joint_checks,
        rejected_joint_defaults=why,
    )
