"""Which patterns a domain studies: most URLs first, until a share of its URLs is covered."""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import Coroutine
from pathlib import Path
from typing import Any

import pytest

from learner.cli import _adopt_plan
from learner.config import LearnerConfig
from learner.errors import ConfigError
from learner.plan.coverage import (
    Choice,
    Left,
    PatternWeight,
    choose_groups,
    choose_patterns,
    left_line,
)
from learner.plan.domains import PlanSettings, plan_urls
from learner.plan.files import read_plan, write_plan
from learner.plan.logs import plan_files
from learner.plan.sampling import group_by_pattern
from learner.plan.targets import parse_target
from learner.run.budget import BudgetSpent, BudgetTicket, RenderBudget
from learner.run.sample_runner import SiteCounters
from samepage import MIQPSNormalizer
from tests.plugins.engines import engine
from tests.site.fixture import observed_urls
from tests.site.tail_site import TAIL, TAIL_HOST, WEIGHTY, tail_urls


def _w(pattern: str, urls: int, template: str = "/p") -> PatternWeight:
    return PatternWeight(pattern, urls, {template: urls})


def _choose(
    weights: list[PatternWeight], cover: float = 0.95, cap: int = 1000, seed: int = 0
) -> Choice:
    return choose_patterns(weights, cover=cover, cap=cap, seed=seed, domain="s.example")


def test_most_urls_first_until_the_share_is_covered() -> None:
    choice = _choose([_w("c", 5), _w("a", 50), _w("b", 30), _w("d", 15)])
    assert choice.patterns == ("a", "b", "d")
    assert choice.share == 0.95
    assert [(p.pattern, p.urls, p.because) for p in choice.left] == [("c", 5, Left.SHARE)]
    assert _choose([_w("a", 50), _w("b", 50)], cover=1.0).left == ()


def test_the_cap_stops_short_of_the_share_and_says_so() -> None:
    choice = _choose([_w("a", 40), _w("b", 30), _w("c", 20), _w("d", 10)], cap=2)
    assert choice.patterns == ("a", "b")
    assert choice.share == 0.7
    assert {p.because for p in choice.left} == {Left.CAP}


def test_a_tie_goes_to_the_pattern_that_brings_names_not_yet_reached() -> None:
    # Four patterns of ten URLs on one template: "a&b" brings two names, then "z" one,
    # while "a" and "b" bring none (and are reached through "a&b"): key order plays no part.
    choice = _choose([_w("b", 10), _w("a", 10), _w("z", 10), _w("a&b", 10)], cover=1.0)
    assert choice.patterns == ("a&b", "z")
    assert {(p.pattern, p.because) for p in choice.left} == {("a", Left.SHARE), ("b", Left.SHARE)}


def test_ties_on_urls_and_names_are_never_broken_by_name_alone() -> None:
    # Two patterns of the same size that bring one new name each: a seeded order decides,
    # so across seeds each comes first, and the other is left where one is enough.
    weights = [_w("big", 90), _w("aaa", 5, "/a"), _w("zzz", 5, "/z")]
    firsts = {_choose(weights, cover=0.95, seed=seed).patterns[-1] for seed in range(20)}
    assert firsts == {"aaa", "zzz"}
    once = _choose(weights, cover=0.95, seed=3)
    assert once == _choose(list(reversed(weights)), cover=0.95, seed=3)


def test_urls_the_shared_evidence_reaches_count_as_covered() -> None:
    # "a" (5) is reached on /p by a studied "a&b": the shared evidence met a there beside
    # every other name of the URL (none). "a&c" is not: no studied pattern had a beside c;
    # nor is "b" on /q, a template no studied pattern sampled.
    weights = [_w("a&b", 45), _w("c", 45), _w("a", 5), _w("a&c", 3), _w("b", 2, "/q")]
    choice = _choose(weights)
    assert set(choice.patterns) == {"a&b", "c"}
    assert choice.covered == 95 and choice.share == 0.95
    assert {p.pattern for p in choice.left} == {"a", "a&c", "b"}
    # A pattern on two templates is reached on the one a studied pattern shares.
    split = PatternWeight("a", 10, {"/p": 3, "/q": 1})
    assert _choose([_w("a&b", 45), split], cover=0.9).covered == 52.5


def test_a_cut_choice_leaves_the_rest_for_the_budget() -> None:
    choice = _choose([_w("a", 50), _w("b", 30), _w("c", 15), _w("d", 5)])
    cut = choice.cut(1)
    assert cut.patterns == ("a",) and cut.share == 0.5
    assert [(p.pattern, p.because) for p in cut.left] == [
        ("b", Left.BUDGET),
        ("c", Left.BUDGET),
        ("d", Left.SHARE),
    ]
    assert choice.cut(3) is choice
    data = cut.to_json()
    assert data["left_because"] == {"budget": 2, "share": 1} and data["left_urls"] == 50
    assert Choice.from_json(data) == cut
    line = "3 pattern(s) left (50 URLs; 2 budget, 1 share): b (30), c (15), d (5)"
    assert left_line(data) == line


def test_no_urls_no_patterns() -> None:
    empty = _choose([])
    assert (empty.patterns, empty.left, empty.share) == ((), (), 1.0)
    assert left_line(empty.to_json()) == "no pattern left"


def test_the_tail_site_is_covered_where_twenty_patterns_leave_two_of_weight() -> None:
    norm = MIQPSNormalizer()
    groups = group_by_pattern(tail_urls(), norm)
    assert len(groups) == len(WEIGHTY) + len(TAIL) > 20
    _, capped = choose_groups(groups, cover=0.95, cap=20, seed=0, domain=TAIL_HOST)
    assert capped.share < 0.95
    assert [p.urls for p in capped.left if p.because is Left.CAP][:2] == [4, 4]
    chosen, choice = choose_groups(groups, cover=0.95, cap=1000, seed=0, domain=TAIL_HOST)
    assert choice.share >= 0.95 and len(chosen) > 20
    assert {p.because for p in choice.left} == {Left.SHARE}
    # Every tail pattern is left: its URLs are reached through the pairs studied.
    assert set(TAIL) <= {p.pattern for p in choice.left}


def test_a_plan_makes_the_crawls_choice() -> None:
    settings = PlanSettings(top_patterns=1000, samples=4, seed=0)
    [plan] = plan_urls([parse_target(f"http://{TAIL_HOST}")], tail_urls(), settings)
    groups = group_by_pattern(tail_urls(), MIQPSNormalizer())
    chosen, choice = choose_groups(groups, cover=0.95, cap=1000, seed=0, domain=TAIL_HOST)
    assert plan.choice == choice and list(plan.groups) == chosen
    capped = dataclasses.replace(settings, top_patterns=20)
    [twenty] = plan_urls([parse_target(f"http://{TAIL_HOST}")], tail_urls(), capped)
    assert len(twenty.groups) == 20 and twenty.choice.left[0].because is Left.CAP


def _study(ticket: BudgetTicket, cancelled: list[str]) -> Coroutine[Any, Any, list[str]]:
    """Two samples side by side, two renders each, every render asked of the budget."""

    async def sample(name: str) -> str:
        try:
            for _ in range(2):
                await ticket.admit()
                ticket.budget.counters.renders += 1
                await asyncio.sleep(0)
            return name
        except asyncio.CancelledError:
            cancelled.append(name)
            raise

    async def study() -> list[str]:
        return list(await asyncio.gather(sample("x"), sample("y")))

    return study()


async def test_the_budget_stops_a_study_and_every_sample_under_way() -> None:
    budget, cancelled = RenderBudget(3, SiteCounters()), list[str]()
    ticket = budget.ticket()
    with pytest.raises(BudgetSpent):
        await ticket.run(_study(ticket, cancelled))
    # x made its two renders; y, waiting for its second, was cancelled with the study.
    assert budget.counters.renders == 3 and cancelled == ["y"]
    assert budget.spent
    # Within the budget, a study runs to its end.
    enough = RenderBudget(4, SiteCounters())
    ticket = enough.ticket()
    assert await ticket.run(_study(ticket, cancelled)) == ["x", "y"]
    assert enough.counters.renders == 4


@pytest.mark.parametrize("suffix", [".jsonl", ".parquet"])
def test_the_duckdb_plan_makes_the_same_choice_and_keeps_it(tmp_path: Path, suffix: str) -> None:
    engine("duckdb")
    engine("pyarrow")
    targets = [parse_target(f"http://{TAIL_HOST}"), parse_target("http://shop.test")]
    urls = tail_urls() + observed_urls()
    settings = PlanSettings(top_patterns=1000, samples=4, seed=0)
    log = tmp_path / "urls.txt"
    log.write_text("\n".join(urls) + "\n")
    expected = plan_urls(targets, urls, settings)
    assert list(plan_files(targets, [str(log)], settings)) == expected
    out = tmp_path / f"plan{suffix}"
    write_plan(expected, str(out), settings)
    read, plans = read_plan(str(out))
    assert read == settings
    assert [plans[p.key].choice for p in expected] == [p.choice for p in expected]
    log_choice = plans[TAIL_HOST].choice
    assert log_choice.share >= 0.95 and {p.because for p in log_choice.left} == {Left.SHARE}


def test_a_crawl_adopts_the_plans_share_and_refuses_another(tmp_path: Path) -> None:
    settings = PlanSettings(top_patterns=1000, samples=4, seed=0, cover=0.8)
    out = tmp_path / "plan.jsonl"
    plans = plan_urls([parse_target(f"http://{TAIL_HOST}")], tail_urls(), settings)
    write_plan(plans, str(out), settings)
    config, _ = _adopt_plan(str(out), LearnerConfig(), {"cover": None})
    assert (config.cover, config.top_patterns, config.samples) == (0.8, 1000, 4)
    with pytest.raises(ConfigError, match=r"--cover 0\.95: the plan .* was made with 0\.8"):
        _adopt_plan(str(out), LearnerConfig(), {"cover": 0.95})
