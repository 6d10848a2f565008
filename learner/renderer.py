"""Render a URL in headless Chromium, in a fresh context, until two captures agree.

One :class:`Renderer` owns Playwright and one browser for a whole run. Every render gets a
fresh browser context with the fixed :class:`~learner.config.RenderSettings`, waits on
signals (``load``, ``document.fonts.ready``, no request in flight, two animation frames),
then probes the page (DOM digest, visible text and height of the whole page, requests
started) until two consecutive probes agree, and only then takes the full-page screenshot.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Mapping
from dataclasses import dataclass
from types import TracebackType
from typing import Any, TypeVar
from urllib.parse import urlsplit

from playwright.async_api import (
    Browser,
    BrowserContext,
    Dialog,
    Download,
    Page,
    Playwright,
    Request,
    Response,
    async_playwright,
)
from playwright.async_api import Error as PlaywrightError
from playwright.async_api import TimeoutError as PlaywrightTimeout

from learner.browser import CHROMIUM_ARGS, resolver_rules
from learner.config import RenderSettings
from learner.errors import BrowserNotFound, NavigationFailed, RenderError, RenderTimeout

logger = logging.getLogger(__name__)

__all__ = ["Renderer", "Rendering"]

_T = TypeVar("_T")
_LAUNCH_TIMEOUT_S = 30.0
_CLOSE_TIMEOUT_S = 5.0

# One round trip: fonts loaded, two frames painted (the first may predate the last DOM
# change), then the page's size, visible text (capped in the page, not after transfer),
# title, and a digest of the whole DOM (FNV-1a over its markup), which sees changes below
# the first screen that leave the text alone (a class, a style, an image source).
_SNAPSHOT_JS = """async (maxChars) => {
  await document.fonts.ready;
  await new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));
  const root = document.documentElement, body = document.body;
  const height = Math.max(root ? root.scrollHeight : 0, body ? body.scrollHeight : 0);
  const text = body ? body.innerText : (root ? root.innerText : "");
  const markup = root ? root.outerHTML : "";
  let digest = 0x811c9dc5;
  for (let i = 0; i < markup.length; i++) {
    digest = Math.imul(digest ^ markup.charCodeAt(i), 0x01000193);
  }
  return {height: height, text: text.slice(0, maxChars), title: document.title,
          dom: (digest >>> 0).toString(16) + ":" + markup.length};
}"""


@dataclass(frozen=True, slots=True)
class Rendering:
    """What one render of a URL produced.

    ``screenshot`` is a PNG of the page from the top down to ``max_page_height``; ``text`` is
    the visible text of the whole page, capped at ``max_text_chars``; ``settled`` is true
    when two consecutive probes agreed and the page stayed still during the full capture;
    ``redirects`` lists the URLs the main frame was sent on to after ``url`` (HTTP
    redirects, then script or meta navigations), in order.
    """

    url: str
    final_url: str
    status: int | None
    screenshot: bytes
    text: str
    title: str
    elapsed_s: float
    settled: bool
    redirects: tuple[str, ...]


@dataclass(slots=True)
class _Slot:
    """One launched browser and the renders using it."""

    browser: Browser
    started: int = 0
    active: int = 0
    retired: bool = False
    closed: bool = False


class _PageWatch:
    """Listens to one page: requests in flight, navigations, and what must end the render."""

    def __init__(self, page: Page, url: str) -> None:
        self.page = page
        self.host = (urlsplit(url).hostname or "").lower()
        self.inflight: set[Request] = set()
        self.requests_started = 0
        self.navigations = 0
        self.redirects: list[str] = []
        self.status: int | None = None
        self.quiet = asyncio.Event()
        self.quiet.set()
        self.failure: str | None = None
        self.failed = asyncio.Event()
        self._first_navigation = True
        page.on("request", self._on_request)
        page.on("requestfinished", self._on_done)
        page.on("requestfailed", self._on_done)
        page.on("response", self._on_response)
        page.on("framenavigated", self._on_navigated)
        page.on("dialog", self._on_dialog)
        page.on("download", self._on_download)
        page.on("crash", lambda _: self.fail("the page crashed"))

    def fail(self, reason: str) -> None:
        """Record the first reason to abandon this render."""
        if self.failure is None:
            self.failure = reason
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
            raise NavigationFailed(url, self.failure)
        return task.result()

    def _is_main_navigation(self, request: Request) -> bool:
        try:
            return request.is_navigation_request() and request.frame == self.page.main_frame
        except PlaywrightError:  # requests of workers have no frame
            return False

    def _on_request(self, request: Request) -> None:
        self.requests_started += 1
        self.inflight.add(request)
        self.quiet.clear()
        if not self._is_main_navigation(request):
            return
        if self._first_navigation:
            self._first_navigation = False
            return
        target = request.url
        self.redirects.append(target)
        parts = urlsplit(target)
        if parts.scheme not in ("http", "https"):
            self.fail(f"redirected to a non-HTTP URL: {target}")
        elif (parts.hostname or "").lower() != self.host:
            self.fail(f"redirected to another host: {target}")

    def _on_done(self, request: Request) -> None:
        self.inflight.discard(request)
        if not self.inflight:
            self.quiet.set()

    def _on_response(self, response: Response) -> None:
        if self._is_main_navigation(response.request) and not 300 <= response.status < 400:
            self.status = response.status

    def _on_navigated(self, frame: Any) -> None:
        if frame == self.page.main_frame:
            self.navigations += 1

    async def _on_dialog(self, dialog: Dialog) -> None:
        logger.debug("dismissing %s dialog on %s", dialog.type, self.page.url)
        with contextlib.suppress(PlaywrightError):  # the page may go away first
            await dialog.dismiss()

    def _on_download(self, download: Download) -> None:
        self.fail("download")


class Renderer:
    """Owns Playwright and one Chromium; renders URLs in fresh contexts.

    Args:
        settings: how pages are rendered.
        executable: the Chromium to launch; ``None`` lets Playwright use its own.
        resolve: host name to ``ADDR:PORT``, passed to Chromium's host resolver rules.
        max_open_pages: how many renders may run at once.
        restart_after: renders after which the browser is replaced by a fresh one.

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
        max_open_pages: int = 2,
        restart_after: int = 100,
    ) -> None:
        if max_open_pages < 1:
            raise ValueError("max_open_pages must be at least 1")
        if restart_after < 1:
            raise ValueError("restart_after must be at least 1")
        self.settings = settings
        self.executable = executable
        rules = resolver_rules(resolve or {})
        self._args = [*CHROMIUM_ARGS, *([f"--host-resolver-rules={rules}"] if rules else [])]
        self._restart_after = restart_after
        self._pages = asyncio.Semaphore(max_open_pages)
        self._lock = asyncio.Lock()
        self._playwright: Playwright | None = None
        self._slot: _Slot | None = None
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

    async def render(self, url: str) -> Rendering:
        """Render ``url`` and capture it once it has settled.

        Args:
            url: an ``http`` or ``https`` URL.

        Raises:
            RenderTimeout: the page did not load and settle within ``page_timeout_s``.
            NavigationFailed: network error, redirect loop, download, or the main frame went
                to another host or to a non-HTTP URL (the reason names where).
            RenderError: the browser went away during the render.
        """
        if urlsplit(url).scheme not in ("http", "https"):
            raise NavigationFailed(url, "not an http(s) URL")
        async with self._pages:
            slot = await self._acquire()
            try:
                return await self._render(slot, url)
            finally:
                await self._release(slot)

    async def _render(self, slot: _Slot, url: str) -> Rendering:
        started = time.monotonic()
        limit = self.settings.page_timeout_s
        stage = "opening a context"
        context: BrowserContext | None = None
        page: Page | None = None
        popups: set[asyncio.Task[None]] = set()
        try:
            async with asyncio.timeout(limit):
                context = await self._new_context(slot.browser)
                context.on("page", lambda p: _close_popup(p, page, popups))
                page = await context.new_page()
                watch = _PageWatch(page, url)
                stage = "loading"
                response = await watch.race(page.goto(url, wait_until="load"), url)
                if response is not None and watch.status is None:
                    watch.status = response.status
                stage = "settling"
                return await self._settle(page, watch, url, started)
        except TimeoutError as exc:  # asyncio.timeout, or a Playwright timeout below
            raise RenderTimeout(url, f"not settled within {limit:g} s ({stage})") from exc
        except PlaywrightTimeout as exc:
            raise RenderTimeout(url, f"not settled within {limit:g} s ({stage})") from exc
        except PlaywrightError as exc:
            raise _navigation_error(url, exc, slot) from exc
        finally:
            for task in popups:
                task.cancel()
            await self._close(slot, page, context)

    async def _new_context(self, browser: Browser) -> BrowserContext:
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
        )
        context.set_default_timeout(s.page_timeout_s * 1000)
        # A fixed Date.now()/new Date(); timers, animation frames and performance.now() run.
        await context.clock.set_fixed_time(s.fixed_time)
        return context

    async def _settle(self, page: Page, watch: _PageWatch, url: str, started: float) -> Rendering:
        # Settling compares cheap probes (the DOM digest, text and height of the whole page);
        # the full-page PNG, many times their cost, is taken once two consecutive probes
        # agree, and counts only if no request or navigation started while it was taken.
        # Pixels that change with no DOM change (a canvas) do not hold a page unsettled; the
        # two renders of every original still show them, as noise.
        s = self.settings
        previous: tuple[object, ...] | None = None
        settled = False
        png, text, title, height = b"", "", "", s.viewport_height
        for _ in range(s.settle_max_shots):
            key, text, title, height = await self._probe(page, watch, url)
            if key == previous:
                png = await self._full_page(page, watch, url, height)
                if (watch.requests_started, watch.navigations) == key[-2:]:
                    settled = True
                    break
                png = b""
            previous = key
        if not settled:
            logger.debug("%s did not settle in %d captures", url, s.settle_max_shots)
            png = await self._full_page(page, watch, url, height)
        return Rendering(
            url=url,
            final_url=page.url,
            status=watch.status,
            screenshot=png,
            text=text,
            title=title,
            elapsed_s=round(time.monotonic() - started, 3),
            settled=settled,
            redirects=tuple(watch.redirects),
        )

    async def _probe(
        self, page: Page, watch: _PageWatch, url: str
    ) -> tuple[tuple[object, ...], str, str, int]:
        """One cheap capture once the network is quiet: its key, text, title and height."""
        s = self.settings
        await self._network_quiet(watch)
        await watch.race(page.wait_for_load_state("load"), url)
        snapshot = await watch.race(page.evaluate(_SNAPSHOT_JS, s.max_text_chars), url)
        height = min(max(int(snapshot["height"]), s.viewport_height), s.max_page_height)
        text, title = str(snapshot["text"]), str(snapshot["title"])
        # A request or navigation during the probe means the page was still moving.
        key = (
            str(snapshot["dom"]),
            height,
            text,
            title,
            watch.requests_started,
            watch.navigations,
        )
        return key, text, title, height

    async def _full_page(self, page: Page, watch: _PageWatch, url: str, height: int) -> bytes:
        """The page from the top down to ``height`` (capped at ``max_page_height``), as PNG."""
        return await watch.race(
            page.screenshot(
                type="png",
                full_page=True,
                clip={"x": 0, "y": 0, "width": self.settings.viewport_width, "height": height},
                animations="disabled",
                caret="hide",
                scale="css",
            ),
            url,
        )

    async def _network_quiet(self, watch: _PageWatch) -> None:
        if watch.quiet.is_set():
            return
        try:
            async with asyncio.timeout(self.settings.network_idle_max_s):
                await watch.quiet.wait()
        except TimeoutError:
            logger.debug("%d requests still in flight; capturing anyway", len(watch.inflight))

    async def _close(self, slot: _Slot, page: Page | None, context: BrowserContext | None) -> None:
        """Close page, then context; a browser that cannot do that is retired."""
        try:
            async with asyncio.timeout(_CLOSE_TIMEOUT_S):
                if page is not None:
                    await page.close()
                if context is not None:
                    await context.close()
        except (TimeoutError, PlaywrightError) as exc:
            logger.warning("closing a page failed (%s); the browser will be restarted", exc)
            slot.retired = True


@dataclass(slots=True)
class _ErrorMap:
    needle: str
    reason: str
    kind: type[RenderError] = NavigationFailed


_ERRORS = (
    _ErrorMap("Download is starting", "download"),
    _ErrorMap("ERR_TOO_MANY_REDIRECTS", "redirect loop (net::ERR_TOO_MANY_REDIRECTS)"),
    _ErrorMap("ERR_UNSAFE_REDIRECT", "redirected to a non-HTTP URL (net::ERR_UNSAFE_REDIRECT)"),
    _ErrorMap("has been closed", "the browser went away", RenderError),
)


def _navigation_error(url: str, exc: PlaywrightError, slot: _Slot) -> RenderError:
    message = str(exc)
    for known in _ERRORS:
        if known.needle in message:
            if known.kind is RenderError:
                slot.retired = True
            return known.kind(url, known.reason)
    first_line = message.strip().splitlines()[0] if message.strip() else type(exc).__name__
    return NavigationFailed(url, first_line.removeprefix("Page.goto: "))


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
