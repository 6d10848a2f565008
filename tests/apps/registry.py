"""The applications, each described the same way for the tests and the benchmark."""

from __future__ import annotations

import dataclasses
import importlib.util
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from learner.config import LearnerConfig
from learner.judge.listed import ListedFinding
from tests.apps import datasette_app, mediawiki_app, sphinx_app, trac_app
from tests.apps.server import AppServer
from tests.apps.truth import Expected, carrying_listed
from tests.site.learner_settings import SUITE_CONFIG

__all__ = ["APPS", "APPS_CONFIG", "App"]

APPS_CONFIG: LearnerConfig = dataclasses.replace(SUITE_CONFIG, default_values=0)
"""The suite's settings, without default values: the verdicts of parameters are what is
asserted, and each application's run stays under a minute."""


@dataclass(frozen=True, slots=True)
class App:
    """One application: its host, its log, its expected verdicts and how to serve it."""

    name: str
    host: str
    truth: dict[str, dict[str, Expected]]
    observed_urls: Callable[[], list[str]]
    serve: Callable[[Path], AppServer]
    missing: Callable[[], str | None]
    """Why the application cannot run here (not installed), or ``None``."""
    listed: dict[str, ListedFinding] = dataclasses.field(default_factory=dict)
    """What the spot-checks of the log's listed names must find, by name."""
    same_pages: tuple[tuple[str, str], ...] = ()
    """Held-out URL pairs (not in the log) of one page: they must get one key."""
    different_pages: tuple[tuple[str, str], ...] = ()
    """Held-out URL pairs of two pages: they must never get one key."""


def _with_listed(log: Callable[[], list[str]]) -> Callable[[], list[str]]:
    def observed() -> list[str]:
        return carrying_listed(log())

    return observed


def _module_missing(module: str) -> Callable[[], str | None]:
    def missing() -> str | None:
        if importlib.util.find_spec(module) is None:
            return f"{module} is not installed: pip install -e '.[apps]'"
        return None

    return missing


def _trac_missing() -> str | None:
    if trac_app.trac_python() is None:
        return f"no Trac interpreter: run scripts/setup.sh or set {trac_app.ENV_TRAC_PYTHON}"
    return None


APPS: dict[str, App] = {
    app.name: app
    for app in (
        App(
            "datasette",
            datasette_app.HOST,
            datasette_app.TRUTH,
            _with_listed(datasette_app.observed_urls),
            datasette_app.serve,
            _module_missing("datasette"),
            # datasette/views/table.py: an argument that is no special one filters the rows
            # (?utm_source=newsletter: "0 rows where utm_source = newsletter").
            {"utm_source": ListedFinding.KEPT},
        ),
        App(
            "sphinx",
            sphinx_app.HOST,
            sphinx_app.TRUTH,
            _with_listed(sphinx_app.observed_urls),
            sphinx_app.serve,
            _module_missing("sphinx"),
            # A static site: http.server drops the query (ref=twitter and the like too).
            {"ref": ListedFinding.CONFIRMED, "utm_source": ListedFinding.CONFIRMED},
        ),
        App(
            "trac",
            trac_app.HOST,
            trac_app.TRUTH,
            _with_listed(trac_app.observed_urls),
            trac_app.serve,
            _trac_missing,
            {"utm_source": ListedFinding.CONFIRMED},  # Trac reads no such argument
        ),
        App(
            "mediawiki",
            mediawiki_app.HOST,
            mediawiki_app.TRUTH,
            mediawiki_app.observed_urls,
            mediawiki_app.serve,
            mediawiki_app.mediawiki_missing,
            # ref=dashboard is a listed (ambiguous) value: MediaWiki only carries it into the
            # login link's returnto, and the spot-check confirms the list.
            {"ref": ListedFinding.CONFIRMED},
            same_pages=mediawiki_app.SAME_PAGES + mediawiki_app.ALIAS_PAIRS,
            different_pages=mediawiki_app.DIFFERENT_PAGES + mediawiki_app.ALIAS_APART,
        ),
    )
}
