"""What a hopeless host costs the learner: wall time with and without a host whose pages hang.

Run from the repository root (needs Chromium, see ``docs/learner.md``)::

    python -m benchmarks.bench_hopeless --rounds 2

The learner studies the test fixture's ``shop.test`` and ``news.test`` from its observed-URL
log, with the test suite's settings, once as they are and once with ``hang.test`` added
(``tests/site/trust.py``: every page either never finishes loading or keeps its main thread
busy). Rounds alternate which run goes first, so both see the same machine load; each run
gets a fresh run folder. The target is a ratio of at most 1.3: a hopeless host is given up
after a couple of unusable originals instead of costing a page timeout per sample.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path

from learner.demo.server import SiteServer
from learner.plan.targets import parse_target
from learner.render.browser import find_browser
from learner.run.crawl import CrawlResult, crawl
from tests.site.fixture import fixture_sites, observed_urls
from tests.site.learner_settings import SUITE_CONFIG
from tests.site.trust import HANG, trust_sites, trust_urls

HOSTS = ("shop.test", "news.test")


async def _run(hosts: tuple[str, ...], urls: list[str], resolve: dict[str, str]) -> CrawlResult:
    folder = Path(tempfile.mkdtemp(prefix="bench-hopeless-"))
    return await crawl(
        [parse_target(f"http://{host}") for host in hosts],
        config=SUITE_CONFIG,
        out=folder / "learned.json",
        cache=folder / "run",
        observed=urls,
        resolve=resolve,
        browser=find_browser().executable,
    )


async def main(rounds: int) -> None:
    """Time both runs ``rounds`` times, alternating their order, and print the ratio."""
    hang_urls = [u for u in trust_urls(hang=True) if f"//{HANG}/" in u]
    with SiteServer(fixture_sites()) as fixture, SiteServer(trust_sites()) as trust:
        resolve = {**fixture.resolve(), **trust.resolve()}
        base_urls = observed_urls()
        times: dict[str, list[float]] = {"without": [], "with": []}
        hang_renders = []
        for number in range(rounds):
            order = ["without", "with"] if number % 2 == 0 else ["with", "without"]
            for name in order:
                hosts = HOSTS if name == "without" else (*HOSTS, HANG)
                urls = base_urls if name == "without" else base_urls + hang_urls
                started = time.monotonic()
                result = await _run(hosts, urls, resolve)
                times[name].append(time.monotonic() - started)
                if name == "with":
                    hang_renders.append({d.key: d for d in result.domains}[HANG].renders)
            print(
                f"round {number + 1}: without {times['without'][-1]:.1f} s, "
                f"with {HANG} {times['with'][-1]:.1f} s, "
                f"ratio {times['with'][-1] / times['without'][-1]:.2f}",
                file=sys.stderr,
            )
    without, with_hang = statistics.median(times["without"]), statistics.median(times["with"])
    print(f"| run | wall time, median of {rounds} (s) |")
    print("|---|---:|")
    print(f"| {', '.join(HOSTS)} | {without:.1f} |")
    print(f"| the same and {HANG} | {with_hang:.1f} |")
    print(f"\nratio {with_hang / without:.2f} (target <= 1.3); {HANG} renders: {hang_renders}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=2, help="pairs of runs (default 2)")
    asyncio.run(main(parser.parse_args().rounds))
