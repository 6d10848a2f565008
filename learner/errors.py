"""Exceptions raised by the learner.

The hierarchy::

    LearnerError
    ├── ConfigError          (also a ValueError)
    ├── BrowserNotFound
    ├── FetchError
    │   └── AddressRefused
    ├── GateRefused          (learner.run.publish)
    └── RenderError
        ├── RenderTimeout
        └── NavigationFailed

A URL robots.txt disallows raises nothing: it is not fetched, and its render is recorded as
failed with cause :attr:`RenderCause.ROBOTS`.
"""

from __future__ import annotations

from enum import StrEnum

__all__ = [
    "AddressRefused",
    "BrowserNotFound",
    "ConfigError",
    "FetchError",
    "LearnerError",
    "NavigationFailed",
    "Reach",
    "RenderCause",
    "RenderError",
    "RenderStep",
    "RenderTimeout",
]


class LearnerError(Exception):
    """Base class of every error the learner raises on purpose."""

    @property
    def transient(self) -> bool:
        """Whether trying again may succeed: the retry policy retries exactly these."""
        return False


class ConfigError(LearnerError, ValueError):
    """An option or configuration file value is invalid; the message names where it was given.

    Attributes:
        field: the setting the error is about (``min_contexts``), or ``None``.
        problem: what is wrong with it (``must be at least 1``), or the whole message.
        name: how the message names the setting: the field, the command-line option that
            gave it (``--min-contexts``) or its key in a config file.
    """

    def __init__(self, message: str, *, field: str | None = None, name: str | None = None) -> None:
        self.field = field
        self.problem = message
        self.name = name or field
        super().__init__(f"{self.name}: {message}" if self.name else message)

    def given_as(self, name: str) -> ConfigError:
        """The same error, naming the setting as the user gave it (an option, a file's key)."""
        return ConfigError(self.problem, field=self.field, name=name)


class BrowserNotFound(LearnerError):
    """No usable Chromium was found; the message says how to install or point at one."""


class FetchError(LearnerError):
    """A plain (non-browser) HTTP fetch failed to connect or read; worth another try."""

    @property
    def transient(self) -> bool:
        """Whether it is retried: a failed fetch is, unless the host asked us to stay away."""
        return self._transient

    def __init__(self, url: str, reason: str, *, transient: bool = True) -> None:
        super().__init__(f"fetch failed for {url}: {reason}")
        self.url = url
        self.reason = reason
        self._transient = transient


class Reach(StrEnum):
    """Whether the learner may send a request to an address (:mod:`learner.plan.addresses`)."""

    PUBLIC = "public"
    PRIVATE = "private"
    """Loopback, private and other non-global addresses: only when the user named them."""
    FORBIDDEN = "forbidden"
    """Unspecified, link-local, metadata, multicast and reserved addresses: never."""


class AddressRefused(FetchError):
    """A request to an address the learner may not reach, refused before it was sent.

    Never retried. ``reach`` says whether the address is forbidden or private (which the
    user may allow: the reason says how).
    """

    def __init__(self, url: str, reason: str, reach: Reach) -> None:
        super().__init__(url, reason, transient=False)
        self.reach = reach


class RenderCause(StrEnum):
    """Why a render failed, as data: callers decide on this, never on message text.

    Its values are what the checkpoint, ``stats.json`` and the report write.
    """

    TIMEOUT = "timeout"
    """A step of the render ran out of time (the error's ``step`` says which)."""
    BUSY = "busy"
    """The page's main thread stopped answering (a script that never yields)."""
    CONNECTION = "connection"
    """The connection was refused, reset or closed: worth another try."""
    NAVIGATION = "navigation"
    """Any other navigation error (DNS, TLS, a bad URL)."""
    DOWNLOAD = "download"
    REDIRECT_LOOP = "redirect-loop"
    OTHER_HOST = "other-host"
    """The main frame was sent to another host."""
    NON_HTTP = "non-http"
    """The main frame was sent to a non-HTTP URL."""
    ADDRESS = "address-refused"
    """The page (or a frame it was sent to) is at an address the learner may not reach:
    the request was not sent (:mod:`learner.plan.addresses`)."""
    RETRY_AFTER = "retry-after"
    """The host asked for a wait beyond the retry budget (``Retry-After``): not sent."""
    MEMORY = "memory"
    """The page's renderer passed the memory cap and was killed."""
    CRASHED = "crashed"
    BROWSER_GONE = "browser-gone"
    ROBOTS = "robots"
    """robots.txt disallows the URL: it was not fetched (no error is raised for it)."""


class RenderStep(StrEnum):
    """The step of a render that was under way when it failed, as data."""

    NAVIGATION = "navigation"
    """Opening the page and waiting for the first response to the URL."""
    READY = "ready"
    """Waiting until nothing is pending and the page is quiet."""
    SCROLL = "scroll-through"
    """Scrolling down to the capture height, so that sections loaded on view load."""
    SCREENSHOT = "screenshot"
    PROBE = "probe"
    """Reading the page's height, text and marks around the screenshot."""


_TRANSIENT_CAUSES = frozenset({RenderCause.CONNECTION})


class RenderError(LearnerError):
    """Rendering a page in the browser failed; ``cause`` says why, ``reason`` in words.

    ``step`` is the step that was under way, when it is known (a timeout always says it);
    the reason then starts with it: ``screenshot: no image within 4 s``.
    """

    def __init__(
        self,
        url: str,
        reason: str,
        cause: RenderCause = RenderCause.NAVIGATION,
        step: RenderStep | None = None,
        *,
        location: str = "",
    ) -> None:
        if step is not None:
            reason = f"{step.value}: {reason}"
        super().__init__(f"render failed for {url}: {reason}")
        self.url = url
        self.reason = reason
        self.cause = cause
        self.step = step
        self.location = location
        """Where the main frame was sent (cause ``other-host``): "" otherwise."""

    @property
    def transient(self) -> bool:
        """Whether trying again may succeed (the retry policy asks this)."""
        return self.cause in _TRANSIENT_CAUSES


class RenderTimeout(RenderError):
    """A step of the render ran out of time, or the page stopped answering; ``step`` says which."""

    def __init__(
        self,
        url: str,
        reason: str,
        cause: RenderCause = RenderCause.TIMEOUT,
        step: RenderStep | None = None,
    ) -> None:
        super().__init__(url, reason, cause, step)


class NavigationFailed(RenderError):
    """Navigation failed: network error, redirect loop, redirect to another host or scheme."""
