"""Pages shaped like real ones, one part of a real page each, for the readiness tests.

``parts.test`` serves one page per part that real sites carry and that a capture must not
mistake for loading: text fields (with autofocus), ``contenteditable``, selects, iframes
(same-origin, cross-origin, ad slots, a video player, lazy), autoplaying media, web fonts,
CSS animations and transitions, SVG and canvas animation, sticky and fixed headers, a cookie
banner, analytics beacons and pixels, polls and a long-held request, a WebSocket,
server-sent events, a service worker, idle callbacks, ``<details>``, lazy images with
``srcset``, a resize listener and a table that turns into cards on a narrow screen.
``embed.test`` is the other origin the iframes load.
Every stream ends by itself within a minute, and at once when the server stops.
"""

from __future__ import annotations

import base64
import hashlib
import io
import math
import struct
import wave
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from learner.demo.server import Request, Response, Site
from tests.site.markup import document

__all__ = ["EMBED", "PARTS", "PART_PAGES", "PartPage", "part_sites"]

PARTS = "parts.test"
EMBED = "embed.test"


@dataclass(frozen=True, slots=True)
class PartPage:
    """One fixture page: its path, the text its capture must show, and what it exercises."""

    path: str
    shows: str
    settles: bool = True
    why: str = ""


_PART_STYLE = "<style>body{margin:0;font:16px/1.4 sans-serif}main{padding:16px}</style>"


def _part_page(title: str, body: str, head: str = "") -> str:
    """A plain page: its title as the heading above ``body``."""
    return document(title, f"<main><h1>{title}</h1>{body}</main>", head=_PART_STYLE + head)


_TALL = "<div style='height:1800px'>Scroll down for more.</div>"

PART_PAGES: tuple[PartPage, ...] = (
    PartPage("/text-input", "Search the catalogue", why="a search box (caret)"),
    PartPage("/autofocus", "Type to search", why="a focused text field"),
    PartPage("/textarea", "Leave a note", why="a focused textarea"),
    PartPage("/editable", "Edit me", why="a focused contenteditable"),
    PartPage("/select", "Pick a size", why="a select"),
    PartPage("/frame-same", "Same-origin frame host", why="a same-origin iframe"),
    PartPage("/frame-cross", "Cross-origin frame host", why="a cross-origin iframe"),
    PartPage("/ad-slot", "Sponsored", why="ad slots on hosts that do not answer"),
    PartPage("/video-embed", "Watch the clip", why="a video player iframe"),
    PartPage("/frame-lazy", "Lazy frame host", why="a lazy iframe far down"),
    PartPage("/media", "Now playing", why="autoplaying video and audio"),
    PartPage("/fonts", "Set in a web font", why="a web font that arrives late"),
    PartPage("/animations", "Animation finished", why="CSS animations and transitions"),
    PartPage("/svg-canvas", "Drawn forever", why="SVG and canvas animation"),
    PartPage("/sticky", "Sticky header page", why="sticky and fixed headers"),
    PartPage("/cookie-banner", "We use cookies", why="a cookie banner shown by a timer"),
    PartPage("/beacons", "Measured page", why="beacons and pixels after load"),
    PartPage("/poll", "Updates:", why="a page that polls its server"),
    PartPage("/websocket", "Feed open: hello", why="a WebSocket feed"),
    PartPage("/sse", "Headline: welcome", why="server-sent events"),
    PartPage("/service-worker", "Works offline", why="a service worker"),
    PartPage("/idle", "Filled when idle", why="requestIdleCallback"),
    PartPage("/details", "Shown when open", why="<details>"),
    PartPage("/lazy-images", "Gallery", why="lazy images with srcset"),
    PartPage("/resize", "Resizes itself", why="a resize listener"),
    PartPage(
        "/responsive-table",
        "Row 59",
        why="a table that turns into cards on a narrow screen: a full-page screenshot "
        "applies its media query for a moment",
    ),
    PartPage(
        "/long-held",
        "Waiting for news",
        settles=False,
        why="a request held open past network_idle_max_s: it may carry content, so the "
        "page is captured unsettled rather than called ready",
    ),
)
"""Every page of ``parts.test``, with what its capture must show."""


_COLUMNS = ("title", "blurb", "genre", "year", "pages", "author")


def _html(path: str) -> str:
    pages = {
        "/text-input": _part_page(
            "Search the catalogue", "<form><input name=q value=lamp><button>Go</button></form>"
        ),
        "/autofocus": _part_page("Type to search", "<input name=q autofocus placeholder=Search>"),
        "/textarea": _part_page("Leave a note", "<textarea autofocus rows=4>Dear shop,</textarea>"),
        "/editable": _part_page(
            "Edit me",
            "<div id=e contenteditable>Draft text</div>"
            "<script>document.getElementById('e').focus()</script>",
        ),
        "/select": _part_page("Pick a size", "<select name=s><option>S<option selected>M</select>"),
        "/frame-same": _part_page(
            "Same-origin frame host", "<iframe src=/inner width=400 height=200></iframe>"
        ),
        "/frame-cross": _part_page(
            "Cross-origin frame host",
            f"<iframe src='http://{EMBED}/widget' width=400 height=200></iframe>",
        ),
        "/ad-slot": _part_page(
            "Sponsored",
            "<iframe src='https://ads.invalid/slot?size=300x250' width=300 height=250></iframe>"
            "<script async src='https://ads.invalid/tag.js'></script>"
            "<img src='https://ads.invalid/pixel.gif' width=1 height=1 alt=''>",
        ),
        "/video-embed": _part_page(
            "Watch the clip",
            f"<iframe src='http://{EMBED}/player' width=480 height=270 allow=autoplay></iframe>",
        ),
        "/frame-lazy": _part_page(
            "Lazy frame host",
            f"{_TALL}<iframe loading=lazy src='http://{EMBED}/widget' width=400 height=200>"
            "</iframe>",
        ),
        "/media": _part_page(
            "Now playing",
            "<video autoplay muted loop playsinline width=320 height=180 src=/live.wav>"
            "</video><audio autoplay src=/tone.wav></audio>",
        ),
        "/fonts": _part_page(
            "Set in a web font",
            "<p class=w>The quick brown fox.</p>",
            head="<style>@font-face{font-family:Shop;src:url(/font.ttf?slow=1)}"
            ".w{font-family:Shop,serif;font-size:28px}</style>",
        ),
        "/animations": _part_page(
            "CSS motion",
            "<div class=spin>*</div><span class=pulse>o</span>"
            "<div id=fade class=fade>Fading in</div><p id=done></p>"
            "<script>const f=document.getElementById('fade');"
            "requestAnimationFrame(()=>f.classList.add('in'));"
            "document.querySelector('.spin').addEventListener('animationend',()=>"
            "{document.getElementById('done').textContent='Animation finished'});</script>",
            head="<style>@keyframes spin{to{transform:rotate(360deg)}}"
            ".spin{display:inline-block;animation:spin 2s linear 3}"
            ".fade{opacity:0;transition:opacity 2s}.fade.in{opacity:1}"
            ".pulse{animation:spin 1s infinite}</style>",
        ),
        "/svg-canvas": _part_page(
            "Drawn forever",
            "<svg width=120 height=60><circle cx=30 cy=30 r=20 fill=teal>"
            "<animate attributeName=cx from=30 to=90 dur=1s repeatCount=indefinite></animate>"
            "</circle></svg><canvas id=c width=120 height=60></canvas>"
            "<script>const g=document.getElementById('c').getContext('2d');let t=0;"
            "function draw(){g.clearRect(0,0,120,60);g.fillRect((t++)%120,20,10,10);"
            "requestAnimationFrame(draw)}requestAnimationFrame(draw);</script>",
        ),
        "/sticky": _part_page(
            "Sticky header page",
            "<header id=h style='position:sticky;top:0;background:#eee'>Shop</header>"
            "<div style='position:fixed;right:0;bottom:0'>Help</div>"
            f"{_TALL}<p>Footer</p>"
            "<script>addEventListener('scroll',()=>{document.getElementById('h')"
            ".classList.toggle('scrolled',scrollY>40)})</script>",
        ),
        "/cookie-banner": _part_page(
            "Cookies",
            "<p>Article text.</p><script>setTimeout(()=>{const b=document.createElement('div');"
            "b.style.cssText='position:fixed;bottom:0;left:0;right:0;background:#333;color:#fff';"
            "b.textContent='We use cookies';document.body.append(b)},600)</script>",
        ),
        "/beacons": _part_page(
            "Measured page",
            "<script>addEventListener('load',()=>{navigator.sendBeacon('/collect','v=1');"
            "new Image().src='/pixel.gif?e=view';"
            "new Image().src='https://analytics.invalid/p.gif?e=view';"
            "fetch('https://analytics.invalid/collect',{method:'POST',body:'x'}).catch(()=>{})"
            "})</script>",
        ),
        "/poll": _part_page(
            "Live counter",
            "<p id=n>Updates: 0</p><script>let n=0;function poll(){fetch('/api/poll')"
            ".then(r=>r.text()).then(()=>{document.getElementById('n').textContent="
            "'Updates: '+(++n);setTimeout(poll,1000)})}poll();</script>",
        ),
        "/websocket": _part_page(
            "Live feed",
            "<p id=f>Connecting</p><p id=t></p><script>const ws=new WebSocket("
            "'ws://'+location.host+'/ws');let first=true;ws.onmessage=(e)=>{"
            "if(first){document.getElementById('f').textContent='Feed open: '+e.data;"
            "first=false}else{document.getElementById('t').textContent=e.data}};</script>",
        ),
        "/sse": _part_page(
            "News",
            "<p id=h>Loading headline</p><p id=t></p><script>const es=new EventSource('/events');"
            "let first=true;es.addEventListener('message',(e)=>{if(first){"
            "document.getElementById('h').textContent='Headline: '+e.data;first=false}"
            "else{document.getElementById('t').textContent=e.data}});</script>",
        ),
        "/service-worker": _part_page(
            "Works offline",
            "<script>if(navigator.serviceWorker){navigator.serviceWorker.register('/sw.js')"
            ".catch(()=>{})}</script>",
        ),
        "/idle": _part_page(
            "Idle",
            "<p id=i>Empty</p><script>requestIdleCallback(()=>{"
            "document.getElementById('i').textContent='Filled when idle'})</script>",
        ),
        "/details": _part_page(
            "Details",
            "<details><summary>More</summary>Hidden text</details>"
            "<details open><summary>Open</summary>Shown when open</details>",
        ),
        "/lazy-images": _part_page(
            "Gallery",
            f"{_TALL}"
            + "".join(
                f"<img loading=lazy width=200 height=120 alt='photo {n}' src='/photo.svg?n={n}' "
                f"srcset='/photo.svg?n={n}&w=200 200w, /photo.svg?n={n}&w=400 400w' "
                "sizes='200px'>"
                for n in range(4)
            ),
        ),
        "/resize": _part_page(
            "Resizes itself",
            "<p id=s></p><script>function size(){document.getElementById('s').textContent="
            "innerWidth+' by '+innerHeight;document.body.dataset.h=String(innerHeight)}"
            "size();addEventListener('resize',size)</script>",
        ),
        "/responsive-table": _part_page(
            "Responsive table",
            "<table class=t>"
            + "".join(
                f"<tr><td>Row {n}</td>" + "".join(f"<td>{c} {n}</td>" for c in _COLUMNS) + "</tr>"
                for n in range(60)
            )
            + "</table>",
            head="<style>@media (max-width:576px){.t,.t tr,.t td{display:block}"
            ".t tr{border:1px solid #ccc;margin-bottom:1em;border-radius:10px;padding:.2rem}"
            ".t td{border:none;border-bottom:1px solid #eee;padding-left:10%}"
            ".t td:before{display:block;margin-left:-10%;font-size:.8em}"
            + "".join(
                f".t td:nth-of-type({k + 2}):before{{content:'{c}'}}"
                for k, c in enumerate(_COLUMNS)
            )
            + "}</style>",
        ),
        "/long-held": _part_page(
            "Waiting for news",
            "<p id=n></p><script>fetch('/api/held').then(r=>r.text()).then(t=>"
            "{document.getElementById('n').textContent=t})</script>",
        ),
        "/inner": _part_page("Inner frame", "<input name=q value=inside autofocus>"),
    }
    return pages[path]


def _websocket_frame(text: str) -> bytes:
    data = text.encode()
    return bytes([0x81, len(data)]) + data  # one unmasked text frame, under 126 bytes


_WS_GUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"


def _websocket(request: Request) -> Response:
    key = request.headers.get("Sec-WebSocket-Key", "")
    accept = base64.b64encode(hashlib.sha1((key + _WS_GUID).encode()).digest()).decode()

    def frames() -> Iterator[bytes]:
        yield _websocket_frame("hello")
        for n in range(200):  # a tick every 0.2 s for at most 40 s
            if request.stopping.wait(0.2):
                return
            yield _websocket_frame(f"tick {n}")

    headers = {"Upgrade": "websocket", "Connection": "Upgrade", "Sec-WebSocket-Accept": accept}
    return Response(101, frames(), headers=headers)


def _events(request: Request) -> Response:
    def stream() -> Iterator[bytes]:
        yield b"data: welcome\n\n"
        for n in range(200):
            if request.stopping.wait(0.2):
                return
            yield f"data: tick {n}\n\n".encode()

    return Response(200, stream(), "text/event-stream", {"Cache-Control": "no-cache"})


@cache
def _tone() -> bytes:
    """Half a second of a sine tone as WAV."""
    out = io.BytesIO()
    with wave.open(out, "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(8000)
        w.writeframes(b"".join(struct.pack("<h", int(8000 * math.sin(i / 5))) for i in range(4000)))
    return out.getvalue()


def _live_stream(request: Request) -> Response:
    """A WAV stream that keeps coming, a piece every 0.2 s (a live broadcast): it plays at
    once and its request never ends while the page is open."""
    tone = _tone()
    header, samples = bytearray(tone[:44]), tone[44:]
    header[4:8] = header[40:44] = struct.pack("<I", 0x7FFFFFF0)  # an open-ended length

    def stream() -> Iterator[bytes]:
        yield bytes(header) + samples
        for _ in range(200):
            if request.stopping.wait(0.2):
                return
            yield samples[:3200]

    return Response(200, stream(), "audio/wav")


@cache
def _font() -> bytes:
    """A TrueType font of the machine's (Chromium depends on some); empty if there is none."""
    for path in sorted(Path("/usr/share/fonts").rglob("*.ttf")):
        return path.read_bytes()
    return b""


def _photo(request: Request) -> Response:
    n = request.params.get("n", "0")
    svg = (
        "<svg xmlns='http://www.w3.org/2000/svg' width='200' height='120'>"
        f"<rect width='200' height='120' fill='#{(int(n) * 40) % 256:02x}8844'/></svg>"
    )
    return Response(200, svg, "image/svg+xml")


def _slow(request: Request, body: bytes | str, content_type: str, delay_s: float) -> Response:
    request.stopping.wait(delay_s)
    return Response(200, body, content_type)


def _serve_page(request: Request) -> Response:
    return Response(body=_html(request.path))


def _parts() -> Site:
    site = Site(PARTS)
    for page in (*PART_PAGES, PartPage("/inner", "")):
        site.routes[page.path] = _serve_page
    site.routes["/ws"] = _websocket
    site.routes["/events"] = _events
    site.routes["/live.wav"] = _live_stream
    site.routes["/tone.wav"] = lambda r: Response(200, _tone(), "audio/wav")
    site.routes["/font.ttf"] = lambda r: _slow(r, _font(), "font/ttf", 0.3)
    site.routes["/photo.svg"] = _photo
    site.routes["/collect"] = lambda r: Response(204, b"", "text/plain")
    site.routes["/pixel.gif"] = lambda r: _slow(r, b"GIF89a", "image/gif", 0.3)
    site.routes["/api/poll"] = lambda r: _slow(r, "ok", "text/plain", 0.3)
    site.routes["/api/held"] = lambda r: _slow(r, "News arrived", "text/plain", 60.0)
    site.routes["/sw.js"] = lambda r: Response(
        200, "self.addEventListener('fetch',()=>{})", "text/javascript"
    )
    return site


def _embed() -> Site:
    site = Site(EMBED)
    site.routes["/widget"] = lambda r: Response(
        body=_part_page("Widget", "<input name=w autofocus>")
    )
    site.routes["/player"] = lambda r: Response(
        body="<!doctype html><video autoplay muted loop playsinline width=480 height=270 "
        "src=/live.wav></video>"
    )
    site.routes["/live.wav"] = _live_stream
    return site


def part_sites() -> list[Site]:
    """``parts.test`` and the ``embed.test`` origin its frames load."""
    return [_parts(), _embed()]
