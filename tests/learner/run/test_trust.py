"""No "neutral" that the evidence cannot support: late and lazy content, walls, hangs, resume.

Each site of ``tests/site/trust.py`` is built the way real sites fool a naive renderer; the
learner runs on them in real Chromium and its verdicts must be exactly the truth, whether the
run went through at once, was rerun, or was killed at several points and resumed.
"""

from __future__ import annotations

import asyncio
import json
import signal
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
import pytest_asyncio

from learner.demo.server import SiteServer
from learner.plan.targets import parse_target
from learner.render.browser import BrowserChoice
from learner.report.build import write_report
from learner.run.crawl import CrawlResult, crawl
from samepage import load_learned
from tests.site.checks import assert_merges_only_same_pages, verdicts
from tests.site.learner_settings import SUITE_CONFIG, config_toml
from tests.site.trust import (
    HANG,
    TRUST_HOSTS,
    TRUST_TRUTH,
    trust_different_pairs,
    trust_same_pairs,
    trust_sites,
    trust_urls,
)

pytestmark = pytest.mark.browser

HOSTS = (*TRUST_HOSTS, HANG)


@pytest.fixture(scope="module")
def trust_server() -> Iterator[SiteServer]:
    with SiteServer(trust_sites()) as server:
        yield server


@pytest_asyncio.fixture(loop_scope="session", scope="module")
async def trust_run(
    trust_server: SiteServer,
    browser_choice: BrowserChoice,
    tmp_path_factory: pytest.TempPathFactory,
) -> CrawlResult:
    folder = tmp_path_factory.mktemp("trust")
    return await crawl(
        [parse_target(f"http://{host}") for host in HOSTS],
        config=SUITE_CONFIG,
        out=folder / "learned.json",
        cache=folder / "run",
        observed=trust_urls(hang=True),
        resolve=trust_server.resolve(),
        browser=browser_choice.executable,
    )


def test_verdicts_are_exactly_the_truth(trust_run: CrawlResult) -> None:
    learned = verdicts(trust_run.learned)
    assert {h: learned[h] for h in TRUST_HOSTS} == TRUST_TRUTH


def test_neutral_verdicts_rest_on_samples_from_every_path(trust_run: CrawlResult) -> None:
    # id&slot spans /item and /feed: the successful samples of slot cover both.
    slot = trust_run.learned.domains["late.test"].patterns["id&slot"].params["slot"]
    coverage = slot.coverage
    assert coverage is not None and coverage.paths == ("/feed", "/item")
    assert coverage.paths_tested == coverage.paths_seen == 2
    assert slot.tested >= SUITE_CONFIG.min_samples


def test_the_learned_set_merges_only_the_same_pages(trust_run: CrawlResult) -> None:
    assert_merges_only_same_pages(trust_run.out, trust_same_pairs(), trust_different_pairs())


def test_a_host_whose_pages_hang_is_given_up_early_and_kept(trust_run: CrawlResult) -> None:
    hang = trust_run.learned.domains[HANG]
    verdicts = [v for entry in hang.patterns.values() for v in entry.params.values()]
    assert verdicts and all(v.verdict == "non-neutral" and v.tested == 0 for v in verdicts)
    assert all((v.reason or "").startswith("given up") for v in verdicts)
    stats = {d.key: d for d in trust_run.domains}[HANG]
    # Two unusable originals, then the site is left: not a page timeout per sample.
    assert stats.renders == SUITE_CONFIG.give_up_after
    assert "given up with the site" in (stats.error or "")


def test_the_wall_is_recognised_from_recorded_outcomes(trust_run: CrawlResult) -> None:
    checkpoint = (trust_run.run_folder / "checkpoint.jsonl").read_text().splitlines()
    walls = [json.loads(line)["pair"] for line in checkpoint if "wall.test" in line]
    assert walls and all(p["evidence"]["original_text"] for p in walls)
    assert len({p["evidence"]["original_text"] for p in walls}) == 1


async def test_a_rerun_publishes_the_same_set_from_the_checkpoint(
    trust_run: CrawlResult,
    trust_server: SiteServer,
    browser_choice: BrowserChoice,
    tmp_path: Path,
) -> None:
    again = await crawl(
        [parse_target(f"http://{host}") for host in HOSTS],
        config=SUITE_CONFIG,
        out=tmp_path / "learned.json",
        cache=trust_run.run_folder,
        observed=trust_urls(hang=True),
        resolve=trust_server.resolve(),
        browser=browser_choice.executable,
    )
    assert again.stats["comparisons"] == 0
    assert again.stats["resumed_comparisons"] == trust_run.stats["comparisons"]
    assert verdicts(again.learned) == verdicts(trust_run.learned)


def _lines(path: Path) -> int:
    return len(path.read_text().splitlines()) if path.exists() else 0


async def test_runs_killed_at_several_points_resume_to_the_same_set(
    trust_run: CrawlResult, trust_server: SiteServer, browser_choice: BrowserChoice, tmp_path: Path
) -> None:
    hosts = ("wall.test", "lazy.test")
    (tmp_path / "domains.txt").write_text("".join(f"http://{h}\n" for h in hosts))
    urls = [u for u in trust_urls() if any(f"//{h}/" in u for h in hosts)]
    (tmp_path / "urls.txt").write_text("\n".join(urls) + "\n")
    (tmp_path / "suite.toml").write_text(config_toml(SUITE_CONFIG))
    run = tmp_path / "run"
    args = [
        sys.executable,
        "-m",
        "learner",
        "-q",
        "crawl",
        str(tmp_path / "domains.txt"),
        "--urls",
        str(tmp_path / "urls.txt"),
        "--out",
        str(tmp_path / "learned.json"),
        "--cache",
        str(run),
        "--config",
        str(tmp_path / "suite.toml"),
        *[f"--resolve={h}={trust_server.address}" for h in hosts],
    ]
    if browser_choice.executable:
        args += ["--browser", browser_choice.executable]
    for kill_at in (1, 5):
        process = await asyncio.create_subprocess_exec(
            *args, stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.DEVNULL
        )
        async with asyncio.timeout(180):
            while _lines(run / "checkpoint.jsonl") < kill_at:
                assert process.returncode is None, "the crawl ended before it was killed"
                await asyncio.sleep(0.05)
        process.send_signal(signal.SIGKILL)
        await process.wait()
        assert not (tmp_path / "learned.json").exists()
    finished = await asyncio.create_subprocess_exec(
        *args, stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.PIPE
    )
    async with asyncio.timeout(300):
        _, stderr = await finished.communicate()
    assert finished.returncode == 0, stderr.decode()
    resumed = verdicts(load_learned(tmp_path / "learned.json"))
    uninterrupted = verdicts(trust_run.learned)
    assert resumed == {h: uninterrupted[h] for h in hosts}
    pairs = [
        (json.loads(line)["pair"]["original"], json.loads(line)["pair"]["candidate"])
        for line in (run / "checkpoint.jsonl").read_text().splitlines()
    ]
    assert len(pairs) == len(set(pairs)), "a finished comparison was done twice"


def test_the_report_says_which_paths_the_samples_covered(
    trust_run: CrawlResult, tmp_path: Path
) -> None:
    index = write_report(trust_run.run_folder, tmp_path / "report")
    html = index.read_text(encoding="utf-8")
    assert "samples covered templates holding 100.0% of the URLs, 2 of 2 paths" in html
    assert "paths (<code>/feed</code>, <code>/item</code>)" in html
