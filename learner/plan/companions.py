"""The values of a pattern's other parameters: where a verdict's samples must have been.

A parameter can be a no-op beside one value of a companion and matter beside another:
``page`` turns pages with ``max=5`` and does nothing with ``max=10`` when every list fits on
one page. A verdict that drops a parameter from every URL of its pattern must therefore rest
on samples across the companions' values, weighed by the share of the pattern's URLs each
value holds, as path templates are (:mod:`learner.judge.tally`).

Each companion divides the pattern's URLs into *classes*: a value that two or more URLs
hold, more than the share a verdict may leave uncovered (``1 - min_share``), is a class of
its own; the rarer values are pooled into one class (:data:`RARE`), covered by a sample on
any of them (one id of hundreds says as much as another, and a value seen once is an
individual, not a kind of URL). The pool weighs what its values hold together. A companion
whose values are all counts (decimal digits) and few (at most the sample budget) is
*numeric*: a page size, a limit, an offset, whose values differ in what they imply, so each
of its values is a class of its own.

A class is covered by a successful sample in it; a class of a numeric companion, by
successful samples that hold ``each`` distinct values of the parameter tested (or every
value its URLs have, if fewer): a parameter's own test asks for two, since one of them may
be the value the page shows anyway (``max=5&page=1`` says nothing of ``page``, which turns
pages only past the first); a default value's test, whose value is fixed, asks for one.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from learner.plan.sampling import PatternGroup, Value, param_values, template_of

__all__ = ["RARE", "Companion", "Sample", "companions_of"]

RARE: Value = ()
"""The class of a companion's rare values (no URL of the pattern lacks the companion)."""

Sample = tuple[Value, Value]
"""A successful sample as coverage sees it: the companion's value, the tested parameter's."""


@dataclass(frozen=True, slots=True)
class Companion:
    """How the URLs of a pattern (or of one of its templates) divide by one parameter's values.

    Attributes:
        name: the companion parameter.
        urls: distinct URLs per value, most first (ties by value).
        numeric: every value is a count and there are few of them (see the module).
        beside: per value, the values of the parameter tested that URLs hold beside it.
    """

    name: str
    urls: Mapping[Value, int]
    numeric: bool
    beside: Mapping[Value, frozenset[Value]] = field(default_factory=dict)

    @classmethod
    def of(
        cls,
        name: str,
        urls: Mapping[Value, int],
        most_each: int,
        beside: Mapping[Value, frozenset[Value]] | None = None,
    ) -> Companion:
        """The companion ``name`` whose values the ``urls`` counts hold.

        ``most_each`` is the most values a numeric companion may have (the sample budget).
        """
        ordered = dict(sorted(urls.items(), key=lambda item: (-item[1], item[0])))
        numeric = 0 < len(ordered) <= most_each and all(
            len(value) == 1 and value[0].isascii() and value[0].isdigit() for value in ordered
        )
        return cls(name, ordered, numeric, beside or {})

    @property
    def total(self) -> int:
        """The URLs counted."""
        return sum(self.urls.values())

    def classes(self, min_share: float) -> dict[Value, int]:
        """URLs per class, most first: frequent values alone, the rest pooled as :data:`RARE`.

        >>> Companion("max", {("10",): 9, ("5",): 5}, False).classes(0.9)
        {('10',): 9, ('5',): 5}
        >>> Companion("id", {(str(n),): 1 for n in range(10)}, False).classes(0.9)
        {(): 10}
        """
        out: dict[Value, int] = {}
        # A value holding no more than what a verdict may leave uncovered is rare.
        allowed = max((1 - min_share) * self.total + 1e-9, 1)
        for value, count in self.urls.items():
            key = value if self.numeric or count > allowed else RARE
            out[key] = out.get(key, 0) + count
        return dict(sorted(out.items(), key=lambda item: (-item[1], item[0])))

    def class_of(self, value: Value, min_share: float) -> Value:
        """The class ``value`` falls in."""
        return value if value in self.classes(min_share) else RARE

    def choices(self, key: Value, min_share: float) -> int:
        """How many values of the tested parameter the URLs of class ``key`` hold."""
        found: set[Value] = set()
        for value, tested in self.beside.items():
            if self.class_of(value, min_share) == key:
                found |= tested
        return len(found)

    def covered(self, samples: Iterable[Sample], min_share: float, each: int) -> dict[Value, int]:
        """The classes the successful ``samples`` cover, with how many values each holds.

        A class is covered once it has a sample; a numeric companion's, once its samples
        hold ``each`` values of the tested parameter, or every value its URLs hold, if
        fewer (see the module).

        >>> sizes = Companion("max", {("10",): 9, ("5",): 5}, True,
        ...                   {("10",): frozenset({("1",), ("2",)}), ("5",): frozenset({("1",)})})
        >>> sizes.covered([(("10",), ("1",)), (("5",), ("1",))], 0.9, each=2)
        {('5',): 1}
        """
        held: dict[Value, set[Value]] = {}
        for value, tested in samples:
            held.setdefault(self.class_of(value, min_share), set()).add(tested)
        wanted = each if self.numeric else 1
        return {
            key: len(values)
            for key, values in held.items()
            if len(values) >= min(wanted, max(self.choices(key, min_share), 1))
        }

    def share(self, covered: Iterable[Value], min_share: float) -> float:
        """The share of the URLs in the ``covered`` classes, rounded down.

        >>> Companion("max", {("10",): 9, ("5",): 5}, False).share([("10",)], 0.9)
        0.642
        """
        classes, hit = self.classes(min_share), set(covered)
        urls = sum(count for key, count in classes.items() if key in hit)
        # Rounded down: a share shown as 0.9 is never below 0.9.
        return math.floor(urls / self.total * 1000) / 1000 if self.total else 1.0

    def missing(self, covered: Iterable[Value], min_share: float) -> list[Value]:
        """The classes not ``covered`` that a verdict still needs, most URLs first.

        Enough of them to reach ``min_share``; every one of a numeric companion's.
        """
        classes = self.classes(min_share)
        hit = set(covered)
        urls = sum(count for key, count in classes.items() if key in hit)
        need: list[Value] = []
        for key, count in classes.items():
            if key in hit:
                continue
            if self.numeric or urls < min_share * self.total - 1e-9:
                need.append(key)
                urls += count
        return need


def companions_of(
    group: PatternGroup, name: str, most_each: int, template: str | None = None
) -> dict[str, Companion]:
    """The companions of ``name`` in ``group`` (on one ``template`` only), by name.

    Args:
        group: the pattern and its URLs.
        name: the parameter whose companions these are.
        most_each: the most values a numeric companion may have (the sample budget).
        template: count only the URLs of this path template.
    """
    others = [other for other in group.names if other != name]
    counts: dict[str, dict[Value, int]] = {other: {} for other in others}
    beside: dict[str, dict[Value, set[Value]]] = {other: {} for other in others}
    for static in group.statics:
        if template is not None and template_of(static) != template:
            continue
        tested = param_values(static, name)
        for other in others:
            value = param_values(static, other)
            counts[other][value] = counts[other].get(value, 0) + 1
            beside[other].setdefault(value, set()).add(tested)
    return {
        other: Companion.of(
            other,
            counts[other],
            most_each,
            {value: frozenset(found) for value, found in beside[other].items()},
        )
        for other in others
    }
