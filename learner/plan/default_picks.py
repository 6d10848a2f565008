"""The samples of a default value and of the joint check of defaults.

A default's samples are the pattern's URLs carrying the value, or with it put in, each in a
context not picked yet (:meth:`DefaultPicks.value_samples`), borrowing contexts from the
host's other URLs where asked; the joint check's are the URLs carrying a default of every
name (:meth:`DefaultPicks.joint_samples`). :class:`~learner.plan.picks.Picker` makes these
choices.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Set
from dataclasses import dataclass

from learner.plan.gains import Cover
from learner.plan.sampling import (
    Context,
    PatternGroup,
    context_of,
    edit_observed,
    keep_only,
    param_values,
    template_urls,
    with_value,
)
from samepage import path_template, query_params

__all__ = ["DefaultPicks", "carries_all"]


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


class DefaultPicks:
    """The picks of a default's samples, in a :class:`~learner.plan.picks.Picker`'s order."""

    __slots__ = ()
    group: PatternGroup
    order: tuple[int, ...]
    borrowable: tuple[tuple[str, str], ...]

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

        >>> from learner.plan.picks import Picker
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

        >>> from learner.plan.picks import Picker
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
