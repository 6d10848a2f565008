"""Listening to one page while it renders: requests in flight, navigations, what ends it.

A :class:`PageWatch` counts the page's requests (streams and polls aside), follows its
main-frame navigations (a redirect to another host or to a non-HTTP URL fails the render),
keeps the main document's status, dismisses dialogs, and records the first reason to
abandon the render: a download, a crash, or the memory cap passed. Its :meth:`PageWatch.race`
lets every step of the capture end as soon as that happens.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable
from typing import Any, TypeVar
from urllib.parse import urlsplit

from playwright.async_api import Dialog, Download, Page, Request, Response
from playwright.async_api import Error as PlaywrightError

from learner.errors import NavigationFailed, RenderCause, RenderStep, RenderTimeout
from learner.net.hosts import url_host_key
from learner.render.host_hold import HostHold
from learner.render.memory import MemoryWatchdog

logger = logging.getLogger(__name__)

__all__ = ["PageWatch"]


_T = TypeVar("_T")
# Requests that stay open by design: they never hold a page, and do not count as it moving.
_STREAMS = frozenset({"media", "websocket", "eventsource", "ping"})


class PageWatch:
    """Listens to one page: requests in flight, navigations, and what must end the render."""

    def __init__(
        self,
        page: Page,
        url: str,
        memory: MemoryWatchdog | None = None,
        hold: HostHold | None = None,
    ) -> None:
        self.page = page
        self.memory = memory
        self.host = url_host_key(url)
        self.hold = hold
        """The page's hold on its host, let go of while the page waits (``None``: no pacing)."""
        self.inflight: set[Request] = set()
        self.requests_started = 0
        self.requests_seen = 0
        """Every request, streams and polls included."""
        self.last_request_end = time.monotonic()
        self.navigations = 0
        self.redirects: list[str] = []
        self.status: int | None = None
        self.retry_after: str | None = None
        self.failure: tuple[str, RenderCause] | None = None
        self.location = ""
        """Where the main frame was sent to another host (the failure's ``location``)."""
        self.failed = asyncio.Event()
        self.polls: set[str] = set()
        """URLs the page polls (reported by the readiness script); their requests are noise."""
        self.step = RenderStep.NAVIGATION
        """The step of the capture under way: what a timeout names."""
        self._first_navigation = True
        page.on("request", self._on_request)
        page.on("requestfinished", self._on_done)
        page.on("requestfailed", self._on_done)
        page.on("response", self._on_response)
        page.on("framenavigated", self._on_navigated)
        if hold is not None:
            page.on("load", lambda _: hold.loaded())
        page.on("dialog", self._on_dialog)
        page.on("download", self._on_download)
        page.on("crash", lambda _: self._on_crash())

    def fail(self, reason: str, cause: RenderCause) -> None:
        """Record the first reason to abandon this render."""
        if self.failure is None:
            self.failure = (reason, cause)
            self.failed.set()

    async def race(self, awaitable: Awaitable[_T], url: str) -> _T:
        """Await ``awaitable`` unless the page fails first (then NavigationFailed)."""
        task = asyncio.ensure_future(awaitable)
        failed = asyncio.ensure_future(self.failed.wait())
        try:
            await asyncio.wait((task, failed), return_when=asyncio.FIRST_COMPLETED)
        finally:
            failed.cancel()
            if not task.done():
                task.cancel()
        if self.failure is not None:
            if task.done() and not task.cancelled():
                task.exception()  # retrieved: the recorded failure explains it better
            reason, cause = self.failure
            if cause is RenderCause.MEMORY:
                raise RenderTimeout(url, reason, cause, self.step)
            raise NavigationFailed(url, reason, cause, location=self.location)
        return task.result()

    def network_quiet_for(self) -> float:
        """Seconds since the last request ended, or 0 while any is in flight."""
        return 0.0 if self.inflight else time.monotonic() - self.last_request_end

    def _is_main_navigation(self, request: Request) -> bool:
        try:
            return request.is_navigation_request() and request.frame == self.page.main_frame
        except PlaywrightError:  # requests of workers have no frame
            return False

    def held_back(self) -> float:
        """Seconds the page's requests have waited for their host (not page time)."""
        return self.hold.held_back() if self.hold is not None else 0.0

    def _on_request(self, request: Request) -> None:
        self.requests_seen += 1
        if self.hold is not None:
            self.hold.sent(request)
        main = self._is_main_navigation(request)
        if not main and (request.resource_type in _STREAMS or request.url in self.polls):
            return
        self.requests_started += 1
        self.inflight.add(request)
        if not main:
            return
        if self._first_navigation:
            self._first_navigation = False
            return
        target = request.url
        self.redirects.append(target)
        parts = urlsplit(target)
        if parts.scheme not in ("http", "https"):
            self.fail(f"redirected to a non-HTTP URL: {target}", RenderCause.NON_HTTP)
        elif url_host_key(target) != self.host:
            if self.failure is None:
                self.location = target
            self.fail(f"redirected to another host: {target}", RenderCause.OTHER_HOST)

    def _on_done(self, request: Request) -> None:
        if request in self.inflight:
            self.inflight.discard(request)
            self.last_request_end = time.monotonic()
        if self.hold is not None:
            self.hold.done(request)

    def _on_response(self, response: Response) -> None:
        if self._is_main_navigation(response.request) and not 300 <= response.status < 400:
            self.status = response.status
            self.retry_after = response.headers.get("retry-after")
            if self.hold is not None:
                self.hold.answered(response.status)

    def _on_navigated(self, frame: Any) -> None:
        if frame == self.page.main_frame:
            self.navigations += 1

    async def _on_dialog(self, dialog: Dialog) -> None:
        logger.debug("dismissing %s dialog on %s", dialog.type, self.page.url)
        with contextlib.suppress(PlaywrightError):  # the page may go away first
            await dialog.dismiss()

    def _on_download(self, download: Download) -> None:
        self.fail("download", RenderCause.DOWNLOAD)

    def _on_crash(self) -> None:
        if self.memory is not None and self.memory.blames():
            cap = self.memory.cap_bytes >> 20
            self.fail(f"the page passed the memory cap of {cap} MB", RenderCause.MEMORY)
        else:
            self.fail("the page crashed", RenderCause.CRASHED)
