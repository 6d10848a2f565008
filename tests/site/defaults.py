"""A site whose content parameters have values that mean "nothing", and two traps.

``defaults.test`` serves, each page drawn from :func:`page_of` (the ground truth):

- ``/search?q&page&from``: no ``page`` is page 1 (pagination); ``from`` is neutral.
- ``/catalog`` and ``/deals`` ``?cat&sort``: no ``sort`` is ``sort=relevance``.
- ``/product?id&size``: the size shown first is M (a variant shown first).
- ``/guide?topic&lang``: an English site, so no ``lang`` is ``lang=en``.
- ``/item?id&tab``: the tabs sit below the first screen; no ``tab`` is ``tab=description``.
- ``/list?cat&page&sort``: two defaults in one pattern, ``page=1`` and ``sort=new``, which
  links often carry together (the joint check of defaults).
- Trap: ``/archive?year&page``: no ``page`` is an overview, not page 1.
- Trap: ``/doc`` and ``/manual`` ``?chapter&view``: no ``view`` is ``view=full`` on ``/doc``
  only (``/manual`` opens on a summary); the normalizer applies per pattern, so ``full``
  must not be learned.

``DEFAULTS`` holds the defaults the learner must find, exactly; ``held_out_pairs()`` are
default pairs built from values the observed log never shows.
"""

from __future__ import annotations

import html
import random
from urllib.parse import parse_qsl, urlencode, urlsplit

from learner.demo.server import Request, Response, Site
from tests.site.markup import document

__all__ = [
    "DEFAULTS",
    "DEFAULTS_HOST",
    "DEFAULTS_TRUTH",
    "defaults_different_pairs",
    "defaults_site",
    "defaults_urls",
    "held_out_pairs",
    "page_of",
]

DEFAULTS_HOST = "defaults.test"

C, N = "non-neutral", "neutral"
DEFAULTS_TRUTH: dict[str, dict[str, str]] = {
    "from&page&q": {"from": N, "page": C, "q": C},
    "from&q": {"from": N, "q": C},
    "cat&sort": {"cat": C, "sort": C},
    "id&size": {"id": C, "size": C},
    "lang&topic": {"lang": C, "topic": C},
    "id&tab": {"id": C, "tab": C},
    "cat&page&sort": {"cat": C, "page": C, "sort": C},
    "page&year": {"page": C, "year": C},
    "chapter&view": {"chapter": C, "view": C},
}
DEFAULTS: dict[str, dict[str, frozenset[str]]] = {
    "from&page&q": {"page": frozenset({"1"})},
    "cat&sort": {"sort": frozenset({"relevance"})},
    "id&size": {"size": frozenset({"M"})},
    "lang&topic": {"lang": frozenset({"en"})},
    "id&tab": {"tab": frozenset({"description"})},
    "cat&page&sort": {"page": frozenset({"1"}), "sort": frozenset({"new"})},
}

_WORDS = ("oak", "pine", "ash", "elm", "birch", "cedar", "walnut", "maple", "teak", "yew")
_CATS = ("chairs", "tables", "lamps", "rugs", "shelves", "beds")
_TOPICS = ("setup", "billing", "privacy", "shipping", "returns", "accounts")
_CHAPTERS = ("intro", "install", "usage", "faq", "api", "limits")


def page_of(url: str) -> tuple[str, ...]:
    """The page a URL shows: equal for two URLs exactly when their content is the same.

    >>> page_of("http://defaults.test/search?q=oak&page=1") == page_of(
    ...     "http://defaults.test/search?from=nav&q=oak")
    True
    """
    parts = urlsplit(url)
    params: dict[str, str] = {}
    for name, value in parse_qsl(parts.query, keep_blank_values=True):
        params.setdefault(name, value)
    get = params.get
    path = parts.path
    if path == "/search":
        page = get("page", "1")
        return (path, get("q", ""), page if page.isdigit() and int(page) > 0 else "1")
    if path in ("/catalog", "/deals"):
        sort = get("sort", "relevance")
        return (path, get("cat", ""), sort if sort in ("price", "name") else "relevance")
    if path == "/product":
        size = get("size", "M")
        return (path, get("id", ""), size if size in ("S", "L") else "M")
    if path == "/guide":
        lang = get("lang", "en")
        return (path, get("topic", ""), lang if lang in ("fr", "de") else "en")
    if path == "/item":
        tab = get("tab", "description")
        return (path, get("id", ""), tab if tab in ("reviews", "specs") else "description")
    if path == "/list":
        page, sort = get("page", "1"), get("sort", "new")
        number = page if page.isdigit() and int(page) > 0 else "1"
        return (path, get("cat", ""), number, sort if sort == "price" else "new")
    if path == "/archive":
        return (path, get("year", ""), get("page", "overview"))
    if path in ("/doc", "/manual"):
        first = "full" if path == "/doc" else "summary"
        return (path, get("chapter", ""), get("view", first))
    return (path,)


_TEXT = {
    "en": ("Welcome to the guide", "Read on to learn how this works."),
    "fr": ("Bienvenue dans le guide", "Lisez la suite pour comprendre."),
    "de": ("Willkommen im Handbuch", "Lesen Sie weiter, um zu verstehen."),
}


def _main(page: tuple[str, ...]) -> str:
    path, *rest = page
    key = html.escape(" / ".join(rest))
    if path == "/search":
        q, number = rest
        hits = "".join(
            f"<li>{html.escape(q)} result {n}</li>"
            for n in range((int(number) - 1) * 5 + 1, int(number) * 5 + 1)
        )
        return f"<h1>Results for {html.escape(q)}</h1><p>Page {number}</p><ol>{hits}</ol>"
    if path == "/guide":
        topic, lang = rest
        title, body = _TEXT[lang]
        return f"<h1>{title}: {html.escape(topic)}</h1><p>{body}</p>"
    if path == "/item":
        item, tab = rest
        tabs = {
            "description": "Solid wood, oiled by hand.",
            "reviews": "Five stars, says Ann.",
            "specs": "Width 80 cm, depth 30 cm.",
        }
        return (
            f"<h1>Shelf {html.escape(item)}</h1>"
            "<div style='height:1500px;background:#f4f1ea'>Photos of the shelf.</div>"
            f"<nav>Description | Reviews | Specs</nav><section><h2>{tab}</h2>"
            f"<p>{tabs[tab]}</p></section>"
        )
    if path == "/archive" and rest[1] == "overview":
        return f"<h1>Archive {html.escape(rest[0])}</h1><p>Twelve months at a glance.</p>"
    return f"<h1>{html.escape(path[1:].title())}</h1><p>{key}</p>"


_DEFAULTS_STYLE = (
    "<style>body{margin:0;font:16px/1.4 sans-serif}header{height:80px;background:#234;"
    "color:#fff;padding:0 20px}main{padding:20px}</style>"
)


def _defaults_page(page: tuple[str, ...]) -> str:
    """The document of one page of :func:`page_of`."""
    body = f"<header><b>Defaults</b></header><main>{_main(page)}</main>"
    return document("Defaults", body, head=_DEFAULTS_STYLE)


def defaults_site() -> Site:
    """The ``defaults.test`` host."""
    site = Site(DEFAULTS_HOST)

    def handler(request: Request) -> Response:
        url = f"http://{DEFAULTS_HOST}{request.path}?{urlencode(request.query)}"
        return Response(body=_defaults_page(page_of(url)))

    for path in ("/search", "/catalog", "/deals", "/product", "/guide", "/item", "/list"):
        site.routes[path] = handler
    site.routes["/archive"] = site.routes["/doc"] = site.routes["/manual"] = handler
    return site


def _url(path: str, params: list[tuple[str, str]]) -> str:
    return f"http://{DEFAULTS_HOST}{path}?{urlencode(params)}"


def _weighted(rng: random.Random, common: str, others: tuple[str, ...]) -> str:
    return common if rng.random() < 0.5 else rng.choice(others)


def defaults_urls() -> list[str]:
    """The observed-URL log: each default value the most frequent of its parameter.

    >>> urls = defaults_urls()
    >>> len(urls), urls == defaults_urls()
    (220, True)
    """
    rng = random.Random(11)
    urls: list[str] = []
    for _ in range(30):
        params = [("q", rng.choice(_WORDS[:6])), ("page", _weighted(rng, "1", ("2", "3")))]
        urls.append(_url("/search", [*params, ("from", rng.choice(("home", "nav", "footer")))]))
    for _ in range(15):
        params = [("q", rng.choice(_WORDS[:6])), ("from", rng.choice(("home", "nav", "footer")))]
        urls.append(_url("/search", params))
    for _ in range(30):
        path = rng.choice(("/catalog", "/deals"))
        sort = _weighted(rng, "relevance", ("price", "name"))
        urls.append(_url(path, [("cat", rng.choice(_CATS[:4])), ("sort", sort)]))
    for _ in range(25):
        size = _weighted(rng, "M", ("S", "L"))
        urls.append(_url("/product", [("id", str(rng.randint(1, 8))), ("size", size)]))
    for _ in range(20):
        lang = _weighted(rng, "en", ("fr", "de"))
        urls.append(_url("/guide", [("topic", rng.choice(_TOPICS[:4])), ("lang", lang)]))
    for _ in range(25):
        tab = _weighted(rng, "description", ("reviews", "specs"))
        urls.append(_url("/item", [("id", str(rng.randint(1, 8))), ("tab", tab)]))
    for _ in range(20):
        page = _weighted(rng, "1", ("2", "3"))
        urls.append(_url("/archive", [("year", str(rng.randint(2019, 2023))), ("page", page)]))
    for _ in range(25):
        path = rng.choice(("/doc", "/manual"))
        view = _weighted(rng, "full", ("print",))
        urls.append(_url(path, [("chapter", rng.choice(_CHAPTERS[:4])), ("view", view)]))
    for _ in range(30):
        params = [("cat", rng.choice(_CATS[:4])), ("page", _weighted(rng, "1", ("2", "3")))]
        urls.append(_url("/list", [*params, ("sort", _weighted(rng, "new", ("price",)))]))
    return urls


def held_out_pairs() -> list[tuple[str, str]]:
    """Default pairs from values the log never shows: the normalizer must merge each."""
    pairs = []
    for q, src in (("maple", "nav"), ("teak", "home"), ("yew", "footer"), ("walnut", "nav")):
        first = _url("/search", [("q", q), ("page", "1"), ("from", src)])
        pairs.append((first, _url("/search", [("from", "home"), ("q", q)])))
    for path, cat in (
        ("/catalog", "shelves"),
        ("/catalog", "beds"),
        ("/deals", "beds"),
        ("/deals", "shelves"),
    ):
        with_sort = _url(path, [("sort", "relevance"), ("cat", cat)])
        pairs.append((with_sort, _url(path, [("cat", cat)])))
    for item in ("20", "21", "22"):
        pairs.append(
            (_url("/product", [("id", item), ("size", "M")]), _url("/product", [("id", item)]))
        )
    for topic in ("shipping", "returns", "accounts", "legal"):
        pairs.append(
            (_url("/guide", [("topic", topic), ("lang", "en")]), _url("/guide", [("topic", topic)]))
        )
    for item in ("30", "31", "32", "33"):
        pairs.append(
            (_url("/item", [("id", item), ("tab", "description")]), _url("/item", [("id", item)]))
        )
    both = [("cat", "beds"), ("page", "1"), ("sort", "new")]
    pairs.append((_url("/list", both), _url("/list", [("cat", "beds")])))
    paged = [("cat", "shelves"), ("page", "1"), ("sort", "price")]
    pairs.append((_url("/list", paged), _url("/list", [("cat", "shelves"), ("sort", "price")])))
    newest = [("sort", "new"), ("page", "3"), ("cat", "beds")]
    pairs.append((_url("/list", newest), _url("/list", [("cat", "beds"), ("page", "3")])))
    return pairs


def defaults_different_pairs() -> list[tuple[str, str]]:
    """Pairs that look like default pairs but are different pages: never to be merged."""
    return [
        (_url("/archive", [("year", "2030"), ("page", "1")]), _url("/archive", [("year", "2030")])),
        (
            _url("/manual", [("chapter", "api"), ("view", "full")]),
            _url("/manual", [("chapter", "api")]),
        ),
        (
            _url("/search", [("q", "yew"), ("page", "2"), ("from", "nav")]),
            _url("/search", [("q", "yew"), ("from", "nav")]),
        ),
        (
            _url("/catalog", [("cat", "beds"), ("sort", "price")]),
            _url("/catalog", [("cat", "beds")]),
        ),
        (_url("/product", [("id", "20"), ("size", "L")]), _url("/product", [("id", "20")])),
        (
            _url("/guide", [("topic", "legal"), ("lang", "fr")]),
            _url("/guide", [("topic", "legal")]),
        ),
        (_url("/item", [("id", "30"), ("tab", "reviews")]), _url("/item", [("id", "30")])),
        (
            _url("/list", [("cat", "beds"), ("page", "2"), ("sort", "new")]),
            _url("/list", [("cat", "beds")]),
        ),
        (
            _url("/list", [("cat", "beds"), ("page", "1"), ("sort", "price")]),
            _url("/list", [("cat", "beds")]),
        ),
    ]
