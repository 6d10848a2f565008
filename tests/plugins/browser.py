"""Browser fixtures: one Chromium per test run, reached through a local virtual-host server.

Without a Chromium the browser tests skip, except under CI (the ``CI`` environment
variable), where a missing browser fails them and a skipped browser test fails the run; the
run ends with a line saying how many browser tests ran.
"""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import AsyncIterator, Iterator
from typing import TYPE_CHECKING

import pytest
import pytest_asyncio

from learner.config import RenderSettings
from learner.demo.server import SiteServer
from learner.errors import BrowserNotFound
from learner.render.browser import BrowserChoice, find_browser

if TYPE_CHECKING:
    from learner.render.renderer import Renderer

# Small pages need no tall captures; a short timeout keeps the hostile pages quick.
TEST_SETTINGS = RenderSettings(
    viewport_width=800,
    viewport_height=600,
    max_page_height=2400,
    page_timeout_s=5.0,
    network_idle_max_s=2.0,
    max_text_chars=20_000,
)


_BROWSER_TESTS: Counter[str] = Counter()


def under_ci() -> bool:
    """Whether the tests run under CI, where a missing tool fails instead of skipping."""
    return bool(os.environ.get("CI"))


@pytest.fixture(scope="session")
def browser_choice() -> BrowserChoice:
    """The Chromium the tests drive; without one they skip, or fail under CI."""
    try:
        return find_browser()
    except BrowserNotFound as exc:
        if under_ci():
            pytest.fail(f"CI needs a Chromium for the browser tests: {exc}")
        pytest.skip(f"no Chromium to drive: {exc}")


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    """Count the browser tests by outcome (a failed set-up counts as the test's outcome)."""
    if "browser" not in report.keywords:
        return
    if report.when == "call" or (report.when == "setup" and report.outcome != "passed"):
        # An expected failure reports "skipped" with ``wasxfail``: it ran, it did not skip.
        outcome = "xfailed" if hasattr(report, "wasxfail") else report.outcome
        _BROWSER_TESTS[outcome] += 1


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """Say how many browser tests ran; under CI, a skipped one fails the run."""
    ran = _BROWSER_TESTS["passed"] + _BROWSER_TESTS["failed"] + _BROWSER_TESTS["xfailed"]
    terminalreporter.write_line(
        f"browser tests ran: {ran} (passed {_BROWSER_TESTS['passed']}, "
        f"failed {_BROWSER_TESTS['failed']}, expected failures {_BROWSER_TESTS['xfailed']}, "
        f"skipped {_BROWSER_TESTS['skipped']})"
    )


@pytest.hookimpl(trylast=True)
def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """Under CI, browser tests that skipped make the run fail."""
    if under_ci() and _BROWSER_TESTS["skipped"] and exitstatus == 0:
        session.exitstatus = 1


@pytest.fixture(scope="session")
def render_server() -> Iterator[SiteServer]:
    """The renderer test sites (``tests/site/render_sites.py``) on 127.0.0.1."""
    from tests.site.render_sites import render_sites  # draws its images with Pillow

    with SiteServer(render_sites()) as server:
        yield server


@pytest.fixture(scope="session")
def render_settings() -> RenderSettings:
    """The settings of the session renderer."""
    return TEST_SETTINGS


@pytest_asyncio.fixture(loop_scope="session", scope="session")
async def renderer(
    browser_choice: BrowserChoice, render_server: SiteServer, render_settings: RenderSettings
) -> AsyncIterator[Renderer]:
    """One Renderer (one browser) for the whole test run."""
    from learner.render.renderer import Renderer  # Playwright: the learner's extra

    async with Renderer(
        render_settings,
        executable=browser_choice.executable,
        resolve=render_server.resolve(),
    ) as shared:
        yield shared
