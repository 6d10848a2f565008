"""Bounded retries: the one retry policy of every request, plain fetches and renders alike.

Transient failures (connection errors, 429, 503) are retried with exponential back-off, and
every ``Retry-After`` is honoured and passed on to the limiter; :func:`polite_fetcher` puts
both around a :data:`~learner.net.fetch.PageFetcher`.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from email.utils import parsedate_to_datetime
from typing import Protocol, TypeVar

from learner.errors import ConfigError, FetchError, LearnerError
from learner.net.fetch import FetchResult, PageFetcher
from learner.net.hosts import url_host_key
from learner.net.limiter import Clock, HostLimiter, Sleep

logger = logging.getLogger(__name__)

__all__ = [
    "RetryPolicy",
    "closed_reason",
    "parse_retry_after",
    "polite_fetcher",
    "with_retries",
]


class Answer(Protocol):
    """What a retried request returns: a fetch result or a rendering."""

    @property
    def url(self) -> str: ...

    @property
    def status(self) -> int | None: ...

    @property
    def retry_after(self) -> str | None: ...


A = TypeVar("A", bound=Answer)


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
