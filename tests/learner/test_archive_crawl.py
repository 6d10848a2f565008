"""``crawl --archive``: archived captures with one payload digest replace renders, in Chromium.

The site's ``ref`` parameter changes nothing. The index holds 2xx captures of two samples'
URLs with the same digest (those samples are not rendered), one pair with differing digests
and one pair three days apart (both rendered as without an archive).
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from learner.config import LearnerConfig
from learner.demo.server import Request, Response, Site, SiteServer
from learner.judge.archive import load_archive
from learner.plan.targets import parse_target
from learner.render.browser import BrowserChoice
from learner.report.build import write_report
from learner.run.crawl import CrawlResult, crawl
from tests.archive_fixtures import Shot, write_cdxj
from tests.plugins.crawl import CONFIG

pytestmark = pytest.mark.browser

HOST = "arch.test"
URLS = [f"http://{HOST}/p?id={n}&ref={'abcd'[n - 1]}" for n in range(1, 5)]
PAGE = b"<h1>archived</h1>"
SHOTS = [
    # Samples 1 and 2 of ref: both captures 2xx, one digest, minutes apart.
    Shot(URLS[0], "20240101000000", PAGE),
    Shot(f"http://{HOST}/p?id=1", "20240101000500", PAGE),
    Shot(URLS[1], "20240101000000", PAGE + b"2"),
    Shot(f"http://{HOST}/p?id=2", "20240101001000", PAGE + b"2", revisit=True),
    # Sample 3: differing digests prove nothing.
    Shot(URLS[2], "20240101000000", PAGE + b"3"),
    Shot(f"http://{HOST}/p?id=3", "20240101000000", PAGE + b"3, with a token"),
    # Sample 4: one digest, but three days apart.
    Shot(URLS[3], "20240101000000", PAGE + b"4"),
    Shot(f"http://{HOST}/p?id=4", "20240104000000", PAGE + b"4"),
]
CONFIG_4 = LearnerConfig(
    samples=4, min_samples=3, delay_s=0.0, jitter_s=0.0, concurrency=2, render=CONFIG.render
)


def _site() -> Site:
    site = Site(HOST)

    @site.route("/p")
    def page(request: Request) -> Response:
        item = request.params.get("id", "none")
        return Response(body=f"<html><body><h1>Item {item}</h1><p>In stock.</p></body></html>")

    return site


async def _run(
    server: SiteServer,
    browser: BrowserChoice,
    folder: Path,
    index: Path | None,
    observed: list[str] = URLS,
) -> tuple[CrawlResult, list[str]]:
    before = len(server.requests)
    result = await crawl(
        [parse_target(f"http://{HOST}")],
        config=CONFIG_4,
        out=folder / "learned.json",
        cache=folder / "run",
        observed=observed,
        resolve=server.resolve(),
        browser=browser.executable,
        archive=load_archive([str(index)]) if index is not None else None,
    )
    queries = [r.query for r in server.requests[before:] if r.path == "/p"]
    return result, queries


def _domain(result: CrawlResult) -> dict[str, Any]:
    return result.learned.domains[HOST].to_json()


def _verdicts(result: CrawlResult) -> dict[str, str]:
    params = result.learned.domains[HOST].patterns["id&ref"].params
    return {name: v.verdict for name, v in params.items()}


async def test_archive_evidence_replaces_renders_and_a_differing_digest_is_rendered(
    browser_choice: BrowserChoice, tmp_path: Path
) -> None:
    index = write_cdxj(tmp_path / "index.cdxj", SHOTS)
    with SiteServer([_site()]) as server:
        plain, plain_queries = await _run(server, browser_choice, tmp_path / "plain", None)
        archived, queries = await _run(server, browser_choice, tmp_path / "archived", index)

    assert _verdicts(plain) == _verdicts(archived) == {"id": "non-neutral", "ref": "neutral"}
    assert archived.stats["archive_samples"] == 2 and plain.stats["archive_samples"] == 0
    # The two samples the archive decided were not rendered; the other two were.
    assert {"id=1", "id=2"} <= set(plain_queries)
    assert "id=1" not in queries and "id=2" not in queries
    assert {"id=3", "id=4"} <= set(queries)
    assert archived.stats["renders"] <= plain.stats["renders"] - 2
    samples = _domain(archived)["patterns"]["id&ref"]["params"]["ref"]["samples"]
    from_archive = {s["candidate"] for s in samples if s.get("from") == "archive"}
    assert from_archive == {f"http://{HOST}/p?id=1", f"http://{HOST}/p?id=2"}
    pairs = [
        json.loads(line)["pair"]
        for line in (tmp_path / "archived" / "run" / "checkpoint.jsonl").read_text().splitlines()
    ]
    third = next(p for p in pairs if p["candidate"] == f"http://{HOST}/p?id=3")
    assert third["cause"] != "archive-same" and third["evidence"]["renders"]["candidate"] >= 1
    first = next(p for p in pairs if p["candidate"] == f"http://{HOST}/p?id=1")
    captures = first["evidence"]["archive"]
    assert (captures["original"]["url"], captures["candidate"]["url"]) == (
        URLS[0],
        f"http://{HOST}/p?id=1",
    )
    # The report says which samples the archive decided, with both captures.
    index_page = write_report(tmp_path / "archived" / "run", tmp_path / "report")
    html = "".join(p.read_text() for p in index_page.parent.rglob("*.html"))
    assert html.count("from the archive:") == 2
    assert captures["original"]["digest"] in html and "20240101000500" in html


async def test_a_resumed_archive_run_decides_as_an_uninterrupted_one(
    browser_choice: BrowserChoice, tmp_path: Path
) -> None:
    index = write_cdxj(tmp_path / "index.cdxj", SHOTS)
    with SiteServer([_site()]) as server:
        whole, _ = await _run(server, browser_choice, tmp_path / "whole", index)
        # An interrupted run: its checkpoint holds the first three comparisons only.
        shutil.copytree(tmp_path / "whole", tmp_path / "cut")
        checkpoint = tmp_path / "cut" / "run" / "checkpoint.jsonl"
        lines = checkpoint.read_text().splitlines(keepends=True)
        checkpoint.write_text("".join(lines[:3]))
        (tmp_path / "cut" / "learned.json").unlink()
        resumed, _ = await _run(server, browser_choice, tmp_path / "cut", index)
        # The same folder without the archive: its archive outcomes are judged afresh.
        shutil.copytree(tmp_path / "whole", tmp_path / "again")
        (tmp_path / "again" / "learned.json").unlink()
        again, queries = await _run(server, browser_choice, tmp_path / "again", None)
    assert _domain(resumed)["patterns"] == _domain(whole)["patterns"]
    assert resumed.stats["resumed_comparisons"] >= 1
    assert {"id=1", "id=2"} <= set(queries)
    assert again.stats["archive_samples"] == 0
    assert _verdicts(again) == _verdicts(whole)
    samples = _domain(again)["patterns"]["id&ref"]["params"]["ref"]["samples"]
    assert not [s for s in samples if s.get("from") == "archive"]


async def test_a_page_whose_scripts_read_the_url_is_rendered_whatever_the_digests(
    browser_choice: BrowserChoice, tmp_path: Path
) -> None:
    # The server sends one body for every tab; the page's script shows the tab it is asked
    # for. Equal digests prove equal bytes, not an equal page: every sample is rendered.
    body = (
        "<html><body><h1>Account</h1><p id=t></p><script>document.getElementById('t')"
        ".textContent = 'Tab: ' + (new URLSearchParams(location.search).get('tab') || 'home')"
        "</script></body></html>"
    )
    site = Site(HOST)
    site.routes["/js"] = lambda request: Response(body=body)
    urls = [f"http://{HOST}/js?id={n}&tab={'abcd'[n - 1]}" for n in range(1, 5)]
    shots = [Shot(u, "20240101000000", body.encode()) for u in urls]
    shots += [
        Shot(f"http://{HOST}/js?id={n}", "20240101000000", body.encode()) for n in range(1, 5)
    ]
    index = write_cdxj(tmp_path / "index.cdxj", shots)
    with SiteServer([site]) as server:
        result, _ = await _run(server, browser_choice, tmp_path, index, urls)
    tab = result.learned.domains[HOST].patterns["id&tab"].params["tab"]
    assert tab.verdict == "non-neutral" and tab.changed >= 1
    assert result.stats["archive_samples"] == 0
