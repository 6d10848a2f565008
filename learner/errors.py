"""Exceptions raised by the learner.

The hierarchy::

    LearnerError
    ├── ConfigError          (also a ValueError)
    ├── BrowserNotFound
    ├── RobotsDisallowed
    ├── FetchError
    └── RenderError
        ├── RenderTimeout
        └── NavigationFailed
"""

from __future__ import annotations

__all__ = [
    "BrowserNotFound",
    "ConfigError",
    "FetchError",
    "LearnerError",
    "NavigationFailed",
    "RenderError",
    "RenderTimeout",
    "RobotsDisallowed",
]


class LearnerError(Exception):
    """Base class of every error the learner raises on purpose."""


class ConfigError(LearnerError, ValueError):
    """An option or configuration file value is invalid; the message names the field."""


class BrowserNotFound(LearnerError):
    """No usable Chromium was found; the message says how to install or point at one."""


class RobotsDisallowed(LearnerError):
    """robots.txt forbids fetching the URL."""

    def __init__(self, url: str) -> None:
        super().__init__(f"disallowed by robots.txt: {url}")
        self.url = url


class FetchError(LearnerError):
    """A plain (non-browser) HTTP fetch failed."""

    def __init__(self, url: str, reason: str) -> None:
        super().__init__(f"fetch failed for {url}: {reason}")
        self.url = url
        self.reason = reason


class RenderError(LearnerError):
    """Rendering a page in the browser failed."""

    def __init__(self, url: str, reason: str) -> None:
        super().__init__(f"render failed for {url}: {reason}")
        self.url = url
        self.reason = reason


class RenderTimeout(RenderError):
    """The page did not settle within its time limit."""


class NavigationFailed(RenderError):
    """Navigation failed: network error, redirect loop, redirect to another host or scheme."""
