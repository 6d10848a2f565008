"""The browser pool: Playwright and one Chromium for a run, a fresh context per render.

One :class:`Renderer` owns Playwright and one browser for a whole run, restarts it after
``restart_after`` renders or when it goes away, and caps the renders open at once. Every
render gets a fresh context with the fixed :class:`~learner.config.RenderSettings` and the
readiness script; :func:`learner.render.capture.capture` loads and captures the page.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
from collections.abc import Mapping
from dataclasses import dataclass
from types import TracebackType
from urllib.parse import urlsplit

from playwright.async_api import Browser, BrowserContext, Page, Playwright, async_playwright
from playwright.async_api import Error as PlaywrightError
from playwright.async_api import TimeoutError as PlaywrightTimeout

from learner.config import RenderSettings
from learner.errors import (
    BrowserNotFound,
    NavigationFailed,
    RenderCause,
    RenderError,
    RenderStep,
    RenderTimeout,
)
from learner.model import Rendering
from learner.net.hosts import url_host_key
from learner.net.limiter import HostTurn
from learner.render.browser import launch_args
from learner.render.capture import PageWatch, capture
from learner.render.guard import AddressCheck, ProxyGate
from learner.render.host_hold import HostHold
from learner.render.memory import MemoryWatchdog
from learner.render.page_scripts import READINESS_INIT

logger = logging.getLogger(__name__)

__all__ = ["Renderer", "Rendering"]  # Rendering is re-exported from learner.model

# A first launch on a fresh machine builds Chromium's font and profile caches: seen past
# 30 s on 2 busy cores. Playwright's own default is 180 s.
_LAUNCH_TIMEOUT_S = 120.0
_CLOSE_TIMEOUT_S = 5.0
# Room past the page time for the capture of a page that never became ready.
_CAPTURE_GRACE_S = 10.0


@dataclass(slots=True)
class _Slot:
    """One launched browser and the renders using it."""

    browser: Browser
    started: int = 0
    active: int = 0
    retired: bool = False
    closed: bool = False


class Renderer:
    """Owns Playwright and one Chromium; renders URLs in fresh contexts.

    Args:
        settings: how pages are rendered.
        executable: the Chromium to launch; ``None`` lets Playwright use its own.
        resolve: host name to ``ADDR:PORT``, passed to Chromium's host resolver rules.
        allow_private: pages may reach private and loopback addresses not named in
            ``resolve``; every connection is checked (:mod:`learner.render.guard`).
        max_open_pages: how many renders may run at once.
        restart_after: renders after which the browser is replaced by a fresh one.
        keep_documents: keep each page's main document (its bytes and headers) in the
            rendering, for archive evidence.

    Use it once, as an async context manager::

        async with Renderer(RenderSettings(), executable="/usr/bin/chromium") as renderer:
            rendering = await renderer.render("http://shop.test/item?id=1")
    """

    def __init__(
        self,
        settings: RenderSettings,
        *,
        executable: str | None,
        resolve: Mapping[str, str] | None = None,
        allow_private: bool = False,
        max_open_pages: int = 2,
        restart_after: int = 100,
        keep_documents: bool = False,
    ) -> None:
        if max_open_pages < 1:
            raise ValueError("max_open_pages must be at least 1")
        if restart_after < 1:
            raise ValueError("restart_after must be at least 1")
        self.settings = settings
        self.executable = executable
        self._args = launch_args(resolve)
        self._check = AddressCheck(resolve, allow_private=allow_private)
        self._restart_after = restart_after
        self._keep_documents = keep_documents
        self._pages = asyncio.Semaphore(max_open_pages)
        self._lock = asyncio.Lock()
        self._playwright: Playwright | None = None
        self._slot: _Slot | None = None
        self._memory = MemoryWatchdog(settings.max_renderer_mb << 20)
        self._entered = False
        self._closed = False
        self.renders = 0
        """Renders finished, successful or not."""
        self.launches = 0
        """Browsers launched so far (restarts included)."""

    async def __aenter__(self) -> Renderer:
        if self._entered:
            raise RuntimeError("a Renderer can be entered only once")
        self._entered = True
        try:
            self._playwright = await async_playwright().start()
            async with self._lock:
                self._slot = await self._launch()
            self._memory.start()
        except BaseException:
            await self._shutdown()
            raise
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self._shutdown()

    async def _shutdown(self) -> None:
        self._closed = True
        await self._memory.stop()
        if self._slot is not None:
            await self._close_browser(self._slot)
            self._slot = None
        if self._playwright is not None:
            playwright, self._playwright = self._playwright, None
            try:
                async with asyncio.timeout(_CLOSE_TIMEOUT_S):
                    await playwright.stop()
            except (TimeoutError, PlaywrightError) as exc:
                logger.warning("stopping Playwright failed: %s", exc)

    async def _launch(self) -> _Slot:
        assert self._playwright is not None
        try:
            browser = await self._playwright.chromium.launch(
                executable_path=self.executable,
                args=self._args,
                headless=True,
                chromium_sandbox="--no-sandbox" not in self._args,
                timeout=_LAUNCH_TIMEOUT_S * 1000,
            )
        except PlaywrightError as exc:
            first_line = str(exc).strip().splitlines()[0] if str(exc).strip() else repr(exc)
            name = self.executable or "Playwright's Chromium"
            raise BrowserNotFound(f"could not launch {name}: {first_line}") from exc
        self.launches += 1
        slot = _Slot(browser)
        browser.on("disconnected", lambda _: setattr(slot, "retired", True))
        logger.debug("launched Chromium %s (launch %d)", browser.version, self.launches)
        return slot

    async def _close_browser(self, slot: _Slot) -> None:
        if slot.closed:
            return
        slot.closed = True
        slot.retired = True
        try:
            async with asyncio.timeout(_CLOSE_TIMEOUT_S):
                await slot.browser.close()
        except (TimeoutError, PlaywrightError) as exc:
            logger.warning("closing the browser failed: %s", exc)

    async def _acquire(self) -> _Slot:
        async with self._lock:
            if self._closed or self._playwright is None:
                raise RuntimeError("the Renderer is not open (use it as 'async with')")
            slot = self._slot
            if slot is None or slot.retired or slot.started >= self._restart_after:
                if slot is not None:
                    slot.retired = True
                    if slot.active == 0:
                        await self._close_browser(slot)
                slot = self._slot = await self._launch()
            slot.started += 1
            slot.active += 1
            return slot

    async def _release(self, slot: _Slot) -> None:
        slot.active -= 1
        self.renders += 1
        if slot.retired and slot.active == 0 and slot is not self._slot:
            await self._close_browser(slot)

    async def render(self, url: str, turn: HostTurn | None = None) -> Rendering:
        """Render ``url`` and capture it once it has settled.

        Args:
            url: an ``http`` or ``https`` URL.
            turn: the page's place on its host (:meth:`HostLimiter.turn`): the render starts
                it just before the first request, and lets go of it while the page sends
                nothing (:class:`~learner.render.host_hold.HostHold`); ``None`` renders
                without host pacing.

        Raises:
            RenderTimeout: a step of the render ran out of time; ``step`` names it
                (navigation, ready, scroll-through, screenshot or probe).
            NavigationFailed: network error, redirect loop, download, the main frame went
                to another host or to a non-HTTP URL (the reason names where), or to an
                address the learner may not reach (cause ``address-refused``: not sent).
            RenderError: the browser went away during the render.
        """
        if urlsplit(url).scheme not in ("http", "https"):
            raise NavigationFailed(url, "not an http(s) URL")
        async with self._pages:
            slot = await self._acquire()
            try:
                return await self._render(slot, url, turn)
            finally:
                await self._release(slot)

    async def _render(self, slot: _Slot, url: str, turn: HostTurn | None) -> Rendering:
        s = self.settings
        limit = s.page_timeout_s + s.busy_limit_s + _CAPTURE_GRACE_S
        context: BrowserContext | None = None
        page: Page | None = None
        watch: PageWatch | None = None
        hold: HostHold | None = None
        popups: set[asyncio.Task[None]] = set()
        gate = ProxyGate(self._check)
        try:
            async with gate, asyncio.timeout(limit) as backstop:
                context = await self._new_context(slot.browser, gate.server)
                context.on("page", lambda p: _close_popup(p, page, popups))
                page = await context.new_page()
                if turn is not None:
                    hold = HostHold(turn, url_host_key(url), backstop)
                    await hold.install(context)
                    # Waiting for the host's next start is not page time.
                    backstop.reschedule(None)
                    await turn.start()
                    backstop.reschedule(asyncio.get_running_loop().time() + limit)
                watch = PageWatch(page, url, self._memory, hold)
                rendering = await capture(page, watch, url, s, keep_document=self._keep_documents)
                # A page sent on to a refused address shows Chromium's error page: not a page.
                await self._refuse_main(url, gate, watch, None)
                return dataclasses.replace(rendering, refused=tuple(gate.refused))
        except RenderError as exc:
            await self._refuse_main(url, gate, watch, exc)
            raise
        except (TimeoutError, PlaywrightTimeout) as exc:
            await self._refuse_main(url, gate, watch, exc)
            # The capture bounds each of its steps; this is the backstop over all of them.
            step = watch.step if watch is not None else RenderStep.NAVIGATION
            raise RenderTimeout(url, f"not over within {limit:g} s", step=step) from exc
        except PlaywrightError as exc:
            await self._refuse_main(url, gate, watch, exc)
            direct = gate.failure_of(_main_hop(url, watch))
            raise _navigation_error(url, exc, slot, direct) from exc
        finally:
            if hold is not None:
                hold.close()
            for task in popups:
                task.cancel()
            await self._close(slot, page, context)

    async def _refuse_main(
        self, url: str, gate: ProxyGate, watch: PageWatch | None, cause: Exception | None
    ) -> None:
        """Fail with ``address-refused`` if the main frame's last request was refused.

        Whatever else the render ran into (the failed navigation, a redirect to another
        host, Chromium's error page) follows from that refusal.

        Raises:
            NavigationFailed: with cause ``address-refused``.
        """
        if isinstance(cause, RenderError) and cause.cause is RenderCause.ADDRESS:
            return
        if cause is None and (watch is None or not watch.redirects):
            return  # rendered where it was asked to: the gate let it through
        hop = _main_hop(url, watch)
        refusal = gate.refusal_for(hop) or await self._check.refusal(hop)
        if refusal is not None:
            raise NavigationFailed(url, refusal.reason(), RenderCause.ADDRESS) from cause

    async def _new_context(self, browser: Browser, proxy: str | None) -> BrowserContext:
        """A fresh context for one render; every connection goes through ``proxy``.

        (``None`` only where a benchmark measures what the gate costs.)
        """
        s = self.settings
        size = {"width": s.viewport_width, "height": s.viewport_height}
        context = await browser.new_context(
            viewport=size,  # type: ignore[arg-type]
            screen=size,  # type: ignore[arg-type]
            device_scale_factor=1,
            is_mobile=False,
            has_touch=False,
            locale=s.locale,
            timezone_id=s.timezone_id,
            color_scheme="light",
            reduced_motion="reduce",
            forced_colors="none",
            service_workers="block",
            accept_downloads=False,
            user_agent=s.user_agent,
            # Every connection of the page goes through the render's gate, loopback included.
            proxy={"server": proxy} if proxy is not None else None,
        )
        context.set_default_timeout(s.page_timeout_s * 1000)
        # A fixed Date.now()/new Date(); timers, animation frames and performance.now() run.
        await context.clock.set_fixed_time(s.fixed_time)
        # After the clock, so that the page's timer functions are the readiness wrappers.
        await context.add_init_script(script=READINESS_INIT)
        return context

    async def _close(self, slot: _Slot, page: Page | None, context: BrowserContext | None) -> None:
        """Close page, then context; a browser that cannot do that is retired."""
        try:
            async with asyncio.timeout(_CLOSE_TIMEOUT_S):
                if context is not None:
                    await context.close()  # and its pages with it
                elif page is not None:
                    await page.close()
        except (TimeoutError, PlaywrightError) as exc:
            logger.warning("closing a page failed (%s); the browser will be restarted", exc)
            slot.retired = True


@dataclass(frozen=True, slots=True)
class _ErrorMap:
    needle: str
    reason: str
    cause: RenderCause


# Playwright reports navigation errors as text: they are turned into causes here, once.
_ERRORS = (
    _ErrorMap("Download is starting", "download", RenderCause.DOWNLOAD),
    _ErrorMap(
        "ERR_TOO_MANY_REDIRECTS",
        "redirect loop (net::ERR_TOO_MANY_REDIRECTS)",
        RenderCause.REDIRECT_LOOP,
    ),
    _ErrorMap(
        "ERR_UNSAFE_REDIRECT",
        "redirected to a non-HTTP URL (net::ERR_UNSAFE_REDIRECT)",
        RenderCause.NON_HTTP,
    ),
    _ErrorMap("has been closed", "the browser went away", RenderCause.BROWSER_GONE),
)
_CONNECTION_CODES = (
    "ERR_CONNECTION_REFUSED",
    "ERR_CONNECTION_RESET",
    "ERR_CONNECTION_CLOSED",
    "ERR_EMPTY_RESPONSE",
)


def _navigation_error(
    url: str, exc: PlaywrightError, slot: _Slot, direct: str | None = None
) -> RenderError:
    """The render error for a navigation Playwright reported as failed.

    ``direct`` is the error a direct connection would have failed with, where the render's
    gate could not open the page's connection (Chromium then reports a SOCKS failure).
    """
    message = str(exc)
    if direct is not None:
        message = message.replace("net::ERR_SOCKS_CONNECTION_FAILED", direct)
    for known in _ERRORS:
        if known.needle in message:
            if known.cause is RenderCause.BROWSER_GONE:
                slot.retired = True
                return RenderError(url, known.reason, known.cause)
            return NavigationFailed(url, known.reason, known.cause)
    first_line = message.strip().splitlines()[0] if message.strip() else type(exc).__name__
    reason = first_line.removeprefix("Page.goto: ")
    if any(code in message for code in _CONNECTION_CODES):
        return NavigationFailed(url, reason, RenderCause.CONNECTION)
    return NavigationFailed(url, reason)


def _main_hop(url: str, watch: PageWatch | None) -> str:
    """The URL of the main frame's last request: ``url``, or where it was sent on to."""
    return watch.redirects[-1] if watch is not None and watch.redirects else url


def _close_popup(popup: Page, ours: Page | None, tasks: set[asyncio.Task[None]]) -> None:
    if popup is ours or ours is None:
        return
    logger.debug("closing a pop-up at %s", popup.url)

    async def close() -> None:
        with contextlib.suppress(PlaywrightError):
            await popup.close()

    task = asyncio.ensure_future(close())
    tasks.add(task)
    task.add_done_callback(tasks.discard)
