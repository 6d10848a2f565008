"""The render's gate, spoken to as Chromium speaks to it (SOCKS5), without a browser.

Connections the gate opens are intercepted: only the test's own echo server on 127.0.0.1 is
really connected to.
"""

from __future__ import annotations

import asyncio
import socket
from collections.abc import AsyncIterator

import pytest
import pytest_asyncio

from learner.render.guard import AddressCheck, ProxyGate

ECHO_HOST = "echo.test"
_OPEN = asyncio.open_connection
"""The real ``open_connection``, for the test's own client while the gate's is intercepted."""


@pytest_asyncio.fixture
async def echo() -> AsyncIterator[int]:
    """A server on 127.0.0.1 that answers each line with the same line."""

    async def serve(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        while line := await reader.readline():
            writer.write(line)
            await writer.drain()
        writer.close()

    server = await asyncio.start_server(serve, "127.0.0.1", 0)
    yield server.sockets[0].getsockname()[1]
    server.close()


@pytest.fixture
def opened(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, int]]:
    """Every connection the gate opens; only those to 127.0.0.1 are really opened."""
    seen: list[tuple[str, int]] = []
    real = asyncio.open_connection

    async def open_connection(host: str, port: int, **kwargs: object) -> object:
        seen.append((host, port))
        if host != "127.0.0.1":
            raise ConnectionRefusedError(f"not opened in tests: {host}:{port}")
        return await real(host, port, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(asyncio, "open_connection", open_connection)
    return seen


@pytest.fixture
def names(monkeypatch: pytest.MonkeyPatch) -> dict[str, list[str]]:
    """Test answers of the resolver, by name: each lookup takes the next answer."""
    answers: dict[str, list[str]] = {}

    def getaddrinfo(host: object, port: object, *args: object, **kwargs: object) -> object:
        if not isinstance(host, str) or host not in answers:
            raise socket.gaierror(socket.EAI_NONAME, "not resolved in tests")
        address = answers[host].pop(0) if len(answers[host]) > 1 else answers[host][0]
        return [(socket.AF_INET, socket.SOCK_STREAM, 6, "", (address, port))]

    monkeypatch.setattr(socket, "getaddrinfo", getaddrinfo)
    return answers


async def _socks(
    gate: ProxyGate, host: str, port: int
) -> tuple[int, asyncio.StreamReader, asyncio.StreamWriter]:
    """Ask ``gate`` for ``host``:``port`` as Chromium does; the reply code and the stream."""
    proxy_port = int(gate.server.rsplit(":", 1)[1])
    reader, writer = await _OPEN("127.0.0.1", proxy_port)
    writer.write(b"\x05\x01\x00")
    assert await reader.readexactly(2) == b"\x05\x00"
    name = host.encode()
    writer.write(b"\x05\x01\x00\x03" + bytes([len(name)]) + name + port.to_bytes(2, "big"))
    reply = await reader.readexactly(10)
    return reply[1], reader, writer


async def _echoed(check: AddressCheck, host: str, port: int) -> bool:
    """Whether a line sent through a gate to ``host``:``port`` comes back from the echo."""
    async with ProxyGate(check) as gate:
        code, reader, writer = await _socks(gate, host, port)
        assert code == 0
        writer.write(b"ping\n")
        echoed = await reader.readline() == b"ping\n"
        writer.close()
    return echoed


@pytest.mark.parametrize(
    "host",
    ["169.254.169.254", "2852039166", "fd00:ec2::254", "metadata.google.internal", "0.0.0.0"],
)
async def test_a_forbidden_address_is_refused_without_a_connection(
    opened: list[tuple[str, int]], host: str
) -> None:
    async with ProxyGate(AddressCheck({}, allow_private=True)) as gate:
        code, _, writer = await _socks(gate, host, 80)
        writer.close()
    assert code == 2  # connection not allowed by ruleset
    assert opened == []
    url_host = f"[{host}]" if ":" in host else host
    assert gate.refusal_for(f"http://{url_host}/") is not None
    assert f"{host}:80" in gate.refused[0]


async def test_a_private_address_needs_the_users_word(
    opened: list[tuple[str, int]], echo: int
) -> None:
    async with ProxyGate(AddressCheck({}, allow_private=False)) as gate:
        code, _, writer = await _socks(gate, "127.0.0.1", echo)
        writer.close()
    assert code == 2
    assert opened == []
    # Named through --resolve: the mapped host reaches it, at that port.
    check = AddressCheck({ECHO_HOST: f"127.0.0.1:{echo}"}, allow_private=False)
    assert await _echoed(check, ECHO_HOST, 80)
    assert opened == [("127.0.0.1", echo)]


async def test_a_name_resolving_to_a_forbidden_address_is_refused(
    opened: list[tuple[str, int]], names: dict[str, list[str]]
) -> None:
    names["rebound.test"] = ["169.254.169.254"]
    async with ProxyGate(AddressCheck({}, allow_private=True)) as gate:
        code, _, writer = await _socks(gate, "rebound.test", 80)
        writer.close()
    assert code == 2
    assert opened == []


async def test_the_connection_goes_to_the_address_that_was_checked(
    opened: list[tuple[str, int]], names: dict[str, list[str]], echo: int
) -> None:
    # The name answers once with an allowed address, then with the metadata address: the
    # gate resolves once and connects to what it checked.
    names["flip.test"] = ["127.0.0.1", "169.254.169.254"]
    assert await _echoed(AddressCheck({}, allow_private=True), "flip.test", echo)
    assert opened == [("127.0.0.1", echo)]


async def test_a_failed_connection_is_named_as_chromium_names_a_direct_one(
    opened: list[tuple[str, int]],
) -> None:
    async with ProxyGate(AddressCheck({}, allow_private=True)) as gate:
        code, _, writer = await _socks(gate, "10.0.0.1", 80)
        writer.close()
        missing, _, writer = await _socks(gate, "nowhere.test", 80)
        writer.close()
    assert code == 5  # connection refused
    assert gate.failure_of("http://10.0.0.1/") == "net::ERR_CONNECTION_REFUSED"
    assert missing == 4  # host unreachable
    assert gate.failure_of("http://nowhere.test/") == "net::ERR_NAME_NOT_RESOLVED"
