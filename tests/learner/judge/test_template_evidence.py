"""Evidence per path template, without a browser: the share rule, scopes, shared evidence.

A site here is a pure function from URL to page content (as in ``test_classify.py``), so
every verdict can be predicted.
"""

from __future__ import annotations

from typing import Any

from learner.config import LearnerConfig
from learner.judge.classify import classify_pattern
from learner.judge.rate import ANY_CHANGE
from learner.judge.shared import shared_evidence
from learner.judge.tally import Spread, Tally, coverage, covered_share, share_gap
from learner.judge.verdicts import account, cause_of
from learner.model import PairOutcome
from learner.plan.picks import Picker
from learner.plan.sampling import param_values, template_of
from learner.run.diff import SHARED, diff_learned, gate
from samepage import (
    DefaultValue,
    DomainEntry,
    LearnedSet,
    MIQPSNormalizer,
    ParamVerdict,
    PatternEntry,
    TemplateScope,
)
from samepage.learned import Coverage, Sample, SampleOutcome, TemplateCounts
from tests.site.pure_sites import Site, comparer, pattern_group

TABLE = "/data/products"
ROW = "/data/products/{id}"
SORTS = [f"{field}{n}" for n in range(40) for field in ("name", "price")]


def _browser(table_fails: bool) -> Site:
    """A data browser: the table sorts by ``sort`` (or answers 500 with it), rows ignore it."""

    def site(url: str) -> str | None:
        path = url.split("?")[0].removeprefix("https://d.example")
        sort = param_values(url, "sort")
        if path == TABLE:
            if sort and table_fails:
                return None
            return f"table sorted by {sort}"
        return f"row {path}"

    return site


def _urls(tables: int, rows: int) -> list[str]:
    table = [f"https://d.example{TABLE}?sort={SORTS[n]}" for n in range(tables)]
    row = [f"https://d.example/data/products/{n}?sort={SORTS[-n - 1]}" for n in range(rows)]
    return table + row


# ---------------------------------------------------------------- the share of URLs


def test_the_share_counts_urls_per_template_not_paths() -> None:
    group = pattern_group("sort", _urls(49, 4))
    spread = Spread.of(group, "sort", min_share=0.9, most_each=8)
    assert dict(spread.templates) == {TABLE: 49, ROW: 4}
    assert covered_share(spread.templates, [ROW]) == 0.075
    assert covered_share(spread.templates, [ROW, TABLE]) == 1.0
    tally = Tally()
    for n, url in enumerate(group.urls[-4:]):
        tally.add(PairOutcome(url, url, "same"), (f"/data/products/{n}", ()))
    found = coverage(tally, spread)
    # Four row paths: the old rule (two distinct paths) is met, the share is not.
    assert found.paths_tested == 4
    assert found.share == 0.075 and found.templates_seen == 2
    assert found.templates == {ROW: TemplateCounts(urls=4, tested=4, changed=0, failed=0)}
    assert share_gap(found, 0.9).startswith("successful samples were on templates holding 7.5%")
    assert share_gap(Coverage(share=0.9), 0.9) == ""


def test_samples_take_one_url_per_template_by_share_first_and_are_seeded() -> None:
    urls = [*_urls(30, 3), "https://d.example/about?sort=x"]
    group = pattern_group("sort", urls)
    picks = Picker.of(group, "seed").first_picks(["sort"], 3)["sort"]
    templates = [template_of(url) for url in picks]
    assert templates == [TABLE, ROW, "/about"]
    assert Picker.of(group, "seed").first_picks(["sort"], 3) == {"sort": picks}
    values = [
        param_values(url, "sort") for url in Picker.of(group, "s").first_picks(["sort"], 8)["sort"]
    ]
    assert len(set(values)) == 8


def test_a_template_whose_values_are_all_picked_still_gets_a_sample() -> None:
    # Three templates, two values: distinct values alone would leave a template, and its
    # share of the URLs, without a sample.
    urls = [
        "https://d.example/a/1?ttl=60",
        "https://d.example/a/2?ttl=60",
        "https://d.example/a?ttl=60",
        "https://d.example/a?ttl=3600",
        "https://d.example/b?ttl=60",
        "https://d.example/b?ttl=3600",
    ]
    picks = Picker.of(pattern_group("ttl", urls), "seed").first_picks(["ttl"], 8)["ttl"]
    assert sorted(template_of(url) for url in picks) == ["/a", "/a/{id}", "/b"]


# ---------------------------------------------------------------- verdicts per template


async def test_failed_samples_on_most_urls_keep_a_parameter_that_looks_neutral_elsewhere() -> None:
    # 49 table URLs fail, 4 row URLs are the same without sort: coverage by paths was met
    # (four row paths), the share is 7.5%.
    config = LearnerConfig(samples=8, min_samples=3, give_up_after=8)
    urls = _urls(49, 4)
    entry = await classify_pattern(
        pattern_group("sort", urls), config, comparer(_browser(True), []), seed="t"
    )
    verdict = entry.params["sort"]
    assert verdict.verdict == "non-neutral"
    assert cause_of(verdict).value in ("coverage", "failed-samples")
    assert verdict.coverage is not None and (verdict.coverage.share or 0) <= 0.075
    scope = entry.templates.get(ROW)
    assert scope is None or scope.params["sort"].neutral


async def test_a_template_with_evidence_enough_gets_a_scope_when_the_pattern_lacks_the_share() -> (
    None
):
    # 40 table URLs (two sort values, forty pages) all fail; the four rows are the same
    # without sort: kept for want of share, neutral on the rows.
    config = LearnerConfig(samples=8, min_samples=3, give_up_after=8)
    table = [f"https://d.example{TABLE}?page={n}&sort={'ab'[n % 2]}" for n in range(40)]
    rows = [f"https://d.example/data/products/{n}?page=1&sort=r{n}" for n in range(4)]
    entry = await classify_pattern(
        pattern_group("page&sort", table + rows), config, comparer(_browser(True), []), seed="t"
    )
    sort = entry.params["sort"]
    assert (sort.verdict, cause_of(sort).value) == ("non-neutral", "coverage")
    assert sort.coverage is not None and sort.coverage.share == 0.09
    assert "holding 9.0% of the pattern's URLs; 90% needed" in (sort.reason or "")
    scoped = entry.templates[ROW].params["sort"]
    assert (scoped.verdict, scoped.tested, cause_of(scoped).value) == ("neutral", 4, "no-change")
    assert entry.templates[ROW].urls == 4
    # Decided by the scope's evidence.
    found = account({"page&sort": entry}, [])
    assert found.studied == 2 and found.decided == 1


async def test_templates_that_disagree_get_scopes_and_the_neutral_one_more_samples() -> None:
    config = LearnerConfig(samples=4, min_samples=3)
    calls: list[tuple[str, str]] = []
    urls = _urls(10, 6)
    entry = await classify_pattern(
        pattern_group("sort", urls), config, comparer(_browser(False), calls), seed="t"
    )
    verdict = entry.params["sort"]
    assert (verdict.verdict, cause_of(verdict).value) == ("non-neutral", "changed")
    assert set(entry.templates) == {TABLE, ROW}
    row, table = entry.templates[ROW], entry.templates[TABLE]
    assert (row.urls, table.urls) == (6, 10)
    assert row.params["sort"].neutral and row.params["sort"].tested == 3
    assert cause_of(row.params["sort"]).value == "no-change"
    assert not table.params["sort"].neutral and table.params["sort"].changed == 1
    # One table sample settles the table; the rows take exactly min_samples.
    assert sum(template_of(o) == TABLE for o, _ in calls) == 1
    assert sum(template_of(o) == ROW for o, _ in calls) == 3
    assert verdict.coverage is not None and verdict.coverage.templates is not None
    assert verdict.coverage.templates[ROW].tested == 3
    found = account({"page&sort": entry}, [])
    assert (found.studied, found.decided) == (1, 1)


async def test_templates_that_agree_pay_nothing_extra_and_get_no_scope() -> None:
    config = LearnerConfig(samples=4, min_samples=3)
    calls: list[tuple[str, str]] = []

    def ignores_sort(url: str) -> str:
        return url.split("?")[0]

    entry = await classify_pattern(
        pattern_group("sort", _urls(10, 6)), config, comparer(ignores_sort, calls), seed="t"
    )
    found = entry.params["sort"].coverage
    assert entry.params["sort"].neutral and found is not None and found.share == 1.0
    # Four samples; the joint check of a lone parameter repeats one of them (answered by the
    # run's checkpoint).
    assert not entry.templates and len(set(calls)) == 4


async def test_scoped_neutrals_that_change_the_page_together_are_kept() -> None:
    # On rows, "a" and "b" each find the row alone; dropping both loses it. On the table,
    # both matter.
    config = LearnerConfig(samples=4, min_samples=3)

    def site(url: str) -> str:
        path = url.split("?")[0]
        a, b = param_values(url, "a"), param_values(url, "b")
        if path.endswith(TABLE):
            return f"table {a} {b}"
        return "row" if a or b else "nothing"

    table = [f"https://d.example{TABLE}?a={n}&b={n}" for n in range(8)]
    rows = [f"https://d.example/data/products/{n}?a=r{n}&b=r{n}" for n in range(5)]
    entry = await classify_pattern(
        pattern_group("a&b", table + rows), config, comparer(site, []), seed="t"
    )
    assert not entry.params["a"].neutral and not entry.params["b"].neutral
    scoped = entry.templates[ROW]
    assert {n: cause_of(v).value for n, v in scoped.params.items()} == {
        "a": "joint-check",
        "b": "joint-check",
    }
    assert not any(v.neutral for v in scoped.params.values())
    assert scoped.joint_checks[0].outcome == "changed"


async def test_more_templates_are_sampled_to_reach_the_share_only_when_they_can() -> None:
    # Every page its own template (a documentation site): four samples cover four of six
    # pages; two more reach the share. Of twenty pages, eight could not: none is drawn.
    config = LearnerConfig(samples=4, min_samples=3)

    def page(url: str) -> str:
        return url.split("?")[0]

    for pages, tested, verdict in ((6, 6, "neutral"), (20, 4, "non-neutral")):
        calls: list[tuple[str, str]] = []
        urls = [f"https://docs.example/page{chr(97 + n)}.html?ref=r{n}" for n in range(pages)]
        entry = await classify_pattern(
            pattern_group("ref", urls), config, comparer(page, calls), seed="t"
        )
        ref = entry.params["ref"]
        assert (ref.verdict, ref.tested, len(set(calls))) == (verdict, tested, tested)
        assert ref.coverage is not None and ref.coverage.share == round(tested / pages, 3)


# ---------------------------------------------------------------- shared evidence


def _kept_with(outcomes: list[tuple[str, SampleOutcome]], **evidence: Any) -> ParamVerdict:
    """A kept verdict whose samples had these ``(url, outcome)``."""
    samples = tuple(Sample(url, url, outcome) for url, outcome in outcomes)
    tested = sum(o != "failed" for _, o in outcomes)
    changed = sum(o == "changed" for _, o in outcomes)
    failed = len(outcomes) - tested
    return ParamVerdict("non-neutral", tested, changed, failed, samples=samples, **evidence)


def _item(n: int, size: str = "m") -> str:
    return f"https://s.example/item/{n}?size={size}"


def test_shared_evidence_combines_patterns_per_template() -> None:
    one = PatternEntry(5, {"size": _kept_with([(_item(1), "same"), (_item(2), "same")])})
    two = PatternEntry(5, {"size": _kept_with([(_item(3), "same")])})
    shared = shared_evidence({"a&size": one, "b&size": two}, MIQPSNormalizer(), 3, rule=ANY_CHANGE)
    size = shared["/item/{id}"].params["size"]
    # Neither pattern had min_samples on its own; together they have.
    assert size.neutral and size.tested == 3
    assert size.patterns == ("a&size", "b&size")
    assert shared["/item/{id}"].patterns == ("a&size", "b&size")


def test_shared_evidence_keeps_on_a_change_a_failed_pattern_or_a_joint_keep() -> None:
    normalizer = MIQPSNormalizer()
    same = _kept_with([(_item(n), "same") for n in range(1, 4)])
    changed = PatternEntry(1, {"size": _kept_with([(_item(9), "changed")])})
    failed = PatternEntry(1, {"size": _kept_with([(_item(9), "failed")])})
    joint = PatternEntry(1, {"size": _kept_with([(_item(9), "same")], cause="joint-check")})
    for other, cause in ((changed, "changed"), (failed, "failed-samples"), (joint, "joint-check")):
        shared = shared_evidence(
            {"a&size": PatternEntry(3, {"size": same}), "b": other}, normalizer, 3, rule=ANY_CHANGE
        )
        size = shared["/item/{id}"].params["size"]
        assert (size.verdict, cause_of(size).value) == ("non-neutral", cause)
    # Another template is its own evidence.
    elsewhere = PatternEntry(
        1, {"size": _kept_with([("https://s.example/cart?size=m", "changed")])}
    )
    shared = shared_evidence(
        {"a": PatternEntry(3, {"size": same}), "b": elsewhere}, normalizer, 3, rule=ANY_CHANGE
    )
    assert shared["/item/{id}"].params["size"].neutral
    assert not shared["/cart"].params["size"].neutral


def test_shared_defaults_hold_unless_the_value_changed_a_page_of_the_template() -> None:
    found = Coverage(templates={"/item/{id}": TemplateCounts(urls=4, tested=3)})
    learned = ParamVerdict(
        "non-neutral",
        1,
        1,
        0,
        samples=(Sample(_item(1, "xl"), "", "changed"),),
        defaults={"m": DefaultValue(3, coverage=found), "s": DefaultValue(3, coverage=found)},
    )
    other = _kept_with([(_item(7, "s"), "changed")])
    shared = shared_evidence(
        {"a&size": PatternEntry(4, {"size": learned}), "b&size": PatternEntry(1, {"size": other})},
        MIQPSNormalizer(),
        3,
        rule=ANY_CHANGE,
    )
    size = shared["/item/{id}"].params["size"]
    assert not size.neutral and set(size.defaults) == {"m"}
    assert size.defaults["m"].patterns == ("a&size",)


# ---------------------------------------------------------------- the gate


def _set(templates: dict[str, TemplateScope], shared: dict[str, TemplateScope]) -> LearnedSet:
    kept = ParamVerdict("non-neutral", 3, 1, 0)
    entry = PatternEntry(10, {"sort": kept}, templates=templates)
    return LearnedSet({"d.example": DomainEntry({"sort": entry}, shared=shared)})


def test_a_new_scoped_or_shared_neutral_is_a_dangerous_flip() -> None:
    neutral = TemplateScope(4, {"sort": ParamVerdict("neutral", 3, 0, 0)})
    old = _set({}, {})
    for new in (_set({ROW: neutral}, {}), _set({}, {ROW: neutral})):
        found = diff_learned(old, new)
        (flip,) = found.dangerous
        assert (flip.param, flip.old, flip.new) == (f"sort @ {ROW}", "non-neutral", "neutral")
        assert not gate(found, 0.05).allowed
    found = diff_learned(_set({}, {ROW: neutral}), _set({}, {}))
    assert not found.dangerous and found.flips[0].pattern == SHARED


# ---------------------------------------------------------------- applied by the normalizer


async def test_the_normalizer_applies_each_templates_learned_verdict() -> None:
    config = LearnerConfig(samples=4, min_samples=3)
    group = pattern_group("sort", _urls(10, 6))
    entry = await classify_pattern(group, config, comparer(_browser(False), []), seed="t")
    normalizer = MIQPSNormalizer(learned=LearnedSet({"d.example": DomainEntry({"sort": entry})}))
    row = "https://d.example/data/products/7?sort=x"
    assert normalizer.normalize(row) == "https://d.example/data/products/7"
    assert "sort=x" in normalizer.normalize(f"https://d.example{TABLE}?sort=x")


async def test_the_normalizer_applies_shared_verdicts_to_a_pattern_not_studied() -> None:
    def item(url: str) -> str:
        return f"item {param_values(url, 'id')} in {param_values(url, 'color')}"

    urls = [f"https://s.example/item?color=c{n % 3}&id={n}&size={n}" for n in range(8)]
    config = LearnerConfig(samples=4, min_samples=3)
    entry = await classify_pattern(
        pattern_group("color&id&size", urls), config, comparer(item, []), seed="t"
    )
    patterns = {"color&id&size": entry}
    shared = shared_evidence(patterns, MIQPSNormalizer(), config.min_samples, rule=ANY_CHANGE)
    assert shared["/item"].params["size"].neutral
    learned = LearnedSet({"s.example": DomainEntry(patterns, shared=shared)})
    normalizer = MIQPSNormalizer(learned=learned)
    assert normalizer.normalize("https://s.example/item?id=3&size=9") == (
        "https://s.example/item?id=3"
    )
