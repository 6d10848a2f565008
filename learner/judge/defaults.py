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
"""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import Awaitable, Callable, Collection, Iterable, Mapping, Sequence, Set
from dataclasses import dataclass, replace

from learner.config import LearnerConfig
from learner.judge.classify import Compare
from learner.judge.rate import ANY_CHANGE
from learner.judge.tally import (
    Spread,
    Tally,
    companion_gap,
    coverage,
    coverage_gap,
    missing_classes,
    share_gap,
)
from learner.judge.verdicts import VerdictCause, cause_of
from learner.plan.picks import Cover, Picker, carries_all
from learner.plan.sampling import (
    BARE,
    Context,
    PatternGroup,
    Value,
    context_of,
    keep_only,
    param_values,
)
from samepage import DefaultValue, JointDefaults, ParamVerdict, PatternEntry
from samepage.learned import Coverage, RejectedDefault, RejectedJointDefaults, Sample

__all__ = [
    "candidate_values",
    "check_joint_defaults",
    "learn_defaults",
    "marked_values",
    "observed_values",
    "same_values",
]


@dataclass(frozen=True, slots=True)
class _Trial:
    """One value tested (or rejected on the parameter test's evidence)."""

    value: str
    default: DefaultValue | None
    why: RejectedDefault | None = None
    """The evidence and reason of a rejection (``None`` for a default)."""

    @property
    def samples(self) -> tuple[Sample, ...]:
        """The samples the value was tested on (or rejected by)."""
        found = self.default if self.default is not None else self.why
        return (found.samples if found is not None else None) or ()


def _contexts(group: PatternGroup, name: str, value: str) -> list[tuple[int, Context]]:
    """Index and context of each URL of ``group`` whose only ``name`` is ``value``."""
    return [
        (i, context_of(static, name))
        for i, static in enumerate(group.statics)
        if param_values(static, name) == (value,)
    ]


MIN_SHARE = 0.1
"""The least share of a pattern's URLs a frequent value must have to be tested as a default.

A value rarer than this (one id of hundreds) is not worth the renders unless the
parameter's own test points at it (:func:`same_values`, :func:`marked_values`).
"""


def _ranked(counts: Counter[str]) -> list[str]:
    return sorted(counts, key=lambda v: (-counts[v], v))


def _testable(values: Iterable[str]) -> list[str]:
    """``values`` without :data:`~learner.plan.sampling.BARE`, which no default can name."""
    return [value for value in values if value != BARE]


def same_values(group: PatternGroup, name: str, verdict: ParamVerdict) -> list[str]:
    """Values whose removal showed the same page in the parameter's own test, most first.

    >>> urls = ("https://s.example/l?lang=en", "https://s.example/l?lang=fr")
    >>> samples = tuple(Sample(u, "", o) for u, o in zip(urls, ("same", "changed")))
    >>> same_values(PatternGroup("lang", urls, 2), "lang",
    ...             ParamVerdict("non-neutral", 2, 1, samples=samples))
    ['en']
    """
    counts: Counter[str] = Counter()
    for sample in verdict.samples or ():
        url = sample.url
        if sample.outcome == "same" and url in group.urls:
            values = param_values(group.static_of(url), name)
            if len(values) == 1:
                counts[values[0]] += 1
    return _ranked(counts)


def marked_values(marks: Iterable[Mapping[str, Sequence[str]]], name: str) -> list[str]:
    """Values of ``name`` that pages without it mark as their own, marked most often first.

    ``marks`` are the ``candidate_marks`` of the parameter test's outcomes
    (:func:`learner.render.marks.page_marks`: ``{name: [values]}`` per page).

    >>> marked_values([{"lang": ["en"]}, {"lang": ["en", "fr"], "tab": ["a"]}, {}], "lang")
    ['en', 'fr']
    """
    counts: Counter[str] = Counter()
    for found in marks:
        counts.update(set(found.get(name, ())))
    return _ranked(counts)


def candidate_values(
    group: PatternGroup, name: str, config: LearnerConfig, evidence: Iterable[str] = ()
) -> list[str]:
    """The values of ``name`` to test as defaults, in the order to test them.

    First up to ``default_values`` values the parameter's own test points at (``evidence``:
    :func:`same_values`, then :func:`marked_values`), however rarely the log spells them;
    then the ``default_values`` most frequent values: a value must be the parameter's only
    value in at least ``min_samples`` URLs with pairwise different contexts, and in at
    least :data:`MIN_SHARE` of the pattern's URLs; ties in frequency go to the smaller
    value. Any value needs ``min_samples`` contexts to test it in (:meth:`Picker.value_samples
    <learner.plan.picks.Picker.value_samples>`).

    >>> urls = [f"https://s.example/l?page={p}&q={q}" for p in (1, 2) for q in "abc"]
    >>> group = PatternGroup("page&q", tuple(urls), 6)
    >>> candidate_values(group, "page", LearnerConfig(default_values=1))
    ['1']
    >>> candidate_values(group, "page", LearnerConfig(default_values=1), ["0", "1"])
    ['0', '1']
    """
    counts = _single_values(group, name)
    least = MIN_SHARE * len(group.statics)
    supported = [
        v
        for v in _ranked(counts)
        if counts[v] >= least
        and len({c for _, c in _contexts(group, name, v)}) >= config.min_samples
    ]
    pointed: list[str] = []
    single = {context_of(s, name) for s in group.statics if len(param_values(s, name)) == 1}
    if len(single) >= config.min_samples:  # the contexts a pointed-at value can be tested in
        pointed = list(dict.fromkeys(_testable(evidence)))[: config.default_values]
    return list(dict.fromkeys([*pointed, *_testable(supported)[: config.default_values]]))


def _cover(spread: Spread, required: Collection[str], most: int) -> Cover:
    """What samples must cover of the ``required`` companions' values, up to ``most`` samples."""

    def missing(contexts: Sequence[Context]) -> dict[str, dict[Value, int]]:
        return missing_classes(contexts, [()] * len(contexts), spread, required)

    return Cover(missing, spread.class_of, most)


def _gap(found: Coverage, config: LearnerConfig, required: Collection[str]) -> str:
    """What the samples of a value still lack: contexts, templates or companion values.

    The normalizer drops a default from every URL of the pattern, so, as for a neutral
    verdict, the templates it was shown on must hold most of the pattern's URLs, and the
    values of the kept companions (``required``) beside it too.
    """
    return (
        coverage_gap(found, config.min_contexts)
        or share_gap(found, config.min_share)
        or companion_gap(found, required, config.min_share)
    )


async def _test_value(
    name: str,
    value: str,
    group: PatternGroup,
    samples: list[tuple[str, Context]],
    templates: int,
    candidate: Callable[[str], str],
    config: LearnerConfig,
    compare: Compare,
    required: Collection[str],
) -> _Trial:
    """Test one value on its samples; stop at the first sample that is not "same".

    Testing also ends once the value is proven: ``min_samples`` samples came out the same,
    covering the contexts the rules ask for and every path template the samples start with
    (``templates``); each further sample would cost about two renders.
    """
    tally = Tally()
    spread = Spread.of(group, name, min_share=config.min_share, most_each=config.samples)
    for n, (url, context) in enumerate(samples, 1):
        outcome = await compare(url, candidate(url))
        tally.add(outcome, context)
        if outcome.outcome != "same":
            break
        proven = tally.tested >= config.min_samples and n >= templates
        if proven and not _gap(coverage(tally, spread), config, required):
            break
    found = coverage(tally, spread)
    recorded = tuple(tally.samples)
    reason = ""
    if ANY_CHANGE.changed(tally.changed, tested=tally.tested):
        reason = "the page changed without the parameter"
    elif tally.failed:
        reason = "a sample could not be decided (" + "; ".join(tally.reasons[:3]) + ")"
    elif tally.tested < config.min_samples:
        reason = f"only {tally.tested} context(s) with this value; {config.min_samples} needed"
    else:
        reason = _gap(found, config, required)
    if reason:
        why = RejectedDefault(
            reason, recorded, found, tally.tested, tally.changed, tally.failed
        )
        return _Trial(value, None, why)
    return _Trial(value, DefaultValue(tally.tested, 0, 0, samples=recorded, coverage=found))


def _changed_values(
    group: PatternGroup, name: str, verdict: ParamVerdict
) -> dict[str, RejectedDefault]:
    """Values whose removal changed the page in the parameter test, with that sample."""
    out: dict[str, RejectedDefault] = {}
    for sample in verdict.samples or ():
        url = sample.url
        if sample.outcome != "changed" or url not in group.urls:
            continue
        values = param_values(group.static_of(url), name)
        if len(values) == 1:
            reason = "the page changed without the parameter, in the parameter's own test"
            out.setdefault(values[0], RejectedDefault(reason, (sample,)))
    return out


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
    return {
        url for s in samples if not s.from_archive for url in (s.url, s.candidate) if url
    }


FROM_EVIDENCE = True
"""Whether the values the parameter test points at are candidates (:func:`candidate_values`).

Always on in a run; ``benchmarks/bench_defaults.py`` turns it off to measure what it adds.
"""


async def _marks(verdict: ParamVerdict, compare: Compare) -> list[Mapping[str, tuple[str, ...]]]:
    """The ``candidate_marks`` of the parameter test's outcomes.

    Read back through ``compare``: every one of these samples was judged already, so it
    answers from the run's checkpoint and renders nothing, and a run resumed from its
    checkpoint reads the very same marks. Samples a web archive decided rendered nothing.
    """
    found: list[Mapping[str, tuple[str, ...]]] = []
    for sample in verdict.samples or ():
        url, candidate = sample.url, sample.candidate
        if sample.from_archive or not url or not candidate:
            continue
        marks = (await compare(url, candidate)).evidence.candidate_marks
        if marks:
            found.append(marks)
    return found


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


def observed_values(group: PatternGroup, name: str) -> list[str]:
    """Every value of ``name`` that is a URL's only value of it, most URLs first.

    >>> urls = ("https://s.example/l?asc=1&s=a", "https://s.example/l?asc=0&s=b",
    ...         "https://s.example/l?asc=1&s=c")
    >>> observed_values(PatternGroup("asc&s", urls, 3), "asc")
    ['1', '0']
    """
    return _ranked(_single_values(group, name))


def _single_values(group: PatternGroup, name: str) -> Counter[str]:
    """How many URLs of ``group`` have each value as their only value of ``name``."""
    counts: Counter[str] = Counter()
    for static in group.statics:
        values = param_values(static, name)
        if len(values) == 1:
            counts[values[0]] += 1
    return counts


def _value_by_value(verdict: ParamVerdict, trials: list[_Trial], values: list[str]) -> ParamVerdict:
    """The verdict of a parameter with few values, once each value was tested.

    A value whose samples changed the page decides it: kept, on evidence (``changed``).
    When every observed value is a default, it is decided too (``values``): dropped for
    those values, kept for any other. Otherwise a value stayed undecided (its samples
    failed, or too few contexts carry it) and so does the parameter.
    """
    changed = [t.value for t in trials if t.why is not None and _changed(t.why)]
    defaults = sorted(verdict.defaults)
    if changed:
        cause = VerdictCause.CHANGED
        reason = f"tested value by value: the page changed without {', '.join(changed)}"
    elif set(values) <= set(verdict.defaults):
        cause = VerdictCause.VALUES
        reason = f"tested value by value: every observed value is a default ({', '.join(defaults)})"
    else:
        undecided = [v for v in values if v not in verdict.defaults]
        cause = VerdictCause.FEW_VALUES
        reason = (
            f"{verdict.reason}; tested value by value, undecided: {', '.join(undecided)}"
            if verdict.reason
            else f"tested value by value, undecided: {', '.join(undecided)}"
        )
    return replace(verdict, reason=reason, cause=cause)


def _changed(why: RejectedDefault) -> bool:
    """Whether a rejected value's own samples changed the page (its counts, where tested)."""
    return ANY_CHANGE.changed(why.changed or 0, tested=why.tested or 0)


def _with_defaults(old: ParamVerdict, trials: list[_Trial]) -> ParamVerdict:
    rejected = {t.value: t.why for t in trials if t.why is not None}
    return replace(
        old,
        defaults={t.value: t.default for t in trials if t.default is not None},
        rejected_defaults=rejected or old.rejected_defaults,
    )


def _carrying_all(group: PatternGroup, defaults: Mapping[str, Set[str]]) -> PatternGroup:
    """The group's URLs that carry a default of every name in ``defaults``."""
    picked = [i for i, static in enumerate(group.statics) if carries_all(static, defaults)]
    return replace(
        group,
        urls=tuple(group.urls[i] for i in picked),
        statics=tuple(group.statics[i] for i in picked),
    )


async def check_joint_defaults(
    group: PatternGroup,
    params: Mapping[str, ParamVerdict],
    config: LearnerConfig,
    compare: Compare,
    *,
    seed: str,
    new_renders: Callable[[str, str], int] = lambda url, candidate: 0,
) -> tuple[JointDefaults | None, RejectedJointDefaults | None]:
    """The joint defaults of a pattern, or ``None`` with why not (``None``: nothing to check).

    Args:
        group: the pattern and its URLs.
        params: the pattern's verdicts, with the defaults learned one at a time.
        config: ``joint_samples`` comes from here.
        compare: renders and compares two URLs, as for every other test.
        seed: the pattern's seed.
        new_renders: how many of a sample's two URLs are not rendered yet (to share renders).
    """
    defaults = {name: set(v.defaults) for name, v in params.items() if v.defaults}
    if len(defaults) < 2:
        return None, None
    kept = {name for name, v in params.items() if not v.neutral} - set(defaults)

    def reduced(url: str) -> str:
        return keep_only(url, kept, group.names)

    names = sorted(defaults)
    # The defaults leave a URL together only where it carries all of them: the companions'
    # values are counted over those URLs.
    spread = Spread.of(
        _carrying_all(group, defaults),
        names[0],
        min_share=config.min_share,
        most_each=config.samples,
    )
    urls = Picker.of(group, seed).joint_samples(
        defaults,
        config.joint_samples,
        lambda u: new_renders(u, reduced(u)),
        _cover(spread, kept, config.samples),
    )
    if not urls:
        return None, RejectedJointDefaults(
            tuple(names), "no observed URL carries all these defaults"
        )
    tally = Tally()
    for url in urls:
        outcome = await compare(url, reduced(url))
        tally.add(outcome, context_of(group.static_of(url), names[0]))
        if outcome.outcome != "same":
            break
    found = coverage(tally, spread)
    changed = ANY_CHANGE.changed(tally.changed, tested=tally.tested)
    if changed or tally.failed:
        why = "the page changed" if changed else "a sample could not be decided"
        return None, RejectedJointDefaults(tuple(names), why, tuple(tally.samples))
    if gap := companion_gap(found, kept, config.min_share):
        return None, RejectedJointDefaults(tuple(names), gap, tuple(tally.samples))
    return JointDefaults(frozenset(names), tally.tested, samples=tuple(tally.samples)), None
