"""The joint check of a pattern's defaults, recorded as :class:`~samepage.JointDefaults`.

Whether a URL carrying a default of every parameter that has one is the page without
them all.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Set
from dataclasses import replace

from learner.config import LearnerConfig
from learner.judge.classify import Compare
from learner.judge.default_trial import _cover
from learner.judge.rate import ANY_CHANGE
from learner.judge.tally import Spread, Tally, companion_gap, coverage
from learner.plan.picks import Picker, carries_all
from learner.plan.sampling import PatternGroup, context_of, keep_only
from samepage import JointDefaults, ParamVerdict
from samepage.learned import RejectedJointDefaults

__all__ = ["check_joint_defaults"]


def _carrying_all(group: PatternGroup, defaults: Mapping[str, Set[str]]) -> PatternGroup:
    """The group's URLs that carry a default of every name in ``defaults``."""
    picked = [i for i, static in enumerate(group.statics) if carries_all(static, defaults)]
    return replace(
        group,
        urls=tuple(group.urls[i] for i in picked),
        statics=tuple(group.statics[i] for i in picked),
    )


async def check_joint_defaults(
    group: PatternGroup,
    params: Mapping[str, ParamVerdict],
    config: LearnerConfig,
    compare: Compare,
    *,
    seed: str,
    new_renders: Callable[[str, str], int] = lambda url, candidate: 0,
) -> tuple[JointDefaults | None, RejectedJointDefaults | None]:
    """The joint defaults of a pattern, or ``None`` with why not (``None``: nothing to check).

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
        return None, None
    kept = {name for name, v in params.items() if not v.neutral} - set(defaults)

    def reduced(url: str) -> str:
        return keep_only(url, kept, group.names)

    names = sorted(defaults)
    # The defaults leave a URL together only where it carries all of them: the companions'
    # values are counted over those URLs.
    spread = Spread.of(
        _carrying_all(group, defaults),
        names[0],
        min_share=config.min_share,
        most_each=config.samples,
    )
    urls = Picker.of(group, seed).joint_samples(
        defaults,
        config.joint_samples,
        lambda u: new_renders(u, reduced(u)),
        _cover(spread, kept, config.samples),
    )
    if not urls:
        return None, RejectedJointDefaults(
            tuple(names), "no observed URL carries all these defaults"
        )
    tally = Tally()
    for url in urls:
        outcome = await compare(url, reduced(url))
        tally.add(outcome, context_of(group.static_of(url), names[0]))
        if outcome.outcome != "same":
            break
    found = coverage(tally, spread)
    changed = ANY_CHANGE.changed(tally.changed, tested=tally.tested)
    if changed or tally.failed:
        why = "the page changed" if changed else "a sample could not be decided"
        return None, RejectedJointDefaults(tuple(names), why, tuple(tally.samples))
    if gap := companion_gap(found, kept, config.min_share):
        return None, RejectedJointDefaults(tuple(names), gap, tuple(tally.samples))
    return JointDefaults(frozenset(names), tally.tested, samples=tuple(tally.samples)), None
