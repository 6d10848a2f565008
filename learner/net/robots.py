"""robots.txt: one file per origin, read with Protego, following RFC 9309."""

from __future__ import annotations

import asyncio
import logging

from protego import Protego

from learner.errors import FetchError
from learner.net.fetch import PageFetcher
from learner.net.hosts import origin_of
from samepage import InvalidURL

logger = logging.getLogger(__name__)

__all__ = ["RobotsPolicy"]

_ALLOW_ALL = ""
_DISALLOW_ALL = "User-agent: *\nDisallow: /\n"
# RFC 9309 section 2.5: parse at least the first 500 KiB.
_ROBOTS_MAX_BYTES = 500 * 1024


class RobotsPolicy:
    """robots.txt rules of every origin, fetched once each and cached for the run.

    RFC 9309 section 2.3.1: a 2xx file is obeyed; 4xx ("unavailable") allows everything;
    5xx or a network failure ("unreachable") disallows everything. Redirects are followed by
    the fetcher. A 429 counts as unreachable, as Google's crawler treats it.

    Args:
        fetcher: GETs one URL (the limiter-wrapped fetcher, so robots.txt is paced too).
        user_agent: the crawler's User-Agent; groups match on its product token.

    Example::

        robots = RobotsPolicy(fetch_page, "samepage-learner/0.2")
        if await robots.allowed("http://shop.example/product?id=1"): ...
    """

    def __init__(self, fetcher: PageFetcher, user_agent: str) -> None:
        self._fetcher = fetcher
        self._user_agent = user_agent
        self._parsed: dict[str, Protego] = {}
        self._locks: dict[str, asyncio.Lock] = {}

    async def _rules(self, url: str) -> Protego:
        origin = origin_of(url)
        parsed = self._parsed.get(origin)
        if parsed is not None:
            return parsed
        lock = self._locks.setdefault(origin, asyncio.Lock())
        async with lock:
            if origin not in self._parsed:
                self._parsed[origin] = Protego.parse(await self._download(origin))
            return self._parsed[origin]

    async def _download(self, origin: str) -> str:
        robots_url = f"{origin}/robots.txt"
        try:
            result = await self._fetcher(robots_url)
        except FetchError as exc:
            logger.warning("robots.txt unreachable (%s): disallowing %s", exc.reason, origin)
            return _DISALLOW_ALL
        if 200 <= result.status < 300:
            return result.body[:_ROBOTS_MAX_BYTES].decode("utf-8", errors="replace")
        if 400 <= result.status < 500 and result.status != 429:
            logger.info("no robots.txt at %s (%d): allowing all", origin, result.status)
            return _ALLOW_ALL
        logger.warning("robots.txt of %s answered %d: disallowing all", origin, result.status)
        return _DISALLOW_ALL

    async def allowed(self, url: str) -> bool:
        """Whether robots.txt lets this crawler fetch ``url``.

        Args:
            url: an absolute URL; one samepage cannot read is not fetched.
        """
        try:
            rules = await self._rules(url)
        except InvalidURL:
            return False
        return bool(rules.can_fetch(url, self._user_agent))

    async def crawl_delay(self, origin: str) -> float | None:
        """Return the ``Crawl-delay`` for this crawler at ``origin``, in seconds, if any.

        Args:
            origin: the origin, or any URL on it.
        """
        delay = (await self._rules(origin)).crawl_delay(self._user_agent)
        return None if delay is None else float(delay)

    async def sitemaps(self, origin: str) -> list[str]:
        """Return the ``Sitemap:`` URLs listed in the robots.txt of ``origin``, in file order.

        Args:
            origin: the origin, or any URL on it.
        """
        return list((await self._rules(origin)).sitemaps)
