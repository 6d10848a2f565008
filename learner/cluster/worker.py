"""The Ray actor of the learner: one Chromium, and the domains of the hosts it is sent.

Imports nothing of Ray: :mod:`learner.cluster.driver` declares :class:`DomainWorker` as an actor
(with Ray's restarts and task retries) and sends it :class:`HostTask` s. Each domain is
learned in its own run folder inside the Ray run folder (:func:`domain_folder`), so a task
retried on a restarted actor resumes every domain from its checkpoint.
"""

from __future__ import annotations

import asyncio
import hashlib
import os
import re
from collections.abc import Mapping, Sequence
from contextlib import AsyncExitStack
from dataclasses import dataclass
from pathlib import Path

from learner.config import LearnerConfig
from learner.plan.domains import DomainPlan
from learner.plan.targets import Target
from learner.render.browser import find_browser
from learner.render.renderer import Renderer
from learner.run.crawl import politeness
from learner.run.domain import DomainRun, DomainStats, learn_domain
from learner.run.progress import Progress
from learner.run.sample_runner import SampleRunner
from learner.run.store import RunLayout, RunStore, comparison_scope
from samepage import DomainEntry, MIQPSNormalizer

__all__ = ["DomainResult", "DomainWorker", "HostTask", "domain_folder", "host_tasks"]

Source = Sequence[str] | DomainPlan | None


def domain_folder(cache: Path, key: str) -> Path:
    """The run folder of one domain inside a Ray run folder."""
    digest = hashlib.sha1(key.encode("utf-8")).hexdigest()[:8]
    return RunLayout(cache).domains / f"{re.sub(r'[^A-Za-z0-9._-]', '_', key)}-{digest}"


@dataclass(frozen=True, slots=True)
class HostTask:
    """The domains of one host, learned on one actor (one pool task)."""

    host: str
    targets: tuple[Target, ...]
    sources: tuple[Source, ...]


def host_tasks(targets: Sequence[Target], sources: Sequence[Source]) -> list[HostTask]:
    """One task per host, in the order of the domains file."""
    by_host: dict[str, list[tuple[Target, Source]]] = {}
    for target, source in zip(targets, sources, strict=True):
        by_host.setdefault(target.host, []).append((target, source))
    return [
        HostTask(host, tuple(t for t, _ in pairs), tuple(s for _, s in pairs))
        for host, pairs in by_host.items()
    ]


@dataclass(frozen=True, slots=True)
class DomainResult:
    """What an actor sends back for one domain: small, no screenshots."""

    key: str
    entry: DomainEntry | None
    stats: DomainStats
    render_seconds: float
    evidence: tuple[int, int]


class DomainWorker:
    """The state of one Ray actor: one Chromium and the politeness of the hosts it holds.

    A restarted actor runs this constructor again: a fresh browser, opened on first use.

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
        polite = politeness(config, self.resolve)
        self.limiter, self.retry_policy = polite.limiter, polite.retry_policy
        self.fetch_page, self.robots = polite.fetch_page, polite.robots
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
                        allow_private=self.config.allow_private,
                        max_open_pages=self.config.concurrency,
                    )
                )
            return self._renderer

    async def learn(self, task: HostTask) -> dict[str, DomainResult]:
        """Learn the domains of one host, each resumed from its checkpoint; results by key."""
        renderer = await self._open()
        out = {}
        for target, source in zip(task.targets, task.sources, strict=True):
            out[target.key] = await self._learn(renderer, target, source)
        return out

    async def _learn(self, renderer: Renderer, target: Target, source: Source) -> DomainResult:
        progress = Progress(enabled=False)
        stats = DomainStats(target.key)
        folder = domain_folder(self.cache, target.key)
        async with RunStore(
            folder, scope=comparison_scope(self.config.to_json()), evidence_budget_bytes=self.budget
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
            run = DomainRun(
                self.config, runner, self.robots, self.limiter, self.normalizer, progress
            )
            entry = await learn_domain(run, target, source, self.fetch_page, stats)
            evidence = (store.evidence_bytes, store.evidence_skipped)
        stats.counters.outcomes = []  # read back from the checkpoint; not sent to the driver
        return DomainResult(target.key, entry, stats, runner.render_seconds, evidence)

    async def close(self) -> None:
        """Close the browser."""
        await self._stack.aclose()
