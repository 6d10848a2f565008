"""What the spot-checks of a host's listed names prove: keep the name there, or let the list be.

A listed name is one a built-in list drops (:mod:`learner.plan.listed`). Its samples decide
by the method's change-rate rule (:class:`~learner.judge.rate.ChangeRule`):

- a change the rule counts keeps the name on the host (a learned ``keep_listed`` entry,
  :class:`samepage.ListedKeep`, which the normalizer applies before every list);
- successful samples without such a change confirm the list: the name stays dropped;
- no successful sample leaves the list in force, reported as unsettled. A failed sample
  shows nothing about the page, and the list entry is the reviewed evidence that applies on
  every host nobody sampled; a host whose render failed is no different. Failures never
  keep a name, as they never drop one: the report names the unsettled ones, for a
  ``keep_listed`` option where a reader knows better.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from learner.judge.rate import ChangeRule
from learner.model import PairOutcome
from learner.plan.listed import ListedSample
from learner.plan.sampling import without_param
from samepage import ListedKeep

__all__ = ["ListedAccount", "ListedFinding", "ListedTally", "check_listed", "listed_account"]

Compare = Callable[[str, str], Awaitable[PairOutcome]]


class ListedFinding(StrEnum):
    """What a listed name's samples on one host showed."""

    KEPT = "kept"
    """The page changed without it: kept on the host."""
    CONFIRMED = "confirmed"
    """Successful samples and no change the rule counts: the list stands."""
    UNSETTLED = "unsettled"
    """No sample succeeded: the list stands, for want of evidence."""


@dataclass(slots=True)
class ListedTally:
    """The samples of one listed name on one host."""

    tested: int = 0
    changed: int = 0
    failed: int = 0
    rules: set[str] = field(default_factory=set)
    templates: set[str] = field(default_factory=set)
    """The path templates where the page changed without the name."""

    def add(self, sample: ListedSample, outcome: PairOutcome) -> None:
        """Count one sample's outcome."""
        self.rules.add(sample.rule)
        if outcome.outcome == "failed":
            self.failed += 1
            return
        self.tested += 1
        if outcome.outcome == "changed":
            self.changed += 1
            self.templates.add(sample.template)

    def finding(self, rule: ChangeRule) -> ListedFinding:
        """What these samples show, by the change-rate rule."""
        if self.tested == 0:
            return ListedFinding.UNSETTLED
        if rule.changed(self.changed, tested=self.tested):
            return ListedFinding.KEPT
        return ListedFinding.CONFIRMED

    def keep(self) -> ListedKeep:
        """The learned entry that keeps the name (for a :attr:`ListedFinding.KEPT` tally)."""
        return ListedKeep(
            self.tested,
            self.changed,
            self.failed,
            tuple(sorted(self.rules)),
            tuple(sorted(self.templates)),
        )


async def check_listed(
    samples: Iterable[ListedSample], compare: Compare, tallies: dict[str, ListedTally]
) -> None:
    """Render each sample with and without its name, counting it in ``tallies`` (by name)."""
    for sample in samples:
        outcome = await compare(sample.url, without_param(sample.url, sample.name))
        tallies.setdefault(sample.name, ListedTally()).add(sample, outcome)


_LABELS = {
    ListedFinding.KEPT: "kept on evidence",
    ListedFinding.CONFIRMED: "dropped, as listed",
    ListedFinding.UNSETTLED: "unsettled (the list stands)",
}


@dataclass(frozen=True, slots=True)
class ListedAccount:
    """What the spot-checks of one host's listed names cost and found."""

    samples: int = 0
    renders: int = 0
    found: dict[str, ListedFinding] = field(default_factory=dict)
    """Per listed name, what its samples showed."""

    def names(self, finding: ListedFinding) -> list[str]:
        """The names with this finding, sorted."""
        return sorted(name for name, f in self.found.items() if f == finding)

    def describe(self) -> str:
        """One line for the closing table and the report.

        >>> ListedAccount(3, 4, {"utm_source": ListedFinding.KEPT}).describe()
        'listed names spot-checked: 3 samples, 4 renders; kept on evidence: utm_source'
        """
        found = [
            f"{label}: {', '.join(names)}"
            for finding, label in _LABELS.items()
            if (names := self.names(finding))
        ]
        head = f"listed names spot-checked: {self.samples} samples, {self.renders} renders"
        return "; ".join([head, *found])

    def to_json(self) -> dict[str, Any]:
        """This account as JSON (``stats.json``)."""
        out: dict[str, Any] = {"samples": self.samples, "renders": self.renders}
        out.update({finding.value: self.names(finding) for finding in ListedFinding})
        return out


def listed_account(
    tallies: dict[str, ListedTally], rule: ChangeRule, renders: int
) -> tuple[ListedAccount, dict[str, ListedKeep]]:
    """The host's account of its listed names, and the names its evidence keeps."""
    found = {name: tally.finding(rule) for name, tally in sorted(tallies.items())}
    samples = sum(t.tested + t.failed for t in tallies.values())
    keep = {name: tallies[name].keep() for name, f in found.items() if f == ListedFinding.KEPT}
    return ListedAccount(samples, renders, found), keep
