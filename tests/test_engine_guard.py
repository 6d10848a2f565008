"""The engine markers hold: an unmarked test that starts an engine fails, and says which."""

from __future__ import annotations

import os
from dataclasses import dataclass, field

import pytest

from learner.config import RenderSettings
from learner.render.renderer import Renderer
from tests.plugins.engine_guard import ENGINE_FIXTURES, pytest_collection_modifyitems


async def test_an_unmarked_test_cannot_launch_chromium() -> None:
    with pytest.raises(pytest.fail.Exception, match="starts Chromium: mark it 'browser'"):
        async with Renderer(RenderSettings(), executable=None):
            pass
    # A learner started in a child process finds no browser either.
    assert os.environ["SAMEPAGE_BROWSER"].startswith("/nonexistent/")


def test_an_unmarked_test_cannot_start_spark_or_ray() -> None:
    from pyspark.sql import SparkSession

    with pytest.raises(pytest.fail.Exception, match="mark it 'spark'"):
        SparkSession.builder.master("local[1]").getOrCreate()
    assert os.environ["JAVA_HOME"].startswith("/nonexistent/")
    import ray

    with pytest.raises(pytest.fail.Exception, match="mark it 'ray'"):
        ray.init(num_cpus=1)


@dataclass
class _Item:
    nodeid: str
    fixturenames: list[str]
    marks: set[str] = field(default_factory=set)

    def get_closest_marker(self, name: str) -> object | None:
        return name if name in self.marks else None


def test_a_test_using_an_engine_fixture_without_its_marker_is_refused_at_collection() -> None:
    fine = [_Item(f"t::{m}", [f], {m}) for m, f in ENGINE_FIXTURES.items()]
    pytest_collection_modifyitems(fine)  # type: ignore[arg-type]
    wrong = _Item("t::spark_unmarked", ["tmp_path", "spark"], {"browser"})
    with pytest.raises(pytest.UsageError, match="t::spark_unmarked uses spark but is not marked"):
        pytest_collection_modifyitems([*fine, wrong])  # type: ignore[list-item]
