"""Pytest plugin: with ``--dist loadfile``, test files that share a costly session fixture
run on one worker, so the fixture is made once.

``make test`` runs the engine tests one file to a worker; a session fixture is made in each
worker that uses it. The learner's run over the multi-site fixture (``fixture_run``, about
90 s of crawling) is read by three files: they go to one worker together.
"""

from __future__ import annotations

from typing import Any

import pytest

SHARED_FIXTURE_FILES = {
    "tests/learner/run/test_crawl.py": "fixture_run",
    "tests/learner/cluster/test_cluster.py": "fixture_run",
    "tests/learner/report/test_report.py": "fixture_run",
}
"""Test file to the name of the group it runs in (other files run as their own group)."""


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> Any:
    if config.getoption("dist") != "loadfile":
        return None
    from xdist.scheduler import LoadFileScheduling

    class SharedFixtureScheduling(LoadFileScheduling):  # type: ignore[misc]
        def _split_scope(self, nodeid: str) -> str:
            file = nodeid.split("::", 1)[0]
            return SHARED_FIXTURE_FILES.get(file, file)

    return SharedFixtureScheduling(config, log)
