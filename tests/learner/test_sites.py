"""The fixture and demo sites themselves, over plain HTTP: the ground truth matches the pages."""

from __future__ import annotations

import difflib
import functools
import json
import re
from collections import defaultdict
from collections.abc import Iterator
from urllib.parse import parse_qsl, urlsplit

import pytest

from learner.demo.server import SiteServer
from learner.demo.sites import DEMO_HOSTS, demo_sites, demo_urls
from learner.errors import FetchError
from learner.net.fetch import FetchResult, fetch
from tests.site.fixture import (
    FIXTURE_HOSTS,
    HUGE_ROWS,
    NEVER_FETCHED,
    REDUNDANT,
    TRUTH,
    UNRENDERABLE,
    different_page_pairs,
    observed_urls,
    pattern_key,
    same_page_pairs,
)
from tests.site.fixture import url_pattern as fixture_pattern

UA = "samepage-test"
# The parts of a news page that change on every load.
_NOISE = re.compile(
    r'<div class="promo-banner".*?</code></div>|<time id="clock">[^<]*</time>'
    r'|<span id="request-id">[^<]*</span>'
)


async def get(server: SiteServer, url: str, **options: float) -> FetchResult:
    settings: dict[str, float] = {"timeout_s": 5.0, **options}
    return await fetch(url, resolve=server.resolve(), user_agent=UA, **settings)  # type: ignore[arg-type]


async def html_of(server: SiteServer, url: str) -> str:
    return _NOISE.sub("", (await get(server, url)).text())


def params(url: str) -> dict[str, str]:
    return dict(parse_qsl(urlsplit(url).query, keep_blank_values=True))


# ---------------------------------------------------------------- shop.test


async def test_product_id_and_color_are_content(fixture_server: SiteServer) -> None:
    base = await html_of(fixture_server, "http://shop.test/product?id=1&color=red")
    other_id = await html_of(fixture_server, "http://shop.test/product?id=2&color=red")
    other_color = await html_of(fixture_server, "http://shop.test/product?id=1&color=blue")
    no_color = await html_of(fixture_server, "http://shop.test/product?id=1")
    assert len({base, other_id, other_color, no_color}) == 4
    assert "Quiet Chair" in base and "Folding Kettle" in other_id
    assert "Colour: natural" in no_color
    no_id = await html_of(fixture_server, "http://shop.test/product?color=red")
    assert "Choose a product" in no_id


async def test_product_pages_share_their_boilerplate(fixture_server: SiteServer) -> None:
    one = await html_of(fixture_server, "http://shop.test/product?id=1&color=red")
    two = await html_of(fixture_server, "http://shop.test/product?id=2&color=blue")
    assert len(one) > 3000
    assert difflib.SequenceMatcher(None, one, two, autojunk=False).ratio() > 0.97


async def test_sessionid_and_trk_do_not_change_the_html(fixture_server: SiteServer) -> None:
    plain = await get(fixture_server, "http://shop.test/product?id=7&color=green")
    tracked = await get(
        fixture_server, "http://shop.test/product?id=7&color=green&sessionid=abc&trk=nl-1"
    )
    assert plain.body == tracked.body


async def test_pid_and_sku_are_redundant(fixture_server: SiteServer) -> None:
    both = await get(fixture_server, "http://shop.test/item?pid=9&sku=SKU-9&src=home")
    pid_only = await get(fixture_server, "http://shop.test/item?pid=9&src=mail")
    sku_only = await get(fixture_server, "http://shop.test/item?sku=SKU-9")
    neither = await get(fixture_server, "http://shop.test/item?src=home")
    assert both.body == pid_only.body == sku_only.body
    assert b"Choose a product" in neither.body and neither.body != both.body
    assert REDUNDANT["shop.test"]["pid&sku&src"] == {"pid", "sku"}


async def test_list_page_changes_only_below_the_hero(fixture_server: SiteServer) -> None:
    two = await html_of(fixture_server, "http://shop.test/list?page=2&sort=price&view=grid")
    three = await html_of(fixture_server, "http://shop.test/list?page=3&sort=price&view=list")
    top_two, _, bottom_two = two.partition('<section class="results">')
    top_three, _, bottom_three = three.partition('<section class="results">')
    assert top_two == top_three and bottom_two != bottom_three
    # The hero is taller than any first screen (the viewport is 800 px high).
    height = re.search(r'class="hero" style="height:(\d+)px', two)
    assert height is not None and int(height.group(1)) > 1000


async def test_list_sort_changes_the_first_screen(fixture_server: SiteServer) -> None:
    price = await html_of(fixture_server, "http://shop.test/list?page=2&sort=price")
    name = await html_of(fixture_server, "http://shop.test/list?page=2&sort=name")
    top_price = price.partition('<div class="hero"')[0]
    top_name = name.partition('<div class="hero"')[0]
    assert "Price, low to high" in top_price and "Name" in top_name
    assert top_price != top_name


async def test_shop_robots_and_sitemaps(fixture_server: SiteServer) -> None:
    robots = (await get(fixture_server, "http://shop.test/robots.txt")).text()
    assert "Disallow: /private\n" in robots
    assert "Sitemap: http://shop.test/sitemap.xml\n" in robots
    index = (await get(fixture_server, "http://shop.test/sitemap.xml")).text()
    assert "<sitemapindex" in index and "sitemap-lists.xml.gz" in index
    packed = await get(fixture_server, "http://shop.test/sitemap-lists.xml.gz")
    assert packed.body[:2] == b"\x1f\x8b"
    assert NEVER_FETCHED["shop.test"] == ("/private",)


# ---------------------------------------------------------------- news.test


async def test_article_is_noisy_but_share_and_amp_change_nothing_else(
    fixture_server: SiteServer,
) -> None:
    url = "http://news.test/article?id=5&share=1&amp=1"
    first, second = await get(fixture_server, url), await get(fixture_server, url)
    assert first.body != second.body  # the banner, the clock and the request id
    plain = await html_of(fixture_server, "http://news.test/article?id=5")
    assert await html_of(fixture_server, url) == plain
    assert await html_of(fixture_server, "http://news.test/article?id=5&share=mail&amp=0") == plain
    assert await html_of(fixture_server, "http://news.test/article?id=6&share=1&amp=1") != plain


async def test_live_page_is_rendered_client_side(fixture_server: SiteServer) -> None:
    one = await get(fixture_server, "http://news.test/live?id=1")
    two = await get(fixture_server, "http://news.test/live?id=2")
    assert one.body == two.body and b"fetch('/api/story?id='" in one.body
    story = json.loads((await get(fixture_server, "http://news.test/api/story?id=1")).body)
    other = json.loads((await get(fixture_server, "http://news.test/api/story?id=2")).body)
    assert story["headline"] != other["headline"]
    missing = await get(fixture_server, "http://news.test/api/story")
    assert missing.status == 404


async def test_go_redirects(fixture_server: SiteServer) -> None:
    with_id = await get(fixture_server, "http://news.test/go?id=8")
    without = await get(fixture_server, "http://news.test/go")
    assert with_id.final_url == "http://news.test/article?id=8"
    assert without.final_url == "http://news.test/"


# ---------------------------------------------------------------- hostile.test


async def test_hostile_pages(fixture_server: SiteServer) -> None:
    alert = (await get(fixture_server, "http://hostile.test/alert?msg=1")).text()
    assert "alert(" in alert and "confirm(" in alert and "beforeunload" in alert
    download = await get(fixture_server, "http://hostile.test/download?file=1")
    assert download.headers["content-disposition"].startswith("attachment")
    assert "window.open(" in (await get(fixture_server, "http://hostile.test/popup?offer=1")).text()
    assert "while (true)" in (await get(fixture_server, "http://hostile.test/busy?job=1")).text()
    away = await get(fixture_server, "http://hostile.test/away?dest=1")
    assert urlsplit(away.final_url).hostname == "elsewhere.test"
    huge = (await get(fixture_server, "http://hostile.test/huge?seed=1")).text()
    assert huge.count("<li>") >= HUGE_ROWS


async def test_hostile_redirects_fail(fixture_server: SiteServer) -> None:
    with pytest.raises(FetchError, match="redirects"):
        await get(fixture_server, "http://hostile.test/loop?step=1")
    with pytest.raises(FetchError, match="file:"):
        await get(fixture_server, "http://hostile.test/scheme?target=1")


async def test_slow_page_has_a_never_ending_subresource(fixture_server: SiteServer) -> None:
    page = (await get(fixture_server, "http://hostile.test/slow?img=3")).text()
    assert '<img src="/never?img=3"' in page
    with pytest.raises(FetchError, match="timed out"):
        await get(fixture_server, "http://hostile.test/never?img=3", timeout_s=0.2)


# ---------------------------------------------------------------- the ground truth


def test_truth_covers_exactly_the_observed_patterns() -> None:
    urls = observed_urls()
    assert urls == observed_urls()
    assert 300 <= len(urls) == len(set(urls))
    seen: dict[str, set[str]] = defaultdict(set)
    for url in urls:
        host, key = fixture_pattern(url)
        seen[host].add(key)
    assert sorted(seen) == sorted(FIXTURE_HOSTS) == sorted(TRUTH)
    for host, patterns in TRUTH.items():
        assert seen[host] == set(patterns)
        for key, verdicts in patterns.items():
            assert pattern_key(list(verdicts)) == key


def test_observed_values_are_varied() -> None:
    values: dict[tuple[str, str, str], set[str]] = defaultdict(set)
    for url in observed_urls():
        host, key = fixture_pattern(url)
        for name, value in params(url).items():
            values[(host, key, name)].add(value)
    for host, patterns in TRUTH.items():
        for key, verdicts in patterns.items():
            for name in verdicts:
                assert len(values[(host, key, name)]) >= 3, (host, key, name)


def test_hostile_parameters_are_never_neutral() -> None:
    assert all(v == "non-neutral" for p in TRUTH["hostile.test"].values() for v in p.values())
    assert UNRENDERABLE["hostile.test"] == set(TRUTH["hostile.test"]) - {"msg", "offer"}


def _differing(a: str, b: str) -> set[str]:
    pa, pb = params(a), params(b)
    return {name for name in pa.keys() | pb.keys() if pa.get(name) != pb.get(name)}


def test_pairs_agree_with_the_truth() -> None:
    for a, b in same_page_pairs():
        host, key = fixture_pattern(a)
        assert fixture_pattern(b) == (host, key)
        assert {TRUTH[host][key][name] for name in _differing(a, b)} == {"neutral"}
    for a, b in different_page_pairs():
        host, key = fixture_pattern(a)
        assert fixture_pattern(b) == (host, key)
        assert "non-neutral" in {TRUTH[host][key][name] for name in _differing(a, b)}


async def test_same_page_pairs_serve_the_same_page(fixture_server: SiteServer) -> None:
    for a, b in same_page_pairs():
        assert await html_of(fixture_server, a) == await html_of(fixture_server, b), (a, b)


async def test_different_page_pairs_serve_different_pages(fixture_server: SiteServer) -> None:
    for a, b in different_page_pairs():
        if urlsplit(a).path == "/live":  # the difference arrives from the API after load
            story = [params(u)["id"] for u in (a, b)]
            bodies = [
                await get(fixture_server, f"http://news.test/api/story?id={i}") for i in story
            ]
            assert bodies[0].body != bodies[1].body
            continue
        first, second = await get(fixture_server, a), await get(fixture_server, b)
        assert _NOISE.sub("", first.text()) != _NOISE.sub("", second.text()), (a, b)
        assert first.final_url != second.final_url or first.body != second.body


# ---------------------------------------------------------------- the demo


@pytest.fixture(scope="module")
def demo_server() -> Iterator[SiteServer]:
    with SiteServer(demo_sites()) as server:
        yield server


def test_demo_log_has_three_patterns() -> None:
    urls = demo_urls()
    assert urls == demo_urls() and len(urls) == len(set(urls))
    patterns = {fixture_pattern(url) for url in urls}
    assert patterns == {
        ("shop.example", "id&sessionid"),
        ("shop.example", "pid&sku&src"),
        ("news.example", "id&share"),
    }
    assert {urlsplit(url).hostname for url in urls} == set(DEMO_HOSTS)


async def test_demo_pages_match_their_story(demo_server: SiteServer) -> None:
    fetch_page = functools.partial(
        fetch, resolve=demo_server.resolve(), user_agent=UA, timeout_s=5.0
    )
    product = (await fetch_page("http://shop.example/product?id=3&sessionid=a")).body
    assert product == (await fetch_page("http://shop.example/product?id=3&sessionid=b")).body
    assert product != (await fetch_page("http://shop.example/product?id=4&sessionid=a")).body
    item = (await fetch_page("http://shop.example/item?pid=2&sku=SKU-2&src=cart")).body
    assert item == (await fetch_page("http://shop.example/item?sku=SKU-2")).body
    assert item == (await fetch_page("http://shop.example/item?pid=2")).body
    assert b"Choose a product" in (await fetch_page("http://shop.example/item?src=cart")).body
    article = [
        _NOISE.sub("", (await fetch_page(url)).text())
        for url in ("http://news.example/article?id=2&share=1", "http://news.example/article?id=2")
    ]
    assert article[0] == article[1]
    robots = (await fetch_page("http://shop.example/robots.txt")).text()
    assert "Sitemap: http://shop.example/sitemap.xml" in robots
