"""Pytest plugin: with ``--dist loadfile``, test files that share a costly session fixture
run on one worker, so the fixture is made once.

``make test`` runs the engine tests on two workers, each file whole on one; a session fixture
is made in each worker that uses it. The learner's run over the multi-site fixture
(``fixture_run``, about 70 s of crawling) is read by three files, and the real applications
(``served_app``: each served once and crawled once, ``tests/plugins/apps.py``) by three
more: each set goes to one worker together.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import pytest

SHARED_FIXTURE_FILES = {
    "tests/learner/run/test_crawl.py": "fixture_run",
    "tests/learner/cluster/test_cluster.py": "fixture_run",
    "tests/learner/report/test_report.py": "fixture_run",
    "tests/learner/test_apps.py": "served_app",
    "tests/learner/render/test_differential.py": "served_app",
    "tests/learner/test_mediawiki.py": "served_app",
}
"""Test file to the name of the group it runs in (other files run as their own group): the
name of the session fixture the group shares."""


def misplaced(items: Iterable[pytest.Item]) -> list[str]:
    """The tests that use a shared fixture outside its group (they would make it again)."""
    groups = set(SHARED_FIXTURE_FILES.values())
    wrong = []
    for item in items:
        file = item.nodeid.split("::", 1)[0]
        for name in groups.intersection(getattr(item, "fixturenames", ())):
            if SHARED_FIXTURE_FILES.get(file) != name:
                wrong.append(f"{item.nodeid} uses {name}")
    return wrong


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    wrong = misplaced(items)
    if wrong:
        raise pytest.UsageError(
            "add these test files to SHARED_FIXTURE_FILES (tests/plugins/scheduling.py): "
            + "; ".join(wrong)
        )


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
