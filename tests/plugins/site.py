"""Pytest plugin: the fixture web server and an address where nothing listens."""

from __future__ import annotations

import socket
from collections.abc import Iterator

import pytest

from learner.demo.server import SiteServer
from tests.site.fixture import fixture_sites


@pytest.fixture(scope="session")
def fixture_server() -> Iterator[SiteServer]:
    """The fixture sites, served on 127.0.0.1 for the whole test session."""
    with SiteServer(fixture_sites()) as server:
        yield server


@pytest.fixture
def unreachable_url() -> Iterator[str]:
    """``http://127.0.0.1:PORT/`` where PORT is bound but never listens: connections are refused."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
        yield f"http://127.0.0.1:{port}/"
