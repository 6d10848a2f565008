"""A site whose default values hide: links rarely spell them, the page marks them current.

``hidden.test`` serves, each page drawn from :func:`page_of` (the ground truth):

- ``/guide/N?lang``: an English guide; no ``lang`` is ``lang=en``. The page in language L
  has ``<html lang=L>``, an alternate link per language and an ``aria-current`` language
  link on L.
- ``/item/N`` and ``/gift/N`` ``?tab`` (two path templates): no ``tab`` is
  ``tab=overview``; the open tab's ``<li>`` has the class ``active``.
- ``/list/N?size``: 20 rows unless ``size`` says 10 or 50; a ``<select name=size>`` has the
  shown size selected.
- ``/feed/N?offset``: from the first entry unless ``offset`` says 10 or 20; a checked radio
  ``offset`` and a canonical link name the shown offset.
- Trap: ``/shop/N?sort``: no ``sort`` lists by relevance, but the sort menu wrongly has
  ``new`` selected; ``sort=new`` lists the newest first, another page.

The observed log (:func:`hidden_urls`) spells ``lang=en`` and ``tab=overview`` once each,
``size=20``, ``offset=0`` and ``sort=new`` never: no default is among the frequent values.
:data:`HIDDEN_DEFAULTS` are the defaults to learn, exactly; :func:`hidden_held_out_pairs`
are default pairs on ids the log never shows.
"""

from __future__ import annotations

import random
from urllib.parse import parse_qsl, urlencode, urlsplit

from learner.demo.server import Request, Response, Site
from tests.site.markup import document

__all__ = [
    "HIDDEN_DEFAULTS",
    "HIDDEN_HOST",
    "hidden_different_pairs",
    "hidden_held_out_pairs",
    "hidden_site",
    "hidden_urls",
    "page_of",
]

HIDDEN_HOST = "hidden.test"

HIDDEN_DEFAULTS: dict[str, dict[str, frozenset[str]]] = {
    "lang": {"lang": frozenset({"en"})},
    "tab": {"tab": frozenset({"overview"})},
    "size": {"size": frozenset({"20"})},
    "offset": {"offset": frozenset({"0"})},
}

_LANGS = {"en": "Welcome", "fr": "Bienvenue", "de": "Willkommen", "es": "Bienvenido"}
_TABS = {"overview": "Oak, oiled by hand.", "reviews": "Five stars.", "specs": "80 x 30 cm."}
_SIZES = ("10", "20", "50")
_OFFSETS = ("0", "10", "20")
_SORTS = ("relevance", "price", "name", "new")


def _section(path: str) -> tuple[str, str]:
    parts = path.strip("/").split("/")
    return (parts[0], parts[1]) if len(parts) == 2 and parts[1].isdigit() else ("", "")


def page_of(url: str) -> tuple[str, ...]:
    """The page a URL shows: equal for two URLs exactly when their content is the same.

    >>> page_of("http://hidden.test/list/3?size=20") == page_of("http://hidden.test/list/3")
    True
    """
    parts = urlsplit(url)
    params = dict(reversed(parse_qsl(parts.query, keep_blank_values=True)))
    kind, number = _section(parts.path)
    value = {
        "guide": ("lang", "en", tuple(_LANGS)),
        "item": ("tab", "overview", tuple(_TABS)),
        "gift": ("tab", "overview", tuple(_TABS)),
        "list": ("size", "20", _SIZES),
        "feed": ("offset", "0", _OFFSETS),
        "shop": ("sort", "relevance", _SORTS),
    }.get(kind)
    if value is None:
        return (parts.path,)
    name, default, known = value
    shown = params.get(name, default)
    return (kind, number, shown if shown in known else default)


def _query(name: str, value: str) -> str:
    return "?" + urlencode([(name, value)])


def _main(page: tuple[str, ...]) -> tuple[str, str]:
    """The page's ``<head>`` extras and its main content."""
    kind, number, shown = page
    title = f"{kind.title()} {number}"
    if kind == "guide":
        alternates = "".join(
            f'<link rel=alternate hreflang={lang} href="{_query("lang", lang)}">' for lang in _LANGS
        )
        menu = "".join(
            f'<a href="{_query("lang", lang)}"'
            f"{' aria-current=page' if lang == shown else ''}>{lang}</a> "
            for lang in _LANGS
        )
        return alternates, f"<nav>{menu}</nav><h1>{_LANGS[shown]}: {title}</h1>"
    if kind in ("item", "gift"):
        tabs = "".join(
            f"<li{' class=active' if tab == shown else ''}>"
            f'<a href="{_query("tab", tab)}">{tab}</a></li>'
            for tab in _TABS
        )
        return "", f"<h1>{title}</h1><ul>{tabs}</ul><p>{shown}: {_TABS[shown]}</p>"
    if kind == "list":
        options = "".join(
            f"<option value={s}{' selected' if s == shown else ''}>{s}</option>" for s in _SIZES
        )
        rows = "".join(f"<li>Row {n}</li>" for n in range(1, int(shown) + 1))
        form = f"<form><select name=size>{options}</select></form>"
        return "", f"<h1>{title}</h1>{form}<ol style='columns:5'>{rows}</ol>"
    if kind == "feed":
        radios = "".join(
            f"<label><input type=radio name=offset value={o}"
            f"{' checked' if o == shown else ''}>{o}</label>"
            for o in _OFFSETS
        )
        canonical = f'<link rel=canonical href="{_query("offset", shown)}">'
        entries = "".join(f"<li>Entry {int(shown) + n}</li>" for n in range(1, 6))
        return canonical, f"<h1>{title}</h1><form>{radios}</form><ol>{entries}</ol>"
    # shop: the sort menu marks "new" whatever the order shown (the trap).
    options = "".join(
        f"<option value={s}{' selected' if s == 'new' else ''}>{s}</option>" for s in _SORTS
    )
    order = {"relevance": "B A C", "price": "A B C", "name": "C B A", "new": "C A B"}[shown]
    return "", f"<h1>{title}</h1><form><select name=sort>{options}</select></form><p>{order}</p>"


_HIDDEN_STYLE = (
    "<style>body{margin:0;font:16px/1.4 sans-serif}header{height:60px;"
    "background:#352;color:#fff;padding:0 20px}main{padding:20px}</style>"
)


def _hidden_page(page: tuple[str, ...]) -> str:
    """The document of one page of :func:`page_of`."""
    if len(page) != 3:
        return "<!doctype html><title>Hidden</title><h1>Home</h1>"
    head, main = _main(page)
    lang = page[2] if page[0] == "guide" else "en"
    body = f"<header><b>Hidden</b></header><main>{main}</main>"
    return document("Hidden", body, head=head + _HIDDEN_STYLE, lang=lang)


def hidden_site() -> Site:
    """The ``hidden.test`` host: every path ``/KIND/N`` of :func:`page_of`."""
    site = Site(HIDDEN_HOST)

    def handler(request: Request) -> Response:
        url = f"http://{HIDDEN_HOST}{request.path}?{urlencode(request.query)}"
        page = page_of(url)
        return Response(body=_hidden_page(page), status=200 if len(page) == 3 else 404)

    for kind in ("guide", "item", "gift", "list", "feed", "shop"):
        for number in range(1, 41):
            site.routes[f"/{kind}/{number}"] = handler
    return site


def _url(kind: str, number: int, name: str, value: str) -> str:
    return f"http://{HIDDEN_HOST}/{kind}/{number}?{urlencode([(name, value)])}"


def hidden_urls() -> list[str]:
    """The observed-URL log: defaults spelled once or never.

    >>> urls = hidden_urls()
    >>> len(urls), urls == hidden_urls(), sum("lang=en" in u for u in urls)
    (78, True, 1)
    """
    rng = random.Random(5)
    urls: list[str] = []
    for kind, name, common, rare in (
        ("guide", "lang", ("fr", "de", "es"), "en"),
        ("item", "tab", ("reviews", "specs"), "overview"),
        ("list", "size", ("10", "50"), ""),
        ("feed", "offset", ("10", "20"), ""),
        ("shop", "sort", ("price", "name"), ""),
    ):
        for _ in range(14):
            urls.append(_url(kind, rng.randint(1, 12), name, rng.choice(common)))
        if rare:
            urls.append(_url(kind, rng.randint(1, 12), name, rare))
    for _ in range(6):
        urls.append(_url("gift", rng.randint(1, 12), "tab", rng.choice(("reviews", "specs"))))
    return urls


def hidden_held_out_pairs() -> list[tuple[str, str]]:
    """Default pairs on ids the log never shows: the normalizer must merge each."""
    pairs = []
    for kind, name, value in (
        ("guide", "lang", "en"),
        ("item", "tab", "overview"),
        ("gift", "tab", "overview"),
        ("list", "size", "20"),
        ("feed", "offset", "0"),
    ):
        for number in (30, 31):
            pairs.append((_url(kind, number, name, value), f"http://{HIDDEN_HOST}/{kind}/{number}"))
    return pairs


def hidden_different_pairs() -> list[tuple[str, str]]:
    """Pairs that look like default pairs but are different pages: never to be merged."""
    return [
        (_url(kind, 30, name, value), f"http://{HIDDEN_HOST}/{kind}/30")
        for kind, name, value in (
            ("guide", "lang", "fr"),
            ("item", "tab", "reviews"),
            ("list", "size", "50"),
            ("feed", "offset", "10"),
            ("shop", "sort", "new"),
            ("shop", "sort", "price"),
        )
    ]
