"""The learner's plain data: what one render of a page produced.

No browser code lives here, so the comparison and decision modules (and their tests) can use
these types without importing Playwright.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

__all__ = ["Rendering"]


@dataclass(frozen=True, slots=True)
class Rendering:
    """What one render of a URL produced.

    ``screenshot`` is a PNG of the page from the top down to ``max_page_height``; ``text`` is
    the visible text of the whole page, capped at ``max_text_chars``. ``settled`` is true when
    the page met the readiness rule (nothing in flight, no one-shot timer due soon, the DOM
    quiet; see ``docs/fingerprint.md``) and stayed still while it was captured; otherwise
    ``unsettled`` says what was still going on. ``redirects`` lists the URLs the main frame
    was sent on to after ``url`` (HTTP redirects, then script or meta navigations), in order.
    ``retry_after`` is the main response's ``Retry-After`` header, if any.
    """

    url: str
    final_url: str
    status: int | None
    screenshot: bytes
    text: str
    title: str
    elapsed_s: float
    settled: bool
    redirects: tuple[str, ...] = ()
    unsettled: str = ""
    retry_after: str | None = None
    readiness: Mapping[str, Any] = field(default_factory=dict)
    """What the last readiness check saw (timers, requests, quiet time, noise changes)."""
