"""Measure ``learner plan`` on a large generated URL log: time, peak memory, same plan.

Run from the repository root::

    python -m benchmarks.bench_plan --lines 10000000 --memory-limit 1GB

1. A log of ``--lines`` observed URLs is generated (seeded; :func:`generate_log`): about
   ``--domains`` sites, each with a heavy-tailed set of patterns, paths and values, tracking
   parameters, duplicate lines, redirect wrappers and lines that are not URLs.
2. ``python -m learner plan`` runs on it in a child process; its peak resident memory is
   read from ``getrusage`` (children), and the time from the wall clock.
3. The same command runs on the first ``--sample`` lines, and so does the in-memory path
   (``learner.plan.domains.plan_urls``, what ``crawl --urls`` does); the two plans must be equal.
"""

from __future__ import annotations

import argparse
import random
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

from learner.plan.domains import plan_urls
from learner.plan.files import plan_rows, read_plan
from learner.plan.targets import parse_target

_PATTERNS = (
    ("id",),
    ("id", "ref"),
    ("page", "q", "sort"),
    ("color", "id", "size"),
    ("lang", "p"),
    ("cat", "page"),
    ("id", "session"),
    ("a", "b", "c", "d"),
    ("v",),
    ("offset", "q"),
)
_PATHS = ("/", "/item", "/list", "/search", "/p/x", "/shop/a", "/shop/b", "/news")


def domains(count: int) -> list[str]:
    """The generated log's domains."""
    return [f"site{i}.example" for i in range(count)]


def generate_log(lines: int, *, sites: int = 2000, seed: int = 0) -> Iterator[str]:
    """``lines`` observed URLs, as a crawler's log would have them (deterministic).

    Sites, patterns and values are heavy-tailed (a few sites and patterns have most
    lines); about one line in ten repeats an earlier one, one in fifty carries a tracking
    parameter, one in a thousand is a redirect wrapper, one in a thousand is not a URL.
    """
    rng = random.Random(seed)
    names = domains(sites)
    recent: list[str] = []
    for n in range(lines):
        roll = rng.random()
        if recent and roll < 0.1:
            yield recent[rng.randrange(len(recent))]
            continue
        if roll > 0.999:
            yield f"not a url {n}"
            continue
        site = names[min(int(rng.paretovariate(1.2)) - 1, sites - 1) % sites]
        pattern = _PATTERNS[min(int(rng.paretovariate(1.5)) - 1, len(_PATTERNS) - 1)]
        path = _PATHS[rng.randrange(len(_PATHS))]
        query = "&".join(f"{name}={int(rng.paretovariate(0.8)) % 5000}" for name in pattern)
        if roll > 0.98:
            query += "&utm_source=news"
        url = f"https://{site}{path}?{query}"
        if roll > 0.998:
            url = "https://www.google.com/url?q=" + url.replace("&", "%26").replace("?", "%3F")
        if len(recent) < 10_000:
            recent.append(url)
        else:
            recent[rng.randrange(10_000)] = url
        yield url


def _run(args: list[str]) -> tuple[float, int]:
    """Run a child process; its wall time and peak resident memory (bytes, Linux)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    started = time.monotonic()
    subprocess.run(args, check=True, stdout=subprocess.DEVNULL)
    seconds = time.monotonic() - started
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    if peak <= before:  # another child peaked higher; the measure is a bound
        print("note: an earlier child peaked higher; peak memory is an upper bound")
    return seconds, peak * 1024


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lines", type=int, default=10_000_000)
    parser.add_argument("--domains", type=int, default=2000)
    parser.add_argument("--sample", type=int, default=200_000)
    parser.add_argument("--listed", type=int, default=500, help="domains in the domains file")
    parser.add_argument("--memory-limit", default="1GB")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-plan-") as temp:
        folder = Path(temp)
        log, sample, listed = folder / "urls.txt", folder / "sample.txt", folder / "domains.txt"
        # Every other domain, so that the plan has to leave some out.
        keys = domains(args.domains)[: 2 * args.listed : 2]
        listed.write_text("\n".join(keys) + "\n")
        started = time.monotonic()
        with open(log, "w") as out, open(sample, "w") as head:
            for n, url in enumerate(generate_log(args.lines, sites=args.domains, seed=args.seed)):
                out.write(url + "\n")
                if n < args.sample:
                    head.write(url + "\n")
        print(
            f"generated {args.lines:,} lines ({log.stat().st_size / 2**20:,.0f} MiB) "
            f"in {time.monotonic() - started:.0f}s"
        )
        command = [sys.executable, "-m", "learner", "plan", str(listed), "--urls"]
        limit = ["--memory-limit", args.memory_limit]
        seconds, peak = _run([*command, str(log), "--out", str(folder / "plan.parquet"), *limit])
        print(
            f"plan of {args.lines:,} lines, {args.listed} listed domains: {seconds:.0f}s, "
            f"{args.lines / seconds:,.0f} lines/s, peak memory {peak / 2**30:.2f} GiB "
            f"(DuckDB --memory-limit {args.memory_limit})"
        )
        _, plans = read_plan(str(folder / "plan.parquet"))
        groups = sum(len(p.groups) for p in plans.values())
        urls = sum(len(g.urls) for p in plans.values() for g in p.groups)
        print(f"  {len(plans)} domains, {groups} patterns, {urls:,} distinct URLs kept")
        _run([*command, str(sample), "--out", str(folder / "sample.jsonl"), *limit])
        settings, from_file = read_plan(str(folder / "sample.jsonl"))
        targets = [parse_target(k) for k in keys]
        in_memory = plan_urls(targets, sample.read_text().splitlines(), settings)
        # Compared as the file writes them: a choice's shares are rounded there (11.667).
        same = {p.key: plan_rows(p, settings) for p in in_memory} == {
            key: plan_rows(p, settings) for key, p in from_file.items()
        }
        print(f"first {args.sample:,} lines: DuckDB plan == in-memory plan: {same}")
        if not same:
            sys.exit(1)


if __name__ == "__main__":
    main()
