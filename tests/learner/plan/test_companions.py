"""Verdicts across the values of the parameters beside them, without a browser.

A site here is a pure function from URL to page content (as in ``test_classify.py``), so
every verdict can be predicted: a ``page`` that turns pages only with a small page size, a
default that holds for one page size only, two ids that stand in for each other only beside
one value of a third parameter, and parameters with one or two values.
"""

from __future__ import annotations

import asyncio
from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from learner.config import LearnerConfig
from learner.judge.classify import classify_pattern
from learner.judge.defaults import learn_defaults
from learner.judge.verdicts import VerdictCause, account, cause_of
from learner.plan.companions import RARE, Companion
from learner.plan.sampling import param_values
from samepage import PatternEntry
from samepage.learned import ValueClass
from tests.plugins.properties import examples
from tests.site.pure_sites import comparer, pattern_group

CONFIG = LearnerConfig(samples=8, min_samples=3)
TICKETS = 6
"""Tickets per milestone: one page at ten a page, two at five."""


def tracker(url: str) -> str | None:
    """A query page: the tickets of a milestone, ``max`` a page (default 100), page ``page``.

    As Trac's query module: a page number is ignored while every ticket fits on one page,
    and a page past the last one is an error.
    """
    size = int((param_values(url, "max") or ("100",))[0])
    page = int((param_values(url, "page") or ("1",))[0])
    milestone = (param_values(url, "milestone") or ("all",))[0]
    if size >= TICKETS:
        page = 1
    elif page > -(-TICKETS // size):
        return f"error: page {page} is beyond the last"
    first = size * (page - 1)
    shown = range(first, min(first + size, TICKETS))
    return f"{milestone}: " + ",".join(str(n) for n in shown)


def tracker_log(small: int = 5) -> list[str]:
    """Nine queries ten a page (pages past the last, or the first) and ``small`` five a page."""
    log = [
        f"https://t.example/query?milestone=m{m}&max=10&page={p}"
        for m, p in ((1, 2), (2, 1), (3, 3), (4, 2), (5, 1), (1, 3), (2, 4), (3, 1), (4, 3))
    ]
    pages = (2, 1, 2, 2, 1, 2, 1)[:small]
    log += [f"https://t.example/query?milestone=m{m}&max=5&page={p}" for m, p in enumerate(pages)]
    return log


async def test_page_is_tested_beside_the_page_size_that_pages() -> None:
    calls: list[tuple[str, str]] = []
    group = pattern_group("max&milestone&page", tracker_log())
    entry = await classify_pattern(group, CONFIG, comparer(tracker, calls), seed="t")
    page = entry.params["page"]
    assert (page.verdict, cause_of(page)) == ("non-neutral", VerdictCause.CHANGED)
    assert any("max=5&page=2" in original for original, _ in calls)
    assert not entry.params["max"].neutral


async def test_a_page_size_never_sampled_keeps_the_parameter_naming_the_companion() -> None:
    # The pages five a page do not render: nothing says page is a no-op there.
    def broken(url: str) -> str | None:
        return None if "max=5" in url else tracker(url)

    group = pattern_group("max&milestone&page", tracker_log())
    entry = await classify_pattern(group, CONFIG, comparer(broken, []), seed="t")
    page = entry.params["page"]
    assert (page.verdict, cause_of(page)) == ("non-neutral", VerdictCause.COMPANIONS)
    assert "values of max holding 64.2% of the pattern's URLs; 90% needed" in (page.reason or "")
    found = account({"max&milestone&page": entry}, [])
    assert found.kept["companions"] == 1
    assert found.uncovered["max&milestone&page page"] == page.reason
    assert page.coverage is not None and page.coverage.values is not None
    shown = page.coverage.values["max"]
    assert shown.share == 0.642 and shown.urls == 14
    assert shown.classes == (
        ValueClass("10", 9, page.tested, True),
        ValueClass("5", 5, 0, False),
    )


async def test_a_parameter_neutral_beside_every_kept_value_stays_neutral() -> None:
    # ref changes nothing, whatever the page size: its samples cover both sizes.
    def ignores_ref(url: str) -> str | None:
        return tracker(url.replace("&ref=", "&x="))

    log = [f"{url}&ref=r{n}" for n, url in enumerate(tracker_log())]
    entry = await classify_pattern(
        pattern_group("max&milestone&page&ref", log), CONFIG, comparer(ignores_ref, []), seed="t"
    )
    ref = entry.params["ref"]
    assert ref.neutral
    assert ref.coverage is not None and ref.coverage.values is not None
    assert ref.coverage.values["max"].share == 1.0


def test_values_held_by_one_url_or_little_of_them_are_pooled() -> None:
    ids = Companion.of("id", Counter({(str(n),): 1 for n in range(5)}), most_each=3)
    assert ids.classes(0.9) == {RARE: 5} and not ids.numeric
    sizes = Companion.of("max", Counter({("10",): 9, ("5",): 5}), most_each=8)
    assert sizes.numeric and sizes.classes(0.9) == {("10",): 9, ("5",): 5}
    assert sizes.share([("10",)], 0.9) == 0.642
    assert sizes.missing([("10",)], 0.9) == [("5",)]
    tabs = Companion.of("tab", Counter({("a",): 17, ("b",): 1, ("c",): 1}), most_each=8)
    assert tabs.classes(0.9) == {("a",): 17, RARE: 2}
    assert tabs.missing([("a",)], 0.9) == [RARE]


def test_a_class_needs_two_values_of_the_parameter_where_its_urls_have_two() -> None:
    sizes = Companion.of(
        "max",
        Counter({("10",): 9, ("5",): 5}),
        most_each=8,
        beside={("10",): frozenset({("1",), ("2",), ("3",)}), ("5",): frozenset({("1",), ("2",)})},
    )
    page_one = [(("10",), ("1",)), (("10",), ("3",)), (("5",), ("1",))]
    assert sizes.covered(page_one, 0.9, each=2) == {("10",): 2}
    assert sizes.covered([*page_one, (("5",), ("2",))], 0.9, each=2) == {("10",): 2, ("5",): 2}
    assert sizes.covered(page_one, 0.9, each=1) == {("10",): 2, ("5",): 1}


async def test_a_default_must_hold_beside_every_page_size() -> None:
    # view=grid is what ten a page shows anyway; fifty a page shows a list unless asked.
    def shop(url: str) -> str | None:
        size = (param_values(url, "size") or ("10",))[0]
        view = (param_values(url, "view") or ("grid" if size == "10" else "list",))[0]
        return f"{size} as {view}"

    log = [f"https://s.example/l/{n}?size=10&view=grid" for n in range(7)]
    log += [f"https://s.example/l/{n}?size=50&view=grid" for n in range(7, 10)]
    log += [f"https://s.example/l/{n}?size=10&view=list" for n in range(10, 14)]
    group = pattern_group("size&view", log)
    compare = comparer(shop, [])
    entry = await classify_pattern(group, CONFIG, compare, seed="t")
    learned = await learn_defaults(group, entry, CONFIG, compare, seed="t")
    view = learned.params["view"]
    assert not view.neutral and "grid" not in view.defaults
    assert view.rejected_defaults["grid"].reason in (
        "the page changed without the parameter",
        "the page changed without the parameter, in the parameter's own test",
    )


async def test_ids_that_stand_in_for_each_other_beside_one_value_only_are_kept() -> None:
    # a and b each find the item alone; without both, the item is lost when mode=full.
    def site(url: str) -> str | None:
        mode = (param_values(url, "mode") or ("lite",))[0]
        found = param_values(url, "a") or param_values(url, "b")
        return f"{mode}: {'item' if found or mode == 'lite' else 'nothing'}"

    log = [f"https://s.example/i?a={n}&b={n}&mode=lite" for n in range(12)]
    log += [f"https://s.example/i?a={n}&b={n}&mode=full" for n in range(12, 20)]
    group = pattern_group("a&b&mode", log)
    entry = await classify_pattern(group, CONFIG, comparer(site, []), seed="t")
    assert not (entry.params["a"].neutral and entry.params["b"].neutral)
    outcomes = {(c.url.split("mode=")[1], c.outcome) for c in entry.joint_checks}
    assert ("full", "changed") in outcomes


async def test_a_parameter_with_two_values_is_decided_value_by_value() -> None:
    # asc=1 is the default order; asc=0 reverses it.
    def report(url: str) -> str | None:
        sort = (param_values(url, "sort") or ("id",))[0]
        return f"by {sort} {'down' if param_values(url, 'asc') == ('0',) else 'up'}"

    log = [
        f"https://t.example/report/{r}?asc={a}&sort={s}"
        for r in (1, 2)
        for a in (0, 1)
        for s in ("owner", "summary", "created", "component")
    ]
    group = pattern_group("asc&sort", log)
    compare = comparer(report, [])
    entry = await classify_pattern(group, CONFIG, compare, seed="t")
    learned = await learn_defaults(group, entry, CONFIG, compare, seed="t")
    asc = learned.params["asc"]
    assert (asc.verdict, cause_of(asc)) == ("non-neutral", VerdictCause.CHANGED)
    assert set(asc.defaults) == {"1"} and asc.defaults["1"].tested >= CONFIG.min_samples


async def test_a_parameter_whose_every_value_is_a_no_op_is_decided_for_those_values() -> None:
    def ignores_format(url: str) -> str | None:
        return url.split("?")[0] + str(param_values(url, "q"))

    log = [f"https://t.example/s?format=html&q=w{n}" for n in range(10)]
    group = pattern_group("format&q", log)
    compare = comparer(ignores_format, [])
    entry = await classify_pattern(group, CONFIG, compare, seed="t")
    assert cause_of(entry.params["format"]) == VerdictCause.FEW_VALUES
    learned = await learn_defaults(group, entry, CONFIG, compare, seed="t")
    fmt = learned.params["format"]
    assert (fmt.verdict, cause_of(fmt), set(fmt.defaults)) == (
        "non-neutral",
        VerdictCause.VALUES,
        {"html"},
    )
    assert cause_of(fmt).decided


async def test_a_value_whose_samples_fail_leaves_the_parameter_undecided() -> None:
    def flaky(url: str) -> str | None:
        if "mode=b" in url:
            return None
        return url.split("?")[0] + str(param_values(url, "q"))

    log = [f"https://t.example/s?mode={m}&q=w{n}" for n in range(6) for m in "ab"]
    group = pattern_group("mode&q", log)
    compare = comparer(flaky, [])
    entry = await classify_pattern(group, CONFIG, compare, seed="t")
    learned = await learn_defaults(group, entry, CONFIG, compare, seed="t")
    mode = learned.params["mode"]
    assert (cause_of(mode), set(mode.defaults)) == (VerdictCause.FEW_VALUES, {"a"})
    assert "undecided: b" in (mode.reason or "")


# ---------------------------------------------------------------- the property


def _classes(values: list[str], min_share: float) -> dict[str, int]:
    """The documented classes of a companion's values: frequent ones alone, the rest pooled."""
    counts = Counter(values)
    out: Counter[str] = Counter()
    for value, count in counts.items():
        alone = count >= 2 and count > (1 - min_share) * len(values) + 1e-9
        out[value if alone else "(rare)"] += count
    return dict(out)


@st.composite
def _logs(draw: st.DrawFn) -> tuple[list[str], dict[str, dict[str, bool]]]:
    """A log of one pattern ``a&b&c`` and, per parameter and value, whether it matters."""
    size = draw(st.integers(4, 30))
    choices = {n: draw(st.integers(1, 6)) for n in "abc"}
    rows = draw(
        st.lists(
            st.tuples(*(st.integers(0, choices[n] - 1) for n in "abc")),
            min_size=size,
            max_size=size,
            unique=True,
        )
    )
    # Counts (digits, each value a class of its own when kept) or words (rare ones pooled).
    spell = {n: "" if draw(st.booleans()) else "v" for n in "abc"}
    matters = {n: {f"{spell[n]}{v}": draw(st.booleans()) for v in range(choices[n])} for n in "abc"}
    log = [
        f"https://p.example/x?a={spell['a']}{a}&b={spell['b']}{b}&c={spell['c']}{c}"
        for a, b, c in rows
    ]
    return log, matters


@settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_logs(), st.sampled_from([0.5, 0.8, 0.9]))
def test_a_neutral_verdict_covers_every_kept_companion_by_share(
    found: tuple[list[str], dict[str, dict[str, bool]]], min_share: float
) -> None:
    log, matters = found
    config = LearnerConfig(samples=6, min_samples=2, min_share=min_share)

    def site(url: str) -> str | None:
        # A parameter changes the page only for its values that matter, and only beside a
        # value of the next parameter that matters too: interplay the samples must meet.
        shown = []
        for name, other in (("a", "b"), ("b", "c"), ("c", "a")):
            value, beside = param_values(url, name), param_values(url, other)
            if value and matters[name][value[0]] and (not beside or matters[other][beside[0]]):
                shown.append(f"{name}={value[0]}")
        return " ".join(shown)

    entry: PatternEntry = asyncio.run(
        classify_pattern(pattern_group("a&b&c", log), config, comparer(site, []), seed="p")
    )
    kept = {n for n, v in entry.params.items() if not v.neutral}
    for name, verdict in entry.params.items():
        if not verdict.neutral:
            continue
        succeeded = [s.url for s in verdict.samples or () if s.outcome != "failed"]
        for other in kept - {name}:
            values = [param_values(url, other)[0] for url in log]
            classes = _classes(values, min_share)
            hit = {param_values(url, other)[0] for url in succeeded}
            hit_classes = {v if v in classes else "(rare)" for v in hit}
            covered = sum(classes[c] for c in hit_classes if c in classes)
            assert covered >= min_share * len(log) - 1e-9, (name, other, hit, classes)
