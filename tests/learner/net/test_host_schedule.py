"""A host's request schedule while pages overlap their waits, seen from the server.

Pages wait out their quiet windows without holding their host, so another page of the host
may load meanwhile; what each host receives must still obey every politeness rule: spaced
page starts (the delay, or the site's ``Crawl-delay``), at most ``per_host`` pages sending
requests at once (a page's late requests wait for their host), and ``Retry-After``.
"""

from __future__ import annotations

import asyncio
import dataclasses
import itertools
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest

from learner.demo.server import Request, Response, Site, SiteServer
from learner.render.browser import BrowserChoice
from learner.render.renderer import Renderer
from learner.run.crawl import politeness
from learner.run.progress import Progress
from learner.run.sample_runner import PatternPages, SampleRunner, SiteCounters
from learner.run.store import RunStore
from tests.site.learner_settings import SUITE_CONFIG

pytestmark = pytest.mark.browser

DELAY_S = 1.0
CRAWL_DELAY_S = 2.0
RETRY_AFTER_S = 2
# The server sees a page's first request a little after the limiter spaced its start (the
# request crosses Playwright and the browser): on a loaded machine, up to a few tenths.
CLOCK_SLACK_S = 0.3


@dataclass(frozen=True, slots=True)
class Served:
    """One request as the server handled it, on the test's monotonic clock."""

    host: str
    path: str
    page: str
    """The page it belongs to: its own path and query, or its Referer's."""
    document: bool
    status: int
    start: float
    end: float


class Log:
    def __init__(self) -> None:
        self.served: list[Served] = []
        self._lock = threading.Lock()

    def handler(
        self, answer: Callable[[Request], Response], *, document: bool, pause_s: float = 0.0
    ) -> Callable[[Request], Response]:
        def handle(request: Request) -> Response:
            start = time.monotonic()
            time.sleep(pause_s)
            response = answer(request)
            query = "&".join(f"{k}={v}" for k, v in request.query)
            if document:
                page = f"{request.path}?{query}"
            else:
                referer = urlsplit(request.headers.get("Referer", ""))
                page = f"{referer.path}?{referer.query}"
            served = Served(
                request.host, request.path, page, document, response.status, start, time.monotonic()
            )
            with self._lock:
                self.served.append(served)
            return response

        return handle

    def of(self, host: str) -> list[Served]:
        with self._lock:
            return sorted((s for s in self.served if s.host == host), key=lambda s: s.start)


def _item_page(request: Request) -> Response:
    number = request.params.get("id", "")
    return Response(
        body=f"""<!doctype html><title>Item {number}</title>
<h1>Item {number}</h1><img src="/img?id={number}" width="20" height="20"><p id="late"></p>
<script>
setTimeout(() => fetch("/late?id={number}").then(r => r.text()).then(t => {{
  document.getElementById("late").textContent = t;
}}), 1200);
</script>"""
    )


def _sites(log: Log) -> list[Site]:
    image = Response(body=b"GIF89a", content_type="image/gif")
    sites = []
    for host in ("paced.test", "delayed.test", "busy.test"):
        site = Site(host)
        site.routes["/p"] = log.handler(_item_page, document=True)
        site.routes["/img"] = log.handler(lambda r: image, document=False, pause_s=0.2)
        site.routes["/late"] = log.handler(
            lambda r: Response(body=f"late {r.params.get('id', '')}", content_type="text/plain"),
            document=False,
            pause_s=0.1,
        )
        sites.append(site)
    busy_calls = itertools.count()

    def busy_once(request: Request) -> Response:
        if next(busy_calls) == 0:
            return Response(503, "<h1>Busy</h1>", headers={"Retry-After": f"{RETRY_AFTER_S:g}"})
        return _item_page(request)

    sites[2].routes["/p"] = log.handler(busy_once, document=True)
    return sites


async def _render_all(server: SiteServer, browser: BrowserChoice, folder: Path) -> dict[str, Any]:
    config = dataclasses.replace(
        SUITE_CONFIG, delay_s=DELAY_S, jitter_s=0.2, per_host=1, concurrency=8
    )
    resolve = server.resolve()
    polite = politeness(config, resolve)
    limiter, retry_policy, robots = polite.limiter, polite.retry_policy, polite.robots
    limiter.set_crawl_delay("delayed.test", CRAWL_DELAY_S)  # as robots.txt would
    progress = Progress(enabled=False)
    peak = 0
    async with (
        RunStore(folder, scope="s", evidence_budget_bytes=0) as store,
        Renderer(
            config.render,
            executable=browser.executable,
            resolve=resolve,
            max_open_pages=config.concurrency,
        ) as renderer,
    ):
        runner = SampleRunner(
            config, renderer, store, limiter, robots, progress, retry_policy=retry_policy
        )
        counters = SiteCounters()
        pages = PatternPages(runner, counters)
        urls = [f"http://paced.test/p?id={n}" for n in range(8)]
        urls += [f"http://delayed.test/p?id={n}" for n in range(3)]
        urls += [f"http://busy.test/p?id={n}" for n in range(3)]
        work = asyncio.gather(*(pages.get(url) for url in urls))
        while not work.done():
            peak = max(peak, progress.rendering or 0)
            await asyncio.sleep(0.02)
        rendered = dict(zip(urls, await work, strict=True))
    return {"rendered": rendered, "peak": peak}


async def test_overlapping_pages_keep_every_rule_of_the_host_schedule(
    browser_choice: BrowserChoice, tmp_path: Path
) -> None:
    log = Log()
    with SiteServer(_sites(log)) as server:
        run = await _render_all(server, browser_choice, tmp_path)

    # Every page was captured whole, its late content included.
    for url, page in run["rendered"].items():
        assert page.rendering is not None, (url, page.shot.error)
        assert page.rendering.settled, (url, page.rendering.unsettled)
        assert f"late {url.rsplit('=', 1)[1]}" in page.rendering.text
    # Pages did overlap: more were open at once than the hosts' places.
    assert run["peak"] > 3

    for host, spacing in (
        ("paced.test", DELAY_S),
        ("delayed.test", CRAWL_DELAY_S),
        ("busy.test", DELAY_S),
    ):
        served = log.of(host)
        starts = [s.start for s in served if s.document]
        gaps = [b - a for a, b in itertools.pairwise(starts)]
        assert min(gaps) >= spacing - CLOCK_SLACK_S, (host, gaps)
        # One page at a time sends to the host: no two pages' requests were served at once.
        for a, b in itertools.combinations(served, 2):
            if a.page != b.page:
                assert a.end <= b.start or b.end <= a.start, (host, a, b)
        # Each page's late request came while the page was waiting: it waited for its host.
        pages = {s.page for s in served if s.document and s.status == 200}
        assert {s.page for s in served if s.path == "/late"} == pages

    busy = log.of("busy.test")
    refused = next(s for s in busy if s.status == 503)
    after = [s.start for s in busy if s.start > refused.start]
    assert after and min(after) >= refused.end + RETRY_AFTER_S
