"""Two small sites for the spot-checks of listed names (names a built-in list drops).

- ``filters.test``: an analytics dashboard, as Plausible's, reads its filters from the
  query: ``/dashboard`` shows the visits of the ``utm_source`` it names.
- ``plain.test``: an article ``/post`` ignores ``utm_source``, as most pages do.
"""

from __future__ import annotations

import html

from learner.demo.server import Request, Response, Site
from tests.site.markup import document

__all__ = ["DASHBOARD", "POST", "listed_observed", "listed_sites"]

DASHBOARD, POST = "filters.test", "plain.test"


def _dashboard() -> Site:
    site = Site(DASHBOARD)

    def dashboard(request: Request) -> Response:
        source = request.params.get("utm_source")
        period = html.escape(request.params.get("period", "30d"))
        shown = f"visits from {html.escape(source)}" if source else "all visits"
        rows = "".join(f"<li>{shown}: day {n}</li>" for n in range(3))
        return Response(body=document("Dashboard", f"<h1>{period}: {shown}</h1><ul>{rows}</ul>"))

    site.routes["/dashboard"] = dashboard
    return site


def _articles() -> Site:
    site = Site(POST)

    def post(request: Request) -> Response:
        number = html.escape(request.params.get("id", "0"))
        return Response(body=document(f"Post {number}", f"<h1>Post {number}</h1><p>Words.</p>"))

    site.routes["/post"] = post
    return site


def listed_sites() -> list[Site]:
    """The dashboard and the article site."""
    return [_dashboard(), _articles()]


def listed_observed() -> list[str]:
    """A log of both: each URL carries ``utm_source``, a name the blocklist drops."""
    sources = ("github", "twitter", "reddit", "news")
    dashboard = [
        f"http://{DASHBOARD}/dashboard?period={n}d&utm_source={sources[n % 4]}" for n in range(1, 7)
    ]
    posts = [f"http://{POST}/post?id={n}&utm_source={sources[n % 4]}" for n in range(1, 7)]
    return dashboard + posts
