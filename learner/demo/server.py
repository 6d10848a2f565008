"""A threaded HTTP server on 127.0.0.1 that serves several virtual hosts by ``Host`` header.

The demo and the test suite describe their sites as Python handlers; the learner reaches them
through ``--resolve HOST=127.0.0.1:PORT``, exactly as it would reach a staging server.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from types import TracebackType
from urllib.parse import parse_qsl, urlsplit

logger = logging.getLogger(__name__)

__all__ = ["Request", "Response", "Site", "SiteServer"]


@dataclass(frozen=True, slots=True)
class Request:
    """One request as a handler sees it."""

    method: str
    host: str
    path: str
    query: tuple[tuple[str, str], ...]
    headers: Mapping[str, str]
    stopping: threading.Event

    @property
    def params(self) -> dict[str, str]:
        """The first value of every query parameter."""
        first: dict[str, str] = {}
        for name, value in self.query:
            first.setdefault(name, value)
        return first


@dataclass(slots=True)
class Response:
    """What a handler returns. ``body`` may be an iterable of chunks, sent as they come.

    A ``101`` response (a WebSocket upgrade) sends its headers, then its body's chunks raw.
    """

    status: int = 200
    body: bytes | str | Iterable[bytes] = b""
    content_type: str = "text/html; charset=utf-8"
    headers: dict[str, str] = field(default_factory=dict)


Handler = Callable[[Request], Response]


@dataclass(slots=True)
class Site:
    """A virtual host: exact paths mapped to handlers; anything else is a 404."""

    host: str
    routes: dict[str, Handler] = field(default_factory=dict)

    def route(self, path: str) -> Callable[[Handler], Handler]:
        """Register the decorated function as the handler of ``path``."""

        def register(handler: Handler) -> Handler:
            self.routes[path] = handler
            return handler

        return register


@dataclass(frozen=True, slots=True)
class LoggedRequest:
    """A request as recorded in :attr:`SiteServer.requests`."""

    host: str
    path: str
    query: str
    user_agent: str


class SiteServer:
    """Serve ``sites`` on 127.0.0.1 on a free port while the ``with`` block runs."""

    def __init__(self, sites: Iterable[Site]) -> None:
        self.sites = {site.host.lower(): site for site in sites}
        self.requests: list[LoggedRequest] = []
        self.stopping = threading.Event()
        self._lock = threading.Lock()
        self._httpd: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    @property
    def port(self) -> int:
        """The port the server listens on (only while running)."""
        if self._httpd is None:
            raise RuntimeError("server is not running")
        return int(self._httpd.server_address[1])

    @property
    def address(self) -> str:
        """``127.0.0.1:PORT``, the target of ``--resolve``."""
        return f"127.0.0.1:{self.port}"

    def resolve(self) -> dict[str, str]:
        """A ``--resolve`` mapping that sends every served host to this server."""
        return {host: self.address for host in self.sites}

    def origin(self, host: str) -> str:
        """The ``http://host`` origin of a served site."""
        return f"http://{host}"

    def requests_for(self, host: str) -> list[LoggedRequest]:
        """The requests received so far for ``host``."""
        with self._lock:
            return [r for r in self.requests if r.host == host]

    def __enter__(self) -> SiteServer:
        self.start()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.stop()

    def start(self) -> None:
        """Bind a free port on 127.0.0.1 and serve in a background thread."""
        if self._httpd is not None:
            raise RuntimeError("server already running")
        self.stopping.clear()
        httpd = ThreadingHTTPServer(("127.0.0.1", 0), _make_handler(self))
        httpd.daemon_threads = True
        self._httpd = httpd
        self._thread = threading.Thread(target=httpd.serve_forever, name="site-server", daemon=True)
        self._thread.start()
        logger.debug("serving %s on %s", sorted(self.sites), self.address)

    def stop(self) -> None:
        """Stop serving; handlers that wait on ``request.stopping`` return at once."""
        self.stopping.set()
        if self._httpd is not None:
            self._httpd.shutdown()
            self._httpd.server_close()
            self._httpd = None
        if self._thread is not None:
            self._thread.join(timeout=5)
            self._thread = None

    def _log(self, entry: LoggedRequest) -> None:
        with self._lock:
            self.requests.append(entry)


def _chunks(body: bytes | str | Iterable[bytes]) -> Iterator[bytes]:
    if isinstance(body, str):
        yield body.encode("utf-8")
    elif isinstance(body, bytes):
        yield body
    else:
        yield from body


def _make_handler(server: SiteServer) -> type[BaseHTTPRequestHandler]:
    class _Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, format: str, *args: object) -> None:
            logger.debug("%s %s", self.address_string(), format % args)

        def do_HEAD(self) -> None:
            self._serve(send_body=False)

        def do_GET(self) -> None:
            self._serve(send_body=True)

        def _serve(self, *, send_body: bool) -> None:
            host = (self.headers.get("Host") or "").rsplit(":", 1)[0].lower()
            parts = urlsplit(self.path)
            server._log(
                LoggedRequest(host, parts.path, parts.query, self.headers.get("User-Agent", ""))
            )
            site = server.sites.get(host)
            handler = site.routes.get(parts.path) if site else None
            if handler is None:
                response = Response(404, "<h1>Not found</h1>")
            else:
                request = Request(
                    method=self.command,
                    host=host,
                    path=parts.path,
                    query=tuple(parse_qsl(parts.query, keep_blank_values=True)),
                    headers=dict(self.headers.items()),
                    stopping=server.stopping,
                )
                try:
                    response = handler(request)
                except Exception:
                    logger.exception("handler for %s%s failed", host, parts.path)
                    response = Response(500, "<h1>Server error</h1>")
            self._send(response, send_body=send_body)

        def _send(self, response: Response, *, send_body: bool) -> None:
            try:
                self.send_response(response.status)
                if response.status != 101:
                    self.send_header("Content-Type", response.content_type)
                for name, value in response.headers.items():
                    self.send_header(name, value)
                if response.status == 101:  # switched protocols: the body is the raw stream
                    self.end_headers()
                    for chunk in _chunks(response.body):
                        if server.stopping.is_set():
                            break
                        self.wfile.write(chunk)
                        self.wfile.flush()
                    self.close_connection = True
                    return
                if isinstance(response.body, (bytes, str)):
                    data = next(_chunks(response.body))
                    self.send_header("Content-Length", str(len(data)))
                    self.end_headers()
                    if send_body:
                        self.wfile.write(data)
                    return
                self.send_header("Transfer-Encoding", "chunked")
                self.end_headers()
                for chunk in _chunks(response.body):
                    if server.stopping.is_set():
                        break
                    if send_body and chunk:
                        self.wfile.write(f"{len(chunk):X}\r\n".encode() + chunk + b"\r\n")
                if send_body:
                    self.wfile.write(b"0\r\n\r\n")
            except (BrokenPipeError, ConnectionResetError):
                logger.debug("client went away during %s", self.path)

    return _Handler
