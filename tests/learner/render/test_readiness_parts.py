"""Readiness on pages shaped like real ones: each part a real page carries, in real Chromium.

Every page of ``tests/site/page_parts.py`` must settle (or, where it really keeps
changing, settle with its changes counted as noise) well within the page time, and its
capture must show the page's content, late parts included. The one page that holds a
request open must be captured unsettled, and no later than the network wait allows.
"""

from __future__ import annotations

import pytest

from learner.config import RenderSettings
from learner.render.renderer import Renderer
from tests.site.page_parts import PART_PAGES, PARTS, PartPage

pytestmark = pytest.mark.browser


@pytest.mark.parametrize("page", PART_PAGES, ids=[p.path.strip("/") for p in PART_PAGES])
async def test_a_real_page_part_is_captured_settled_or_says_why_not(
    renderer: Renderer, render_settings: RenderSettings, page: PartPage
) -> None:
    rendering = await renderer.render(f"http://{PARTS}{page.path}")
    assert rendering.status == 200
    assert page.shows in rendering.text, rendering.text[:300]
    if page.settles:
        assert rendering.settled is True, f"{page.why}: {rendering.unsettled}"
        # Settled by the rule, well before the page time (a poll costs its first period).
        assert rendering.elapsed_s < render_settings.page_timeout_s * 0.7, page.why
    else:
        assert rendering.settled is False
        assert "requests still in flight" in rendering.unsettled
        limit = render_settings.network_idle_max_s + render_settings.page_timeout_s / 2
        assert rendering.elapsed_s < limit, page.why


@pytest.mark.parametrize("path", ["/websocket", "/sse"])
async def test_a_page_that_keeps_changing_settles_with_the_changes_as_noise(
    renderer: Renderer, path: str
) -> None:
    rendering = await renderer.render(f"http://{PARTS}{path}")
    assert rendering.settled is True, rendering.unsettled
    assert rendering.readiness["noise"] > 0


async def test_late_parts_are_in_the_capture(renderer: Renderer) -> None:
    # The banner comes on a 600 ms timer, the idle content when the page is idle: waited for.
    banner = await renderer.render(f"http://{PARTS}/cookie-banner")
    idle = await renderer.render(f"http://{PARTS}/idle")
    assert "We use cookies" in banner.text
    assert "Filled when idle" in idle.text and "Empty" not in idle.text
