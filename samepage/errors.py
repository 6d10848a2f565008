"""Exceptions raised by samepage.

The hierarchy::

    SamepageError
    ├── InvalidURL          (also a ValueError)
    └── LearnedFormatError  (also a ValueError)
"""

from __future__ import annotations

__all__ = ["InvalidURL", "LearnedFormatError", "SamepageError"]

_SHOWN = 200  # the most characters of a URL an error message repeats


class SamepageError(Exception):
    """Base class of every error samepage raises on purpose."""


class InvalidURL(SamepageError, ValueError):
    """The string cannot be read as an absolute http(s) URL.

    Attributes:
        url: the offending input, as given.
        reason: a short explanation of what is wrong.
    """

    def __init__(self, url: str, reason: str) -> None:
        shown = repr(url) if len(url) <= _SHOWN else f"{url[:_SHOWN]!r}...({len(url)} characters)"
        super().__init__(f"invalid URL {shown}: {reason}")
        self.url = url
        self.reason = reason


class LearnedFormatError(SamepageError, ValueError):
    """A learned-set file or mapping is malformed, or of an unknown format or version."""
