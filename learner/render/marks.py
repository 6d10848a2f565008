"""The parameter values a page marks as its own: where a default value shows itself.

A menu links to ``/guide``, not ``/guide?lang=en``, so a default value is rarely spelled in
a site's links; but the page that has no ``lang`` often says which language it is in: a
language link with ``aria-current``, a tab with the class ``active``, the selected option of
a ``<select name=size>``, a checked radio, a canonical link or the alternate link of its
own ``hreflang``. The page probe (:data:`learner.render.page_scripts.PROBE`) collects the URLs
those elements stand for; :func:`page_marks` reads them as the normaliser does, keeps
those of the page's own path, and returns the values they give each parameter the page's
URL does not already carry with that value. They only propose values to test as defaults
(:mod:`learner.judge.defaults`): a mark proves nothing.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache
from urllib.parse import urlsplit

from learner.plan.sampling import param_values
from samepage import InvalidURL, MIQPSNormalizer
from samepage.urls import pattern_names

__all__ = ["MAX_MARKS", "page_marks"]

MAX_MARKS = 50
"""The most ``name=value`` pairs kept of one page (its probe returns at most 50 URLs)."""


@cache
def _reader() -> MIQPSNormalizer:
    return MIQPSNormalizer()


def _read(url: str) -> tuple[tuple[str, str, str], dict[str, tuple[str, ...]]] | None:
    """Scheme, host and path of ``url``, and its values, as the normaliser reads them."""
    try:
        static = _reader().static_url(url)
        pattern = _reader().pattern_key(url)
    except (InvalidURL, ValueError):
        return None
    parts = urlsplit(static)
    values = {n: param_values(static, n) for n in pattern_names(pattern)}
    return (parts.scheme, parts.netloc, parts.path), values


def page_marks(page_url: str, marked: Iterable[str]) -> dict[str, list[str]]:
    """The values the marked URLs give each parameter, on ``page_url``'s own path.

    A marked URL on another path or host is left out; so is a value the page's URL already
    carries, and a parameter spelled more than once in a marked URL. At most
    :data:`MAX_MARKS` pairs, in the order found.

    >>> page_marks("https://s.example/guide/3?topic=a",
    ...            ["https://s.example/guide/3?topic=a&lang=en", "https://s.example/?lang=fr",
    ...             "https://s.example/guide/3?size=%32%30"])
    {'lang': ['en'], 'size': ['20']}
    """
    own = _read(page_url)
    if own is None:
        return {}
    where, carried = own
    found: dict[str, list[str]] = {}
    count = 0
    for url in marked:
        read = _read(url)
        if read is None or read[0] != where:
            continue
        for name, values in read[1].items():
            if len(values) != 1 or carried.get(name) == values:
                continue
            kept = found.setdefault(name, [])
            if values[0] not in kept and count < MAX_MARKS:
                kept.append(values[0])
                count += 1
    return found
