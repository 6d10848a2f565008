"""Picking sample URLs: which observed URLs of a pattern each test is run on.

One :class:`Picker` per pattern and seed makes every choice: the first samples of each
parameter, more of them where the evidence asks (companion values, templates, values), the
samples of a default value and of the joint check of defaults. All of them follow the one
seeded shuffle of the pattern's URLs (:meth:`Picker.of`), so the same URLs tend to serve
every test (one render of an original serves several) and a run resumed from its
checkpoint picks the very same samples. Two steps recur and are written once: one URL per
path template, and the URL that brings the most uncovered URLs (:func:`most_gain`).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence, Set
from dataclasses import dataclass
from typing import TypeVar

from learner.plan.companions import RARE, Companion
from learner.plan.sampling import (
    Context,
    PatternGroup,
    Value,
    context_of,
    context_value,
    edit_observed,
    keep_only,
    param_values,
    template_of,
    template_urls,
    with_value,
)
from samepage import path_template, query_params

__all__ = ["PICK_SHARE", "Cover", "Picker", "carries_all", "most_gain"]

PICK_SHARE = 0.9
"""The share of the URLs the first picks cover the companions' values for (as the default
``min_share`` asks). The first picks depend on nothing but the plan's settings, so a plan
made by ``learner plan`` holds the very samples a crawl picks; a crawl whose ``min_share``
asks for more draws what is missing (:meth:`Picker.covering`)."""

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


def _class(classes: Mapping[Value, int], value: Value) -> Value:
    return value if value in classes else RARE


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


@dataclass(frozen=True, slots=True)
class _Source:
    """A sample of a value, made of an observed URL, in its context."""

    url: str
    """The sample: the observed URL, or one built from it with the value put in."""
    context: Context
    observed: bool
    """Whether the URL carries the value as observed (else it is built with it)."""
    rank: tuple[int, int]
    """Where the URL comes in the seeded orders: the pattern's own URLs, then borrowed ones."""


def carries_all(static: str, defaults: Mapping[str, Set[str]]) -> bool:
    """Whether a normalised URL carries, once, a default value of every name in ``defaults``."""
    for name, values in defaults.items():
        found = param_values(static, name)
        if len(found) != 1 or found[0] not in values:
            return False
    return True


@dataclass(frozen=True, slots=True)
class Picker:
    """A pattern's URLs in their seeded order, and every rule that picks samples from them.

    Attributes:
        group: the pattern and its URLs.
        order: the indexes of the group's URLs in one seeded shuffle; it breaks every tie.
    """

    group: PatternGroup
    order: tuple[int, ...]
    borrowable: tuple[tuple[str, str], ...] = ()
    """The host's other observed URLs on the group's path templates, as ``(url, static)``
    pairs in a seeded order: where :meth:`value_samples` may borrow contexts."""

    @classmethod
    def of(cls, group: PatternGroup, seed: str, host: Iterable[PatternGroup] = ()) -> Picker:
        """The picker of ``group``, ordered by its pattern's seed.

        The seed is :func:`learner.plan.sampling.sample_seed` of the run, site and pattern.
        ``host`` are the site's pattern groups (the group's own among them or not): their
        URLs on the group's path templates may lend contexts (:meth:`value_samples`).
        """
        order = list(range(len(group.urls)))
        random.Random(seed).shuffle(order)
        templates = template_urls(group)
        borrowable = [
            (url, static)
            for other in host
            if other.pattern != group.pattern
            for url, static in zip(other.urls, other.statics, strict=True)
            if template_of(static) in templates
        ]
        borrowable.sort()
        random.Random(f"{seed}:borrowed").shuffle(borrowable)
        return cls(group, tuple(order), tuple(borrowable))

    def _borrowed(self, name: str, value: str) -> list[_Source]:
        """Samples of ``name=value`` in contexts the pattern's own URLs do not offer.

        Each is one of :attr:`borrowable` that carries every other parameter of the pattern
        and at most one ``name``, made a URL of the pattern: the parameters the pattern
        lacks dropped, the companions' values kept, ``name=value`` put in (through the one
        URL editor, :func:`learner.plan.sampling.edit_observed`). Contexts the pattern's
        own URLs hold are left out, as are repeats, and the seeded order is kept.
        """
        names = self.group.names
        others = [n for n in names if n != name]
        own = {context_of(static, name) for static in self.group.statics}
        found: list[_Source] = []
        for n, (url, static) in enumerate(self.borrowable):
            if len(param_values(static, name)) > 1:
                continue
            if not all(param_values(static, other) for other in others):
                continue
            drop = {k for k, _ in query_params(static)} - set(names)
            made = edit_observed(static, drop=drop, values={name: value})
            context = context_of(made, name)
            if context in own:
                continue
            own.add(context)
            sample = edit_observed(url, drop=drop, values={name: value})
            found.append(_Source(sample, context, False, (1, n)))
        return found

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

    def value_samples(
        self,
        name: str,
        value: str,
        size: int,
        cost: Callable[[str], int] = lambda url: 0,
        cover: Cover | None = None,
        *,
        borrow: bool = False,
    ) -> tuple[list[tuple[str, Context]], int]:
        """Up to ``size`` URLs carrying ``name=value``, each in a context not picked yet.

        A sample is an observed URL whose only ``name`` is ``value``, or, in a context where
        no URL carries the value, an observed URL whose only ``name`` is another value, with
        the value replaced (:func:`with_value`): a value the log rarely spells is tested in
        the pattern's real contexts. One path template after another comes first, the
        template with the largest share of the pattern's URLs first (the normalizer applies
        a default to every URL of the pattern), then, with ``cover``, URLs that bring the
        kept companions' missing values (up to ``cover.most`` samples: a value's test ends
        once it is proven), then new paths, then new values of the other parameters. Within
        each, the URLs whose sample would cost the fewest new renders (``cost``) come first,
        then observed URLs before built ones, then the seeded order. The rules on contexts
        do not depend on ``cost``, which only chooses among URLs that bring an equally new
        context: sharing renders never narrows the evidence. With ``borrow``, the host's
        other URLs on the pattern's templates lend the contexts the pattern lacks
        (:meth:`_borrowed`), after every one of the pattern's own, by the same rules.

        Returns the samples with their contexts, and how many come first, one per template.

        >>> urls = ("https://s.example/a/1?lang=fr", "https://s.example/a/2?lang=de")
        >>> picker = Picker.of(PatternGroup("lang", urls, 2), "seed")
        >>> sorted(url for url, _ in picker.value_samples("lang", "en", 2)[0])
        ['https://s.example/a/1?lang=en', 'https://s.example/a/2?lang=en']
        >>> host = [PatternGroup("q", ("https://s.example/a/3?q=x",), 1)]
        >>> picker = Picker.of(PatternGroup("lang", urls, 2), "seed", host)
        >>> picker.value_samples("lang", "en", 3, borrow=True)[0][2]
        ('https://s.example/a/3?lang=en', ('/a/3', ()))
        """
        group = self.group
        rank = {index: n for n, index in enumerate(self.order)}
        found: list[_Source] = []  # every URL with one ``name`` can carry ``name=value``
        for index, static in enumerate(group.statics):
            values = param_values(static, name)
            if len(values) == 1:
                url, observed = group.urls[index], values[0] == value
                sample = url if observed else with_value(url, name, value)
                context = context_of(static, name)
                found.append(_Source(sample, context, observed, (0, rank[index])))
        if borrow:
            found += self._borrowed(name, value)
        found.sort(key=lambda s: (s.rank[0], cost(s.url), not s.observed, s.rank))
        picks: list[_Source] = []
        for template in template_urls(group):  # one per path template, the largest share first
            for source in found:
                if len(picks) < size and path_template(source.context[0]) == template:
                    picks.append(source)
                    break
        templates_picked = len(picks)
        if cover is not None:

            def left() -> list[_Source]:
                chosen = {s.context for s in picks}
                return [s for s in found if s.context not in chosen]

            cover.extend(picks, left, lambda s: s.context)
        contexts = {s.context for s in picks}
        paths = {context[0] for context in contexts}
        for new_path_only in (True, False):  # then new paths, then new companion values
            for source in found:
                if len(picks) == size:
                    break
                if source.context in contexts or (new_path_only and source.context[0] in paths):
                    continue
                picks.append(source)
                contexts.add(source.context)
                paths.add(source.context[0])
        return [(s.url, s.context) for s in picks], templates_picked

    def joint_samples(
        self,
        defaults: Mapping[str, Set[str]],
        size: int,
        cost: Callable[[str], int] = lambda url: 0,
        cover: Cover | None = None,
    ) -> list[str]:
        """Up to ``size`` URLs carrying a default of every name in ``defaults``, one per context.

        A context is the path and the values of the parameters without defaults; the URLs
        whose sample costs the fewest new renders (``cost``) come first, then the seeded
        order. With ``cover`` (reckoned beside the first name in ``defaults``), more URLs
        that bring the kept companions' missing values follow, the most URLs first.

        >>> urls = [f"https://s.example/l?page=1&q={q}&sort=new" for q in "ab"]
        >>> urls.append("https://s.example/l?page=2&q=c&sort=new")
        >>> picker = Picker.of(PatternGroup("page&q&sort", tuple(urls), 3), "seed")
        >>> picker.joint_samples({"page": {"1"}, "sort": {"new"}}, 5, lambda u: "q=b" in u)
        ['https://s.example/l?page=1&q=a&sort=new', 'https://s.example/l?page=1&q=b&sort=new']
        """
        group = self.group
        found = [i for i in self.order if carries_all(group.statics[i], defaults)]
        found.sort(key=lambda i: cost(group.urls[i]))
        picks: list[int] = []
        contexts: set[str] = set()
        for index in found:
            context = keep_only(group.statics[index], set(group.names) - set(defaults), group.names)
            if len(picks) < size and context not in contexts:
                contexts.add(context)
                picks.append(index)
        if cover is not None:
            pivot = min(defaults)
            cover.extend(
                picks,
                lambda: [i for i in found if i not in picks],
                lambda i: context_of(group.statics[i], pivot),
            )
        return [group.urls[i] for i in picks]
