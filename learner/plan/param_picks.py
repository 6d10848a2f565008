"""The samples of each parameter: the first ones, and more where the evidence asks.

The first samples spread over the pattern's path templates and the classes of the other
parameters' values (:meth:`ParamPicks.first_picks`); more come for a missing class of
companion values (:meth:`ParamPicks.covering`) or for a template
(:meth:`ParamPicks.more_of_template`, :meth:`ParamPicks.one_per_template`).
:class:`~learner.plan.picks.Picker` makes these choices.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Iterable, Mapping, Sequence

from learner.plan.companions import RARE, Companion
from learner.plan.gains import ClassOf, Missing, most_gain
from learner.plan.sampling import PatternGroup, Value, param_values, template_of, template_urls

__all__ = ["PICK_SHARE", "ParamPicks"]

PICK_SHARE = 0.9
"""The share of the URLs the first picks cover the companions' values for (as the default
``min_share`` asks). The first picks depend on nothing but the plan's settings, so a plan
made by ``learner plan`` holds the very samples a crawl picks; a crawl whose ``min_share``
asks for more draws what is missing (:meth:`Picker.covering`)."""


def _class(classes: Mapping[Value, int], value: Value) -> Value:
    return value if value in classes else RARE


class ParamPicks:
    """The picks of a parameter's samples, in a :class:`~learner.plan.picks.Picker`'s order."""

    __slots__ = ()
    group: PatternGroup
    order: tuple[int, ...]

    def _value(self, index: int, name: str) -> Value:
        return param_values(self.group.statics[index], name)

    def _by_template(
        self, templates: Iterable[str], skip: Collection[str] = ()
    ) -> dict[str, list[int]]:
        """The URLs of each of ``templates``, in the seeded order, those in ``skip`` left out."""
        by_template: dict[str, list[int]] = {template: [] for template in templates}
        for index in self.order:
            listed = by_template.get(template_of(self.group.statics[index]))
            if listed is not None and self.group.urls[index] not in skip:
                listed.append(index)
        return by_template

    def _per_template(
        self,
        by_template: Mapping[str, Sequence[int]],
        name: str,
        values: set[Value],
    ) -> list[int]:
        """One URL of each template, in the order given.

        A template's first URL whose value of ``name`` is not in ``values`` yet, else its
        first (the same value on another kind of page is another test). ``values`` gains
        the values picked.
        """
        picks = []
        for indexes in by_template.values():
            if not indexes:
                continue
            fresh = [i for i in indexes if self._value(i, name) not in values]
            picks.append(fresh[0] if fresh else indexes[0])
            values.add(self._value(picks[-1], name))
        return picks

    def first_picks(self, names: Sequence[str], size: int) -> dict[str, list[str]]:
        """For each parameter, up to ``size`` URLs, spread over where the pattern's URLs are.

        The picks spread over the kinds of page the pattern spans and the values of the
        other parameters: first one URL per path template, templates in descending share of
        the pattern's URLs (so that few samples cover most of the pattern, see
        ``min_share``), with a value not picked yet where the template has one; then the
        URLs that bring classes of the other parameters' values not covered yet (a ``page``
        tested only beside ``max=10`` says nothing of ``max=5``), in one order shared by
        every parameter (:meth:`_ranked`: the URL whose uncovered classes hold the most URLs
        first), so that the same URLs serve several parameters; then URLs whose other
        parameters take values not yet picked, then any, each with a value of the parameter
        not picked yet. Values form classes as :mod:`learner.plan.companions` says, reckoned
        with :data:`PICK_SHARE`; a class of a numeric companion (a page size) wants two
        values of the parameter.

        >>> from learner.plan.picks import Picker
        >>> urls = [f"https://s.example/q?max={m}&page={n}" for n, m in enumerate((10,) * 7 + (5,))]
        >>> picker = Picker.of(PatternGroup("max&page", tuple(urls), 8), "s")
        >>> picks = picker.first_picks(["page"], 3)["page"]
        >>> sorted(url.split("?")[1].split("&")[0] for url in picks)
        ['max=10', 'max=10', 'max=5']
        """
        group = self.group
        by_template = self._by_template(template_urls(group))
        rows = [
            {name: param_values(static, name) for name in group.names} for static in group.statics
        ]
        companions = {
            name: Companion.of(name, Counter(row[name] for row in rows), size)
            for name in group.names
        }
        classes = {name: c.classes(PICK_SHARE) for name, c in companions.items()}
        ranked = self._ranked(rows, classes)
        return {
            name: [
                group.urls[i]
                for i in self._first(rows, name, size, ranked, by_template, classes, companions)
            ]
            for name in names
        }

    def _ranked(
        self, rows: Sequence[Mapping[str, Value]], classes: Mapping[str, Mapping[Value, int]]
    ) -> list[int]:
        """The pattern's URLs, those that bring classes of values not covered yet first.

        One at a time, the URL whose classes not covered yet (of every parameter) hold the
        most URLs, ties in the seeded order; then the rest, in that order.
        """
        covered: dict[str, set[Value]] = {name: set() for name in classes}

        def gain(index: int) -> int:
            found = 0
            for name, known in classes.items():
                key = _class(known, rows[index][name])
                if key not in covered[name]:
                    found += known[key]
            return found

        ranked: list[int] = []
        taken: set[int] = set()
        while (best := most_gain((i for i in self.order if i not in taken), gain)) is not None:
            ranked.append(best)
            taken.add(best)
            for name, known in classes.items():
                covered[name].add(_class(known, rows[best][name]))
        return ranked + [index for index in self.order if index not in taken]

    def _first(
        self,
        rows: Sequence[Mapping[str, Value]],
        name: str,
        size: int,
        ranked: list[int],
        by_template: dict[str, list[int]],
        classes: Mapping[str, Mapping[Value, int]],
        companions: Mapping[str, Companion],
    ) -> list[int]:
        """The first sample indexes of one parameter (see :meth:`first_picks`)."""
        values: set[Value] = set()
        contexts: set[tuple[Value, ...]] = set()
        picks: list[int] = []
        others = [other for other in rows[0] if other != name] if rows else []
        # The values of the parameter each class of each companion's values holds, and wants.
        choices: dict[str, dict[Value, set[Value]]] = {other: {} for other in others}
        for row in rows:
            for other in others:
                key = _class(classes[other], row[other])
                choices[other].setdefault(key, set()).add(row[name])
        held: dict[str, dict[Value, set[Value]]] = {other: {} for other in others}

        def take(index: int) -> None:
            picks.append(index)
            values.add(rows[index][name])
            contexts.add(tuple(rows[index][o] for o in others))
            for other in others:
                key = _class(classes[other], rows[index][other])
                held[other].setdefault(key, set()).add(rows[index][name])

        def brings(index: int) -> bool:
            """Whether the URL brings a class of a companion's values still wanted."""
            for other in others:
                key = _class(classes[other], rows[index][other])
                seen = held[other].get(key, set())
                wanted = min(2 if companions[other].numeric else 1, len(choices[other][key]))
                if len(seen) < wanted and rows[index][name] not in seen:
                    return True
            return False

        for index in self._per_template(by_template, name, set())[:size]:
            take(index)
        for index in ranked:
            if len(picks) == size:
                break
            if index not in picks and brings(index):
                take(index)
        for new_context in (True, False):
            for index in ranked:
                if len(picks) == size:
                    break
                row = rows[index]
                if index in picks or row[name] in values:
                    continue
                if new_context and tuple(row[o] for o in others) in contexts:
                    continue
                take(index)
        return picks

    def covering(
        self,
        name: str,
        missing: Missing,
        class_of: ClassOf,
        held: Mapping[str, Mapping[Value, Collection[Value]]],
        taken: Sequence[str],
        template: str | None = None,
    ) -> str | None:
        """One more URL that brings a ``missing`` class of companion values, if any does.

        ``held`` gives the values of ``name`` the samples of each class held so far. The URL,
        not ``taken``, whose missing classes it brings a new value of ``name`` to hold the
        most URLs, as :meth:`first_picks` picks: ties to a value of ``name`` not taken yet,
        then to the seeded order. Only URLs of ``template``, if given.
        """
        group = self.group
        order = [
            i for i in self.order if template is None or template_of(group.statics[i]) == template
        ]
        used = {group.urls.index(url) for url in taken if url in group.urls}
        rows = {i: {n: self._value(i, n) for n in [name, *missing]} for i in order}
        values = {self._value(i, name) for i in used}

        def gain(index: int) -> int:
            found, tested = 0, rows[index][name]
            for other, classes in missing.items():
                key = class_of(other, rows[index][other])
                if key in classes and tested not in held.get(other, {}).get(key, ()):
                    found += classes[key]
            return found

        unused = (i for i in order if i not in used)
        best = most_gain(unused, gain, lambda i: rows[i][name] not in values)
        return None if best is None else group.urls[best]

    def more_of_template(
        self, name: str, template: str, taken: Sequence[str], size: int
    ) -> list[str]:
        """Up to ``size`` more URLs of one template, with values of ``name`` not yet ``taken``."""
        group = self.group
        seen = {param_values(group.static_of(url), name) for url in taken}
        picks: list[str] = []
        for index in self.order:
            if len(picks) >= size:
                break
            value = self._value(index, name)
            if value in seen or template_of(group.statics[index]) != template:
                continue
            seen.add(value)
            picks.append(group.urls[index])
        return picks

    def one_per_template(
        self, name: str, templates: Sequence[str], taken: Sequence[str]
    ) -> list[str]:
        """One URL of each of ``templates``, in that order, not among ``taken``.

        As :meth:`_per_template` picks: a value of ``name`` not taken yet first.
        """
        group = self.group
        by_template = self._by_template(templates, set(taken))
        values = {param_values(group.static_of(url), name) for url in taken}
        return [group.urls[i] for i in self._per_template(by_template, name, values)]
