"""Measure the learner on Ray against the single-process learner on the same plan.

Run from the repository root (needs Chromium and ``pip install -e '.[cluster]'``)::

    python -m benchmarks.bench_ray --hosts shop.test,news.test --rounds 2

The fixture sites of the test suite are served on 127.0.0.1 and planned once from their
observed-URL log (``learner.plan.domains.plan_urls``). Each round runs, in a rotating order so that
each sees the same machine load, the single-process learner (``learner.run.crawl.crawl``) and
the Ray learner (``learner.cluster.driver.crawl_on_ray``) with 1 and with 2 actors, on a local Ray
started once with 2 CPUs, each into a fresh run folder. Reported: renders, wall time,
pages per second and seconds per render (wall time over renders, actor and browser start
included; Ray's own start is not). All runs must reach the same verdicts.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import statistics
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import ray

from learner.cluster.driver import crawl_on_ray
from learner.demo.server import SiteServer
from learner.plan.domains import PlanSettings, plan_urls
from learner.plan.targets import parse_target
from learner.run.crawl import CrawlResult, crawl
from tests.site.checks import verdicts
from tests.site.fixture import fixture_sites, observed_urls
from tests.site.learner_settings import SUITE_CONFIG


async def _one(kind: str, folder: Path, hosts: Sequence[str], resolve: dict[str, str]) -> Any:
    targets = [parse_target(f"http://{h}") for h in hosts]
    settings = PlanSettings(SUITE_CONFIG.top_patterns, SUITE_CONFIG.samples, SUITE_CONFIG.seed)
    plan = {p.key: p for p in plan_urls(targets, observed_urls(), settings)}
    options: dict[str, Any] = {
        "config": SUITE_CONFIG,
        "out": folder / "learned.json",
        "cache": folder / "run",
        "plan": plan,
        "resolve": resolve,
    }
    started = time.monotonic()
    result: CrawlResult
    if kind == "single process":
        result = await crawl(targets, **options)
    else:
        result = await crawl_on_ray(targets, actors=int(kind.split()[1]), **options)
    return time.monotonic() - started, result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hosts", default="shop.test,news.test")
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args()
    hosts = args.hosts.split(",")
    kinds = ["single process", "ray 1 actor", "ray 2 actors"]
    ray.init(num_cpus=2, include_dashboard=False, logging_level=logging.WARNING)
    seconds: dict[str, list[float]] = {k: [] for k in kinds}
    renders: dict[str, list[int]] = {k: [] for k in kinds}
    found = []
    with SiteServer(fixture_sites()) as server, tempfile.TemporaryDirectory() as temp:
        for n in range(args.rounds):
            order = kinds[n % 3 :] + kinds[: n % 3]
            for kind in order:
                folder = Path(temp) / f"{n}-{kind.replace(' ', '-')}"
                wall, result = asyncio.run(_one(kind, folder, hosts, server.resolve()))
                seconds[kind].append(wall)
                renders[kind].append(result.stats["renders"])
                found.append(verdicts(result.learned))
                print(f"round {n + 1} {kind}: {result.stats['renders']} renders in {wall:.1f}s")
    ray.shutdown()
    print(f"same verdicts in every run: {all(v == found[0] for v in found)}")
    base = statistics.median(
        s / r for s, r in zip(seconds[kinds[0]], renders[kinds[0]], strict=True)
    )
    print("| run | renders | wall s (median) | pages/s | s/render | vs single process |")
    print("|---|---:|---:|---:|---:|---:|")
    for kind in kinds:
        per = statistics.median(s / r for s, r in zip(seconds[kind], renders[kind], strict=True))
        wall = statistics.median(seconds[kind])
        print(
            f"| {kind} | {renders[kind][0]} | {wall:.1f} | {1 / per:.2f} | {per:.2f} | "
            f"{per / base:.2f}x |"
        )


if __name__ == "__main__":
    main()
