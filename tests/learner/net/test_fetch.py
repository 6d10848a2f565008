"""Plain HTTP fetching against the fixture server: resolve, redirects, caps, failures."""

from __future__ import annotations

import asyncio
import contextlib
import socket
import ssl
import threading
from collections.abc import Awaitable, Iterator

import pytest

from learner.demo.server import SiteServer
from learner.errors import AddressRefused, ConfigError, FetchError, Reach
from learner.net.fetch import FetchResult, fetch
from learner.net.resolve import parse_resolve

UA = "samepage-learner-test/1.0"


async def get(server: SiteServer, url: str, **options: object) -> FetchResult:
    settings: dict[str, object] = {"timeout_s": 5.0, **options}
    return await fetch(url, resolve=server.resolve(), user_agent=UA, **settings)  # type: ignore[arg-type]


async def test_resolve_sends_original_host_and_user_agent(fixture_server: SiteServer) -> None:
    before = len(fixture_server.requests)
    result = await get(fixture_server, "http://shop.test/product?id=1&color=red")
    assert result.status == 200
    assert result.final_url == result.url == "http://shop.test/product?id=1&color=red"
    assert result.content_type == "text/html"
    assert b"Quiet Chair" in result.body and b"Colour: red" in result.body
    assert not result.truncated
    logged = fixture_server.requests[before:]
    assert [(r.host, r.path, r.query, r.user_agent) for r in logged] == [
        ("shop.test", "/product", "id=1&color=red", UA)
    ]


async def test_headers_are_lower_case(fixture_server: SiteServer) -> None:
    result = await get(fixture_server, "http://hostile.test/download?file=1")
    assert result.headers["content-disposition"] == 'attachment; filename="report.zip"'
    assert result.headers["content-length"] == str(len(result.body))


async def test_non_ascii_query_is_percent_encoded(fixture_server: SiteServer) -> None:
    before = len(fixture_server.requests)
    result = await get(fixture_server, "http://shop.test/product?id=2&color=gr\u00fcn x")
    assert result.status == 200
    assert fixture_server.requests[before].query == "id=2&color=gr%C3%BCn%20x"


async def test_redirect_followed_to_final_url(fixture_server: SiteServer) -> None:
    result = await get(fixture_server, "http://news.test/go?id=3")
    assert result.url == "http://news.test/go?id=3"
    assert result.final_url == "http://news.test/article?id=3"
    assert result.status == 200


async def test_redirect_to_other_host_is_resolved_again(fixture_server: SiteServer) -> None:
    result = await get(fixture_server, "http://hostile.test/away?dest=4")
    assert result.final_url == "http://elsewhere.test/landing?dest=4"
    assert b"You have left hostile.test" in result.body


async def test_redirect_loop_fails(fixture_server: SiteServer) -> None:
    with pytest.raises(FetchError, match="more than 5 redirects"):
        await get(fixture_server, "http://hostile.test/loop?step=1")


async def test_redirect_bound_is_exact(fixture_server: SiteServer) -> None:
    with pytest.raises(FetchError, match="more than 0 redirects"):
        await get(fixture_server, "http://news.test/go?id=1", max_redirects=0)
    result = await get(fixture_server, "http://news.test/go?id=1", max_redirects=1)
    assert result.final_url == "http://news.test/article?id=1"


async def test_redirect_to_file_scheme_fails(fixture_server: SiteServer) -> None:
    with pytest.raises(FetchError, match="non-HTTP URL: 'file:///etc/passwd'"):
        await get(fixture_server, "http://hostile.test/scheme?target=1")


async def test_body_is_capped(fixture_server: SiteServer) -> None:
    result = await get(fixture_server, "http://hostile.test/huge?seed=1", max_bytes=1000)
    assert result.truncated
    assert len(result.body) == 1000
    assert result.body.startswith(b"<!DOCTYPE html>")


async def test_body_at_exact_cap_is_not_truncated(fixture_server: SiteServer) -> None:
    full = await get(fixture_server, "http://shop.test/about")
    exact = await get(fixture_server, "http://shop.test/about", max_bytes=len(full.body))
    assert exact.body == full.body and not exact.truncated


async def test_http_errors_are_results(fixture_server: SiteServer) -> None:
    result = await get(fixture_server, "http://shop.test/no-such-page")
    assert result.status == 404


async def test_stalled_response_times_out(fixture_server: SiteServer) -> None:
    # The server holds the body for STALL_S (30 s): only the fetch's own limit ends it before
    # the test's bound.
    async with asyncio.timeout(15):
        with pytest.raises(FetchError, match="timed out"):
            await get(fixture_server, "http://hostile.test/never?img=1", timeout_s=0.3)


async def test_unreachable_raises_fetch_error(unreachable_url: str) -> None:
    with pytest.raises(FetchError, match="ConnectionRefusedError") as info:
        await fetch(unreachable_url, resolve=None, user_agent=UA, timeout_s=2, allow_private=True)
    assert info.value.url == unreachable_url


@pytest.mark.parametrize(
    "url", ["ftp://shop.test/x", "/relative", "http:///nohost", "http://h.test:99999/"]
)
async def test_bad_urls_raise_fetch_error(url: str) -> None:
    with pytest.raises(FetchError):
        await fetch(url, resolve={"h.test": "127.0.0.1:9"}, user_agent=UA, timeout_s=1)


@pytest.mark.parametrize(
    "resolve, message",
    [
        ({"shop.test": "local_host:80"}, "shop.test=local_host:80: not an IP address or host"),
        ({"shop.test": "127.0.0.1"}, "shop.test=127.0.0.1: the address needs a port"),
        ({"shop.test": "127.0.0.1:0"}, "shop.test=127.0.0.1:0: the port must be"),
        ({"shop.test": "127.0.0.1:http"}, "the port must be"),
        ({"shop.test:80": "127.0.0.1:80"}, "shop.test:80=127.0.0.1:80: not a host name"),
        ({"": "127.0.0.1:80"}, "=127.0.0.1:80: not a host name"),
        ({"v6.test": "[::1]"}, "v6.test=\\[::1\\]: the address needs a port"),
    ],
)
async def test_bad_resolve_entries_are_named(resolve: dict[str, str], message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        await fetch("http://shop.test/", resolve=resolve, user_agent=UA, timeout_s=1)


def test_parse_resolve_accepts_ipv6_and_normalises_host() -> None:
    assert parse_resolve({"Shop.Test.": "[::1]:8443"}) == {"shop.test": ("::1", 8443)}
    assert parse_resolve(None) == {}


@pytest.mark.parametrize("option", [{"timeout_s": 0}, {"max_bytes": -1}, {"max_redirects": -1}])
async def test_bad_options_are_named(option: dict[str, float]) -> None:
    name = next(iter(option))
    settings: dict[str, float] = {"timeout_s": 1.0, **option}
    with pytest.raises(ConfigError, match=name):
        await fetch("http://shop.test/", resolve=None, user_agent=UA, **settings)  # type: ignore[arg-type]


@pytest.fixture
def tls_listener() -> Iterator[tuple[int, list[str]]]:
    """A TLS endpoint without a certificate: it records the SNI name, then the handshake fails."""
    names: list[str] = []
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.sni_callback = lambda sock, name, ctx: names.append(name or "") or None  # type: ignore[func-returns-value]
    listener = socket.create_server(("127.0.0.1", 0))
    done = threading.Event()

    def serve() -> None:
        conn, _ = listener.accept()
        with conn, contextlib.suppress(ssl.SSLError, OSError):
            context.wrap_socket(conn, server_side=True)
        done.set()

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    yield listener.getsockname()[1], names
    done.wait(5)
    listener.close()


async def test_https_sends_sni_of_original_host(tls_listener: tuple[int, list[str]]) -> None:
    port, names = tls_listener
    with pytest.raises(FetchError, match="SSL"):
        await fetch(
            "https://secure.test/page",
            resolve={"secure.test": f"127.0.0.1:{port}"},
            user_agent=UA,
            timeout_s=5,
        )
    assert names == ["secure.test"]


@pytest.fixture
def redirector() -> Iterator[str]:
    """An HTTP server on 127.0.0.1 answering ``/to?...`` with a 302 to the raw query text."""
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
    from urllib.parse import unquote

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            self.send_response(302)
            self.send_header("Location", unquote(self.path.partition("?")[2]))
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, format: str, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


def _redirected(redirector: str, location: str) -> Awaitable[FetchResult]:
    """Fetch ``redirector``'s redirect to ``location`` (127.0.0.1 allowed, as named)."""
    from urllib.parse import quote

    url = f"{redirector}/to?{quote(location)}"
    return fetch(url, resolve=None, user_agent=UA, timeout_s=5, allow_private=True)


@pytest.mark.parametrize(
    "location",
    [
        "http://" + "a" * 64 + ".example/robots.txt",  # IDNA: label too long (UnicodeError)
        "http://a..example/robots.txt",  # an empty label (UnicodeError)
        "http://[::1/robots.txt",  # a broken IPv6 literal (ValueError)
        "http://a%20b.example/",  # a space in the host (InvalidURL)
        "http://a b.example/",
        "http://" + "\u00e9" * 70 + ".example/",
    ],
)
async def test_a_hostile_redirect_is_a_fetch_error_not_a_crash(
    redirector: str, location: str
) -> None:
    with pytest.raises(FetchError) as caught:
        await _redirected(redirector, location)
    assert caught.value.url.startswith(redirector)
    assert caught.value.reason


@pytest.fixture
def connections(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, int]]:
    """Every connection the fetcher opens; only those to 127.0.0.1 are really opened."""
    seen: list[tuple[str, int]] = []
    real = socket.create_connection

    def create_connection(address: tuple[str, int], *args: object, **kwargs: object) -> object:
        seen.append((address[0], address[1]))
        if address[0] != "127.0.0.1":
            raise ConnectionRefusedError(f"not opened in tests: {address}")
        return real(address, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(socket, "create_connection", create_connection)
    return seen


@pytest.fixture
def names(monkeypatch: pytest.MonkeyPatch) -> dict[str, list[str]]:
    """Test answers of the resolver, by name: each lookup takes the next answer."""
    answers: dict[str, list[str]] = {}
    real = socket.getaddrinfo

    def getaddrinfo(host: object, port: object, *args: object, **kwargs: object) -> object:
        if isinstance(host, str) and host in answers:
            address = answers[host].pop(0) if len(answers[host]) > 1 else answers[host][0]
            family = socket.AF_INET6 if ":" in address else socket.AF_INET
            return [(family, socket.SOCK_STREAM, 6, "", (address, port))]
        return real(host, port, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(socket, "getaddrinfo", getaddrinfo)
    return answers


@pytest.mark.parametrize(
    "location",
    [
        "http://169.254.169.254/latest/meta-data/",
        "http://2852039166/latest/",
        "http://0xa9.0xfe.0xa9.0xfe/latest/",
        "http://0251.0376.0251.0376/latest/",
        "http://[::ffff:169.254.169.254]/latest/",
        "http://[fd00:ec2::254]/latest/",
        "http://100.100.100.200/latest/",
        "http://metadata.google.internal/computeMetadata/v1/",
        "http://[fe80::1]/",
        "http://0.0.0.0:8080/",
        "http://metadata.test/",  # a name that resolves to the metadata address
    ],
)
async def test_a_redirect_to_a_forbidden_address_is_refused_before_connecting(
    redirector: str,
    connections: list[tuple[str, int]],
    names: dict[str, list[str]],
    location: str,
) -> None:
    names["metadata.test"] = ["169.254.169.254"]
    with pytest.raises(AddressRefused) as refused:
        await _redirected(redirector, location)
    assert refused.value.reach is Reach.FORBIDDEN
    assert not refused.value.transient
    assert {host for host, _ in connections} == {"127.0.0.1"}


async def test_a_redirect_to_a_private_address_is_refused_unless_allowed(
    redirector: str, connections: list[tuple[str, int]]
) -> None:
    from urllib.parse import quote

    # The site is named through --resolve: a redirect to another private address is not.
    port = int(redirector.rsplit(":", 1)[1])
    start = f"http://site.test/to?{quote('http://10.0.0.1/admin')}"
    with pytest.raises(AddressRefused, match="--allow-private") as refused:
        await fetch(start, resolve={"site.test": f"127.0.0.1:{port}"}, user_agent=UA, timeout_s=5)
    assert refused.value.reach is Reach.PRIVATE
    assert connections == [("127.0.0.1", port)]
    # With --allow-private the redirect is followed (the test refuses the connection itself).
    resolve = {"site.test": f"127.0.0.1:{port}"}
    with pytest.raises(FetchError, match="not opened in tests"):
        await fetch(start, resolve=resolve, user_agent=UA, timeout_s=5, allow_private=True)
    assert connections[-1] == ("10.0.0.1", 80)


async def test_a_private_address_not_named_is_refused(connections: list[tuple[str, int]]) -> None:
    with pytest.raises(AddressRefused, match="--allow-private"):
        await fetch("http://127.0.0.1:8080/", resolve=None, user_agent=UA, timeout_s=5)
    with pytest.raises(AddressRefused, match="--allow-private"):
        await fetch("http://2130706433:8080/", resolve=None, user_agent=UA, timeout_s=5)
    assert connections == []


async def test_the_connection_goes_to_the_address_that_was_checked(
    fixture_server: SiteServer, connections: list[tuple[str, int]], names: dict[str, list[str]]
) -> None:
    # A name that answers once with the site's address, then with the metadata address:
    # the fetcher resolves once and connects to what it checked.
    port = int(fixture_server.address.rsplit(":", 1)[1])
    names["flip.test"] = ["127.0.0.1", "169.254.169.254"]
    result = await fetch(
        f"http://flip.test:{port}/robots.txt",
        resolve=None,
        user_agent=UA,
        timeout_s=5,
        allow_private=True,
    )
    assert result.status in (200, 404)
    assert connections == [("127.0.0.1", port)]
