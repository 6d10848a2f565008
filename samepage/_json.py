"""A strict JSON reader: no duplicate keys, no NaN or infinity, bounded nesting."""

from __future__ import annotations

import json
import math
from typing import Any

from samepage.errors import LearnedFormatError

__all__ = ["parse_json"]


class _DuplicateKey(ValueError):
    def __init__(self, key: str) -> None:
        super().__init__(key)
        self.key = key


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out = dict(pairs)
    if len(out) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise _DuplicateKey(key)
            seen.add(key)
    return out


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def _finite_float(text: str) -> float:
    number = float(text)
    if not math.isfinite(number):
        raise ValueError(f"{text} is too large for a number")
    return number


def parse_json(text: str, where: str) -> Any:
    """Parse a JSON document strictly: no duplicate keys, no NaN, bounded nesting.

    JSON allows an object to repeat a key and parsers silently keep the last one; in a
    learned set that hides a verdict, so it is refused. A number too large for a float
    (``1e400``) is refused too, not read as infinity.

    Raises:
        LearnedFormatError: naming ``where`` and the problem.
    """
    try:
        return json.loads(
            text,
            object_pairs_hook=_unique_keys,
            parse_constant=_no_constant,
            parse_float=_finite_float,
        )
    except _DuplicateKey as exc:
        raise LearnedFormatError(f"{where}: duplicate key {exc.key!r} in one object") from None
    except RecursionError:
        raise LearnedFormatError(f"{where}: not valid JSON: nested too deeply") from None
    except ValueError as exc:  # JSONDecodeError, or an integer of thousands of digits
        raise LearnedFormatError(f"{where}: not valid JSON: {exc}") from None
