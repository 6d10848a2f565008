"""One learner run: discover or read URLs, study each site's patterns, publish the set.

One skeleton, :func:`run_learner`, runs every learner run whatever renders it: it checks the
options, opens the run folder (:class:`~learner.run.store.RunStore`), has an :class:`Engine`
learn the domains (here, in this process with one browser; :mod:`learner.cluster.driver`,
on Ray), writes the statistics and publishes the set. Samples are run by
:mod:`learner.run.sample_runner` and judged by :mod:`learner.judge.decision`; the set is
published by :mod:`learner.run.publish`. Every site-level check reads the samples' outcomes, so a
resumed run, whose outcomes come from the checkpoint, decides exactly as a fresh one.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import random
import time
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Protocol

from learner.config import LearnerConfig
from learner.errors import ConfigError
from learner.judge.aliases import AliasFinding
from learner.judge.archive import ArchiveEvidence
from learner.judge.verdicts import warnings
from learner.net.fetch import PageFetcher, fetch
from learner.net.limiter import HostLimiter
from learner.net.resolve import parse_resolve
from learner.net.retries import RetryPolicy, polite_fetcher
from learner.net.robots import RobotsPolicy
from learner.plan.coverage import floor_share
from learner.plan.domains import DomainPlan
from learner.plan.targets import Target
from learner.render.browser import BrowserChoice, find_browser
from learner.render.renderer import Renderer
from learner.run.diff import GateResult
from learner.run.domain import (
    DomainRun,
    DomainStats,
    learn_domain,
    renders_per_studied,
)
from learner.run.progress import Progress
from learner.run.publish import GateRefused, check_output, publish
from learner.run.sample_runner import SampleRunner
from learner.run.store import RunStore, comparison_scope
from samepage import DomainEntry, LearnedSet, MIQPSNormalizer, load_learned

logger = logging.getLogger(__name__)

__all__ = [
    "CrawlResult",
    "DomainStats",
    "Engine",
    "EngineResult",
    "GateRefused",
    "RunRequest",
    "crawl",
    "domain_sources",
    "learned_set",
    "politeness",
    "run_learner",
    "run_summary",
]


@dataclass(frozen=True, slots=True)
class CrawlResult:
    """The outcome of a run: the learned set, where it went, and what it cost."""

    learned: LearnedSet
    out: Path
    run_folder: Path
    stats: dict[str, Any]
    domains: tuple[DomainStats, ...]
    gate: GateResult | None


def learned_set(
    config: LearnerConfig, entries: Sequence[tuple[str, DomainEntry | None]]
) -> LearnedSet:
    """The learned set of a run's domain entries (a domain without an entry is left out)."""
    return LearnedSet(
        {key: entry for key, entry in entries if entry is not None},
        created=datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
        settings=config.method_settings(),
    )


def run_summary(
    config: LearnerConfig,
    stats: Sequence[DomainStats],
    *,
    seconds: float,
    render_seconds: float,
    evidence: tuple[int, int],
) -> dict[str, Any]:
    """What a run did and cost, as ``stats.json`` records it.

    A cause that kept more than a quarter of a domain's studied parameters is warned of
    here, where every run (in one process or on Ray) ends.
    """
    for s in stats:
        for line in warnings(s.key, s.account):
            logger.warning("%s", line)
    renders = sum(s.renders for s in stats)
    urls = sum(s.choice.urls for s in stats)
    covered = sum(s.choice.covered for s in stats)
    studied = sum(s.account.studied for s in stats)
    decided = sum(s.account.decided for s in stats)
    return {
        "domains": {s.key: s.to_json() for s in stats},
        "renders": renders,
        "render_failures": sum(s.counters.render_failures for s in stats),
        "comparisons": sum(s.counters.comparisons for s in stats),
        "resumed_comparisons": sum(s.counters.resumed for s in stats),
        "archive_samples": sum(s.counters.archived for s in stats),
        "archive_refused": _summed(s.counters.archive_refused for s in stats),
        "archive_doubts": _summed(s.counters.archive_doubts for s in stats),
        "seconds": round(seconds, 3),
        "render_seconds": round(render_seconds, 3),
        "pages_per_second": round(renders / seconds, 3) if seconds else 0.0,
        "studied": studied,
        "decided": decided,
        "decided_share": round(decided / studied, 3) if studied else 1.0,
        "renders_per_studied": renders_per_studied(renders, studied),
        "covered_share": floor_share(covered / urls) if urls else 1.0,
        "listed_samples": sum(s.listed.samples for s in stats),
        "listed_renders": sum(s.listed.renders for s in stats),
        "alias_renders": sum(s.aliases.renders for s in stats),
        "aliases_learned": sum(len(s.aliases.rules(AliasFinding.LEARNED)) for s in stats),
        "evidence_bytes": evidence[0],
        "evidence_skipped": evidence[1],
        "settings": config.to_json(),
    }


def _summed(counts: Iterable[Mapping[str, int]]) -> dict[str, int]:
    total: dict[str, int] = {}
    for found in counts:
        for key, count in found.items():
            total[key] = total.get(key, 0) + count
    return dict(sorted(total.items()))


@dataclass(frozen=True, slots=True)
class Politeness:
    """What keeps one process polite to the hosts it studies."""

    limiter: HostLimiter
    """Spaced starts and pages in flight per host, ``Retry-After`` and ``Crawl-delay``."""
    retry_policy: RetryPolicy
    fetch_page: PageFetcher
    """A plain fetch that waits for its host's slot and retries transient failures."""
    robots: RobotsPolicy


def politeness(config: LearnerConfig, resolve: Mapping[str, str]) -> Politeness:
    """The per-host limiter, the retry policy, the polite plain fetcher and robots.txt.

    One set per process that renders: per-host state lives where the host is studied.
    """
    limiter = HostLimiter(
        delay_s=config.delay_s,
        jitter_s=config.jitter_s,
        per_host=config.per_host,
        rng=random.Random(config.seed),
    )
    plain = functools.partial(
        fetch,
        resolve=resolve,
        user_agent=config.render.user_agent,
        timeout_s=config.render.page_timeout_s,
        allow_private=config.allow_private,
    )
    retry_policy = RetryPolicy(attempts=config.retries + 1)
    fetch_page = polite_fetcher(plain, limiter=limiter, policy=retry_policy)
    robots = RobotsPolicy(fetch_page, config.render.user_agent)
    return Politeness(limiter, retry_policy, fetch_page, robots)


def domain_sources(
    targets: Sequence[Target],
    observed: Sequence[str] | None,
    plan: Mapping[str, DomainPlan] | None,
) -> list[Sequence[str] | DomainPlan | None]:
    """Where each target's patterns come from: its plan, the observed URLs, or discovery.

    Raises:
        ConfigError: a target is missing from the plan.
    """
    if plan is None:
        return [observed for _ in targets]
    missing = [t.key for t in targets if t.key not in plan]
    if missing:
        raise ConfigError(f"not in the plan: {', '.join(missing[:5])}; make the plan again")
    return [plan[t.key] for t in targets]


@dataclass(frozen=True, slots=True)
class RunRequest:
    """What a run is asked to do, whichever engine renders it."""

    targets: Sequence[Target]
    config: LearnerConfig
    out: Path
    cache: Path
    observed: Sequence[str] | None = None
    plan: Mapping[str, DomainPlan] | None = None
    resolve: Mapping[str, str] | None = None
    previous: Path | None = None
    force: bool = False
    progress: Progress | None = None


@dataclass(frozen=True, slots=True)
class EngineResult:
    """What an engine learned: per target (in order) its statistics and entry."""

    stats: Sequence[DomainStats]
    entries: Sequence[DomainEntry | None]
    render_seconds: float
    evidence: tuple[int, int]
    """Evidence bytes written and evidence images skipped for the budget."""
    summary: Mapping[str, Any]
    """What the engine adds to ``stats.json``."""


class Engine(Protocol):
    """How a run's domains are learned: in this process, or on a cluster."""

    def prepare(self, request: RunRequest) -> dict[str, Any]:
        """Check what the engine needs, before any work; what it adds to ``run.json``."""
        ...

    async def learn(
        self,
        request: RunRequest,
        store: RunStore,
        sources: Sequence[Sequence[str] | DomainPlan | None],
        progress: Progress,
    ) -> EngineResult:
        """Learn every target of ``request`` from its source."""
        ...


async def run_learner(request: RunRequest, engine: Engine) -> CrawlResult:
    """One run, whichever the engine: check, learn in a run folder, summarise, publish.

    Raises:
        ConfigError, BrowserNotFound: before any work is done.
        GateRefused: the new set was kept in the run folder, not written to ``out``.
    """
    config, targets = request.config, request.targets
    progress = request.progress or Progress(enabled=False)
    progress.domains_total = len(targets)
    resolve = dict(request.resolve or {})
    parse_resolve(resolve)
    sources = domain_sources(targets, request.observed, request.plan)
    old = load_learned(request.previous) if request.previous is not None else None
    check_output(request.out)
    run_info = engine.prepare(request)
    started = time.monotonic()
    async with RunStore(
        request.cache,
        scope=comparison_scope(config.to_json()),
        evidence_budget_bytes=config.evidence_budget_bytes,
    ) as store:
        store.write_run(
            {
                "config": config.to_json(),
                "targets": [t.key for t in targets],
                "resolve": resolve,
                **run_info,
            }
        )
        done = await engine.learn(request, store, sources, progress)
        learned = learned_set(
            config, [(t.key, e) for t, e in zip(targets, done.entries, strict=True)]
        )
        summary = {
            **run_summary(
                config,
                done.stats,
                seconds=time.monotonic() - started,
                render_seconds=done.render_seconds,
                evidence=done.evidence,
            ),
            **done.summary,
        }
        store.write_stats(summary)
    progress.domains_done = len(targets)
    progress.finish()
    gate = publish(
        learned,
        out=request.out,
        run_folder=request.cache,
        previous=old,
        max_flip_fraction=config.gate_max_flip_fraction,
        force=request.force,
    )
    return CrawlResult(learned, request.out, request.cache, summary, tuple(done.stats), gate)


@dataclass(slots=True)
class _InProcess:
    """Every domain learned in this process, with one browser."""

    browser: str | None
    archive: ArchiveEvidence | None
    choice: BrowserChoice | None = None

    def prepare(self, request: RunRequest) -> dict[str, Any]:
        self.choice = find_browser(self.browser)
        return {}

    async def learn(
        self,
        request: RunRequest,
        store: RunStore,
        sources: Sequence[Sequence[str] | DomainPlan | None],
        progress: Progress,
    ) -> EngineResult:
        assert self.choice is not None, "prepare() comes first"
        config, targets = request.config, request.targets
        resolve = dict(request.resolve or {})
        polite = politeness(config, resolve)
        limiter, retry_policy = polite.limiter, polite.retry_policy
        fetch_page, robots = polite.fetch_page, polite.robots
        stats = [DomainStats(t.key) for t in targets]
        async with Renderer(
            config.render,
            executable=self.choice.executable,
            resolve=resolve,
            allow_private=config.allow_private,
            max_open_pages=config.concurrency,
            keep_documents=self.archive is not None,
        ) as renderer:
            runner = SampleRunner(
                config,
                renderer,
                store,
                limiter,
                robots,
                progress,
                retry_policy=retry_policy,
                archive=self.archive,
            )
            run = DomainRun(config, runner, robots, limiter, MIQPSNormalizer(), progress)
            entries = await asyncio.gather(
                *(
                    learn_domain(run, t, source, fetch_page, s)
                    for t, source, s in zip(targets, sources, stats, strict=True)
                )
            )
        return EngineResult(
            stats,
            entries,
            runner.render_seconds,
            (store.evidence_bytes, store.evidence_skipped),
            {"browser": {"executable": self.choice.executable, "source": self.choice.source}},
        )


async def crawl(
    targets: Sequence[Target],
    *,
    config: LearnerConfig,
    out: Path,
    cache: Path,
    observed: Sequence[str] | None = None,
    plan: Mapping[str, DomainPlan] | None = None,
    resolve: Mapping[str, str] | None = None,
    browser: str | None = None,
    previous: Path | None = None,
    force: bool = False,
    progress: Progress | None = None,
    archive: ArchiveEvidence | None = None,
) -> CrawlResult:
    """Learn ``targets`` in this process and write the learned set to ``out``.

    Args:
        targets: the sites, from the domains file.
        config: the method, politeness and budgets.
        out: where the learned set goes (written atomically).
        cache: the run folder: checkpoint, evidence, stats; a rerun with it resumes.
        observed: an observed-URL log; ``None`` discovers URLs from each site.
        plan: the patterns to study per domain key (:func:`learner.plan.files.read_plan`), instead
            of ``observed``; every target must be in it.
        resolve: ``HOST -> ADDR:PORT`` for every request, browser and plain alike.
        browser: a Chromium executable to use instead of the one found.
        previous: the learned set last published, for the publishing gate.
        force: write even when the gate refuses.
        progress: where progress is shown.
        archive: web archive captures that decide samples without rendering
            (:mod:`learner.judge.archive`).

    Raises:
        BrowserNotFound, ConfigError: before any work is done.
        GateRefused: the new set was kept in the run folder, not written to ``out``.
    """
    request = RunRequest(
        targets, config, out, cache, observed, plan, resolve, previous, force, progress
    )
    return await run_learner(request, _InProcess(browser, archive))
