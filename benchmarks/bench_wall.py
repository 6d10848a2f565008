"""A whole crawl at the learner's default politeness: wall time, against other code and naive.

Run from the repository root (needs Chromium, ``samepage[apps]`` and ``.venv-trac``)::

    python -m benchmarks.bench_wall --baseline ../samepage-main

The suite's three real applications (Datasette, Sphinx, Trac) and the fixture's shop and news
sites are served on 127.0.0.1, all at once, and learned in one ``python -m learner crawl``
at the learner's default politeness (``delay`` 1.0 s plus up to 0.5 s jitter, one page
sending to a host at a time, the default ``--concurrency``), with the suite's method and
render settings (``tests/apps/registry.py``: no default values). Timed, side by side:

1. **learner**: this checkout's learner.
2. **baseline** (with ``--baseline DIR``): the learner of another checkout (say, the main
   branch before a change), the same command from that directory.
3. **naive**: a naive MIQPS run at the same politeness with bare Playwright (new context,
   ``goto`` until load, one full-page screenshot): every parameter of every sample the
   learner would pick rendered with and without it, at most ``--concurrency`` pages at once.

The CPU is sampled from ``/proc/stat`` over each run (busy share of all cores).
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import json
import os
import platform
import random
import sys
import tempfile
import time
from collections.abc import Sequence
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path

from playwright.async_api import async_playwright

from benchmarks.bench_learner import CpuSampler, bare_renderer, paced, site_urls, timed_pass
from learner.config import LearnerConfig
from learner.demo.server import SiteServer
from learner.net.fetch import fetch
from learner.net.limiter import HostLimiter
from learner.net.robots import RobotsPolicy
from learner.plan.domains import PlanSettings
from learner.plan.picks import Picker
from learner.plan.sampling import group_by_pattern, sample_seed, without_param
from learner.plan.targets import Target, parse_target
from learner.render.browser import find_browser
from samepage import MIQPSNormalizer
from tests.apps.registry import APPS, APPS_CONFIG
from tests.learner.render.differential import launch_plain
from tests.site.fixture import fixture_sites, observed_urls
from tests.site.learner_settings import config_toml

FIXTURE_HOSTS = ("shop.test", "news.test")


@dataclass(frozen=True, slots=True)
class Timed:
    name: str
    seconds: float
    renders: int
    cpu_busy: float  # share of all cores busy over the run
    by_host: dict[str, int] = dataclasses.field(default_factory=dict)
    """Renders per host (the learner's runs; ``stats.json``)."""


def run_config(concurrency: int | None) -> LearnerConfig:
    """The suite's method and render settings at the learner's default politeness."""
    polite = LearnerConfig()
    return dataclasses.replace(
        APPS_CONFIG,
        delay_s=polite.delay_s,
        jitter_s=polite.jitter_s,
        per_host=polite.per_host,
        concurrency=concurrency or polite.concurrency,
    )


async def crawl_with(
    name: str,
    checkout: Path,
    folder: Path,
    hosts: Sequence[str],
    urls: Sequence[str],
    resolve: dict[str, str],
    config: LearnerConfig,
    concurrency: int | None,
    executable: str | None,
) -> Timed:
    """Run ``python -m learner crawl`` of ``checkout`` on ``hosts``; time it.

    ``concurrency`` ``None`` lets the checkout's learner use its own default.
    """
    folder.mkdir(parents=True)
    (folder / "domains.txt").write_text("".join(f"http://{h}\n" for h in hosts))
    (folder / "urls.txt").write_text("\n".join(urls) + "\n")
    toml = config_toml(config)
    if concurrency is None:  # the checkout's own default
        toml = "".join(line + "\n" for line in toml.splitlines() if "concurrency" not in line)
    (folder / "settings.toml").write_text(toml)
    args = [
        sys.executable,
        "-m",
        "learner",
        "-q",
        "crawl",
        str(folder / "domains.txt"),
        "--urls",
        str(folder / "urls.txt"),
        "--out",
        str(folder / "learned.json"),
        "--cache",
        str(folder / "run"),
        "--config",
        str(folder / "settings.toml"),
        *(["--concurrency", str(concurrency)] if concurrency is not None else []),
        *[f"--resolve={host}={address}" for host, address in resolve.items()],
    ]
    if executable:
        args += ["--browser", executable]
    cpu = CpuSampler()
    started = time.perf_counter()
    process = await asyncio.create_subprocess_exec(
        *args, cwd=checkout, stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.PIPE
    )
    _, stderr = await process.communicate()
    seconds = time.perf_counter() - started
    if process.returncode != 0:
        raise RuntimeError(f"{name}: crawl failed: {stderr.decode()[-2000:]}")
    stats = json.loads((folder / "run" / "stats.json").read_text())
    by_host = {key: int(domain["renders"]) for key, domain in stats["domains"].items()}
    return Timed(name, seconds, int(stats["renders"]), cpu.busy(), by_host)


async def naive_urls(
    hosts: Sequence[str], urls: Sequence[str], config: LearnerConfig, resolve: dict[str, str]
) -> list[str]:
    """Every URL a naive MIQPS run renders: each sample with and without each parameter."""
    normalizer = MIQPSNormalizer()
    plain = _plain_fetch(resolve, config)
    robots = RobotsPolicy(plain, config.render.user_agent)
    out: list[str] = []
    for host in hosts:
        target: Target = parse_target(f"http://{host}")
        groups = group_by_pattern(site_urls(target, urls, normalizer), normalizer)
        for group in PlanSettings.of(config).choose(target.key, groups)[0]:
            seed = sample_seed(config.seed, target.key, group.pattern)
            samples = Picker.of(group, seed).first_picks(group.names, config.samples)
            for name in group.names:
                for url in samples[name]:
                    if await robots.allowed(url):
                        out += [url, without_param(url, name)]
    return out


def _plain_fetch(resolve: dict[str, str], config: LearnerConfig):  # type: ignore[no-untyped-def]
    async def plain(url: str):  # type: ignore[no-untyped-def]
        return await fetch(
            url,
            resolve=resolve,
            user_agent=config.render.user_agent,
            timeout_s=config.render.page_timeout_s,
        )

    return plain


async def naive_run(
    urls: Sequence[str], config: LearnerConfig, resolve: dict[str, str], executable: str | None
) -> Timed:
    """Render ``urls`` with bare Playwright at the learner's politeness; time it."""
    limiter = HostLimiter(
        delay_s=config.delay_s,
        jitter_s=config.jitter_s,
        per_host=config.per_host,
        rng=random.Random(config.seed),
    )
    async with async_playwright() as playwright:
        browser = await launch_plain(playwright, executable, resolve)
        try:
            render = paced(bare_renderer(browser, config.render), limiter)
            cpu = CpuSampler()
            done = await timed_pass("naive", render, urls, config.concurrency)
        finally:
            await browser.close()
    return Timed("naive", done.seconds, done.ok + done.failed, cpu.busy())


async def run(args: argparse.Namespace) -> int:
    apps = [APPS[name] for name in APPS]
    for app in apps:
        why = app.missing()
        if why is not None:
            print(f"bench_wall: {app.name}: {why}", file=sys.stderr)
            return 2
    config = run_config(args.concurrency)
    executable = find_browser().executable
    hosts = [app.host for app in apps] + list(FIXTURE_HOSTS)
    fixture = [u for u in observed_urls() if u.split("/")[2] in FIXTURE_HOSTS]
    urls = [url for app in apps for url in app.observed_urls()] + fixture
    here = Path(__file__).resolve().parents[1]
    results: list[Timed] = []
    with tempfile.TemporaryDirectory() as tmp, ExitStack() as stack:
        server = stack.enter_context(SiteServer(fixture_sites()))
        resolve = dict(server.resolve())
        for app in apps:
            folder = Path(tmp) / app.name
            folder.mkdir()
            resolve.update(stack.enter_context(app.serve(folder)).resolve())
        runs = [("learner", here)]
        if args.baseline is not None:
            runs.append(("baseline", args.baseline.resolve()))
        for name, checkout in runs:
            folder = Path(tmp) / f"crawl-{name}"
            results.append(
                await crawl_with(
                    name,
                    checkout,
                    folder,
                    hosts,
                    urls,
                    resolve,
                    config,
                    args.concurrency,
                    executable,
                )
            )
        if not args.no_naive:
            naive = await naive_urls(hosts, urls, config, resolve)
            results.append(await naive_run(naive, config, resolve, executable))
    report(args, config, executable, hosts, results)
    return 0


def report(
    args: argparse.Namespace,
    config: LearnerConfig,
    executable: str | None,
    hosts: Sequence[str],
    results: Sequence[Timed],
) -> None:
    print(f"## Whole crawl at default politeness ({time.strftime('%Y-%m-%d')})\n")
    print(
        f"{os.cpu_count()} cores, Python {platform.python_version()}, browser {executable}; "
        f"hosts {', '.join(hosts)}; delay {config.delay_s} s + up to {config.jitter_s} s, "
        f"per_host {config.per_host}, concurrency {args.concurrency or 'each default'}"
        f" (naive: {config.concurrency}), samples "
        f"{config.samples}, min_samples {config.min_samples}, default_values "
        f"{config.default_values}; baseline {args.baseline or '-'}\n"
    )
    print("| run | wall (s) | renders | CPU busy | renders per host |")
    print("|---|---:|---:|---:|---|")
    for timed in results:
        hosts_line = ", ".join(f"{h} {n}" for h, n in sorted(timed.by_host.items())) or "-"
        print(
            f"| {timed.name} | {timed.seconds:.1f} | {timed.renders} | {timed.cpu_busy:.0%} "
            f"| {hosts_line} |"
        )
    mean_gap = config.delay_s + config.jitter_s / 2
    for timed in results:
        if timed.by_host:
            host, most = max(timed.by_host.items(), key=lambda item: item[1])
            print(
                f"\n{timed.name}: the busiest host, {host}, had {most} renders: their starts "
                f"alone take at least {(most - 1) * config.delay_s:.0f} s at this politeness, "
                f"{(most - 1) * mean_gap:.0f} s with the mean jitter"
            )
    by_name = {t.name: t for t in results}
    learner = by_name["learner"]
    for other in ("baseline", "naive"):
        if other in by_name:
            ratio = learner.seconds / by_name[other].seconds
            print(f"\nlearner / {other} wall time: **{ratio:.2f}**")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__.splitlines()[0] if __doc__ else None,
        formatter_class=argparse.ArgumentDefaultsHelpFormatter,
    )
    parser.add_argument(
        "--baseline", type=Path, help="another checkout whose learner is timed the same way"
    )
    parser.add_argument(
        "--concurrency", type=int, help="pages open at once (default: the learner's default)"
    )
    parser.add_argument("--no-naive", action="store_true", help="skip the naive run")
    return asyncio.run(run(parser.parse_args(argv)))


if __name__ == "__main__":
    raise SystemExit(main())
