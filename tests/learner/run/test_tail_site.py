"""More than twenty patterns of real weight, and a long tail, in real Chromium.

``tail.test`` (:mod:`tests.site.tail_site`) spreads its URLs over twenty-two one-parameter
patterns of 9 to 4 URLs and a tail of two-parameter patterns seen once. The learner studies
patterns by their share of the URLs, covers 95% of them and decides the tail through the
evidence shared across patterns; within a render budget too small for the site, a pattern
cut short keeps every parameter, with the cause ``budget``, and nothing of it is neutral.
Patterns are studied side by side once the first could be studied.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from pathlib import Path

import pytest
import pytest_asyncio

from learner.config import LearnerConfig
from learner.demo.server import LoggedRequest, SiteServer
from learner.judge.verdicts import VerdictCause, cause_of
from learner.plan.coverage import left_line
from learner.plan.targets import parse_target
from learner.render.browser import BrowserChoice
from learner.run.crawl import CrawlResult, crawl
from samepage import MIQPSNormalizer
from tests.site.learner_settings import SUITE_CONFIG
from tests.site.tail_site import IGNORED, TAIL, TAIL_HOST, tail_site, tail_urls

TEMPLATE = "/item/{id}"
# Default values are another study: here only which patterns are studied matters. The
# pages are static: a short quiet window renders them as well, and sooner.
CONFIG = dataclasses.replace(
    SUITE_CONFIG,
    default_values=0,
    render=dataclasses.replace(SUITE_CONFIG.render, quiet_window_s=0.2),
)
BUDGET = 4


@pytest.fixture(scope="module")
def tail_server() -> Iterator[SiteServer]:
    with SiteServer([tail_site()]) as server:
        yield server


async def _learn(
    server: SiteServer, browser: BrowserChoice, folder: Path, config: LearnerConfig
) -> CrawlResult:
    return await crawl(
        [parse_target(f"http://{TAIL_HOST}")],
        config=config,
        out=folder / "learned.json",
        cache=folder / "run",
        observed=tail_urls(),
        resolve=server.resolve(),
        browser=browser.executable,
    )


@pytest_asyncio.fixture(loop_scope="session", scope="module")
async def tail_run(
    tail_server: SiteServer,
    browser_choice: BrowserChoice,
    tmp_path_factory: pytest.TempPathFactory,
) -> CrawlResult:
    before = len(tail_server.requests_for(TAIL_HOST))
    result = await _learn(tail_server, browser_choice, tmp_path_factory.mktemp("tail"), CONFIG)
    _REQUESTS.extend(tail_server.requests_for(TAIL_HOST)[before:])
    return result


_REQUESTS: list[LoggedRequest] = []
"""What the site was asked for during :func:`tail_run`, in order."""


@pytest.mark.browser
def test_the_share_is_covered_and_the_long_tail_decided(tail_run: CrawlResult) -> None:
    coverage = tail_run.stats["domains"][TAIL_HOST]["coverage"]
    assert coverage["share"] >= 0.95 and len(coverage["studied"]) > 20
    assert coverage["left_because"] == {"share": coverage["left_patterns"]}
    entry = tail_run.learned.domains[TAIL_HOST]
    assert len(entry.patterns) == len(coverage["studied"])
    decided = tail_run.stats["domains"][TAIL_HOST]["decided"]
    assert decided["decided"] == decided["studied"]
    # Every name of the tail is decided on its template by the evidence shared across
    # patterns: the names the site reads are kept, the others dropped.
    shared = entry.shared[TEMPLATE].params
    norm = MIQPSNormalizer(learned=tail_run.out)
    for name in TAIL:
        assert name not in entry.patterns
        assert cause_of(shared[name]).decided, (name, shared[name])
        assert shared[name].neutral == (name in IGNORED), name
        url = f"http://{TAIL_HOST}/item/3?{name}=x"
        assert norm.normalize(url) == (f"http://{TAIL_HOST}/item/3" if name in IGNORED else url)


@pytest.mark.browser
def test_patterns_are_studied_side_by_side_after_the_first(tail_run: CrawlResult) -> None:
    # A render mostly waits: with two pages open at once, the second and third patterns
    # (one parameter each, several renders each) are studied together, not one after the
    # other; the first, studied alone, shows the site can be studied at all.
    studied = [
        pattern for pattern, _, _ in tail_run.stats["domains"][TAIL_HOST]["coverage"]["studied"]
    ]
    assert CONFIG.concurrency == 2 and len(studied) > 3

    def asked(pattern: str) -> list[int]:
        names = set(pattern.split("&"))
        return [
            i
            for i, request in enumerate(_REQUESTS)
            if request.query and {kv.split("=")[0] for kv in request.query.split("&")} == names
        ]

    first, second, third = (asked(pattern) for pattern in studied[:3])
    assert first and second and third
    assert max(first) < min(second) and max(first) < min(third)
    assert min(third) < max(second), (second, third)


@pytest.mark.browser
def test_the_closing_table_shows_the_share_and_the_patterns_left(
    tail_run: CrawlResult, capsys: pytest.CaptureFixture[str]
) -> None:
    from learner.cli import _print_summary

    _print_summary(tail_run)
    printed = capsys.readouterr().out
    coverage = tail_run.stats["domains"][TAIL_HOST]["coverage"]
    assert f"{coverage['share']:.1%}" in printed
    assert left_line(coverage) in printed and "(4)" in left_line(coverage)
    assert f"evidence they share: {tail_run.stats['covered_share']:.1%}" in printed


@pytest.mark.browser
async def test_a_pattern_cut_by_the_budget_keeps_its_parameters(
    tail_server: SiteServer, browser_choice: BrowserChoice, tmp_path: Path
) -> None:
    config = dataclasses.replace(CONFIG, renders_per_domain=BUDGET)
    result = await _learn(tail_server, browser_choice, tmp_path, config)
    domain = result.stats["domains"][TAIL_HOST]
    assert BUDGET <= domain["renders"] <= BUDGET + config.concurrency
    coverage = domain["coverage"]
    assert coverage["left_because"].get("budget", 0) > 0
    cut = {
        key
        for key, entry in result.learned.domains[TAIL_HOST].patterns.items()
        if any(cause_of(v) is VerdictCause.BUDGET for v in entry.params.values())
    }
    # The first pattern (two parameters side by side) needs more than four renders.
    assert len(cut) == 1 and len(result.learned.domains[TAIL_HOST].patterns) == 1
    [key] = cut
    verdicts = result.learned.domains[TAIL_HOST].patterns[key].params.values()
    assert all(not v.neutral and cause_of(v) is VerdictCause.BUDGET for v in verdicts)
    # The cut pattern counts as left for the budget, and its parameters as kept for it.
    assert key in {pattern for pattern, _, why in coverage["left"] if why == "budget"}
    assert domain["decided"]["kept"] == {"budget": 2} and domain["decided"]["decided"] == 0
    assert coverage["share"] < 0.95 and not coverage["studied"]
