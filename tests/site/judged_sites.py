"""Two sites whose pages differ from the page without a parameter in one way only.

``wiki.test`` serves its old titles as MediaWiki's redirect pages do: the target's article
("Redirected from ..."), whose script then shows the target's URL, keeping the query:
``/wiki/Old_Mill?ref=dashboard`` ends at ``/w/index.php?title=Riverside_Mill&ref=dashboard``,
``/wiki/Old_Mill`` at ``/wiki/Riverside_Mill``. ``/w/index.php?title=Riverside_Mill`` is served
as it is, the same article as ``/wiki/Riverside_Mill``, as MediaWiki's is; ``/w/index.php`` with
a title not in its canonical form (``riverside Mill``) redirects to the short form. ``ref``
changes nothing but the final URL.

``spots.test`` draws a picture box with a 4x4-px spot at its corner. On ``/photo/{id}`` the
spot is noise: it shows on one render and not on the next (here, deterministically, on the
first render of ``/photo/1`` without ``ref``, and on no other render), and ``ref`` changes
nothing. On ``/badge/{id}`` the spot's colour is ``tone``'s, grey without it: a real change,
stable from render to render, in a few pixels only.
"""

from __future__ import annotations

import threading
from urllib.parse import urlencode

from learner.demo.server import Handler, Request, Response, Site
from tests.site.markup import document

__all__ = ["SPOTS_HOST", "WIKI_HOST", "judged_sites", "judged_urls"]

WIKI_HOST = "wiki.test"
SPOTS_HOST = "spots.test"

MOVED = {
    "Old_Mill": "Riverside_Mill",
    "Old_Bridge": "Stone_Bridge",
    "Old_Forge": "Iron_Forge",
    "Old_Well": "Well_Lane",
}
"""Old titles and where their redirect pages lead."""
REFS = ("dashboard", "sidebar", "search", "footer")
TONES = {"red": "#c00", "blue": "#03c", "green": "#0a3"}

_WIKI_STYLE = (
    "<style>body{margin:0;font:16px/1.5 serif}header{height:56px;background:#eaecf0;"
    "padding:0 20px}main{padding:20px}</style>"
)


def _article(title: str, moved_from: str = "", shown_at: str = "") -> Response:
    """The article ``title``; reached through ``moved_from``, it says so and shows its URL."""
    shown = title.replace("_", " ")
    note = f"<p>(Redirected from {moved_from.replace('_', ' ')})</p>" if moved_from else ""
    script = f"<script>history.replaceState(null, '', {shown_at!r});</script>" if shown_at else ""
    body = (
        f"<header><b>Riverside Wiki</b></header><main><h1>{shown}</h1>{note}"
        f"<p>{shown} stands by the river and was rebuilt in 1852.</p></main>{script}"
    )
    return Response(body=document(f"{shown} - Riverside Wiki", body, head=_WIKI_STYLE))


def _moved(old: str) -> Handler:
    """A redirect page, as MediaWiki serves one: the target's article, its URL shown."""

    def handler(request: Request) -> Response:
        target = MOVED[old]
        if request.query:
            query = urlencode([("title", target), *request.query])
            return _article(target, old, f"/w/index.php?{query}")
        return _article(target, old, f"/wiki/{target}")

    return handler


def _index(request: Request) -> Response:
    asked = request.params.get("title", "")
    title = asked[:1].upper() + asked[1:].replace(" ", "_")
    if title not in MOVED.values():
        return Response(status=404, body="<!doctype html><title>No page</title><p>no page")
    if title != asked:
        return Response(status=301, headers={"Location": f"/wiki/{title}"})
    return _article(title)


def _shows(title: str) -> Handler:
    return lambda request: _article(title)


def _wiki_site() -> Site:
    site = Site(WIKI_HOST)
    for old, new in MOVED.items():
        site.routes[f"/wiki/{old}"] = _moved(old)
        site.routes[f"/wiki/{new}"] = _shows(new)
    site.routes["/w/index.php"] = _index
    return site


def _box(spot: str | None) -> str:
    """A picture box, with a 4x4-px spot of colour ``spot`` at its top left corner."""
    dot = (
        f"<div style='position:absolute;left:0;top:0;width:4px;height:4px;background:{spot}'></div>"
        if spot
        else ""
    )
    return (
        "<div style='position:relative;width:320px;height:200px;margin:24px;"
        f"background:#8ab'>{dot}</div>"
    )


def _spots_page(title: str, spot: str | None) -> Response:
    body = f"<main style='font:16px sans-serif;padding:20px'><h1>{title}</h1>{_box(spot)}</main>"
    return Response(body=document(title, body))


def _spots_site() -> Site:
    site = Site(SPOTS_HOST)
    lock = threading.Lock()
    bare_renders: dict[str, int] = {}

    def photo(request: Request) -> Response:
        with lock:
            seen = bare_renders.get(request.path, 0) if not request.query else -1
            if seen >= 0:
                bare_renders[request.path] = seen + 1
        # The noise: the first render of /photo/1 without ref catches the spot.
        spot = "#fff" if request.path == "/photo/1" and seen == 0 else None
        return _spots_page(f"Photo {request.path.rsplit('/', 1)[1]}", spot)

    def badge(request: Request) -> Response:
        tone = request.params.get("tone")
        return _spots_page(f"Badge {request.path.rsplit('/', 1)[1]}", TONES.get(tone or "", "#777"))

    for n in range(1, 5):
        site.routes[f"/photo/{n}"] = photo
        site.routes[f"/badge/{n}"] = badge
    return site


def judged_sites() -> list[Site]:
    """The ``wiki.test`` and ``spots.test`` hosts (a fresh noise count for each server)."""
    return [_wiki_site(), _spots_site()]


def judged_urls() -> list[str]:
    """The observed log: every old title with a ``ref``, four photos, three badges."""
    urls = [f"http://{WIKI_HOST}/wiki/{old}?ref={r}" for old, r in zip(MOVED, REFS, strict=True)]
    urls += [f"http://{SPOTS_HOST}/photo/{n}?ref={ref}" for n, ref in enumerate(REFS, 1)]
    urls += [f"http://{SPOTS_HOST}/badge/{n}?tone={tone}" for n, tone in enumerate(TONES, 1)]
    return urls
