"""URL discovery against the fixture sites: exact results, and nothing disallowed requested."""

from __future__ import annotations

import functools
import gzip
from collections.abc import Iterator

import pytest

from learner.demo.server import LoggedRequest, Response, Site, SiteServer
from learner.net.discovery import discover, extract_links, parse_sitemap
from learner.net.fetch import fetch
from learner.net.robots import RobotsPolicy
from tests.site.fixture import NEVER_FETCHED

UA = "samepage-learner/0.2"


async def run(
    server: SiteServer, host: str, *, max_pages: int, max_urls: int = 100
) -> tuple[list[str], list[LoggedRequest]]:
    fetch_page = functools.partial(fetch, resolve=server.resolve(), user_agent=UA, timeout_s=5.0)
    before = len(server.requests)
    urls = await discover(
        f"http://{host}",
        fetch_page=fetch_page,
        robots=RobotsPolicy(fetch_page, UA),
        max_pages=max_pages,
        max_urls=max_urls,
    )
    return urls, server.requests[before:]


def requested(log: list[LoggedRequest]) -> list[str]:
    return [f"{r.host}{r.path}" + (f"?{r.query}" if r.query else "") for r in log]


async def test_shop_sitemaps_then_home_links(fixture_server: SiteServer) -> None:
    urls, log = await run(fixture_server, "shop.test", max_pages=1)
    assert urls == [
        # The sitemap index in robots.txt: products first, then the gzipped list sitemap.
        "http://shop.test/product?id=3&color=blue",
        "http://shop.test/product?id=4",
        "http://shop.test/item?pid=6&sku=SKU-6",
        "http://shop.test/list?page=2&sort=name",
        # Links of the home page, in document order.
        "http://shop.test/product?id=1&color=red",
        "http://shop.test/product?id=2&sessionid=s3ss10n",
        "http://shop.test/item?pid=5&sku=SKU-5&src=home",
        "http://shop.test/list?sort=price&page=1",
        # URLs without a query come last.
        "http://shop.test/about",
        "http://shop.test/",
        "http://shop.test/list",
    ]
    assert requested(log) == [
        "shop.test/robots.txt",
        "shop.test/sitemap.xml",
        "shop.test/sitemap-products.xml",
        "shop.test/sitemap-lists.xml.gz",
        "shop.test/",
    ]


async def test_disallowed_urls_are_neither_returned_nor_requested(
    fixture_server: SiteServer,
) -> None:
    for host, max_pages in (("shop.test", 30), ("news.test", 30)):
        urls, log = await run(fixture_server, host, max_pages=max_pages, max_urls=1000)
        prefixes = NEVER_FETCHED[host]
        assert not [url for url in urls if url.split(host, 1)[1].startswith(prefixes)]
        assert not [r for r in log if r.path.startswith(prefixes)]
        assert len(set(urls)) == len(urls)
        assert len([r for r in log if r.host == host and r.path not in ("/robots.txt",)]) <= (
            max_pages + 10
        )


async def test_news_falls_back_to_sitemap_xml_and_follows_redirects(
    fixture_server: SiteServer,
) -> None:
    urls, log = await run(fixture_server, "news.test", max_pages=20)
    assert urls == [
        "http://news.test/article?id=4&share=1",
        "http://news.test/article?id=5&share=1",
        # "&amp;amp=1" in the HTML is the parameter "amp", not a stray "&".
        "http://news.test/article?id=1&share=1&amp=1",
        "http://news.test/live?id=2",
        "http://news.test/go?id=3",
        "http://news.test/",
        "http://news.test/live",
    ]
    assert requested(log) == [
        "news.test/robots.txt",
        "news.test/sitemap.xml",
        "news.test/",
        "news.test/live",
        "news.test/article?id=1&share=1&amp=1",
        "news.test/live?id=2",
        "news.test/go?id=3",
        "news.test/article?id=3",  # the redirect target of /go?id=3
    ]


async def test_hostile_links_are_filtered(fixture_server: SiteServer) -> None:
    urls, log = await run(fixture_server, "hostile.test", max_pages=1)
    # mailto:, javascript:, #fragment, another host, ftp: and another port are all dropped.
    assert urls == [
        "http://hostile.test/alert?msg=1",
        "http://hostile.test/download?file=1",
        "http://hostile.test/popup?offer=1",
        "http://hostile.test/loop?step=1",
        "http://hostile.test/away?dest=1",
        "http://hostile.test/scheme?target=1",
        "http://hostile.test/slow?img=1",
        "http://hostile.test/busy?job=1",
        "http://hostile.test/huge?seed=1",
        "http://hostile.test/",
    ]
    # No robots.txt and no sitemap (404s): everything allowed, links from "/" only.
    assert requested(log) == [
        "hostile.test/robots.txt",
        "hostile.test/sitemap.xml",
        "hostile.test/",
    ]


async def test_hostile_walk_survives_every_trap(fixture_server: SiteServer) -> None:
    first, log = await run(fixture_server, "hostile.test", max_pages=50)
    again, _ = await run(fixture_server, "hostile.test", max_pages=50)
    assert first == again  # deterministic
    assert "http://hostile.test/popup-ad" not in first  # opened by script, never linked
    paths = [r.path for r in log]
    # Images are not links: the never-ending subresource is never requested.
    assert "/never" not in paths
    assert {"/download", "/loop", "/away", "/scheme", "/slow", "/busy", "/huge"} <= set(paths)


async def test_max_urls_stops_before_the_walk(fixture_server: SiteServer) -> None:
    urls, log = await run(fixture_server, "shop.test", max_pages=10, max_urls=3)
    assert urls == [
        "http://shop.test/product?id=3&color=blue",
        "http://shop.test/product?id=4",
        "http://shop.test/item?pid=6&sku=SKU-6",
    ]
    assert requested(log) == [
        "shop.test/robots.txt",
        "shop.test/sitemap.xml",
        "shop.test/sitemap-products.xml",
    ]


async def test_nothing_when_max_urls_is_zero(fixture_server: SiteServer) -> None:
    urls, log = await run(fixture_server, "shop.test", max_pages=10, max_urls=0)
    assert urls == [] and log == []


def _extra_sites() -> list[Site]:
    closed = Site("closed.test")
    closed.routes["/robots.txt"] = lambda r: Response(503, "down", "text/plain")
    closed.routes["/"] = lambda r: Response(200, '<a href="/a?x=1">a</a>')
    plain = Site("plain.test")
    plain.routes["/robots.txt"] = lambda r: Response(
        200, "User-agent: *\nSitemap: http://plain.test/urls.txt\n", "text/plain"
    )
    plain.routes["/urls.txt"] = lambda r: Response(
        200, "http://plain.test/p?id=1\n\nhttp://plain.test/p?id=2\n", "text/plain"
    )
    return [closed, plain]


@pytest.fixture(scope="module")
def extra_server() -> Iterator[SiteServer]:
    with SiteServer(_extra_sites()) as server:
        yield server


async def test_unreachable_robots_means_nothing_is_fetched(extra_server: SiteServer) -> None:
    urls, log = await run(extra_server, "closed.test", max_pages=10)
    assert urls == []
    assert requested(log) == ["closed.test/robots.txt"]


async def test_plain_text_sitemap(extra_server: SiteServer) -> None:
    urls, _ = await run(extra_server, "plain.test", max_pages=0)
    assert urls == ["http://plain.test/p?id=1", "http://plain.test/p?id=2"]


def test_parse_sitemap_index_and_gzip() -> None:
    index = (
        b'<?xml version="1.0"?><sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">'
        b"<sitemap><loc>http://h.test/a.xml</loc></sitemap></sitemapindex>"
    )
    assert parse_sitemap(gzip.compress(index)) == ([], ["http://h.test/a.xml"])
    assert parse_sitemap(b"<urlset><url><loc>x</loc></url") == ([], [])


def test_extract_links_honours_base_and_drops_fragments() -> None:
    page = '<base href="http://h.test/dir/"><a href="p?q=1#frag">p</a><area href="../r">'
    assert extract_links(page, "http://h.test/") == ["http://h.test/dir/p?q=1", "http://h.test/r"]


async def test_hostile_sitemap_and_link_urls_are_skipped_not_fatal() -> None:
    # urlsplit raises ValueError on a broken IPv6 literal: one such <loc> or link used to
    # end the whole crawl.
    site = Site("odd.test")
    hostile = ["http://[::1", "http://[zz]/p?id=1", "http://" + "a" * 64 + ".test/"]
    site.routes["/robots.txt"] = lambda r: Response(
        200, "User-agent: *\nAllow: /\nSitemap: http://[::1/sitemap.xml\n", "text/plain"
    )
    locs = "".join(f"<url><loc>{u}</loc></url>" for u in [*hostile, "http://odd.test/p?id=2"])
    site.routes["/sitemap.xml"] = lambda r: Response(
        200,
        f'<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">{locs}</urlset>',
        "application/xml",
    )
    links = "".join(f'<a href="{u}">x</a>' for u in [*hostile, "/p?id=3"])
    site.routes["/"] = lambda r: Response(200, f"<html><body>{links}</body></html>")
    with SiteServer([site]) as server:
        urls, _ = await run(server, "odd.test", max_pages=2)
    assert urls == ["http://odd.test/p?id=2", "http://odd.test/p?id=3", "http://odd.test/"]
