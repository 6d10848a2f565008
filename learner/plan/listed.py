"""The listed names a pattern's observed URLs carry, and the URLs they are spot-checked on.

A built-in list (the blocklist, or an ambiguous name with a tracking-like value) drops some
names before the pattern key is computed, so the method never studies them. A site may use
such a name as content (a dashboard filter, a table page answering ``?utm_source=x``): the
learner spot-checks each listed name the observed URLs of a studied pattern carry, at a
bounded cost of one sample per name and path template on a host, the observed URL against
the same URL without the name (:func:`~learner.plan.sampling.without_param`).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from learner.plan.sampling import PatternGroup, template_of
from samepage import InvalidURL, MIQPSNormalizer

__all__ = ["LISTED_LAYERS", "ListedSample", "listed_samples"]

LISTED_LAYERS = frozenset({"blocklist", "ambiguous"})
"""The layers of ``explain`` whose drops are a list's, not evidence's."""


@dataclass(frozen=True, slots=True)
class ListedSample:
    """One spot-check of a listed name: ``url`` as observed, rendered with and without it."""

    name: str
    """The name as samepage reads it (:func:`samepage.query_params`)."""
    template: str
    url: str
    rule: str
    """The id of the static rule that drops it there."""


def listed_samples(
    group: PatternGroup, normalizer: MIQPSNormalizer, done: Iterable[tuple[str, str]] = ()
) -> list[ListedSample]:
    """One sample per listed name and path template of ``group`` not in ``done``.

    ``done`` holds the ``(name, template)`` pairs the host's earlier patterns already
    sampled. A sample's URL is the first of the group's URLs (in the group's order, so the
    same in every run) that carries the name on that template and that the normalizer
    drops it from by a list (``explain`` names the layer).
    """
    seen = set(done)
    samples = []
    for url, static in zip(group.urls, group.statics, strict=True):
        template = template_of(static)
        try:
            params = normalizer.explain(url).params
        except InvalidURL:
            continue
        for param in params:
            if param.kept or param.layer not in LISTED_LAYERS or (param.name, template) in seen:
                continue
            seen.add((param.name, template))
            samples.append(ListedSample(param.name, template, url, param.rule))
    return samples
