"""The URL that brings the most uncovered URLs, and the covering of companions' missing values.

:func:`most_gain` is the one step every pick that covers something takes; :class:`Cover`
adds a default's samples, one at a time, until the kept companions' values are covered.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TypeVar

from learner.plan.sampling import Context, Value, context_value

__all__ = ["ClassOf", "Cover", "Missing", "most_gain"]

Missing = Mapping[str, Mapping[Value, int]]
"""Per companion, the classes of its values a verdict still needs, with the URLs each holds."""

ClassOf = Callable[[str, Value], Value]
"""A companion's value to its class (:meth:`Companion.class_of
<learner.plan.companions.Companion.class_of>`)."""

_T = TypeVar("_T")


def most_gain(
    candidates: Iterable[_T], gain: Callable[[_T], int], fresh: Callable[[_T], bool] | None = None
) -> _T | None:
    """The first of ``candidates`` with the largest positive ``gain``, if any has one.

    Among equal gains a ``fresh`` candidate (a value of the parameter not picked yet) wins.
    """
    best, best_key = None, (0, False)
    for candidate in candidates:
        key = (gain(candidate), fresh(candidate) if fresh is not None else False)
        if key[0] > 0 and key > best_key:
            best, best_key = candidate, key
    return best


def _gain(context: Context, missing: Missing, class_of: ClassOf) -> int:
    """The URLs of the ``missing`` classes a sample in ``context`` would cover."""
    return sum(
        classes.get(class_of(name, context_value(context, name)), 0)
        for name, classes in missing.items()
    )


@dataclass(frozen=True, slots=True)
class Cover:
    """The kept companions whose values a default's samples must cover.

    ``missing`` gives the classes the samples in the given contexts still lack (as
    :func:`learner.judge.tally.missing_classes` reckons them), ``class_of`` maps a
    companion's value to its class, and ``most`` is the most samples to pick for them.
    """

    missing: Callable[[Sequence[Context]], Missing]
    class_of: ClassOf
    most: int

    def extend(
        self, picks: list[_T], left: Callable[[], list[_T]], where: Callable[[_T], Context]
    ) -> None:
        """Add to ``picks``, one at a time, the candidate that brings the most missing URLs."""
        while len(picks) < self.most:
            missing = self.missing([where(pick) for pick in picks])

            def gain(candidate: _T, missing: Missing = missing) -> int:
                return _gain(where(candidate), missing, self.class_of)

            best = most_gain(left(), gain)
            if best is None:
                break
            picks.append(best)
