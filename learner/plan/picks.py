"""Picking sample URLs: which observed URLs of a pattern each test is run on.

One :class:`Picker` per pattern and seed makes every choice: the first samples of each
parameter, more of them where the evidence asks (companion values, templates, values), the
samples of a default value and of the joint check of defaults. All of them follow the one
seeded shuffle of the pattern's URLs (:meth:`Picker.of`), so the same URLs tend to serve
every test (one render of an original serves several) and a run resumed from its
checkpoint picks the very same samples. Two steps recur and are written once: one URL per
path template, and the URL that brings the most uncovered URLs (:func:`most_gain`).

The picks of a parameter's samples are in :mod:`learner.plan.param_picks`, those of a
default's in :mod:`learner.plan.default_picks`, and the covering steps in
:mod:`learner.plan.gains`; :class:`Picker` holds the seeded order they share.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from dataclasses import dataclass

from learner.plan.default_picks import DefaultPicks, carries_all
from learner.plan.gains import Cover, most_gain
from learner.plan.param_picks import PICK_SHARE, ParamPicks
from learner.plan.sampling import PatternGroup, template_of, template_urls

__all__ = ["PICK_SHARE", "Cover", "Picker", "carries_all", "most_gain"]


@dataclass(frozen=True, slots=True)
class Picker(ParamPicks, DefaultPicks):
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
