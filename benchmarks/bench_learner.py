"""Measure what the learner spends: renders against a naive MIQPS run, and render throughput.

Run from the repository root (needs Chromium, see ``docs/learner.md``)::

    python -m benchmarks.bench_learner --samples 4 --hosts shop.test,news.test

Everything runs in one process against the multi-site test fixture, served on 127.0.0.1:

1. **Renders.** The real learner (``learner.run.crawl.crawl``) studies the hosts from the fixture's
   observed-URL log, with no politeness delay. A naive MIQPS run of the same settings renders,
   for every parameter of every studied pattern, the original and the URL without the
   parameter on each of up to ``--samples`` sample URLs: no sharing between parameters, no
   early exit, no cache. It is counted from the same sample choice the learner makes.
2. **Throughput.** The same list of fixture URLs (robots.txt allowed, hostile.test left out)
   is rendered by the learner's ``Renderer`` and by bare Playwright (a new context,
   ``goto(wait_until="load")``, one full-page screenshot, close) with the same Chromium, the
   same flags and the same concurrency. Rounds alternate which of the two goes first, so
   both see the same machine load; only their ratio is meant to be compared across runs.
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import functools
import os
import platform
import random
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from playwright.async_api import Browser, async_playwright

from learner.config import LearnerConfig, RenderSettings
from learner.demo.server import SiteServer
from learner.net.fetch import fetch
from learner.net.limiter import HostLimiter
from learner.net.robots import RobotsPolicy
from learner.plan.coverage import floor_share
from learner.plan.domains import PlanSettings
from learner.plan.picks import Picker
from learner.plan.sampling import group_by_pattern, sample_seed
from learner.plan.targets import Target, parse_target
from learner.render.browser import find_browser
from learner.render.renderer import Renderer
from learner.run.crawl import CrawlResult, crawl
from samepage import MIQPSNormalizer, url_host
from tests.learner.render.differential import launch_plain
from tests.site.fixture import fixture_sites, observed_urls
from tests.site.learner_settings import SUITE_CONFIG
from tests.site.tail_site import tail_site, tail_urls

RenderOne = Callable[[str], Awaitable[None]]


@dataclass(frozen=True, slots=True)
class DomainCost:
    """Renders one domain cost the learner, and what a naive run would have cost."""

    host: str
    patterns: int
    params: int
    learner: int
    naive: int
    naive_allowed: int  # naive renders of URLs robots.txt allows
    covered: float = 1.0
    """The share of the host's URLs with parameters the studied patterns cover."""
    decided: int = 0
    """Studied parameters decided by evidence."""
    patterns_left: int = 0


@dataclass(slots=True)
class Pass:
    """One timed pass of a renderer over the URL list."""

    name: str
    seconds: float
    ok: int
    failed: int
    cpu_busy: float = 0.0
    """Share of all cores busy over the pass (``/proc/stat``: the browser's work included)."""

    @property
    def pages_per_second(self) -> float:
        return self.ok / self.seconds if self.seconds else 0.0

    @property
    def cpu_seconds_per_page(self) -> float:
        """CPU seconds of the whole machine per page rendered."""
        pages = self.ok + self.failed
        return self.cpu_busy * (os.cpu_count() or 1) * self.seconds / pages if pages else 0.0


class CpuSampler:
    """Busy share of all cores between start and stop, from ``/proc/stat``."""

    def __init__(self) -> None:
        self._start = self._read()

    @staticmethod
    def _read() -> tuple[int, int]:
        with open("/proc/stat") as stat:
            fields = [int(x) for x in stat.readline().split()[1:]]
        idle = fields[3] + fields[4]  # idle and iowait
        return sum(fields) - idle, sum(fields)

    def busy(self) -> float:
        busy, total = self._read()
        busy0, total0 = self._start
        return (busy - busy0) / max(1, total - total0)


def bench_config(samples: int, min_samples: int, concurrency: int) -> LearnerConfig:
    """The learner settings of the benchmark: the test suite's, without politeness delay."""
    return dataclasses.replace(
        SUITE_CONFIG,
        samples=samples,
        min_samples=min(min_samples, samples),
        concurrency=concurrency,
    )


def site_urls(target: Target, urls: Sequence[str], normalizer: MIQPSNormalizer) -> list[str]:
    """The observed URLs of one site, as the learner selects them."""
    out = []
    for url in urls:
        try:
            if target.covers(normalizer.static_url(url)):
                out.append(url)
        except ValueError:
            continue
    return out


async def naive_cost(
    target: Target,
    urls: Sequence[str],
    config: LearnerConfig,
    normalizer: MIQPSNormalizer,
    robots: RobotsPolicy,
) -> tuple[int, int, int, int]:
    """Patterns, parameters, naive renders and naive renders of allowed URLs of one site."""
    groups = group_by_pattern(site_urls(target, urls, normalizer), normalizer)
    chosen, _ = PlanSettings.of(config).choose(target.key, groups)
    params = naive = allowed = 0
    for group in chosen:
        seed = sample_seed(config.seed, target.key, group.pattern)
        samples = Picker.of(group, seed).first_picks(group.names, config.samples)
        for name in group.names:
            params += 1
            naive += 2 * len(samples[name])
            for url in samples[name]:
                allowed += 2 * await robots.allowed(url)
    return len(chosen), params, naive, allowed


async def throughput_urls(
    hosts: Sequence[str], urls: Sequence[str], robots: RobotsPolicy, count: int
) -> list[str]:
    """A seeded sample of the fixture's URLs of ``hosts`` that robots.txt allows."""
    picked = []
    for url in urls:
        host = url.split("/")[2]
        if host in hosts and host != "hostile.test" and await robots.allowed(url):
            picked.append(url)
    random.Random(0).shuffle(picked)
    return picked[:count]


async def timed_pass(name: str, render: RenderOne, urls: Sequence[str], limit: int) -> Pass:
    """Render every URL, at most ``limit`` at once, and time the whole batch."""
    gate = asyncio.Semaphore(limit)
    failed = 0

    async def one(url: str) -> None:
        nonlocal failed
        async with gate:
            try:
                await render(url)
            except Exception as exc:
                failed += 1
                print(f"{name}: {url}: {exc}", file=sys.stderr)

    cpu = CpuSampler()
    started = time.perf_counter()
    await asyncio.gather(*(one(url) for url in urls))
    seconds = time.perf_counter() - started
    return Pass(name, seconds, len(urls) - failed, failed, cpu.busy())


def bare_renderer(browser: Browser, settings: RenderSettings) -> RenderOne:
    """Plain Playwright: new context, goto until load, one full-page screenshot, close."""
    size = {"width": settings.viewport_width, "height": settings.viewport_height}

    async def render(url: str) -> None:
        context = await browser.new_context(viewport=size)  # type: ignore[arg-type]
        try:
            page = await context.new_page()
            await page.goto(url, wait_until="load", timeout=settings.page_timeout_s * 1000)
            await page.screenshot(full_page=True, timeout=settings.page_timeout_s * 1000)
        finally:
            await context.close()

    return render


def paced(render: RenderOne, limiter: HostLimiter) -> RenderOne:
    """``render`` inside the learner's per-host slot: its delay, jitter and per-host limit."""

    async def render_paced(url: str) -> None:
        async with limiter.slot(url_host(url)):
            await render(url)

    return render_paced


def learner_renderer(renderer: Renderer, limiter: HostLimiter | None = None) -> RenderOne:
    """The learner's renderer; with ``limiter``, paced as in a run (its host turn)."""

    async def render(url: str) -> None:
        if limiter is None:
            await renderer.render(url)
            return
        async with limiter.turn(url_host(url)) as turn:
            await renderer.render(url, turn)

    return render


async def throughput(
    urls: Sequence[str],
    *,
    settings: RenderSettings,
    executable: str | None,
    resolve: dict[str, str],
    concurrency: int,
    rounds: int,
    pace: Callable[[], HostLimiter] | None = None,
) -> list[Pass]:
    """Alternate learner and bare passes over ``urls``; browsers launched before timing.

    With ``pace``, every timed pass renders through a new limiter from it (the same seed
    gives both renderers the same delays), as the learner renders in a run.
    """
    passes: list[Pass] = []
    async with (
        Renderer(
            settings, executable=executable, resolve=resolve, max_open_pages=concurrency
        ) as renderer,
        async_playwright() as playwright,
    ):
        browser = await launch_plain(playwright, executable, resolve)
        try:
            tools = {
                "learner": learner_renderer(renderer),
                "bare": bare_renderer(browser, settings),
            }
            for name, render in tools.items():  # warm-up, untimed
                await timed_pass(name, render, urls[: 2 * concurrency], concurrency)
            for number in range(rounds):
                order = list(tools) if number % 2 == 0 else list(reversed(tools))
                for name in order:
                    if pace is None:
                        tool = tools[name]
                    elif name == "learner":
                        tool = learner_renderer(renderer, pace())
                    else:
                        tool = paced(tools[name], pace())
                    passes.append(await timed_pass(name, tool, urls, concurrency))
        finally:
            await browser.close()
    return passes


@dataclass(frozen=True, slots=True)
class LearnerCost:
    """One timed learner run, and what each of its domains cost against a naive run."""

    result: CrawlResult
    seconds: float
    costs: list[DomainCost]
    robots: RobotsPolicy


async def learner_cost(
    targets: Sequence[Target],
    observed: Sequence[str],
    config: LearnerConfig,
    resolve: dict[str, str],
    executable: str | None,
    folder: Path,
) -> LearnerCost:
    """Crawl ``targets`` from ``observed`` (run folder in ``folder``), timed; count the costs."""
    plain = functools.partial(
        fetch,
        resolve=resolve,
        user_agent=config.render.user_agent,
        timeout_s=config.render.page_timeout_s,
    )
    robots = RobotsPolicy(plain, config.render.user_agent)
    started = time.perf_counter()
    result = await crawl(
        targets,
        config=config,
        out=folder / "learned.json",
        cache=folder / "run",
        observed=observed,
        resolve=resolve,
        browser=executable,
    )
    seconds = time.perf_counter() - started
    normalizer = MIQPSNormalizer()
    costs = []
    for target, stats in zip(targets, result.domains, strict=True):
        patterns, params, naive, allowed = await naive_cost(
            target, observed, config, normalizer, robots
        )
        choice = stats.choice
        decided = stats.account.decided
        costs.append(
            DomainCost(
                target.key,
                patterns,
                params,
                stats.renders,
                naive,
                allowed,
                choice.share,
                decided,
                len(choice.left),
            )
        )
    return LearnerCost(result, seconds, costs, robots)


async def run(args: argparse.Namespace) -> int:
    hosts = [h.strip() for h in args.hosts.split(",") if h.strip()]
    config = bench_config(args.samples, args.min_samples, args.concurrency)
    choice = find_browser()
    observed = observed_urls() + tail_urls()
    targets = [parse_target(f"http://{host}") for host in hosts]
    sites = [*fixture_sites(), tail_site()]
    with SiteServer(sites) as server, tempfile.TemporaryDirectory() as tmp:
        resolve = server.resolve()
        run = await learner_cost(targets, observed, config, resolve, choice.executable, Path(tmp))
        if args.learned is not None:
            shutil.copyfile(Path(tmp) / "learned.json", args.learned)
        urls = await throughput_urls(hosts, observed, run.robots, args.pages)
        passes: list[Pass] = []
        if args.rounds > 0:
            passes = await throughput(
                urls,
                settings=config.render,
                executable=choice.executable,
                resolve=resolve,
                concurrency=config.concurrency,
                rounds=args.rounds,
            )
    report(args, config, choice.executable, run.costs, run.seconds, run.result.stats, urls, passes)
    return 0


def report(
    args: argparse.Namespace,
    config: LearnerConfig,
    executable: str | None,
    costs: Sequence[DomainCost],
    crawl_s: float,
    stats: dict[str, object],
    urls: Sequence[str],
    passes: Sequence[Pass],
) -> None:
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(
        f"Python {platform.python_version()}, {os.cpu_count()} CPUs, load {load:.1f}, "
        f"browser {executable or 'playwright'}; samples={config.samples} "
        f"min_samples={config.min_samples} top_patterns={config.top_patterns} "
        f"cover={config.cover} "
        f"concurrency={config.concurrency} delay_s=0\n"
    )
    report_costs(costs)
    learner = sum(c.learner for c in costs)
    allowed = sum(c.naive_allowed for c in costs)
    print(
        f"\nLearner run: {crawl_s:.1f} s wall, {stats['comparisons']} comparisons, "
        f"{stats['render_failures']} failed renders. Naive renders of robots-allowed URLs "
        f"only: {allowed} (ratio {learner / allowed:.2f}).\n"
    )
    if passes:
        report_throughput(urls, args.rounds, passes)


def report_costs(costs: Sequence[DomainCost]) -> None:
    """The table of learner and naive renders per host, and their ratio."""
    print(
        "| host | patterns (left) | URLs covered | parameters | decided | learner renders "
        "| per parameter | naive renders | ratio |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for c in costs:
        print(
            f"| {c.host} | {c.patterns} ({c.patterns_left}) | {floor_share(c.covered):.1%} "
            f"| {c.params} | {c.decided} | {c.learner} | {c.learner / max(1, c.params):.2f} "
            f"| {c.naive} | {c.learner / c.naive:.2f} |"
        )
    learner = sum(c.learner for c in costs)
    naive = sum(c.naive for c in costs)
    params = sum(c.params for c in costs)
    decided = sum(c.decided for c in costs)
    print(
        f"| **all** | | | {params} | {decided} | {learner} | {learner / max(1, params):.2f} "
        f"| {naive} | **{learner / naive:.2f}** |"
    )


def report_throughput(urls: Sequence[str], rounds: int, passes: Sequence[Pass]) -> None:
    """The table of pages per second of each renderer, and the learner / bare ratio."""
    print(f"Throughput over {len(urls)} URLs, {rounds} rounds, alternating order:\n")
    columns = "pages/s (all rounds) | pages/s per round | CPU-s/page | CPU busy | failed"
    print(f"| renderer | {columns} |")
    print("|---|---:|---:|---:|---:|---:|")
    totals = {}
    for name in ("learner", "bare"):
        mine = [p for p in passes if p.name == name]
        ok = sum(p.ok for p in mine)
        seconds = sum(p.seconds for p in mine)
        totals[name] = ok / seconds
        each = ", ".join(f"{p.pages_per_second:.2f}" for p in mine)
        cpu = statistics.median(p.cpu_seconds_per_page for p in mine)
        busy = statistics.median(p.cpu_busy for p in mine)
        failed = sum(p.failed for p in mine)
        print(f"| {name} | {totals[name]:.2f} | {each} | {cpu:.3f} | {busy:.0%} | {failed} |")
    per_round = [
        a.pages_per_second / b.pages_per_second
        for a, b in zip(
            [p for p in passes if p.name == "learner"],
            [p for p in passes if p.name == "bare"],
            strict=True,
        )
    ]
    print(
        f"\nlearner / bare throughput: {totals['learner'] / totals['bare']:.2f} "
        f"(per round: {', '.join(f'{r:.2f}' for r in per_round)}; "
        f"median {statistics.median(per_round):.2f})"
    )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.bench_learner",
        description=__doc__.splitlines()[0] if __doc__ else None,
        formatter_class=argparse.ArgumentDefaultsHelpFormatter,
    )
    parser.add_argument("--samples", type=int, default=8, help="samples per parameter (S)")
    parser.add_argument("--min-samples", type=int, default=3, help="min_samples (N)")
    parser.add_argument(
        "--hosts",
        default="shop.test,news.test",
        help="fixture hosts to study (tail.test: more than twenty patterns and a long tail)",
    )
    parser.add_argument("--concurrency", type=int, default=2, help="pages open at once")
    parser.add_argument("--pages", type=int, default=30, help="URLs per throughput pass")
    parser.add_argument("--rounds", type=int, default=4, help="throughput rounds (0: none)")
    parser.add_argument(
        "--learned", type=Path, help="also write the learned set here (to compare runs)"
    )
    args = parser.parse_args(argv)
    return asyncio.run(run(args))


if __name__ == "__main__":
    raise SystemExit(main())
