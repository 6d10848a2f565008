"""Browser fixtures: one Chromium per test run, reached through a local virtual-host server."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator

import pytest
import pytest_asyncio

from learner.browser import BrowserChoice, find_browser
from learner.config import RenderSettings
from learner.demo.server import SiteServer
from learner.errors import BrowserNotFound
from learner.renderer import Renderer
from tests.learner.render_sites import render_sites

# Small pages need no tall captures; a short timeout keeps the hostile pages quick.
TEST_SETTINGS = RenderSettings(
    viewport_width=800,
    viewport_height=600,
    max_page_height=2400,
    page_timeout_s=5.0,
    network_idle_max_s=2.0,
    max_text_chars=20_000,
)


@pytest.fixture(scope="session")
def browser_choice() -> BrowserChoice:
    """The Chromium the tests drive; the tests that need one skip when there is none."""
    try:
        return find_browser()
    except BrowserNotFound as exc:
        pytest.skip(f"no Chromium to drive: {exc}")


@pytest.fixture(scope="session")
def render_server() -> Iterator[SiteServer]:
    """The renderer test sites (``tests/learner/render_sites.py``) on 127.0.0.1."""
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
    async with Renderer(
        render_settings,
        executable=browser_choice.executable,
        resolve=render_server.resolve(),
    ) as shared:
        yield shared
