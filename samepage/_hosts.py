"""Host-suffix lookups on label boundaries, longest match first."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import TypeVar

__all__ = ["host_suffixes", "lookup_host"]

T = TypeVar("T")


def host_suffixes(host: str) -> Iterator[str]:
    """Yield ``host`` and each parent domain, longest first; an IP address yields itself only.

    >>> list(host_suffixes("a.shop.example"))
    ['a.shop.example', 'shop.example', 'example']
    """
    yield host
    if host.startswith("[") or host.replace(".", "").isdigit():
        return
    dot = host.find(".")
    while dot >= 0:
        host = host[dot + 1 :]
        yield host
        dot = host.find(".")


def lookup_host(mapping: Mapping[str, T], host: str, port: str = "") -> tuple[str, T] | None:
    """Find the longest key of ``mapping`` that covers ``host``, as ``(key, value)``.

    A key covers a host and its subdomains on label boundaries: ``example.com`` covers
    ``www.example.com`` and never ``badexample.com``. With a non-default ``port`` only keys
    of the form ``host:port`` match, so a site on another port is never taken for the site
    on the default port.

    >>> lookup_host({"example.com": 1, "www.example.com": 2}, "a.www.example.com")
    ('www.example.com', 2)
    >>> lookup_host({"example.com": 1}, "badexample.com") is None
    True
    """
    if not mapping:
        return None
    for suffix in host_suffixes(host):
        key = f"{suffix}:{port}" if port else suffix
        value = mapping.get(key)
        if value is not None:
            return key, value
    return None
