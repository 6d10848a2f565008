"""Frozen settings of a learner run: rendering and the MIQPS method."""

from __future__ import annotations

from dataclasses import dataclass

from learner.errors import ConfigError

__all__ = ["RenderSettings"]


def _require(condition: bool, field: str, message: str) -> None:
    if not condition:
        raise ConfigError(f"{field}: {message}")


@dataclass(frozen=True, slots=True)
class RenderSettings:
    """How every page is rendered, fixed so that two renders of one page can agree.

    Durations are float seconds (``*_s``).
    """

    viewport_width: int = 1280
    viewport_height: int = 800
    max_page_height: int = 6000
    locale: str = "en-US"
    timezone_id: str = "UTC"
    fixed_time: str = "2026-01-01T00:00:00Z"
    user_agent: str = "samepage-learner/0.2 (+https://github.com/samepage/samepage; MIQPS parameter study)"
    page_timeout_s: float = 20.0
    settle_max_shots: int = 6
    max_text_chars: int = 200_000

    def __post_init__(self) -> None:
        _require(self.viewport_width >= 200, "viewport_width", "must be at least 200")
        _require(self.viewport_height >= 200, "viewport_height", "must be at least 200")
        _require(
            self.max_page_height >= self.viewport_height,
            "max_page_height",
            "must be at least viewport_height",
        )
        _require(self.page_timeout_s > 0, "page_timeout_s", "must be positive")
        _require(self.settle_max_shots >= 2, "settle_max_shots", "must be at least 2")
        _require(self.max_text_chars > 0, "max_text_chars", "must be positive")
