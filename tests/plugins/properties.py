"""Property tests' depth: half the examples they ask for in `make test`, a quarter in the loop.

``SAMEPAGE_PROPERTY_SCALE`` (default 1: every example a test asks for) scales every
property test's number of examples. ``make test`` (CI) sets it to 0.5 and ``make test-fast``
to 0.25, so the whole suite stays within 20 minutes and the inner loop within one;
``make test PROPERTY_SCALE=4`` searches four times deeper. A property test states its
examples as ``examples(n)``; one without takes Hypothesis' 100, scaled alike.
"""

from __future__ import annotations

import os

from hypothesis import settings

__all__ = ["SCALE", "examples"]

_VARIABLE = "SAMEPAGE_PROPERTY_SCALE"


def _scale() -> float:
    text = os.environ.get(_VARIABLE, "1")
    try:
        value = float(text)
    except ValueError:
        raise ValueError(f"{_VARIABLE} must be a number, not {text!r}") from None
    if not 0 < value <= 100:
        raise ValueError(f"{_VARIABLE} must be above 0 and at most 100, not {text!r}")
    return value


SCALE = _scale()


def examples(wanted: int) -> int:
    """``wanted`` examples at this run's scale, never fewer than 10."""
    return max(10, round(wanted * SCALE))


settings.register_profile("samepage", max_examples=examples(100))
settings.load_profile("samepage")
