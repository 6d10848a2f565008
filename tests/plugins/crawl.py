"""Pytest plugin: one learner run over the multi-site fixture, shared by the tests that read it."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest
import pytest_asyncio

from learner.demo.server import SiteServer
from learner.plan.targets import parse_target
from learner.render.browser import BrowserChoice
from tests.site.fixture import FIXTURE_HOSTS, observed_urls
from tests.site.learner_settings import SUITE_CONFIG

if TYPE_CHECKING:
    from learner.run.crawl import CrawlResult

CONFIG = SUITE_CONFIG
TARGETS = [parse_target(f"http://{host}") for host in FIXTURE_HOSTS]


@pytest_asyncio.fixture(loop_scope="session", scope="session")
async def fixture_run(
    fixture_server: SiteServer,
    browser_choice: BrowserChoice,
    tmp_path_factory: pytest.TempPathFactory,
) -> CrawlResult:
    from learner.run.crawl import crawl  # the learner's extra

    folder = tmp_path_factory.mktemp("crawl")
    return await crawl(
        TARGETS,
        config=CONFIG,
        out=folder / "learned.json",
        cache=folder / "run",
        observed=observed_urls(),
        resolve=fixture_server.resolve(),
        browser=browser_choice.executable,
    )
