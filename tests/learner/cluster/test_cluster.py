"""The learner on a local Ray: the verdicts of the single-process run, through an actor's death.

One local Ray instance (two CPUs) serves the module. The Ray runs execute a plan made by
DuckDB from the fixture's URL log, so they also check that ``crawl --plan`` studies what
``crawl --urls`` studies. Actors are killed (and left to Ray to restart) once their domain's
checkpoint holds lines: the test waits on the file, never on a clock.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from learner.demo.server import SiteServer
from learner.plan.domains import DomainPlan, PlanSettings
from learner.plan.files import read_plan, write_plan
from learner.plan.logs import plan_files
from learner.plan.targets import parse_target
from learner.render.browser import BrowserChoice
from learner.run.crawl import CrawlResult
from samepage import load_learned
from tests.plugins.engines import engine
from tests.site.checks import verdicts
from tests.site.fixture import observed_urls
from tests.site.learner_settings import SUITE_CONFIG

pytestmark = pytest.mark.browser

HOST = "news.test"
TARGETS = [parse_target(f"http://{HOST}")]
SETTINGS = PlanSettings(SUITE_CONFIG.top_patterns, SUITE_CONFIG.samples, SUITE_CONFIG.seed)


@pytest.fixture(scope="module")
def ray_local() -> Iterator[Any]:
    ray = engine("ray")
    engine("duckdb")
    ray.init(
        num_cpus=2,
        include_dashboard=False,
        logging_level="WARNING",
        runtime_env={"env_vars": {"NO_PROXY": "*"}},
    )
    yield ray
    ray.shutdown()


@pytest.fixture(scope="module")
def plan(tmp_path_factory: pytest.TempPathFactory) -> dict[str, DomainPlan]:
    folder = tmp_path_factory.mktemp("plan")
    log = folder / "urls.txt"
    log.write_text("\n".join(observed_urls()) + "\n")
    write_plan(plan_files(TARGETS, [str(log)], SETTINGS), str(folder / "plan.parquet"), SETTINGS)
    settings, plans = read_plan(str(folder / "plan.parquet"))
    assert settings == SETTINGS
    return plans


async def _lines(path: Path, least: int, deadline_s: float = 120.0) -> int:
    """Wait until the checkpoint ``path`` holds ``least`` complete lines; how many it holds."""
    loop = asyncio.get_running_loop()
    end = loop.time() + deadline_s
    while loop.time() < end:
        if path.exists():
            count = path.read_bytes().count(b"\n")
            if count >= least:
                return count
        await asyncio.sleep(0.05)
    raise AssertionError(f"{path} never held {least} lines")


async def _run_and_kill(
    ray: Any,
    folder: Path,
    plan: dict[str, DomainPlan],
    server: SiteServer,
    browser: BrowserChoice,
    *,
    attempts: int,
    kill_after: int,
) -> tuple[CrawlResult, int]:
    from learner.cluster.driver import crawl_on_ray
    from learner.cluster.worker import domain_folder

    actors: dict[str, Any] = {}
    assigned = asyncio.Event()
    loop = asyncio.get_running_loop()

    def note(key: str, actor: Any) -> None:  # called from the thread that runs the pool
        actors[key] = actor
        loop.call_soon_threadsafe(assigned.set)

    run = asyncio.ensure_future(
        crawl_on_ray(
            TARGETS,
            config=SUITE_CONFIG,
            out=folder / "learned.json",
            cache=folder / "run",
            plan=plan,
            resolve=server.resolve(),
            browser=browser.executable,
            attempts=attempts,
            on_assign=note,
        )
    )
    checkpoint = domain_folder(folder / "run", HOST) / "checkpoint.jsonl"
    await asyncio.wait_for(assigned.wait(), 60)
    # Once the checkpoint holds lines the task is running: killing the actor earlier would
    # only delay a task that Ray had not yet delivered to it.
    lines = await _lines(checkpoint, kill_after)
    assert not run.done()
    ray.kill(actors[HOST], no_restart=False)  # Ray restarts it and retries its task
    return await run, lines


@pytest.mark.ray
async def test_an_actor_killed_mid_domain_is_retried_and_publishes_the_same_set(
    ray_local: Any,
    plan: dict[str, DomainPlan],
    fixture_run: CrawlResult,
    fixture_server: SiteServer,
    browser_choice: BrowserChoice,
    tmp_path: Path,
) -> None:
    result, at_kill = await _run_and_kill(
        ray_local, tmp_path, plan, fixture_server, browser_choice, attempts=3, kill_after=2
    )
    # The single-process run of the same observed URLs reached the very same verdicts.
    assert verdicts(result.learned) == {HOST: verdicts(fixture_run.learned)[HOST]}
    assert verdicts(load_learned(tmp_path / "learned.json")) == verdicts(result.learned)
    stats = result.stats
    assert stats["ray"]["failed"] == {}
    # The retry read back what the killed actor had checkpointed, and redid none of it.
    assert at_kill >= 2
    assert stats["domains"][HOST]["resumed_comparisons"] >= at_kill
    from learner.cluster.worker import domain_folder

    records = [
        json.loads(line)["pair"]
        for line in (domain_folder(tmp_path / "run", HOST) / "checkpoint.jsonl")
        .read_text()
        .splitlines()
    ]
    pairs = [(r["original"], r["candidate"]) for r in records]
    assert len(pairs) == len(set(pairs))
    assert json.loads((tmp_path / "run" / "stats.json").read_text())["ray"] == stats["ray"]


@pytest.mark.ray
async def test_a_domain_that_fails_every_attempt_is_reported_and_left_out(
    ray_local: Any,
    plan: dict[str, DomainPlan],
    fixture_server: SiteServer,
    browser_choice: BrowserChoice,
    tmp_path: Path,
) -> None:
    result, _ = await _run_and_kill(
        ray_local, tmp_path, plan, fixture_server, browser_choice, attempts=1, kill_after=1
    )
    assert result.learned.domains == {}
    assert list(result.stats["ray"]["failed"]) == [HOST]
    (stats,) = result.domains
    assert stats.error is not None and stats.error == result.stats["ray"]["failed"][HOST]
    assert stats.error.startswith("not learned after 1 attempt(s): Actor")
    assert json.loads((tmp_path / "learned.json").read_text())["domains"] == {}
