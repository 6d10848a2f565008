"""The learned set's data model: frozen records of what the learner concluded, per host.

The bottom layer of the learned set: these types hold a file's content and write it as
JSON; reading and checking a document is the validator's job (``_validate.py``), and the
whole set, its loading and its conflicts live in :mod:`samepage.learned`, their public home.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Literal

from samepage._evidence import (
    Coverage,
    RefusedAlias,
    RejectedDefault,
    RejectedJointDefaults,
    Sample,
    VerdictCause,
)
from samepage.aliases import Alias

FORMAT = "samepage.learned"
VERSION = 1
ALIAS_VERSION = 2
"""The version of a file with aliases: a reader of version 1 refuses it rather than ignore them."""
VERSIONS = (VERSION, ALIAS_VERSION)

Verdict = Literal["neutral", "non-neutral"]

_COUNTS = ("tested", "changed", "failed")


def _samples(samples: tuple[Sample, ...] | None) -> list[dict[str, Any]] | None:
    return None if samples is None else [sample.to_json() for sample in samples]


def _evidence(
    out: dict[str, Any],
    samples: tuple[Sample, ...] | None = None,
    coverage: Coverage | None = None,
    patterns: tuple[str, ...] | None = None,
) -> dict[str, Any]:
    """``out`` with the evidence recorded (a field not recorded is not written)."""
    if samples is not None:
        out["samples"] = _samples(samples)
    if coverage is not None:
        out["coverage"] = coverage.to_json()
    if patterns is not None:
        out["patterns"] = list(patterns)
    return out


@dataclass(frozen=True, slots=True)
class DefaultValue:
    """A value of a kept parameter that renders the page without the parameter.

    ``tested`` samples (all with this value, spread over the pattern's contexts) showed the
    same page with and without the parameter; ``changed`` is always 0 and ``failed`` counts
    samples that could not be decided (a default is learned only when none failed).
    The evidence: the ``samples`` and their ``coverage`` (a default the learner tested),
    or the ``patterns`` whose defaults it rests on (a default of the shared evidence).
    """

    tested: int = 0
    changed: int = 0
    failed: int = 0
    extra: Mapping[str, Any] = field(default_factory=dict)
    samples: tuple[Sample, ...] | None = None
    coverage: Coverage | None = None
    patterns: tuple[str, ...] | None = None

    def to_json(self) -> dict[str, Any]:
        """The JSON object of this default (its evidence and unknown fields included)."""
        out = _evidence(dict(self.extra), self.samples, self.coverage, self.patterns)
        out.update(tested=self.tested, changed=self.changed, failed=self.failed)
        return out


@dataclass(frozen=True, slots=True)
class ParamVerdict:
    """What the learner concluded about one parameter of one pattern, and on what evidence.

    ``defaults`` maps values (in the normalizer's query-value form) that mean "no parameter"
    to their evidence: the normalizer drops ``name=value`` for those values only. ``""``
    is the value of ``name=``; a bare ``name`` has no value a default names, and is kept.

    The evidence, each field ``None`` (or empty) where not recorded: the ``cause`` of the
    verdict, its ``samples`` and their ``coverage``, the ``patterns`` a verdict of the
    shared evidence rests on, and the values tested as defaults and ``rejected_defaults``.
    """

    verdict: Verdict
    tested: int = 0
    changed: int = 0
    failed: int = 0
    reason: str | None = None
    extra: Mapping[str, Any] = field(default_factory=dict)
    defaults: Mapping[str, DefaultValue] = field(default_factory=dict)
    cause: VerdictCause | None = None
    samples: tuple[Sample, ...] | None = None
    coverage: Coverage | None = None
    patterns: tuple[str, ...] | None = None
    rejected_defaults: Mapping[str, RejectedDefault] = field(default_factory=dict)

    @property
    def neutral(self) -> bool:
        """Whether removing the parameter was shown not to change the page."""
        return self.verdict == "neutral"

    def to_json(self) -> dict[str, Any]:
        """The JSON object of this verdict (its evidence and unknown fields included)."""
        out = _evidence(dict(self.extra), self.samples, self.coverage, self.patterns)
        if self.cause is not None:
            out["cause"] = self.cause.value
        if self.rejected_defaults:
            out["rejected_defaults"] = {
                value: why.to_json() for value, why in self.rejected_defaults.items()
            }
        out.update(
            verdict=self.verdict, tested=self.tested, changed=self.changed, failed=self.failed
        )
        if self.reason is not None:
            out["reason"] = self.reason
        if self.defaults:
            out["defaults"] = {value: d.to_json() for value, d in sorted(self.defaults.items())}
        return out


@dataclass(frozen=True, slots=True)
class JointDefaults:
    """Learned defaults of several parameters, shown to be droppable from one URL together.

    Each default is proven alone; ``tested`` sample URLs of the pattern, each carrying a
    default of every parameter in ``names``, showed the same page without all of them
    (``changed`` and ``failed`` are always 0). Without this, the normalizer drops at most
    one default from a URL. ``samples`` are the check's samples, where recorded.
    """

    names: frozenset[str]
    tested: int = 0
    changed: int = 0
    failed: int = 0
    extra: Mapping[str, Any] = field(default_factory=dict)
    samples: tuple[Sample, ...] | None = None

    def to_json(self) -> dict[str, Any]:
        """The JSON object of this check (its samples and unknown fields included)."""
        out = _evidence(dict(self.extra), self.samples)
        out.update(
            names=sorted(self.names), tested=self.tested, changed=self.changed, failed=self.failed
        )
        return out


@dataclass(frozen=True, slots=True)
class TemplateScope:
    """Verdicts that hold on the URLs of one path template (:func:`samepage.path_template`).

    Inside a pattern (``PatternEntry.templates``), they replace the pattern's own verdicts
    for the parameters they name, on URLs of their template only. In a domain's ``shared``
    section, they are the evidence of every studied pattern combined, per template, for
    URLs whose pattern the file does not hold.

    ``joint_checks`` are the samples of the joint check of a pattern's scope; ``patterns``,
    of a shared scope, the patterns its verdicts rest on.
    """

    urls: int
    params: Mapping[str, ParamVerdict]
    extra: Mapping[str, Any] = field(default_factory=dict)
    joint_checks: tuple[Sample, ...] = ()
    patterns: tuple[str, ...] | None = None

    def to_json(self) -> dict[str, Any]:
        """The JSON object of this scope."""
        out = _evidence(dict(self.extra), patterns=self.patterns)
        if self.joint_checks:
            out["joint_checks"] = _samples(self.joint_checks)
        out["urls"] = self.urls
        out["params"] = {name: v.to_json() for name, v in sorted(self.params.items())}
        return out


@dataclass(frozen=True, slots=True)
class PatternEntry:
    """One query-parameter pattern of a domain: how often it was seen and its verdicts.

    ``joint_defaults``, when present, names the parameters whose learned defaults may be
    dropped from one URL together. ``templates``, when present, holds verdicts learned per
    path template where the evidence differed between templates: on a URL of a listed
    template, its verdict of a parameter replaces the pattern's.

    ``joint_checks`` are the samples of the pattern's joint check (its neutral parameters
    dropped together); ``rejected_joint_defaults`` says why learned defaults of two or more
    parameters are not dropped together, where that was checked.
    """

    urls: int
    params: Mapping[str, ParamVerdict]
    extra: Mapping[str, Any] = field(default_factory=dict)
    joint_defaults: JointDefaults | None = None
    templates: Mapping[str, TemplateScope] = field(default_factory=dict)
    joint_checks: tuple[Sample, ...] = ()
    rejected_joint_defaults: RejectedJointDefaults | None = None

    def to_json(self) -> dict[str, Any]:
        """The JSON object of this pattern."""
        out: dict[str, Any] = dict(self.extra)
        if self.joint_checks:
            out["joint_checks"] = _samples(self.joint_checks)
        if self.rejected_joint_defaults is not None:
            out["rejected_joint_defaults"] = self.rejected_joint_defaults.to_json()
        out["urls"] = self.urls
        out["params"] = {name: v.to_json() for name, v in sorted(self.params.items())}
        if self.joint_defaults is not None:
            out["joint_defaults"] = self.joint_defaults.to_json()
        if self.templates:
            out["templates"] = {t: s.to_json() for t, s in sorted(self.templates.items())}
        return out


@dataclass(frozen=True, slots=True)
class PatternConflict:
    """Two patterns of a host whose verdicts disagree on the URLs one turns into the other.

    Normalising a URL of ``pattern`` drops parameters (its neutral ones, or one learned
    default), which leaves a URL of ``into``; that pattern's verdicts would then drop
    ``names`` (``name`` or ``name=value``) that ``pattern`` keeps. The normalizer keeps,
    on each such URL, what the first pattern dropped, so every key normalises to itself.
    ``template``, when set, says the conflict holds on URLs of that path template, where
    a template scope of one of the two patterns decides; without it, on URLs of the
    templates neither pattern has a scope for.
    """

    domain: str
    pattern: str
    into: str
    names: tuple[str, ...]
    template: str | None = None

    def to_json(self) -> dict[str, Any]:
        """This conflict as JSON."""
        out: dict[str, Any] = {
            "domain": self.domain,
            "pattern": self.pattern,
            "into": self.into,
            "names": list(self.names),
        }
        if self.template is not None:
            out["template"] = self.template
        return out


@dataclass(frozen=True, slots=True)
class ListedKeep:
    """The evidence that keeps a listed name on a learned host, before every built-in list.

    The name is on a built-in list (the blocklist, or an ambiguous name), but renders of the
    host's own URLs showed a different page without it: ``changed`` of ``tested`` samples,
    more than the settings' threshold allows (:func:`changed_too_often`), on the path
    ``templates`` listed. ``overrules`` names the static rules it overrules (rule ids).
    """

    tested: int
    changed: int
    failed: int = 0
    overrules: tuple[str, ...] = ()
    templates: tuple[str, ...] = ()
    extra: Mapping[str, Any] = field(default_factory=dict)

    def describe(self) -> str:
        """One line for ``explain``: what the renders showed and which rules it overrules."""
        rules = ", ".join(self.overrules) or "a built-in list"
        return (
            f"kept: renders of this host changed without it on {self.changed} of "
            f"{self.tested} samples; overrules {rules}"
        )

    def to_json(self) -> dict[str, Any]:
        """The JSON object of this evidence (extra fields included)."""
        out: dict[str, Any] = dict(self.extra)
        out.update(tested=self.tested, changed=self.changed, failed=self.failed)
        out.update(overrules=list(self.overrules), templates=list(self.templates))
        return out


@dataclass(frozen=True, slots=True)
class DomainEntry:
    """A learned host: its patterns, or (the simple form) its complete set of content names."""

    patterns: Mapping[str, PatternEntry] = field(default_factory=dict)
    content: frozenset[str] | None = None
    extra: Mapping[str, Any] = field(default_factory=dict)
    shared: Mapping[str, TemplateScope] = field(default_factory=dict)
    """Per path template, the verdicts that the evidence of every studied pattern supports
    together, for URLs of a pattern the file does not hold."""
    keep_listed: Mapping[str, ListedKeep] = field(default_factory=dict)
    """Listed names the host's renders showed to be content: kept there before the lists."""
    aliases: tuple[Alias, ...] = ()
    """Other spellings of one page on this host (format 2), first match first."""
    renders: int | None = None
    """The renders the host's study cost, where recorded."""
    urls: int | None = None
    """The host's URLs the study read, where recorded."""
    aliases_refused: tuple[RefusedAlias, ...] = ()
    """Candidate aliases the study did not publish, with its finding and reason."""

    def fallback(self) -> dict[str, bool]:
        """Per parameter name, whether it is neutral in EVERY pattern that contains it.

        The template scopes of a pattern count as well. Used only by the opt-in
        domain-level fallback for patterns the file does not know.
        """
        neutral: dict[str, bool] = {}
        for entry in self.patterns.values():
            scoped = [scope.params for scope in entry.templates.values()]
            for params in (entry.params, *scoped):
                for name, verdict in params.items():
                    neutral[name] = neutral.get(name, True) and verdict.neutral
        return neutral

    def to_json(self) -> dict[str, Any]:
        """The JSON object of this domain."""
        out: dict[str, Any] = dict(self.extra)
        if self.renders is not None:
            out["renders"] = self.renders
        if self.urls is not None:
            out["urls"] = self.urls
        if self.aliases_refused:
            out["aliases_refused"] = [refused.to_json() for refused in self.aliases_refused]
        out["patterns"] = {key: p.to_json() for key, p in sorted(self.patterns.items())}
        if self.shared:
            out["shared"] = {t: s.to_json() for t, s in sorted(self.shared.items())}
        if self.keep_listed:
            out["keep_listed"] = {n: k.to_json() for n, k in sorted(self.keep_listed.items())}
        if self.aliases:
            out["aliases"] = [alias.to_json() for alias in self.aliases]
        return out


def changed_too_often(changed: int, tested: int, threshold: float) -> bool:
    """Whether ``changed`` of ``tested`` samples are more changes than ``threshold`` allows.

    The change-rate rule of the learning method: a parameter is neutral only where this is
    false (and a sample was tested). The learner decides with it and the reader checks
    neutral verdicts with it. Any integer counts are compared: a count too large for a
    float is compared exactly, never turned into one.

    >>> changed_too_often(1, 10, 0.1), changed_too_often(2, 10, 0.1)
    (False, True)
    >>> changed_too_often(1, 10**400, 0.5)
    False
    """
    try:
        allowed = threshold * tested
    except OverflowError:  # int too large to convert to float
        return Fraction(changed) > Fraction(threshold) * tested
    return changed > allowed  # an int and a float compare exactly, whatever their size


def pattern_names(pattern: str) -> list[str]:
    """The parameter names of a pattern key (the inverse of :func:`samepage.pattern_key`)."""
    return pattern.split("&") if pattern else []
