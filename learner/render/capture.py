"""Capture one page in an open browser context: load, wait until ready, scroll, screenshot.

The readiness rule (``docs/fingerprint.md``): a page is captured once nothing is in flight
(no request seen by the browser, no ``fetch`` or XHR seen by the page), no one-shot timer,
animation frame or idle callback is due within ``timer_horizon_s``, and the DOM has been
quiet for ``quiet_window_s``, all within ``page_timeout_s``. Work that repeats forever (a
ticking clock, a carousel, a poll, a live feed) is noise, not loading
(:mod:`learner.render.page_scripts`); so are streams that never end by design (media,
WebSockets, server-sent events, beacons).

A page pays only for what it does: the screenshot is taken as soon as nothing is pending
and the DOM has been still for a moment, and the quiet window is then waited out around it:
the capture counts only if nothing that counts as loading happened from just before the
screenshot until the window was over; the page's text is read inside the window too. A
page that is quiet at once is so captured at once.
Before the screenshot a page taller than the viewport is scrolled through to the capture
height, so sections loaded on view load. A page that never meets the rule is still
captured, marked unsettled: it may show a change, never prove that nothing changed.

Every step is bounded, and a step that runs out names itself (:class:`RenderStep`):
navigation (the first response, within ``page_timeout_s``), ready and scroll-through (the
page's answers, within ``busy_limit_s``), the screenshot (within what is left of the page
time, and at least ``busy_limit_s``) and the probes that read the page around it.
"""

from __future__ import annotations

import asyncio
import base64
import time
from collections.abc import Iterable
from typing import Any

from playwright.async_api import CDPSession, Frame, Page, Response
from playwright.async_api import Error as PlaywrightError
from playwright.async_api import TimeoutError as PlaywrightTimeout

from learner.config import RenderSettings
from learner.errors import RenderCause, RenderStep, RenderTimeout
from learner.model import Document, Rendering
from learner.render.page_scripts import (
    DOCUMENT_SIZE,
    MEASURE,
    PREPARE_SHOT,
    PROBE,
    READY_STATE,
    RESTORE_SHOT,
    SCROLL_THROUGH,
)
from learner.render.page_watch import PageWatch

__all__ = ["MAX_DOCUMENT_BYTES", "PageWatch", "capture"]

MAX_DOCUMENT_BYTES = 8 << 20
"""The largest main document kept for archive evidence; a larger one is rendered."""

# The longest one readiness check waits in the page before reporting back.
_CHECK_S = 1.0
_SCROLL_PASSES = 3
# How long the DOM must be still before the screenshot; the quiet window is waited out after.
_SHOT_QUIET_S = 0.1
# How long a frame may take to answer the screenshot's preparation before it is left as it is.
_FRAME_ANSWER_S = 1.0


class _Capture:
    """One page's capture; ``deadline`` bounds the readiness waits (monotonic seconds)."""

    def __init__(self, page: Page, watch: PageWatch, url: str, settings: RenderSettings) -> None:
        self.page = page
        self.watch = watch
        self.url = url
        self.s = settings
        self.started = time.monotonic()
        self.shot_quiet = min(_SHOT_QUIET_S, settings.quiet_window_s)
        """How long the DOM must be still before the screenshot (and after a scroll)."""
        self._devtools: CDPSession | None = None

    @property
    def deadline(self) -> float:
        """The end of the page time; time its requests waited for their host is added."""
        return self.started + self.s.page_timeout_s + self.watch.held_back()

    async def evaluate(self, script: str, arg: Any, wait_s: float = 0.0) -> Any:
        """Run ``script`` in the page; a page that does not answer in time is busy.

        Returns ``None`` when a navigation replaced the page meanwhile.
        """
        limit = wait_s + self.s.busy_limit_s
        try:
            async with asyncio.timeout(limit):
                return await self.watch.race(self.page.evaluate(script, arg), self.url)
        except TimeoutError:
            raise RenderTimeout(
                self.url,
                f"main thread busy: no answer within {limit:g} s",
                RenderCause.BUSY,
                self.watch.step,
            ) from None
        except PlaywrightError as exc:
            if _navigated_away(exc):
                return None
            raise

    async def wait_ready(self, quiet: float) -> tuple[bool, str, dict[str, Any]]:
        """Wait until nothing is pending and the page has been quiet for ``quiet`` seconds.

        Returns whether it did before time ran out, what was still going on if not, and
        the last state seen.
        """
        network_wait_started: float | None = None
        state: dict[str, Any] = {}
        late = "not ready within the page time"
        while True:
            remaining = self.deadline - time.monotonic()
            # A page whose loading took the whole page time is still checked once, so that
            # what it is waiting for is named (or it is found ready after all).
            if remaining <= 0 and state:
                return False, _pending(state, self.watch, late), state
            wait_s = min(_CHECK_S, max(remaining, 0.0))
            got = await self.evaluate(
                READY_STATE, [quiet * 1000, self.s.timer_horizon_s * 1000, wait_s * 1000], wait_s
            )
            if got is None:  # navigated: the new document starts over
                if remaining <= 0:
                    return False, _pending(state, self.watch, f"{late}: still navigating"), state
                continue
            state = dict(got)
            self._forget_polls(state.get("polls", ()))
            network_quiet = self.watch.network_quiet_for() >= quiet
            if state["ready"] and network_quiet:
                return True, "", state
            page_quiet = (
                not state["timers"] and not state["frames"] and state["quietFor"] >= quiet * 1000
            )
            waiting_for_host = self.watch.hold is not None and self.watch.hold.waiting
            if page_quiet and (self.watch.inflight or state["requests"]) and not waiting_for_host:
                # Only requests are left: a long poll or a stalled resource is given
                # network_idle_max_s, not the whole page time.
                network_wait_started = network_wait_started or time.monotonic()
                if time.monotonic() - network_wait_started >= self.s.network_idle_max_s:
                    return False, _pending(state, self.watch, "requests still in flight"), state
            else:
                network_wait_started = None

    def _forget_polls(self, polls: Any) -> None:
        """Stop waiting for requests of URLs the page turned out to poll."""
        fresh = {str(url) for url in polls} - self.watch.polls
        if fresh:
            self.watch.polls |= fresh
            self.watch.inflight = {r for r in self.watch.inflight if r.url not in fresh}

    async def scroll_through(self) -> tuple[bool, str, dict[str, Any]]:
        """Scroll to the capture height so that sections loaded on view load, then wait.

        Returns what :meth:`wait_ready` returns; a page no taller than the viewport is not
        scrolled, and a scroll that started no request and changed nothing needs no wait.
        """
        self.watch.step = RenderStep.SCROLL
        reached = 0
        outcome: tuple[bool, str, dict[str, Any]] = (True, "", {})
        for _ in range(_SCROLL_PASSES):
            started = self.watch.requests_started
            got = await self.evaluate(SCROLL_THROUGH, [self.s.max_page_height, reached], 5.0)
            if got is None:
                return await self.wait_ready(self.shot_quiet)
            if got["changes"] != got["before"] or self.watch.requests_started != started:
                outcome = await self.wait_ready(self.shot_quiet)
            grown = int(got["height"]) > int(got["reached"])
            reached = int(got["reached"])
            if not outcome[0] or not grown or reached >= self.s.max_page_height:
                return outcome
        return outcome

    async def probe(self, script: str = PROBE) -> dict[str, Any]:
        """Run ``script`` in the page and add the moves the browser saw.

        ``script`` is :data:`PROBE`, or :data:`MEASURE` where the text is not needed; the
        moves are the requests started and the navigations so far.
        """
        self.watch.step = RenderStep.PROBE
        got = await self.evaluate(script, self.s.max_text_chars, 5.0)
        if got is None:
            return {"height": 0, "text": "", "title": "", "changes": -1, "navigated": True}
        got = dict(got)
        got["moves"] = (self.watch.requests_started, self.watch.navigations)
        return got

    async def screenshot(self, height: int) -> bytes:
        """The page from the top down to ``height``, as PNG.

        Taken as Playwright's full-page screenshot takes it (animations stilled in every
        frame, web fonts in, the clip trimmed to the document, beyond the viewport only for
        a page larger than it), but through the DevTools protocol with Chromium's fast PNG
        encoder (``optimizeForSpeed``): the same pixels for about a third less CPU per image.
        Bounded by what is left of the page time, and at least ``busy_limit_s`` (a page
        captured unsettled at the page time still gets its screenshot).

        Raises:
            RenderTimeout: no image in time (``step`` is ``screenshot``).
        """
        self.watch.step = RenderStep.SCREENSHOT
        limit = max(self.deadline - time.monotonic(), self.s.busy_limit_s)
        try:
            async with asyncio.timeout(limit):
                return await self.watch.race(self._png(height), self.url)
        except (TimeoutError, PlaywrightTimeout):
            raise RenderTimeout(
                self.url, f"no image within {limit:.1f} s", step=RenderStep.SCREENSHOT
            ) from None

    async def _png(self, height: int) -> bytes:
        page = self.page
        if self._devtools is None:
            self._devtools = await page.context.new_cdp_session(page)
        frames = list(page.frames)
        await _in_frames(frames, PREPARE_SHOT)
        view_width, view_height = self.s.viewport_width, self.s.viewport_height
        viewport = {"width": view_width, "height": view_height}
        try:
            size = await page.evaluate(DOCUMENT_SIZE) or viewport
            fits = size["width"] <= view_width and size["height"] <= view_height
            clip = {
                "x": 0,
                "y": 0,
                "width": min(view_width, size["width"]),
                "height": min(height, size["height"]),
                "scale": 1,  # CSS pixels: the context's device scale factor is 1
            }
            shot = await self._devtools.send(
                "Page.captureScreenshot",
                {
                    "format": "png",
                    "clip": clip,
                    "captureBeyondViewport": not fits,
                    "optimizeForSpeed": True,
                },
            )
            return base64.b64decode(shot["data"])
        finally:
            await _in_frames(frames, RESTORE_SHOT)

    def height_of(self, probe: dict[str, Any]) -> int:
        return min(max(int(probe["height"]), self.s.viewport_height), self.s.max_page_height)


async def _in_frames(frames: Iterable[Frame], script: str) -> None:
    """Run ``script`` in each of ``frames`` that answers within ``_FRAME_ANSWER_S``.

    A frame that does not answer (its thread busy, or gone) is left as it is, as
    Playwright's screenshot leaves it; the page's own steps notice a busy main thread.
    """
    runs = [asyncio.ensure_future(frame.evaluate(script)) for frame in frames]
    if not runs:
        return
    _, late = await asyncio.wait(runs, timeout=_FRAME_ANSWER_S)
    for run in late:
        run.cancel()
    for run in runs:
        if run.done() and not run.cancelled():
            run.exception()  # read: a frame that failed is left as it is


async def capture(
    page: Page,
    watch: PageWatch,
    url: str,
    settings: RenderSettings,
    *,
    keep_document: bool = False,
) -> Rendering:
    """Load ``url`` in ``page`` and capture it once ready (see the module docstring).

    With ``keep_document``, the main document's body and headers are kept too (up to
    :data:`MAX_DOCUMENT_BYTES`), for archive evidence.

    Raises:
        NavigationFailed: the page went somewhere it must not, or could not be loaded.
        RenderTimeout: a step ran out of time (``step`` names it), or the main thread
            stopped answering (``cause`` is ``busy``).
        playwright's errors: for the caller to map (network errors).
    """
    job = _Capture(page, watch, url, settings)
    watch.step = RenderStep.NAVIGATION
    try:
        response = await watch.race(
            page.goto(url, wait_until="commit", timeout=settings.page_timeout_s * 1000), url
        )
    except PlaywrightTimeout:
        raise RenderTimeout(
            url, f"no response within {settings.page_timeout_s:g} s", step=RenderStep.NAVIGATION
        ) from None
    if response is not None and watch.status is None:
        watch.status = response.status
    watch.step = RenderStep.READY
    ready, unsettled, state = await job.wait_ready(job.shot_quiet)
    if ready:
        ready, unsettled, scrolled = await job.scroll_through()
        state = scrolled or state
    png, text, title = b"", "", ""
    still = False
    marks: tuple[str, ...] = ()
    canonical = ""
    for _ in range(settings.settle_max_shots):
        before = await job.probe(MEASURE)
        png = await job.screenshot(job.height_of(before))
        # The text is read while the quiet window runs out: the check below proves it is
        # the text of the page as it stood when the window ended.
        seen = await job.probe()
        text, title = str(seen["text"]), str(seen["title"])
        marks = tuple(str(url) for url in seen.get("marks", ()))
        canonical = str(seen.get("canonical") or "")
        after = seen
        if ready:
            # The quiet window, waited out around the screenshot (at once if it already has).
            watch.step = RenderStep.READY
            ready, unsettled, state = await job.wait_ready(settings.quiet_window_s)
            after = await job.probe(MEASURE)
        # Nothing that counts as loading happened from before the screenshot until now.
        still = all(before[k] == after[k] for k in ("changes", "moves"))
        if still or not ready or time.monotonic() >= job.deadline:
            break
    if ready and not still:
        unsettled = "the page kept changing while it was captured" + _at(after)
    settled = ready and still
    return Rendering(
        url=url,
        final_url=page.url,
        status=watch.status,
        screenshot=png,
        text=text,
        title=title,
        elapsed_s=round(time.monotonic() - job.started, 3),
        settled=settled,
        redirects=tuple(watch.redirects),
        unsettled="" if settled else unsettled,
        retry_after=watch.retry_after,
        readiness=state,
        marks=marks,
        canonical=canonical,
        requests=watch.requests_seen,
        document=await _document(watch, response, url) if keep_document else None,
    )


async def _document(watch: PageWatch, response: Response | None, url: str) -> Document | None:
    """The main document's body and headers, if the browser still has them."""
    if response is None:
        return None
    try:
        body = await watch.race(response.body(), url)
        headers = await watch.race(response.all_headers(), url)
    except PlaywrightError:
        return None  # a document the page navigated away from may be gone
    return Document(body, headers) if len(body) <= MAX_DOCUMENT_BYTES else None


def _pending(state: dict[str, Any], watch: PageWatch, summary: str) -> str:
    """What kept a page from being ready, in words.

    Each thing is named: which requests (their URLs), which timers (kind, function, delay),
    which node changed last.
    """
    parts = []
    requests = max(len(watch.inflight), int(state.get("requests", 0)))
    if requests:
        urls = dict.fromkeys([*(r.url for r in watch.inflight), *state.get("pendingRequests", ())])
        parts.append(f"{requests} request(s) in flight{_named(urls)}")
    if state.get("timers"):
        named = _named(state.get("pendingTimers", ()))
        parts.append(f"{state['timers']} timer(s) due within the horizon{named}")
    if state.get("frames"):
        parts.append(f"{state['frames']} frame or idle callback(s) pending")
        parts[-1] += _named(state.get("pendingFrames", ()))
    if state and not state.get("loaded", True):
        parts.append("the document still loading")
    if state and not parts:
        parts.append(f"the DOM changed {state.get('quietFor', 0)} ms ago{_at(state)}")
    return f"{summary}: " + ", ".join(parts) if parts else summary


def _named(things: Iterable[Any], most: int = 3) -> str:
    """`` (a, b, c)``: the first ``most`` of ``things``, or nothing."""
    shown = [str(thing)[:120] for thing in things][:most]
    return f" ({', '.join(shown)})" if shown else ""


def _at(state: dict[str, Any]) -> str:
    """`` at NODE``: where the DOM changed last, as the page script describes it."""
    where = state.get("changed")
    return f" at {where}" if where else ""


def _navigated_away(exc: PlaywrightError) -> bool:
    # Playwright's wording when an evaluate outlives its document: the page navigated.
    message = str(exc)
    return "Execution context was destroyed" in message or "navigation" in message.lower()
