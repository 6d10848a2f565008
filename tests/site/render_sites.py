"""Small sites for the renderer and fingerprint tests.

``store.test`` serves one product template whose parts come from query parameters (name,
price, a small picture, a review far below the first screen), the same template with noise
(rotating banner, clock, random id), a client-side rendered variant and a page that is all
noise. ``traps.test`` serves pages that try to stall or mislead a renderer, some of them by
leaving for ``away.test``. The hosts are their own: the fixture crawl's sites
(:mod:`tests.site.fixture`) are others.
"""

from __future__ import annotations

import html
import io
import itertools
import json
import os
import time
from collections.abc import Iterator
from functools import cache

from PIL import Image, ImageDraw

from learner.demo.server import Request, Response, Site
from tests.site.alias_site import alias_site, www_alias_site
from tests.site.markup import document
from tests.site.page_parts import PART_PAGES, PARTS, part_sites

__all__ = [
    "DEFAULT_PRICE",
    "DEFAULT_REVIEW",
    "ELSEWHERE",
    "PAGES",
    "SHOP",
    "SHOWN_OTHERWISE",
    "TRAPS",
    "render_sites",
]

SHOP = "store.test"
TRAPS = "traps.test"
ELSEWHERE = "away.test"

DEFAULT_NAME = "Sturdy Cedar Lamp"
DEFAULT_PRICE = "19.99"
DEFAULT_REVIEW = "Sturdy and bright, five stars from Ann."

_BANNERS = (
    "Deal of the hour: 10% off lamps",
    "Deal of the hour: 15% off desks",
    "Deal of the hour: 20% off stool",
    "Deal of the hour: 25% off chair",
)

_LOREM = (
    "Made in our workshop since 1987. Every order ships in recycled packaging and comes "
    "with a two-year guarantee. Returns are free within thirty days of delivery."
)


_STORE_STYLE = (
    "<style>body{margin:0;font:16px/1.4 sans-serif;color:#222}"
    "header{height:90px;background:#234;color:#fff;padding:0 24px}"
    "nav a{color:#fff;margin-right:18px}main{padding:24px}"
    ".price{font-size:28px;color:#a11}footer{background:#eee;padding:24px}</style>"
)


def _store_page(title: str, body: str, *, head: str = "") -> str:
    """A page in the look the renderer's sites share."""
    return document(title, body, head=_STORE_STYLE + head)


def _header(extra: str = "") -> str:
    return (
        "<header><b style='font-size:24px'>Samepage Test Shop</b> "
        "<nav><a href=/>Home</a><a href=/tpl>Lamps</a><a href=/tpl>Desks</a></nav>"
        f"{extra}</header>"
    )


def _product(name: str, price: str, img: str, review: str) -> str:
    picture = f"<img src='/img?n={html.escape(img)}' width=48 height=48 alt=''>"
    return (
        f"<main><div style='display:flex;gap:16px'>{picture}<div>"
        f"<h1>{html.escape(name)}</h1><p class=price>${html.escape(price)}</p></div></div>"
        f"<p>{_LOREM}</p><p>{_LOREM}</p></main>"
        # Far below the first screen: only a full-page capture or the page text sees it.
        f"<section style='margin-top:1300px;padding:24px'><h2>Reviews</h2>"
        f"<p>{html.escape(review)}</p></section>"
        "<footer>Samepage Test Shop, 1 Test Street. Terms, privacy, contact.</footer>"
    )


def _params(request: Request) -> tuple[str, str, str, str]:
    p = request.params
    return (
        p.get("name", DEFAULT_NAME),
        p.get("price", DEFAULT_PRICE),
        p.get("img", "1"),
        p.get("review", DEFAULT_REVIEW),
    )


@cache
def picture_png(number: int) -> bytes:
    """A 48x48 picture; different numbers draw different stripes of the same two colours."""
    image = Image.new("RGB", (48, 48), "#d8c9a8")
    draw = ImageDraw.Draw(image)
    for i in range(number % 5 + 1):
        offset = i * 48 // (number % 5 + 1)
        draw.rectangle((offset, 0, offset + 4, 47), fill="#5a4632")
    buffer = io.BytesIO()
    image.save(buffer, "PNG")
    return buffer.getvalue()


def _store() -> Site:
    site = Site(SHOP)
    rotation = itertools.count()

    @site.route("/tpl")
    def template(request: Request) -> Response:
        name, price, img, review = _params(request)
        return Response(body=_store_page(name, _header() + _product(name, price, img, review)))

    @site.route("/img")
    def picture(request: Request) -> Response:
        number = request.params.get("n", "1")
        return Response(
            body=picture_png(int(number) if number.isdigit() else 1), content_type="image/png"
        )

    @site.route("/noisy")
    def noisy(request: Request) -> Response:
        name, price, img, review = _params(request)
        # The banner rotates on every load, so any two renders show different ones.
        banner = _BANNERS[next(rotation) % len(_BANNERS)]
        clock = time.strftime("%H:%M:%S") + f".{time.time_ns() % 10**9:09d}"
        noise = (
            f"<div style='float:right;width:330px;height:70px;margin-top:10px'>"
            f"<div>{banner}</div><div>Server time {clock}</div>"
            f"<div>Request {os.urandom(6).hex()}</div></div>"
        )
        return Response(body=_store_page(name, _header(noise) + _product(name, price, img, review)))

    @site.route("/chaos")
    def chaos(request: Request) -> Response:
        # Every load is different from top to bottom: nothing can be compared.
        row = "<div style='height:40px;background:#{}'>{}</div>"
        rows = "".join(row.format(os.urandom(3).hex(), os.urandom(8).hex()) for _ in range(40))
        return Response(body=_store_page("Chaos", rows))

    @site.route("/csr")
    def client_side(request: Request) -> Response:
        # Content arrives after load, in two steps: an API call, then (on a later task) a
        # second one whose answer is inserted.
        name = json.dumps(request.params.get("name", DEFAULT_NAME))
        script = f"""<script>
addEventListener('load', () => {{
  fetch('/api/product?name=' + encodeURIComponent({name})).then(r => r.json()).then(p => {{
    document.getElementById('app').innerHTML =
      '<h1 id=name></h1><p class=price id=price></p><ul id=reviews></ul>';
    document.getElementById('name').textContent = p.name;
    document.getElementById('price').textContent = '$' + p.price;
    setTimeout(() => fetch('/api/reviews').then(r => r.json()).then(list => {{
      for (const text of list) {{
        const li = document.createElement('li'); li.textContent = text;
        document.getElementById('reviews').appendChild(li);
      }}
    }}), 0);
  }});
}});
</script>"""
        return Response(
            body=_store_page("Loading", _header() + "<main id=app>Loading…</main>" + script)
        )

    @site.route("/api/product")
    def api_product(request: Request) -> Response:
        data = {"name": request.params.get("name", DEFAULT_NAME), "price": DEFAULT_PRICE}
        return Response(body=json.dumps(data), content_type="application/json")

    @site.route("/api/reviews")
    def api_reviews(request: Request) -> Response:
        data = ["Bright enough to read by.", "Arrived in two days."]
        return Response(body=json.dumps(data), content_type="application/json")

    @site.route("/clock")
    def clock(request: Request) -> Response:
        script = (
            "<script>document.getElementById('now').textContent = new Date().toISOString();"
            "setTimeout(() => { document.getElementById('timer').textContent = 'timer fired'; },"
            " 50);</script>"
        )
        return Response(body=_store_page("Clock", "<p id=now></p><p id=timer>waiting</p>" + script))

    @site.route("/form")
    def form(request: Request) -> Response:
        # A filter form: a select in a rounded box beside a button. Playwright's screenshot
        # restyles every field as it hides carets, and Chromium redraws them: with partial
        # raster, the box's corner beside the button came out a shade apart.
        body = (
            "<form><div class=box><select></select></div> <input type=submit value=Apply>"
            "</form><p>Showing 0 rows</p>"
        )
        box = (
            "<style>.box{border:1px solid #ccc;border-radius:3px;background:#fafafa;"
            "display:inline-block;width:120px}</style>"
        )
        return Response(body=document("Filter", body, head=box))

    @site.route("/late")
    def late(request: Request) -> Response:
        # Server-side-rendered data inline, drawn only after a delay: no request at all.
        name = request.params.get("name", DEFAULT_NAME)
        delay = int(request.params.get("delay", "1500"))
        data = json.dumps({"name": name}).replace("<", "\\u003c")
        script = (
            f"<script id=data type=application/json>{data}</script><script>"
            "addEventListener('load', () => setTimeout(() => {"
            " const d = JSON.parse(document.getElementById('data').textContent);"
            " document.getElementById('app').innerHTML = '<h1></h1>';"
            f" document.querySelector('#app h1').textContent = d.name; }}, {delay}));</script>"
        )
        return Response(body=_store_page("Late", "<main id=app>Skeleton</main>" + script))

    @site.route("/timer-fetch")
    def timer_fetch(request: Request) -> Response:
        # A timer, then a request, then the content.
        name = json.dumps(request.params.get("name", DEFAULT_NAME))
        script = (
            "<script>setTimeout(() => fetch('/api/product?name=' + encodeURIComponent("
            f"{name})).then(r => r.json()).then(p => {{"
            " document.getElementById('app').textContent = p.name; }), 1200);</script>"
        )
        return Response(body=_store_page("Timer", "<main id=app>Skeleton</main>" + script))

    @site.route("/lazy")
    def lazy(request: Request) -> Response:
        # Comments are fetched only once their section scrolls into view.
        page = json.dumps(request.params.get("cpage", "1"))
        script = (
            "<script>new IntersectionObserver((entries, observer) => {"
            " if (!entries.some((e) => e.isIntersecting)) return; observer.disconnect();"
            f" fetch('/api/comments?page=' + {page}).then(r => r.json()).then(list => {{"
            " document.getElementById('comments').textContent = list.join(' | '); });"
            "}).observe(document.getElementById('comments'));</script>"
        )
        body = (
            "<main><h1>Lazy lamp</h1><div style='height:1600px'>Specifications</div>"
            "<section id=comments style='min-height:40px'>Comments load here</section>"
            f"</main>{script}"
        )
        return Response(body=_store_page("Lazy", body))

    @site.route("/api/comments")
    def api_comments(request: Request) -> Response:
        page = request.params.get("page", "1")
        data = [f"Comment {page}.{n}" for n in range(1, 4)]
        return Response(body=json.dumps(data), content_type="application/json")

    @site.route("/ticking")
    def ticking(request: Request) -> Response:
        # Changes forever: an interval clock, a self-re-arming timer and an animation loop.
        script = (
            "<script>let n = 0, m = 0, k = 0;"
            "setInterval(() => { document.getElementById('a').textContent = 'tick ' + (++n); },"
            " 200);"
            "function again() { document.getElementById('b').textContent = 'step ' + (++m);"
            " setTimeout(again, 150); } setTimeout(again, 150);"
            "function spin() { document.getElementById('c').style.width = (++k % 300) + 'px';"
            " requestAnimationFrame(spin); } requestAnimationFrame(spin);</script>"
        )
        body = (
            "<main><h1>Always moving</h1><p id=a></p><p id=b></p>"
            "<div id=c style='height:10px;background:#a11'></div></main>" + script
        )
        return Response(body=_store_page("Ticking", body))

    @site.route("/item")
    def item(request: Request) -> Response:
        # Without its id the item page is a 404: removing "id" changes the status.
        if "id" not in request.params:
            return Response(404, _store_page("Not found", _header() + "<main>No such item</main>"))
        return template(request)

    @site.route("/go")
    def go(request: Request) -> Response:
        target = "/tpl?name=" + request.params["to"] if "to" in request.params else "/tpl"
        return Response(302, "", headers={"Location": target})

    @site.route("/moved")
    def moved(request: Request) -> Response:
        return Response(301, "", headers={"Location": "/tpl?name=Moved+Lamp"})

    return site


def _redirect(location: str) -> Response:
    return Response(302, "", headers={"Location": location})


def _forever(request: Request) -> Iterator[bytes]:
    yield b"\x89PNG\r\n\x1a\n"
    # Never completes while the test run lasts; returns at once when the server stops.
    request.stopping.wait(timeout=120)


def _traps() -> Site:
    site = Site(TRAPS)
    plain = _store_page("Hostile", "<main><h1>Still here</h1></main>")
    site.routes["/loop"] = lambda request: _redirect("/loop2")
    site.routes["/loop2"] = lambda request: _redirect("/loop")
    site.routes["/away"] = lambda request: _redirect(f"http://{ELSEWHERE}/landing")
    site.routes["/mailto"] = lambda request: _redirect(f"mailto:sales@{TRAPS}")
    site.routes["/file"] = lambda request: _redirect("file:///etc/passwd")
    site.routes["/hop"] = lambda request: _redirect("/hop2")
    site.routes["/hop2"] = lambda request: _redirect("/plain")
    site.routes["/plain"] = lambda request: Response(body=plain)
    site.routes["/download"] = lambda request: Response(
        body=b"PK\x03\x04 not really a zip",
        content_type="application/zip",
        headers={"Content-Disposition": "attachment; filename=catalogue.zip"},
    )
    late = (
        "<main>Your file is coming</main><script>addEventListener('load', () => {"
        "const a = document.createElement('a'); a.href = '/download'; a.download = 'c.zip';"
        "document.body.appendChild(a); a.click(); });</script>"
    )
    site.routes["/late-download"] = lambda request: Response(body=_store_page("Late", late))
    script_away = f"<script>location.href = 'http://{ELSEWHERE}/landing';</script>"
    site.routes["/js-away"] = lambda request: Response(body=_store_page("Away", script_away))
    dialogs = (
        "<script>alert('hello'); confirm('sure?'); prompt('name?');</script>"
        "<main><h1>After the dialogs</h1></main>"
    )
    site.routes["/dialog"] = lambda request: Response(body=_store_page("Dialogs", dialogs))
    # MediaWiki's history form: hidden controls named "action" and "method" shadow the form's
    # own action and method properties.
    shadowed = (
        "<main><h1>Revisions</h1><form action='/plain?title=Lamp'>"
        "<input type=hidden name=action value=historysubmit>"
        "<input type=hidden name=method value=post>"
        "<label><input type=radio name=oldid value=7 checked> 7</label>"
        "<label><input type=radio name=oldid value=6> 6</label></form></main>"
    )
    site.routes["/shadowed-form"] = lambda request: Response(
        body=_store_page("Revisions", shadowed)
    )
    popup = (
        "<main><h1>Opener</h1></main><script>addEventListener('load', () => {"
        "window.open('/plain', 'ad'); window.open('/plain', 'ad2'); });</script>"
    )
    site.routes["/popup"] = lambda request: Response(body=_store_page("Popup", popup))
    never = "<main><h1>Loading forever</h1><img src='/forever.png'></main>"
    site.routes["/never"] = lambda request: Response(body=_store_page("Never", never))
    site.routes["/forever.png"] = lambda request: Response(
        body=_forever(request), content_type="image/png"
    )
    busy = (
        "<main><h1>Busy</h1></main><script>addEventListener('load', () => "
        "setTimeout(() => { while (true) {} }, 0));</script>"
    )
    site.routes["/busy"] = lambda request: Response(body=_store_page("Busy", busy))
    # Rendering in chunks that never ends: always one short timer pending, never the same.
    chunks = (
        "<main><h1>Chunks</h1><p id=n></p></main><script>let n = 0;"
        "function chunk() { document.getElementById('n').textContent = 'chunk ' + (++n);"
        " setTimeout(() => chunk(), 20); } chunk();</script>"
    )
    site.routes["/chunks"] = lambda request: Response(body=_store_page("Chunks", chunks))
    # A resize handler that never returns: a full-page screenshot resizes the page for a
    # moment, and then waits for a frame the page never lets the browser draw.
    frozen = (
        "<main style='height:2000px'><h1>Frozen on resize</h1></main><script>"
        "addEventListener('resize', () => { while (true) {} }, {once: true});</script>"
    )
    site.routes["/frozen-on-resize"] = lambda request: Response(body=_store_page("Frozen", frozen))
    # An animation frame loop that never ends, harmless until the page is resized: then one
    # of its frames never returns. Only the screenshot resizes the page.
    frame_loop = (
        "<main style='height:2000px'><h1>Frame loop</h1><p id=t></p></main><script>"
        "let resized = false; addEventListener('resize', () => { resized = true; });"
        "requestAnimationFrame(function tick(now) { while (resized) {}"
        " document.getElementById('t').textContent = 'frame ' + Math.floor(now / 1000);"
        " requestAnimationFrame(tick); });</script>"
    )
    site.routes["/frame-loop"] = lambda request: Response(
        body=_store_page("Frame loop", frame_loop)
    )
    huge_text = "".join(f"<p>Paragraph {n} of a very long page.</p>" for n in range(4000))
    huge = f"<main style='height:60000px'>{huge_text}</main>"
    site.routes["/huge"] = lambda request: Response(body=_store_page("Huge", huge))
    site.routes["/missing"] = lambda request: Response(
        404, _store_page("Not found", "<main><h1>Nothing here</h1></main>")
    )
    return site


def _away() -> Site:
    site = Site(ELSEWHERE)
    site.routes["/landing"] = lambda request: Response(
        body=_store_page("Elsewhere", "<main>Another site</main>")
    )
    return site


_SHOP_PAGES = (
    "/tpl",
    "/noisy",
    "/chaos",
    "/csr?name=Quiet+Kettle",
    "/clock",
    "/late?delay=1500",
    "/timer-fetch",
    "/lazy?cpage=3",
    "/ticking",
    "/item?id=1",
    "/item",
    "/form",
    "/go?to=Lamp",
    "/moved",
)
_TRAP_PAGES = (
    "/loop",
    "/away",
    "/mailto",
    "/file",
    "/hop",
    "/plain",
    "/download",
    "/late-download",
    "/js-away",
    "/dialog",
    "/popup",
    "/never",
    "/busy",
    "/chunks",
    "/frozen-on-resize",
    "/frame-loop",
    "/huge",
    "/missing",
)
PAGES: tuple[str, ...] = (
    *(f"http://{SHOP}{path}" for path in _SHOP_PAGES),
    *(f"http://{TRAPS}{path}" for path in _TRAP_PAGES),
    *(f"http://{PARTS}{page.path}" for page in PART_PAGES),
)
"""Every page of the render sites as a URL (their assets and APIs left out), redirects and
traps included: what ``benchmarks/bench_differential.py`` renders plainly and with
the learner."""

SHOWN_OTHERWISE: dict[str, str] = {
    f"http://{SHOP}/clock": "the learner's clock is fixed (fixed_time)",
    f"http://{SHOP}/late?delay=1500": "drawn 1.5 s after load: timers due within "
    "timer_horizon_s are waited for",
    f"http://{SHOP}/timer-fetch": "a timer, then a request, then the content: waited for",
    f"http://{SHOP}/lazy?cpage=3": "loaded when scrolled into view: the learner scrolls "
    "through the page",
}
"""Pages of :data:`PAGES` a plain browser shows otherwise at its load event, each for a
documented behaviour of the learner."""


def render_sites() -> list[Site]:
    """The sites served to the renderer and fingerprint tests."""
    return [_store(), _traps(), _away(), *part_sites(), alias_site(), www_alias_site()]
