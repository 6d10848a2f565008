"""Which addresses the learner may reach: one policy for the domains file, fetcher and browser.

A host is read as a browser reads it (:func:`samepage.normalize_host`, the WHATWG URL
parser's rules): ``2852039166``, ``0xa9.0xfe.0xa9.0xfe`` and ``0251.0376.0251.0376`` are all
``169.254.169.254``. An IPv6 address that carries an IPv4 address (IPv4-mapped
``::ffff:a.b.c.d``, IPv4-compatible ``::a.b.c.d``, NAT64 ``64:ff9b::/96``, 6to4
``2002::/16``) is judged by the IPv4 address it reaches.

Three kinds of address (:class:`Reach`):

- *forbidden*, never reached: unspecified (``0.0.0.0/8``, ``::``), link-local
  (``169.254.0.0/16``, ``fe80::/10``), the cloud metadata services (``169.254.169.254``,
  ``fd00:ec2::254``, ``100.100.100.200``, Azure's ``168.63.129.16``), multicast, broadcast
  and reserved addresses; and the names of metadata services (``metadata.google.internal``);
- *private*, reached only when the user named them: loopback, private networks, shared
  address space (``100.64.0.0/10``) and every other address that is not global. Named means
  given as the address of a ``--resolve HOST=ADDR:PORT`` entry (that address and port), or
  allowed as a whole with ``--allow-private`` (``allow_private`` in the config file);
- *public*: everything else.

A host name is judged by every address it resolves to (:meth:`AddressPolicy.addresses`).
"""

from __future__ import annotations

import ipaddress
import socket
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from learner.errors import AddressRefused, Reach
from samepage import InvalidURL, normalize_host

__all__ = [
    "AddressPolicy",
    "IPAddress",
    "Reach",
    "Refusal",
    "host_address",
    "reach_of",
    "refused_target",
]

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address

ALLOW_HINT = (
    "map a host name to it with --resolve HOST=ADDR:PORT, or pass --allow-private "
    "(allow_private = true in the config file)"
)
"""How a refused private address is allowed, in every message that refuses one."""


_FORBIDDEN = tuple(
    ipaddress.ip_network(net)
    for net in (
        "0.0.0.0/8",  # "this network": 0.0.0.0 reaches the machine itself
        "169.254.0.0/16",  # link-local, with the metadata service of most clouds
        "100.100.100.200/32",  # Alibaba Cloud's metadata service
        "168.63.129.16/32",  # Azure's platform endpoint (WireServer)
        "224.0.0.0/4",  # multicast
        "240.0.0.0/4",  # reserved, and the broadcast address
        "::/128",
        "fe80::/10",  # link-local
        "fd00:ec2::254/128",  # AWS's metadata service over IPv6
        "ff00::/8",  # multicast
    )
)
_SHARED = ipaddress.ip_network("100.64.0.0/10")
_NAT64 = ipaddress.ip_network("64:ff9b::/96")
_COMPATIBLE = ipaddress.ip_network("::/96")

FORBIDDEN_NAMES = frozenset(
    {
        "metadata",
        "metadata.google.internal",
        "metadata.goog",
        "instance-data",
        "instance-data.ec2.internal",
    }
)
"""Names of metadata services: refused without being resolved."""


def host_address(host: str) -> IPAddress | None:
    """The address a URL's host names, read as a browser reads it; ``None`` for a name.

    Args:
        host: a host as a URL holds it (IPv6 with or without brackets).

    Raises:
        ValueError: for a string that cannot be a host (``999.1.1.1``).

    >>> host_address("0xa9.0xfe.0xa9.0xfe"), host_address("[::1]"), host_address("a.example")
    (IPv4Address('169.254.169.254'), IPv6Address('::1'), None)
    """
    if ":" in host and not host.startswith("["):
        host = f"[{host}]"
    try:
        canonical = normalize_host(host)
    except InvalidURL as exc:
        raise ValueError(exc.reason) from None
    try:
        return ipaddress.ip_address(canonical.removeprefix("[").removesuffix("]"))
    except ValueError:
        return None


def _carried(address: IPAddress) -> IPAddress:
    """The IPv4 address an IPv6 address carries (mapped, compatible, NAT64, 6to4), or itself."""
    if isinstance(address, ipaddress.IPv4Address):
        return address
    address = ipaddress.IPv6Address(int(address))  # without a scope id
    if address.ipv4_mapped is not None:
        return address.ipv4_mapped
    if address.sixtofour is not None:
        return address.sixtofour
    if address in _NAT64 or (address in _COMPATIBLE and int(address) > 1):
        return ipaddress.IPv4Address(int(address) & 0xFFFFFFFF)
    return address


def reach_of(address: IPAddress) -> Reach:
    """Whether an address is public, private (needs the user's word) or forbidden.

    >>> [reach_of(ipaddress.ip_address(a)) for a in ("::ffff:a9fe:a9fe", "10.0.0.1", "1.1.1.1")]
    [<Reach.FORBIDDEN: 'forbidden'>, <Reach.PRIVATE: 'private'>, <Reach.PUBLIC: 'public'>]
    """
    carried = _carried(address)
    for plain in (carried, address):
        if any(plain.version == net.version and plain in net for net in _FORBIDDEN):
            return Reach.FORBIDDEN
    shared = carried.version == 4 and carried in _SHARED
    return Reach.PRIVATE if shared or not carried.is_global else Reach.PUBLIC


@dataclass(frozen=True, slots=True)
class Refusal:
    """A request the policy refused, as data: the host, what it reached, and why."""

    host: str
    address: str
    """The address refused, or the host itself for a refused name."""
    reach: Reach

    def reason(self) -> str:
        """The refusal in words, saying how to allow a private address."""
        same = self.host.removeprefix("[").removesuffix("]") == self.address
        shown = self.host if same else f"{self.host} ({self.address})"
        if self.reach is Reach.PRIVATE:
            return f"{shown} is a private or loopback address: {ALLOW_HINT}"
        return f"{shown} is a link-local, metadata or unspecified address, never studied"


@dataclass(frozen=True, slots=True)
class AddressPolicy:
    """The addresses a run may reach (see the module docstring).

    Attributes:
        allow_private: every private and loopback address may be reached.
        named: the ``(address, port)`` pairs the user named as ``--resolve`` targets.
    """

    allow_private: bool = False
    named: frozenset[tuple[str, int]] = frozenset()

    @classmethod
    def of(
        cls, targets: Mapping[str, tuple[str, int]], *, allow_private: bool = False
    ) -> AddressPolicy:
        """The policy of a run; ``targets`` as ``learner.net.resolve.parse_resolve`` reads them."""
        named = frozenset((_plain(addr), port) for addr, port in targets.values())
        return cls(allow_private, named)

    def refusal(
        self, host: str, address: IPAddress, port: int, *, named: bool = False
    ) -> Refusal | None:
        """Why ``host`` may not be reached at ``address``:``port`` (``None``: it may).

        ``named`` says the address came from a ``--resolve`` entry (then only a forbidden
        address is refused).
        """
        reach = reach_of(address)
        if reach is Reach.PUBLIC:
            return None
        if reach is Reach.PRIVATE and (
            named or self.allow_private or (_plain(str(address)), port) in self.named
        ):
            return None
        return Refusal(host, str(address), reach)

    def host_refusal(self, host: str, port: int, *, named: bool = False) -> Refusal | None:
        """Why ``host`` may not be reached, judged without resolving it.

        A metadata service's name, or an address host the policy refuses; any other name is
        ``None`` here and judged by :meth:`resolved_refusal` once resolved.

        Raises:
            ValueError: for a string that cannot be a host.
        """
        address = host_address(host)
        if address is not None:
            return self.refusal(host, address, port, named=named)
        name = normalize_host(host)
        if name in FORBIDDEN_NAMES:
            return Refusal(name, name, Reach.FORBIDDEN)
        return None

    def resolved_refusal(
        self, host: str, port: int, addresses: Iterable[str], *, named: bool = False
    ) -> Refusal | None:
        """Why ``host`` may not be reached at the addresses it resolved to (any one refused)."""
        for text in addresses:
            refusal = self.refusal(host, ipaddress.ip_address(text), port, named=named)
            if refusal is not None:
                return refusal
        return None

    def addresses(self, url: str, host: str, port: int, *, named: bool = False) -> tuple[str, ...]:
        """The addresses to connect to for ``host``:``port``, every one of them allowed.

        An address host is itself; a name is resolved (``socket.getaddrinfo``) and refused
        when any of its addresses is (the one connected to is then always one checked).

        Raises:
            AddressRefused: the host or one of its addresses is refused.
            OSError: the name does not resolve.
        """
        refusal = self.host_refusal(host, port, named=named)
        if refusal is not None:
            raise AddressRefused(url, refusal.reason(), refusal.reach)
        literal = host_address(host)
        if literal is not None:
            return (_plain(str(literal)),)
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
        found = tuple(dict.fromkeys(str(sockaddr[0]) for *_, sockaddr in infos))
        refusal = self.resolved_refusal(host, port, found, named=named)
        if refusal is not None:
            raise AddressRefused(url, refusal.reason(), refusal.reach)
        return found


def _plain(address: str) -> str:
    """An address as ``ipaddress`` prints it (a name as it is)."""
    try:
        return str(ipaddress.ip_address(address))
    except ValueError:
        return address


def refused_target(targets: Iterable[tuple[str, int]]) -> Refusal | None:
    """The first ``--resolve`` target at a forbidden address (``None`` when there is none)."""
    for address, _port in targets:
        try:
            parsed = ipaddress.ip_address(address)
        except ValueError:
            name = address.lower().rstrip(".")
            if name in FORBIDDEN_NAMES:
                return Refusal(name, name, Reach.FORBIDDEN)
            continue
        if reach_of(parsed) is Reach.FORBIDDEN:
            return Refusal(address, address, Reach.FORBIDDEN)
    return None
