"""Collection with only some extras installed: a module whose engine is absent is skipped.

Registered for the whole repository by the root ``conftest.py``, so that it covers the
doctests of ``samepage`` and ``learner`` as well as ``tests``.

``--doctest-modules`` imports every module of ``samepage``, ``learner`` and ``tests``, and a
test module imports what it tests. A module that stops at the import of an optional
dependency (Playwright, Ray, DuckDB, PySpark, Scrapy, warcio, the test applications) is
skipped with the extra to install, instead of failing the whole collection. Under CI (the
variable ``CI`` is set) the set-up installs every extra, so there the import error fails loudly.
"""

from __future__ import annotations

import os
from collections.abc import Generator, Iterator
from pathlib import Path

import pytest

OPTIONAL_MODULES = {
    "playwright": "learner",
    "imagehash": "learner",
    "PIL": "learner",
    "protego": "learner",
    "ray": "cluster",
    "duckdb": "duckdb",
    "pyarrow": "duckdb",
    "pyspark": "spark",
    "pandas": "spark",
    "scrapy": "scrapy",
    "warcio": "warc",
    "datasette": "apps",
    "sphinx": "apps",
    "trac": "apps",
}
"""The top-level import name of each optional dependency, and the extra that installs it."""


def under_ci() -> bool:
    """Whether the tests run under CI, where a missing extra fails instead of skipping."""
    return bool(os.environ.get("CI"))


def missing_extra(error: BaseException | None) -> str | None:
    """Why a module cannot be imported, when the cause is an absent optional dependency.

    ``None`` for any other import error: a missing module of the project itself is a bug.
    """
    while error is not None:
        if isinstance(error, ModuleNotFoundError) and error.name:
            top = error.name.partition(".")[0]
            if top in OPTIONAL_MODULES:
                return f"{top} is not installed: pip install 'samepage[{OPTIONAL_MODULES[top]}]'"
        error = error.__cause__
    return None


class ExtraMissing(pytest.File):
    """A module skipped because an optional dependency it imports is not installed."""

    reason = ""

    def collect(self) -> Iterator[pytest.Item]:
        """Skip, with the extra to install."""
        pytest.skip(self.reason)


@pytest.hookimpl(wrapper=True)
def pytest_collect_file(
    file_path: Path, parent: pytest.Collector
) -> Generator[None, list[pytest.Collector], list[pytest.Collector]]:
    """Replace the collectors of a module that needs an absent extra by one skipped file."""
    collectors = yield
    if under_ci():
        return collectors
    for collector in collectors:
        if not isinstance(collector, pytest.Module):
            continue
        try:
            collector.obj  # noqa: B018  (imports the module, as collecting it does)
        except pytest.Collector.CollectError as exc:
            reason = missing_extra(exc.__cause__)
            if reason is not None:
                skipped = ExtraMissing.from_parent(parent, path=file_path)
                skipped.reason = reason
                return [skipped]
    return collectors
