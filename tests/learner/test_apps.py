"""The learner on real third-party applications: Datasette, a Sphinx site, Trac and MediaWiki.

Each application is served on 127.0.0.1 with generated content (``tests/apps``); its
observed-URL log and the verdict every studied parameter must get, with the reason from the
application's code or documentation, are beside it. A parameter kept for want of evidence
(its pages never settled, too few samples) is safe, but decides nothing: every studied
parameter here must be decided by comparisons.
"""

from __future__ import annotations

import os
import re
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from learner.judge.listed import ListedFinding
from learner.judge.verdicts import cause_of
from learner.plan.coverage import Left
from tests.apps.server import AppServer
from tests.apps.truth import Expected, studied
from tests.plugins.apps import AppRun, ServedApp

pytestmark = pytest.mark.apps

_RESOURCE = re.compile(
    r"<(?:script|img|iframe)\b[^>]*>|<link\b[^>]*rel=[\"']?(?:stylesheet|icon|preload)[^>]*>",
    re.IGNORECASE,
)
_ADDRESS = re.compile(r"(?:src|href)=[\"']?(?:https?:)?//([^/\"'>\s:]+)", re.IGNORECASE)


def test_an_application_that_dies_at_start_fails_with_its_status_and_log(tmp_path: Path) -> None:
    server = AppServer(
        "dead.test",
        lambda port: [sys.executable, "-c", f"print('no port {port} for you'); exit(3)"],
        log=tmp_path / "dead.log",
    )
    with pytest.raises(RuntimeError, match=r"dead.test: exited with status 3: no port \d+"):
        server.__enter__()


_FORKING_SERVER = """
import http.server, subprocess, sys
subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"])  # a worker
http.server.test(HandlerClass=http.server.SimpleHTTPRequestHandler, port={port}, bind="127.0.0.1")
"""


def test_an_application_stops_with_every_process_it_started(tmp_path: Path) -> None:
    # PHP's server forks its workers: stopping only the parent would leave them running.
    server = AppServer(
        "forks.test",
        lambda port: [sys.executable, "-c", _FORKING_SERVER.format(port=port)],
        log=tmp_path / "forks.log",
        cwd=tmp_path,
    )
    with server:
        assert server._process is not None
        group = server._process.pid
        os.killpg(group, 0)  # the group is there
    deadline = time.monotonic() + 5  # a killed worker is gone once it has been reaped
    with pytest.raises(ProcessLookupError):
        while time.monotonic() < deadline:
            os.killpg(group, 0)
            time.sleep(0.05)


def test_every_observed_url_answers_200_without_redirect_and_loads_nothing_from_elsewhere(
    served_app: ServedApp,
) -> None:
    server, host = served_app.server, served_app.app.host
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
    for url in served_app.app.observed_urls():
        path = url.split(host, 1)[1]
        request = urllib.request.Request(f"http://{server.address}{path}", headers={"Host": host})
        with opener.open(request, timeout=10) as response:
            assert (response.status, response.url) == (200, request.full_url), url
            page = response.read().decode("utf-8", "replace")
        # Scripts, styles, images and frames come from the application's own host.
        for tag in _RESOURCE.findall(page):
            target = _ADDRESS.search(tag)
            assert target is None or target.group(1) == host, (url, tag)


def _truth(app_run: AppRun) -> dict[str, dict[str, Expected]]:
    """The application's truth on the patterns the run studied or decided.

    A pattern is left unstudied only because those before it covered the share of URLs the
    run was asked for (``--cover``): never for its budget, its time or the cap.
    """
    (domain,) = app_run.result.domains
    assert {p.because for p in domain.choice.left} <= {Left.SHARE}
    left = {p.pattern for p in domain.choice.left}
    got = studied(app_run.result.learned, app_run.app.host)
    return {p: params for p, params in app_run.app.truth.items() if p not in left or p in got}


@pytest.mark.browser
def test_no_parameter_the_application_reads_is_neutral(app_run: AppRun) -> None:
    verdicts = studied(app_run.result.learned, app_run.app.host)
    assert set(verdicts) <= set(app_run.app.truth)
    wrong = {
        (pattern, name)
        for pattern, params in verdicts.items()
        for name, verdict in params.items()
        if verdict.verdict == "neutral" and app_run.app.truth[pattern][name].verdict != "neutral"
    }
    assert wrong == set()


@pytest.mark.browser
def test_verdicts_match_the_applications_code(app_run: AppRun) -> None:
    got = {
        pattern: {name: verdict.verdict for name, verdict in params.items()}
        for pattern, params in studied(app_run.result.learned, app_run.app.host).items()
    }
    expected = {
        pattern: {name: truth.verdict for name, truth in params.items()}
        for pattern, params in _truth(app_run).items()
    }
    assert got == expected


@pytest.mark.browser
def test_listed_names_are_kept_only_where_the_application_reads_them(app_run: AppRun) -> None:
    (domain,) = app_run.result.domains
    assert domain.listed.found == app_run.app.listed
    kept = {name for name, found in app_run.app.listed.items() if found == ListedFinding.KEPT}
    assert set(app_run.result.learned.domains[app_run.app.host].keep_listed) == kept


@pytest.mark.browser
def test_every_studied_parameter_is_decided_by_evidence(app_run: AppRun) -> None:
    verdicts = studied(app_run.result.learned, app_run.app.host)
    causes = {
        (pattern, name): cause_of(verdict)
        for pattern, params in verdicts.items()
        for name, verdict in params.items()
    }
    # Decided, or kept for the one cause the log leaves no way around.
    assert {key: cause.value for key, cause in causes.items() if not cause.decided} == {
        (pattern, name): truth.kept_for.value
        for pattern, params in _truth(app_run).items()
        for name, truth in params.items()
        if truth.kept_for is not None
    }
    decided = sum(
        truth.kept_for is None for params in _truth(app_run).values() for truth in params.values()
    )
    (domain,) = app_run.result.domains
    assert (domain.account.studied, domain.account.decided) == (len(causes), decided)
