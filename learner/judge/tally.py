"""What a parameter's samples showed: their outcomes, and the contexts they covered.

A verdict (neutral, or a default value) needs successful samples spread over the pattern's
contexts: its kinds of page (path templates, weighed by their share of the pattern's URLs),
its paths and the values of its other parameters (each kept companion's values, weighed by
their share of the URLs too: :mod:`learner.plan.companions`). :func:`coverage` measures that
spread; :func:`coverage_gap`, :func:`share_gap` and :func:`companion_gap` say what is
missing, :func:`missing_classes` which companion values would fill it.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from learner.judge.decision import HOPELESS_ORIGINAL
from learner.model import Cause, PairOutcome
from learner.plan.companions import RARE, Companion, Sample, companions_of
from learner.plan.sampling import (
    Context,
    PatternGroup,
    Value,
    context_of,
    context_value,
    template_of,
    template_urls,
)
from samepage import path_template
from samepage.learned import CompanionCoverage, Coverage, TemplateCounts, ValueClass
from samepage.learned import Sample as SampleRecord

__all__ = [
    "Spread",
    "Tally",
    "companion_gap",
    "coverage",
    "coverage_gap",
    "covered_share",
    "held_values",
    "missing_classes",
    "share_gap",
]

MAX_CLASSES_SHOWN = 12
"""The most classes of one companion's values a coverage record lists."""


@dataclass(slots=True)
class Tally:
    """The outcomes of one parameter's (or value's) samples so far."""

    tested: int = 0
    changed: int = 0
    failed: int = 0
    hopeless: int = 0
    """Samples so far whose original could not be used, before any success."""
    reasons: list[str] = field(default_factory=list)
    samples: list[SampleRecord] = field(default_factory=list)
    contexts: list[Context] = field(default_factory=list)
    """The contexts of the successful samples."""
    values: list[Value] = field(default_factory=list)
    """The tested parameter's value in each successful sample (``()`` where not given)."""
    templates: dict[str, dict[str, int]] = field(default_factory=dict)
    """Per path template of the samples: how many were tested, changed and failed."""

    def add(self, outcome: PairOutcome, context: Context, value: Value = ()) -> None:
        """Count one sample's outcome, tested in ``context`` with the parameter's ``value``."""
        counts = self.templates.setdefault(
            path_template(context[0]), {"tested": 0, "changed": 0, "failed": 0}
        )
        counts["failed" if outcome.outcome == "failed" else "tested"] += 1
        counts["changed"] += outcome.outcome == "changed"
        if outcome.outcome == "failed":
            self.failed += 1
            if outcome.cause in HOPELESS_ORIGINAL and self.tested == 0:
                self.hopeless += 1
            if outcome.reason and outcome.reason not in self.reasons:
                self.reasons.append(outcome.reason)
        else:
            self.tested += 1
            self.changed += outcome.outcome == "changed"
            self.contexts.append(context)
            self.values.append(value)
        archived = outcome.cause == Cause.ARCHIVE
        self.samples.append(
            SampleRecord(outcome.original, outcome.candidate, outcome.outcome, archived)
        )


@dataclass(frozen=True, slots=True)
class Spread:
    """How many paths and companion values a pattern offers for one parameter.

    ``templates`` counts the pattern's distinct URLs per path template, most first;
    ``others`` divides them by the values of each other parameter, and ``min_share`` is
    the share of the URLs a verdict's samples must cover (which makes a value rare);
    ``each`` is how many values of the parameter a class of companion values needs
    (:meth:`Companion.covered <learner.plan.companions.Companion.covered>`).
    """

    paths: int
    companions: int
    templates: Mapping[str, int] = field(default_factory=dict)
    others: Mapping[str, Companion] = field(default_factory=dict)
    min_share: float = 0.9
    each: int = 1

    @classmethod
    def of(
        cls,
        group: PatternGroup,
        name: str,
        template: str | None = None,
        *,
        min_share: float,
        most_each: int,
        each: int = 1,
    ) -> Spread:
        """The spread of ``group`` for the parameter ``name`` (on one ``template`` only).

        ``most_each`` is the most values a numeric companion may have (the sample budget).
        """
        statics = [s for s in group.statics if template is None or template_of(s) == template]
        contexts = [context_of(static, name) for static in statics]
        urls = template_urls(group)
        if template is not None:
            urls = {template: urls.get(template, 0)}
        others = companions_of(group, name, most_each, template)
        paths, companions = len({p for p, _ in contexts}), len({c for _, c in contexts})
        return cls(paths, companions, urls, others, min_share, each)

    def class_of(self, companion: str, value: Value) -> Value:
        """The class of a value of one of the other parameters, reckoned at ``min_share``."""
        return self.others[companion].class_of(value, self.min_share)


def covered_share(templates: Mapping[str, int], tested: Sequence[str]) -> float:
    """The share of the URLs held by the templates in ``tested``.

    >>> covered_share({"/t": 49, "/t/{id}": 4}, ["/t/{id}"])
    0.075
    """
    total = sum(templates.values())
    covered = sum(templates.get(t, 0) for t in set(tested))
    # Rounded down: a share shown as 0.9 is never below 0.9.
    return math.floor(covered / total * 1000) / 1000 if total else 0.0


def coverage(tally: Tally, spread: Spread) -> Coverage:
    """The contexts the successful samples covered, against those the pattern offers.

    ``share`` is the share of the pattern's URLs whose template has a successful sample;
    ``templates`` gives, for each template sampled, its URLs and its samples' outcomes;
    ``values`` gives, for each other parameter, the share of the URLs whose value (or pool
    of rare values) has a successful sample, and the URLs and successful samples of each
    of its classes, largest first (``value`` ``null`` for the pool; at most
    :data:`MAX_CLASSES_SHOWN` of ``classes_seen``).
    """
    paths = sorted({path for path, _ in tally.contexts})
    tested = [t for t, counts in tally.templates.items() if counts["tested"]]
    return Coverage(
        paths=tuple(paths[:5]),
        paths_tested=len(paths),
        paths_seen=spread.paths,
        companions_tested=len({c for _, c in tally.contexts}),
        companions_seen=spread.companions,
        share=covered_share(spread.templates, tested),
        templates_seen=len(spread.templates),
        templates={
            t: TemplateCounts(
                spread.templates.get(t, 0), counts["tested"], counts["changed"], counts["failed"]
            )
            for t, counts in sorted(tally.templates.items())
        },
        values={
            name: _companion_coverage(companion, _samples(tally, name), spread)
            for name, companion in sorted(spread.others.items())
        },
    )


def _samples(tally: Tally, companion: str) -> list[Sample]:
    """The successful samples as ``companion`` coverage reads them."""
    return _pairs(tally.contexts, tally.values, companion)


def _pairs(contexts: Sequence[Context], values: Sequence[Value], companion: str) -> list[Sample]:
    return [
        (context_value(context, companion), value)
        for context, value in zip(contexts, values, strict=True)
    ]


def _companion_coverage(
    companion: Companion, samples: Sequence[Sample], spread: Spread
) -> CompanionCoverage:
    """How the successful samples covered one companion's values (see :func:`coverage`)."""
    covered = companion.covered(samples, spread.min_share, spread.each)
    tested: dict[Value, int] = {}
    for value, _ in samples:
        key = companion.class_of(value, spread.min_share)
        tested[key] = tested.get(key, 0) + 1
    classes = companion.classes(spread.min_share)
    return CompanionCoverage(
        share=companion.share(covered, spread.min_share),
        urls=companion.total,
        numeric=companion.numeric,
        classes_seen=len(classes),
        classes=tuple(
            ValueClass(_shown(key), urls, tested.get(key, 0), key in covered)
            for key, urls in list(classes.items())[:MAX_CLASSES_SHOWN]
        ),
    )


def _shown(value: Value) -> str | tuple[str, ...] | None:
    """A class of values as recorded: the value, repeated values, ``None`` for the pool."""
    if value == RARE:
        return None
    return value[0] if len(value) == 1 else value


def companion_gap(coverage: Coverage, required: Iterable[str], min_share: float) -> str:
    """Why the successful samples did not cover the values of the ``required`` companions.

    A kept companion's classes of values must hold ``min_share`` of the URLs; a numeric
    one's every value must have a successful sample.
    """
    found = coverage.values or {}
    for name in sorted(required):
        seen = found.get(name)
        if seen is None:
            continue
        share = float(seen.share or 0.0)
        if share < min_share:
            return (
                f"successful samples covered values of {name} holding {share:.1%} of the "
                f"pattern's URLs; {min_share:.0%} needed"
            )
        covered = seen.covered_classes
        if seen.numeric and covered < (seen.classes_seen or 0):
            return (
                f"successful samples covered {covered} of the {seen.classes_seen} values "
                f"of {name}, a count whose every value must be seen"
            )
    return ""


def missing_classes(
    contexts: Sequence[Context],
    values: Sequence[Value],
    spread: Spread,
    required: Iterable[str],
) -> dict[str, dict[Value, int]]:
    """The classes of the ``required`` companions' values a verdict still needs, with URLs.

    ``contexts`` and ``values`` are the successful samples' (as :class:`Tally` holds them).
    Enough classes to reach ``min_share`` (largest first), every value of a numeric
    companion; a class whose samples hold too few values of the parameter is still needed.
    """
    out: dict[str, dict[Value, int]] = {}
    for name in sorted(required):
        companion = spread.others.get(name)
        if companion is None:
            continue
        samples = _pairs(contexts, values, name)
        covered = companion.covered(samples, spread.min_share, spread.each)
        classes = companion.classes(spread.min_share)
        missing = companion.missing(covered, spread.min_share)
        if missing:
            out[name] = {key: classes[key] for key in missing}
    return out


def held_values(tally: Tally, spread: Spread) -> dict[str, dict[Value, set[Value]]]:
    """Per companion and class of its values, the parameter's values the successes held."""
    found: dict[str, dict[Value, set[Value]]] = {}
    for name, companion in spread.others.items():
        held = found.setdefault(name, {})
        for value, tested in _samples(tally, name):
            held.setdefault(companion.class_of(value, spread.min_share), set()).add(tested)
    return found


def share_gap(coverage: Coverage, min_share: float) -> str:
    """Why the successful samples did not reach ``min_share`` of the pattern's URLs, if so."""
    share = float(coverage.share or 0.0)
    if share >= min_share:
        return ""
    return (
        f"successful samples were on templates holding {share:.1%} of the pattern's URLs; "
        f"{min_share:.0%} needed"
    )


def coverage_gap(
    coverage: Coverage, least: int, kinds: Sequence[str] = ("paths", "companions")
) -> str:
    """Why the successful samples did not cover enough of the pattern's contexts, if so.

    ``kinds`` names what is checked: ``paths`` and ``companions`` (the values of the other
    parameters).
    """
    counts = {
        "paths": (coverage.paths_tested or 0, coverage.paths_seen or 0),
        "companions": (coverage.companions_tested or 0, coverage.companions_seen or 0),
    }
    described = {"paths": "paths", "companions": "values of the other parameters"}
    for kind in kinds:
        tested, seen = counts[kind]
        need = min(least, seen)
        if tested < need:
            return f"successful samples covered {tested} of {seen} {described[kind]}; {need} needed"
    return ""
