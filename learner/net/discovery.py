"""Finding a site's URLs when no observed-URL log is given: sitemaps, then links.

Order of sources: the sitemaps robots.txt lists, then ``/sitemap.xml`` (indexes followed,
gzip accepted), then a bounded breadth-first walk of same-host ``<a href>`` links from ``/``.
Nothing robots.txt disallows is fetched or returned.
"""

from __future__ import annotations

import logging
import xml.etree.ElementTree as ET
import zlib
from collections import deque
from html.parser import HTMLParser
from urllib.parse import urldefrag, urljoin, urlsplit

from learner.errors import FetchError
from learner.net.fetch import FetchResult, PageFetcher
from learner.net.hosts import origin_of
from learner.net.robots import RobotsPolicy
from samepage import query_params

logger = logging.getLogger(__name__)

__all__ = ["discover", "extract_links", "parse_sitemap"]

# The sitemaps protocol caps a file at 50 MB uncompressed and an index at 50,000 entries.
_SITEMAP_MAX_BYTES = 50 * 1024 * 1024
_MAX_SITEMAP_FILES = 50
_HTML_TYPES = frozenset({"text/html", "application/xhtml+xml"})


class _LinkParser(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.base: str | None = None
        self.hrefs: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        link = values.get("href")
        if link is None:
            return
        if tag == "base" and self.base is None:
            self.base = link
        elif tag in ("a", "area"):
            self.hrefs.append(link)


def extract_links(html_text: str, page_url: str) -> list[str]:
    """Absolute http(s) links of ``<a>`` and ``<area>`` elements, fragments dropped, in order.

    Args:
        html_text: the page's HTML.
        page_url: the page's final URL (``<base href>`` overrides it).

    >>> extract_links('<a href="/a?x=1&amp;amp=2#top">a</a><a href="mailto:x@y">m</a>',
    ...               "http://h.test/")
    ['http://h.test/a?x=1&amp=2']
    """
    parser = _LinkParser()
    try:
        parser.feed(html_text)
        parser.close()
    except Exception:  # html.parser rarely raises, but a broken page must not end a walk
        logger.debug("unparsable HTML at %s", page_url, exc_info=True)
    base = _joined(page_url, parser.base) if parser.base else page_url
    links: list[str] = []
    for raw in parser.hrefs:
        absolute = _joined(base or page_url, raw.strip())
        if absolute and urlsplit(absolute).scheme in ("http", "https"):
            links.append(urldefrag(absolute)[0])
    return links


def _joined(base: str, href: str) -> str | None:
    """``href`` resolved against ``base``; None for one urllib cannot parse (``http://[::1``)."""
    try:
        joined = urljoin(base, href)
        urlsplit(joined)
    except ValueError:
        return None
    return joined


def _decompress(body: bytes) -> bytes:
    if body[:2] != b"\x1f\x8b":
        return body
    # A bounded inflate: a tiny gzip file must not expand into gigabytes.
    inflater = zlib.decompressobj(wbits=31)
    data = inflater.decompress(body, _SITEMAP_MAX_BYTES)
    return data


def parse_sitemap(body: bytes) -> tuple[list[str], list[str]]:
    """``(page URLs, child sitemap URLs)`` of a sitemap, sitemap index or plain-text sitemap.

    Args:
        body: the file as fetched (gzip is undone here).

    >>> parse_sitemap(b'<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">'
    ...               b'<url><loc> http://h.test/a </loc></url></urlset>')
    (['http://h.test/a'], [])
    """
    data = _decompress(body).lstrip()
    if not data.startswith(b"<"):
        lines = data.decode("utf-8", errors="replace").splitlines()
        return [line.strip() for line in lines if line.strip()], []
    try:
        root = ET.fromstring(data)
    except ET.ParseError:
        logger.debug("unparsable sitemap", exc_info=True)
        return [], []
    locs = [
        (element.text or "").strip()
        for element in root.iter()
        if element.tag.rsplit("}", 1)[-1] == "loc" and (element.text or "").strip()
    ]
    if root.tag.rsplit("}", 1)[-1] == "sitemapindex":
        return [], locs
    return locs, []


class _Collector:
    """Unique allowed same-origin URLs in discovery order, bounded."""

    def __init__(self, origin: str, robots: RobotsPolicy, max_urls: int) -> None:
        self.origin = origin
        self.robots = robots
        self.max_urls = max_urls
        self.seen: set[str] = set()
        self.with_query: list[str] = []
        self.plain: list[str] = []

    @property
    def full(self) -> bool:
        return len(self.with_query) >= self.max_urls

    def same_origin(self, url: str) -> bool:
        """Whether ``url`` is on the studied origin; a URL that does not parse is not."""
        try:
            return urlsplit(url).scheme in ("http", "https") and origin_of(url) == self.origin
        except ValueError:  # http://[::1 in a sitemap or a link: skipped, not fatal
            return False

    async def add(self, url: str) -> bool:
        """Record ``url`` if new, same-origin and allowed; ``True`` when it was recorded."""
        url, _ = urldefrag(url)
        if url in self.seen or not self.same_origin(url):
            return False
        self.seen.add(url)
        if not await self.robots.allowed(url):
            logger.debug("robots.txt disallows %s", url)
            return False
        bucket = self.with_query if query_params(url) else self.plain
        if len(bucket) < self.max_urls:
            bucket.append(url)
        return True

    def result(self) -> list[str]:
        return (self.with_query + self.plain)[: self.max_urls]


async def _get(fetch_page: PageFetcher, url: str) -> FetchResult | None:
    try:
        result = await fetch_page(url)
    except FetchError as exc:
        logger.info("discovery skips %s: %s", url, exc.reason)
        return None
    if result.status != 200:
        logger.debug("discovery skips %s: status %d", url, result.status)
        return None
    return result


async def _from_sitemaps(
    collector: _Collector, fetch_page: PageFetcher, robots: RobotsPolicy
) -> None:
    origin = collector.origin
    queue = deque([*await robots.sitemaps(origin), f"{origin}/sitemap.xml"])
    fetched: set[str] = set()
    while queue and len(fetched) < _MAX_SITEMAP_FILES and not collector.full:
        url = queue.popleft()
        # Only this host's sitemaps: others would reach hosts outside the study.
        if url in fetched or not collector.same_origin(url) or not await robots.allowed(url):
            continue
        fetched.add(url)
        result = await _get(fetch_page, url)
        if result is None:
            continue
        pages, children = parse_sitemap(result.body)
        queue.extend(children)
        for page in pages:
            if collector.full:
                break
            await collector.add(page)


async def _from_links(
    collector: _Collector, fetch_page: PageFetcher, robots: RobotsPolicy, max_pages: int
) -> None:
    start = f"{collector.origin}/"
    queue = deque([start])
    queued = {start}
    await collector.add(start)
    fetched = 0
    while queue and fetched < max_pages and not collector.full:
        url = queue.popleft()
        if not await robots.allowed(url):
            continue
        fetched += 1
        result = await _get(fetch_page, url)
        if result is None or result.content_type not in _HTML_TYPES:
            continue
        if not collector.same_origin(result.final_url):
            logger.debug("discovery skips %s: redirected off-site", url)
            continue
        for link in extract_links(result.text(), result.final_url):
            await collector.add(link)
            if link not in queued and collector.same_origin(link):
                queued.add(link)
                queue.append(link)


async def discover(
    origin: str,
    *,
    fetch_page: PageFetcher,
    robots: RobotsPolicy,
    max_pages: int,
    max_urls: int,
) -> list[str]:
    """Find unique URLs of ``origin``: those with a query first, each group in found order.

    Args:
        origin: ``scheme://host[:port]`` of the site.
        fetch_page: GETs one URL (wrap it with :func:`learner.net.retries.polite_fetcher`).
        robots: the run's robots.txt rules; disallowed URLs are neither fetched nor returned.
        max_pages: the most HTML pages the link walk fetches.
        max_urls: the most URLs returned.

    Example::

        urls = await discover("http://shop.example", fetch_page=fetch_page, robots=robots,
                              max_pages=50, max_urls=500)
    """
    collector = _Collector(origin_of(origin), robots, max_urls)
    if max_urls <= 0:
        return []
    await _from_sitemaps(collector, fetch_page, robots)
    if max_pages > 0:
        await _from_links(collector, fetch_page, robots, max_pages)
    urls = collector.result()
    logger.info("discovered %d URLs on %s", len(urls), collector.origin)
    return urls
