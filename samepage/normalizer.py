"""The normalizer's public home: ``MIQPSNormalizer``, its result types, and the shortcuts.

The shortcuts (``normalize_url``, ``same_page``...) use one shared normalizer with the
built-in rules, created on first use.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable

from samepage._explanation import Explanation, ParamDecision
from samepage._learned_layer import Fallback as Fallback
from samepage._miqps_normalizer import Errors as Errors
from samepage._miqps_normalizer import MIQPSNormalizer
from samepage._rewrite import Rewrite

logger = logging.getLogger(__name__)

__all__ = [
    "Explanation",
    "MIQPSNormalizer",
    "ParamDecision",
    "Rewrite",
    "normalize_many",
    "normalize_url",
    "pattern_key",
    "same_page",
]


_default: MIQPSNormalizer | None = None


def default_normalizer() -> MIQPSNormalizer:
    """The shared normalizer with the built-in rules, created on first use."""
    global _default
    if _default is None:
        _default = MIQPSNormalizer()
    return _default


def normalize_url(url: str) -> str:
    """Normalise ``url`` with the built-in rules; see :meth:`MIQPSNormalizer.normalize`.

    >>> normalize_url("https://www.example.com/p?utm_source=fb&id=42")
    'https://www.example.com/p?id=42'
    """
    return (_default or default_normalizer()).normalize(url)


def normalize_many(urls: Iterable[str | None], *, errors: Errors = "none") -> list[str | None]:
    """The keys of ``urls`` with the built-in rules; see :meth:`MIQPSNormalizer.normalize_many`.

    >>> normalize_many(["https://example.com/p?fbclid=1&id=7", None])
    ['https://example.com/p?id=7', None]
    """
    return (_default or default_normalizer()).normalize_many(urls, errors=errors)


def pattern_key(url: str, *, normalizer: MIQPSNormalizer | None = None) -> str:
    """The pattern key of ``url``; see :meth:`MIQPSNormalizer.pattern_key`."""
    return (normalizer or default_normalizer()).pattern_key(url)


def same_page(a: str, b: str, *, normalizer: MIQPSNormalizer | None = None) -> bool:
    """Whether two URLs normalise to the same key (the same page, as far as samepage knows).

    >>> same_page("https://EXAMPLE.com/article?b=2&a=1#top", "https://example.com/article?a=1&b=2")
    True
    """
    return (normalizer or default_normalizer()).same(a, b)
