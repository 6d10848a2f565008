"""End to end: the learner on the multi-site fixture, in real Chromium, then the normalizer."""

from __future__ import annotations

import asyncio
import json
import signal
import sys
from pathlib import Path

import pytest

from learner.config import LearnerConfig
from learner.demo.server import Response, Site, SiteServer
from learner.errors import RenderCause
from learner.judge.verdicts import VerdictCause, cause_of
from learner.model import Cause
from learner.plan.targets import parse_target
from learner.render.browser import BrowserChoice
from learner.run.crawl import CrawlResult, GateRefused, crawl
from learner.run.folder import read_run_folder
from samepage import load_learned
from tests.plugins.crawl import CONFIG, TARGETS
from tests.site.checks import assert_merges_only_same_pages, verdicts
from tests.site.fixture import (
    FIXTURE_HOSTS,
    NEVER_FETCHED,
    REDUNDANT,
    TRUTH,
    different_page_pairs,
    fixture_sites,
    observed_urls,
    same_page_pairs,
)

pytestmark = pytest.mark.browser


def test_verdicts_match_the_truth(fixture_run: CrawlResult) -> None:
    learned = verdicts(fixture_run.learned)
    for host, patterns in TRUTH.items():
        for pattern, truth in patterns.items():
            got = learned[host][pattern]
            redundant = REDUNDANT.get(host, {}).get(pattern, frozenset())
            # Of parameters that stand in for each other, at least one must be kept.
            assert any(got[n] == "non-neutral" for n in redundant) or not redundant, (
                host,
                pattern,
                got,
            )
            exact = {n: v for n, v in truth.items() if n not in redundant}
            assert {n: got[n] for n in exact} == exact, (host, pattern, got)


def test_undecided_parameters_say_why(fixture_run: CrawlResult) -> None:
    for host, domain in fixture_run.learned.domains.items():
        for pattern, entry in domain.patterns.items():
            for name, verdict in entry.params.items():
                if verdict.verdict == "non-neutral" and verdict.changed == 0:
                    assert verdict.reason, (host, pattern, name)
    hostile = {
        p: entry.params[p]
        for p, entry in fixture_run.learned.domains["hostile.test"].patterns.items()
    }
    # Pages that cannot be rendered prove nothing: every sample failed, for the cause named.
    causes = {
        "dest": (Cause.ORIGINAL_FAILED, RenderCause.OTHER_HOST),
        "file": (Cause.ORIGINAL_FAILED, RenderCause.DOWNLOAD),
        "img": (Cause.ORIGINAL_UNSETTLED, None),
        "job": (Cause.ORIGINAL_FAILED, RenderCause.BUSY),
        "step": (Cause.ORIGINAL_FAILED, RenderCause.REDIRECT_LOOP),
        "target": (Cause.ORIGINAL_FAILED, RenderCause.NON_HTTP),
    }
    pairs = read_run_folder(fixture_run.run_folder).pairs
    for name, (cause, render) in causes.items():
        verdict = hostile[name]
        assert (verdict.verdict, verdict.tested) == ("non-neutral", 0), name
        samples = [pairs[(s.url, s.candidate)] for s in verdict.samples or ()]
        assert verdict.failed > 0 and samples, name
        found = {(s.cause, s.evidence.failure and s.evidence.failure.cause) for s in samples}
        assert (cause, render) in found, (name, found)
    # A dialog is dismissed and a pop-up closed: those pages render, and their parameter matters.
    for name in ("msg", "offer"):
        assert hostile[name].verdict == "non-neutral" and hostile[name].changed >= 1, name
    # A huge page is capped (height, text); whether it renders in time or not, it is kept.
    huge = hostile["seed"]
    assert huge.verdict == "non-neutral" and (huge.changed >= 1 or huge.failed > 0)


def test_robots_disallowed_paths_are_never_fetched(
    fixture_run: CrawlResult, fixture_server: SiteServer
) -> None:
    for host, prefixes in NEVER_FETCHED.items():
        fetched = [r.path for r in fixture_server.requests_for(host)]
        assert fetched, host
        assert not [p for p in fetched if p.startswith(prefixes)], host
    private = fixture_run.learned.domains["shop.test"].patterns["account&token"].params["token"]
    assert private.verdict == "non-neutral" and "robots" in (private.reason or "")


def test_learned_file_merges_same_pages_and_keeps_different_apart(fixture_run: CrawlResult) -> None:
    assert_merges_only_same_pages(fixture_run.out, same_page_pairs(), different_page_pairs())


def test_the_closing_summary_says_what_was_decided_and_what_it_cost(
    fixture_run: CrawlResult, capsys: pytest.CaptureFixture[str]
) -> None:
    from learner.cli import _print_summary

    _print_summary(fixture_run)
    printed = capsys.readouterr().out
    stats = fixture_run.stats
    assert f"decided by evidence: {stats['decided']} of {stats['studied']} studied" in printed
    assert f"renders {stats['renders']} in {stats['seconds']:.1f}s" in printed
    assert f"{stats['renders_per_studied']:.1f} per studied parameter" in printed


def test_stats_and_evidence_are_written(fixture_run: CrawlResult) -> None:
    stats = json.loads((fixture_run.run_folder / "stats.json").read_text())
    assert stats["renders"] == sum(d["renders"] for d in stats["domains"].values()) > 0
    assert stats["renders_per_studied"] == round(stats["renders"] / stats["studied"], 2)
    shop_stats = stats["domains"]["shop.test"]
    studied = shop_stats["decided"]["studied"]
    assert shop_stats["renders_per_studied"] == round(shop_stats["renders"] / studied, 2)
    assert set(stats["domains"]) == set(FIXTURE_HOSTS)
    assert stats["settings"]["samples"] == 4
    thumbs = list((fixture_run.run_folder / "evidence").glob("*.jpg"))
    assert thumbs and sum(p.stat().st_size for p in thumbs) == stats["evidence_bytes"]
    written = load_learned(fixture_run.out)
    assert written.settings["samples"] == 4
    assert written.domains["shop.test"].renders == stats["domains"]["shop.test"]["renders"]
    # How much each domain decided, and the verdicts' typed causes behind it.
    shop = stats["domains"]["shop.test"]["decided"]
    params = [v for p in written.domains["shop.test"].patterns.values() for v in p.params.values()]
    assert shop["studied"] == len(params)
    assert shop["decided"] == sum(cause_of(v).decided for v in params) > 0
    assert shop["studied"] - shop["decided"] == sum(shop["kept"].values())
    assert all(v.cause is not None for v in params)
    assert stats["studied"] == sum(d["decided"]["studied"] for d in stats["domains"].values())


async def test_rerun_resumes_everything_and_the_gate_refuses_flips(
    fixture_run: CrawlResult,
    fixture_server: SiteServer,
    browser_choice: BrowserChoice,
    tmp_path: Path,
) -> None:
    # The previously published set kept "sessionid"; the new run finds it neutral.
    previous = fixture_run.learned.to_json()
    params = previous["domains"]["shop.test"]["patterns"]["color&id&sessionid&trk"]["params"]
    params["sessionid"]["verdict"] = "non-neutral"
    previous_path = tmp_path / "previous.json"
    previous_path.write_text(json.dumps(previous), encoding="utf-8")
    out = tmp_path / "learned.json"
    kwargs = dict(
        config=LearnerConfig(
            **{**CONFIG.to_json(), "render": CONFIG.render, "gate_max_flip_fraction": 0.05}
        ),
        out=out,
        cache=fixture_run.run_folder,
        observed=observed_urls(),
        resolve=fixture_server.resolve(),
        browser=browser_choice.executable,
        previous=previous_path,
    )
    with pytest.raises(GateRefused) as refused:
        await crawl(TARGETS, **kwargs)  # type: ignore[arg-type]
    assert not out.exists()
    assert [(f.param, f.old, f.new) for f in refused.value.diff.dangerous] == [
        ("sessionid", "non-neutral", "neutral")
    ]
    assert refused.value.kept_at.exists()
    forced = await crawl(TARGETS, **kwargs, force=True)  # type: ignore[arg-type]
    assert out.exists()
    # Every comparison came from the checkpoint: only the failed originals render again.
    assert forced.stats["comparisons"] == 0
    assert forced.stats["resumed_comparisons"] >= fixture_run.stats["comparisons"]
    assert verdicts(forced.learned) == verdicts(fixture_run.learned)


async def test_killed_run_resumes_without_repeating_finished_work(
    fixture_server: SiteServer, browser_choice: BrowserChoice, tmp_path: Path
) -> None:
    domains = tmp_path / "domains.txt"
    domains.write_text("# the fixture shop\nhttp://shop.test\n", encoding="utf-8")
    urls = tmp_path / "urls.txt"
    urls.write_text(
        "\n".join(u for u in observed_urls() if "shop.test/product" in u), encoding="utf-8"
    )
    args = [
        sys.executable,
        "-m",
        "learner",
        "-q",
        "crawl",
        str(domains),
        "--urls",
        str(urls),
        "--out",
        str(tmp_path / "learned.json"),
        "--cache",
        str(tmp_path / "run"),
        "--resolve",
        f"shop.test={fixture_server.address}",
        "--samples",
        "4",
        "--min-samples",
        "3",
        "--delay",
        "0",
        "--timeout",
        "6",
    ]
    if browser_choice.executable:
        args += ["--browser", browser_choice.executable]
    process = await asyncio.create_subprocess_exec(
        *args, stderr=asyncio.subprocess.DEVNULL, stdout=asyncio.subprocess.DEVNULL
    )
    checkpoint = tmp_path / "run" / "checkpoint.jsonl"
    async with asyncio.timeout(120):
        # Waits on the checkpoint itself: three finished comparisons, then the kill.
        while not checkpoint.exists() or len(checkpoint.read_text().splitlines()) < 3:
            assert process.returncode is None, "the crawl ended before it was killed"
            await asyncio.sleep(0.05)
    process.send_signal(signal.SIGKILL)
    await process.wait()
    assert not (tmp_path / "learned.json").exists()
    lines = (tmp_path / "run" / "checkpoint.jsonl").read_text().splitlines()
    assert len(lines) >= 3
    done = {
        (json.loads(line)["pair"]["original"], json.loads(line)["pair"]["candidate"])
        for line in lines
    }

    resumed = await asyncio.create_subprocess_exec(
        *args, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.DEVNULL
    )
    async with asyncio.timeout(300):
        stdout, _ = await resumed.communicate()
    assert resumed.returncode == 0, stdout.decode()
    stats = json.loads((tmp_path / "run" / "stats.json").read_text())
    assert stats["resumed_comparisons"] == len(done)
    after = (tmp_path / "run" / "checkpoint.jsonl").read_text().splitlines()
    pairs = [
        (json.loads(line)["pair"]["original"], json.loads(line)["pair"]["candidate"])
        for line in after
    ]
    # No finished comparison was done a second time.
    assert len(pairs) == len(set(pairs))
    verdicts = (
        load_learned(tmp_path / "learned.json")
        .domains["shop.test"]
        .patterns["color&id&sessionid&trk"]
    )
    assert {n: v.verdict for n, v in verdicts.params.items()} == TRUTH["shop.test"][
        "color&id&sessionid&trk"
    ]


async def _crawl_one_site(
    site: Site, urls: list[str], tmp_path: Path, browser_choice: BrowserChoice
) -> CrawlResult:
    """Learn ``site`` from ``urls`` with three samples a parameter, in ``tmp_path``."""
    config = LearnerConfig(
        samples=3, min_samples=3, delay_s=0.0, jitter_s=0.0, render=CONFIG.render
    )
    with SiteServer([site]) as server:
        return await crawl(
            [parse_target(f"http://{site.host}")],
            config=config,
            out=tmp_path / "learned.json",
            cache=tmp_path / "run",
            observed=urls,
            resolve=server.resolve(),
            browser=browser_choice.executable,
        )


async def test_a_site_that_serves_one_page_for_everything_keeps_every_parameter(
    browser_choice: BrowserChoice, tmp_path: Path
) -> None:
    # A block or consent page served for every URL: no parameter "changes" anything, which
    # proves nothing. The learner must keep every parameter rather than call them neutral.
    site = Site("blocked.test")
    wall = Response(body="<html><body><h1>Access denied</h1><p>Please try later.</p></body></html>")
    for path in ("/a", "/b", "/c"):
        site.routes[path] = lambda request: wall
    urls = [f"http://blocked.test/{'abc'[n % 3]}?id={n}&ref=x{n}" for n in range(1, 10)]
    result = await _crawl_one_site(site, urls, tmp_path, browser_choice)
    params = result.learned.domains["blocked.test"].patterns["id&ref"].params
    assert {n: v.verdict for n, v in params.items()} == {"id": "non-neutral", "ref": "non-neutral"}
    assert all(cause_of(v) is VerdictCause.ONE_PAGE for v in params.values())
    assert result.domains[0].error is not None


async def test_a_crawl_that_learns_nothing_says_so_loudly_and_publishes_nothing_neutral(
    browser_choice: BrowserChoice, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    # Every page holds a request open: no original ever settles, so nothing can be decided.
    site = Site("held.test")
    page = Response(
        body="<!doctype html><title>t</title><h1>Item</h1><input name=q>"
        "<script>fetch('/api/held')</script>"
    )
    for path in ("/a", "/b"):
        site.routes[path] = lambda request: page
    site.routes["/api/held"] = lambda request: (request.stopping.wait(60), Response())[1]
    urls = [f"http://held.test/{'ab'[n % 2]}?id={n}&tab=x{n}" for n in range(1, 9)]
    result = await _crawl_one_site(site, urls, tmp_path, browser_choice)
    params = result.learned.domains["held.test"].patterns["id&tab"].params
    assert not any(v.neutral for v in params.values())
    found = result.domains[0].account
    assert (found.studied, found.decided) == (2, 0)
    assert found.kept == {"failed-samples": 2}
    [said] = found.failures["failed-samples"]
    assert said.startswith("original-unsettled: requests still in flight")
    warned = [r.getMessage() for r in caplog.records if r.levelname == "WARNING"]
    assert any(
        m.startswith("held.test: 2 of 2 studied parameters kept") and "failed-samples" in m
        for m in warned
    ), warned
    stats = json.loads((tmp_path / "run" / "stats.json").read_text())
    assert stats["domains"]["held.test"]["decided"]["decided_share"] == 0.0


async def test_without_a_url_log_urls_are_discovered_and_robots_obeyed(
    browser_choice: BrowserChoice, tmp_path: Path
) -> None:
    # A fresh server: its request log then holds only this run's requests.
    with SiteServer(fixture_sites()) as server:
        result = await crawl(
            [parse_target("http://shop.test")],
            config=LearnerConfig(**{**CONFIG.to_json(), "render": CONFIG.render, "samples": 3}),
            out=tmp_path / "learned.json",
            cache=tmp_path / "run",
            resolve=server.resolve(),
            browser=browser_choice.executable,
        )
        paths = {r.path for r in server.requests_for("shop.test")}
    assert {"/robots.txt", "/sitemap.xml"} <= paths
    assert not [p for p in paths if p.startswith(NEVER_FETCHED["shop.test"])]
    learned = result.learned.domains["shop.test"].patterns
    assert result.domains[0].urls > 10 and learned
    # Discovered URLs are few per pattern: whatever is called neutral had enough samples.
    for entry in learned.values():
        for verdict in entry.params.values():
            assert verdict.verdict == "non-neutral" or verdict.tested >= 3
    assert learned["color&id"].params["id"].verdict == "non-neutral"
