"""HTML templates shared by the demo sites and the test fixture.

Every page carries the same heavy boilerplate (header, navigation, promotions, sidebar, long
footer), as real sites do, so that two pages differ only where their content differs.
"""

from __future__ import annotations

import html
import json
import logging
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from urllib.parse import urlencode

from learner.demo.server import Request, Response

logger = logging.getLogger(__name__)

__all__ = [
    "COLORS",
    "Chrome",
    "article_main",
    "choose_product_main",
    "href",
    "json_response",
    "listing_main",
    "not_found",
    "product_main",
    "product_name",
    "product_price",
    "redirect",
    "render_page",
    "robots_txt",
    "sitemap_index_xml",
    "sitemap_xml",
    "story",
]

# Colour word -> swatch fill. A request without a colour shows the product's "natural" finish.
COLORS: dict[str, str] = {
    "red": "#c0392b",
    "blue": "#2e5aac",
    "green": "#2e8b57",
    "black": "#222222",
    "white": "#f4f4f4",
    "yellow": "#e5c02a",
    "purple": "#7d3c98",
    "orange": "#e67e22",
}
_NATURAL = "#b8a58a"

_ADJECTIVES = ("Sturdy", "Quiet", "Folding", "Classic", "Compact", "Woollen", "Cedar", "Linen")
_NOUNS = ("Lamp", "Chair", "Kettle", "Backpack", "Desk", "Blanket", "Teapot", "Stool", "Clock")
_TOPICS = ("council", "harbour", "library", "railway", "orchard", "festival", "bridge", "market")
_EVENTS = ("reopens", "expands", "votes on", "celebrates", "plans", "restores", "welcomes")

_LOREM = (
    "Our workshop has made household goods since 1987. Every order ships in recycled packaging "
    "and comes with a two-year guarantee. Returns are free within thirty days of delivery. "
    "Prices include VAT; delivery costs are shown at checkout before you pay."
)
_LEGAL = (
    "All prices are shown in euros. Product photographs are illustrative. Availability may "
    "vary by region. We use cookies only to keep your basket between visits. Registered office: "
    "1 Example Street, Exampletown. Company number 00000000."
)


@dataclass(frozen=True, slots=True)
class Chrome:
    """The site-wide look of one host: its name, navigation and accent colour.

    Args:
        site_name: the name shown in the header and the title.
        tagline: one line under the name.
        nav: ``(label, href)`` pairs of the navigation bar, in order.
        accent: a CSS colour for the header.
    """

    site_name: str
    tagline: str
    nav: tuple[tuple[str, str], ...]
    accent: str = "#34495e"


def href(path: str, params: Sequence[tuple[str, str]] = ()) -> str:
    """Build a site-relative link, query-encoded; escape it before use in an attribute.

    Args:
        path: the absolute path.
        params: query parameters, in order.

    >>> href("/product", [("id", "3"), ("color", "dark red")])
    '/product?id=3&color=dark+red'
    """
    return f"{path}?{urlencode(params)}" if params else path


def _link(label: str, url: str) -> str:
    # html.escape turns "&" into "&amp;", so a parameter literally named "amp" survives parsing.
    return f'<a href="{html.escape(url)}">{html.escape(label)}</a>'


_STYLE = """
body { margin: 0; font: 16px/1.5 sans-serif; color: #222; background: #fff; }
header { padding: 16px 32px; color: #fff; }
header h2 { margin: 0; font-size: 28px; }
nav { display: flex; gap: 24px; padding: 10px 32px; background: #ecf0f1; }
nav a { color: #2c3e50; text-decoration: none; }
.promo { padding: 8px 32px; background: #fdf2e9; font-size: 14px; }
.layout { display: flex; gap: 32px; padding: 24px 32px; }
aside { width: 220px; flex: none; font-size: 14px; color: #555; }
main { flex: 1; min-height: 420px; }
footer { padding: 24px 32px; background: #2c3e50; color: #ddd; font-size: 13px; }
footer .cols { display: flex; gap: 48px; }
.swatch { vertical-align: middle; border: 1px solid #999; }
.results li { height: 48px; }
"""


def render_page(
    chrome: Chrome,
    *,
    title: str,
    main: str,
    head_extra: str = "",
    before_main: str = "",
    footer_extra: str = "",
    body_end: str = "",
) -> str:
    """Build a complete HTML document: the host's boilerplate around ``main``.

    Args:
        chrome: the host's look.
        title: the page title (also the first heading's text is up to ``main``).
        main: the page's own HTML.
        head_extra: HTML appended to ``<head>``.
        before_main: HTML between the promotion strip and the main layout (banners).
        footer_extra: HTML appended inside the footer.
        body_end: HTML appended at the end of ``<body>`` (scripts).
    """
    nav = "".join(_link(label, url) for label, url in chrome.nav)
    categories = "".join(f"<li>{noun}s</li>" for noun in _NOUNS)
    columns = "".join(
        f"<div><h4>{heading}</h4><p>{_LEGAL}</p></div>"
        for heading in ("About us", "Customer care", "Legal")
    )
    return (
        "<!DOCTYPE html>\n"
        f'<html lang="en"><head><meta charset="utf-8"><title>{html.escape(title)} | '
        f"{html.escape(chrome.site_name)}</title><style>{_STYLE}</style>{head_extra}</head>"
        f'<body><header style="background:{chrome.accent}"><h2>{html.escape(chrome.site_name)}'
        f"</h2><div>{html.escape(chrome.tagline)}</div></header>"
        f"<nav>{nav}</nav>"
        '<div class="promo">Free delivery on orders over 50 euros. Sign up for our newsletter.'
        "</div>"
        f"{before_main}"
        f'<div class="layout"><aside><h4>Categories</h4><ul>{categories}</ul>'
        f"<p>{_LOREM}</p></aside><main>{main}</main></div>"
        f'<footer><div class="cols">{columns}</div><p>{_LOREM}</p>{footer_extra}</footer>'
        f"{body_end}</body></html>"
    )


def product_name(number: int) -> str:
    """Return the catalogue name of product ``number`` (deterministic).

    >>> product_name(1), product_name(2)
    ('Quiet Chair', 'Folding Kettle')
    """
    return f"{_ADJECTIVES[number % len(_ADJECTIVES)]} {_NOUNS[number % len(_NOUNS)]}"


def product_price(number: int) -> str:
    """Return the price of product ``number`` in euros, as shown.

    >>> product_price(3)
    '30.99'
    """
    return f"{9 + (number * 37) % 90}.99"


def product_main(number: int, color: str | None) -> str:
    """Build the product block: only the name, price and colour (swatch and word) vary.

    Args:
        number: the product number.
        color: a key of :data:`COLORS`, or ``None`` (or unknown) for the natural finish.
    """
    word = color if color in COLORS else "natural"
    fill = COLORS.get(word, _NATURAL)
    swatch = (
        f'<svg class="swatch" width="28" height="28" role="img" aria-label="{word}">'
        f'<rect width="28" height="28" fill="{fill}"/></svg>'
    )
    return (
        f"<h1>{html.escape(product_name(number))}</h1>"
        f'<p class="price">{product_price(number)} EUR</p>'
        f'<p class="colour">{swatch} Colour: {word}</p>'
        f"<p>{_LOREM}</p><p>{_LOREM}</p>"
        "<button>Add to basket</button>"
    )


def choose_product_main(links: Iterable[tuple[str, str]]) -> str:
    """Build the page shown when no product is named: a prompt and a few links.

    Args:
        links: ``(label, href)`` pairs.
    """
    items = "".join(f"<li>{_link(label, url)}</li>" for label, url in links)
    return f"<h1>Choose a product</h1><p>Pick one of our best sellers:</p><ul>{items}</ul>"


def listing_main(
    *, sort_label: str, page: int, items: Sequence[tuple[str, str]], hero_px: int = 1100
) -> str:
    """Build a long listing: a tall hero fills the first screen, the results come below.

    Args:
        sort_label: the sort order, shown at the top (so it changes the first screen).
        page: the page number, shown only with the results below the fold.
        items: ``(label, href)`` result links of this page.
        hero_px: the hero height; above a 800 px viewport so ``page`` changes nothing on top.
    """
    results = "".join(f"<li>{_link(label, url)}</li>" for label, url in items)
    return (
        f"<h1>All products</h1><p>Sorted by: <strong>{html.escape(sort_label)}</strong></p>"
        f'<div class="hero" style="height:{hero_px}px;background:#eef3f7">'
        f"<p>{_LOREM}</p></div>"
        f'<section class="results"><h3>Results, page {page}</h3><ol>{results}</ol></section>'
    )


def story(number: int) -> tuple[str, list[str]]:
    """Headline and paragraphs of news story ``number`` (deterministic).

    >>> story(2)[0]
    'Bridge votes on new opening hours'
    """
    topic = _TOPICS[(number * 3) % len(_TOPICS)].capitalize()
    event = _EVENTS[number % len(_EVENTS)]
    headline = f"{topic} {event} new opening hours"
    paragraphs = [
        f"Story {number}: the {topic.lower()} {event} its plans after a long consultation.",
        f"Residents said the change, number {number * 7} on this year's list, was overdue.",
        "A spokesperson promised further updates as the details are confirmed.",
    ]
    return headline, paragraphs


def article_main(number: int) -> str:
    """Build the article block of story ``number``.

    Args:
        number: the story number.
    """
    headline, paragraphs = story(number)
    body = "".join(f"<p>{html.escape(text)}</p>" for text in paragraphs)
    byline = '<p class="byline">By the newsroom</p>'
    return f"<article><h1>{html.escape(headline)}</h1>{byline}{body}</article>"


def redirect(location: str, status: int = 302) -> Response:
    """Answer with a redirect to ``location`` (sent as given).

    Args:
        location: the ``Location`` header value.
        status: a 3xx status.
    """
    return Response(status, "", headers={"Location": location})


def not_found(request: Request) -> Response:
    """Answer with the 404 page of any host."""
    return Response(404, f"<h1>Not found</h1><p>{html.escape(request.path)}</p>")


def json_response(data: object, status: int = 200) -> Response:
    """Answer with JSON (sorted keys).

    Args:
        data: anything ``json.dumps`` accepts.
        status: the HTTP status.
    """
    return Response(status, json.dumps(data, sort_keys=True), content_type="application/json")


def robots_txt(
    *,
    disallow: Sequence[str] = (),
    sitemaps: Sequence[str] = (),
    crawl_delay: float | None = None,
) -> str:
    """Build a robots.txt with one ``User-agent: *`` group.

    Args:
        disallow: path prefixes to disallow.
        sitemaps: absolute sitemap URLs.
        crawl_delay: a ``Crawl-delay`` in seconds, or ``None``.

    >>> print(robots_txt(disallow=["/private"]), end="")
    User-agent: *
    Disallow: /private
    """
    lines = ["User-agent: *", *(f"Disallow: {path}" for path in disallow)]
    if crawl_delay is not None:
        lines.append(f"Crawl-delay: {crawl_delay:g}")
    lines.extend(f"Sitemap: {url}" for url in sitemaps)
    return "\n".join(lines) + "\n"


_SITEMAP_NS = "http://www.sitemaps.org/schemas/sitemap/0.9"


def sitemap_xml(urls: Iterable[str]) -> str:
    """Build a sitemap ``<urlset>`` of absolute URLs.

    Args:
        urls: the page URLs, in order.
    """
    entries = "".join(f"<url><loc>{html.escape(url)}</loc></url>" for url in urls)
    header = '<?xml version="1.0" encoding="UTF-8"?>\n'
    return f'{header}<urlset xmlns="{_SITEMAP_NS}">{entries}</urlset>\n'


def sitemap_index_xml(urls: Iterable[str]) -> str:
    """Build a ``<sitemapindex>`` pointing at other sitemaps.

    Args:
        urls: the sitemap URLs, in order.
    """
    entries = "".join(f"<sitemap><loc>{html.escape(url)}</loc></sitemap>" for url in urls)
    return (
        f'<?xml version="1.0" encoding="UTF-8"?>\n'
        f'<sitemapindex xmlns="{_SITEMAP_NS}">{entries}</sitemapindex>\n'
    )
