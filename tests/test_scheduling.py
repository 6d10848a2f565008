"""The engine tests that share a costly session fixture are scheduled onto one worker."""

from __future__ import annotations

from dataclasses import dataclass

from tests.plugins.scheduling import misplaced


@dataclass
class _Item:
    nodeid: str
    fixturenames: tuple[str, ...]


def test_a_test_outside_the_group_of_the_shared_fixture_it_uses_is_named() -> None:
    inside = _Item("tests/learner/test_apps.py::test_x", ("app_run", "served_app"))
    outside = _Item("tests/learner/test_new.py::test_y", ("served_app", "tmp_path"))
    crossed = _Item("tests/learner/run/test_crawl.py::test_z", ("fixture_run", "served_app"))
    plain = _Item("tests/learner/test_other.py::test_w", ("tmp_path",))
    assert misplaced([inside, outside, crossed, plain]) == [  # type: ignore[list-item]
        "tests/learner/test_new.py::test_y uses served_app",
        "tests/learner/run/test_crawl.py::test_z uses served_app",
    ]
