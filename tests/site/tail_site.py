"""A site whose URLs spread over more than twenty patterns, with a long tail.

``tail.test`` serves item pages, ``/item/1`` to ``/item/12``, as a wiki or a shop with many
views does: each parameter of :data:`SHOWN` changes what an item page shows (its value is
written on the page), each of :data:`IGNORED` is read by nobody. The observed log
(:func:`tail_urls`) holds twenty-two patterns of real weight (9 to 4 URLs each: three pair
a name the page shows with one it ignores, nineteen hold one name it shows) and a long tail
of one-name patterns seen once, each a name of a weighty pair. Twenty patterns leave two
weighty ones and 6% of the URLs unstudied, whichever of the five of four URLs key order
puts last; studied by share, 97% of the URLs are covered and the tail is decided through
the evidence shared across patterns (a tail URL's name met, in a studied pattern, every
other name of the URL: there are none).
"""

from __future__ import annotations

import html
from urllib.parse import urlencode

from learner.demo.server import Handler, Request, Response, Site
from tests.site.markup import document

__all__ = ["IGNORED", "SHOWN", "TAIL", "TAIL_HOST", "WEIGHTY", "tail_site", "tail_urls"]

TAIL_HOST = "tail.test"
ITEMS = 12
IGNORED = ("via", "trail", "camp")
"""Parameters the site never reads."""
WEIGHTY: tuple[tuple[tuple[str, ...], int], ...] = (
    (("lang", "via"), 9), (("sec", "trail"), 9), (("camp", "tab"), 8),
    (("view",), 8), (("mode",), 8), (("part",), 7), (("step",), 7), (("chart",), 7),
    (("unit",), 6), (("scale",), 6), (("zoom",), 6), (("layer",), 6), (("cat",), 5),
    (("tag",), 5), (("topic",), 5), (("rev",), 5), (("diff",), 5), (("theme",), 4),
    (("skin",), 4), (("pane",), 4), (("grid",), 4), (("fmt",), 4),
)  # fmt: skip
"""The patterns of real weight: their names and observed URLs."""
SHOWN = tuple(n for names, _ in WEIGHTY for n in names if n not in IGNORED)
"""Parameters that change the item page."""
TAIL = ("via", "trail", "camp", "lang", "sec", "tab")
"""The long tail: one-name patterns, one URL each."""
_VALUES = ("a", "b", "c", "d", "e", "f", "g", "h", "i")

_STYLE = (
    "<style>body{margin:0;font:16px/1.4 sans-serif}header{height:56px;background:#354;"
    "color:#fff;padding:0 20px}main{padding:20px}</style>"
)


def _item(number: int) -> Handler:
    def page(request: Request) -> Response:
        shown = "".join(
            f"<li>{html.escape(name)}: {html.escape(request.params[name])}</li>"
            for name in SHOWN
            if name in request.params
        )
        main = f"<main><h1>Item {number}</h1><p>The item's page.</p><ul>{shown}</ul></main>"
        body = f"<header><b>Items</b></header>{main}"
        return Response(body=document(f"Item {number}", body, head=_STYLE))

    return page


def tail_site() -> Site:
    """The ``tail.test`` host."""
    site = Site(TAIL_HOST)
    for number in range(1, ITEMS + 1):
        site.routes[f"/item/{number}"] = _item(number)
    return site


def _url(number: int, params: list[tuple[str, str]]) -> str:
    return f"http://{TAIL_HOST}/item/{number}?{urlencode(params)}"


def tail_urls() -> list[str]:
    """The observed log: the weighty patterns, then the tail; distinct items and values."""
    urls = []
    for i, (names, weight) in enumerate(WEIGHTY):
        for k in range(weight):
            urls.append(_url(1 + (i + k) % ITEMS, [(name, _VALUES[k]) for name in names]))
    for i, name in enumerate(TAIL):
        urls.append(_url(1 + i % ITEMS, [(name, "x")]))
    return urls
