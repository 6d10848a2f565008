"""Picking sample URLs: which observed URLs of a pattern each parameter is tested on.

Every pick follows one seeded shuffle of the pattern's URLs (:func:`seeded_order`), so the
same URLs tend to serve every parameter (one render of an original serves several tests)
and a run resumed from its checkpoint picks the very same samples.
"""

from __future__ import annotations

from collections.abc import Sequence

from learner.plan.sampling import (
    PatternGroup,
    context_of,
    param_values,
    seeded_order,
    template_of,
    template_urls,
)

__all__ = ["choose_samples", "more_samples", "one_per_template"]


def choose_samples(
    group: PatternGroup, names: Sequence[str], size: int, seed: str
) -> dict[str, list[str]]:
    """For each parameter, up to ``size`` URLs with pairwise distinct values of it.

    The picks spread over the kinds of page the pattern spans: first one URL per path
    template, templates in descending share of the pattern's URLs (so that few samples cover
    most of the pattern, see ``min_share``), with a value not picked yet where the template
    has one (else with a value picked already, the one exception to distinct values); then
    URLs whose other parameters take values not yet picked, then any. One seeded shuffle of
    the group's URLs serves every parameter, so the same URLs tend to be chosen for all of
    them and one render of an original serves several tests.
    """
    order = seeded_order(group, seed)
    by_template: dict[str, list[int]] = {template: [] for template in template_urls(group)}
    for index in order:
        by_template[template_of(group.statics[index])].append(index)
    return {
        name: [group.urls[i] for i in _picks(group, name, size, order, by_template)]
        for name in names
    }


def _picks(
    group: PatternGroup,
    name: str,
    size: int,
    order: list[int],
    by_template: dict[str, list[int]],
) -> list[int]:
    """The sample indexes of one parameter (see :func:`choose_samples`)."""
    values: set[tuple[str, ...]] = set()
    companions: set[tuple[tuple[str, ...], ...]] = set()
    picks: list[int] = []
    firsts = []
    for indexes in by_template.values():
        fresh = [i for i in indexes if param_values(group.statics[i], name) not in values]
        # A template whose URLs carry only values picked already still gets one URL: the
        # same value on another kind of page is another test.
        firsts.append(fresh[0] if fresh else indexes[0])
        values.add(param_values(group.statics[firsts[-1]], name))
    for rule, indexes in (("new template", firsts), ("new companions", order), ("any", order)):
        for index in indexes:
            if len(picks) == size:
                break
            static = group.statics[index]
            value, others = param_values(static, name), context_of(static, name)[1]
            if rule != "new template" and (index in picks or value in values):
                continue
            if rule == "new companions" and others in companions:
                continue
            values.add(value)
            companions.add(others)
            picks.append(index)
    return picks


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
