"""The evidence a learned set records beside its verdicts, typed, written as the learner wrote it.

A verdict's cause, the samples it rests on, the contexts they covered, the values rejected as
defaults, the joint checks of a pattern, the patterns a shared verdict rests on and a domain's
renders and refused aliases. The normalizer reads a little of it (the coverage and the
patterns, for ``explain`` and for the shared evidence); the learner and its report read the
rest. Each record writes its fields in the keys, and the order, the learner writes them; a
field that is ``None`` was not recorded and is not written. Keys this version does not know
are kept in ``extra`` and written back as they were.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Literal

__all__ = [
    "CompanionCoverage",
    "Coverage",
    "RefusedAlias",
    "RejectedDefault",
    "RejectedJointDefaults",
    "Sample",
    "SampleOutcome",
    "TemplateCounts",
    "ValueClass",
    "VerdictCause",
]

SampleOutcome = Literal["same", "changed", "failed"]
"""What a sample showed: the page without the parameter was the same, changed, or undecided."""


class VerdictCause(StrEnum):
    """Why a parameter's verdict is what it is (``cause`` in the learned file)."""

    CHANGED = "changed"
    """Samples showed a change: kept on evidence."""
    NO_CHANGE = "no-change"
    """Enough samples, over enough contexts, showed no change: neutral."""
    ORIGINALS_UNUSABLE = "originals-unusable"
    """The first originals could not be used (failed, not settled, not 2xx): given up."""
    FAILED_SAMPLES = "failed-samples"
    """Too few samples succeeded to reach ``min_samples``."""
    FEW_VALUES = "few-values"
    """The log holds fewer distinct values than ``min_samples`` needs, and testing them one
    by one (as default values) left one undecided: its samples failed."""
    VALUES = "values"
    """The log holds fewer distinct values than ``min_samples`` needs, and each was shown,
    value by value, to be a default: dropped for those values only."""
    COVERAGE = "coverage"
    """Successful samples did not cover enough companion values, or were on path templates
    holding less than ``min_share`` of the pattern's URLs."""
    COMPANIONS = "companions"
    """Successful samples did not cover the values of a kept companion parameter holding
    ``min_share`` of the pattern's URLs (or every value of a count, such as a page size)."""
    JOINT_CHECK = "joint-check"
    """Neutral alone, but dropping it with the pattern's other neutral parameters changed
    the page: kept on evidence."""
    JOINT_UNRENDERED = "joint-unrendered"
    """Neutral alone, but the check of dropping it with the others could not be rendered."""
    SITE_GIVEN_UP = "site-given-up"
    """The site was given up before this pattern was studied."""
    BUDGET = "budget"
    """The domain's render budget ran out while the pattern was studied: its samples were
    cut, and nothing of them is published."""
    ONE_PAGE = "one-page"
    """Every page of the site showed the same text (a block or consent page?)."""
    UNRECORDED = "unrecorded"
    """The verdict was written without a cause (by hand, or by an older learner): not
    counted as decided."""

    @property
    def decided(self) -> bool:
        """Whether a verdict with this cause rests on evidence rather than its absence."""
        return self in (
            VerdictCause.CHANGED,
            VerdictCause.NO_CHANGE,
            VerdictCause.JOINT_CHECK,
            VerdictCause.VALUES,
        )

    @property
    def gave_up(self) -> bool:
        """Whether the parameter was given up before anything could be learned of it."""
        return self in (VerdictCause.ORIGINALS_UNUSABLE, VerdictCause.SITE_GIVEN_UP)


def _with(out: dict[str, Any], **fields: Any) -> dict[str, Any]:
    """``out`` with each field that is not ``None`` (a field not recorded is not written)."""
    out.update((key, value) for key, value in fields.items() if value is not None)
    return out


@dataclass(frozen=True, slots=True)
class Sample:
    """One sample: a URL, the candidate without the parameter(s), and what the pair showed.

    ``from_archive``: a web archive's captures decided it (``"from": "archive"``), so
    nothing was rendered for it.
    """

    url: str
    candidate: str
    outcome: SampleOutcome
    from_archive: bool = False
    extra: Mapping[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        """The JSON object of this sample."""
        out: dict[str, Any] = dict(self.extra)
        out.update(url=self.url, candidate=self.candidate, outcome=self.outcome)
        if self.from_archive:
            out["from"] = "archive"
        return out


@dataclass(frozen=True, slots=True)
class TemplateCounts:
    """One path template of a coverage record: its URLs, and its samples' outcomes."""

    urls: int | None = None
    tested: int | None = None
    changed: int | None = None
    failed: int | None = None
    extra: Mapping[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        """The JSON object of these counts."""
        return _with(
            dict(self.extra),
            urls=self.urls,
            tested=self.tested,
            changed=self.changed,
            failed=self.failed,
        )


@dataclass(frozen=True, slots=True)
class ValueClass:
    """A class of a companion's values and how the samples covered it.

    ``value`` is the value (repeated values, ``None`` for the pool of rare values), then
    its URLs, the successful samples in it and whether it was covered.
    """

    value: str | tuple[str, ...] | None = None
    urls: int | None = None
    samples: int | None = None
    covered: bool | None = None
    extra: Mapping[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        """The JSON object of this class."""
        out: dict[str, Any] = dict(self.extra)
        out["value"] = list(self.value) if isinstance(self.value, tuple) else self.value
        return _with(out, urls=self.urls, samples=self.samples, covered=self.covered)


@dataclass(frozen=True, slots=True)
class CompanionCoverage:
    """How the successful samples covered the values of one other parameter (a companion).

    ``share`` is the share of the URLs whose value class has a sample (a number; a file
    may hold any); ``classes`` lists the largest of the ``classes_seen`` classes.
    """

    share: float | None = None
    urls: int | None = None
    numeric: bool | None = None
    classes_seen: int | None = None
    classes: tuple[ValueClass, ...] | None = None
    extra: Mapping[str, Any] = field(default_factory=dict)

    @property
    def covered_classes(self) -> int:
        """How many of the listed classes were covered."""
        return sum(1 for c in self.classes or () if c.covered)

    def to_json(self) -> dict[str, Any]:
        """The JSON object of this companion's coverage."""
        classes = None if self.classes is None else [c.to_json() for c in self.classes]
        return _with(
            dict(self.extra),
            share=self.share,
            urls=self.urls,
            numeric=self.numeric,
            classes_seen=self.classes_seen,
            classes=classes,
        )


@dataclass(frozen=True, slots=True)
class Coverage:
    """The contexts a verdict's (or a value's) successful samples covered.

    Paths (the first few listed) and combinations of the other parameters' values, tested
    against seen; ``share`` of the pattern's URLs on templates with a successful sample;
    per template sampled, its URLs and its samples' outcomes; per companion, the share of
    its values covered (:class:`CompanionCoverage`).
    """

    paths: tuple[str, ...] | None = None
    paths_tested: int | None = None
    paths_seen: int | None = None
    companions_tested: int | None = None
    companions_seen: int | None = None
    share: float | None = None
    templates_seen: int | None = None
    templates: Mapping[str, TemplateCounts] | None = None
    values: Mapping[str, CompanionCoverage] | None = None
    extra: Mapping[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        """The JSON object of this coverage."""
        templates = values = None
        if self.templates is not None:
            templates = {t: c.to_json() for t, c in self.templates.items()}
        if self.values is not None:
            values = {name: c.to_json() for name, c in self.values.items()}
        return _with(
            dict(self.extra),
            paths=None if self.paths is None else list(self.paths),
            paths_tested=self.paths_tested,
            paths_seen=self.paths_seen,
            companions_tested=self.companions_tested,
            companions_seen=self.companions_seen,
            share=self.share,
            templates_seen=self.templates_seen,
            templates=templates,
            values=values,
        )


@dataclass(frozen=True, slots=True)
class RejectedDefault:
    """A value tested as a default of a kept parameter and not learned, and why.

    ``samples`` (and, where the value was tested on its own samples, their ``coverage``
    and counts) are the evidence; ``reason`` says what it showed.
    """

    reason: str | None = None
    samples: tuple[Sample, ...] | None = None
    coverage: Coverage | None = None
    tested: int | None = None
    changed: int | None = None
    failed: int | None = None
    extra: Mapping[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        """The JSON object of this rejection."""
        return _with(
            dict(self.extra),
            samples=None if self.samples is None else [s.to_json() for s in self.samples],
            coverage=None if self.coverage is None else self.coverage.to_json(),
            tested=self.tested,
            changed=self.changed,
            failed=self.failed,
            reason=self.reason,
        )


@dataclass(frozen=True, slots=True)
class RejectedJointDefaults:
    """Why a pattern's learned defaults are not dropped from one URL together."""

    names: tuple[str, ...]
    reason: str | None = None
    samples: tuple[Sample, ...] | None = None
    extra: Mapping[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        """The JSON object of this rejection."""
        out: dict[str, Any] = dict(self.extra)
        out["names"] = list(self.names)
        samples = None if self.samples is None else [s.to_json() for s in self.samples]
        return _with(out, samples=samples, reason=self.reason)


@dataclass(frozen=True, slots=True)
class RefusedAlias:
    """A candidate alias of a domain its study did not publish: the finding and why."""

    from_: str
    to: str
    finding: str
    reason: str
    samples: int | None = None
    controls: int | None = None
    replaced: int | None = None
    extra: Mapping[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        """The JSON object of this refusal."""
        out: dict[str, Any] = dict(self.extra)
        out.update({"from": self.from_, "to": self.to})
        out.update(finding=self.finding, reason=self.reason)
        return _with(out, samples=self.samples, controls=self.controls, replaced=self.replaced)
