"""Plain HTTP GET (no browser) for robots.txt, sitemaps and link discovery.

Built on the standard library's :mod:`http.client`, run in a worker thread. ``resolve`` works
like curl's ``--resolve``: the connection goes to the mapped ``ADDR:PORT`` while the request
still names the original host (``Host`` header, and TLS SNI and certificate checks for https).

Every hop, redirects included, is checked against the run's
:class:`~learner.plan.addresses.AddressPolicy` before anything is sent: the host is resolved
here, each address it resolves to is checked, and the connection goes to a checked address
(the check and the connection see the same answer, so a name that changes its answer between
them cannot lead the fetch elsewhere).
"""

from __future__ import annotations

import asyncio
import http.client
import logging
import socket
import ssl
import time
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from urllib.parse import SplitResult, quote, urljoin, urlsplit, urlunsplit

from learner.errors import ConfigError, FetchError
from learner.net.resolve import Endpoint, endpoint_for, parse_resolve
from learner.plan.addresses import AddressPolicy

logger = logging.getLogger(__name__)

__all__ = ["FetchResult", "PageFetcher", "fetch"]

_REDIRECTS = frozenset({301, 302, 303, 307, 308})
_DEFAULT_PORTS = {"http": 80, "https": 443}
_CHUNK = 64 * 1024
# The worker thread enforces the deadline itself; this margin only catches a stuck thread.
_GRACE_S = 1.0
# Characters sent as they are in the request target; anything else is percent-encoded.
_TARGET_SAFE = "!#$%&'()*+,-./:;<=>?@[\\]^_`{|}~"


@dataclass(frozen=True, slots=True)
class FetchResult:
    """The outcome of :func:`fetch`; any HTTP status, including 4xx and 5xx, is a result.

    ``headers`` has lower-case names; repeated headers are joined with ``", "``.
    """

    url: str
    final_url: str
    status: int
    headers: Mapping[str, str] = field(default_factory=dict)
    body: bytes = b""
    truncated: bool = False

    @property
    def retry_after(self) -> str | None:
        """The ``Retry-After`` header, if any."""
        return self.headers.get("retry-after")

    @property
    def content_type(self) -> str:
        """The media type, lower-case, without parameters (``""`` when absent).

        >>> FetchResult("u", "u", 200, {"content-type": "Text/HTML; charset=utf-8"}).content_type
        'text/html'
        """
        return self.headers.get("content-type", "").split(";", 1)[0].strip().lower()

    def text(self) -> str:
        """Decode the body with the declared charset (UTF-8 by default), never failing.

        >>> FetchResult("u", "u", 200, {}, "caf\u00e9".encode()).text()
        'café'
        """
        charset = "utf-8"
        for part in self.headers.get("content-type", "").split(";")[1:]:
            name, _, value = part.partition("=")
            if name.strip().lower() == "charset" and value.strip():
                charset = value.strip().strip("\"'")
        try:
            return self.body.decode(charset, errors="replace")
        except LookupError:
            return self.body.decode("utf-8", errors="replace")


PageFetcher = Callable[[str], Awaitable[FetchResult]]
"""A function that GETs one URL, such as :func:`fetch` with its options bound."""


async def fetch(
    url: str,
    *,
    resolve: Mapping[str, str] | None,
    user_agent: str,
    timeout_s: float,
    max_bytes: int = 5_000_000,
    max_redirects: int = 5,
    allow_private: bool = False,
) -> FetchResult:
    """GET ``url``, following http(s) redirects, reading at most ``max_bytes`` of the body.

    Args:
        url: an absolute http or https URL.
        resolve: ``{host: "ADDR:PORT"}`` overrides of name resolution
            (see :func:`learner.net.resolve.parse_resolve`);
            every redirect hop is resolved again.
        user_agent: the ``User-Agent`` header, naming the crawler.
        timeout_s: the limit for the whole fetch, redirects included.
        max_bytes: the body is cut there and ``truncated`` set.
        max_redirects: more hops than this is a failure.
        allow_private: private and loopback addresses may be reached without a ``resolve``
            entry naming them (:mod:`learner.plan.addresses`).

    Raises:
        ConfigError: for a bad ``resolve`` entry or option.
        AddressRefused: a hop's host, or an address it resolves to, is one the learner may
            not reach; nothing was sent to it.
        FetchError: for a network failure, a time-out, too many redirects, a redirect to
            a URL that is not http(s), or any URL the standard library refuses (a host label
            of 64 characters or more, an empty label, a broken IPv6 literal, a space in the
            host): a hostile answer fails this fetch, never the run.

    Example (``server`` is a running :class:`learner.demo.server.SiteServer`)::

        result = await fetch("http://shop.example/", resolve=server.resolve(),
                             user_agent="samepage-learner", timeout_s=5)
    """
    targets = parse_resolve(resolve)
    if timeout_s <= 0:
        raise ConfigError("must be positive", field="timeout_s")
    if max_bytes < 0:
        raise ConfigError("must not be negative", field="max_bytes")
    if max_redirects < 0:
        raise ConfigError("must not be negative", field="max_redirects")
    policy = AddressPolicy.of(targets, allow_private=allow_private)
    job = _Job(
        url, targets, policy, user_agent, time.monotonic() + timeout_s, max_bytes, max_redirects
    )
    try:
        return await asyncio.wait_for(asyncio.to_thread(job.run), timeout_s + _GRACE_S)
    except asyncio.TimeoutError:  # noqa: UP041 -- not yet the builtin on Python 3.10
        raise FetchError(url, f"timed out after {timeout_s:g} s") from None


@dataclass(slots=True)
class _Job:
    url: str
    targets: Mapping[str, Endpoint]
    policy: AddressPolicy
    user_agent: str
    deadline: float
    max_bytes: int
    max_redirects: int

    def run(self) -> FetchResult:
        try:
            return self._follow()
        except FetchError:
            raise
        except Exception as exc:  # whatever a hostile URL raises fails the fetch
            # urlsplit raises ValueError, the IDNA codec UnicodeError, http.client InvalidURL.
            raise FetchError(self.url, f"{type(exc).__name__}: {exc}") from exc

    def _follow(self) -> FetchResult:
        current = self.url
        for hop in range(self.max_redirects + 1):
            parts = self._split(current)
            status, headers, body, truncated = self._get(parts)
            location = headers.get("location")
            if status not in _REDIRECTS or not location:
                return FetchResult(
                    self.url, current, status, MappingProxyType(headers), body, truncated
                )
            if hop == self.max_redirects:
                raise FetchError(self.url, f"more than {self.max_redirects} redirects")
            target = urljoin(current, location.strip())
            if urlsplit(target).scheme.lower() not in _DEFAULT_PORTS:
                raise FetchError(self.url, f"redirect to a non-HTTP URL: {target!r}")
            logger.debug("%s redirects (%d) to %s", current, status, target)
            current = urlunsplit(urlsplit(target)._replace(fragment=""))
        raise AssertionError("unreachable")  # pragma: no cover

    def _split(self, url: str) -> SplitResult:
        parts = urlsplit(url)
        if parts.scheme.lower() not in _DEFAULT_PORTS or not parts.hostname:
            raise FetchError(url, "not an absolute http(s) URL")
        try:
            parts.port  # noqa: B018 -- raises ValueError for a bad port
        except ValueError:
            raise FetchError(url, "bad port") from None
        return parts

    def _remaining(self) -> float:
        remaining = self.deadline - time.monotonic()
        if remaining <= 0:
            raise FetchError(self.url, "timed out")
        return remaining

    def _get(self, parts: SplitResult) -> tuple[int, dict[str, str], bytes, bool]:
        scheme = parts.scheme.lower()
        host = (parts.hostname or "").rstrip(".")
        port = parts.port or _DEFAULT_PORTS[scheme]
        mapped = endpoint_for(self.targets, host)
        if mapped is not None:
            port = mapped[1]
            addresses = self.policy.addresses(self.url, mapped[0], port, named=True)
        else:
            addresses = self.policy.addresses(self.url, host, port)
        target = quote(parts.path or "/", safe=_TARGET_SAFE)
        if parts.query:
            target += "?" + quote(parts.query, safe=_TARGET_SAFE)
        headers = {
            "Host": parts.netloc.rsplit("@", 1)[-1],
            "User-Agent": self.user_agent,
            "Accept": "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8",
            "Accept-Encoding": "identity",
            "Connection": "close",
        }
        conn = self._connect(scheme, addresses, port, host)
        try:
            conn.request("GET", target, headers=headers)
            response = conn.getresponse()
            received: dict[str, str] = {}
            for name, value in response.getheaders():
                key = name.lower()
                received[key] = f"{received[key]}, {value}" if key in received else value
            if response.status in _REDIRECTS and "location" in received:
                return response.status, received, b"", False
            body, truncated = self._read(conn, response)
            return response.status, received, body, truncated
        except (OSError, http.client.HTTPException) as exc:
            raise FetchError(self.url, _reason(exc)) from exc
        finally:
            conn.close()

    def _connect(
        self, scheme: str, addresses: tuple[str, ...], port: int, host: str
    ) -> http.client.HTTPConnection:
        """A connection to the first of ``addresses`` that answers (all of them checked)."""
        for number, addr in enumerate(addresses, start=1):
            conn: http.client.HTTPConnection
            if scheme == "https":
                conn = _SNIConnection(addr, port, sni=host, timeout=self._remaining())
            else:
                conn = http.client.HTTPConnection(addr, port, timeout=self._remaining())
            try:
                conn.connect()
                return conn
            except OSError as exc:
                conn.close()
                if number == len(addresses):
                    raise FetchError(self.url, _reason(exc)) from exc
        raise FetchError(self.url, f"{host} resolves to no address")

    def _read(
        self, conn: http.client.HTTPConnection, response: http.client.HTTPResponse
    ) -> tuple[bytes, bool]:
        chunks: list[bytes] = []
        size = 0
        while size <= self.max_bytes:
            if conn.sock is not None:
                conn.sock.settimeout(self._remaining())
            chunk = response.read(min(_CHUNK, self.max_bytes + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
        body = b"".join(chunks)
        return body[: self.max_bytes], size > self.max_bytes


def _reason(exc: Exception) -> str:
    """A network error in words: ``timed out``, else its type and message."""
    return "timed out" if isinstance(exc, TimeoutError) else f"{type(exc).__name__}: {exc}"


class _SNIConnection(http.client.HTTPSConnection):
    """HTTPS to a resolved address, with SNI and certificate checks for the original host."""

    def __init__(self, addr: str, port: int, *, sni: str, timeout: float) -> None:
        super().__init__(addr, port, timeout=timeout, context=ssl.create_default_context())
        self._sni = sni

    def connect(self) -> None:
        http.client.HTTPConnection.connect(self)
        assert isinstance(self.sock, socket.socket)
        self.sock = self._context.wrap_socket(self.sock, server_hostname=self._sni)  # type: ignore[attr-defined]
