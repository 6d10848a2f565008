"""The browser sends nothing to an address the learner may not reach: every connection is checked.

A page on 127.0.0.1 (named through ``--resolve``) asks for metadata, link-local and private
addresses in every way a page can: images, a frame, ``fetch``, a redirect, a WebSocket, a
name that resolves to the metadata address. The gate's own connections are intercepted
(``asyncio.open_connection`` records each and opens only the fixture's), and Chromium runs
with a trap as its browser-wide proxy, so that a connection made around the render's gate
would reach the trap: the tests assert that nothing did. A control run with a gate that
allows everything shows that the page does ask for those addresses.
"""

from __future__ import annotations

import asyncio
import socket
import threading
from collections.abc import AsyncIterator, Iterator

import pytest
import pytest_asyncio

from learner.demo.pages import redirect
from learner.demo.server import Response, Site, SiteServer
from learner.errors import NavigationFailed, RenderCause
from learner.render import renderer as renderer_module
from learner.render.browser import BrowserChoice, launch_args
from learner.render.guard import AddressCheck, Destination
from learner.render.renderer import Renderer
from tests.plugins.browser import TEST_SETTINGS

pytestmark = pytest.mark.browser

HOST = "guard.test"
REBOUND = "rebound.test"
"""A name the test's resolver answers with the metadata address."""
FORBIDDEN_URLS = (
    "http://169.254.169.254/latest/meta-data/",
    "http://2852039166/decimal",
    "http://0xa9.0xfe.0xa9.0xfe/hex",
    "http://[fd00:ec2::254]/frame",
    "http://[::ffff:169.254.169.254]/mapped",
    "http://100.100.100.200/alibaba",
    f"http://{REBOUND}/resolved",
)
PRIVATE_URLS = ("http://10.0.0.1/private", "http://127.0.0.1:8765/loopback")

_HOSTILE = f"""<!doctype html><title>Hostile</title><p>Hostile page</p>
<img src="{FORBIDDEN_URLS[0]}"><img src="{FORBIDDEN_URLS[1]}"><img src="{FORBIDDEN_URLS[2]}">
<iframe src="{FORBIDDEN_URLS[3]}"></iframe>
<img src="/bounce"><img src="{PRIVATE_URLS[0]}"><img src="{PRIVATE_URLS[1]}">
<img src="{FORBIDDEN_URLS[6]}">
<script>
for (const url of ["{FORBIDDEN_URLS[4]}", "{FORBIDDEN_URLS[5]}"]) fetch(url).catch(() => {{}});
const ws = new WebSocket("ws://169.254.169.254:8080/socket"); ws.onerror = () => {{}};
</script>"""


def _site() -> Site:
    site = Site(HOST)
    site.routes["/hostile"] = lambda request: Response(body=_HOSTILE)
    site.routes["/bounce"] = lambda request: redirect("http://169.254.169.254/redirected")
    site.routes["/to-metadata"] = lambda request: redirect("http://169.254.169.254/latest/")
    site.routes["/to-private"] = lambda request: redirect("http://10.0.0.1/admin")
    site.routes["/plain"] = lambda request: Response(body="<!doctype html><p>Plain page</p>")
    return site


class Trap:
    """A listener that records every connection made to it: Chromium's proxy in these tests."""

    def __init__(self) -> None:
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.connections = 0
        self._thread = threading.Thread(target=self._serve, daemon=True)
        self._thread.start()

    def _serve(self) -> None:
        while True:
            try:
                conn, _ = self.listener.accept()
            except OSError:
                return
            self.connections += 1
            conn.close()

    def close(self) -> None:
        self.listener.close()


@pytest.fixture(scope="module")
def guard_server() -> Iterator[SiteServer]:
    with SiteServer([_site()]) as server:
        yield server


@pytest.fixture(scope="module")
def trap() -> Iterator[Trap]:
    found = Trap()
    yield found
    found.close()


@pytest.fixture(autouse=True)
def rebound_name(monkeypatch: pytest.MonkeyPatch) -> None:
    """``rebound.test`` resolves to the metadata address; no other name is resolved."""
    real = socket.getaddrinfo

    def getaddrinfo(host: object, *args: object, **kwargs: object) -> object:
        if host == REBOUND:
            return [(socket.AF_INET, socket.SOCK_STREAM, 6, "", ("169.254.169.254", 80))]
        if host in ("127.0.0.1", "::1", None):
            return real(host, *args, **kwargs)  # type: ignore[arg-type]
        raise socket.gaierror(socket.EAI_NONAME, f"not resolved in tests: {host}")

    monkeypatch.setattr(socket, "getaddrinfo", getaddrinfo)


@pytest.fixture
def opened(monkeypatch: pytest.MonkeyPatch, guard_server: SiteServer) -> list[tuple[str, int]]:
    """Every connection the gate opens; only the fixture server's is really opened."""
    seen: list[tuple[str, int]] = []
    real = asyncio.open_connection
    allowed = ("127.0.0.1", int(guard_server.address.rsplit(":", 1)[1]))

    async def open_connection(host: str, port: int, **kwargs: object) -> object:
        seen.append((host, port))
        if (host, port) != allowed:
            raise ConnectionRefusedError(f"not opened in tests: {host}:{port}")
        return await real(host, port, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(asyncio, "open_connection", open_connection)
    return seen


@pytest_asyncio.fixture(scope="module")
async def guarded(
    browser_choice: BrowserChoice, guard_server: SiteServer, trap: Trap
) -> AsyncIterator[Renderer]:
    """A Renderer whose Chromium sends whatever goes around a render's gate to the trap."""

    def args(mapping: dict[str, str] | None = None) -> list[str]:
        # <-loopback>: 127.0.0.1 too goes to the trap, unless a context's own proxy takes it.
        return [
            *launch_args(mapping),
            f"--proxy-server=http://127.0.0.1:{trap.port}",
            "--proxy-bypass-list=<-loopback>",
        ]

    patch = pytest.MonkeyPatch()
    patch.setattr(renderer_module, "launch_args", args)
    try:
        async with Renderer(
            TEST_SETTINGS, executable=browser_choice.executable, resolve=guard_server.resolve()
        ) as shared:
            yield shared
    finally:
        patch.undo()


def _fixture(server: SiteServer) -> tuple[str, int]:
    host, port = server.address.rsplit(":", 1)
    return host, int(port)


async def test_every_connection_to_a_refused_address_is_stopped_before_it_is_opened(
    guarded: Renderer, trap: Trap, guard_server: SiteServer, opened: list[tuple[str, int]]
) -> None:
    before = trap.connections
    rendering = await guarded.render(f"http://{HOST}/hostile")
    assert "Hostile page" in rendering.text
    refused = " ".join(rendering.refused)
    for host in (
        "169.254.169.254:80",
        "fd00:ec2::254",
        "100.100.100.200:80",
        "10.0.0.1:80",
        "127.0.0.1:8765",
        f"{REBOUND}:80",
        "169.254.169.254:8080",  # the WebSocket
    ):
        assert host in refused, host
    assert set(opened) == {_fixture(guard_server)}
    assert trap.connections == before
    # The redirect of an image was followed only as far as the page's own host.
    assert "/bounce" in [r.path for r in guard_server.requests_for(HOST)]


@pytest.mark.parametrize("path", ["/to-metadata", "/to-private"])
async def test_a_main_frame_sent_to_a_refused_address_fails_the_render(
    guarded: Renderer,
    trap: Trap,
    guard_server: SiteServer,
    opened: list[tuple[str, int]],
    path: str,
) -> None:
    before = trap.connections
    with pytest.raises(NavigationFailed) as failed:
        await guarded.render(f"http://{HOST}{path}")
    assert failed.value.cause is RenderCause.ADDRESS
    assert not failed.value.transient
    assert set(opened) == {_fixture(guard_server)}
    assert trap.connections == before


@pytest.mark.parametrize(
    "url",
    ["http://2852039166/latest/meta-data/", "http://0xa9.0xfe.0xa9.0xfe/", f"http://{REBOUND}/"],
)
async def test_a_page_at_a_refused_address_is_not_requested(
    guarded: Renderer, trap: Trap, opened: list[tuple[str, int]], url: str
) -> None:
    before = trap.connections
    with pytest.raises(NavigationFailed) as failed:
        await guarded.render(url)
    assert failed.value.cause is RenderCause.ADDRESS
    assert opened == []
    assert trap.connections == before


async def test_a_clean_page_renders_with_nothing_refused(guarded: Renderer) -> None:
    rendering = await guarded.render(f"http://{HOST}/plain")
    assert "Plain page" in rendering.text
    assert rendering.refused == ()


async def test_the_page_does_ask_for_those_addresses(
    guarded: Renderer,
    guard_server: SiteServer,
    opened: list[tuple[str, int]],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The control: a gate that allows every address is asked to open them all (the test's
    # open_connection refuses them without a packet sent).
    async def allow_all(check: AddressCheck, host: str, port: int) -> Destination:
        mapped = check.targets.get(host)
        return Destination((mapped[0],), mapped[1]) if mapped else Destination((host,), port)

    monkeypatch.setattr(AddressCheck, "decide", allow_all)
    rendering = await guarded.render(f"http://{HOST}/hostile")
    assert rendering.refused == ()
    asked = {host for host, _ in opened}
    assert {"169.254.169.254", "10.0.0.1", "fd00:ec2::254", "100.100.100.200", REBOUND} <= asked
