"""The demo sites (a shop and a news site) and the page handlers the test fixture reuses.

``python -m learner demo`` serves :func:`demo_sites` and feeds :func:`demo_urls` to the
learner; ``docs/demo.md`` explains what each page is for.
"""

from __future__ import annotations

import html
import logging
import random
import time
from collections.abc import Callable

from learner.demo.pages import (
    Chrome,
    article_main,
    choose_product_main,
    href,
    not_found,
    product_main,
    product_name,
    render_page,
    robots_txt,
    sitemap_xml,
)
from learner.demo.server import Request, Response, Site

logger = logging.getLogger(__name__)

__all__ = [
    "DEMO_HOSTS",
    "add_article_pages",
    "add_shop_pages",
    "demo_sites",
    "demo_urls",
    "parse_number",
]

DEMO_HOSTS: tuple[str, ...] = ("news.example", "shop.example")

# Noise must differ on every load, whatever seed a test uses: it comes from the OS.
_NOISE = random.SystemRandom()


def parse_number(value: str | None, *, low: int, high: int) -> int | None:
    """``value`` as an integer in ``[low, high]``, else ``None``.

    Args:
        value: the raw query value.
        low: the smallest accepted number.
        high: the largest accepted number.

    >>> parse_number("7", low=1, high=9), parse_number("x", low=1, high=9)
    (7, None)
    """
    if value is None or not value.isdigit():
        return None
    number = int(value)
    return number if low <= number <= high else None


def add_shop_pages(site: Site, chrome: Chrome, *, products: int) -> None:
    """Register ``/product`` and ``/item`` on ``site``.

    ``/product?id=N&color=C``: ``id`` and ``color`` are content, any other parameter is
    ignored. ``/item?pid=N&sku=SKU-N``: ``pid`` and ``sku`` are redundant (either one finds
    the item, neither gives the "choose a product" page); other parameters are ignored.

    Args:
        site: the host to add the pages to.
        chrome: the host's look.
        products: products are numbered ``1..products``.
    """

    def choose() -> Response:
        links = [(product_name(n), href("/product", [("id", str(n))])) for n in (1, 2, 3)]
        return Response(200, render_page(chrome, title="Shop", main=choose_product_main(links)))

    def show(number: int, color: str | None) -> Response:
        page = render_page(chrome, title=product_name(number), main=product_main(number, color))
        return Response(200, page)

    @site.route("/product")
    def product(request: Request) -> Response:
        number = parse_number(request.params.get("id"), low=1, high=products)
        return choose() if number is None else show(number, request.params.get("color"))

    @site.route("/item")
    def item(request: Request) -> Response:
        number = parse_number(request.params.get("pid"), low=1, high=products)
        sku = request.params.get("sku", "")
        if number is None and sku.startswith("SKU-"):
            number = parse_number(sku[4:], low=1, high=products)
        return choose() if number is None else show(number, None)


def _noise_parts() -> tuple[str, str, str]:
    """Banner, footer and script HTML that change on every load (like real news sites)."""
    # The banner changes as a whole on every load (a random code across its width on a random
    # background), so two loads of one URL always show where the noise is; a banner picked
    # from a handful of variants would sometimes repeat and hide it.
    background = "rgb({},{},{})".format(*(_NOISE.randrange(190, 256) for _ in range(3)))
    code = f"{_NOISE.getrandbits(256):064x}"
    banner = (
        f'<div class="promo-banner" style="height:40px;padding:8px 32px;overflow:hidden;'
        f'white-space:nowrap;font:18px/40px monospace;background:{background}">'
        '<div class="carousel" style="display:inline-block;width:120px;height:20px;'
        'overflow:hidden;margin-right:24px;vertical-align:middle"><div style="width:360px;'
        "height:20px;background:linear-gradient(90deg,#e74c3c 33%,#3498db 33% 66%,#2ecc71 66%);"
        'animation:slide 3s steps(3) infinite"></div></div>'
        f"Reader offer &middot; code <code>{code}</code></div>"
    )
    clock = time.strftime("%H:%M:%S", time.gmtime()) + f".{_NOISE.randrange(1000):03d}"
    footer = (
        f'<p>Updated <time id="clock">{clock}</time> &middot; request '
        f'<span id="request-id">{_NOISE.getrandbits(64):016x}</span></p>'
    )
    script = (
        "<style>@keyframes slide{to{transform:translateX(-360px)}}</style>"
        # The clock ticks at once, then every 250 ms, so what a capture shows never depends on
        # how soon after load it was taken (the banner and request id vary on every load).
        "<script>(function(){var tick=function(){document.getElementById('clock').textContent="
        "new Date().toISOString().slice(11,23);};tick();setInterval(tick,250);})();</script>"
    )
    return banner, footer, script


def add_article_pages(site: Site, chrome: Chrome, *, stories: int) -> None:
    """Register ``/article?id=N``: ``id`` is content, the page is noisy, other parameters ignored.

    Every load shows a random banner with a small animated carousel, a live clock and a
    random request id: a render compared with itself already differs a little.

    Args:
        site: the host to add the page to.
        chrome: the host's look.
        stories: stories are numbered ``1..stories``.
    """

    @site.route("/article")
    def article(request: Request) -> Response:
        number = parse_number(request.params.get("id"), low=1, high=stories)
        banner, footer, script = _noise_parts()
        if number is None:
            main = "<h1>Story not found</h1><p>The story you asked for does not exist.</p>"
            status = 404
        else:
            main, status = article_main(number), 200
        page = render_page(
            chrome,
            title="News",
            main=main,
            before_main=banner,
            footer_extra=footer,
            body_end=script,
        )
        return Response(status, page)


def _home(
    chrome: Chrome, title: str, links: list[tuple[str, str]]
) -> Callable[[Request], Response]:
    items = "".join(
        f'<li><a href="{html.escape(url)}">{html.escape(label)}</a></li>' for label, url in links
    )

    def home(request: Request) -> Response:
        return Response(
            200, render_page(chrome, title=title, main=f"<h1>{title}</h1><ul>{items}</ul>")
        )

    return home


def _demo_shop() -> Site:
    host = "shop.example"
    chrome = Chrome("Example Shop", "Household goods, made to last", (("Home", "/"),), "#8e4b2b")
    site = Site(host)
    add_shop_pages(site, chrome, products=12)
    links = [(product_name(n), href("/product", [("id", str(n))])) for n in range(1, 4)]
    site.routes["/"] = _home(chrome, "Example Shop", links)
    robots = robots_txt(disallow=["/cart"], sitemaps=[f"http://{host}/sitemap.xml"])
    site.routes["/robots.txt"] = lambda request: Response(200, robots, "text/plain")
    sitemap = sitemap_xml(f"http://{host}{url}" for _, url in links)
    site.routes["/sitemap.xml"] = lambda request: Response(200, sitemap, "application/xml")
    return site


def _demo_news() -> Site:
    chrome = Chrome("Example News", "Local news, every day", (("Home", "/"),), "#1f4e79")
    site = Site("news.example")
    add_article_pages(site, chrome, stories=12)
    links = [(f"Story {n}", href("/article", [("id", str(n))])) for n in range(1, 4)]
    site.routes["/"] = _home(chrome, "Example News", links)
    robots = robots_txt()
    site.routes["/robots.txt"] = lambda request: Response(200, robots, "text/plain")
    return site


def demo_sites() -> list[Site]:
    """Build the demo's two hosts, ``shop.example`` and ``news.example``.

    >>> sorted(site.host for site in demo_sites())
    ['news.example', 'shop.example']
    """
    sites = [_demo_news(), _demo_shop()]
    for site in sites:
        site.routes.setdefault("/favicon.ico", not_found)
    return sites


def demo_urls() -> list[str]:
    """Return the demo's observed-URL log: three patterns, deterministic, distinct values.

    ``shop.example/product?id&sessionid`` (content, neutral), ``shop.example/item?pid&sku&src``
    (a redundant pair and a neutral one), ``news.example/article?id&share`` (content, neutral,
    on a noisy page).

    >>> urls = demo_urls()
    >>> len(urls), urls == demo_urls()
    (57, True)
    """
    rng = random.Random(2026)
    urls: list[str] = []
    for n in range(1, 13):
        for _ in range(2):
            urls.append(
                "http://shop.example"
                + href("/product", [("id", str(n)), ("sessionid", f"{rng.getrandbits(48):012x}")])
            )
    for n in range(1, 10):
        # Not values the static rules strip (src=email, src=feed are tracking there).
        source = rng.choice(("home", "search", "related", "banner", "cart", "sidebar"))
        urls.append(
            "http://shop.example"
            + href("/item", [("pid", str(n)), ("sku", f"SKU-{n}"), ("src", source)])
        )
    shares = ("1", "copy", "mail", "social", "app", "print", "sms")
    for n in range(1, 13):
        for share in rng.sample(shares, 2):
            urls.append(
                "http://news.example" + href("/article", [("id", str(n)), ("share", share)])
            )
    return sorted(set(urls))
