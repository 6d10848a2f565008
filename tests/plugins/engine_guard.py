"""Every test that starts an engine says so with its marker; the fast loop leaves them out.

The markers are ``browser`` (Chromium), ``spark`` (a JVM) and ``ray`` (a Ray cluster);
``slow`` marks what takes seconds for another reason. ``make test-fast`` runs everything
else. Two checks keep the markers true:

- at collection, a test that uses an engine's fixture (``browser_choice``, ``spark``,
  ``ray_local``, or one built on them) without the engine's marker is an error;
- while a test without an engine's marker runs, starting that engine fails the test with a
  message naming the marker: in process (Playwright's launch, a Spark session,
  ``ray.init``) and in a child process (``SAMEPAGE_BROWSER`` and ``JAVA_HOME`` point
  nowhere, so a learner or a Spark job it starts stops at once).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterator
from typing import Any

import pytest

ENGINE_FIXTURES = {"browser": "browser_choice", "spark": "spark", "ray": "ray_local"}
"""The fixture through which each engine reaches a test."""

_NOWHERE = "/nonexistent/start-no-engine-without-its-marker"


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Refuse a test that uses an engine's fixture without the engine's marker."""
    wrong = [
        f"{item.nodeid} uses {fixture} but is not marked {marker}"
        for item in items
        for marker, fixture in ENGINE_FIXTURES.items()
        if fixture in getattr(item, "fixturenames", ()) and item.get_closest_marker(marker) is None
    ]
    if wrong:
        raise pytest.UsageError("engine markers missing:\n  " + "\n  ".join(wrong))


def _refuse(marker: str, what: str) -> Callable[..., Any]:
    def refused(*args: Any, **kwargs: Any) -> Any:
        pytest.fail(f"this test starts {what}: mark it '{marker}'", pytrace=False)

    return refused


def _patch(monkeypatch: pytest.MonkeyPatch, module: str, attribute: str, refused: Any) -> None:
    """Replace ``module.attribute`` (a dotted path inside the module) when it is installed."""
    try:
        owner: Any = importlib.import_module(module)
    except ImportError:
        return
    *path, name = attribute.split(".")
    for part in path:
        owner = getattr(owner, part)
    monkeypatch.setattr(owner, name, refused)


@pytest.fixture(autouse=True)
def _no_engine_without_its_marker(
    request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch
) -> Iterator[None]:
    node = request.node
    if node.get_closest_marker("browser") is None:
        refused = _refuse("browser", "Chromium")
        _patch(monkeypatch, "playwright.async_api", "BrowserType.launch", refused)
        _patch(monkeypatch, "playwright.sync_api", "BrowserType.launch", refused)
        monkeypatch.setenv("SAMEPAGE_BROWSER", _NOWHERE)
    if node.get_closest_marker("spark") is None:
        _patch(
            monkeypatch,
            "pyspark.sql",
            "SparkSession.Builder.getOrCreate",
            _refuse("spark", "a Spark session"),
        )
        monkeypatch.setenv("JAVA_HOME", _NOWHERE)
    if node.get_closest_marker("ray") is None:
        _patch(monkeypatch, "ray", "init", _refuse("ray", "Ray"))
    yield
