"""The learner on a Ray cluster: domains on actors, one Chromium each; one learned set.

Needs Ray (``pip install 'samepage[cluster]'``); the single-process learner never imports
this module. The driver hands each actor whole hosts (all the domains of one host go to one
actor, so per-host pacing and robots.txt state stay in one place) and gets back small
results: each domain's verdicts (with their samples and distances) and its counters. Full
screenshots never leave an actor; thumbnails and overlays go to the run folder, within the
evidence budget.

Layout of a Ray run folder (``--cache DIR``, on storage every node sees)::

    run.json, stats.json, learned.json, lock    as for a single-process run
    domains/<domain>-<digest>/                  one run folder per domain: its checkpoint,
                                                evidence and lock

Each domain has a checkpoint of its own, written by one actor at a time (the per-domain
lock). When an actor dies, the domains it held are retried on another actor, which
resumes them from their checkpoints: finished comparisons are read back, never redone, and
every decision reads outcomes, so a retried domain publishes what an uninterrupted one
would. A domain that fails ``attempts`` times is reported and left out of the set (its
parameters stay unknown, so kept).
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import os
import re
import time
from collections import deque
from collections.abc import Callable, Mapping, Sequence
from contextlib import AsyncExitStack
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import ray
from ray.exceptions import RayActorError, RayError

from learner.browser import find_browser
from learner.config import LearnerConfig
from learner.crawl import (
    CrawlResult,
    DomainStats,
    _learn_domain,
    _Run,
    _scope,
    domain_sources,
    learned_set,
    politeness,
    run_summary,
)
from learner.errors import ConfigError
from learner.outputs import check_output
from learner.plan import DomainPlan, PlanSettings, plan_urls
from learner.progress import Progress
from learner.publish import publish
from learner.renderer import Renderer
from learner.resolve import parse_resolve
from learner.samples import SampleRunner
from learner.store import RunStore
from learner.targets import Target
from samepage import DomainEntry, MIQPSNormalizer, load_learned

logger = logging.getLogger(__name__)

__all__ = ["DomainWorker", "crawl_on_ray", "domain_folder"]

Source = Sequence[str] | DomainPlan | None


def domain_folder(cache: Path, key: str) -> Path:
    """The run folder of one domain inside a Ray run folder."""
    digest = hashlib.sha1(key.encode("utf-8")).hexdigest()[:8]
    return cache / "domains" / f"{re.sub(r'[^A-Za-z0-9._-]', '_', key)}-{digest}"


@dataclass(frozen=True, slots=True)
class _Task:
    """The domains of one host, learned on one actor."""

    host: str
    targets: tuple[Target, ...]
    sources: tuple[Source, ...]
    attempt: int = 1


@dataclass(frozen=True, slots=True)
class _Learned:
    """What an actor sends back for one domain: small, no screenshots."""

    key: str
    entry: DomainEntry | None
    stats: DomainStats
    render_seconds: float
    evidence: tuple[int, int]


class DomainWorker:
    """The state of one Ray actor: one Chromium and the politeness of the hosts it holds.

    Args:
        config: the run's settings.
        cache: the Ray run folder (shared storage).
        resolve: ``HOST -> ADDR:PORT`` for every request.
        browser: a Chromium executable, else the one found on the actor's node.
        evidence_budget_bytes: the evidence budget of each domain folder.
    """

    def __init__(
        self,
        config: LearnerConfig,
        cache: str,
        resolve: Mapping[str, str],
        browser: str | None,
        evidence_budget_bytes: int,
    ) -> None:
        self.config = config
        self.cache = Path(cache)
        self.resolve = dict(resolve)
        self.browser = browser
        self.budget = evidence_budget_bytes
        self.normalizer = MIQPSNormalizer()
        self.limiter, self.retry_policy, self.fetch_page, self.robots = politeness(
            config, self.resolve
        )
        self._stack = AsyncExitStack()
        self._renderer: Renderer | None = None
        self._opening = asyncio.Lock()

    def pid(self) -> int:
        """The actor's process id."""
        return os.getpid()

    async def _open(self) -> Renderer:
        async with self._opening:
            if self._renderer is None:
                choice = find_browser(self.browser)
                self._renderer = await self._stack.enter_async_context(
                    Renderer(
                        self.config.render,
                        executable=choice.executable,
                        resolve=self.resolve,
                        max_open_pages=self.config.concurrency,
                    )
                )
            return self._renderer

    async def learn(self, task: _Task) -> list[_Learned]:
        """Learn the domains of one host, each resumed from its checkpoint."""
        renderer = await self._open()
        out = []
        for target, source in zip(task.targets, task.sources, strict=True):
            out.append(await self._learn(renderer, target, source))
        return out

    async def _learn(self, renderer: Renderer, target: Target, source: Source) -> _Learned:
        progress = Progress(enabled=False)
        stats = DomainStats(target.key)
        folder = domain_folder(self.cache, target.key)
        async with RunStore(
            folder, scope=_scope(self.config), evidence_budget_bytes=self.budget
        ) as store:
            runner = SampleRunner(
                self.config,
                renderer,
                store,
                self.limiter,
                self.robots,
                progress,
                retry_policy=self.retry_policy,
            )
            run = _Run(self.config, runner, self.robots, self.limiter, self.normalizer, progress)
            entry = await _learn_domain(run, target, source, self.fetch_page, stats)
            evidence = (store.evidence_bytes, store.evidence_skipped)
        stats.counters.outcomes = []  # read back from the checkpoint; not sent to the driver
        return _Learned(target.key, entry, stats, runner.render_seconds, evidence)

    async def close(self) -> None:
        """Close the browser."""
        await self._stack.aclose()


def _tasks(targets: Sequence[Target], sources: Sequence[Source]) -> list[_Task]:
    """One task per host, in the order of the domains file."""
    by_host: dict[str, list[tuple[Target, Source]]] = {}
    for target, source in zip(targets, sources, strict=True):
        by_host.setdefault(target.host, []).append((target, source))
    return [
        _Task(host, tuple(t for t, _ in pairs), tuple(s for _, s in pairs))
        for host, pairs in by_host.items()
    ]


class _Pool:
    """Keeps every actor busy with up to ``per_actor`` hosts; retries a dead actor's hosts.

    Nothing here schedules: Ray places the actors, and ``asyncio.wait`` on the tasks' object
    references says which finished. An actor that died is replaced by a fresh one.
    """

    def __init__(
        self,
        make_actor: Callable[[], Any],
        size: int,
        *,
        per_actor: int,
        attempts: int,
        progress: Progress,
        on_assign: Callable[[str, Any], None] | None,
    ) -> None:
        self.make_actor = make_actor
        self.size = size
        self.per_actor = per_actor
        self.attempts = attempts
        self.progress = progress
        self.on_assign = on_assign
        self.actors: list[Any] = []
        self.started = 0
        self.tries: dict[str, int] = {}
        self.failed: dict[str, str] = {}

    def _actor(self) -> Any:
        actor = self.make_actor()
        self.started += 1
        self.actors.append(actor)
        return actor

    async def run(self, tasks: Sequence[_Task]) -> list[_Learned]:
        queue = deque(tasks)
        load: dict[Any, int] = {}
        flight: dict[asyncio.Future[Any], tuple[_Task, Any]] = {}
        results: list[_Learned] = []
        for _ in range(self.size):
            load[self._actor()] = 0
        try:
            while queue or flight:
                while queue:
                    idle = [a for a in self.actors if load[a] < self.per_actor]
                    if not idle:
                        break
                    actor = min(idle, key=lambda a: load[a])
                    task = queue.popleft()
                    for target in task.targets:
                        self.tries[target.key] = task.attempt
                        if self.on_assign is not None:
                            self.on_assign(target.key, actor)
                    ref = actor.learn.remote(task)
                    flight[asyncio.wrap_future(ref.future())] = (task, actor)
                    load[actor] += 1
                done, _ = await asyncio.wait(flight, return_when=asyncio.FIRST_COMPLETED)
                for future in done:
                    task, actor = flight.pop(future)
                    load[actor] = load.get(actor, 1) - 1
                    try:
                        learned = future.result()
                    except RayActorError as exc:
                        if actor in self.actors:
                            logger.warning("an actor died (%s); starting another", exc)
                            self.actors.remove(actor)
                            load.pop(actor, None)
                            load[self._actor()] = 0
                        self._retry(task, queue, f"its actor died: {type(exc).__name__}")
                        continue
                    except RayError as exc:  # the task raised, or its worker crashed
                        cause = getattr(exc, "cause", None) or exc
                        self._retry(task, queue, f"{type(cause).__name__}: {cause}")
                        continue
                    results.extend(learned)
                    self._done(learned)
        finally:
            for future in flight:
                future.cancel()
        return results

    def _retry(self, task: _Task, queue: deque[_Task], reason: str) -> None:
        keys = ", ".join(t.key for t in task.targets)
        if task.attempt < self.attempts:
            logger.warning("%s: attempt %d failed (%s); retrying", keys, task.attempt, reason)
            queue.append(replace(task, attempt=task.attempt + 1))
            return
        logger.warning("%s: failed on all %d attempts (%s)", keys, self.attempts, reason)
        for target in task.targets:
            self.failed[target.key] = f"failed on {self.attempts} attempts: {reason}"
        self.progress.domains_done += len(task.targets)
        self.progress.update(force=True)

    def _done(self, learned: Sequence[_Learned]) -> None:
        p = self.progress
        for item in learned:
            counters = item.stats.counters
            p.domains_done += 1
            p.patterns_total += item.stats.patterns_learned
            p.patterns_done += item.stats.patterns_learned
            p.renders += counters.renders
            p.failures += counters.render_failures
            p.resumed += counters.resumed
        p.update(force=True)

    async def close(self) -> None:
        """Close every live actor's browser, then end the actors."""
        closing = [asyncio.wrap_future(a.close.remote().future()) for a in self.actors]
        await asyncio.gather(*closing, return_exceptions=True)
        for actor in self.actors:
            ray.kill(actor)
        self.actors.clear()


def _connect(address: str) -> bool:
    """Connect to Ray (``local`` starts a local instance); whether this call started it."""
    if ray.is_initialized():
        return False
    ray.init(address=None if address == "local" else address, logging_level=logging.WARNING)
    return True


async def crawl_on_ray(
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
    address: str = "local",
    actors: int | None = None,
    attempts: int = 3,
    on_assign: Callable[[str, Any], None] | None = None,
) -> CrawlResult:
    """Learn ``targets`` on Ray actors and publish one learned set, as :func:`crawl` does.

    Args:
        targets: the sites, from the domains file.
        config: the method, politeness and budgets.
        out: where the learned set goes (written atomically).
        cache: the run folder, on storage every node of the cluster sees.
        observed: an observed-URL log, grouped once on the driver.
        plan: the patterns to study per domain key, instead of ``observed``.
        resolve: ``HOST -> ADDR:PORT`` for every request.
        browser: a Chromium executable, on every node.
        previous: the learned set last published, for the publishing gate.
        force: write even when the gate refuses.
        progress: where progress is shown (updated as domains finish).
        address: ``local`` (start a local Ray), ``auto`` or a cluster address; an already
            connected Ray is used as it is.
        actors: how many actors (one Chromium each); by default the cluster's CPUs, at most
            one per host.
        attempts: how often a domain is tried when its actor dies.
        on_assign: called with a domain key and the actor it is sent to (for monitoring).

    Raises:
        ConfigError: before any work, for unusable options.
        GateRefused: the new set was kept in the run folder, not written to ``out``.
    """
    if attempts < 1:
        raise ConfigError(f"--ray-attempts: must be at least 1, not {attempts}")
    if actors is not None and actors < 1:
        raise ConfigError(f"--ray-actors: must be at least 1, not {actors}")
    progress = progress or Progress(enabled=False)
    progress.domains_total = len(targets)
    resolve = dict(resolve or {})
    parse_resolve(resolve)
    if observed is not None and plan is None:
        # The driver groups the log once; actors get only their domains' patterns.
        settings = PlanSettings(config.top_patterns, config.samples, config.seed)
        plan = {p.key: p for p in plan_urls(targets, observed, settings)}
    sources = domain_sources(targets, None, plan)
    old = load_learned(previous) if previous is not None else None
    check_output(out)
    started_ray = _connect(address)
    started = time.monotonic()
    tasks = _tasks(targets, sources)
    cpus = ray.cluster_resources().get("CPU", 1)  # type: ignore[no-untyped-call]
    size = actors or max(1, int(cpus))
    size = min(size, len(tasks)) or 1
    budget = config.evidence_budget_bytes // max(1, len(targets))
    remote = ray.remote(num_cpus=1)(DomainWorker)
    pool = _Pool(
        lambda: remote.remote(config, str(cache.resolve()), resolve, browser, budget),
        size,
        per_actor=max(1, config.concurrency) * 2,
        attempts=attempts,
        progress=progress,
        on_assign=on_assign,
    )
    try:
        async with RunStore(
            cache, scope=_scope(config), evidence_budget_bytes=config.evidence_budget_bytes
        ) as store:
            store.write_run(
                {
                    "config": config.to_json(),
                    "targets": [t.key for t in targets],
                    "resolve": resolve,
                    "ray": {"address": address, "actors": size, "attempts": attempts},
                }
            )
            try:
                learned = {item.key: item for item in await pool.run(tasks)}
            finally:
                await pool.close()
            stats = []
            for target in targets:
                item = learned.get(target.key)
                stats.append(item.stats if item else DomainStats(target.key))
                if item is None:
                    stats[-1].error = pool.failed.get(target.key, "not learned")
            entries = [(t.key, learned[t.key].entry if t.key in learned else None) for t in targets]
            result_set = learned_set(config, entries)
            summary = run_summary(
                config,
                stats,
                seconds=time.monotonic() - started,
                render_seconds=sum(i.render_seconds for i in learned.values()),
                evidence=(
                    sum(i.evidence[0] for i in learned.values()),
                    sum(i.evidence[1] for i in learned.values()),
                ),
            )
            summary["ray"] = {
                "address": address,
                "actors": size,
                "actors_started": pool.started,
                "attempts": dict(pool.tries),
                "failed": dict(pool.failed),
            }
            store.write_stats(summary)
    finally:
        if started_ray:
            ray.shutdown()
    progress.finish()
    gate = publish(
        result_set,
        out=out,
        run_folder=cache,
        previous=old,
        max_flip_fraction=config.gate_max_flip_fraction,
        force=force,
    )
    return CrawlResult(result_set, out, cache, summary, tuple(stats), gate)
