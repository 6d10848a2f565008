"""Per-host pacing: spaced starts and a cap on the pages sending requests to a host at once.

Starts on one host are spaced by the delay, a seeded jitter, the site's ``Crawl-delay`` and
any ``Retry-After`` it sent. At most ``per_host`` started pages (or plain requests) hold the
host at once; a page that sends nothing while it waits out a quiet window lets go of its
hold (:class:`HostTurn`) and takes one again before it sends anything more.
"""

from __future__ import annotations

import asyncio
import logging
import math
import random
import time
from collections import deque
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field

from learner.errors import ConfigError
from learner.net.hosts import host_key

logger = logging.getLogger(__name__)

__all__ = ["HostLimiter", "HostTurn"]

Clock = Callable[[], float]
Sleep = Callable[[float], Awaitable[None]]


class _Places:
    """A host's ``per_host`` places; pages already started get a freed place first.

    A started page waiting to send a late request would otherwise queue behind every page
    waiting to start, and its load would stall for as long as they take.
    """

    def __init__(self, count: int) -> None:
        self._free = count
        self._started: deque[asyncio.Future[None]] = deque()
        self._new: deque[asyncio.Future[None]] = deque()

    async def take(self, *, started: bool = False) -> None:
        if self._free > 0 and not self._started and (started or not self._new):
            self._free -= 1
            return
        waiter = asyncio.get_running_loop().create_future()
        (self._started if started else self._new).append(waiter)
        try:
            await waiter
        except asyncio.CancelledError:
            if waiter.done() and not waiter.cancelled():
                self.give()  # granted as it was cancelled: pass the place on
            else:
                (self._started if started else self._new).remove(waiter)
            raise

    def give(self) -> None:
        for queue in (self._started, self._new):
            while queue:
                waiter = queue.popleft()
                if not waiter.done():
                    waiter.set_result(None)
                    return
        self._free += 1


@dataclass(slots=True)
class _HostState:
    places: _Places
    next_page: asyncio.Lock = field(default_factory=asyncio.Lock)
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
            state = self._hosts[key] = _HostState(_Places(self._per_host))
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
        async with self.turn(host) as turn:
            await turn.start()
            yield

    @asynccontextmanager
    async def turn(self, host: str) -> AsyncIterator[HostTurn]:
        """A page's turn on ``host``, from its queue to its close.

        One page of a host at a time waits to start (the others queue here, holding nothing
        else, such as a browser page). :meth:`HostTurn.start` takes one of the host's
        ``per_host`` places and waits for the spaced start, just before the page's first
        request. The page may :meth:`HostTurn.pause` while it sends nothing (waiting out a
        quiet window) and :meth:`HostTurn.resume` before it sends again; the turn ends with
        the block.

        Args:
            host: the host name, in any spelling (keyed by :func:`host_key`).
        """
        state = self._state(host)
        await state.next_page.acquire()
        turn = HostTurn(self, state)
        try:
            yield turn
        finally:
            turn.end()

    async def _start(self, state: _HostState) -> None:
        """Take a place, then wait for the host's next start and space the one after it."""
        await state.places.take()
        try:
            async with state.lock:
                wait = state.next_start - self._clock()
                if wait > 0:
                    await self._sleep(wait)
                start = max(self._clock(), state.next_start)
                gap = max(self._delay_s, state.crawl_delay)
                state.next_start = start + gap + self._rng.uniform(0.0, self._jitter_s)
        except BaseException:
            state.places.give()
            raise


class HostTurn:
    """One page's turn on its host: waiting to start, then holding a place while it sends.

    A started page holds one of the host's ``per_host`` places while it may send requests.
    Pausing frees the place for another page of the host; resuming takes one again, before
    pages not started yet and without a new spaced start (only page starts are spaced).
    A page holds nothing while it waits for a place, so no wait can close a circle.
    """

    def __init__(self, limiter: HostLimiter, state: _HostState) -> None:
        self._limiter = limiter
        self._state = state
        self._lock = asyncio.Lock()
        self._queued = True  # holds the host's next-page token until it starts
        self.held = False
        self.ended = False

    async def start(self) -> None:
        """Take a place and wait for the host's spaced start: call just before the first request."""
        if self.ended or not self._queued:
            raise RuntimeError("a turn starts once, before it ends")
        await self._limiter._start(self._state)
        self.held = True
        self._leave_queue()

    def pause(self) -> None:
        """Free the place while the page sends nothing (no request may be in flight)."""
        if self.held:
            self.held = False
            self._state.places.give()

    async def resume(self) -> None:
        """Take a place again before the page sends a request; at once if it holds one."""
        async with self._lock:
            if self.held or self.ended or self._queued:
                return
            await self._state.places.take(started=True)
            if self.ended:  # the page was closed while it waited
                self._state.places.give()
                return
            self.held = True

    def end(self) -> None:
        """Free everything the turn holds (the page is closed, or never started)."""
        self.ended = True
        self.pause()
        self._leave_queue()

    def _leave_queue(self) -> None:
        if self._queued:
            self._queued = False
            self._state.next_page.release()
