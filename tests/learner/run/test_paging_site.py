"""``page`` beside a page size, in real Chromium: never neutral where one size turns pages.

``paging.test`` (:mod:`tests.site.paging_site`) lists six tickets a milestone; at ten a
page its page numbers do nothing, at five they turn pages. The learner must test ``page``
beside both sizes, and the normalizer must keep two different pages of results apart.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
import pytest_asyncio

from learner.demo.server import SiteServer
from learner.judge.verdicts import VerdictCause, cause_of
from learner.plan.sampling import param_values
from learner.plan.targets import parse_target
from learner.render.browser import BrowserChoice
from learner.run.crawl import CrawlResult, crawl
from tests.site.checks import assert_merges_only_same_pages
from tests.site.learner_settings import SUITE_CONFIG
from tests.site.paging_site import (
    PAGING_HOST,
    paging_different_pairs,
    paging_site,
    paging_urls,
)

PATTERN = "max&milestone&page"


@pytest.fixture(scope="module")
def paging_server() -> Iterator[SiteServer]:
    with SiteServer([paging_site()]) as server:
        yield server


async def _learn(server: SiteServer, browser: BrowserChoice, out: Path, cache: Path) -> CrawlResult:
    return await crawl(
        [parse_target(f"http://{PAGING_HOST}")],
        config=SUITE_CONFIG,
        out=out,
        cache=cache,
        observed=paging_urls(),
        resolve=server.resolve(),
        browser=browser.executable,
    )


@pytest_asyncio.fixture(loop_scope="session", scope="module")
async def paging_run(
    paging_server: SiteServer,
    browser_choice: BrowserChoice,
    tmp_path_factory: pytest.TempPathFactory,
) -> CrawlResult:
    folder = tmp_path_factory.mktemp("paging")
    return await _learn(paging_server, browser_choice, folder / "learned.json", folder / "run")


@pytest.mark.browser
def test_page_is_never_neutral_where_a_page_size_turns_pages(paging_run: CrawlResult) -> None:
    entry = paging_run.learned.domains[PAGING_HOST].patterns[PATTERN]
    page = entry.params["page"]
    # Decided on evidence: its samples met the page size that pages, past the first page.
    assert (page.verdict, cause_of(page)) == ("non-neutral", VerdictCause.CHANGED)
    sampled = {
        (param_values(s.url, "max"), param_values(s.url, "page"))
        for s in page.samples or ()
        if s.outcome != "failed"
    }
    assert (("5",), ("2",)) in sampled
    assert not entry.params["max"].neutral and not entry.params["milestone"].neutral
    assert_merges_only_same_pages(paging_run.out, [], paging_different_pairs())


@pytest.mark.browser
async def test_a_resumed_run_decides_the_same(
    paging_run: CrawlResult,
    paging_server: SiteServer,
    browser_choice: BrowserChoice,
    tmp_path: Path,
) -> None:
    again = await _learn(
        paging_server, browser_choice, tmp_path / "learned.json", paging_run.run_folder
    )
    assert again.stats["renders"] == 0
    assert (
        again.learned.domains[PAGING_HOST].patterns
        == paging_run.learned.domains[PAGING_HOST].patterns
    )
