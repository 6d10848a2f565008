"""The MIQPS method on its own: early exit, min_samples, threshold and the joint check.

A site here is a pure function from URL to page content, so every verdict can be predicted.
"""

from __future__ import annotations

from learner.config import LearnerConfig
from learner.judge.classify import classify_pattern
from learner.judge.verdicts import VerdictCause, cause_of
from learner.plan.sampling import param_values
from tests.site.pure_sites import comparer, pattern_group


def _product(url: str) -> str | None:
    ids = param_values(url, "id")
    return f"product {ids[0]}" if ids else "listing"


URLS = [f"https://s.example/p?id={n}&sid={n * 7}" for n in range(1, 11)]
CONFIG = LearnerConfig(samples=5, min_samples=3)


async def test_content_parameter_stops_at_the_first_change_and_neutral_uses_all_samples() -> None:
    calls: list[tuple[str, str]] = []
    entry = await classify_pattern(
        pattern_group("id&sid", URLS), CONFIG, comparer(_product, calls), seed="t"
    )
    assert entry.params["id"].verdict == "non-neutral"
    assert (entry.params["id"].tested, entry.params["id"].changed) == (1, 1)
    assert entry.params["sid"].verdict == "neutral"
    assert (entry.params["sid"].tested, entry.params["sid"].changed) == (5, 0)
    # 1 test of id, 5 of sid, then two joint checks (the URL reduced to id renders the
    # original), pairs already compared: the run's checkpoint answers those for free.
    assert len(calls) == 8 and len(set(calls)) == 6
    assert entry.joint_checks[0].outcome == "same"


async def test_samples_use_distinct_values_and_the_seed_decides_which() -> None:
    calls: list[tuple[str, str]] = []
    await classify_pattern(
        pattern_group("id&sid", URLS), CONFIG, comparer(_product, calls), seed="a"
    )
    tested_sid = {o for o, c in calls if "sid" not in c}
    assert len({param_values(u, "sid") for u in tested_sid}) == len(tested_sid) == 5
    again: list[tuple[str, str]] = []
    await classify_pattern(
        pattern_group("id&sid", URLS), CONFIG, comparer(_product, again), seed="a"
    )
    assert calls == again


async def test_too_few_values_or_successes_keep_the_parameter() -> None:
    few = URLS[:2]
    entry = await classify_pattern(
        pattern_group("id&sid", few), CONFIG, comparer(_product, []), seed="t"
    )
    sid = entry.params["sid"]
    assert (sid.verdict, cause_of(sid)) == ("non-neutral", VerdictCause.FEW_VALUES)

    def broken(url: str) -> str | None:
        return None if "sid=14" in url or "sid=21" in url or "sid=28" in url else _product(url)

    calls: list[tuple[str, str]] = []
    entry = await classify_pattern(
        pattern_group("id&sid", URLS[:5]), CONFIG, comparer(broken, calls), seed="t"
    )
    verdict = entry.params["sid"]
    # After three failures in five planned samples, three successes are out of reach: stop.
    assert (verdict.verdict, verdict.tested, verdict.failed) == ("non-neutral", 1, 3)
    assert cause_of(verdict) is VerdictCause.FAILED_SAMPLES


async def test_threshold_tolerates_rare_changes_only_when_asked() -> None:
    def flaky(url: str) -> str | None:
        # "v" changes the page for one value in ten.
        return "special" if param_values(url, "v") == ("3",) else "page"

    urls = [f"https://s.example/p?v={n}" for n in range(1, 11)]
    strict = await classify_pattern(
        pattern_group("v", urls), LearnerConfig(samples=10), comparer(flaky, []), seed="t"
    )
    assert strict.params["v"].verdict == "non-neutral"
    lenient = LearnerConfig(samples=10, threshold=0.2)
    entry = await classify_pattern(pattern_group("v", urls), lenient, comparer(flaky, []), seed="t")
    assert (entry.params["v"].verdict, entry.params["v"].changed, entry.params["v"].tested) == (
        "neutral",
        1,
        10,
    )


async def test_joint_check_keeps_one_of_two_redundant_ids() -> None:
    def item(url: str) -> str | None:
        pid, sku = param_values(url, "pid"), param_values(url, "sku")
        if pid:
            return f"item {pid[0]}"
        if sku:
            return f"item {sku[0].removeprefix('SKU-')}"
        return "choose a product"

    urls = [f"https://s.example/i?pid={n}&sku=SKU-{n}&src=s{n}" for n in range(1, 9)]
    entry = await classify_pattern(
        pattern_group("pid&sku&src", urls), CONFIG, comparer(item, []), seed="t"
    )
    verdicts = {n: v.verdict for n, v in entry.params.items()}
    assert verdicts == {"pid": "non-neutral", "sku": "neutral", "src": "neutral"}
    assert cause_of(entry.params["pid"]) is VerdictCause.JOINT_CHECK


async def test_joint_check_that_cannot_render_keeps_everything() -> None:
    calls: list[tuple[str, str]] = []

    def fragile(url: str) -> str | None:
        # Every single-parameter removal renders; the reduced URL (no parameters) never does.
        return None if "?" not in url else "page"

    urls = [f"https://s.example/p?a={n}&b={n}" for n in range(1, 6)]
    entry = await classify_pattern(
        pattern_group("a&b", urls), CONFIG, comparer(fragile, calls), seed="t"
    )
    assert {n: v.verdict for n, v in entry.params.items()} == {
        "a": "non-neutral",
        "b": "non-neutral",
    }
    assert all(cause_of(v) is VerdictCause.JOINT_UNRENDERED for v in entry.params.values())


def test_observed_urls_are_rendered_as_observed_and_wrappers_as_their_target() -> None:
    from learner.plan.sampling import group_by_pattern, keep_only, without_param
    from samepage import MIQPSNormalizer

    observed = "http://s.example/list/?sort=new&%69d=7&utm_source=x"
    wrapped = "https://www.google.com/url?q=http%3A%2F%2Fs.example%2Flist%2F%3Fid%3D8%26sort%3Dold"
    groups = group_by_pattern([observed, wrapped], MIQPSNormalizer())
    group = groups["id&sort"]
    # The observed spelling, not the key (which would drop the slash and sort the query).
    assert group.urls[0] == observed
    assert group.urls[1].startswith("http://s.example/list")
    assert without_param(observed, "id") == "http://s.example/list/?sort=new&utm_source=x"
    assert keep_only(observed, {"id"}, group.names) == "http://s.example/list/?%69d=7&utm_source=x"
