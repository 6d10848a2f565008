"""The test web: ``shop.test``, ``news.test`` and ``hostile.test``, and their ground truth.

Each host holds the traps the learner must survive. ``TRUTH`` says, per host and pattern key
(sorted parameter names joined by ``&``), which parameters are neutral; the end-to-end tests
compare what the learner finds with it, and feed ``same_page_pairs()`` and
``different_page_pairs()`` to the normalizer built from the learned file.
"""

from __future__ import annotations

import gzip
import html
import random
from collections.abc import Iterator, Sequence
from urllib.parse import parse_qsl, urlsplit

from learner.demo.pages import (
    COLORS,
    Chrome,
    href,
    json_response,
    listing_main,
    product_name,
    product_price,
    redirect,
    render_page,
    robots_txt,
    sitemap_index_xml,
    sitemap_xml,
    story,
)
from learner.demo.server import Request, Response, Site
from learner.demo.sites import add_article_pages, add_shop_pages, parse_number
from samepage.learned import Verdict

__all__ = [
    "ELSEWHERE",
    "FIXTURE_HOSTS",
    "NEVER_FETCHED",
    "REDUNDANT",
    "TRUTH",
    "UNRENDERABLE",
    "different_page_pairs",
    "fixture_sites",
    "observed_urls",
    "pattern_key",
    "same_page_pairs",
    "url_pattern",
]


FIXTURE_HOSTS: tuple[str, ...] = ("hostile.test", "news.test", "shop.test")
# Served too, only as the target of hostile.test's cross-host redirect (never studied).
ELSEWHERE = "elsewhere.test"

PRODUCTS = 40
STORIES = 30
PAGE_SIZE = 10
HUGE_ROWS = 30_000
# How long a never-finishing subresource holds its connection (unless the server stops).
STALL_S = 30.0

N: Verdict = "neutral"
C: Verdict = "non-neutral"

TRUTH: dict[str, dict[str, dict[str, Verdict]]] = {
    "shop.test": {
        "color&id&sessionid&trk": {"color": C, "id": C, "sessionid": N, "trk": N},
        # pid and sku are redundant: each alone looks neutral, removing both changes the page.
        "pid&sku&src": {"pid": C, "sku": C, "src": N},
        # page changes only what is below the first screen.
        "page&sort&view": {"page": C, "sort": C, "view": N},
        # /private is disallowed by robots.txt: nothing can be tested, nothing may be dropped.
        "account&token": {"account": C, "token": C},
    },
    "news.test": {
        "amp&id&share": {"amp": N, "id": C, "share": N},
        # /live?id= (rendered client-side) and /go?id= (a redirect) share this pattern.
        "id": {"id": C},
    },
    "hostile.test": {
        "dest": {"dest": C},  # redirects to another host
        "file": {"file": C},  # a download
        "img": {"img": C},  # a subresource that never finishes
        "job": {"job": C},  # a busy script after load
        "msg": {"msg": C},  # alert and confirm on load
        "offer": {"offer": C},  # window.open on load
        "seed": {"seed": C},  # tens of thousands of elements
        "step": {"step": C},  # a redirect loop
        "target": {"target": C},  # a redirect to file:
    },
}

# hostile.test patterns whose pages cannot be rendered to a settled screenshot: the learner must
# refuse them (download, redirect loop, other host, file: scheme) or time out (a subresource
# that never ends, a busy main thread, a huge page), so every sample fails. The alert and
# pop-up pages do render once dialogs are dismissed and pop-ups ignored; their parameter
# changes the heading, so they come out non-neutral through a real change.
UNRENDERABLE: dict[str, frozenset[str]] = {
    "hostile.test": frozenset({"dest", "file", "img", "job", "seed", "step", "target"})
}

# Parameters of which the learner must keep at least one (each alone names the item).
REDUNDANT: dict[str, dict[str, frozenset[str]]] = {
    "shop.test": {"pid&sku&src": frozenset({"pid", "sku"})}
}

# Path prefixes robots.txt disallows: they must never appear in the server's request log.
NEVER_FETCHED: dict[str, tuple[str, ...]] = {"shop.test": ("/private",), "news.test": ("/admin",)}

_SORTS = {
    "price": "Price, low to high",
    "name": "Name",
    "newest": "Newest first",
    "rating": "Best rated",
}
_VIEWS = ("grid", "list", "compact")
# None of these is a tracking value of the static rules (which strip src=email, src=feed...).
_SOURCES = ("home", "search", "related", "banner", "app", "partner", "cart", "sidebar")
_SHARES = ("1", "copy", "mail", "social", "app", "print")
_AMPS = ("1", "0", "true", "yes")


def pattern_key(names: Sequence[str]) -> str:
    """The sorted, de-duplicated parameter names joined by ``&``.

    >>> pattern_key(["trk", "id", "color", "id"])
    'color&id&trk'
    """
    return "&".join(sorted(set(names)))


def url_pattern(url: str) -> tuple[str, str]:
    """``(host, pattern key)`` of an absolute URL."""
    parts = urlsplit(url)
    names = [name for name, _ in parse_qsl(parts.query, keep_blank_values=True)]
    return parts.hostname or "", pattern_key(names)


def _text(body: str) -> Response:
    return Response(200, body, "text/plain; charset=utf-8")


def _xml(body: str) -> Response:
    return Response(200, body, "application/xml")


def _links(items: Sequence[tuple[str, str]]) -> str:
    return "".join(
        f'<li><a href="{html.escape(url)}">{html.escape(label)}</a></li>' for label, url in items
    )


# ---------------------------------------------------------------- shop.test


def _sorted_products(sort: str | None) -> list[int]:
    numbers = list(range(1, PRODUCTS + 1))
    keys = {
        "price": lambda n: (float(product_price(n)), n),
        "name": lambda n: (product_name(n), n),
        "newest": lambda n: (-n, n),
        "rating": lambda n: ((n * 17) % PRODUCTS, n),
    }
    key = keys.get(sort or "")
    return sorted(numbers, key=key) if key else numbers


def _shop() -> Site:
    host = "shop.test"
    chrome = Chrome(
        "Test Shop",
        "Everything for the home",
        (("Home", "/"), ("All products", "/list"), ("About", "/about"), ("My account", "/private")),
        "#8e4b2b",
    )
    site = Site(host)
    add_shop_pages(site, chrome, products=PRODUCTS)

    @site.route("/list")
    def listing(request: Request) -> Response:
        sort = request.params.get("sort")
        page = parse_number(request.params.get("page"), low=1, high=999) or 1
        order = _sorted_products(sort)
        start = (page - 1) * PAGE_SIZE
        items = [order[(start + i) % PRODUCTS] for i in range(PAGE_SIZE)]
        links = [(product_name(n), href("/product", [("id", str(n))])) for n in items]
        main = listing_main(sort_label=_SORTS.get(sort or "", "Relevance"), page=page, items=links)
        return Response(200, render_page(chrome, title="All products", main=main))

    @site.route("/private")
    def private(request: Request) -> Response:
        account = html.escape(request.params.get("account", "you"))
        main = f"<h1>Account {account}</h1><p>Orders, addresses and payment cards.</p>"
        return Response(200, render_page(chrome, title="My account", main=main))

    @site.route("/about")
    def about(request: Request) -> Response:
        main = "<h1>About us</h1><p>A family business since 1987.</p>"
        return Response(200, render_page(chrome, title="About", main=main))

    home_links = [
        ("Quiet Chair in red", href("/product", [("id", "1"), ("color", "red")])),
        ("Folding Kettle", href("/product", [("id", "2"), ("sessionid", "s3ss10n")])),
        ("Item 5", href("/item", [("pid", "5"), ("sku", "SKU-5"), ("src", "home")])),
        ("Cheapest first", href("/list", [("sort", "price"), ("page", "1")])),
        ("Account settings", href("/private", [("account", "me"), ("token", "abc")])),
        ("About", "/about#team"),
    ]

    @site.route("/")
    def home(request: Request) -> Response:
        main = f"<h1>Welcome</h1><ul>{_links(home_links)}</ul>"
        return Response(200, render_page(chrome, title="Home", main=main))

    origin = f"http://{host}"
    robots = robots_txt(disallow=["/private"], sitemaps=[f"{origin}/sitemap.xml"])
    index = sitemap_index_xml([f"{origin}/sitemap-products.xml", f"{origin}/sitemap-lists.xml.gz"])
    products = sitemap_xml(
        [
            f"{origin}/product?id=3&color=blue",
            f"{origin}/product?id=4",
            f"{origin}/item?pid=6&sku=SKU-6",
            # Listed in the sitemap but disallowed, and a URL of another host: both dropped.
            f"{origin}/private?account=7&token=xyz",
            f"http://{ELSEWHERE}/landing",
        ]
    )
    lists = gzip.compress(
        sitemap_xml([f"{origin}/list?page=2&sort=name", f"{origin}/about"]).encode(), mtime=0
    )
    site.routes["/robots.txt"] = lambda request: _text(robots)
    site.routes["/sitemap.xml"] = lambda request: _xml(index)
    site.routes["/sitemap-products.xml"] = lambda request: _xml(products)
    site.routes["/sitemap-lists.xml.gz"] = lambda request: Response(200, lists, "application/gzip")
    return site


# ---------------------------------------------------------------- news.test

_LIVE_SCRIPT = """<script>
window.addEventListener('load', function () {
  var id = new URLSearchParams(location.search).get('id') || '';
  fetch('/api/story?id=' + encodeURIComponent(id)).then(function (r) { return r.json(); })
    .then(function (data) {
      var main = document.getElementById('story');
      main.textContent = '';
      var h = document.createElement('h1');
      h.textContent = data.headline || 'Story not found';
      main.appendChild(h);
      (data.paragraphs || []).forEach(function (text) {
        var p = document.createElement('p'); p.textContent = text; main.appendChild(p);
      });
    });
});
</script>"""


def _news() -> Site:
    host = "news.test"
    chrome = Chrome("Test News", "Local news, every day", (("Home", "/"), ("Live", "/live")))
    site = Site(host)
    add_article_pages(site, chrome, stories=STORIES)

    @site.route("/live")
    def live(request: Request) -> Response:
        # An empty shell: the story arrives only after the load event.
        main = '<div id="story"><p>Loading</p></div>'
        return Response(200, render_page(chrome, title="Live", main=main, body_end=_LIVE_SCRIPT))

    @site.route("/api/story")
    def api_story(request: Request) -> Response:
        number = parse_number(request.params.get("id"), low=1, high=STORIES)
        if number is None:
            return json_response({"error": "no such story"}, 404)
        headline, paragraphs = story(number)
        return json_response({"headline": headline, "paragraphs": paragraphs})

    @site.route("/go")
    def go(request: Request) -> Response:
        story_id = request.params.get("id")
        return redirect(href("/article", [("id", story_id)]) if story_id else "/")

    @site.route("/admin")
    def admin(request: Request) -> Response:
        return Response(200, render_page(chrome, title="Admin", main="<h1>Newsroom admin</h1>"))

    home_links = [
        ("Top story", href("/article", [("id", "1"), ("share", "1"), ("amp", "1")])),
        ("Live", href("/live", [("id", "2")])),
        ("Short link", href("/go", [("id", "3")])),
        ("Admin", href("/admin", [("tab", "users")])),
    ]

    @site.route("/")
    def home(request: Request) -> Response:
        main = f"<h1>Today</h1><ul>{_links(home_links)}</ul>"
        return Response(200, render_page(chrome, title="Home", main=main))

    robots = robots_txt(disallow=["/admin"])
    sitemap = sitemap_xml([f"http://{host}/article?id={n}&share=1" for n in (4, 5)])
    site.routes["/robots.txt"] = lambda request: _text(robots)
    site.routes["/sitemap.xml"] = lambda request: _xml(sitemap)
    return site


# ---------------------------------------------------------------- hostile.test


def _hostile_page(chrome: Chrome, heading: str, *, body_end: str = "", extra: str = "") -> Response:
    main = f"<h1>{html.escape(heading)}</h1><p>This page misbehaves on purpose.</p>{extra}"
    return Response(200, render_page(chrome, title=heading, main=main, body_end=body_end))


def _stalled(request: Request) -> Iterator[bytes]:
    yield b"\x89PNG\r\n\x1a\n"
    # Never finish, but let the server stop promptly (bounded, too).
    request.stopping.wait(STALL_S)


def _hostile() -> Site:
    chrome = Chrome("Hostile", "Pages that fight back", (("Home", "/"),), "#7b241c")
    site = Site("hostile.test")

    @site.route("/alert")
    def alert(request: Request) -> Response:
        script = (
            "<script>window.addEventListener('load', function () {"
            " alert('Welcome!'); confirm('Continue?'); });"
            "window.addEventListener('beforeunload', function (e) {"
            " e.preventDefault(); e.returnValue = ''; });</script>"
        )
        return _hostile_page(chrome, f"Notice {request.params.get('msg', '')}", body_end=script)

    @site.route("/download")
    def download(request: Request) -> Response:
        return Response(
            200,
            b"PK\x03\x04 not really a zip file\n" * 64,
            "application/octet-stream",
            {"Content-Disposition": 'attachment; filename="report.zip"'},
        )

    @site.route("/popup")
    def popup(request: Request) -> Response:
        script = (
            "<script>window.addEventListener('load', function () {"
            " window.open('/popup-ad'); });</script>"
        )
        return _hostile_page(chrome, f"Offer {request.params.get('offer', '')}", body_end=script)

    @site.route("/popup-ad")
    def popup_ad(request: Request) -> Response:
        return _hostile_page(chrome, "Advertisement")

    @site.route("/loop")
    def loop(request: Request) -> Response:
        return redirect(href("/loop-again", request.query))

    @site.route("/loop-again")
    def loop_again(request: Request) -> Response:
        return redirect(href("/loop", request.query))

    @site.route("/away")
    def away(request: Request) -> Response:
        return redirect(f"http://{ELSEWHERE}" + href("/landing", request.query))

    @site.route("/scheme")
    def scheme(request: Request) -> Response:
        return redirect("file:///etc/passwd")

    @site.route("/slow")
    def slow(request: Request) -> Response:
        image = html.escape(href("/never", request.query))
        extra = f'<img src="{image}" width="64" height="64" alt="">'
        return _hostile_page(chrome, f"Gallery {request.params.get('img', '')}", extra=extra)

    @site.route("/never")
    def never(request: Request) -> Response:
        return Response(200, _stalled(request), "image/png")

    @site.route("/busy")
    def busy(request: Request) -> Response:
        script = (
            "<script>window.addEventListener('load', function () {"
            " setTimeout(function () { while (true) {} }, 0); });</script>"
        )
        return _hostile_page(chrome, f"Job {request.params.get('job', '')}", body_end=script)

    @site.route("/huge")
    def huge(request: Request) -> Response:
        rows = "".join(f"<li>Row {i}</li>" for i in range(HUGE_ROWS))
        extra = f'<ol class="results">{rows}</ol>'
        return _hostile_page(chrome, f"Catalogue {request.params.get('seed', '')}", extra=extra)

    home_links = [(f"{path[1:]} page", href(path, [(name, "1")])) for path, name in _HOSTILE]
    home_links += [
        ("Write to us", "mailto:someone@hostile.test"),
        ("Do nothing", "javascript:void(0)"),
        ("Top", "#top"),
        ("Elsewhere", f"//{ELSEWHERE}/landing"),
        ("Old files", "ftp://hostile.test/pub"),
        ("Other port", "http://hostile.test:8081/"),
    ]

    @site.route("/")
    def home(request: Request) -> Response:
        return _hostile_page(chrome, "Hostile pages", extra=f"<ul>{_links(home_links)}</ul>")

    return site


_HOSTILE: tuple[tuple[str, str], ...] = (
    ("/alert", "msg"),
    ("/download", "file"),
    ("/popup", "offer"),
    ("/loop", "step"),
    ("/away", "dest"),
    ("/scheme", "target"),
    ("/slow", "img"),
    ("/busy", "job"),
    ("/huge", "seed"),
)


def _elsewhere() -> Site:
    chrome = Chrome("Elsewhere", "Not the site you asked for", (("Home", "/"),))
    site = Site(ELSEWHERE)

    def landing(request: Request) -> Response:
        return _hostile_page(chrome, "You have left hostile.test")

    site.routes["/"] = landing
    site.routes["/landing"] = landing
    return site


def fixture_sites() -> list[Site]:
    """Every host of the fixture (the three studied ones and ``elsewhere.test``).

    >>> sorted(site.host for site in fixture_sites())
    ['elsewhere.test', 'hostile.test', 'news.test', 'shop.test']
    """
    return [_shop(), _news(), _hostile(), _elsewhere()]


# ---------------------------------------------------------------- the observed-URL log


def _url(host: str, path: str, params: Sequence[tuple[str, str]]) -> str:
    return f"http://{host}{href(path, params)}"


def observed_urls() -> list[str]:
    """A deterministic observed-URL log: hundreds of URLs, many per pattern, varied values.

    Parameter order varies, as in real logs; ``/private`` URLs are included on purpose.

    >>> urls = observed_urls()
    >>> len(urls), len(set(urls)), urls == observed_urls()
    (339, 339, True)
    """
    rng = random.Random(20260101)
    colors = sorted(COLORS)
    urls: list[str] = []
    for _ in range(80):
        params = [
            ("id", str(rng.randint(1, PRODUCTS))),
            ("color", rng.choice(colors)),
            ("sessionid", f"{rng.getrandbits(64):016x}"),
            ("trk", f"{rng.choice(('nl', 'ad', 'tw', 'fb'))}-{rng.randrange(10**6)}"),
        ]
        if rng.random() < 0.3:
            rng.shuffle(params)
        urls.append(_url("shop.test", "/product", params))
    for _ in range(50):
        pid = rng.randint(1, PRODUCTS)
        params = [("pid", str(pid)), ("sku", f"SKU-{pid}"), ("src", rng.choice(_SOURCES))]
        urls.append(_url("shop.test", "/item", params))
    for _ in range(40):
        params = [
            ("page", str(rng.randint(2, 12))),
            ("sort", rng.choice(sorted(_SORTS))),
            ("view", rng.choice(_VIEWS)),
        ]
        urls.append(_url("shop.test", "/list", params))
    for n in range(1, 11):
        params = [("account", str(n)), ("token", f"{rng.getrandbits(32):08x}")]
        urls.append(_url("shop.test", "/private", params))
    for _ in range(60):
        params = [
            ("id", str(rng.randint(1, STORIES))),
            ("share", rng.choice(_SHARES)),
            ("amp", rng.choice(_AMPS)),
        ]
        urls.append(_url("news.test", "/article", params))
    for _ in range(25):
        urls.append(_url("news.test", "/live", [("id", str(rng.randint(1, STORIES)))]))
    for _ in range(20):
        urls.append(_url("news.test", "/go", [("id", str(rng.randint(1, STORIES)))]))
    for path, name in _HOSTILE:
        for n in range(1, 9):
            urls.append(_url("hostile.test", path, [(name, str(n))]))
    unique = list(dict.fromkeys(urls))
    rng.shuffle(unique)
    return unique


def same_page_pairs() -> list[tuple[str, str]]:
    """URL pairs that differ only by neutral parameters: the normalizer must make them equal."""
    shop, news = "shop.test", "news.test"
    return [
        (
            _url(
                shop,
                "/product",
                [("id", "3"), ("color", "red"), ("sessionid", "aaa1"), ("trk", "nl-1")],
            ),
            _url(
                shop,
                "/product",
                [("id", "3"), ("color", "red"), ("sessionid", "bbb2"), ("trk", "ad-2")],
            ),
        ),
        (
            _url(
                shop,
                "/product",
                [("trk", "tw-9"), ("sessionid", "ccc3"), ("color", "blue"), ("id", "17")],
            ),
            _url(
                shop,
                "/product",
                [("id", "17"), ("color", "blue"), ("sessionid", "ddd4"), ("trk", "fb-4")],
            ),
        ),
        (
            _url(shop, "/item", [("pid", "8"), ("sku", "SKU-8"), ("src", "sidebar")]),
            _url(shop, "/item", [("pid", "8"), ("sku", "SKU-8"), ("src", "search")]),
        ),
        (
            _url(shop, "/list", [("page", "4"), ("sort", "price"), ("view", "grid")]),
            _url(shop, "/list", [("page", "4"), ("sort", "price"), ("view", "compact")]),
        ),
        (
            _url(news, "/article", [("id", "12"), ("share", "1"), ("amp", "1")]),
            _url(news, "/article", [("id", "12"), ("share", "mail"), ("amp", "0")]),
        ),
    ]


def different_page_pairs() -> list[tuple[str, str]]:
    """URL pairs that differ by content: the normalizer must keep them apart."""
    shop, news, hostile = "shop.test", "news.test", "hostile.test"

    def product(pid: str, color: str, session: str) -> str:
        params = [("id", pid), ("color", color), ("sessionid", session), ("trk", "nl-1")]
        return _url(shop, "/product", params)

    def item(pid: str) -> str:
        return _url(shop, "/item", [("pid", pid), ("sku", f"SKU-{pid}"), ("src", "home")])

    def listing(page: str, sort: str) -> str:
        return _url(shop, "/list", [("page", page), ("sort", sort), ("view", "grid")])

    def article(story_id: str) -> str:
        return _url(news, "/article", [("id", story_id), ("share", "1"), ("amp", "1")])

    pairs = [
        (product("1", "red", "s1"), product("2", "red", "s1")),
        (product("5", "red", "s1"), product("5", "blue", "s2")),
        (item("3"), item("4")),
        (listing("2", "price"), listing("3", "price")),
        (listing("2", "price"), listing("2", "name")),
        (article("1"), article("2")),
        (_url(news, "/live", [("id", "1")]), _url(news, "/live", [("id", "2")])),
        (_url(news, "/go", [("id", "1")]), _url(news, "/go", [("id", "2")])),
    ]
    for path, name in (
        ("/alert", "msg"),
        ("/popup", "offer"),
        ("/slow", "img"),
        ("/busy", "job"),
        ("/huge", "seed"),
    ):
        pairs.append((_url(hostile, path, [(name, "1")]), _url(hostile, path, [(name, "2")])))
    return pairs
