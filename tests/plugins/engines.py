"""Engine fixtures: DuckDB in-process and one local Spark session per test run.

Without an engine the tests that need it skip with the reason; under CI (the variable CI is
set) they fail instead, since the set-up installs every engine.
"""

from __future__ import annotations

import importlib
import os
import shutil
from collections.abc import Iterator
from types import ModuleType
from typing import Any

import pytest

from tests.plugins.extras import OPTIONAL_MODULES, missing_extra, under_ci


def missing(reason: str) -> None:
    """Skip the test (or the module), or fail it under CI, where every engine is installed."""
    if under_ci():
        pytest.fail(f"{reason} (CI is set: the set-up must install it)", pytrace=False)
    pytest.skip(reason, allow_module_level=True)


def engine(name: str) -> ModuleType:
    """Import ``name``, or skip (fail under CI) when it is not installed."""
    try:
        return importlib.import_module(name)
    except ImportError as exc:
        missing(missing_extra(exc) or f"{name} is not installed: {exc}")
        raise  # unreachable: missing() raises


def need_spark() -> None:
    """Skip (fail under CI) unless PySpark, pyarrow and a Java runtime are all here."""
    engine("pyarrow")
    engine("pyspark.sql")
    if shutil.which("java") is None and not os.environ.get("JAVA_HOME"):
        missing("Spark needs a Java runtime: none on PATH and JAVA_HOME is not set")


@pytest.fixture(scope="session")
def spark() -> Iterator[Any]:
    """A local Spark session on two cores, shared by every Spark test of the run."""
    need_spark()
    from samepage.spark import local_session

    session = local_session(2)
    yield session
    session.stop()


def need_extra(extra: str) -> None:
    """Skip (fail under CI) unless every module of ``samepage[extra]`` is installed."""
    for name, its_extra in OPTIONAL_MODULES.items():
        if its_extra == extra:
            engine(name)
