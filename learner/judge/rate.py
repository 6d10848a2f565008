"""The change-rate rule: when the samples of a parameter say it changes the page.

One rule for every caller, on samepage's :func:`~samepage.learned.changed_too_often` (the
rule the learned-set reader checks neutral verdicts with). A verdict counts the samples that
succeeded (a failed sample shows nothing either way); a run that stops early asks whether the
verdict is a change whatever the samples still to come show, which is the verdict's rule with
every one of them counted as a success without a change. At the default threshold of 0 both
read "at least one change".

Every decision on a change goes through a :class:`ChangeRule`: a parameter's verdict over its
pattern and over each path template (:mod:`learner.judge.classify`), the evidence a domain's
patterns share (:mod:`learner.judge.shared`), a listed name's spot checks
(:mod:`learner.judge.listed`), and default values (:mod:`learner.judge.defaults`), which
take :data:`ANY_CHANGE` whatever the threshold.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from samepage.learned import changed_too_often

__all__ = ["ANY_CHANGE", "ChangeRule"]


@dataclass(frozen=True, slots=True)
class ChangeRule:
    """A change when more than ``threshold`` of the successful samples changed (and one did).

    >>> ChangeRule(0.0).changed(1, tested=8)
    True
    >>> ChangeRule(0.25).changed(2, tested=8), ChangeRule(0.25).changed(3, tested=8)
    (False, True)
    >>> ChangeRule(0.25).settled(2, tested=4, left=4)
    False
    """

    threshold: float = 0.0

    def changed(self, changed: int, *, tested: int) -> bool:
        """Whether ``changed`` of ``tested`` successful samples make a change."""
        return changed > 0 and changed_too_often(changed, tested, self.threshold)

    def settled(self, changed: int, *, tested: int, left: int) -> bool:
        """Whether the verdict is a change whatever the ``left`` samples still to come show.

        The worst case for a change is that each of them succeeds and shows none.
        """
        return self.changed(changed, tested=tested + left)


ANY_CHANGE: Final = ChangeRule(0.0)
"""Any change counts: the rule at the default threshold, and the rule of default values.

A default value is dropped from every URL of its pattern, and the learned format takes one
only on samples that never showed another page: the threshold does not apply to it, and one
change rejects a value (alone or in a joint check of defaults).
"""
