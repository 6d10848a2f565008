"""The joint check of default values: whether several may leave one URL together.

Each default is proven alone (:mod:`learner.judge.defaults`), so ``page=1`` and ``sort=relevance``
are each the page without them. Whether ``?q=oak&page=1&sort=relevance`` is the page
``?q=oak`` is a further claim, checked here like the joint check of neutral parameters: on
up to ``joint_samples`` observed URLs that carry a default of every parameter that has one,
each in its own context, the URL is compared with what the normalizer would make of it. Only
when every sample shows the same page does the pattern record :class:`JointDefaults`; the
normalizer otherwise drops at most one default from a URL.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Set
from typing import Any

from learner.config import LearnerConfig
from learner.judge.classify import Compare
from learner.judge.tally import Tally
from learner.plan.sampling import PatternGroup, keep_only, param_values
from samepage import JointDefaults, ParamVerdict

__all__ = ["check_joint_defaults", "joint_samples"]


def _carries_all(static: str, defaults: Mapping[str, Set[str]]) -> bool:
    for name, values in defaults.items():
        found = param_values(static, name)
        if len(found) != 1 or found[0] not in values:
            return False
    return True


def joint_samples(
    group: PatternGroup,
    defaults: Mapping[str, Set[str]],
    size: int,
    seed: str,
    cost: Callable[[str], int] = lambda url: 0,
) -> list[str]:
    """Up to ``size`` URLs carrying a default of every name in ``defaults``, one per context.

    A context is the path and the values of the parameters without defaults; the URLs whose
    sample costs the fewest new renders (``cost``) come first, then the pattern's seeded order.

    >>> urls = [f"https://s.example/l?page=1&q={q}&sort=new" for q in "ab"]
    >>> urls.append("https://s.example/l?page=2&q=c&sort=new")
    >>> group = PatternGroup("page&q&sort", tuple(urls), 3)
    >>> joint_samples(group, {"page": {"1"}, "sort": {"new"}}, 5, "seed", lambda u: "q=b" in u)
    ['https://s.example/l?page=1&q=a&sort=new', 'https://s.example/l?page=1&q=b&sort=new']
    """
    order = list(range(len(group.urls)))
    random.Random(seed).shuffle(order)
    found = [i for i in order if _carries_all(group.statics[i], defaults)]
    found.sort(key=lambda i: cost(group.urls[i]))
    picks: list[str] = []
    contexts: set[str] = set()
    for index in found:
        context = keep_only(group.statics[index], set(group.names) - set(defaults), group.names)
        if len(picks) < size and context not in contexts:
            contexts.add(context)
            picks.append(group.urls[index])
    return picks


async def check_joint_defaults(
    group: PatternGroup,
    params: Mapping[str, ParamVerdict],
    config: LearnerConfig,
    compare: Compare,
    *,
    seed: str,
    new_renders: Callable[[str, str], int] = lambda url, candidate: 0,
) -> tuple[JointDefaults | None, dict[str, Any]]:
    """The joint defaults of a pattern, or ``None`` with why not (empty: nothing to check).

    Args:
        group: the pattern and its URLs.
        params: the pattern's verdicts, with the defaults learned one at a time.
        config: ``joint_samples`` comes from here.
        compare: renders and compares two URLs, as for every other test.
        seed: the pattern's seed.
        new_renders: how many of a sample's two URLs are not rendered yet (to share renders).
    """
    defaults = {name: set(v.defaults) for name, v in params.items() if v.defaults}
    if len(defaults) < 2:
        return None, {}
    kept = {name for name, v in params.items() if not v.neutral} - set(defaults)

    def reduced(url: str) -> str:
        return keep_only(url, kept, group.names)

    urls = joint_samples(
        group, defaults, config.joint_samples, seed, lambda u: new_renders(u, reduced(u))
    )
    names = sorted(defaults)
    if not urls:
        return None, {"names": names, "reason": "no observed URL carries all these defaults"}
    tally = Tally()
    for url in urls:
        outcome = await compare(url, reduced(url))
        tally.add(outcome, ("", ()))
        if outcome.outcome != "same":
            break
    if tally.changed or tally.failed:
        why = "the page changed" if tally.changed else "a sample could not be decided"
        return None, {"names": names, "samples": tally.samples, "reason": why}
    return JointDefaults(frozenset(names), tally.tested, extra={"samples": tally.samples}), {}
