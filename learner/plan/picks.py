"""Picking sample URLs: which observed URLs of a pattern each parameter is tested on.

Every pick follows one seeded shuffle of the pattern's URLs (:func:`seeded_order`), so the
same URLs tend to serve every parameter (one render of an original serves several tests)
and a run resumed from its checkpoint picks the very same samples.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Collection, Mapping, Sequence

from learner.plan.companions import RARE, Companion
from learner.plan.sampling import (
    PatternGroup,
    Value,
    param_values,
    seeded_order,
    template_of,
    template_urls,
)

__all__ = ["PICK_SHARE", "choose_samples", "cover_companions", "more_samples", "one_per_template"]

PICK_SHARE = 0.9
"""The share of the URLs the first picks cover the companions' values for (as the default
``min_share`` asks). The first picks depend on nothing but the plan's settings, so a plan
made by ``learner plan`` holds the very samples a crawl picks; a crawl whose ``min_share``
asks for more draws what is missing (:func:`cover_companions`)."""


def choose_samples(
    group: PatternGroup, names: Sequence[str], size: int, seed: str
) -> dict[str, list[str]]:
    """For each parameter, up to ``size`` URLs, spread over where the pattern's URLs are.

    The picks spread over the kinds of page the pattern spans and the values of the other
    parameters: first one URL per path template, templates in descending share of the
    pattern's URLs (so that few samples cover most of the pattern, see ``min_share``), with
    a value not picked yet where the template has one; then the URLs that bring classes of
    the other parameters' values not covered yet (a ``page`` tested only beside ``max=10``
    says nothing of ``max=5``), in one order shared by every parameter (:func:`_ranked`:
    the URL whose uncovered classes hold the most URLs first), so that the same URLs serve
    several parameters; then URLs whose other parameters take values not yet picked, then
    any, each with a value of the parameter not picked yet. Values form classes as
    :mod:`learner.plan.companions` says, reckoned with :data:`PICK_SHARE`; a class of a
    numeric companion (a page size) wants two values of the parameter. One seeded shuffle
    of the group's URLs breaks every tie, so a resumed run picks the same.

    >>> urls = [f"https://s.example/q?max={m}&page={n}" for n, m in enumerate((10,) * 7 + (5,))]
    >>> picks = choose_samples(PatternGroup("max&page", tuple(urls), 8), ["page"], 3, "s")
    >>> sorted(url.split("?")[1].split("&")[0] for url in picks["page"])
    ['max=10', 'max=10', 'max=5']
    """
    order = seeded_order(group, seed)
    by_template: dict[str, list[int]] = {template: [] for template in template_urls(group)}
    for index in order:
        by_template[template_of(group.statics[index])].append(index)
    rows = [_values(static, group.names) for static in group.statics]
    companions = {
        name: Companion.of(name, Counter(row[name] for row in rows), size) for name in group.names
    }
    classes = {name: c.classes(PICK_SHARE) for name, c in companions.items()}
    ranked = _ranked(rows, classes, order)
    return {
        name: [
            group.urls[i]
            for i in _picks(rows, name, size, ranked, by_template, classes, companions)
        ]
        for name in names
    }


def _values(static: str, names: Sequence[str]) -> dict[str, Value]:
    """The values of each of ``names`` in a normalised URL."""
    return {name: param_values(static, name) for name in names}


def _class(classes: Mapping[Value, int], value: Value) -> Value:
    return value if value in classes else RARE


def _ranked(
    rows: Sequence[Mapping[str, Value]],
    classes: Mapping[str, Mapping[Value, int]],
    order: Sequence[int],
) -> list[int]:
    """The pattern's URLs, those that bring classes of values not covered yet first.

    One at a time, the URL whose classes not covered yet (of every parameter) hold the
    most URLs, ties in ``order``; then the rest, in ``order``.
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
    while True:
        best = _best(order, taken, gain, lambda index: True)
        if best is None:
            break
        ranked.append(best)
        taken.add(best)
        for name, known in classes.items():
            covered[name].add(_class(known, rows[best][name]))
    return ranked + [index for index in order if index not in taken]


def _picks(
    rows: Sequence[Mapping[str, Value]],
    name: str,
    size: int,
    ranked: list[int],
    by_template: dict[str, list[int]],
    classes: Mapping[str, Mapping[Value, int]],
    companions: Mapping[str, Companion],
) -> list[int]:
    """The sample indexes of one parameter (see :func:`choose_samples`)."""
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

    firsts = []
    for indexes in by_template.values():
        fresh = [i for i in indexes if rows[i][name] not in values]
        # A template whose URLs carry only values picked already still gets one URL: the
        # same value on another kind of page is another test.
        firsts.append(fresh[0] if fresh else indexes[0])
        values.add(rows[firsts[-1]][name])
    values.clear()
    for index in firsts[:size]:
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


def _best(
    order: Sequence[int],
    taken: Collection[int],
    gain: Callable[[int], int],
    fresh: Callable[[int], bool],
) -> int | None:
    """The URL of ``order`` not ``taken`` with the largest positive ``gain``, if any.

    Ties go to a ``fresh`` URL (a value of the parameter not picked yet), then to the first
    in ``order``.
    """
    best, best_key = None, (0, False)
    for index in order:
        if index in taken:
            continue
        key = (gain(index), fresh(index))
        if key[0] > 0 and key > best_key:
            best, best_key = index, key
    return best


def cover_companions(
    group: PatternGroup,
    name: str,
    missing: Mapping[str, Mapping[Value, int]],
    class_of: Callable[[str, Value], Value],
    held: Mapping[str, Mapping[Value, Collection[Value]]],
    taken: Sequence[str],
    seed: str,
    template: str | None = None,
) -> str | None:
    """One more URL that brings a ``missing`` class of companion values, if any does.

    ``missing`` holds, per companion, the classes (:meth:`Companion.classes
    <learner.plan.companions.Companion.classes>`) a verdict still needs with the URLs each
    holds; ``class_of`` maps a companion's value to its class, and ``held`` gives the values
    of ``name`` the samples of each class held so far. The URL, not ``taken``, whose missing
    classes it brings a new value of ``name`` to hold the most URLs, as
    :func:`choose_samples` picks: ties to a value of ``name`` not taken yet, then to the
    seeded order. Only URLs of ``template``, if given.
    """
    order = [
        i
        for i in seeded_order(group, seed)
        if template is None or template_of(group.statics[i]) == template
    ]
    used = {group.urls.index(url) for url in taken if url in group.urls}
    rows = {i: _values(group.statics[i], [name, *missing]) for i in order}
    values = {param_values(group.statics[i], name) for i in used}

    def gain(index: int) -> int:
        found, tested = 0, rows[index][name]
        for other, classes in missing.items():
            key = class_of(other, rows[index][other])
            if key in classes and tested not in held.get(other, {}).get(key, ()):
                found += classes[key]
        return found

    best = _best(order, used, gain, lambda i: rows[i][name] not in values)
    return None if best is None else group.urls[best]


def more_samples(
    group: PatternGroup, name: str, template: str, taken: Sequence[str], size: int, seed: str
) -> list[str]:
    """Up to ``size`` more URLs of one template, with values of ``name`` not yet ``taken``.

    In the order of the seeded shuffle :func:`choose_samples` uses, so a resumed run draws
    the very same URLs.
    """
    seen = {param_values(group.static_of(url), name) for url in taken}
    picks: list[str] = []
    for index in seeded_order(group, seed):
        if len(picks) >= size:
            break
        static = group.statics[index]
        value = param_values(static, name)
        if value in seen or template_of(static) != template:
            continue
        seen.add(value)
        picks.append(group.urls[index])
    return picks


def one_per_template(
    group: PatternGroup, name: str, templates: Sequence[str], taken: Sequence[str], seed: str
) -> list[str]:
    """One URL of each of ``templates``, in that order, not among ``taken``.

    As in :func:`choose_samples`: the first URL of the template in the seeded shuffle whose
    value of ``name`` is not taken yet, else its first URL not taken.
    """
    values = {param_values(group.static_of(url), name) for url in taken}
    used = set(taken)
    by_template: dict[str, list[int]] = {template: [] for template in templates}
    for index in seeded_order(group, seed):
        listed = by_template.get(template_of(group.statics[index]))
        if listed is not None and group.urls[index] not in used:
            listed.append(index)
    picks: list[str] = []
    for indexes in by_template.values():
        if not indexes:
            continue
        fresh = [i for i in indexes if param_values(group.statics[i], name) not in values]
        index = fresh[0] if fresh else indexes[0]
        values.add(param_values(group.statics[index], name))
        picks.append(group.urls[index])
    return picks
