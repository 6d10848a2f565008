"""Which values of a kept parameter to test as defaults, and in which order.

First the values the parameter's own test points at (:func:`same_values`, and
:func:`marked_values` from the marks its renders read), then its most frequent values
(:func:`candidate_values`); a parameter with few values has every observed value tested
(:func:`observed_values`). A value whose removal changed the page in that test is rejected
on that evidence (:func:`_changed_values`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence

from learner.config import LearnerConfig
from learner.judge.classify import Compare
from learner.plan.sampling import BARE, Context, PatternGroup, context_of, param_values
from samepage import ParamVerdict
from samepage.learned import RejectedDefault

__all__ = ["candidate_values", "marked_values", "observed_values", "same_values"]


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

    >>> from samepage.learned import Sample
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
