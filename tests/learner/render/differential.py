"""The learner against a plain browser, page by page: what the learner's own doing changes.

Every page is rendered twice with the same Chromium and flags: by bare Playwright (a fresh
context of the learner's viewport, ``goto`` until ``load``, one full-page screenshot) and by
the learner's :class:`~learner.render.renderer.Renderer` (its readiness script, fixed clock,
scroll-through and capture). A :class:`Row` holds both outcomes and times and, where both
captured a page that neither animates nor changes by itself, whether the learner's capture
equals the plain one within the comparison's own noise (:func:`learner.judge.compare.compare`
against a second render by the learner). The plain screenshot is cut at the learner's
``max_page_height`` and its text at ``max_text_chars``: the learner documents both caps.

The marked test ``tests/learner/render/test_differential.py`` and
``benchmarks/bench_differential.py`` run it; what must hold is :func:`Row.problems` empty for
every row.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

from playwright.async_api import Browser, Page, Playwright
from playwright.async_api import Error as PlaywrightError

from learner.config import RenderSettings
from learner.errors import RenderCause, RenderError
from learner.judge.compare import Comparison, compare
from learner.judge.fingerprint import fingerprint
from learner.model import Rendering
from learner.render.browser import launch_args
from learner.render.renderer import Renderer

__all__ = [
    "PLAIN_LIMIT_S",
    "LearnerCapture",
    "PlainCapture",
    "Row",
    "capture_row",
    "differential",
    "launch_plain",
    "table",
]

# How long a page is given to answer after its screenshot.
_ANSWER_S = 2.0

PLAIN_LIMIT_S = 5.0
"""A page bare Playwright captures within this time must be captured by the learner too."""

# Read after the plain screenshot, outside its time: what the page shows, and whether it
# moves by itself (a CSS or Web animation running, media playing, an SVG animation).
_PLAIN_STATE = """(maxChars) => ({
  text: (document.body ? document.body.innerText : '').slice(0, maxChars),
  title: document.title,
  animated: document.getAnimations().some((a) => a.playState === 'running')
    || [...document.querySelectorAll('video, audio')].some((m) => !m.paused)
    || document.querySelector('animate, animateMotion, animateTransform, set') !== null,
})"""

_TEXT = "(maxChars) => (document.body ? document.body.innerText : '').slice(0, maxChars)"

# After the plain screenshot: how often the text is read again, how long it must hold to be
# still, and for how long at most, to see whether content arrived after the load event.
_LATE_POLL_S = 0.5
_LATE_HOLD_S = 2.0
_LATE_LIMIT_S = 8.0

_HEIGHT = """() => Math.max(document.documentElement ? document.documentElement.scrollHeight : 0,
  document.body ? document.body.scrollHeight : 0)"""

Settling = Literal["settled", "unsettled", "failed"]


@dataclass(frozen=True, slots=True)
class PlainCapture:
    """Bare Playwright on one URL: its capture, or why there is none, and its time."""

    url: str
    seconds: float
    rendering: Rendering | None = None
    error: str = ""
    animated: bool = False
    """Whether an animation was still running on the page after the screenshot, its text
    kept changing, or the page no longer answered then (its own script keeps it busy)."""

    @property
    def captured(self) -> bool:
        """Whether it captured the page within :data:`PLAIN_LIMIT_S`."""
        return self.rendering is not None and self.seconds < PLAIN_LIMIT_S


@dataclass(frozen=True, slots=True)
class LearnerCapture:
    """The learner's renderer on one URL: its rendering or its error, and its time."""

    url: str
    seconds: float
    rendering: Rendering | None = None
    error: RenderError | None = None

    @property
    def outcome(self) -> Settling:
        """``settled``, ``unsettled`` or ``failed``."""
        if self.rendering is None:
            return "failed"
        return "settled" if self.rendering.settled else "unsettled"

    @property
    def said(self) -> str:
        """The failure or the unsettled reason ("" for a settled page)."""
        if self.error is not None:
            return self.error.reason
        return self.rendering.unsettled if self.rendering is not None else ""


@dataclass(frozen=True, slots=True)
class Row:
    """One page: the plain capture, the learner's, and how their pictures compare."""

    plain: PlainCapture
    learner: LearnerCapture
    moving: bool
    """Whether the page moves by itself (a running animation, or changes the learner counted
    as noise): its screenshots need not be equal."""
    comparison: Comparison | None = None
    """The plain capture against the learner's, its noise measured by a second learner
    render; ``None`` where either failed, the page moves, or the learner found it
    unsettled (by a cause it names: the page did not hold still)."""

    @property
    def url(self) -> str:
        """The page's URL."""
        return self.plain.url

    @property
    def equal(self) -> bool | None:
        """Whether the captures are the same within the noise.

        ``None``: not compared, or the page's own noise is too large to judge (a page that
        differs from top to bottom on every load).
        """
        if self.comparison is None or self.comparison.verdict == "undecided":
            return None
        return self.comparison.verdict == "same"

    def problems(self, documented: Mapping[str, str] | None = None) -> list[str]:
        """What breaks the rule on this page (an empty list: nothing).

        A page the plain browser captured in time must be captured by the learner: settled,
        or unsettled naming what kept it (a request by its URL, a timer by its call, a node
        by where it is), unless the learner refuses the page by design (it sends the reader
        to another host, to a non-HTTP URL or to a download). A settled page that does not
        move by itself must look the same to both, unless ``documented`` (URL to reason)
        says which documented learner behaviour shows it otherwise.
        """
        if not self.plain.captured:
            return []
        found = []
        error = self.learner.error
        if error is not None and error.cause not in REFUSED:
            found.append(f"the learner failed where a plain browser did not: {error.reason}")
        elif self.learner.outcome == "unsettled" and not _names_a_cause(self.learner.said):
            found.append(f"unsettled without naming what kept it: {self.learner.said}")
        if self.equal is False and self.url not in (documented or {}):
            assert self.comparison is not None
            found.append("looks different: " + "; ".join(self.comparison.reasons))
        return found


REFUSED = frozenset({RenderCause.OTHER_HOST, RenderCause.NON_HTTP, RenderCause.DOWNLOAD})
"""Failures by design: the page is not one the learner may judge (docs/learner.md)."""


def _names_a_cause(said: str) -> bool:
    # The capture names a request by its URL, a timer by its call and a node by " at ".
    return any(marker in said for marker in ("(http", "setTimeout(", "setInterval(", " at "))


async def launch_plain(
    playwright: Playwright, executable: str | None, resolve: Mapping[str, str]
) -> Browser:
    """The Chromium a plain capture uses: the learner's, with its flags and host mapping."""
    args = launch_args(resolve)
    return await playwright.chromium.launch(
        executable_path=executable,
        args=args,
        headless=True,
        chromium_sandbox="--no-sandbox" not in args,
    )


async def plain_capture(
    browser: Browser, url: str, settings: RenderSettings, limit_s: float
) -> PlainCapture:
    """Bare Playwright: a fresh context, ``goto`` until ``load``, one full-page screenshot.

    The screenshot is cut at the learner's ``max_page_height``, as the learner's is (what
    lies below is compared by neither, and a full-page PNG of a tall page costs seconds).
    The time is the load and the screenshot, both within ``limit_s``.
    """
    size = {"width": settings.viewport_width, "height": settings.viewport_height}
    context = await browser.new_context(viewport=size, device_scale_factor=1)  # type: ignore[arg-type]
    started = time.monotonic()
    try:
        # Playwright bounds the load and the screenshot; this bounds the height read, which
        # a page busy from its load event on never answers.
        async with asyncio.timeout(limit_s + _ANSWER_S):
            page = await context.new_page()
            response = await page.goto(url, wait_until="load", timeout=limit_s * 1000)
            at_load = await page.evaluate(_TEXT, settings.max_text_chars)
            left = max(limit_s - (time.monotonic() - started), 0.1)
            png = await _screenshot(page, settings, left)
        seconds = time.monotonic() - started
        # Content that arrives after the load event (a search page filling in its results)
        # is not in that screenshot: the picture compared is then taken once the text holds
        # still, as a reader would see the page.
        late = await _late_text(page, at_load, settings.max_text_chars)
        if late == "late":
            with contextlib.suppress(TimeoutError, PlaywrightError):
                png = await _screenshot(page, settings, limit_s)
        state = {"text": "", "title": "", "animated": True}
        with contextlib.suppress(TimeoutError, PlaywrightError):
            async with asyncio.timeout(_ANSWER_S):
                state = await page.evaluate(_PLAIN_STATE, settings.max_text_chars)
        rendering = Rendering(
            url=url,
            final_url=page.url,
            status=response.status if response is not None else None,
            screenshot=png,
            text=str(state["text"]),
            title=str(state["title"]),
            elapsed_s=round(seconds, 3),
            settled=True,
        )
        # Text that never holds still is live content, as a running animation is.
        moving = bool(state["animated"]) or late == "moving"
        return PlainCapture(url, seconds, rendering, animated=moving)
    except TimeoutError:
        return PlainCapture(url, time.monotonic() - started, error="page stopped answering")
    except PlaywrightError as exc:
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        return PlainCapture(url, time.monotonic() - started, error=first)
    finally:
        try:
            async with asyncio.timeout(10):
                await context.close()
        except (TimeoutError, PlaywrightError):
            pass  # a page frozen by its own script; the browser is closed at the end


async def _screenshot(page: Page, settings: RenderSettings, limit_s: float) -> bytes:
    """The page from its top, as tall as it is now (content may have come since the last
    picture), at most ``max_page_height``."""
    height = int(await page.evaluate(_HEIGHT))
    clip = {"x": 0, "y": 0, "width": settings.viewport_width}
    clip["height"] = min(max(height, settings.viewport_height), settings.max_page_height)
    return await page.screenshot(full_page=True, clip=clip, timeout=limit_s * 1000)  # type: ignore[arg-type]


async def _late_text(page: Page, at_load: str, max_chars: int) -> str:
    """How the page's text goes on after the load event: ``still``, ``late`` or ``moving``.

    ``still``: the text read :data:`_LATE_POLL_S` after the screenshot is the text at the
    load event. Otherwise it is read every :data:`_LATE_POLL_S` until it has held for
    :data:`_LATE_HOLD_S` (``late``: content that came after the load event), for at most
    :data:`_LATE_LIMIT_S` (``moving``: a poll, a ticker).
    """
    last, held_since = at_load, time.monotonic()
    deadline = held_since + _LATE_LIMIT_S
    try:
        while time.monotonic() < deadline:
            await asyncio.sleep(_LATE_POLL_S)
            async with asyncio.timeout(_ANSWER_S):
                now = await page.evaluate(_TEXT, max_chars)
            if now == at_load and last == at_load:
                return "still"
            if now != last:
                last, held_since = now, time.monotonic()
            elif time.monotonic() - held_since >= _LATE_HOLD_S:
                return "late"
    except (TimeoutError, PlaywrightError):
        return "still"
    return "moving"


async def learner_capture(renderer: Renderer, url: str) -> LearnerCapture:
    """The learner's render of ``url``, timed."""
    started = time.monotonic()
    try:
        rendering = await renderer.render(url)
    except RenderError as exc:
        return LearnerCapture(url, time.monotonic() - started, error=exc)
    return LearnerCapture(url, time.monotonic() - started, rendering)


async def differential(
    urls: Iterable[str],
    renderer: Renderer,
    browser: Browser,
    *,
    plain_limit_s: float,
    concurrency: int = 1,
) -> list[Row]:
    """Render every URL plainly and with the learner, and compare; rows in ``urls`` order.

    For each URL the plain capture goes first, then the learner's, so that both meet the
    same machine; a second learner render, for the noise, only where the first two differ
    on a still page. ``concurrency`` URLs are worked on at once (times are then shared).
    """
    gate = asyncio.Semaphore(concurrency)

    async def one(url: str) -> Row:
        async with gate:
            return await capture_row(url, renderer, browser, plain_limit_s=plain_limit_s)

    return list(await asyncio.gather(*(one(url) for url in urls)))


async def capture_row(
    url: str, renderer: Renderer, browser: Browser, *, plain_limit_s: float
) -> Row:
    """One page: the plain capture, then the learner's, then the pictures compared.

    A second learner render, for the noise, only where the first two differ on a still page.
    """
    plain = await plain_capture(browser, url, renderer.settings, plain_limit_s)
    learned = await learner_capture(renderer, url)
    ours = learned.rendering
    readiness = ours.readiness if ours is not None else {}
    # Work the learner found repeating for ever (a frame loop, an interval, a live feed).
    moving = plain.animated or int(readiness.get("recurring", 0)) > 0
    if plain.rendering is None or ours is None or moving or not ours.settled:
        return Row(plain, learned, moving)
    reference, candidate = fingerprint(ours), fingerprint(plain.rendering)
    result = compare(reference, reference, candidate)
    if result.verdict != "same":
        again = await learner_capture(renderer, url)
        if again.rendering is not None:
            result = compare(reference, fingerprint(again.rendering), candidate)
    return Row(plain, learned, moving, result)


def table(rows: Sequence[Row], documented: Mapping[str, str] | None = None) -> str:
    """The rows as a text table: both outcomes and times, the comparison, and a total.

    ``documented`` (URL to reason) names the learner behaviour behind an expected difference.
    """
    heads = ("page", "plain", "s", "learner", "s", "pictures", "what")
    lines = []
    for row in rows:
        plain = "captured" if row.plain.rendering is not None else "failed"
        pictures = {None: "moving" if row.moving else "-", True: "same", False: "differ"}
        what = row.learner.said or row.plain.error
        if row.equal is False and row.comparison is not None:
            why = (documented or {}).get(row.url)
            what = f"documented: {why}" if why else "; ".join(row.comparison.reasons)
        lines.append(
            (
                row.url,
                plain,
                f"{row.plain.seconds:.2f}",
                row.learner.outcome,
                f"{row.learner.seconds:.2f}",
                pictures[row.equal],
                what[:100],
            )
        )
    widths = [max(len(h), *(len(line[i]) for line in lines)) for i, h in enumerate(heads)]
    widths[-1] = len(heads[-1])
    out = ["  ".join(h.ljust(w) for h, w in zip(heads, widths, strict=True))]
    out += ["  ".join(c.ljust(w) for c, w in zip(line, widths, strict=True)) for line in lines]
    out.append(_totals(rows))
    return "\n".join(out)


def _totals(rows: Sequence[Row]) -> str:
    plain_ok = sum(r.plain.captured for r in rows)
    outcomes = {o: sum(r.learner.outcome == o for r in rows) for o in ("settled", "unsettled")}
    broken = sum(r.plain.captured and r.learner.outcome == "failed" for r in rows)
    compared = [r for r in rows if r.equal is not None]
    same = sum(bool(r.equal) for r in compared)
    plain_s = sum(r.plain.seconds for r in rows)
    learner_s = sum(r.learner.seconds for r in rows)
    return (
        f"{len(rows)} pages: plain captured {plain_ok} within {PLAIN_LIMIT_S:g} s; learner "
        f"settled {outcomes['settled']}, unsettled {outcomes['unsettled']}, failed where "
        f"plain did not {broken}; pictures compared {len(compared)}, same {same}; "
        f"time plain {plain_s:.1f} s, learner {learner_s:.1f} s"
    )
