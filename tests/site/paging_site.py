"""A paginated list whose page size is a parameter: ``page`` matters beside one size only.

``paging.test`` serves ``/tickets?milestone&max&page`` as an issue tracker's query does: the
tickets of a milestone, ``max`` a page (100 when absent), page ``page``. While every ticket
fits on one page the page number is ignored, so at ``max=10`` (six tickets a milestone)
``page`` changes nothing; at ``max=5`` it turns pages. The observed log
(:func:`paging_urls`) has nine queries ten a page and five queries five a page: a learner
that never samples ``max=5`` sees ``page`` do nothing, and publishing that merges two
different pages of results (:func:`paging_different_pairs`).
"""

from __future__ import annotations

from urllib.parse import urlencode

from learner.demo.server import Request, Response, Site
from tests.site.markup import document

__all__ = ["PAGING_HOST", "paging_different_pairs", "paging_site", "paging_urls", "tickets_on"]

PAGING_HOST = "paging.test"
TICKETS = 6
"""Tickets per milestone: one page at ten a page, two at five."""
MILESTONES = ("m1", "m2", "m3", "m4", "m5")


def tickets_on(milestone: str, size: int, page: int) -> list[str] | None:
    """The tickets a query shows, or ``None`` for a page past the last.

    >>> tickets_on("m1", 10, 3) == tickets_on("m1", 10, 1) == tickets_on("m1", 100, 1)
    True
    >>> tickets_on("m1", 5, 2)
    ['m1-6']
    """
    if size >= TICKETS:
        page = 1
    elif page > -(-TICKETS // size):
        return None
    first = size * (page - 1)
    return [f"{milestone}-{n + 1}" for n in range(first, min(first + size, TICKETS))]


_TICKETS_STYLE = (
    "<style>body{margin:0;font:16px/1.4 sans-serif}header{height:60px;background:#235;"
    "color:#fff;padding:0 20px}main{padding:20px}td{padding:4px 12px}</style>"
)


def _tickets(request: Request) -> Response:
    params = request.params
    milestone = params.get("milestone", "m1")
    try:
        size, page = int(params.get("max", "100")), int(params.get("page", "1"))
    except ValueError:
        return Response(body="<!doctype html><title>Bad query</title><p>bad query", status=400)
    shown = tickets_on(milestone, size, page) if size > 0 and page > 0 else None
    if shown is None:
        return Response(body="<!doctype html><title>No page</title><p>no such page", status=404)
    rows = "".join(f"<tr><td>#{t}</td><td>Ticket {t} of the harbour</td></tr>" for t in shown)
    main = f"<main><h1>Milestone {milestone}</h1><table>{rows}</table></main>"
    return Response(
        body=document("Tickets", f"<header><b>Tickets</b></header>{main}", head=_TICKETS_STYLE)
    )


def paging_site() -> Site:
    """The ``paging.test`` host."""
    site = Site(PAGING_HOST)
    site.routes["/tickets"] = _tickets
    return site


def _url(milestone: str, size: int, page: int) -> str:
    query = urlencode([("milestone", milestone), ("max", size), ("page", page)])
    return f"http://{PAGING_HOST}/tickets?{query}"


def paging_urls() -> list[str]:
    """Nine queries ten a page (their page numbers do nothing), five queries five a page."""
    ten = [(1, 2), (2, 1), (3, 3), (4, 2), (5, 1), (1, 3), (2, 4), (3, 1), (4, 3)]
    five = [(1, 2), (2, 1), (3, 2), (4, 2), (5, 1)]
    return [_url(f"m{m}", 10, p) for m, p in ten] + [_url(f"m{m}", 5, p) for m, p in five]


def paging_different_pairs() -> list[tuple[str, str]]:
    """Two different pages of results: the normalizer must never give them one key."""
    return [
        (_url("m5", 5, 2), f"http://{PAGING_HOST}/tickets?milestone=m5&max=5"),
        (_url("m1", 5, 2), _url("m1", 5, 1)),
    ]
