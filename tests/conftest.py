"""Shared pytest set-up: fixture plugins, and a clean environment for every test."""

from __future__ import annotations

import logging
from collections.abc import Iterator

import pytest

pytest_plugins = (
    "tests.plugins.browser",
    "tests.plugins.site",
    "tests.plugins.crawl",
    "tests.plugins.engines",
    "tests.plugins.engine_guard",
    "tests.plugins.apps",
    "tests.plugins.scheduling",
    "tests.plugins.properties",
)

_PROXY_VARIABLES = (
    "http_proxy",
    "https_proxy",
    "all_proxy",
    "HTTP_PROXY",
    "HTTPS_PROXY",
    "ALL_PROXY",
)


@pytest.fixture(autouse=True)
def _clean_environment(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Clear proxy variables (tests talk to 127.0.0.1 only) and reset logging afterwards."""
    for name in _PROXY_VARIABLES:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("NO_PROXY", "*")
    yield
    logging.getLogger().handlers.clear()
    logging.getLogger().setLevel(logging.WARNING)
