"""``spell.test``: one article under two spellings, a spelling that fails, and a false pair.

Every article is served at ``/wiki/{title}`` and, the same page, at
``/index.php?title={title}`` (with ``action=history``, its history, under both spellings).
``/index.php?title=Loop`` redirects to itself: its render fails, whatever it would show. The
topics ``/topic/{title}`` share their values with the search ``/find?q={title}``, but a search
lists what it found: another page, never one spelling of the topic.

``ALIAS_LOG`` is the observed log: both spellings of the articles (``Loop`` first), two
topics and their searches.
"""

from __future__ import annotations

from learner.demo.server import Handler, Request, Response, Site
from tests.site.markup import document

__all__ = ["ALIAS_LOG", "HOST", "TITLES", "alias_site"]

HOST = "spell.test"
TITLES = ("Mill", "Harbour", "Tower", "Lake", "Quarry")
_LOOP = "Loop"
_STYLE = "<style>body{margin:0;font:16px/1.5 serif}main{padding:20px}</style>"
_TEXT = {
    "Mill": "The mill ground the valley's grain for two hundred years.",
    "Harbour": "Fishing boats still land their catch at the old harbour wall.",
    "Tower": "The signal tower watched the coast road through three wars.",
    "Lake": "A cold lake, twelve metres deep, fed by the northern springs.",
    "Quarry": "Stone from the quarry built the town hall and the bridge.",
}


def _article(title: str, action: str) -> Response:
    if action == "history":
        main = f"<h1>{title}: history</h1><ol><li>rev 3</li><li>rev 2</li><li>rev 1</li></ol>"
    else:
        main = f"<h1>{title}</h1><p>{_TEXT[title]}</p>"
    return Response(body=document(f"{title} - Spell Wiki", f"<main>{main}</main>", head=_STYLE))


def _wiki(title: str) -> Handler:
    return lambda request: _article(title, request.params.get("action", ""))


def _index(request: Request) -> Response:
    title = request.params.get("title", "")
    if title == _LOOP:
        return Response(302, "", headers={"Location": f"/index.php?title={_LOOP}"})
    if title not in TITLES:
        return Response(404, document("No page", "<main><p>No such page</main>"))
    return _article(title, request.params.get("action", ""))


def _topic(title: str) -> Handler:
    body = f"<main><h1>Topic: {title}</h1><p>Everything about the {title.lower()}.</p></main>"
    return lambda request: Response(body=document(f"{title} - topics", body, head=_STYLE))


def _find(request: Request) -> Response:
    q = request.params.get("q", "")
    body = f"<main><h1>Search</h1><p>3 results for <b>{q}</b>: {q} (topic), {q} walk, old {q}</p>"
    return Response(body=document(f"Search: {q}", body + "</main>", head=_STYLE))


def alias_site() -> Site:
    """The ``spell.test`` host."""
    site = Site(HOST)
    for title in TITLES:
        site.routes[f"/wiki/{title}"] = _wiki(title)
        site.routes[f"/topic/{title}"] = _topic(title)
    site.routes["/index.php"] = _index
    site.routes["/find"] = _find
    return site


ALIAS_LOG: tuple[str, ...] = (
    *(f"http://{HOST}/wiki/{t}" for t in TITLES * 2),
    f"http://{HOST}/index.php?title={_LOOP}",
    *(f"http://{HOST}/index.php?title={t}" for t in TITLES[:4]),
    *(f"http://{HOST}/topic/{t}" for t in TITLES[:2]),
    *(f"http://{HOST}/find?q={t}" for t in TITLES[:2]),
)
"""The observed log of ``spell.test``."""
