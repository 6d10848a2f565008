"""Renderer tests against real Chromium and the local render sites."""

from __future__ import annotations

import asyncio
import dataclasses
import io
import time

import pytest
from PIL import Image
from playwright.async_api import async_playwright

from learner.config import RenderSettings
from learner.demo.server import Response, Site, SiteServer
from learner.errors import NavigationFailed, RenderCause, RenderStep, RenderTimeout
from learner.render.browser import BrowserChoice
from learner.render.renderer import Renderer, Rendering
from tests.learner.render.differential import launch_plain, plain_capture
from tests.site import render_sites
from tests.site.page_parts import PARTS
from tests.site.render_sites import DEFAULT_PRICE, DEFAULT_REVIEW, ELSEWHERE

pytestmark = pytest.mark.browser

SHOP = f"http://{render_sites.SHOP}"
TRAPS = f"http://{render_sites.TRAPS}"


def _size(rendering: Rendering) -> tuple[int, int]:
    with Image.open(io.BytesIO(rendering.screenshot)) as image:
        return image.size


async def test_template_page_is_rendered_whole(
    renderer: Renderer, render_settings: RenderSettings
) -> None:
    rendering = await renderer.render(f"{SHOP}/tpl?ref=mail")
    assert rendering.status == 200
    assert rendering.final_url == f"{SHOP}/tpl?ref=mail"
    assert rendering.redirects == ()
    assert rendering.settled is True
    assert rendering.title == "Sturdy Cedar Lamp"
    assert f"${DEFAULT_PRICE}" in rendering.text
    # The review sits ~1900 px down: the capture reaches it, beyond the 600 px viewport.
    assert DEFAULT_REVIEW in rendering.text
    width, height = _size(rendering)
    assert width == render_settings.viewport_width
    assert render_settings.viewport_height < height <= render_settings.max_page_height
    assert rendering.screenshot.startswith(b"\x89PNG")
    assert 0 < rendering.elapsed_s < render_settings.page_timeout_s


async def test_two_renders_of_one_page_are_identical(renderer: Renderer) -> None:
    first, second = [await renderer.render(f"{SHOP}/tpl") for _ in range(2)]
    assert first.screenshot == second.screenshot
    assert first.text == second.text


async def test_client_side_content_is_waited_for(renderer: Renderer) -> None:
    rendering = await renderer.render(f"{SHOP}/csr?name=Quiet+Kettle")
    assert rendering.settled is True
    assert "Loading" not in rendering.text
    assert "Quiet Kettle" in rendering.text
    assert "Arrived in two days." in rendering.text


async def test_an_unsettled_page_names_the_timer_that_kept_it_and_a_settled_one_its_last_change(
    renderer: Renderer,
) -> None:
    # Rendering in chunks for ever: a new short timer each time, so never recurring.
    chunks = await renderer.render(f"{TRAPS}/chunks")
    assert chunks.settled is False
    assert chunks.unsettled.startswith("not ready within the page time: 1 timer(s) due")
    assert "(setTimeout(() => chunk(), 20))" in chunks.unsettled
    # The reviews arrive last, appended to their list.
    client_side = await renderer.render(f"{SHOP}/csr?name=Quiet+Kettle")
    assert client_side.readiness["changed"] == "ul#reviews"


async def test_clock_is_fixed_and_timers_run(
    renderer: Renderer, render_settings: RenderSettings
) -> None:
    rendering = await renderer.render(f"{SHOP}/clock")
    assert rendering.text.splitlines() == ["2026-01-01T00:00:00.000Z", "", "timer fired"]
    assert render_settings.fixed_time.startswith("2026-01-01T00:00:00")


async def test_user_agent_is_the_settings_one(
    renderer: Renderer, render_server: SiteServer, render_settings: RenderSettings
) -> None:
    await renderer.render(f"{SHOP}/tpl?ua=check")
    agents = {
        r.user_agent for r in render_server.requests_for(render_sites.SHOP) if r.query == "ua=check"
    }
    assert agents == {render_settings.user_agent}


async def test_404_is_a_result(renderer: Renderer) -> None:
    rendering = await renderer.render(f"{TRAPS}/missing")
    assert rendering.status == 404
    assert rendering.text == "Nothing here"


async def test_redirects_within_the_host_are_followed_and_recorded(renderer: Renderer) -> None:
    rendering = await renderer.render(f"{TRAPS}/hop")
    assert rendering.final_url == f"{TRAPS}/plain"
    assert rendering.redirects == (f"{TRAPS}/hop2", f"{TRAPS}/plain")
    assert rendering.status == 200
    assert rendering.text == "Still here"


@pytest.mark.parametrize(
    "path, reason",
    [
        ("/loop", "redirect loop (net::ERR_TOO_MANY_REDIRECTS)"),
        ("/away", f"redirected to another host: http://{ELSEWHERE}/landing"),
        ("/js-away", f"redirected to another host: http://{ELSEWHERE}/landing"),
        ("/mailto", f"redirected to a non-HTTP URL: mailto:sales@{render_sites.TRAPS}"),
        ("/file", "redirected to a non-HTTP URL (net::ERR_UNSAFE_REDIRECT)"),
        ("/download", "download"),
        ("/late-download", "download"),
    ],
)
async def test_navigation_failures_name_the_cause(
    renderer: Renderer, path: str, reason: str
) -> None:
    with pytest.raises(NavigationFailed) as caught:
        await renderer.render(TRAPS + path)
    assert caught.value.reason == reason
    assert caught.value.url == TRAPS + path


async def test_dialogs_are_dismissed(renderer: Renderer) -> None:
    rendering = await renderer.render(f"{TRAPS}/dialog")
    assert rendering.text == "After the dialogs"
    assert rendering.settled is True


async def test_a_form_whose_controls_shadow_its_action_and_method_is_captured(
    renderer: Renderer,
) -> None:
    rendering = await renderer.render(f"{TRAPS}/shadowed-form")
    assert rendering.settled is True
    assert "Revisions" in rendering.text
    # The checked radio stands for the URL its form submits with that one field.
    assert rendering.marks == (f"{TRAPS}/plain?oldid=7",)


async def test_popups_are_closed(renderer: Renderer) -> None:
    rendering = await renderer.render(f"{TRAPS}/popup")
    assert rendering.text == "Opener"
    assert rendering.final_url == f"{TRAPS}/popup"


async def test_a_stalled_resource_leaves_the_page_unsettled_and_the_browser_usable(
    renderer: Renderer, render_settings: RenderSettings
) -> None:
    # An image that never finishes: captured after network_idle_max_s, marked unsettled.
    rendering = await renderer.render(f"{TRAPS}/never")
    assert rendering.settled is False
    assert rendering.unsettled.startswith("requests still in flight: 1 request(s) in flight")
    assert f"({TRAPS}/forever.png)" in rendering.unsettled  # which request
    assert rendering.text == "Loading forever"
    after = await renderer.render(f"{TRAPS}/plain")
    assert after.text == "Still here" and after.settled is True


async def test_a_busy_main_thread_fails_fast_not_at_the_page_timeout(
    browser_choice: BrowserChoice, render_server: SiteServer, render_settings: RenderSettings
) -> None:
    # The page timeout is far longer than the test's own bound: only busy detection ends it.
    settings = dataclasses.replace(render_settings, page_timeout_s=120.0, busy_limit_s=2.0)
    async with Renderer(
        settings, executable=browser_choice.executable, resolve=render_server.resolve()
    ) as own:
        async with asyncio.timeout(60):
            with pytest.raises(RenderTimeout) as caught:
                await own.render(f"{TRAPS}/busy")
    assert caught.value.cause is RenderCause.BUSY
    assert caught.value.step is RenderStep.READY
    assert caught.value.reason.startswith("ready: main thread busy: no answer within")


@pytest.mark.parametrize(
    "path",
    [
        # The screenshot's own resize runs a handler that never returns.
        "/frozen-on-resize",
        # A never-ending animation frame loop, one of whose frames never returns once the
        # screenshot has resized the page.
        "/frame-loop",
    ],
)
async def test_a_screenshot_that_never_returns_fails_as_the_screenshot_within_the_page_time(
    renderer: Renderer, render_settings: RenderSettings, path: str
) -> None:
    # The page is ready at once: the screenshot gets what is left of the page time.
    started = time.monotonic()
    with pytest.raises(RenderTimeout) as caught:
        await renderer.render(f"{TRAPS}{path}")
    elapsed = time.monotonic() - started
    assert (caught.value.cause, caught.value.step) == (RenderCause.TIMEOUT, RenderStep.SCREENSHOT)
    assert caught.value.reason.startswith("screenshot: no image within")
    assert "not loaded" not in str(caught.value)
    # Playwright's own time to report, and closing the frozen page, come on top.
    assert elapsed < render_settings.page_timeout_s + 2.0


@pytest.mark.parametrize(
    "path, expected",
    [
        # Inline data drawn 1.5 s and 2.5 s after load, with no request at all.
        ("/late?name=Late+Lamp&delay=1500", "Late Lamp"),
        ("/late?name=Later+Lamp&delay=2500", "Later Lamp"),
        # A timer, then a request, then the content.
        ("/timer-fetch?name=Timed+Lamp", "Timed Lamp"),
        # Comments fetched only when their section, 1600 px down, scrolls into view.
        ("/lazy?cpage=3", "Comment 3.1 | Comment 3.2 | Comment 3.3"),
    ],
)
async def test_late_and_lazy_content_is_waited_for(
    renderer: Renderer, path: str, expected: str
) -> None:
    rendering = await renderer.render(SHOP + path)
    assert rendering.settled is True, rendering.unsettled
    assert expected in rendering.text
    assert "Skeleton" not in rendering.text and "Comments load here" not in rendering.text


async def test_a_page_that_changes_forever_settles_with_its_changes_as_noise(
    renderer: Renderer,
) -> None:
    # An interval clock, a self-re-arming timer and an animation loop never stop.
    rendering = await renderer.render(f"{SHOP}/ticking")
    assert rendering.settled is True, rendering.unsettled
    assert rendering.text.startswith("Always moving")
    assert rendering.readiness["noise"] > 0


async def test_huge_page_is_capped(renderer: Renderer, render_settings: RenderSettings) -> None:
    rendering = await renderer.render(f"{TRAPS}/huge")
    assert _size(rendering) == (render_settings.viewport_width, render_settings.max_page_height)
    assert len(rendering.text) == render_settings.max_text_chars
    assert rendering.text.startswith("Paragraph 0 of a very long page.")


async def test_renders_run_side_by_side(renderer: Renderer) -> None:
    before = renderer.renders
    results = await asyncio.gather(
        *(renderer.render(f"{SHOP}/tpl?name=Lamp+{n}") for n in range(3))
    )
    assert [r.title for r in results] == ["Lamp 0", "Lamp 1", "Lamp 2"]
    assert renderer.renders == before + 3


async def test_non_http_url_is_refused(renderer: Renderer) -> None:
    with pytest.raises(NavigationFailed, match="not an http"):
        await renderer.render("file:///etc/passwd")


async def test_browser_is_restarted_and_the_renderer_is_entered_once(
    browser_choice: BrowserChoice, render_server: SiteServer, render_settings: RenderSettings
) -> None:
    own = Renderer(
        render_settings,
        executable=browser_choice.executable,
        resolve=render_server.resolve(),
        restart_after=1,
    )
    async with own:
        texts = [(await own.render(f"{TRAPS}/plain")).text for _ in range(2)]
        assert texts == ["Still here"] * 2
        assert (own.launches, own.renders) == (2, 2)
        with pytest.raises(RuntimeError, match="only once"):
            await own.__aenter__()
    with pytest.raises(RuntimeError, match="not open"):
        await own.render(f"{TRAPS}/plain")


_BELOW_THE_FOLD = """<!doctype html><title>Moving</title><body style="margin:0">
<p>Still text</p><div style="height:1500px"></div><div id="box" style="height:80px"></div>
<script>
let n = 0;
function work() { n += 1; box.style.background = `hsl(${n % 360}, 80%, 50%)`;
                  setTimeout(work, 10); }
setTimeout(work, 10);
</script></body>"""


async def test_changes_below_the_first_screen_keep_a_page_unsettled(
    browser_choice: BrowserChoice, render_settings: RenderSettings
) -> None:
    # Short timer chains are work, not a clock: a block 1500 px down that a 10 ms chain
    # keeps changing, with the text unchanged, never lets the page be ready.
    site = Site("moving.test")
    site.routes["/"] = lambda request: Response(body=_BELOW_THE_FOLD)
    settings = dataclasses.replace(render_settings, page_timeout_s=2.0)
    with SiteServer([site]) as server:
        async with Renderer(
            settings, executable=browser_choice.executable, resolve=server.resolve()
        ) as own:
            rendering = await own.render("http://moving.test/")
    assert rendering.settled is False
    assert rendering.unsettled.startswith("not ready within the page time")
    assert rendering.text == "Still text"
    assert _size(rendering)[1] > render_settings.viewport_height


def _huge_site() -> Site:
    # About 30 MB of HTML: parsing and laying it out takes a renderer to hundreds of MB.
    row = "<div><span>Row {}</span> <b>cell</b> <i>more</i></div>"
    rows = "".join(row.format(i) for i in range(450_000))
    body = f"<!doctype html><title>Huge</title><body>{rows}</body>"
    site = Site("huge.test")
    site.routes["/a"] = lambda request: Response(body=body)
    site.routes["/b"] = lambda request: Response(body=body)
    site.routes["/small"] = lambda request: Response(body="<h1>Small</h1>")
    return site


async def test_renderers_past_the_memory_cap_are_killed_and_their_pages_fail(
    browser_choice: BrowserChoice, render_settings: RenderSettings
) -> None:
    # Busy detection and the page time are out of reach: only the memory cap ends the renders.
    settings = dataclasses.replace(
        render_settings, page_timeout_s=120.0, busy_limit_s=120.0, max_renderer_mb=300
    )
    with SiteServer([_huge_site()]) as server:
        async with Renderer(
            settings, executable=browser_choice.executable, resolve=server.resolve()
        ) as own:
            async with asyncio.timeout(100):
                results = await asyncio.gather(
                    own.render("http://huge.test/a"),
                    own.render("http://huge.test/b"),
                    return_exceptions=True,
                )
            after = await own.render("http://huge.test/small")
    for result in results:
        assert isinstance(result, RenderTimeout), result
        assert result.cause is RenderCause.MEMORY
        # Named after the step the kill interrupted, as a timeout is.
        assert result.step is not None
        assert result.reason == f"{result.step}: the page passed the memory cap of 300 MB"
    assert after.text == "Small"


def _pixels(png: bytes) -> tuple[tuple[int, int], bytes]:
    with Image.open(io.BytesIO(png)) as image:
        return image.size, image.convert("RGB").tobytes()


@pytest.mark.parametrize(
    "url",
    [f"{SHOP}/tpl", f"{SHOP}/item?id=1", f"http://{PARTS}/sticky", f"{SHOP}/form"],
    ids=["tall", "short", "sticky-header", "form"],
)
async def test_the_screenshot_has_the_pixels_of_playwrights_full_page_screenshot(
    renderer: Renderer,
    browser_choice: BrowserChoice,
    render_server: SiteServer,
    render_settings: RenderSettings,
    url: str,
) -> None:
    # The learner encodes its screenshot itself (Chromium's fast PNG encoder): other bytes,
    # the same picture as Playwright's full-page screenshot of a still page. Playwright
    # hides carets by restyling every field just before its picture: Chromium redraws
    # them, which must change no pixel around them (CHROMIUM_ARGS: no partial raster).
    rendering = await renderer.render(url)
    async with async_playwright() as playwright:
        browser = await launch_plain(playwright, browser_choice.executable, render_server.resolve())
        try:
            plain = await plain_capture(browser, url, render_settings, 10.0)
        finally:
            await browser.close()
    assert rendering.settled and plain.rendering is not None
    assert _pixels(rendering.screenshot) == _pixels(plain.rendering.screenshot)
