"""``crawl --archive`` in Chromium: digests decide only where equal bytes prove an equal page.

A local site of attack pages whose HTML bytes depend on the path (and ``id``) alone while the
page itself shows another parameter to the reader: a script that writes it and removes itself, an
``onerror`` handler inside a declarative shadow root, a ``<body onload>`` that removes its
own attribute, the same bytes served as ``text/plain`` for one spelling, a style sheet that
reads the page's URL from its ``Referer``. A truthful index (fetched from the site) holds
one digest for each page with and without the parameter; none of those parameters may come
out neutral, and the account must say why the archive did not decide them. A static page
(``/static``, whose ``ref`` changes nothing) is still decided from the archive, and a stale
index (captured before the server began to show ``xt``) is refused by the live digest.
"""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, urlsplit

import pytest

from learner.config import LearnerConfig
from learner.demo.server import Request, Response, Site, SiteServer
from learner.judge.archive import load_archive
from learner.plan.sampling import without_param
from learner.plan.targets import parse_target
from learner.render.browser import BrowserChoice
from learner.report.build import write_report
from learner.run.crawl import CrawlResult, crawl
from tests.archive_fixtures import live_index
from tests.plugins.crawl import CONFIG

pytestmark = pytest.mark.browser

HOST = "arch.test"
CONFIG_3 = LearnerConfig(
    samples=3, min_samples=3, delay_s=0.0, jitter_s=0.0, concurrency=2, render=CONFIG.render
)
READ = "new URLSearchParams(location.search).get('{0}') || 'none'"


def _html(request: Request, *, head: str = "", body: str = "<body>", end: str = "") -> str:
    """A page of the request's path whose bytes depend on ``id`` alone."""
    item = f"{request.path[1:]} {request.params.get('id', 'none')}"
    return (
        f'<!DOCTYPE html><html><head><meta charset="utf-8"><title>Item {item}</title>'
        f"<style>h1{{font:32px sans-serif}}</style>{head}</head>{body}<h1>Item {item}</h1>"
        f'<p id="v">Value: none</p>{end}</body></html>'
    )


def _script(request: Request) -> Response:
    code = f"document.getElementById('v').textContent = 'Value: ' + ({READ.format('xs')});"
    script = f"<script>{code}document.currentScript.remove()</script>"
    return Response(body=_html(request, end=script))


def _shadow(request: Request) -> Response:
    # querySelector does not look inside a shadow root: only the bytes show the handler.
    shown = "this.getRootNode().host.previousElementSibling.textContent"
    show = f"{shown} = 'Value: ' + ({READ.format('xh')})"
    root = (
        '<div><template shadowrootmode="open">'
        f'<img src="data:," alt="" onerror="{show}"></template></div>'
    )
    return Response(body=_html(request, end=root))


def _onload(request: Request) -> Response:
    code = (
        f"document.getElementById('v').textContent = 'Value: ' + ({READ.format('xo')});"
        "document.body.removeAttribute('onload')"
    )
    return Response(body=_html(request, body=f'<body onload="{code}">'))


def _plain(request: Request) -> Response:
    kind = "text/html" if "xp" in request.params else "text/plain"
    return Response(body=_html(request), content_type=f"{kind}; charset=utf-8")


def _styled(request: Request) -> Response:
    return Response(body=_html(request, head='<link rel="stylesheet" href="/style.css">'))


def _style(request: Request) -> Response:
    # The style sheet reads the page's URL from the Referer header: the page's bytes do not.
    page = dict(parse_qsl(urlsplit(request.headers.get("Referer", "")).query))
    css = f'#v::after {{ content: " / {page.get("xc", "none")}" }}'
    return Response(body=css, content_type="text/css")


def _stale(request: Request) -> Response:
    # The live server shows xt; the stale index was captured before it did.
    shown = request.params.get("xt", "none")
    return Response(body=_html(request).replace("Value: none", f"Value: {shown}"))


def _static(request: Request) -> Response:
    return Response(body=_html(request))


PAGES: dict[str, tuple[str, Callable[[Request], Response]]] = {
    "/script": ("xs", _script),
    "/shadow": ("xh", _shadow),
    "/onload": ("xo", _onload),
    "/plain": ("xp", _plain),
    "/styled": ("xc", _styled),
    "/stale": ("xt", _stale),
    "/static": ("ref", _static),
}
OBSERVED = [
    f"http://{HOST}{path}?{name}={value}" for path, (name, _) in PAGES.items() for value in "abc"
]


def _archive_site() -> Site:
    site = Site(HOST)
    for path, (_, handler) in PAGES.items():
        site.routes[path] = handler
    site.routes["/style.css"] = _style
    return site


def _captured() -> list[str]:
    """What the archive crawled: the observed URLs, each without its parameter (what the
    samples compare), and another page of each path (``?id=9``), so that the path's bytes
    are seen to vary with the query."""
    urls = dict.fromkeys(OBSERVED)
    for url in OBSERVED:
        urls[without_param(url, PAGES[urlsplit(url).path][0])] = None
    for path in PAGES:
        urls[f"http://{HOST}{path}?id=9"] = None
    return list(urls)


def _stale_bodies(urls: list[str], *, only: str | None) -> dict[str, bytes]:
    """What the server sent before it showed the tested parameter: one body for both URLs."""
    bodies = {}
    for url in urls:
        parts = urlsplit(url)
        if only is None or parts.path == only:
            item = dict(parse_qsl(parts.query)).get("id", "none")
            bodies[url] = f"<h1>Item {parts.path[1:]} {item}, as it was</h1>".encode()
    return bodies


async def _run(
    server: SiteServer, browser: BrowserChoice, folder: Path, index: Path | None
) -> tuple[CrawlResult, list[str]]:
    before = len(server.requests)
    result = await crawl(
        [parse_target(f"http://{HOST}")],
        config=CONFIG_3,
        out=folder / "learned.json",
        cache=folder / "run",
        observed=OBSERVED,
        resolve=server.resolve(),
        browser=browser.executable,
        archive=load_archive([str(index)]) if index is not None else None,
    )
    requests = [f"{r.path}?{r.query}" for r in server.requests[before:]]
    return result, requests


def _verdicts(result: CrawlResult) -> dict[str, str]:
    patterns = result.learned.domains[HOST].patterns
    return {name: patterns[name].params[name].verdict for name, _ in PAGES.values()}


def _archive_samples(result: CrawlResult) -> list[dict[str, Any]]:
    patterns = result.learned.domains[HOST].to_json()["patterns"]
    return [
        sample
        for entry in patterns.values()
        for verdict in entry["params"].values()
        for sample in verdict.get("samples", [])
        if sample.get("from") == "archive"
    ]


NEUTRAL = {"ref": "neutral"}
CHANGING = {name: "non-neutral" for name, _ in PAGES.values() if name != "ref"}


async def test_a_truthful_index_decides_the_static_page_and_no_attack(
    browser_choice: BrowserChoice, tmp_path: Path
) -> None:
    with SiteServer([_archive_site()]) as server:
        urls = _captured()
        truthful = await live_index(tmp_path / "truthful.cdxj", urls, server.resolve())
        # /stale alone was captured before the server showed xt.
        stale = _stale_bodies(urls, only="/stale")
        index = await live_index(tmp_path / "mixed.cdxj", urls, server.resolve(), bodies=stale)
        assert truthful.read_bytes() != index.read_bytes()
        result, requests = await _run(server, browser_choice, tmp_path / "whole", index)
        # An interrupted run: its checkpoint holds the first half of the comparisons.
        shutil.copytree(tmp_path / "whole", tmp_path / "cut")
        checkpoint = tmp_path / "cut" / "run" / "checkpoint.jsonl"
        lines = checkpoint.read_text().splitlines(keepends=True)
        checkpoint.write_text("".join(lines[: len(lines) // 2]))
        (tmp_path / "cut" / "learned.json").unlink()
        resumed, _ = await _run(server, browser_choice, tmp_path / "cut", index)

    assert _verdicts(result) == {**CHANGING, **NEUTRAL}
    # The static page's ref samples came from the archive: their candidates were not fetched.
    decided = _archive_samples(result)
    assert result.stats["archive_samples"] == len(decided) == 3
    assert {urlsplit(s["candidate"]).path for s in decided} == {"/static"}
    for sample in decided:
        parts = urlsplit(sample["candidate"])
        assert f"{parts.path}?{parts.query}" not in requests
    # The account says why each attack was not decided from the archive.
    refused = result.stats["archive_refused"]
    assert refused["not-static"] == 4 and refused["media-type"] >= 1 and refused["stale"] >= 1
    assert set(result.stats["archive_doubts"]) == {"script", "template", "event-handler", "loads"}
    domain = result.stats["domains"][HOST]
    assert domain["archive_refused"] == refused and domain["archive_samples"] == 3
    # The report shows the archive's samples with both captures.
    page = write_report(tmp_path / "whole" / "run", tmp_path / "report")
    html = "".join(p.read_text() for p in page.parent.rglob("*.html"))
    assert html.count("from the archive:") == 3
    # A resumed run decides as the whole one did.
    patterns = result.learned.domains[HOST].to_json()["patterns"]
    assert resumed.learned.domains[HOST].to_json()["patterns"] == patterns
    assert resumed.stats["resumed_comparisons"] >= 1


async def test_a_stale_index_decides_nothing(browser_choice: BrowserChoice, tmp_path: Path) -> None:
    with SiteServer([_archive_site()]) as server:
        urls = _captured()
        bodies = _stale_bodies(urls, only=None)
        stale = await live_index(tmp_path / "stale.cdxj", urls, server.resolve(), bodies=bodies)
        result, _ = await _run(server, browser_choice, tmp_path / "stale", stale)
    assert _verdicts(result) == {**CHANGING, **NEUTRAL}
    assert result.stats["archive_samples"] == 0
    # Every pair with one digest and one media type is refused by the live digest.
    refused = result.stats["archive_refused"]
    assert refused["stale"] >= len(PAGES) - 1 and "not-static" not in refused
