"""Every connection a page opens passes a gate that checks its address first.

Each render's browser context gets a SOCKS5 proxy of its own on 127.0.0.1
(:class:`ProxyGate`), loopback included. Chromium opens every connection of the page
through it, naming the host and port it wants: the main frame, frames, images, scripts,
``fetch``/XHR, WebSockets, each hop of every redirect, preconnects. The gate applies the
``--resolve`` mapping, resolves a name itself, checks the host and every address it resolves
to against the run's policy (:mod:`learner.plan.addresses`), and connects to a checked
address. A refused connection is answered "not allowed by ruleset": nothing reaches the
address. Because the gate connects to the very address it checked, a name that answers
differently a moment later (DNS rebinding) cannot lead the page elsewhere.

A refused sub-resource leaves the page without it (recorded in
:attr:`~learner.model.Rendering.refused`); a refused main frame fails the render
(:attr:`~learner.errors.RenderCause.ADDRESS`). A connection the gate could not open is
reported by Chromium as a SOCKS failure; :meth:`ProxyGate.failure_of` gives the error a direct
connection would have had (``ERR_CONNECTION_REFUSED``, ``ERR_NAME_NOT_RESOLVED``, ...), so that
a render fails with the same cause either way.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import logging
import socket
import time
from collections.abc import Mapping
from dataclasses import dataclass
from urllib.parse import urlsplit

from learner.net.resolve import endpoint_for, parse_resolve
from learner.plan.addresses import AddressPolicy, Refusal, host_address

logger = logging.getLogger(__name__)

__all__ = ["AddressCheck", "Destination", "ProxyGate"]

_DEFAULT_PORTS = {"http": 80, "https": 443, "ws": 80, "wss": 443}
# How long what a name resolved to is used: Chromium's own host cache keeps an answer a minute.
_KEEP_S = 60.0
_MAX_KEPT = 4096
_MAX_RECORDED = 20
_HANDSHAKE_S = 10.0
_CONNECT_S = 10.0
_CLOSE_S = 1.0
_CHUNK = 64 * 1024
# SOCKS5 (RFC 1928).
_VERSION = 5
_NO_AUTH = 0
_CONNECT = 1
_IPV4, _NAME, _IPV6 = 1, 3, 4
_OK, _FAILURE, _NOT_ALLOWED, _HOST_UNREACHABLE, _REFUSED, _NOT_SUPPORTED = 0, 1, 2, 4, 5, 7


@dataclass(frozen=True, slots=True)
class Destination:
    """Where a connection for a host goes: checked addresses, and the port."""

    addresses: tuple[str, ...]
    port: int


class AddressCheck:
    """The run's address policy and ``--resolve`` entries, for the browser: one per Renderer.

    Args:
        resolve: host name to ``ADDR:PORT`` (read by :func:`learner.net.resolve.parse_resolve`).
        allow_private: private and loopback addresses may be reached without being named.
    """

    def __init__(self, resolve: Mapping[str, str] | None, *, allow_private: bool) -> None:
        self.targets = parse_resolve(resolve)
        self.policy = AddressPolicy.of(self.targets, allow_private=allow_private)
        self._kept: dict[tuple[str, int], tuple[float, Destination | Refusal]] = {}

    async def decide(self, host: str, port: int) -> Destination | Refusal:
        """Where a connection to ``host``:``port`` goes, or why it must not be opened.

        Raises:
            OSError: the name does not resolve.
            ValueError: ``host`` cannot be a host.
        """
        key = (host, port)
        now = time.monotonic()
        kept = self._kept.get(key)
        if kept is not None and kept[0] > now:
            return kept[1]
        named = False
        mapped = endpoint_for(self.targets, host)
        if mapped is not None:
            (host, port), named = mapped, True
        refusal = self.policy.host_refusal(host, port, named=named)
        if refusal is not None:
            return refusal
        literal = host_address(host)
        if literal is not None:
            return Destination((str(literal),), port)
        infos = await asyncio.get_running_loop().getaddrinfo(host, port, type=socket.SOCK_STREAM)
        found = tuple(dict.fromkeys(str(sockaddr[0]) for *_, sockaddr in infos))
        decided: Destination | Refusal = self.policy.resolved_refusal(
            host, port, found, named=named
        ) or Destination(found, port)
        if len(self._kept) >= _MAX_KEPT:
            self._kept.clear()
        self._kept[key] = (now + _KEEP_S, decided)
        return decided

    async def refusal(self, url: str) -> Refusal | None:
        """Why no connection may be opened for ``url`` (``None``: it may, or is not ours)."""
        try:
            parts = urlsplit(url)
            scheme = parts.scheme.lower()
            if scheme not in _DEFAULT_PORTS or not parts.hostname:
                return None
            decided = await self.decide(parts.hostname, parts.port or _DEFAULT_PORTS[scheme])
        except (OSError, ValueError):
            return None
        return decided if isinstance(decided, Refusal) else None


class ProxyGate:
    """One render's SOCKS5 proxy: every connection of the page is checked, then opened.

    Use it as an async context manager around the render; :attr:`server` is what the
    browser context is given as its proxy.
    """

    def __init__(self, check: AddressCheck) -> None:
        self.check = check
        self.refused: list[str] = []
        """``HOST:PORT (reason)`` of the connections refused, the first :data:`_MAX_RECORDED`."""
        self._failures: dict[tuple[str, int], str] = {}
        self._refusals: dict[tuple[str, int], Refusal] = {}
        self._server: asyncio.Server | None = None
        self._open: set[asyncio.StreamWriter] = set()
        self._tasks: set[asyncio.Task[None]] = set()

    @property
    def server(self) -> str:
        """The proxy's address, as Playwright's ``proxy`` option takes it."""
        assert self._server is not None, "enter the gate first"
        port = self._server.sockets[0].getsockname()[1]
        return f"socks5://127.0.0.1:{port}"

    async def __aenter__(self) -> ProxyGate:
        self._server = await asyncio.start_server(self._serve, "127.0.0.1", 0)
        return self

    async def __aexit__(self, *exc: object) -> None:
        if self._server is not None:
            self._server.close()
        for writer in list(self._open):
            writer.close()  # each copy then reads its end, and its connection closes
        if self._tasks:
            _, late = await asyncio.wait(list(self._tasks), timeout=_CLOSE_S)
            for task in late:
                task.cancel()

    def refusal_for(self, url: str) -> Refusal | None:
        """The refusal of the connection ``url`` needed, if the gate refused it."""
        key = _key(url)
        return self._refusals.get(key) if key is not None else None

    def failure_of(self, url: str) -> str | None:
        """The Chromium error of a direct connection for ``url`` the gate could not open.

        ``net::ERR_CONNECTION_REFUSED`` and the like; ``None`` if the gate opened it.
        """
        key = _key(url)
        return self._failures.get(key) if key is not None else None

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        task = asyncio.current_task()
        if task is not None:
            self._tasks.add(task)
        self._open.add(writer)
        upstream: asyncio.StreamWriter | None = None
        try:
            async with asyncio.timeout(_HANDSHAKE_S):
                request = await _handshake(reader, writer)
            if request is None:
                return
            host, port = _plain_host(request[0]), request[1]
            connected = await self._connect(host, port, writer)
            if connected is None:
                return
            upstream_reader, upstream = connected
            self._open.add(upstream)
            writer.write(_reply(_OK))
            await asyncio.gather(_pipe(reader, upstream), _pipe(upstream_reader, writer))
        except (OSError, TimeoutError, asyncio.IncompleteReadError, asyncio.CancelledError):
            pass  # the browser or the site closed the connection, or the render is over
        finally:
            for end in (writer, upstream):
                if end is not None:
                    self._open.discard(end)
                    end.close()
            if task is not None:
                self._tasks.discard(task)

    async def _connect(
        self, host: str, port: int, writer: asyncio.StreamWriter
    ) -> tuple[asyncio.StreamReader, asyncio.StreamWriter] | None:
        """Check and open the connection, or answer the browser with why not."""
        try:
            decided = await self.check.decide(host, port)
        except (OSError, ValueError):
            self._failures[(host, port)] = "net::ERR_NAME_NOT_RESOLVED"
            writer.write(_reply(_HOST_UNREACHABLE))
            return None
        if isinstance(decided, Refusal):
            logger.info("refused a connection to %s:%d: %s", host, port, decided.reason())
            self._refusals[(host, port)] = decided
            if len(self.refused) < _MAX_RECORDED:
                self.refused.append(f"{host}:{port} ({decided.reason()})")
            writer.write(_reply(_NOT_ALLOWED))
            return None
        error: OSError | TimeoutError = OSError(errno.EHOSTUNREACH, "no address")
        for address in decided.addresses:
            try:
                async with asyncio.timeout(_CONNECT_S):
                    return await asyncio.open_connection(address, decided.port)
            except (OSError, TimeoutError) as exc:
                error = exc
        self._failures[(host, port)] = _chromium_error(error)
        writer.write(_reply(_REFUSED if isinstance(error, ConnectionRefusedError) else _FAILURE))
        return None


async def _handshake(
    reader: asyncio.StreamReader, writer: asyncio.StreamWriter
) -> tuple[str, int] | None:
    """Read a SOCKS5 greeting and CONNECT request: the host and port asked for."""
    version, methods = await reader.readexactly(2)
    offered = await reader.readexactly(methods)
    if version != _VERSION or _NO_AUTH not in offered:
        writer.write(bytes([_VERSION, 0xFF]))
        return None
    writer.write(bytes([_VERSION, _NO_AUTH]))
    version, command, _, kind = await reader.readexactly(4)
    if kind == _IPV4:
        host = socket.inet_ntop(socket.AF_INET, await reader.readexactly(4))
    elif kind == _IPV6:
        host = socket.inet_ntop(socket.AF_INET6, await reader.readexactly(16))
    elif kind == _NAME:
        size = (await reader.readexactly(1))[0]
        host = (await reader.readexactly(size)).decode("ascii", errors="replace")
    else:
        writer.write(_reply(_NOT_SUPPORTED))
        return None
    port = int.from_bytes(await reader.readexactly(2), "big")
    if version != _VERSION or command != _CONNECT:
        writer.write(_reply(_NOT_SUPPORTED))
        return None
    return host, port


def _reply(code: int) -> bytes:
    """A SOCKS5 reply with ``code`` and an empty IPv4 bound address."""
    return bytes([_VERSION, code, 0, _IPV4, 0, 0, 0, 0, 0, 0])


async def _pipe(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    """Copy ``reader`` to ``writer`` until the end, then pass the end on."""
    with contextlib.suppress(OSError):
        while chunk := await reader.read(_CHUNK):
            writer.write(chunk)
            await writer.drain()
        if writer.can_write_eof():
            writer.write_eof()


def _key(url: str) -> tuple[str, int] | None:
    """The ``(host, port)`` a browser asks the proxy for to load ``url``."""
    try:
        parts = urlsplit(url)
        scheme = parts.scheme.lower()
        if scheme not in _DEFAULT_PORTS or not parts.hostname:
            return None
        return _plain_host(parts.hostname), parts.port or _DEFAULT_PORTS[scheme]
    except ValueError:
        return None


def _plain_host(host: str) -> str:
    """A host as the gate keys it: lower case, IPv6 without brackets, no trailing dot."""
    return host.lower().removeprefix("[").removesuffix("]").rstrip(".")


def _chromium_error(error: BaseException) -> str:
    """The ``net::`` error Chromium reports for a direct connection that failed so."""
    if isinstance(error, ConnectionRefusedError):
        return "net::ERR_CONNECTION_REFUSED"
    if isinstance(error, ConnectionResetError):
        return "net::ERR_CONNECTION_RESET"
    if isinstance(error, TimeoutError):
        return "net::ERR_CONNECTION_TIMED_OUT"
    return "net::ERR_CONNECTION_FAILED"
