"""The one form of a host that robots.txt, ``Crawl-delay`` and the per-host limiter key on.

A Unicode or trailing-dot spelling of a host meets the same rules and pace as its IDNA form.
"""

from __future__ import annotations

import logging
from urllib.parse import urlsplit

from samepage import InvalidURL, host_and_port, normalize_host, url_host

logger = logging.getLogger(__name__)

__all__ = ["host_key", "origin_of", "url_host_key"]


def host_key(host: str) -> str:
    """A host in the one form every per-host table keys on: :func:`samepage.normalize_host`.

    Lower-case IDNA ASCII without a trailing dot; a string that cannot be a host is only
    lower-cased, so it still gets a pace of its own.

    >>> host_key("Bücher.Example."), host_key("::1")
    ('xn--bcher-kva.example', '[::1]')
    """
    if ":" in host and not host.startswith("["):  # urlsplit drops an IPv6 literal's brackets
        host = f"[{host}]"
    try:
        return normalize_host(host)
    except InvalidURL:
        return host.lower().rstrip(".")


def url_host_key(url: str) -> str:
    """:func:`host_key` of a URL's host (the lower-cased raw host of a URL samepage refuses)."""
    try:
        return url_host(url)
    except InvalidURL:
        return host_key(urlsplit(url).hostname or "")


def origin_of(url: str) -> str:
    """``scheme://host[:port]`` of a URL: its host as :func:`host_key`, default port omitted.

    Args:
        url: an absolute http(s) URL (or an origin).

    Raises:
        ValueError: for a URL samepage cannot read (:class:`samepage.InvalidURL`).

    >>> origin_of("HTTP://Shop.Test:80/list?page=2"), origin_of("https://Bücher.Example./")
    ('http://shop.test', 'https://xn--bcher-kva.example')
    """
    host, port = host_and_port(url)
    scheme = urlsplit(url.strip()).scheme.lower()
    return f"{scheme}://{host}:{port}" if port else f"{scheme}://{host}"
