"""The learner on a Ray cluster: hosts sent to actors, one Chromium each; one learned set.

Needs Ray (``pip install 'samepage[cluster]'``); the single-process learner never imports
this module. Scheduling, retries and restarts are Ray's: the actors
(:class:`~learner.cluster.worker.DomainWorker`) are declared with ``max_restarts=-1`` and
``max_task_retries=attempts - 1``, and a :class:`ray.util.ActorPool` hands them the tasks,
one per host (all the domains of one host go to one actor, so per-host pacing and robots.txt
state stay in one place). The driver gets back small results: each domain's verdicts (with
their samples and distances) and its counters, keyed by domain. Full screenshots never
leave an actor; thumbnails and overlays go to the run folder, within the evidence budget.

Layout of a Ray run folder (``--cache DIR``, on storage every node sees)::

    run.json, stats.json, learned.json, lock    as for a single-process run
    domains/<domain>-<digest>/                  one run folder per domain: its checkpoint,
                                                evidence and lock

When an actor dies, Ray restarts it (a fresh Chromium) and retries its tasks on it; each
domain resumes from its checkpoint: finished comparisons are read back, never redone, and
every decision reads outcomes, so a retried domain publishes what an uninterrupted one
would. A domain without a result at the end (its task failed on every attempt, or raised)
is reported in ``stats.json`` (``ray.failed``) and left out of the set (unknown: kept).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import ray
from ray.exceptions import RayError, RayTaskError
from ray.util import ActorPool

from learner.cluster.worker import DomainResult, DomainWorker, HostTask, domain_folder, host_tasks
from learner.config import LearnerConfig
from learner.errors import ConfigError
from learner.plan.domains import DomainPlan, PlanSettings, plan_urls
from learner.plan.targets import Target
from learner.run.crawl import CrawlResult, EngineResult, RunRequest, run_learner
from learner.run.domain import DomainStats
from learner.run.progress import Progress
from learner.run.store import RunStore

logger = logging.getLogger(__name__)

__all__ = ["crawl_on_ray", "domain_folder"]


def _error_text(exc: RayError) -> str:
    """One line saying why a task failed."""
    cause: BaseException = exc
    if isinstance(exc, RayTaskError):
        cause = exc.cause or exc
    first = (str(cause).strip().splitlines() or [""])[0]
    return f"{type(cause).__name__}: {first}"[:300]


def _count(progress: Progress, item: DomainResult) -> None:
    counters = item.stats.counters
    progress.domains_done += 1
    progress.patterns_total += item.stats.patterns_learned
    progress.patterns_done += item.stats.patterns_learned
    progress.renders += counters.renders
    progress.failures += counters.render_failures
    progress.resumed += counters.resumed


def _run_pool(
    actors: Sequence[Any],
    tasks: Sequence[HostTask],
    *,
    slots: int,
    progress: Progress,
    on_assign: Callable[[str, Any], None] | None,
) -> tuple[dict[str, DomainResult], list[str]]:
    """Run every task on the pool (blocking); the results by domain and the errors seen.

    Each actor is in the pool ``slots`` times, so it holds up to that many hosts at once.
    """
    pool = ActorPool([actor for actor in actors for _ in range(slots)])

    def submit(actor: Any, task: HostTask) -> Any:
        if on_assign is not None:
            for target in task.targets:
                on_assign(target.key, actor)
        return actor.learn.remote(task)

    for task in tasks:
        pool.submit(submit, task)
    results: dict[str, DomainResult] = {}
    errors: list[str] = []
    while pool.has_next():  # type: ignore[no-untyped-call]
        try:
            learned: dict[str, DomainResult] = pool.get_next_unordered()
        except RayError as exc:  # retries exhausted, or the task raised: which one is unknown
            errors.append(_error_text(exc))
            logger.warning("a host failed: %s", errors[-1])
            continue
        for item in learned.values():
            results[item.key] = item
            _count(progress, item)
        progress.update(force=True)
    return results, errors


def _close(actors: Sequence[Any]) -> None:
    """Close every actor's browser, then end the actors (without restarts)."""
    for actor in actors:
        try:
            ray.get(actor.close.remote(), timeout=60)
        except (RayError, TimeoutError) as exc:
            logger.info("an actor did not close cleanly: %s", exc)
        ray.kill(actor)


def _connect(address: str) -> bool:
    """Connect to Ray (``local`` starts a local instance); whether this call started it."""
    if ray.is_initialized():
        return False
    ray.init(address=None if address == "local" else address, logging_level=logging.WARNING)
    return True


@dataclass(slots=True)
class _OnRay:
    """Hosts sent to Ray actors, one Chromium each."""

    address: str
    actors: int | None
    attempts: int
    browser: str | None
    on_assign: Callable[[str, Any], None] | None

    def prepare(self, request: RunRequest) -> dict[str, Any]:
        if self.attempts < 1:
            raise ConfigError(f"--ray-attempts: must be at least 1, not {self.attempts}")
        if self.actors is not None and self.actors < 1:
            raise ConfigError(f"--ray-actors: must be at least 1, not {self.actors}")
        return {"ray": {"address": self.address, "attempts": self.attempts}}

    async def learn(
        self,
        request: RunRequest,
        store: RunStore,
        sources: Sequence[Sequence[str] | DomainPlan | None],
        progress: Progress,
    ) -> EngineResult:
        config, targets, cache = request.config, request.targets, request.cache
        started_ray = _connect(self.address)
        try:
            tasks = host_tasks(targets, sources)
            cpus = ray.cluster_resources().get("CPU", 1)  # type: ignore[no-untyped-call]
            size = min(self.actors or max(1, int(cpus)), len(tasks)) or 1
            budget = config.evidence_budget_bytes // max(1, len(targets))
            remote = ray.remote(num_cpus=1, max_restarts=-1, max_task_retries=self.attempts - 1)(
                DomainWorker
            )
            resolve = dict(request.resolve or {})
            workers = [
                remote.remote(config, str(cache.resolve()), resolve, self.browser, budget)
                for _ in range(size)
            ]
            try:
                learned, errors = await asyncio.to_thread(
                    _run_pool,
                    workers,
                    tasks,
                    slots=max(1, config.concurrency),
                    progress=progress,
                    on_assign=self.on_assign,
                )
            finally:
                await asyncio.to_thread(_close, workers)
        finally:
            if started_ray:
                ray.shutdown()
        failed = {
            t.key: f"not learned after {self.attempts} attempt(s): "
            + (errors[-1] if errors else "no result")
            for t in targets
            if t.key not in learned
        }
        for key, reason in failed.items():
            logger.warning("%s: %s; left out of the set", key, reason)
        return EngineResult(
            [
                learned[t.key].stats
                if t.key in learned
                else DomainStats(t.key, error=failed[t.key])
                for t in targets
            ],
            [learned[t.key].entry if t.key in learned else None for t in targets],
            sum(i.render_seconds for i in learned.values()),
            (
                sum(i.evidence[0] for i in learned.values()),
                sum(i.evidence[1] for i in learned.values()),
            ),
            {
                "ray": {
                    "address": self.address,
                    "actors": size,
                    "attempts": self.attempts,
                    "failed": failed,
                }
            },
        )


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
        progress: where progress is shown (updated as hosts finish).
        address: ``local`` (start a local Ray), ``auto`` or a cluster address; an already
            connected Ray is used as it is.
        actors: how many actors (one Chromium each); by default the cluster's CPUs, at most
            one per host.
        attempts: how often a host's task is tried when its actor dies (Ray's retries).
        on_assign: called, from the thread that runs the pool, with a domain key and the
            actor it is sent to (for monitoring).

    Raises:
        ConfigError: before any work, for unusable options.
        GateRefused: the new set was kept in the run folder, not written to ``out``.
    """
    if observed is not None and plan is None:
        # The driver groups the log once; actors get only their domains' patterns.
        settings = PlanSettings.of(config)
        plan = {p.key: p for p in plan_urls(targets, observed, settings)}
    request = RunRequest(
        targets, config, out, cache, None, plan, resolve, previous, force, progress
    )
    engine = _OnRay(address, actors, attempts, browser, on_assign)
    return await run_learner(request, engine)
