"""Measure what learning default values costs in renders, and what it merges.

Run from the repository root (needs Chromium, see ``docs/learner.md``)::

    python -m benchmarks.bench_defaults --samples 4 \
        --hosts defaults.test,hidden.test,shop.test,news.test

The learner studies the hosts from the fixture's observed-URL logs three times, each time in
a fresh run folder: with ``default_values=0`` (the parameter tests alone), with
``--default-values K`` and only the frequent values as candidates (``before``:
``learner.judge.defaults.FROM_EVIDENCE`` off), and with the values the parameter tests point at
too (``after``: the learner as it runs). Renders are deterministic for the fixture, so the
differences are what the default tests cost, split by what asked for each render. The
learned sets are then given the held-out default pairs of ``defaults.test`` and
``hidden.test`` (defaults the logs spell rarely or never; pages the logs never show) and
the pairs that look like defaults but are different pages: the first should merge, the
second never.
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import os
import platform
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Iterable, Sequence
from pathlib import Path

from learner.config import LearnerConfig
from learner.demo.server import SiteServer
from learner.judge import defaults
from learner.plan.targets import parse_target
from learner.render.browser import find_browser
from learner.run.crawl import CrawlResult, crawl
from learner.run.folder import read_run_folder
from samepage import MIQPSNormalizer
from samepage.learned import Sample
from tests.site.defaults import (
    defaults_different_pairs,
    defaults_site,
    defaults_urls,
    held_out_pairs,
)
from tests.site.fixture import fixture_sites, observed_urls
from tests.site.hidden_defaults_site import (
    hidden_different_pairs,
    hidden_held_out_pairs,
    hidden_site,
    hidden_urls,
)
from tests.site.learner_settings import SUITE_CONFIG


async def _learn(
    hosts: Sequence[str],
    config: LearnerConfig,
    server: SiteServer,
    folder: Path,
    browser: str | None,
) -> tuple[CrawlResult, float]:
    started = time.perf_counter()
    result = await crawl(
        [parse_target(f"http://{host}") for host in hosts],
        config=config,
        out=folder / "learned.json",
        cache=folder / "run",
        observed=[*defaults_urls(), *hidden_urls(), *observed_urls()],
        resolve=server.resolve(),
        browser=browser,
    )
    return result, time.perf_counter() - started


def _kinds(result: CrawlResult) -> dict[tuple[str, str], str]:
    """What each comparison of the run was for, from the evidence in the learned set."""
    kinds: dict[tuple[str, str], str] = {}

    def mark(samples: Iterable[Sample] | None, kind: str) -> None:
        for sample in samples or ():
            kinds.setdefault((sample.url, sample.candidate), kind)

    for domain in result.learned.domains.values():
        for pattern in domain.patterns.values():
            # The parameter tests' comparisons first: a default test may reuse one.
            mark(pattern.joint_checks, "parameter tests")
            for verdict in pattern.params.values():
                mark(verdict.samples, "parameter tests")
            for verdict in pattern.params.values():
                for default in verdict.defaults.values():
                    mark(default.samples, "default proofs")
                for why in verdict.rejected_defaults.values():
                    mark(why.samples, "rejected values")
            joint, rejected = pattern.joint_defaults, pattern.rejected_joint_defaults
            found = joint if joint is not None else rejected
            mark(found.samples if found is not None else None, "joint")
    return kinds


def _render_split(result: CrawlResult) -> tuple[Counter[str], Counter[str]]:
    """Comparisons and renders by what they were for.

    Read from the run folder's checkpoint, in order: each comparison records how many renders
    of its original and candidate it used, and a render counts for the first that used it.
    """
    kinds = _kinds(result)
    comparisons: Counter[str] = Counter()
    renders: Counter[str] = Counter()
    seen: set[tuple[str, int]] = set()
    for pair, record in read_run_folder(result.run_folder).pairs.items():
        kind = kinds.get(pair, "parameter tests")
        comparisons[kind] += 1
        for url, used in zip(pair, record.evidence.renders, strict=True):
            for nth in range(used):
                renders[kind] += (url, nth) not in seen
                seen.add((url, nth))
    return comparisons, renders


def _merged(result: CrawlResult, pairs: Sequence[tuple[str, str]]) -> int:
    norm = MIQPSNormalizer(learned=result.learned)
    return sum(norm.same(a, b) for a, b in pairs)


def _learned_defaults(result: CrawlResult, key: str) -> int:
    learned = result.learned.domains.get(key)
    return sum(
        len(v.defaults)
        for p in (learned.patterns.values() if learned else ())
        for v in p.params.values()
    )


def _share(extra: int, of: int) -> str:
    return f"{extra} ({extra / of:.0%})" if of else str(extra)


async def run(args: argparse.Namespace) -> int:
    hosts = [h.strip() for h in args.hosts.split(",") if h.strip()]
    config = dataclasses.replace(
        SUITE_CONFIG,
        samples=args.samples,
        min_samples=min(args.min_samples, args.samples),
        default_values=args.default_values,
    )
    choice = find_browser()
    held = {"defaults.test": held_out_pairs(), "hidden.test": hidden_held_out_pairs()}
    different = [*defaults_different_pairs(), *hidden_different_pairs()]
    with (
        SiteServer([defaults_site(), hidden_site(), *fixture_sites()]) as server,
        tempfile.TemporaryDirectory() as tmp,
    ):
        base, base_s = await _learn(
            hosts,
            dataclasses.replace(config, default_values=0),
            server,
            Path(tmp) / "params",
            choice.executable,
        )
        defaults.FROM_EVIDENCE = False
        try:
            before, before_s = await _learn(
                hosts, config, server, Path(tmp) / "before", choice.executable
            )
        finally:
            defaults.FROM_EVIDENCE = True
        after, after_s = await _learn(hosts, config, server, Path(tmp) / "after", choice.executable)
        comparisons, renders = _render_split(after)
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(
        f"Python {platform.python_version()}, {os.cpu_count()} CPUs, load {load:.1f}; "
        f"samples={config.samples} min_samples={config.min_samples} "
        f"default_values={config.default_values}\n"
    )
    print(
        "| host | renders, parameter tests | before: frequent values | after: + evidence "
        "| after vs before | defaults before | defaults after |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|")
    for plain, old, new in zip(base.domains, before.domains, after.domains, strict=True):
        print(
            f"| {new.key} | {plain.renders} | {old.renders} | {new.renders} "
            f"| {_share(new.renders - old.renders, old.renders)} "
            f"| {_learned_defaults(before, old.key)} | {_learned_defaults(after, new.key)} |"
        )
    totals = [sum(d.renders for d in r.domains) for r in (base, before, after)]
    learned = [sum(_learned_defaults(r, h) for h in hosts) for r in (before, after)]
    print(
        f"| **all** | {totals[0]} | {totals[1]} | {totals[2]} "
        f"| **{_share(totals[2] - totals[1], totals[1])}** | {learned[0]} | {learned[1]} |"
    )
    print("\n| renders asked for by (after) | comparisons | renders |\n|---|---:|---:|")
    for kind in ("parameter tests", "default proofs", "rejected values", "joint"):
        print(f"| {kind} | {comparisons[kind]} | {renders[kind]} |")
    if learned[1]:
        print(
            f"\nRenders per learned default (after): {renders['default proofs'] / learned[1]:.1f} "
            f"to prove it; {(totals[2] - totals[0]) / learned[1]:.1f} with every value "
            "tested and the joint checks."
        )
    print("\n| held-out default pairs merged | parameters only | before | after |")
    print("|---|---:|---:|---:|")
    for key, pairs in held.items():
        if key in hosts:
            merged = [_merged(r, pairs) for r in (base, before, after)]
            print(f"| {key} | {merged[0]} of {len(pairs)} | {merged[1]} | {merged[2]} |")
    print(
        "\nLook-alike pairs merged (must be 0): "
        + ", ".join(f"{_merged(r, different)}" for r in (base, before, after))
        + f" of {len(different)}.\nWall time: {base_s:.0f} s, {before_s:.0f} s and {after_s:.0f} s."
    )
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.bench_defaults",
        description=__doc__.splitlines()[0] if __doc__ else None,
        formatter_class=argparse.ArgumentDefaultsHelpFormatter,
    )
    parser.add_argument("--samples", type=int, default=4, help="samples per parameter (S)")
    parser.add_argument("--min-samples", type=int, default=3, help="min_samples (N)")
    parser.add_argument("--default-values", type=int, default=2, help="values tested (K)")
    parser.add_argument(
        "--hosts", default="defaults.test,hidden.test", help="fixture hosts to study"
    )
    args = parser.parse_args(argv)
    if args.samples < 1:
        print("--samples must be at least 1", file=sys.stderr)
        return 2
    return asyncio.run(run(args))


if __name__ == "__main__":
    raise SystemExit(main())
