"""Trac 1.6, the issue tracker and wiki, on a generated project of tickets and wiki pages.

Every studied parameter of every pattern has its expected verdict in ``TRUTH``, with the
reason taken from Trac's code (``trac/ticket/query.py``, ``trac/ticket/report.py``,
``trac/wiki/web_ui.py``, ``trac/ticket/web_ui.py``) or its documentation (TracQuery,
TracReports, TracWiki).
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

from tests.apps.server import AppServer
from tests.apps.trac_populate import MILESTONES, OWNERS, STATUSES, WIKI_PAGES
from tests.apps.truth import Expected, neutral, non_neutral

__all__ = ["HOST", "TRUTH", "build_environment", "observed_urls", "serve", "trac_python"]

HOST = "trac.test"
TRAC_VENV = Path(__file__).resolve().parents[2] / ".venv-trac"
"""Trac's own environment (``scripts/setup.sh``): Datasette's python-multipart installs a
``multipart`` module that shadows the one Trac reads forms with, so the two cannot share one."""
ENV_TRAC_PYTHON = "SAMEPAGE_TRAC_PYTHON"
"""Environment variable naming the Python interpreter that has Trac, if not ``TRAC_VENV``'s."""
_ROOT = Path(__file__).resolve().parents[2]


def trac_python() -> Path | None:
    """The interpreter that runs Trac, or ``None`` when there is none."""
    named = os.environ.get(ENV_TRAC_PYTHON)
    path = Path(named) if named else TRAC_VENV / "bin" / "python"
    return path if path.is_file() else None


def _python() -> str:
    path = trac_python()
    if path is None:
        raise FileNotFoundError(
            f"no Trac interpreter: run scripts/setup.sh (it creates {TRAC_VENV})"
            f" or set {ENV_TRAC_PYTHON}"
        )
    return str(path)


def build_environment(folder: Path, seed: int = 5) -> Path:
    """A new Trac environment in ``folder/env`` (replacing one there), populated from ``seed``."""
    path = folder / "env"
    shutil.rmtree(path, ignore_errors=True)
    python = _python()
    _checked_call(
        [python, "-m", "trac.admin.console", str(path), "initenv", "Harbour", "sqlite:db/trac.db"]
    )
    _checked_call([python, "-m", "tests.apps.trac_populate", str(path), str(seed)])
    return path


def _checked_call(argv: list[str]) -> None:
    done = subprocess.run(argv, capture_output=True, text=True, timeout=120, cwd=_ROOT)
    if done.returncode:
        raise RuntimeError(f"{' '.join(argv[1:4])}: exit {done.returncode}: {done.stderr[-2000:]}")


def serve(folder: Path) -> AppServer:
    """``tracd`` serving a generated environment, anonymous access (Trac's default)."""
    environment = build_environment(folder)
    return AppServer(
        HOST,
        lambda port: [
            _python(),
            "-m",
            "trac.web.standalone",
            "--single-env",
            *f"--hostname 127.0.0.1 --port {port}".split(),
            str(environment),
        ],
        log=folder / "tracd.log",
        ready_path="/wiki",
        cwd=folder,
    )


_ORDERS = ("id", "summary", "owner", "component", "milestone", "priority")


def observed_urls() -> list[str]:
    """The observed-URL log of the tracker: custom queries, reports and wiki history."""
    base = f"http://{HOST}"
    return [
        *(
            f"{base}/query?status={s}&order={o}"
            for s, o in zip(STATUSES * 2, _ORDERS + _ORDERS[:4], strict=True)
        ),
        *(f"{base}/query?status=!closed&max={n}" for n in (5, 10, 15, 20)),
        *(f"{base}/query?status={s}&max={n}" for s, n in (("new", 3), ("accepted", 4))),
        f"{base}/query?status=reopened&max=6",
        # Nine tickets a milestone: at ten a page the page number does nothing (a page past
        # the last is ignored while every ticket fits on one), at five it turns pages.
        *(
            f"{base}/query?milestone={MILESTONES[m]}&max=10&page={p}"
            for m, p in ((0, 2), (1, 1), (2, 3), (3, 2), (0, 1), (1, 3), (2, 2), (3, 1), (0, 3))
        ),
        *(
            f"{base}/query?milestone={MILESTONES[m]}&max=5&page={p}"
            for m, p in ((0, 2), (1, 1), (2, 2), (3, 2), (1, 2))
        ),
        *(
            f"{base}/report/1?sort={c}&asc={a}"
            for c, a in (
                ("summary", 1),
                ("owner", 0),
                ("component", 1),
                ("created", 0),
                ("milestone", 1),
            )
        ),
        *(f"{base}/report/2?sort={c}&asc=0" for c in ("summary", "owner")),
        *(f"{base}/wiki/{page}?version={v}" for page in WIKI_PAGES for v in (1, 2)),
        *(f"{base}/report/{n}?USER={u}" for n, u in zip((1, 2, 3, 4, 1), OWNERS, strict=True)),
    ]


_QUERY = "trac/ticket/query.py, QueryModule.process_request"
TRUTH: dict[str, dict[str, Expected]] = {
    "order&status": {
        "status": non_neutral(
            f"{_QUERY}: every ticket field named in the query string is a filter"
            " (_get_constraints; TracQuery: 'Using TracLinks')"
        ),
        "order": non_neutral(
            f"{_QUERY}: order is the sort field of the results (TracQuery); only"
            " order=priority, the default, leaves them as they are"
        ),
    },
    "max&status": {
        "status": non_neutral(f"{_QUERY}: status is a filter"),
        "max": non_neutral(
            f"{_QUERY}: max is the number of tickets a results page shows (default 100);"
            " every observed value is below the number of matching tickets"
        ),
    },
    "max&milestone&page": {
        "milestone": non_neutral(f"{_QUERY}: milestone is a filter"),
        "max": non_neutral(
            f"{_QUERY}: max is the number of tickets a results page shows (default 100);"
            " max=5 shows five of a milestone's nine"
        ),
        "page": non_neutral(
            "trac/ticket/query.py, Query.execute: the page of results, offset max*(page-1);"
            " ignored while every ticket fits on one page (num_items <= max), which is so at"
            " max=10, and not at max=5, where page=2 shows tickets 6 to 9"
        ),
    },
    "asc&sort": {
        "sort": non_neutral(
            "trac/ticket/report.py, ReportModule._render_view: sort orders the rows by"
            " that column (TracReports, 'Changing Sort Order')"
        ),
        "asc": non_neutral(
            "trac/ticket/report.py, ReportModule._render_view: asc=0 sorts descending,"
            " asc=1 (the default) ascending. asc takes two values, fewer than min_samples:"
            " it is decided value by value (asc=1 a default, asc=0 a change)"
        ),
    },
    "version": {
        "version": non_neutral(
            "trac/wiki/web_ui.py, WikiModule.process_request: version= shows that older"
            " revision of the page (TracWiki, 'Page history')"
        ),
    },
    "USER": {
        "USER": neutral(
            "trac/ticket/report.py, ReportModule.get_var_args/sql_sub_vars: upper-case"
            " arguments only fill $NAME variables of the report's SQL; reports 1-4 of"
            " trac/db_default.py have none (TracReports, 'Advanced Reports: Dynamic Variables')"
        ),
    },
}
