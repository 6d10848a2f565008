"""``spell.test``: one article under two spellings, a spelling that fails, and a false pair.

Every article is served at ``/wiki/{title}`` and, the same page, at
``/index.php?title={title}`` (with ``action=history``, its history, under both spellings).
``/index.php?title=Loop`` redirects to itself: its render fails, whatever it would show. The
topics ``/topic/{title}`` share their values with the search ``/find?q={title}``, but a search
lists what it found: another page, never one spelling of the topic.

Two more spell one page two ways and say which spelling is theirs: ``/page.php?id={name}``
declares ``<link rel=canonical href=/pages/{name}>`` (as ``/pages/{name}`` does itself), and
``/doc.php?name={name}`` redirects to ``/docs/{name}`` (301). A folder (``/guide/``) is
served as its default document ``/guide/index.html``; ``/guide`` redirects to ``/guide/``.
The root ``/`` is served as its default document ``/index.html`` too. ``www.spell.test``
redirects every page to ``spell.test`` (301), as many sites send their ``www.`` host to the
bare one.

``ALIAS_LOG`` is the observed log: both spellings of the articles (``Loop`` first), two
topics and their searches, the pages more often by ``/page.php`` than by ``/pages``, and the
documents only by ``/doc.php`` (some with a tracking ``ref``), the folders by both
spellings, the root by both spellings, and three articles on ``www.spell.test``.
"""

from __future__ import annotations

from urllib.parse import urlencode

from learner.demo.server import Handler, Request, Response, Site
from tests.site.markup import document

__all__ = [
    "ALIAS_LOG",
    "DOCS",
    "FOLDERS",
    "HOST",
    "NAMES",
    "TITLES",
    "WWW_HOST",
    "alias_site",
    "www_alias_site",
]

HOST = "spell.test"
WWW_HOST = f"www.{HOST}"
TITLES = ("Mill", "Harbour", "Tower", "Lake", "Quarry")
NAMES = ("Alder", "Birch", "Cedar", "Damson")
DOCS = ("Elm", "Fir", "Gorse", "Hazel")
FOLDERS = ("guide", "tour", "faq")
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


def _named(kind: str, name: str) -> Response:
    """The page or document ``name``, with its canonical link for a page."""
    head = _STYLE + (f"<link rel=canonical href='/pages/{name}'>" if kind == "page" else "")
    body = f"<main><h1>{kind.title()}: {name}</h1><p>The {name} {kind} of the wiki.</p></main>"
    return Response(body=document(f"{name} - {kind}s", body, head=head))


def _by_name(kind: str, name: str) -> Handler:
    return lambda request: _named(kind, name)


def _page_php(request: Request) -> Response:
    name = request.params.get("id", "")
    if name not in NAMES:
        return Response(404, document("No page", "<main><p>No such page</main>"))
    return _named("page", name)


def _doc_php(request: Request) -> Response:
    return Response(301, "", headers={"Location": f"/docs/{request.params.get('name', '')}"})


def _moved_to(location: str) -> Handler:
    return lambda request: Response(301, "", headers={"Location": location})


def _folder(folder: str) -> Handler:
    body = f"<main><h1>The {folder}</h1><p>Start here: the {folder} of the wiki.</p></main>"
    return lambda request: Response(body=document(f"{folder} - Spell Wiki", body, head=_STYLE))


def alias_site() -> Site:
    """The ``spell.test`` host."""
    site = Site(HOST)
    for title in TITLES:
        site.routes[f"/wiki/{title}"] = _wiki(title)
        site.routes[f"/topic/{title}"] = _topic(title)
    for name in NAMES:
        site.routes[f"/pages/{name}"] = _by_name("page", name)
    for name in DOCS:
        site.routes[f"/docs/{name}"] = _by_name("document", name)
    for folder in FOLDERS:
        site.routes[f"/{folder}"] = _moved_to(f"/{folder}/")
        site.routes[f"/{folder}/"] = site.routes[f"/{folder}/index.html"] = _folder(folder)
    site.routes["/"] = site.routes["/index.html"] = _folder("front page")
    site.routes["/index.php"] = _index
    site.routes["/find"] = _find
    site.routes["/page.php"] = _page_php
    site.routes["/doc.php"] = _doc_php
    return site


def _to_bare(request: Request) -> Response:
    query = urlencode(request.query)
    location = f"http://{HOST}{request.path}" + (f"?{query}" if query else "")
    return Response(301, "", headers={"Location": location})


def www_alias_site() -> Site:
    """The ``www.spell.test`` host: every page of ``spell.test`` sent there."""
    site = Site(WWW_HOST)
    for path in alias_site().routes:
        site.routes[path] = _to_bare
    return site


ALIAS_LOG: tuple[str, ...] = (
    *(f"http://{HOST}/wiki/{t}" for t in TITLES * 2),
    f"http://{HOST}/index.php?title={_LOOP}",
    *(f"http://{HOST}/index.php?title={t}" for t in TITLES[:4]),
    *(f"http://{HOST}/topic/{t}" for t in TITLES[:2]),
    *(f"http://{HOST}/find?q={t}" for t in TITLES[:2]),
    *(f"http://{HOST}/page.php?id={n}" for n in NAMES),
    *(f"http://{HOST}/pages/{n}" for n in NAMES[:2]),
    *(f"http://{HOST}/doc.php?name={n}" for n in DOCS),
    *(f"http://{HOST}/doc.php?name={n}&ref=mail" for n in DOCS[:2]),
    *(f"http://{HOST}/{f}/" for f in FOLDERS),
    *(f"http://{HOST}/{f}/index.html" for f in FOLDERS),
    f"http://{HOST}/",
    f"http://{HOST}/index.html",
    *(f"http://{WWW_HOST}/wiki/{t}" for t in TITLES[1:4]),
)
"""The observed log of ``spell.test``."""
