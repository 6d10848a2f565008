"""A parameter's verdict with its tested values written in: defaults and rejected values.

A parameter with few values, tested value by value, is decided by them (its cause and
reason).
"""

from __future__ import annotations

from dataclasses import replace

from learner.judge.default_trial import _Trial
from learner.judge.rate import ANY_CHANGE
from learner.judge.verdicts import VerdictCause
from samepage import ParamVerdict
from samepage.learned import RejectedDefault


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
