"""Sites built the way that fools a naive renderer into wrong "neutral" verdicts.

- ``late.test``: the content of ``/item`` is inline JSON drawn 1 to 3 s after the load
  event, with no request; ``/feed`` waits on a timer, then fetches its content. Both share
  the pattern ``id&slot``: ``id`` is content, ``slot`` is not.
- ``lazy.test``: ``/thread`` shows a topic; its comments, far below the first screen, are
  fetched only when they scroll into view, and ``cpage`` chooses which.
- ``wall.test``: one interstitial (a consent wall) for every URL.
- ``hang.test``: every page stalls: the document never finishes, or the main thread spins.

``TRUST_TRUTH`` holds the exact verdicts; the pairs feed the normalizer built from the set.
"""

from __future__ import annotations

import html
import json
import random
from collections.abc import Iterator

from learner.demo.server import Request, Response, Site
from tests.site.markup import document

__all__ = [
    "TRUST_HOSTS",
    "TRUST_TRUTH",
    "trust_different_pairs",
    "trust_same_pairs",
    "trust_sites",
    "trust_urls",
]

TRUST_HOSTS = ("late.test", "lazy.test", "wall.test")
HANG = "hang.test"
ITEMS = 12
_SLOTS = ("a1", "b2", "c3", "d4", "e5", "f6")
# How long a stalled page holds its connection (bounded; the server's stop ends it sooner).
STALL_S = 60.0

TRUST_TRUTH: dict[str, dict[str, dict[str, str]]] = {
    "late.test": {"id&slot": {"id": "non-neutral", "slot": "neutral"}},
    "lazy.test": {"cpage&slot&t": {"t": "non-neutral", "cpage": "non-neutral", "slot": "neutral"}},
    # A wall for everything: "no change" proves nothing, every parameter is kept.
    "wall.test": {"id&slot": {"id": "non-neutral", "slot": "non-neutral"}},
}


_TRUST_STYLE = (
    "<style>body{margin:0;font:16px/1.4 sans-serif}"
    "header{height:80px;background:#234;color:#fff;padding:0 20px}main{padding:20px}</style>"
)


def _headed_page(title: str, main: str, script: str = "") -> str:
    """A page under a header that names it."""
    header = f"<header><b>{html.escape(title)}</b></header>"
    return document(title, f"{header}{main}{script}", head=_TRUST_STYLE)


def _number(request: Request, name: str) -> int:
    value = request.params.get(name, "")
    return int(value) if value.isdigit() and 0 < int(value) < 1000 else 0


def _item_name(number: int) -> str:
    return f"Walnut shelf number {number}" if number else "Choose an item"


def _late() -> Site:
    site = Site("late.test")

    @site.route("/item")
    def item(request: Request) -> Response:
        number = _number(request, "id")
        delay = 1000 + (number % 3) * 1000
        data = json.dumps({"name": _item_name(number), "price": f"{10 + number}.00"})
        script = (
            f"<script id=data type=application/json>{html.escape(data, quote=False)}</script>"
            "<script>addEventListener('load', () => setTimeout(() => {"
            " const d = JSON.parse(document.getElementById('data').textContent);"
            " const app = document.getElementById('app'); app.textContent = '';"
            " const h = document.createElement('h1'); h.textContent = d.name;"
            " const p = document.createElement('p'); p.textContent = '$' + d.price;"
            f" app.append(h, p); }}, {delay}));</script>"
        )
        return Response(body=_headed_page("Item", "<main id=app><p>Loading</p></main>", script))

    @site.route("/feed")
    def feed(request: Request) -> Response:
        number = _number(request, "id")
        script = (
            "<script>setTimeout(() => fetch('/api/item?id=' + " + json.dumps(str(number)) + ")"
            ".then((r) => r.json()).then((d) => {"
            " document.getElementById('app').textContent = d.name; }), 1200);</script>"
        )
        return Response(body=_headed_page("Feed", "<main id=app><p>Loading</p></main>", script))

    @site.route("/api/item")
    def api_item(request: Request) -> Response:
        body = json.dumps({"name": _item_name(_number(request, "id"))})
        return Response(body=body, content_type="application/json")

    return site


def _lazy() -> Site:
    site = Site("lazy.test")

    @site.route("/thread")
    def thread(request: Request) -> Response:
        topic = _number(request, "t")
        cpage = _number(request, "cpage") or 1
        query = json.dumps(f"t={topic}&cpage={cpage}")
        script = (
            "<script>new IntersectionObserver((entries, observer) => {"
            " if (!entries.some((e) => e.isIntersecting)) return; observer.disconnect();"
            f" fetch('/api/comments?' + {query}).then((r) => r.json()).then((list) => {{"
            " const box = document.getElementById('comments'); box.textContent = '';"
            " for (const text of list) { const p = document.createElement('p');"
            " p.textContent = text; box.append(p); } });"
            "}).observe(document.getElementById('comments'));</script>"
        )
        main = (
            f"<main><h1>Topic {topic}: oiling a walnut shelf</h1>"
            "<div style='height:1500px;background:#f4f1ea'>The question, at length.</div>"
            "<h2>Comments</h2><section id=comments><p>Comments load here</p></section></main>"
        )
        return Response(body=_headed_page("Forum", main, script))

    @site.route("/api/comments")
    def comments(request: Request) -> Response:
        topic, cpage = _number(request, "t"), _number(request, "cpage") or 1
        data = [f"Reply {n} on page {cpage} of topic {topic}" for n in range(1, 4)]
        return Response(body=json.dumps(data), content_type="application/json")

    return site


def _wall() -> Site:
    site = Site("wall.test")
    wall = _headed_page(
        "Consent", "<main><h1>Before you continue</h1><p>We use cookies.</p></main>"
    )
    for path in ("/a", "/b", "/c"):
        site.routes[path] = lambda request: Response(body=wall)
    return site


def _stall(request: Request) -> Iterator[bytes]:
    yield b"<!doctype html><html><head><title>Hang</title></head><body><h1>Loading"
    request.stopping.wait(STALL_S)


def _hang() -> Site:
    site = Site(HANG)
    site.routes["/stall"] = lambda request: Response(body=_stall(request))
    spin = _headed_page(
        "Spin",
        "<main><h1>Spinning</h1></main>",
        "<script>addEventListener('load', () => setTimeout(() => { for (;;) {} }, 0));</script>",
    )
    site.routes["/spin"] = lambda request: Response(body=spin)
    return site


def trust_sites() -> list[Site]:
    """Every host of this module, ``hang.test`` included."""
    return [_late(), _lazy(), _wall(), _hang()]


def trust_urls(*, hang: bool = False) -> list[str]:
    """A deterministic observed-URL log for the studied hosts (and ``hang.test``)."""
    rng = random.Random(7)
    urls = []
    for n in range(1, ITEMS + 1):
        for path in ("/item", "/feed"):
            urls.append(f"http://late.test{path}?id={n}&slot={rng.choice(_SLOTS)}")
        urls.append(
            f"http://lazy.test/thread?t={n}&cpage={rng.randint(1, 5)}&slot={rng.choice(_SLOTS)}"
        )
        urls.append(f"http://wall.test/{'abc'[n % 3]}?id={n}&slot={rng.choice(_SLOTS)}")
        if hang:
            urls.append(f"http://{HANG}/stall?id={n}&slot={rng.choice(_SLOTS)}")
            urls.append(f"http://{HANG}/spin?job={n}")
    return urls


def trust_same_pairs() -> list[tuple[str, str]]:
    """Pairs that differ only by a neutral parameter: the learned set must merge them."""
    return [
        ("http://late.test/item?id=5&slot=a1", "http://late.test/item?id=5&slot=f6"),
        ("http://late.test/feed?id=9&slot=b2", "http://late.test/feed?id=9&slot=c3"),
        (
            "http://lazy.test/thread?t=4&cpage=2&slot=a1",
            "http://lazy.test/thread?t=4&cpage=2&slot=d4",
        ),
    ]


def trust_different_pairs() -> list[tuple[str, str]]:
    """Pairs of different pages: the learned set must keep them apart."""
    return [
        ("http://late.test/item?id=5&slot=a1", "http://late.test/item?id=6&slot=a1"),
        ("http://late.test/feed?id=2&slot=a1", "http://late.test/feed?id=3&slot=a1"),
        (
            "http://lazy.test/thread?t=4&cpage=2&slot=a1",
            "http://lazy.test/thread?t=4&cpage=3&slot=a1",
        ),
        (
            "http://lazy.test/thread?t=4&cpage=2&slot=a1",
            "http://lazy.test/thread?t=5&cpage=2&slot=a1",
        ),
        ("http://wall.test/a?id=1&slot=a1", "http://wall.test/a?id=2&slot=a1"),
    ]
