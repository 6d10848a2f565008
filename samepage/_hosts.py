"""Host-suffix lookups on label boundaries, longest match first.

A lookup tries only the suffixes no longer than the table's longest key, so its cost is
linear in the host's length, however many labels the host has.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from typing import TypeVar

__all__ = ["KeyTails", "host_suffixes", "longest_key", "lookup_host"]

T = TypeVar("T")


def longest_key(mapping: Mapping[str, object]) -> int:
    """The length of the longest key of ``mapping`` (0 for an empty one)."""
    return max(map(len, mapping), default=0)


def host_suffixes(host: str, longest: int | None = None) -> Iterator[str]:
    """Yield ``host`` and each parent domain, longest first; an IP address yields itself only.

    With ``longest``, only the suffixes of at most that many characters are yielded, found
    by one scan of the host's tail.

    >>> list(host_suffixes("a.shop.example"))
    ['a.shop.example', 'shop.example', 'example']
    >>> list(host_suffixes("a.shop.example", longest=12))
    ['shop.example', 'example']
    """
    fits = longest is None or len(host) <= longest
    if host.startswith("[") or host.replace(".", "").isdigit():
        if fits:
            yield host
        return
    if fits:
        yield host
        dot = host.find(".")
    else:
        assert longest is not None
        # A suffix after the dot at d has len(host) - d - 1 characters.
        dot = host.find(".", len(host) - longest - 1)
    while dot >= 0:
        host = host[dot + 1 :]
        yield host
        dot = host.find(".")


def lookup_host(
    mapping: Mapping[str, T], host: str, port: str = "", *, longest: int | None = None
) -> tuple[str, T] | None:
    """Find the longest key of ``mapping`` that covers ``host``, as ``(key, value)``.

    A key covers a host and its subdomains on label boundaries: ``example.com`` covers
    ``www.example.com`` and never ``badexample.com``. With a non-default ``port`` only keys
    of the form ``host:port`` match, so a site on another port is never taken for the site
    on the default port. ``longest`` is :func:`longest_key` of ``mapping``, for callers that
    keep it; without it, it is computed.

    >>> lookup_host({"example.com": 1, "www.example.com": 2}, "a.www.example.com")
    ('www.example.com', 2)
    >>> lookup_host({"example.com": 1}, "badexample.com") is None
    True
    """
    if not mapping:
        return None
    if longest is None:
        longest = longest_key(mapping)
    for suffix in host_suffixes(host, longest):
        key = f"{suffix}:{port}" if port else suffix
        value = mapping.get(key)
        if value is not None:
            return key, value
    return None


class KeyTails:
    """The last two labels of the keys of host tables: a quick test that no key covers a host.

    A key covers a host when it is the host or a parent domain of it, so a key of two
    labels or more ends the same two labels as every host it covers (and a key of one label
    is the host's last label). A host whose tail is none of the keys' tails is covered by
    no key: one set lookup instead of a walk over its suffixes, for the many hosts of a
    stream that no rule names.

    >>> tails = KeyTails(["youtube.com", "amazon.co.uk", "localhost"])
    >>> tails.may_cover("m.youtube.com"), tails.may_cover("www.amazon.co.uk")
    (True, True)
    >>> tails.may_cover("shop.example.com"), tails.may_cover("localhost")
    (False, True)
    """

    __slots__ = ("_labels", "_tails")

    def __init__(self, keys: Iterable[str]) -> None:
        tails: set[str] = set()
        labels: set[str] = set()
        for key in keys:
            dot = key.rfind(".")
            if dot < 0:
                labels.add(key)
            else:
                tails.add(key[key.rfind(".", 0, dot) + 1 :])
        self._tails = frozenset(tails)
        self._labels = frozenset(labels)

    def may_cover(self, host: str) -> bool:
        """False only if no key covers ``host`` (True: look it up)."""
        dot = host.rfind(".")
        if dot < 0:
            return host in self._labels
        if host[host.rfind(".", 0, dot) + 1 :] in self._tails:
            return True
        return bool(self._labels) and host[dot + 1 :] in self._labels
