"""Query strings: splitting into normalised pairs, the pattern key, and serialising."""

from __future__ import annotations

from collections.abc import Iterable
from operator import itemgetter

from samepage._encoding import QUERY, normalize_unsafe
from samepage._url import split_url
from samepage.errors import InvalidURL

__all__ = ["join_pattern", "learned_value", "query_pairs", "query_params", "serialize"]

# A pair is (name, piece): the normalised name and the whole "name=value" text, so that a bare
# name ("a") and an empty value ("a=") stay distinct: Rack and Rails tell them apart.
Pair = tuple[str, str]


def query_pairs(query: str) -> list[Pair]:
    """Split a raw query into ``(name, piece)`` pairs in their original order.

    Empty pieces (``a=1&&b=2``, a lone ``?``) are dropped; ``;`` is not a separator.

    >>> query_pairs("b=2&&A=%7e1&flag")
    [('b', 'b=2'), ('A', 'A=~1'), ('flag', 'flag')]
    """
    # The escapes of the whole query at once: "&" is never escaped nor unescaped, and no
    # escape spans it, so the pieces are those of each piece normalised alone.
    if QUERY.safe.fullmatch(query) is None:
        query = normalize_unsafe(query, QUERY)
    return [(piece.partition("=")[0], piece) for piece in query.split("&") if piece]


def query_params(url: str, *, bare: str = "") -> list[tuple[str, str]]:
    """The query parameters of an http(s) URL as the normalizer reads them, in order.

    Each is ``(name, value)``, escapes normalised as in the key (``%7e`` is ``~``, ``%2F``
    stays), not decoded; empty pieces are dropped, ``;`` is not a separator, and a bare name
    has the value ``bare``: ``""`` unless given, as most servers read ``flag``. The key
    keeps ``flag`` and ``flag=`` apart, and so does a learned default (``""`` names
    ``flag=`` only): a tool that must tell them apart passes a ``bare`` that no value is,
    one with ``#`` or ``&`` in it. The fragment is not part of the query.

    >>> query_params("https://shop.example/p?b=2&&A=%7e1&flag#x=1")
    [('b', '2'), ('A', '~1'), ('flag', '')]
    >>> query_params("https://shop.example/p?flag&flag=", bare="#bare")
    [('flag', '#bare'), ('flag', '')]

    Raises:
        InvalidURL: for a string that is not an absolute http(s) URL.
    """
    parts = split_url(url)
    if parts is None:
        raise InvalidURL(url, "not an http(s) URL")
    return [
        (name, value_of(piece) if "=" in piece else bare) for name, piece in query_pairs(parts[5])
    ]


def value_of(piece: str) -> str:
    """The value part of a ``name=value`` piece (empty for a bare name)."""
    return piece.partition("=")[2]


def learned_value(piece: str) -> str | None:
    """The value a learned default of the piece's parameter must name to drop it, if any.

    ``value`` for ``name=value`` (``""`` for ``name=``); ``None`` for a bare ``name``, which
    no learned default names: a bare name is its own value, kept apart from ``name=``.

    >>> learned_value("page=1"), learned_value("flag="), learned_value("flag")
    ('1', '', None)
    """
    _, equals, value = piece.partition("=")
    return value if equals else None


def join_pattern(names: Iterable[str]) -> str:
    """The pattern key of a set of parameter names: sorted, de-duplicated, joined by ``&``.

    >>> join_pattern(["id", "color", "id", ""])
    'color&id'
    """
    return "&".join(sorted({name for name in names if name}))


def serialize(pairs: list[Pair]) -> str:
    """Join pairs sorted by name; the sort is stable, so repeated names keep their order.

    ``pairs`` is sorted in place: every caller builds the list for this call.
    """
    if len(pairs) > 1:
        pairs.sort(key=_name)
    return "&".join([piece for _, piece in pairs])


_name = itemgetter(0)
