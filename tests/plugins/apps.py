"""Pytest plugin: the real applications of ``tests/apps``, each served once and studied once.

An application that is not installed skips its tests, except under CI, where it fails them
(``scripts/setup.sh`` installs all of them).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

import pytest
import pytest_asyncio

from learner.plan.targets import parse_target
from learner.render.browser import BrowserChoice
from tests.apps.registry import APPS, APPS_CONFIG, App
from tests.apps.server import AppServer
from tests.plugins.browser import under_ci

if TYPE_CHECKING:
    from learner.run.crawl import CrawlResult


@dataclass(frozen=True, slots=True)
class ServedApp:
    """An application and the process serving it."""

    app: App
    server: AppServer


@dataclass(frozen=True, slots=True)
class AppRun:
    """One learner run over an application's observed-URL log."""

    app: App
    result: CrawlResult


@pytest.fixture(scope="session", params=sorted(APPS))
def served_app(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[ServedApp]:
    """Each application, built from its seed and served on 127.0.0.1 for the whole run."""
    app = APPS[request.param]
    why = app.missing()
    if why is not None:
        if under_ci():
            pytest.fail(f"CI needs {app.name}: {why}")
        pytest.skip(why)
    with app.serve(tmp_path_factory.mktemp(app.name)) as server:
        yield ServedApp(app, server)


@pytest_asyncio.fixture(loop_scope="session", scope="session")
async def app_run(
    served_app: ServedApp,
    browser_choice: BrowserChoice,
    tmp_path_factory: pytest.TempPathFactory,
) -> AppRun:
    """The learner's crawl of one application, with the suite's settings."""
    from learner.run.crawl import crawl  # the learner's extra

    app = served_app.app
    folder = tmp_path_factory.mktemp(f"{app.name}-crawl")
    result = await crawl(
        [parse_target(f"http://{app.host}")],
        config=APPS_CONFIG,
        out=folder / "learned.json",
        cache=folder / "run",
        observed=app.observed_urls(),
        resolve=served_app.server.resolve(),
        browser=browser_choice.executable,
    )
    return AppRun(app, result)
