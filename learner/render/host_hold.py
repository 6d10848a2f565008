"""A page's hold on its host: kept while the page loads or sends, let go of while it waits.

A render spends most of its time waiting (the quiet window, the still-DOM wait), and a page
that waits sends nothing: it need not keep its host's place (:class:`HostTurn`) meanwhile.
:class:`HostHold` lets go once the page has loaded and nothing is open to its host, and
every later request to the host passes a gate (a Playwright route) that takes a place
again first, ahead of pages not started yet. The host so never has more than ``per_host``
pages sending to it at once, as when each page held its place to the end.

Time a request spends waiting for its host is not the page's: it is added to the page time
(:attr:`HostHold.held_back_s`), the render's backstop is lifted meanwhile, and it is not
taken for a stalled request.
"""

from __future__ import annotations

import asyncio
import contextlib
import time

from playwright.async_api import BrowserContext, Request, Route
from playwright.async_api import Error as PlaywrightError

from learner.net.hosts import url_host_key
from learner.net.limiter import HostTurn

__all__ = ["HostHold"]


class HostHold:
    """Keeps a page's :class:`HostTurn` only while the page may send to its host.

    Args:
        turn: the page's turn on its host.
        host: the host key of the page's URL.
        backstop: the render's overall timeout, lifted while a request waits for the host.
    """

    def __init__(self, turn: HostTurn, host: str, backstop: asyncio.Timeout | None) -> None:
        self.turn = turn
        self.host = host
        self._backstop = backstop
        self._open: set[Request] = set()
        self._loaded = False
        self._answered = False
        self._waiting = 0
        self._waiting_since = 0.0
        self._backstop_at: float | None = None
        self.held_back_s = 0.0
        """Seconds during which a request of the page waited for its host."""

    @property
    def waiting(self) -> bool:
        """Whether a request of the page is waiting for its host right now."""
        return self._waiting > 0

    def held_back(self) -> float:
        """:attr:`held_back_s`, with the wait under way counted up to now."""
        ongoing = time.monotonic() - self._waiting_since if self._waiting else 0.0
        return self.held_back_s + ongoing

    async def install(self, context: BrowserContext) -> None:
        """Route the context's requests through the gate (before the page navigates)."""
        await context.route("**/*", self._gate)

    def answered(self, status: int) -> None:
        """The main document's status: only a page its host answered may let go.

        A refused page (429, 503, any error) keeps its place until it closes, so the
        ``Retry-After`` it brings is in force before the host's next start.
        """
        self._answered = status < 400

    def loaded(self) -> None:
        """The page's load event fired."""
        self._loaded = True
        self._let_go()

    def sent(self, request: Request) -> None:
        """A request started (any type: a stream open to the host holds it too)."""
        if url_host_key(request.url) == self.host:
            self._open.add(request)

    def done(self, request: Request) -> None:
        """A request finished or failed."""
        self._open.discard(request)
        self._let_go()

    def close(self) -> None:
        """The render is over: its backstop is gone; the turn's owner ends the turn.

        The owner ends it once the render's outcome is known, so that a ``Retry-After`` it
        brings is noted before the host's next page starts.
        """
        self._backstop = None
        self._loaded = False  # nothing more is let go of: the page is closing

    def _let_go(self) -> None:
        if self._loaded and self._answered and not self._open and not self._waiting:
            self.turn.pause()

    async def _gate(self, route: Route, request: Request) -> None:
        if url_host_key(request.url) == self.host and not self.turn.held:
            self._open.add(request)
            self._start_waiting()
            try:
                await self.turn.resume()
            finally:
                self._stop_waiting()
        with contextlib.suppress(PlaywrightError):  # the page may be closed meanwhile
            await route.continue_()

    def _start_waiting(self) -> None:
        self._waiting += 1
        if self._waiting == 1:
            self._waiting_since = time.monotonic()
            if self._backstop is not None:
                self._backstop_at = self._backstop.when()
                self._backstop.reschedule(None)

    def _stop_waiting(self) -> None:
        self._waiting -= 1
        if self._waiting:
            return
        waited = time.monotonic() - self._waiting_since
        self.held_back_s += waited
        if self._backstop is not None and self._backstop_at is not None:
            self._backstop.reschedule(self._backstop_at + waited)
