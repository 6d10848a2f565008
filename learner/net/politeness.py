"""Being a good citizen: robots.txt, per-host pacing, and bounded retries.

- :class:`RobotsPolicy` reads one robots.txt per origin with Protego, following RFC 9309.
- :class:`HostLimiter` spaces request starts per host (delay, seeded jitter, Crawl-delay,
  Retry-After) and caps concurrency per host.
- :func:`host_key` is the one form of a host that robots.txt, Crawl-delay and the limiter
  key on, so a Unicode or trailing-dot spelling of a host meets the same rules and pace.
- :func:`with_retries` is the one retry policy of every request, plain fetches and renders
  alike: transient failures (connection errors, 429, 503) are retried with exponential
  back-off, and every ``Retry-After`` is honoured and passed on to the limiter.
- :func:`polite_fetcher` puts the last two around a :data:`~learner.net.fetch.PageFetcher`.
"""

from __future__ import annotations

import asyncio
import logging
import math
import random
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from email.utils import parsedate_to_datetime
from typing import Protocol, TypeVar
from urllib.parse import urlsplit

from protego import Protego

from learner.errors import ConfigError, FetchError, LearnerError
from learner.net.fetch import FetchResult, PageFetcher
from samepage import InvalidURL, host_and_port, normalize_host, url_host

logger = logging.getLogger(__name__)

__all__ = [
    "HostLimiter",
    "RetryPolicy",
    "RobotsPolicy",
    "host_key",
    "origin_of",
    "parse_retry_after",
    "polite_fetcher",
    "with_retries",
]

Sleep = Callable[[float], Awaitable[None]]


class Answer(Protocol):
    """What a retried request returns: a fetch result or a rendering."""

    @property
    def url(self) -> str: ...

    @property
    def status(self) -> int | None: ...

    @property
    def retry_after(self) -> str | None: ...


A = TypeVar("A", bound=Answer)
Clock = Callable[[], float]

_ALLOW_ALL = ""
_DISALLOW_ALL = "User-agent: *\nDisallow: /\n"
# RFC 9309 section 2.5: parse at least the first 500 KiB.
_ROBOTS_MAX_BYTES = 500 * 1024


def host_key(host: str) -> str:
    """A host in the one form every per-host table keys on: :func:`samepage.normalize_host`.

    Lower-case IDNA ASCII without a trailing dot; a string that cannot be a host is only
    lower-cased, so it still gets a pace of its own.

    >>> host_key("Bücher.Example."), host_key("::1")
    ('xn--bcher-kva.example', '[::1]')
    """
    if ":" in host and not host.startswith("["):  # urlsplit drops an IPv6 literal's brackets
        host = f"[{host}]"
    try:
        return normalize_host(host)
    except InvalidURL:
        return host.lower().rstrip(".")


def url_host_key(url: str) -> str:
    """:func:`host_key` of a URL's host (the lower-cased raw host of a URL samepage refuses)."""
    try:
        return url_host(url)
    except InvalidURL:
        return host_key(urlsplit(url).hostname or "")


def origin_of(url: str) -> str:
    """``scheme://host[:port]`` of a URL: its host as :func:`host_key`, default port omitted.

    Args:
        url: an absolute http(s) URL (or an origin).

    Raises:
        ValueError: for a URL samepage cannot read (:class:`samepage.InvalidURL`).

    >>> origin_of("HTTP://Shop.Test:80/list?page=2"), origin_of("https://Bücher.Example./")
    ('http://shop.test', 'https://xn--bcher-kva.example')
    """
    host, port = host_and_port(url)
    scheme = urlsplit(url.strip()).scheme.lower()
    return f"{scheme}://{host}:{port}" if port else f"{scheme}://{host}"


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


@dataclass(slots=True)
class _HostState:
    semaphore: asyncio.Semaphore
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    next_start: float = -math.inf
    crawl_delay: float = 0.0
    closed_until: float = -math.inf


class HostLimiter:
    """At most ``per_host`` requests at once per host, and spaced request starts.

    Consecutive starts for one host are at least ``max(delay_s, Crawl-delay)`` plus a jitter
    drawn uniformly from ``[0, jitter_s]`` apart; the schedule is kept under a per-host lock
    so concurrent callers queue in order.

    Args:
        delay_s: the least time between two request starts on one host.
        jitter_s: the largest random extra delay, drawn from ``rng``.
        per_host: the most requests in flight per host.
        rng: the seeded source of jitter.
        sleep: awaited to wait (tests pass a fake that records and advances a fake clock).
        clock: monotonic seconds.

    Example::

        limiter = HostLimiter(rng=random.Random(7))
        async with limiter.slot("shop.example"):
            result = await fetch_page(url)
    """

    def __init__(
        self,
        *,
        delay_s: float = 1.0,
        jitter_s: float = 0.5,
        per_host: int = 1,
        rng: random.Random,
        sleep: Sleep = asyncio.sleep,
        clock: Clock = time.monotonic,
    ) -> None:
        if not delay_s >= 0:
            raise ConfigError("must not be negative", field="delay_s")
        if not jitter_s >= 0:
            raise ConfigError("must not be negative", field="jitter_s")
        if per_host < 1:
            raise ConfigError("must be at least 1", field="per_host")
        self._delay_s = delay_s
        self._jitter_s = jitter_s
        self._per_host = per_host
        self._rng = rng
        self._sleep = sleep
        self._clock = clock
        self._hosts: dict[str, _HostState] = {}

    def _state(self, host: str) -> _HostState:
        key = host_key(host)
        state = self._hosts.get(key)
        if state is None:
            state = self._hosts[key] = _HostState(asyncio.Semaphore(self._per_host))
        return state

    def set_crawl_delay(self, host: str, seconds: float | None) -> None:
        """Raise the host's delay to its robots.txt ``Crawl-delay`` (``None`` clears it).

        Args:
            host: the host name, in any spelling (keyed by :func:`host_key`).
            seconds: the Crawl-delay value.
        """
        self._state(host).crawl_delay = max(0.0, seconds or 0.0)

    def note_retry_after(self, host: str, seconds: float, *, budget_s: float = math.inf) -> None:
        """Start no request on ``host`` before ``seconds`` from now (a ``Retry-After``).

        A wait longer than ``budget_s`` (the retry policy's longest back-off) is not waited
        out: the slots of the host would stall every later page of the domain until its time
        limit. The host is closed for that long instead (:meth:`closed_for`), and callers
        fail their requests to it at once, without sending them.

        Args:
            host: the host name, in any spelling (keyed by :func:`host_key`).
            seconds: how long the server asked us to wait.
            budget_s: the longest wait the limiter takes on.
        """
        state = self._state(host)
        until = self._clock() + max(0.0, seconds)
        if seconds > budget_s:
            state.closed_until = max(state.closed_until, until)
        else:
            state.next_start = max(state.next_start, until)

    def closed_for(self, host: str) -> float:
        """Seconds ``host`` stays closed by a ``Retry-After`` beyond the budget (0 if open)."""
        return max(0.0, self._state(host).closed_until - self._clock())

    @asynccontextmanager
    async def slot(self, host: str) -> AsyncIterator[None]:
        """Wait for this host's turn; the request runs inside the ``async with`` block.

        Args:
            host: the host name, in any spelling (keyed by :func:`host_key`).
        """
        state = self._state(host)
        async with state.semaphore:
            async with state.lock:
                wait = state.next_start - self._clock()
                if wait > 0:
                    await self._sleep(wait)
                start = max(self._clock(), state.next_start)
                gap = max(self._delay_s, state.crawl_delay)
                state.next_start = start + gap + self._rng.uniform(0.0, self._jitter_s)
            yield


def parse_retry_after(value: str | None, *, now: float) -> float | None:
    """Seconds to wait from a ``Retry-After`` value (delta-seconds or an HTTP date).

    Args:
        value: the header value, or ``None``.
        now: the current POSIX time, for the date form.

    >>> parse_retry_after("120", now=0), parse_retry_after("Thu, 01 Jan 1970 00:01:00 GMT", now=30)
    (120.0, 30.0)
    """
    if value is None:
        return None
    text = value.strip()
    if text.isdigit():
        return float(text)
    try:
        when = parsedate_to_datetime(text)
    except (TypeError, ValueError, IndexError):
        return None
    return max(0.0, when.timestamp() - now)


@dataclass(frozen=True, slots=True)
class RetryPolicy:
    """How transient failures are retried.

    Args:
        attempts: the most tries in all (1 means no retry).
        base_delay_s: the first back-off; it doubles each time.
        max_delay_s: longer back-offs are capped here; a longer ``Retry-After`` ends the
            retries (the last response is returned) rather than stall the run, and closes the
            host for that long (:meth:`HostLimiter.note_retry_after` with this budget).
        retry_statuses: the statuses that count as transient.
    """

    attempts: int = 3
    base_delay_s: float = 1.0
    max_delay_s: float = 60.0
    retry_statuses: frozenset[int] = frozenset({429, 503})

    def __post_init__(self) -> None:
        if self.attempts < 1:
            raise ConfigError("must be at least 1", field="attempts")
        if not self.base_delay_s >= 0:
            raise ConfigError("must not be negative", field="base_delay_s")
        if not self.max_delay_s >= self.base_delay_s:
            raise ConfigError("must be at least base_delay_s", field="max_delay_s")


async def with_retries(
    attempt: Callable[[], Awaitable[A]],
    *,
    policy: RetryPolicy = RetryPolicy(),
    sleep: Sleep = asyncio.sleep,
    now: Clock = time.time,
    on_retry_after: Callable[[float], None] | None = None,
) -> A:
    """Run ``attempt`` until it succeeds, a non-transient status comes back, or tries run out.

    Transient: a :class:`~learner.errors.LearnerError` whose ``transient`` is true (a
    connection failure of a fetch or a render) and the statuses of ``policy``. The wait
    before try ``k + 1`` is ``base_delay_s * 2**(k - 1)``, or the server's ``Retry-After``
    when that is longer.

    Args:
        attempt: makes one try (a plain fetch or a render).
        policy: the retry bounds.
        sleep: awaited to wait (injectable for tests).
        now: POSIX time, for ``Retry-After`` dates.
        on_retry_after: told every ``Retry-After`` seen (e.g. ``HostLimiter.note_retry_after``
            with ``budget_s=policy.max_delay_s``).

    Raises:
        LearnerError: a non-transient one at once; the last transient one when every try
            failed.
    """
    for number in range(1, policy.attempts + 1):
        last = number == policy.attempts
        backoff = min(policy.base_delay_s * 2 ** (number - 1), policy.max_delay_s)
        try:
            result = await attempt()
        except LearnerError as exc:
            if last or not exc.transient:
                raise
            logger.info("retrying in %.1f s: %s", backoff, exc)
            await sleep(backoff)
            continue
        if result.status not in policy.retry_statuses:
            return result
        retry_after = parse_retry_after(result.retry_after, now=now())
        if retry_after is not None and on_retry_after is not None:
            on_retry_after(retry_after)
        if last or (retry_after is not None and retry_after > policy.max_delay_s):
            return result
        delay = max(backoff, retry_after or 0.0)
        logger.info("retrying %s in %.1f s: status %s", result.url, delay, result.status)
        await sleep(delay)
    raise AssertionError("unreachable")  # pragma: no cover


def polite_fetcher(
    fetcher: PageFetcher,
    *,
    limiter: HostLimiter,
    policy: RetryPolicy = RetryPolicy(),
    sleep: Sleep = asyncio.sleep,
    now: Clock = time.time,
) -> PageFetcher:
    """Wrap ``fetcher`` so each try waits for its host's slot and transient failures retry.

    Args:
        fetcher: GETs one URL.
        limiter: paces requests per host; told about every ``Retry-After``.
        policy: the retry bounds.
        sleep: awaited for back-off waits.
        now: POSIX time, for ``Retry-After`` dates.
    """

    async def polite(url: str) -> FetchResult:
        host = url_host_key(url)

        async def attempt() -> FetchResult:
            closed = limiter.closed_for(host)
            if closed > 0:
                raise FetchError(url, closed_reason(closed), transient=False)
            async with limiter.slot(host):
                return await fetcher(url)

        return await with_retries(
            attempt,
            policy=policy,
            sleep=sleep,
            now=now,
            on_retry_after=lambda seconds: limiter.note_retry_after(
                host, seconds, budget_s=policy.max_delay_s
            ),
        )

    return polite


def closed_reason(seconds: float) -> str:
    """Why a request to a host closed by a long ``Retry-After`` was not sent."""
    return f"the host asked for {seconds:.0f} s more (Retry-After), beyond the retry budget"
