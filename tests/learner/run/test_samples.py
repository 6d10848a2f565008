"""The sample runner in real Chromium: the retry policy of renders, and what a sample records."""

from __future__ import annotations

import itertools
import random
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest

from learner.config import RenderSettings
from learner.demo.server import Request, Response, Site, SiteServer
from learner.errors import RenderCause, RenderStep
from learner.judge.verdicts import account, warnings
from learner.model import Cause, RenderFailure
from learner.net.fetch import fetch
from learner.net.limiter import HostLimiter
from learner.net.retries import RetryPolicy
from learner.net.robots import RobotsPolicy
from learner.render.browser import BrowserChoice
from learner.render.renderer import Renderer
from learner.run.progress import Progress
from learner.run.sample_runner import PatternPages, SampleRunner, SiteCounters
from learner.run.store import RunStore
from samepage import ParamVerdict, PatternEntry
from samepage.learned import Sample, VerdictCause
from tests.site.learner_settings import SUITE_CONFIG

pytestmark = pytest.mark.browser


def _busy_once() -> Site:
    site = Site("busy.test")
    calls = itertools.count()

    @site.route("/p")
    def page(request: Request) -> Response:
        if next(calls) == 0:
            return Response(503, "<h1>Busy</h1>", headers={"Retry-After": "7"})
        return Response(body=f"<h1>Item {request.params.get('id', '')}</h1>")

    return site


@asynccontextmanager
async def _runner(
    site: Site,
    browser_choice: BrowserChoice,
    render_settings: RenderSettings,
    folder: Path,
    limiter: HostLimiter,
    **options: Any,
) -> AsyncIterator[SampleRunner]:
    """A sample runner on real Chromium, rendering ``site`` served on 127.0.0.1."""
    with SiteServer([site]) as server:

        async def plain(url: str):  # type: ignore[no-untyped-def]
            return await fetch(url, resolve=server.resolve(), user_agent="t", timeout_s=5)

        async with (
            RunStore(folder, scope="s", evidence_budget_bytes=0) as store,
            Renderer(
                render_settings, executable=browser_choice.executable, resolve=server.resolve()
            ) as renderer,
        ):
            robots = RobotsPolicy(plain, "t")
            progress = Progress(enabled=False)
            yield SampleRunner(SUITE_CONFIG, renderer, store, limiter, robots, progress, **options)


async def test_a_render_answered_503_is_retried_after_retry_after_and_the_host_waits(
    browser_choice: BrowserChoice, render_settings: RenderSettings, tmp_path: Path
) -> None:
    slept: list[float] = []
    waited: list[float] = []

    async def sleep(seconds: float) -> None:
        slept.append(seconds)

    async def wait(seconds: float) -> None:
        waited.append(seconds)

    limiter = HostLimiter(
        delay_s=0.0, jitter_s=0.0, rng=random.Random(0), sleep=wait, clock=lambda: 100.0
    )
    policy = RetryPolicy(attempts=3, base_delay_s=1.0)
    async with _runner(
        _busy_once(),
        browser_choice,
        render_settings,
        tmp_path,
        limiter,
        retry_policy=policy,
        sleep=sleep,
    ) as runner:
        counters = SiteCounters()
        page = await PatternPages(runner, counters).get("http://busy.test/p?id=4")
    assert page.rendering is not None and page.rendering.status == 200
    assert page.shot.fingerprint is not None and page.shot.fingerprint.lines == ("Item 4",)
    # The back-off waited as long as the server asked, and the host's next start was held
    # back by the same Retry-After.
    assert slept == [7.0]
    assert waited == [7.0]
    assert counters.renders == 2
    # Both attempts left the count of pages rendering at once, the failed one too.
    assert runner.progress.rendering == 0 and runner.progress.renders == 2


async def test_a_candidate_equal_to_its_original_fails_and_renders_nothing(
    browser_choice: BrowserChoice, render_settings: RenderSettings, tmp_path: Path
) -> None:
    # Rendered, the two pages would be identical: "same", and the parameter published
    # neutral although the URL never held it (a hand-edited plan did this).
    site = Site("item.test")
    site.routes["/p"] = lambda r: Response(body=f"<h1>Item {r.params.get('id', '')}</h1>")
    limiter = HostLimiter(delay_s=0.0, jitter_s=0.0, rng=random.Random(0))
    async with _runner(
        site, browser_choice, render_settings, tmp_path, limiter, retry_policy=RetryPolicy()
    ) as runner:
        counters = SiteCounters()
        url = "http://item.test/p?id=4"
        outcome = await runner.compare_urls(PatternPages(runner, counters), counters, url, url)
        assert runner.store.finished(url, url) is None  # never checkpointed as a result
    assert (outcome.outcome, outcome.cause) == ("failed", Cause.SAME_URL)
    assert "the original URL itself" in outcome.reason
    assert counters.renders == 0 and counters.outcomes == [outcome]


async def test_a_retry_after_beyond_the_budget_fails_the_hosts_later_renders_at_once(
    browser_choice: BrowserChoice, render_settings: RenderSettings, tmp_path: Path
) -> None:
    site = Site("away.test")
    site.routes["/p"] = lambda r: Response(429, "<h1>Later</h1>", headers={"Retry-After": "3600"})
    waited: list[float] = []

    async def wait(seconds: float) -> None:
        waited.append(seconds)

    limiter = HostLimiter(delay_s=0.0, jitter_s=0.0, rng=random.Random(0), sleep=wait)
    async with _runner(
        site,
        browser_choice,
        render_settings,
        tmp_path,
        limiter,
        retry_policy=RetryPolicy(max_delay_s=60.0),
        sleep=wait,
    ) as runner:
        counters = SiteCounters()
        pages = PatternPages(runner, counters)
        first = await pages.get("http://away.test/p?id=1")
        second = await pages.get("http://away.test/p?id=2")
    assert first.rendering is not None and first.rendering.status == 429
    assert second.rendering is None and second.shot.failure is RenderCause.RETRY_AFTER
    assert "Retry-After" in (second.shot.error or "")
    assert counters.renders == 1 and waited == []  # one render, no wait for the hour


async def test_a_sample_failed_by_a_screenshot_timeout_says_so_in_the_account_and_warning(
    browser_choice: BrowserChoice, render_settings: RenderSettings, tmp_path: Path
) -> None:
    # The page is ready at once; the full-page screenshot's resize runs a handler that
    # never returns, so the screenshot, not the page's loading, is what runs out.
    site = Site("frozen.test")
    site.routes["/p"] = lambda r: Response(
        body="<main style='height:2000px'><h1>Frozen</h1></main><script>"
        "addEventListener('resize', () => { while (true) {} }, {once: true});</script>"
    )
    limiter = HostLimiter(delay_s=0.0, jitter_s=0.0, rng=random.Random(0))
    original, candidate = "http://frozen.test/p?id=1&ref=a", "http://frozen.test/p?id=1"
    async with _runner(
        site, browser_choice, render_settings, tmp_path, limiter, retry_policy=RetryPolicy()
    ) as runner:
        counters = SiteCounters()
        outcome = await runner.compare_urls(
            PatternPages(runner, counters), counters, original, candidate
        )
    assert (outcome.outcome, outcome.cause) == ("failed", Cause.ORIGINAL_FAILED)
    assert outcome.reason.startswith("original: screenshot: no image within")
    timeout = RenderFailure("original", RenderCause.TIMEOUT, RenderStep.SCREENSHOT)
    assert outcome.evidence.failure == timeout
    samples = (Sample(original, candidate, "failed"),)
    kept = ParamVerdict("non-neutral", 0, 0, 1, cause=VerdictCause.FAILED_SAMPLES, samples=samples)
    found = account({"ref": PatternEntry(1, {"ref": kept})}, [outcome])
    assert found.failures == {"failed-samples": {"original-failed: timeout at screenshot": 1}}
    [line] = warnings("frozen.test", found)
    assert "most samples: original-failed: timeout at screenshot" in line
