"""One change-rate rule above a threshold of 0: patterns, templates, shared evidence, defaults.

A site here is a pure function from URL to page content (as in ``test_classify.py``), so
every verdict can be predicted. Each learned set is written and read back with its settings'
threshold, as the normalizer reads it.
"""

from __future__ import annotations

import json

from learner.config import LearnerConfig
from learner.judge.classify import classify_pattern
from learner.judge.defaults import check_joint_defaults, learn_defaults
from learner.judge.rate import ANY_CHANGE, ChangeRule
from learner.judge.shared import shared_evidence
from learner.judge.verdicts import cause_of
from learner.model import PairOutcome
from learner.plan.sampling import PatternGroup, param_values
from samepage import (
    DefaultValue,
    DomainEntry,
    LearnedSet,
    MIQPSNormalizer,
    ParamVerdict,
    PatternEntry,
    load_learned,
)
from samepage.learned import Sample, SampleOutcome, dumps_learned
from tests.site.pure_sites import Site, changes_for, comparer, pattern_group

TABLE = "/data/products"
ROW = "/data/products/{id}"


def _scopes(entry: PatternEntry) -> dict[str, tuple[str, int, int]]:
    """Each template scope's verdict on its one parameter, with its counts."""
    return {
        template: (v.verdict, v.tested, v.changed)
        for template, scope in entry.templates.items()
        for v in scope.params.values()
    }


def _read_back(config: LearnerConfig, host: str, entry: DomainEntry) -> MIQPSNormalizer:
    """The normalizer of the learned set a run with ``config`` writes, as a reader reads it."""
    learned = LearnedSet({host: entry}, settings=config.method_settings())
    return MIQPSNormalizer(learned=load_learned(json.loads(dumps_learned(learned))))


async def test_a_pattern_is_neutral_when_its_changes_stay_under_the_threshold() -> None:
    # One page of a documentation site shows a banner whatever ``ref`` it is given.
    def site(url: str) -> str:
        base = url.split("?")[0]
        return base + (" banner" if base.endswith("/a/3") and param_values(url, "ref") else "")

    urls = [f"https://docs.example/a/{n}?ref=a{n}" for n in range(8)]
    urls += [f"https://docs.example/p{c}.html?ref={c}" for c in "abc"]
    group = pattern_group("ref", urls)
    found = {}
    for threshold in (0.0, 0.1, 0.25):
        config = LearnerConfig(samples=8, min_samples=3, threshold=threshold)
        entry = await classify_pattern(group, config, comparer(site, []), seed="t")
        ref = entry.params["ref"]
        found[threshold] = (ref.verdict, ref.tested, ref.changed)
        normalizer = _read_back(config, "docs.example", DomainEntry({"ref": entry}))
        dropped = normalizer.normalize(urls[0]) == "https://docs.example/a/0"
        assert dropped is ref.neutral
    # 1 change in 8 samples: not more than 0.25 of them. At 0 and 0.1 the change is settled
    # after 5 (1 is more than 0.1 of 8 samples, whatever the last 3 show).
    assert found[0.0] == ("non-neutral", 5, 1)
    assert found[0.1] == ("non-neutral", 5, 1)
    assert found[0.25] == ("neutral", 8, 1)


def _table_and_rows(banner: str) -> tuple[list[str], Site]:
    """A data browser whose table sorts by ``sort``; a row shows a banner for one sort value."""

    def site(url: str) -> str:
        path = url.split("?")[0].removeprefix("https://d.example")
        sort = param_values(url, "sort")
        if path == TABLE:
            return f"table sorted by {sort}"
        return f"row {path}" + (" banner" if sort == (banner,) else "")

    return [f"https://d.example{TABLE}?sort=t{n}" for n in range(10)], site


async def test_a_template_whose_changes_stay_under_the_threshold_gets_its_neutral_scope() -> None:
    table, site = _table_and_rows("r3")
    rows = [f"https://d.example/data/products/{n}?sort=r{n}" for n in range(10)]
    group = pattern_group("sort", table + rows)
    strict = LearnerConfig(samples=10, min_samples=3)
    entry = await classify_pattern(group, strict, comparer(site, []), seed="t")
    assert not entry.params["sort"].neutral and entry.templates == {}
    lenient = LearnerConfig(samples=10, min_samples=3, threshold=0.2)
    entry = await classify_pattern(group, lenient, comparer(site, []), seed="t")
    assert cause_of(entry.params["sort"]).value == "changed"
    # Rows: 1 change in 6 samples, no more than 0.2 of them; the table changes on its one.
    assert _scopes(entry) == {TABLE: ("non-neutral", 1, 1), ROW: ("neutral", 6, 1)}
    normalizer = _read_back(lenient, "d.example", DomainEntry({"sort": entry}))
    assert normalizer.normalize(rows[0]) == "https://d.example/data/products/0"
    assert normalizer.normalize(table[0]) == table[0]


async def test_a_template_under_the_threshold_gets_min_samples_when_another_changed() -> None:
    table, site = _table_and_rows("r1")
    rows = [f"https://d.example/data/products/{n}?sort=r{n}" for n in range(6)]
    calls: list[tuple[str, str]] = []
    config = LearnerConfig(samples=4, min_samples=3, threshold=0.5)
    entry = await classify_pattern(
        pattern_group("sort", table + rows),
        config,
        comparer(site, calls),
        seed="t",
    )
    # The rows' first two samples hold one change, no more than half: the rows look neutral
    # and get a third sample, which makes them neutral on their own evidence.
    assert sum("/products/" in original for original, _ in calls) == 3
    assert _scopes(entry) == {TABLE: ("non-neutral", 2, 2), ROW: ("neutral", 3, 1)}


def _item(n: int) -> str:
    return f"https://s.example/item/{n}?size=s{n}"


def _samples(changed: int, tested: int, first: int = 0) -> ParamVerdict:
    """A kept verdict whose ``tested`` samples on items hold ``changed`` changes."""
    changes: list[SampleOutcome] = ["changed"] * changed
    outcomes = changes + ["same"] * (tested - changed)
    samples = tuple(
        Sample(_item(first + n), _item(first + n), outcome) for n, outcome in enumerate(outcomes)
    )
    return ParamVerdict("non-neutral", tested, changed, 0, samples=samples)


def test_shared_evidence_counts_changes_with_the_rule() -> None:
    normalizer = MIQPSNormalizer()
    rare = {"a&size": PatternEntry(10, {"size": _samples(1, 10)})}
    strict = shared_evidence(rare, normalizer, 3, rule=ANY_CHANGE)["/item/{id}"].params["size"]
    assert (strict.verdict, cause_of(strict).value) == ("non-neutral", "changed")
    lenient = shared_evidence(rare, normalizer, 3, rule=ChangeRule(0.2))
    size = lenient["/item/{id}"].params["size"]
    assert (size.verdict, size.tested, size.changed) == ("neutral", 10, 1)
    config = LearnerConfig(threshold=0.2)
    kept = ParamVerdict("non-neutral", 3, 3, 0)
    domain = DomainEntry({"id&size": PatternEntry(3, {"size": kept})}, shared=lenient)
    unstudied = "https://s.example/item/7?a=1&size=xl"  # a&size: not studied, shared
    assert _read_back(config, "s.example", domain).normalize(unstudied) == (
        "https://s.example/item/7?a=1"
    )
    # Together under the threshold (2 of 14), but over it in one pattern's samples (2 of 4).
    mixed = {
        "a&size": PatternEntry(4, {"size": _samples(2, 4)}),
        "b&size": PatternEntry(10, {"size": _samples(0, 10, first=4)}),
    }
    size = shared_evidence(mixed, normalizer, 3, rule=ChangeRule(0.2))["/item/{id}"].params["size"]
    assert (size.verdict, size.tested, size.changed) == ("non-neutral", 14, 2)
    assert cause_of(size).value == "changed"


async def test_one_change_rejects_a_default_whatever_the_threshold() -> None:
    urls = [f"https://s.example/{p}/{n}?sort={v}" for p in "ab" for n in range(6) for v in "xy"]
    group = PatternGroup("sort", tuple(urls), len(urls))
    verdict = ParamVerdict("non-neutral", 1, 1, 0, samples=())
    entry = PatternEntry(group.count, {"sort": verdict})
    seen: list[str] = []

    async def second_x_changes(original: str, candidate: str) -> PairOutcome:
        # The second sample of sort=x shows another page: 1 change in 2, not more than half.
        seen.append(original)
        second_x = original.endswith("=x") and sum(u.endswith("=x") for u in seen) == 2
        return PairOutcome(original, candidate, "changed" if second_x else "same")

    config = LearnerConfig(samples=8, min_samples=3, default_values=2, threshold=0.5)
    learned = await learn_defaults(group, entry, config, second_x_changes, seed="s")
    sort = learned.params["sort"]
    assert set(sort.defaults) == {"y"}
    rejected = sort.rejected_defaults["x"]
    assert (rejected.tested, rejected.changed) == (2, 1)
    assert rejected.reason == "the page changed without the parameter"
    # Two defaults dropped together: one change among the joint samples keeps them apart.
    both = tuple(f"https://s.example/l/{n}?page=1&sort=new" for n in range(3))
    pair = PatternGroup("page&sort", both, 3)
    params = {
        "page": ParamVerdict("non-neutral", 1, 1, defaults={"1": DefaultValue(3)}),
        "sort": ParamVerdict("non-neutral", 1, 1, defaults={"new": DefaultValue(3)}),
    }
    joint_config = LearnerConfig(joint_samples=3, threshold=0.5)
    joint, why = await check_joint_defaults(
        pair, params, joint_config, changes_for(set(both)), seed="s"
    )
    assert joint is None and why is not None and why.reason == "the page changed"
