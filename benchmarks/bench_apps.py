"""The learner on real applications: what it decides, what it renders, and how fast it renders.

Run from the repository root (needs Chromium, ``samepage[apps]`` with ``.venv-trac``, and
MediaWiki with PHP, all installed by ``scripts/setup.sh``)::

    python -m benchmarks.bench_apps --pages 30 --rounds 4

Datasette, a Sphinx site, Trac and MediaWiki (``tests/apps``; ``--apps`` picks some) are
served on 127.0.0.1 with their seeded content, all at once, in one process:

1. **Decided.** One learner crawl (``learner.run.crawl.crawl``) of the hosts from their
   observed-URL logs, with the test suite's render settings (``tests/apps/registry.py``: no
   politeness delay, no default values) and the learner's default ``samples`` (8) and
   ``min_samples`` (3). A studied parameter is decided when its verdict's
   cause is evidence (``learner.judge.verdicts``); the share counts the parameters whose pattern's
   observed URLs all answer 2xx to a plain fetch. The *studied share* is the share of the
   log's URLs (those with parameters) whose pattern was studied, and the patterns left are
   listed with their URL counts; every verdict is checked against the application's truth
   table (``tests/apps``): wrong "neutral" (a parameter the code reads, dropped) and kept
   neutral (one it ignores, kept).
2. **Renders.** The learner's renders against a naive MIQPS run of the same sample choice
   (``benchmarks.bench_learner.naive_cost``).
3. **Aliases.** On the applications with held-out pairs (``App.same_pages`` and
   ``App.different_pages``: MediaWiki's articles by ``/w/index.php?title=`` and ``/wiki/``,
   and pairs of one or two pages by their parameters), how many pairs of one page get one
   key with the learned set without its aliases (before) and with them (after), how many
   pairs of two pages get one key (must be 0), the aliases learned and the renders the
   alias study spent (``learner.run.alias_study``).
4. **Throughput.** The same seeded list of the logs' URLs is rendered by the learner's
   ``Renderer`` and by bare Playwright (``goto`` until load, one full-page screenshot) at the
   learner's default politeness: each render inside the learner's per-host slot
   (``HostLimiter``: ``delay_s`` 1.0 plus up to ``jitter_s`` 0.5 between starts, one at a
   time per host), at most ``concurrency`` pages at once. Rounds alternate which goes first.
   With ``--unpaced``, without the per-host slot: the machine, not the hosts, bounds both, and
   the CPU seconds a page (sampled from ``/proc/stat``) compare what each render costs.
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import os
import platform
import random
import shutil
import sys
import tempfile
from collections import Counter
from collections.abc import Sequence
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path

from benchmarks.bench_learner import (
    DomainCost,
    Pass,
    learner_cost,
    report_costs,
    report_throughput,
    throughput,
)
from learner.config import LearnerConfig
from learner.judge.aliases import AliasAccount, AliasFinding
from learner.judge.verdicts import cause_of
from learner.net.fetch import fetch
from learner.net.limiter import HostLimiter
from learner.plan.targets import parse_target
from learner.render.browser import find_browser
from samepage import LearnedSet, MIQPSNormalizer, pattern_key
from tests.apps.registry import APPS, APPS_CONFIG, App
from tests.apps.truth import studied


@dataclass(frozen=True, slots=True)
class Decided:
    """How many of one application's studied parameters were decided by evidence."""

    host: str
    studied: int
    answered: int  # studied parameters whose pattern's originals all answer 2xx
    decided: int  # of those
    undecided: tuple[str, ...]  # "pattern: name (cause)" of the others
    seconds: float
    urls: int  # the log's URLs with parameters
    covered: int  # of those, URLs whose pattern was studied
    left: tuple[tuple[str, int], ...]  # patterns not studied, with their URL counts
    wrong_neutral: tuple[str, ...]  # "pattern: name" neutral where the code reads it
    kept_neutral: tuple[str, ...]  # "pattern: name" kept where the code ignores it


async def answering_patterns(app: App, resolve: dict[str, str], config: LearnerConfig) -> set[str]:
    """The patterns of ``app``'s log whose every observed URL answers 2xx to a plain fetch."""
    bad: set[str] = set()
    every: set[str] = set()
    for url in app.observed_urls():
        pattern = pattern_key(url)
        every.add(pattern)
        got = await fetch(
            url,
            resolve=resolve,
            user_agent=config.render.user_agent,
            timeout_s=config.render.page_timeout_s,
        )
        if not 200 <= got.status < 300:
            bad.add(pattern)
    return every - bad


def decided_on(app: App, learned: LearnedSet, answering: set[str], seconds: float) -> Decided:
    """Count ``app``'s studied parameters, and those decided by evidence."""
    verdicts = studied(learned, app.host)
    answered = decided = 0
    undecided = []
    for pattern, params in verdicts.items():
        for name, verdict in params.items():
            if pattern not in answering:
                continue
            cause = cause_of(verdict)
            answered += 1
            decided += cause.decided
            if not cause.decided:
                undecided.append(f"{pattern}: {name} ({cause.value})")
    studied_count = sum(len(p) for p in verdicts.values())
    counts = Counter(pattern_key(url) for url in app.observed_urls())
    counts.pop("", None)
    left = sorted(
        ((p, n) for p, n in counts.items() if p not in verdicts), key=lambda pn: (-pn[1], pn[0])
    )
    against = [
        (f"{pattern}: {name}", verdict.verdict, app.truth.get(pattern, {}).get(name))
        for pattern, params in verdicts.items()
        for name, verdict in params.items()
    ]
    return Decided(
        app.host,
        studied_count,
        answered,
        decided,
        tuple(undecided),
        seconds,
        counts.total(),
        sum(n for p, n in counts.items() if p in verdicts),
        tuple(left),
        tuple(
            k
            for k, got, truth in against
            if got == "neutral" and truth and truth.verdict != "neutral"
        ),
        tuple(
            k
            for k, got, truth in against
            if got != "neutral" and truth and truth.verdict == "neutral"
        ),
    )


@dataclass(frozen=True, slots=True)
class AliasGain:
    """What one application's learned aliases merge, and what they cost."""

    host: str
    same: int  # held-out pairs of one page
    same_before: int  # of those, merged by the learned set without its aliases
    same_after: int  # merged by the learned set
    different: int  # held-out pairs of two pages
    different_after: int  # of those, merged by the learned set (must be 0)
    rules: tuple[str, ...]
    renders: int  # renders of the alias study
    refused: tuple[str, ...]  # "from -> to: finding (reason)" of the candidates not learned
    replaced: int = 0  # samples and controls another URL replaced (a render failed)
    learned: tuple[str, ...] = ()  # "from -> to (what proposed it)" of the rules learned


def alias_gain(app: App, learned: LearnedSet, study: AliasAccount) -> AliasGain:
    """Count ``app``'s held-out pairs merged with and without the learned aliases."""
    without = dataclasses.replace(
        learned,
        domains={k: dataclasses.replace(e, aliases=()) for k, e in learned.domains.items()},
    )
    before, after = MIQPSNormalizer(learned=without), MIQPSNormalizer(learned=learned)
    entry = learned.domains.get(app.host)
    return AliasGain(
        app.host,
        len(app.same_pages),
        sum(before.same(a, b) for a, b in app.same_pages),
        sum(after.same(a, b) for a, b in app.same_pages),
        len(app.different_pages),
        sum(after.same(a, b) for a, b in app.different_pages),
        tuple(rule.describe() for rule in entry.aliases) if entry is not None else (),
        study.renders,
        tuple(
            f"{v.candidate.rule.describe()}: {v.finding.value} ({v.reason})"
            for v in study.verdicts
            if v.finding is not AliasFinding.LEARNED
        ),
        sum(v.replaced for v in study.verdicts),
        tuple(
            f"{v.candidate.rule.describe()} ({v.candidate.hint})"
            for v in study.verdicts
            if v.finding is AliasFinding.LEARNED
        ),
    )


def throughput_urls(apps: Sequence[App], count: int) -> list[str]:
    """A seeded sample of the applications' observed URLs, hosts interleaved."""
    urls = [url for app in apps for url in app.observed_urls()]
    random.Random(0).shuffle(urls)
    return urls[:count]


async def run(args: argparse.Namespace) -> int:
    names = [n.strip() for n in args.apps.split(",") if n.strip()]
    unknown = [n for n in names if n not in APPS]
    if unknown:
        print(f"bench_apps: unknown application(s): {', '.join(unknown)}", file=sys.stderr)
        return 2
    apps = [APPS[n] for n in names]
    for app in apps:
        why = app.missing()
        if why is not None:
            print(f"bench_apps: {app.name}: {why}", file=sys.stderr)
            return 2
    config = dataclasses.replace(
        APPS_CONFIG,
        samples=args.samples,
        min_samples=min(args.min_samples, args.samples),
        concurrency=args.concurrency,
    )
    polite = LearnerConfig()  # the learner's default delay and jitter
    choice = find_browser()
    targets = [parse_target(f"http://{app.host}") for app in apps]
    observed = [url for app in apps for url in app.observed_urls()]
    with tempfile.TemporaryDirectory() as tmp, ExitStack() as stack:
        resolve: dict[str, str] = {}
        for app in apps:
            folder = Path(tmp) / app.name
            folder.mkdir()
            resolve.update(stack.enter_context(app.serve(folder)).resolve())
        run = await learner_cost(targets, observed, config, resolve, choice.executable, Path(tmp))
        if args.learned is not None:
            shutil.copyfile(Path(tmp) / "learned.json", args.learned)
        decided = []
        for app, stats in zip(apps, run.result.domains, strict=True):
            answering = await answering_patterns(app, resolve, config)
            learned = run.result.learned
            decided.append(decided_on(app, learned, answering, stats.seconds["learn"]))
        gains = [
            alias_gain(app, run.result.learned, stats.aliases)
            for app, stats in zip(apps, run.result.domains, strict=True)
            if app.same_pages or app.different_pages
        ]
        urls = throughput_urls(apps, args.pages)
        passes: list[Pass] = []
        if args.rounds > 0:
            passes = await throughput(
                urls,
                settings=config.render,
                executable=choice.executable,
                resolve=resolve,
                concurrency=config.concurrency,
                rounds=args.rounds,
                pace=None
                if args.unpaced
                else lambda: HostLimiter(
                    delay_s=polite.delay_s,
                    jitter_s=polite.jitter_s,
                    per_host=polite.per_host,
                    rng=random.Random(polite.seed),
                ),
            )
    report(config, polite, choice.executable, decided, run.costs, run.seconds, urls, args, passes)
    report_aliases(gains)
    return 0


def report_aliases(gains: Sequence[AliasGain]) -> None:
    """The aliases table (see the module, 3)."""
    if not gains:
        return
    print(
        "\n| host | one-page pairs merged before | after | two-page pairs merged "
        "| aliases learned | alias renders | replaced |"
    )
    print("|---|---:|---:|---:|---|---:|---:|")
    for g in gains:
        print(
            f"| {g.host} | {g.same_before} of {g.same} | {g.same_after} of {g.same} "
            f"| {g.different_after} of {g.different} | {'; '.join(g.rules) or '-'} "
            f"| {g.renders} | {g.replaced} |"
        )
    for g in gains:
        for line in g.learned:
            print(f"- {g.host}, learned: {line}")
        for line in g.refused:
            print(f"- {g.host}, not learned: {line}")


def report(
    config: LearnerConfig,
    polite: LearnerConfig,
    executable: str | None,
    decided: Sequence[Decided],
    costs: Sequence[DomainCost],
    crawl_s: float,
    urls: Sequence[str],
    args: argparse.Namespace,
    passes: Sequence[Pass],
) -> None:
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(
        f"Python {platform.python_version()}, {os.cpu_count()} CPUs, load {load:.1f}, "
        f"browser {executable or 'playwright'}; samples={config.samples} "
        f"min_samples={config.min_samples} concurrency={config.concurrency} "
        f"default_values={config.default_values} delay_s=0\n"
    )
    print(
        "| host | studied | answering 2xx | decided | share | learn (s) "
        "| kept for want of evidence |"
    )
    print("|---|---:|---:|---:|---:|---:|---|")
    for d in decided:
        share = d.decided / d.answered if d.answered else 1.0
        print(
            f"| {d.host} | {d.studied} | {d.answered} | {d.decided} | {share:.0%} "
            f"| {d.seconds:.1f} | {'; '.join(d.undecided) or '-'} |"
        )
    answered = sum(d.answered for d in decided)
    total = sum(d.decided for d in decided)
    print(f"| **all** | | {answered} | {total} | **{total / answered:.0%}** | | |\n")
    print(
        "| host | URLs with parameters | studied share | wrong neutral | kept neutral "
        "| patterns left |"
    )
    print("|---|---:|---:|---|---|---|")
    for d in decided:
        left = ", ".join(f"{p} ({n})" for p, n in d.left) or "-"
        print(
            f"| {d.host} | {d.urls} | {d.covered / d.urls if d.urls else 1.0:.1%} "
            f"| {'; '.join(d.wrong_neutral) or '0'} | {'; '.join(d.kept_neutral) or '0'} "
            f"| {left} |"
        )
    print()
    report_costs(costs)
    print(f"\nLearner run over all hosts: {crawl_s:.1f} s wall.\n")
    if passes:
        if args.unpaced:
            print(f"Without politeness (no per-host slot), concurrency {config.concurrency}.")
        else:
            print(
                f"At the learner's default politeness (delay {polite.delay_s} s + up to "
                f"{polite.jitter_s} s jitter per host, {polite.per_host} at a time per host), "
                f"concurrency {config.concurrency}."
            )
        report_throughput(urls, args.rounds, passes)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.bench_apps",
        description=__doc__.splitlines()[0] if __doc__ else None,
        formatter_class=argparse.ArgumentDefaultsHelpFormatter,
    )
    parser.add_argument("--apps", default=",".join(APPS), help="applications to study")
    default = LearnerConfig()
    parser.add_argument("--samples", type=int, default=default.samples, help="samples (S)")
    parser.add_argument(
        "--min-samples", type=int, default=default.min_samples, help="min_samples (N)"
    )
    parser.add_argument("--concurrency", type=int, default=2, help="pages open at once")
    parser.add_argument("--pages", type=int, default=30, help="URLs per throughput pass")
    parser.add_argument("--rounds", type=int, default=4, help="throughput rounds (0: none)")
    parser.add_argument(
        "--unpaced", action="store_true", help="throughput without the per-host politeness"
    )
    parser.add_argument(
        "--learned", type=Path, help="also write the learned set here (to compare runs)"
    )
    args = parser.parse_args(argv)
    return asyncio.run(run(args))


if __name__ == "__main__":
    raise SystemExit(main())
