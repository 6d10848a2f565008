"""A domain's evidence shared across patterns, per path template and parameter name.

A pattern the log spells rarely (``id&size`` once, beside a common ``color&id&size``) is not
studied, yet its URLs are pages of templates the studied patterns sampled. For each
(template, name), :func:`shared_evidence` combines the samples of every studied pattern that
has the name, on URLs of that template:

- a change the change-rate rule counts (:mod:`learner.judge.rate`), over the template's
  samples of every pattern or of one of them, or a joint check that kept the name, makes it
  non-neutral;
- a pattern that kept the name for want of samples across its kept companions' values
  keeps it: those values decide whether the name matters, and an unstudied pattern's URLs
  may hold the very values its samples never met;
- it is neutral only with ``min_samples`` successful samples on the template across the
  patterns, no change the rule counts, and no pattern whose samples there all failed;
- a value a pattern learned as a default from samples on the template is a default there,
  unless a sample on the template showed that value change the page (the threshold does not
  apply to a default: one change rejects it).

Each verdict's ``patterns`` lists the patterns it rests on. A pure function of the
learned entries, so a domain resumed from its checkpoint shares exactly the same evidence.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from learner.judge.rate import ChangeRule
from learner.judge.verdicts import VerdictCause, cause_of
from learner.plan.sampling import param_values, template_of
from samepage import (
    DefaultValue,
    InvalidURL,
    MIQPSNormalizer,
    ParamVerdict,
    PatternEntry,
    TemplateScope,
)
from samepage.learned import Sample, SampleOutcome

__all__ = ["shared_evidence"]

_JOINT_KEEPS = frozenset({VerdictCause.JOINT_CHECK, VerdictCause.JOINT_UNRENDERED})
_UNCOVERED = frozenset({VerdictCause.COMPANIONS})


@dataclass(slots=True)
class _Evidence:
    """What the studied patterns showed of one name on one template."""

    tested: dict[str, int] = field(default_factory=dict)
    changed: dict[str, int] = field(default_factory=dict)
    failed: dict[str, int] = field(default_factory=dict)
    joint_kept: set[str] = field(default_factory=set)
    uncovered: set[str] = field(default_factory=set)
    """Patterns that kept the name for want of samples across their companions' values."""
    changed_values: set[str] = field(default_factory=set)
    defaults: dict[str, dict[str, int]] = field(default_factory=dict)
    """Per value learned as a default on the template: its samples there, per pattern."""

    def add(self, pattern: str, outcome: SampleOutcome, values: tuple[str, ...]) -> None:
        for counts in (self.tested, self.changed, self.failed):
            counts.setdefault(pattern, 0)
        if outcome == "failed":
            self.failed[pattern] += 1
            return
        self.tested[pattern] += 1
        if outcome == "changed":
            self.changed[pattern] += 1
            self.changed_values.update(values)

    def shows_change(self, rule: ChangeRule) -> bool:
        """Whether the samples show a change the rule counts: in all, or of one pattern."""
        tested, changed = sum(self.tested.values()), sum(self.changed.values())
        return rule.changed(changed, tested=tested) or any(
            rule.changed(self.changed[p], tested=self.tested[p]) for p in self.tested
        )

    def verdict(self, min_samples: int, rule: ChangeRule) -> ParamVerdict:
        patterns = tuple(sorted(set(self.tested) | self.joint_kept | self.uncovered))
        counts = (sum(self.tested.values()), sum(self.changed.values()), sum(self.failed.values()))
        failed_only = sorted(p for p in self.tested if self.failed[p] and not self.tested[p])
        reason = ""
        if self.shows_change(rule):
            cause = VerdictCause.CHANGED
        elif self.joint_kept:
            cause = VerdictCause.JOINT_CHECK
            reason = "kept by the joint check of " + ", ".join(sorted(self.joint_kept))
        elif self.uncovered:
            cause = VerdictCause.COMPANIONS
            reason = "kept for want of samples across the companions' values in " + ", ".join(
                sorted(self.uncovered)
            )
        elif failed_only:
            cause = VerdictCause.FAILED_SAMPLES
            reason = "every sample of " + ", ".join(failed_only) + " failed on this template"
        elif counts[0] < min_samples:
            cause = VerdictCause.FAILED_SAMPLES
            reason = f"only {counts[0]} successful sample(s) on this template; {min_samples} needed"
        else:
            cause = VerdictCause.NO_CHANGE
            return ParamVerdict("neutral", *counts, cause=cause, patterns=patterns)
        defaults = {
            value: DefaultValue(sum(by.values()), patterns=tuple(sorted(by)))
            for value, by in sorted(self.defaults.items())
            if value not in self.changed_values and not self.joint_kept and not self.uncovered
        }
        return ParamVerdict(
            "non-neutral",
            *counts,
            reason or None,
            defaults=defaults,
            cause=cause,
            patterns=patterns,
        )


def _samples(verdict: ParamVerdict) -> Iterable[Sample]:
    """The parameter test's samples and those of its rejected default values."""
    yield from verdict.samples or ()
    for trial in verdict.rejected_defaults.values():
        yield from trial.samples or ()


def _default_templates(default: DefaultValue) -> dict[str, int]:
    """The templates a default's samples succeeded on, with how many there."""
    found = default.coverage
    templates = (found.templates if found is not None else None) or {}
    return {t: counts.tested for t, counts in templates.items() if counts.tested}


def shared_evidence(
    patterns: Mapping[str, PatternEntry],
    normalizer: MIQPSNormalizer,
    min_samples: int,
    *,
    rule: ChangeRule,
) -> dict[str, TemplateScope]:
    """The shared verdicts of a domain's studied patterns, per template (see the module).

    Args:
        patterns: the domain's studied patterns, by pattern key.
        normalizer: reads the samples' URLs as the learner grouped them (blocklist applied).
        min_samples: successful samples a neutral verdict needs on a template.
        rule: the change-rate rule the patterns were decided with (``--threshold``).
    """
    evidence: dict[tuple[str, str], _Evidence] = {}
    urls: dict[str, dict[str, int]] = {}
    for key, entry in sorted(patterns.items()):
        for name, verdict in entry.params.items():
            joint_kept = cause_of(verdict) in _JOINT_KEEPS
            uncovered = cause_of(verdict) in _UNCOVERED
            for sample in _samples(verdict):
                try:
                    static = normalizer.static_url(sample.url)
                except (InvalidURL, ValueError):
                    continue
                found = evidence.setdefault((template_of(static), name), _Evidence())
                found.add(key, sample.outcome, param_values(static, name))
                if joint_kept:
                    found.joint_kept.add(key)
                if uncovered:
                    found.uncovered.add(key)
            for value, default in verdict.defaults.items():
                for template, tested in _default_templates(default).items():
                    found = evidence.setdefault((template, name), _Evidence())
                    found.defaults.setdefault(value, {})[key] = tested
            coverage = verdict.coverage
            templates = (coverage.templates if coverage is not None else None) or {}
            for template, counts in templates.items():
                seen = urls.setdefault(template, {})
                seen[key] = max(seen.get(key, 0), counts.urls or 0)
        for template, scope in entry.templates.items():
            for name, verdict in scope.params.items():
                if cause_of(verdict) in _JOINT_KEEPS:
                    evidence.setdefault((template, name), _Evidence()).joint_kept.add(key)
                if cause_of(verdict) in _UNCOVERED:
                    evidence.setdefault((template, name), _Evidence()).uncovered.add(key)
    by_template: dict[str, dict[str, ParamVerdict]] = {}
    for (template, name), found in sorted(evidence.items()):
        by_template.setdefault(template, {})[name] = found.verdict(min_samples, rule)
    return {
        template: TemplateScope(
            sum(urls.get(template, {}).values()),
            params,
            patterns=tuple(sorted({p for v in params.values() for p in v.patterns or ()})),
        )
        for template, params in by_template.items()
    }
