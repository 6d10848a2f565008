"""The change-rate rule: when the samples of a parameter say it changes the page.

One rule for every caller, on samepage's :func:`~samepage.learned.changed_too_often` (the
rule the learned-set reader checks neutral verdicts with). A verdict counts the samples that
succeeded (a failed sample shows nothing either way); a run that stops early asks whether the
verdict is a change whatever the samples still to come show, which is the verdict's rule with
every one of them counted as a success without a change. At the default threshold of 0 both
read "at least one change".
"""

from __future__ import annotations

from dataclasses import dataclass

from samepage.learned import changed_too_often

__all__ = ["ChangeRule"]


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
