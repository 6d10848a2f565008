"""Listed names spot-checked in real Chromium: the renders keep ``utm_source`` where a
dashboard reads it, and confirm the list where a page ignores it."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest
import pytest_asyncio

from learner.demo.server import SiteServer
from learner.plan.targets import parse_target
from learner.render.browser import BrowserChoice
from learner.report.build import write_report
from learner.run.crawl import CrawlResult, crawl
from samepage import MIQPSNormalizer, same_page
from tests.site.learner_settings import SUITE_CONFIG
from tests.site.listed_site import DASHBOARD, POST, listed_observed, listed_sites

pytestmark = pytest.mark.browser


@pytest_asyncio.fixture(loop_scope="session", scope="module")
async def listed_run(
    browser_choice: BrowserChoice, tmp_path_factory: pytest.TempPathFactory
) -> CrawlResult:
    folder = tmp_path_factory.mktemp("listed")
    config = dataclasses.replace(SUITE_CONFIG, samples=3, top_patterns=1, default_values=0)
    sites = listed_sites()
    with SiteServer(sites) as server:
        return await crawl(
            [parse_target(f"http://{site.host}") for site in sites],
            config=config,
            out=folder / "learned.json",
            cache=folder / "run",
            observed=listed_observed(),
            resolve=server.resolve(),
            browser=browser_choice.executable,
        )


def test_a_listed_name_that_changes_the_page_is_kept_on_its_host(listed_run: CrawlResult) -> None:
    keep = listed_run.learned.domains[DASHBOARD].keep_listed
    assert set(keep) == {"utm_source"}
    assert keep["utm_source"].overrules == ("tracking:utm_*",)
    assert keep["utm_source"].templates == ("/dashboard",)
    assert keep["utm_source"].changed >= 1
    norm = MIQPSNormalizer(learned=listed_run.out)
    github = f"http://{DASHBOARD}/dashboard?period=7d&utm_source=github"
    twitter = f"http://{DASHBOARD}/dashboard?period=7d&utm_source=twitter"
    assert not same_page(github, twitter, normalizer=norm)
    assert same_page(github, twitter)  # the built-in lists alone merge them


def test_a_listed_name_the_renders_confirm_stays_dropped(listed_run: CrawlResult) -> None:
    assert listed_run.learned.domains[POST].keep_listed == {}
    norm = MIQPSNormalizer(learned=listed_run.out)
    assert norm.normalize(f"http://{POST}/post?id=1&utm_source=x") == f"http://{POST}/post?id=1"
    found = listed_run.stats["domains"][POST]["listed"]
    assert (found["confirmed"], found["kept"], found["unsettled"]) == (["utm_source"], [], [])


def test_the_renders_spent_are_counted_and_reported(
    listed_run: CrawlResult, tmp_path: Path
) -> None:
    stats = json.loads((listed_run.run_folder / "stats.json").read_text(encoding="utf-8"))
    per_domain = [stats["domains"][host]["listed"] for host in (DASHBOARD, POST)]
    # One sample per name and path template: each host has one of each.
    assert [d["samples"] for d in per_domain] == [1, 1]
    assert stats["listed_samples"] == 2
    assert stats["listed_renders"] == sum(d["renders"] for d in per_domain)
    assert all(d["renders"] <= 4 for d in per_domain)
    index = write_report(listed_run.run_folder, tmp_path / "report").read_text(encoding="utf-8")
    assert "Listed names kept on this host" in index
    assert "<code>tracking:utm_*</code>" in index
    assert "Listed names spot-checked" in index
