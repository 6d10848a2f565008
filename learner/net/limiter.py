"""Per-host pacing: spaced request starts and a cap on requests in flight per host.

Starts on one host are spaced by the delay, a seeded jitter, the site's ``Crawl-delay`` and
any ``Retry-After`` it sent.
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

from learner.errors import ConfigError
from learner.net.hosts import host_key

logger = logging.getLogger(__name__)

__all__ = ["HostLimiter"]

Clock = Callable[[], float]
Sleep = Callable[[float], Awaitable[None]]


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


