"""One learner run: discover or read URLs, study each site's patterns, publish the set.

Resources have one owner each, entered in one ``AsyncExitStack``: the run folder
(:class:`~learner.store.RunStore`) and the browser (:class:`~learner.renderer.Renderer`).
Samples are run by :mod:`learner.samples` and judged by :mod:`learner.decision`; the set is
published by :mod:`learner.publish`. Every site-level check reads the samples' outcomes, so a
resumed run, whose outcomes come from the checkpoint, decides exactly as a fresh one.
"""

from __future__ import annotations

import asyncio
import functools
import hashlib
import json
import logging
import random
import time
from collections.abc import Mapping, Sequence
from contextlib import AsyncExitStack
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from learner.browser import find_browser
from learner.classify import classify_pattern, gave_up, kept
from learner.config import LearnerConfig
from learner.diff import GateResult
from learner.discovery import discover
from learner.errors import ConfigError, LearnerError, RenderCause
from learner.fetch import fetch
from learner.outputs import check_output
from learner.plan import DomainPlan
from learner.politeness import HostLimiter, RetryPolicy, RobotsPolicy, polite_fetcher
from learner.progress import Progress
from learner.publish import GateRefused, publish
from learner.renderer import Renderer
from learner.resolve import parse_resolve
from learner.samples import PatternPages, SampleRunner, SiteCounters
from learner.sampling import PatternGroup, group_by_pattern, sample_seed, top_patterns
from learner.store import RunStore
from learner.targets import Target
from samepage import (
    DomainEntry,
    LearnedSet,
    MIQPSNormalizer,
    ParamVerdict,
    PatternEntry,
    load_learned,
)

logger = logging.getLogger(__name__)

__all__ = [
    "CrawlResult",
    "DomainStats",
    "GateRefused",
    "crawl",
    "domain_sources",
    "learned_set",
    "politeness",
    "run_summary",
]

# Bumped whenever rendering or comparison changes meaning, so old checkpoints are not reused.
COMPARISON_VERSION = 2


@dataclass(slots=True)
class DomainStats:
    """What one domain cost and produced."""

    key: str
    urls: int = 0
    patterns_seen: int = 0
    patterns_learned: int = 0
    counters: SiteCounters = field(default_factory=SiteCounters)
    seconds: dict[str, float] = field(default_factory=lambda: {"discover": 0.0, "learn": 0.0})
    error: str | None = None

    @property
    def renders(self) -> int:
        """Renders made for this domain in this run."""
        return self.counters.renders

    def serves_one_page(self) -> bool:
        """Whether every usable original, on two or more paths, showed the very same text.

        That is what a block, consent or error page served for everything looks like; on
        such a site "no change" proves nothing. Read from the outcomes (fresh or resumed),
        whose evidence holds a stable digest of each original's text.
        """
        texts: dict[str, set[str]] = {}
        for outcome in self.counters.outcomes:
            path, digest = (outcome.evidence.get(k) for k in ("original_path", "original_text"))
            if isinstance(path, str) and isinstance(digest, str):
                texts.setdefault(path, set()).add(digest)
        digests = set().union(*texts.values()) if texts else set()
        return len(texts) >= 2 and len(digests) == 1

    def to_json(self) -> dict[str, Any]:
        """These statistics as JSON."""
        c = self.counters
        return {
            "urls": self.urls,
            "patterns_seen": self.patterns_seen,
            "patterns_learned": self.patterns_learned,
            "renders": c.renders,
            "render_failures": c.render_failures,
            "comparisons": c.comparisons,
            "resumed_comparisons": c.resumed,
            "seconds": {k: round(v, 3) for k, v in self.seconds.items()},
            "error": self.error,
        }


@dataclass(frozen=True, slots=True)
class CrawlResult:
    """The outcome of a run: the learned set, where it went, and what it cost."""

    learned: LearnedSet
    out: Path
    run_folder: Path
    stats: dict[str, Any]
    domains: tuple[DomainStats, ...]
    gate: GateResult | None


@dataclass(slots=True)
class _Run:
    """What every domain of a run shares."""

    config: LearnerConfig
    runner: SampleRunner
    robots: RobotsPolicy
    limiter: HostLimiter
    normalizer: MIQPSNormalizer
    progress: Progress


def _scope(config: LearnerConfig) -> str:
    data = json.dumps(
        {"render": config.to_json()["render"], "version": COMPARISON_VERSION}, sort_keys=True
    )
    return hashlib.sha256(data.encode()).hexdigest()[:16]


async def _domain_urls(
    run: _Run, target: Target, observed: Sequence[str] | None, fetch_page: Any, stats: DomainStats
) -> list[str]:
    started = time.monotonic()
    delay = await run.robots.crawl_delay(target.origin)
    run.limiter.set_crawl_delay(target.host, delay)
    if observed is not None:
        urls = []
        for url in observed:
            try:
                if target.covers(run.normalizer.static_url(url)):
                    urls.append(url)
            except ValueError:
                continue
    else:
        urls = await discover(
            target.origin,
            fetch_page=fetch_page,
            robots=run.robots,
            max_pages=run.config.discover_max_pages,
            max_urls=run.config.discover_max_urls,
        )
    stats.seconds["discover"] += time.monotonic() - started
    stats.urls = len(urls)
    return urls


async def _domain_patterns(
    run: _Run,
    target: Target,
    observed: Sequence[str] | DomainPlan | None,
    fetch_page: Any,
    stats: DomainStats,
) -> list[PatternGroup]:
    """The patterns to study: from a plan, or grouped from the observed or discovered URLs."""
    if isinstance(observed, DomainPlan):
        delay = await run.robots.crawl_delay(target.origin)
        run.limiter.set_crawl_delay(target.host, delay)
        stats.urls, stats.patterns_seen = observed.urls, observed.patterns_seen
        return list(observed.groups)
    urls = await _domain_urls(run, target, observed, fetch_page, stats)
    groups = group_by_pattern(urls, run.normalizer)
    stats.patterns_seen = len(groups)
    return top_patterns(groups, run.config.top_patterns)


async def _learn_domain(
    run: _Run,
    target: Target,
    observed: Sequence[str] | DomainPlan | None,
    fetch_page: Any,
    stats: DomainStats,
) -> DomainEntry | None:
    """Learn one domain within its time limit; what finished before a limit is kept."""
    patterns: dict[str, PatternEntry] = {}
    chosen: list[PatternGroup] = []
    try:
        async with asyncio.timeout(run.config.domain_timeout_s):
            chosen = await _domain_patterns(run, target, observed, fetch_page, stats)
            run.progress.patterns_total += len(chosen)
            started = time.monotonic()
            for group in chosen:
                if _hopeless(patterns, stats, run.config):
                    break
                pages = PatternPages(run.runner, stats.counters)
                compare_bound = functools.partial(run.runner.compare_urls, pages, stats.counters)
                seed = sample_seed(run.config.seed, target.key, group.pattern)
                patterns[group.pattern] = await classify_pattern(
                    group, run.config, compare_bound, seed=seed
                )
                run.progress.patterns_done += 1
                run.progress.update()
            stats.seconds["learn"] += time.monotonic() - started
    except TimeoutError:
        stats.error = f"domain time limit of {run.config.domain_timeout_s:.0f}s reached"
        logger.warning(
            "%s: %s; keeping %d finished patterns", target.key, stats.error, len(patterns)
        )
    except LearnerError as exc:
        stats.error = str(exc)
        logger.warning("%s: %s", target.key, exc)
    if _hopeless(patterns, stats, run.config):
        reason = (
            f"given up with the site: the originals of its first {len(patterns)} pattern(s) "
            "could not be used"
        )
        logger.warning("%s: %s", target.key, reason)
        stats.error = reason
        for group in chosen:
            if group.pattern not in patterns:
                patterns[group.pattern] = _untested(group, reason)
    if stats.serves_one_page():
        reason = "every page of the site rendered the same text: a block or consent page?"
        logger.warning("%s: %s; keeping every parameter", target.key, reason)
        stats.error = reason
        patterns = {key: _keep_all(entry, reason) for key, entry in patterns.items()}
    stats.patterns_learned = len(patterns)
    run.progress.domains_done += 1
    run.progress.update(force=True)
    if not patterns:
        return None
    return DomainEntry(patterns, extra={"renders": stats.renders, "urls": stats.urls})


# Failures that cost a page timeout or more each: what makes a site not worth going on with.
_SLOW_FAILURES = frozenset(
    {RenderCause.TIMEOUT.value, RenderCause.BUSY.value, RenderCause.MEMORY.value}
)


def _hopeless(
    patterns: Mapping[str, PatternEntry], stats: DomainStats, config: LearnerConfig
) -> bool:
    """Whether the site is not worth going on with.

    That is: every pattern studied so far was given up, and every original tried failed
    slowly (timed out, busy, or never settled). Read from outcomes alone, in pattern order,
    so a resumed run decides the same. Sites whose pages fail fast (a redirect away, a
    download) cost little and are studied on.
    """
    if not patterns or not all(gave_up(entry) for entry in patterns.values()):
        return False
    slow = set()
    for outcome in stats.counters.outcomes:
        evidence = outcome.evidence
        failure, settled = evidence.get("original_failure"), evidence.get("original_settled")
        if failure in _SLOW_FAILURES or settled is False:
            slow.add(outcome.original)
        else:
            return False
    return len(slow) >= config.give_up_after


def _untested(group: PatternGroup, reason: str) -> PatternEntry:
    params = {name: ParamVerdict("non-neutral", 0, 0, 0, reason=reason) for name in group.names}
    return PatternEntry(group.count, params)


def _keep_all(entry: PatternEntry, reason: str) -> PatternEntry:
    params = {name: kept(v, reason) if v.neutral else v for name, v in entry.params.items()}
    return PatternEntry(entry.urls, params, entry.extra)


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
    """What a run did and cost, as ``stats.json`` records it."""
    renders = sum(s.renders for s in stats)
    return {
        "domains": {s.key: s.to_json() for s in stats},
        "renders": renders,
        "render_failures": sum(s.counters.render_failures for s in stats),
        "comparisons": sum(s.counters.comparisons for s in stats),
        "resumed_comparisons": sum(s.counters.resumed for s in stats),
        "seconds": round(seconds, 3),
        "render_seconds": round(render_seconds, 3),
        "pages_per_second": round(renders / seconds, 3) if seconds else 0.0,
        "evidence_bytes": evidence[0],
        "evidence_skipped": evidence[1],
        "settings": config.to_json(),
    }


def politeness(
    config: LearnerConfig, resolve: Mapping[str, str]
) -> tuple[HostLimiter, RetryPolicy, Any, RobotsPolicy]:
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
    )
    retry_policy = RetryPolicy(attempts=config.retries + 1)
    fetch_page = polite_fetcher(plain, limiter=limiter, policy=retry_policy)
    robots = RobotsPolicy(fetch_page, config.render.user_agent)
    return limiter, retry_policy, fetch_page, robots


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
) -> CrawlResult:
    """Learn ``targets`` and write the learned set to ``out``.

    Args:
        targets: the sites, from the domains file.
        config: the method, politeness and budgets.
        out: where the learned set goes (written atomically).
        cache: the run folder: checkpoint, evidence, stats; a rerun with it resumes.
        observed: an observed-URL log; ``None`` discovers URLs from each site.
        plan: the patterns to study per domain key (:func:`learner.plan.read_plan`), instead
            of ``observed``; every target must be in it.
        resolve: ``HOST -> ADDR:PORT`` for every request, browser and plain alike.
        browser: a Chromium executable to use instead of the one found.
        previous: the learned set last published, for the publishing gate.
        force: write even when the gate refuses.
        progress: where progress is shown.

    Raises:
        BrowserNotFound, ConfigError: before any work is done.
        GateRefused: the new set was kept in the run folder, not written to ``out``.
    """
    progress = progress or Progress(enabled=False)
    progress.domains_total = len(targets)
    resolve = dict(resolve or {})
    parse_resolve(resolve)
    sources = domain_sources(targets, observed, plan)
    old = load_learned(previous) if previous is not None else None
    check_output(out)
    choice = find_browser(browser)
    started = time.monotonic()
    normalizer = MIQPSNormalizer()
    limiter, retry_policy, fetch_page, robots = politeness(config, resolve)
    stats = [DomainStats(t.key) for t in targets]
    async with AsyncExitStack() as stack:
        store = await stack.enter_async_context(
            RunStore(
                cache, scope=_scope(config), evidence_budget_bytes=config.evidence_budget_bytes
            )
        )
        store.write_run(
            {"config": config.to_json(), "targets": [t.key for t in targets], "resolve": resolve}
        )
        renderer = await stack.enter_async_context(
            Renderer(
                config.render,
                executable=choice.executable,
                resolve=resolve,
                max_open_pages=config.concurrency,
            )
        )
        runner = SampleRunner(
            config, renderer, store, limiter, robots, progress, retry_policy=retry_policy
        )
        run = _Run(config, runner, robots, limiter, normalizer, progress)
        entries = await asyncio.gather(
            *(
                _learn_domain(run, t, source, fetch_page, s)
                for t, source, s in zip(targets, sources, stats, strict=True)
            )
        )
        learned = learned_set(config, [(t.key, e) for t, e in zip(targets, entries, strict=True)])
        summary = {
            "browser": {"executable": choice.executable, "source": choice.source},
            **run_summary(
                config,
                stats,
                seconds=time.monotonic() - started,
                render_seconds=runner.render_seconds,
                evidence=(store.evidence_bytes, store.evidence_skipped),
            ),
        }
        store.write_stats(summary)
    progress.finish()
    result_gate = publish(
        learned,
        out=out,
        run_folder=cache,
        previous=old,
        max_flip_fraction=config.gate_max_flip_fraction,
        force=force,
    )
    return CrawlResult(learned, out, cache, summary, tuple(stats), result_gate)
