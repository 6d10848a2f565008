"""Default values without a browser: candidates, the samples the Picker draws, the joint check.

The values and URLs are those of ``defaults.test`` (``tests/site/defaults.py``); the learner
runs on that site in real Chromium in ``tests/learner/run/test_defaults.py``.
"""

from __future__ import annotations

import dataclasses
import json

from learner.config import LearnerConfig
from learner.judge.defaults import candidate_values, check_joint_defaults
from learner.plan.picks import Picker
from learner.plan.sampling import PatternGroup, group_by_pattern
from samepage import DefaultValue, MIQPSNormalizer, ParamVerdict
from tests.site.defaults import DEFAULTS_HOST, defaults_urls
from tests.site.pure_sites import changes_for


def _group(pattern: str) -> PatternGroup:
    return group_by_pattern(defaults_urls(), MIQPSNormalizer())[pattern]


def test_candidate_values_are_the_most_frequent_with_enough_contexts() -> None:
    config = LearnerConfig(default_values=2)
    assert candidate_values(_group("id&size"), "size", config) == ["M", "L"]
    assert (
        candidate_values(_group("id&size"), "size", dataclasses.replace(config, default_values=0))
        == []
    )
    # A value seen in fewer than min_samples contexts is never a candidate.
    urls = ("http://s.test/p?a=1&b=1", "http://s.test/p?a=1&b=2", "http://s.test/p?a=2&b=1")
    assert candidate_values(PatternGroup("a&b", urls, 3), "a", config) == []
    # Nor is a value rarer than MIN_SHARE of the pattern's URLs (one id of many).
    rare = tuple(f"http://s.test/p?a=1&b={n}" for n in range(3))
    rare += tuple(f"http://s.test/p?a={n}&b=0" for n in range(2, 40))
    assert candidate_values(PatternGroup("a&b", rare, len(rare)), "a", config) == []


def test_value_samples_take_a_new_path_first_then_new_contexts() -> None:
    group = _group("cat&sort")
    picker = Picker.of(group, "seed")
    picks = [url for url, _ in picker.value_samples("sort", "relevance", 4)[0]]
    assert all("sort=relevance" in u for u in picks) and len(picks) == 4
    assert {u.split("?")[0] for u in picks[:2]} == {
        f"http://{DEFAULTS_HOST}/catalog",
        f"http://{DEFAULTS_HOST}/deals",
    }
    contexts = [
        (u.split("?")[0], [p for p in u.split("?")[1].split("&") if "sort" not in p]) for u in picks
    ]
    assert len({json.dumps(c) for c in contexts}) == 4
    # The URL whose renders exist already is picked for its context (here, the first path).
    rendered = picks[-1]
    found, _ = picker.value_samples("sort", "relevance", 4, lambda u: int(u != rendered))
    cheap = [url for url, _ in found]
    assert cheap[1] == rendered  # the pick of its template (/catalog has the larger share)
    assert sorted(u.split("?")[0] for u in cheap) == sorted(u.split("?")[0] for u in picks)


async def test_a_joint_change_keeps_defaults_apart() -> None:
    # Defaults proven one at a time, then a URL carrying both that shows another page
    # without them (a context the single tests did not reach): nothing is dropped together.
    urls = tuple(f"http://s.test/l?cat={c}&page=1&sort=new" for c in "abc")
    group = PatternGroup("cat&page&sort", urls, 3)
    default = {"1": DefaultValue(3)}
    params = {
        "cat": ParamVerdict("non-neutral", 1, 1),
        "page": ParamVerdict("non-neutral", 1, 1, defaults=default),
        "sort": ParamVerdict("non-neutral", 1, 1, defaults={"new": DefaultValue(3)}),
    }
    config = LearnerConfig(joint_samples=2)
    joint, why = await check_joint_defaults(group, params, config, changes_for(set()), seed="s")
    assert joint is not None and joint.names == {"page", "sort"} and joint.tested == 2
    assert why is None
    joint, why = await check_joint_defaults(group, params, config, changes_for(set(urls)), seed="s")
    assert joint is None and why is not None and why.reason == "the page changed"
    assert why.names == ("page", "sort") and why.samples is not None and len(why.samples) == 1
    sample = why.samples[0]
    assert sample.candidate == sample.url.split("&")[0]  # ?cat=... alone
    # No observed URL carries both defaults: nothing to check, nothing dropped together.
    apart = PatternGroup("cat&page&sort", (urls[0].replace("page=1", "page=2"),), 1)
    joint, why = await check_joint_defaults(apart, params, config, changes_for(set()), seed="s")
    assert joint is None and why is not None
    assert why.reason == "no observed URL carries all these defaults"
    # One default: nothing to check.
    one = {**params, "sort": ParamVerdict("non-neutral", 1, 1)}
    same = changes_for(set())
    assert await check_joint_defaults(group, one, config, same, seed="s") == (None, None)
