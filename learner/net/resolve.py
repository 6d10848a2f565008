"""``--resolve HOST=ADDR:PORT``: one reading of it for the browser and the plain fetcher alike.

``HOST`` is a host name (``*.`` in front covers its subdomains, for the browser and the
fetcher both); ``ADDR`` is an IPv4 address, an IPv6 address in brackets, or a host name;
``PORT`` is a TCP port. Every caller (the command line, :func:`learner.net.fetch.fetch` and
:func:`learner.render.browser.resolver_rules`) goes through :func:`parse_resolve`, so an
entry one of them accepts, all of them accept. An ``ADDR`` is read as a browser reads it
(``0x7f.1`` is ``127.0.0.1``), and one that is forbidden (:mod:`learner.plan.addresses`:
link-local, metadata, unspecified) is refused; a private one is what ``--resolve`` is for.
"""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Iterable, Mapping

from learner.errors import ConfigError
from learner.plan.addresses import host_address, refused_target
from samepage import host_suffixes

__all__ = ["Endpoint", "endpoint_for", "parse_resolve", "port_number", "resolve_entries"]

Endpoint = tuple[str, int]
"""Where requests for a host go: an address (IPv6 without brackets) and a port."""

_NAME = re.compile(
    r"^(\*\.)?([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$"
)


def port_number(text: str) -> int | None:
    """``text`` as a TCP port from 1 to 65535, or ``None``.

    Only ASCII digits count (``"²".isdigit()`` is true, ``int("²")`` fails), and no more than
    five of them (``int()`` refuses thousands of digits with its own error).

    >>> port_number("8080"), port_number("0"), port_number("²"), port_number("9" * 5000)
    (8080, None, None, None)
    """
    if not text.isascii() or not text.isdigit() or len(text) > 5:
        return None
    value = int(text)
    return value if 0 < value < 65536 else None


def _shown(value: object) -> str:
    text = str(value)
    return text if len(text) <= 60 else text[:60] + "..."


def _address(entry: str, target: object) -> Endpoint:
    if not isinstance(target, str):
        raise ConfigError(f"{entry}: the address must be a string")
    if target.startswith("[") and "]" in target:
        close = target.index("]") + 1
        address, colon, port_text = target[:close], target[close : close + 1], target[close + 1 :]
    else:
        address, colon, port_text = target.rpartition(":")
    if not colon or not address:
        raise ConfigError(f"{entry}: the address needs a port (ADDR:PORT)")
    port = port_number(port_text)
    if port is None:
        raise ConfigError(f"{entry}: the port must be a number from 1 to 65535")
    if address.startswith("["):
        if not address.endswith("]"):
            raise ConfigError(f"{entry}: unclosed [ in the IPv6 address")
        try:
            return str(ipaddress.IPv6Address(address[1:-1])), port
        except ValueError:
            raise ConfigError(f"{entry}: not an IPv6 address") from None
    name = address.lower()
    if not _NAME.match(name) or name.startswith("*") or len(name) > 253:
        raise ConfigError(f"{entry}: not an IP address or host name (write IPv6 as [ADDR]:PORT)")
    try:
        literal = host_address(name)
    except ValueError as exc:
        raise ConfigError(f"{entry}: {exc}") from None
    return (name if literal is None else str(literal)), port


def parse_resolve(resolve: Mapping[str, str] | None) -> dict[str, Endpoint]:
    """Check a ``--resolve`` mapping ``{host: "ADDR:PORT"}`` and split its targets.

    Raises:
        ConfigError: naming the first bad entry and what is wrong with it.

    >>> parse_resolve({"Shop.test.": "127.0.0.1:8080", "v6.test": "[::1]:81"})
    {'shop.test': ('127.0.0.1', 8080), 'v6.test': ('::1', 81)}
    >>> parse_resolve({"*.cdn.test": "staging.internal:443"})
    {'*.cdn.test': ('staging.internal', 443)}
    """
    targets: dict[str, Endpoint] = {}
    for host, target in (resolve or {}).items():
        entry = f"resolve: {_shown(host)}={_shown(target)}"
        name = host.lower().rstrip(".") if isinstance(host, str) else ""
        if not _NAME.match(name) or len(name) > 253:
            raise ConfigError(f"{entry}: not a host name")
        targets[name] = _address(entry, target)
        refusal = refused_target([targets[name]])
        if refusal is not None:
            raise ConfigError(f"{entry}: {refusal.reason()}")
    return targets


def endpoint_for(endpoints: Mapping[str, Endpoint], host: str) -> Endpoint | None:
    """Where a request for ``host`` goes: an exact entry, else the longest ``*.`` entry."""
    name = host.lower().rstrip(".")
    if name in endpoints:
        return endpoints[name]
    for suffix in list(host_suffixes(name))[1:]:
        found = endpoints.get("*." + suffix)
        if found is not None:
            return found
    return None


def resolve_entries(entries: Iterable[str]) -> dict[str, str]:
    """The command line's ``--resolve HOST=ADDR:PORT`` options as a checked mapping.

    Raises:
        ConfigError: naming the first entry that is not ``HOST=ADDR:PORT``.
    """
    resolve: dict[str, str] = {}
    for entry in entries:
        host, sep, address = entry.partition("=")
        if not sep or not host.strip() or not address.strip():
            raise ConfigError(f"--resolve {_shown(entry)!r}: expected HOST=ADDR:PORT")
        resolve[host.strip().lower()] = address.strip()
    parse_resolve(resolve)
    return resolve
