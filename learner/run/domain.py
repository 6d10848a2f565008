"""Learning one domain: its patterns studied within its time limit, one entry of the set.

Shared by the single-process crawl (:mod:`learner.run.crawl`), which learns every domain in one
process, and the Ray actors (:mod:`learner.cluster.worker`), which learn the domains of the
hosts they hold. Every site-level check reads the samples' outcomes, so a domain resumed
from its checkpoint decides exactly as a fresh one.
"""

from __future__ import annotations

import asyncio
import collections
import dataclasses
import functools
import logging
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from learner.config import LearnerConfig
from learner.errors import LearnerError
from learner.judge.aliases import AliasAccount, AliasFinding
from learner.judge.classify import classify_pattern, gave_up
from learner.judge.defaults import learn_defaults
from learner.judge.joint import kept
from learner.judge.listed import ListedAccount, ListedTally, check_listed, listed_account
from learner.judge.rate import ChangeRule
from learner.judge.shared import shared_evidence
from learner.judge.site import hopeless, serves_one_page
from learner.judge.verdicts import Account, VerdictCause, account
from learner.net.discovery import discover
from learner.net.limiter import HostLimiter
from learner.net.robots import RobotsPolicy
from learner.plan.coverage import Choice, Left
from learner.plan.domains import DomainPlan, PlanSettings
from learner.plan.listed import listed_samples
from learner.plan.sampling import (
    PatternGroup,
    alias_sample_partial,
    group_by_pattern,
    sample_seed,
)
from learner.plan.targets import Target
from learner.run.alias_study import (
    NO_ALIAS_URLS,
    PARTIAL_ALIAS_URLS,
    AliasStudy,
    study_aliases,
)
from learner.run.budget import BudgetSpent, BudgetTicket, RenderBudget
from learner.run.progress import Progress
from learner.run.sample_runner import PatternPages, SampleRunner, SiteCounters
from samepage import DomainEntry, MIQPSNormalizer, ParamVerdict, PatternEntry

logger = logging.getLogger(__name__)

__all__ = [
    "DomainRun",
    "DomainStats",
    "learn_domain",
    "renders_per_studied",
]


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
    account: Account = field(default_factory=Account)
    """How many studied parameters were decided by evidence, and what kept the rest."""
    choice: Choice = field(default_factory=Choice)
    """The patterns studied and left, and the share of the URLs with parameters covered."""
    listed: ListedAccount = field(default_factory=ListedAccount)
    """The spot-checks of listed names: their samples, renders and findings."""
    aliases: AliasAccount = field(default_factory=AliasAccount)
    """The alias study: its candidates, renders and findings."""

    @property
    def renders(self) -> int:
        """Renders made for this domain in this run."""
        return self.counters.renders

    def to_json(self) -> dict[str, Any]:
        """These statistics as JSON."""
        c = self.counters
        return {
            "urls": self.urls,
            "patterns_seen": self.patterns_seen,
            "patterns_learned": self.patterns_learned,
            "renders": c.renders,
            "renders_per_studied": renders_per_studied(c.renders, self.account.studied),
            "render_failures": c.render_failures,
            "comparisons": c.comparisons,
            "resumed_comparisons": c.resumed,
            "archive_samples": c.archived,
            "archive_refused": dict(sorted(c.archive_refused.items())),
            "archive_doubts": dict(sorted(c.archive_doubts.items())),
            "seconds": {k: round(v, 3) for k, v in self.seconds.items()},
            "error": self.error,
            "decided": self.account.to_json(),
            "coverage": self.choice.to_json(),
            "listed": self.listed.to_json(),
            "aliases": self.aliases.to_json(),
        }


def renders_per_studied(renders: int, studied: int) -> float | None:
    """Renders spent for each studied parameter (``None`` where none was studied)."""
    return round(renders / studied, 2) if studied else None


@dataclass(slots=True)
class DomainRun:
    """What every domain learned in one process shares: settings, runner, politeness."""

    config: LearnerConfig
    runner: SampleRunner
    robots: RobotsPolicy
    limiter: HostLimiter
    normalizer: MIQPSNormalizer
    progress: Progress


async def _domain_urls(
    run: DomainRun,
    target: Target,
    observed: Sequence[str] | None,
    fetch_page: Any,
    stats: DomainStats,
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
    run: DomainRun,
    target: Target,
    observed: Sequence[str] | DomainPlan | None,
    fetch_page: Any,
    stats: DomainStats,
) -> tuple[list[PatternGroup], Sequence[str] | None]:
    """The patterns to study: from a plan, or grouped from the observed or discovered URLs.

    The choice (:mod:`learner.plan.coverage`) goes into ``stats``. The URLs are returned
    too, for the alias study: a plan's alias URLs (``None`` from a plan file without them).
    """
    if isinstance(observed, DomainPlan):
        delay = await run.robots.crawl_delay(target.origin)
        run.limiter.set_crawl_delay(target.host, delay)
        stats.urls, stats.patterns_seen = observed.urls, observed.patterns_seen
        stats.choice = observed.choice
        return list(observed.groups), observed.alias_urls
    urls = await _domain_urls(run, target, observed, fetch_page, stats)
    groups = group_by_pattern(urls, run.normalizer)
    stats.patterns_seen = len(groups)
    chosen, stats.choice = PlanSettings.of(run.config).choose(target.key, groups)
    return chosen, urls


async def learn_domain(
    run: DomainRun,
    target: Target,
    observed: Sequence[str] | DomainPlan | None,
    fetch_page: Any,
    stats: DomainStats,
) -> DomainEntry | None:
    """Learn one domain within its time limit; what finished before a limit is kept.

    Args:
        run: what the domains learned in this process share.
        target: the domain.
        observed: its plan, an observed-URL log to filter, or ``None`` to discover URLs.
        fetch_page: the polite plain fetcher (for discovery).
        stats: filled in with what the domain cost and produced.

    Returns:
        The domain's entry, or ``None`` when no pattern was studied.
    """
    patterns: dict[str, PatternEntry] = {}
    chosen: list[PatternGroup] = []
    listed = _ListedStudy()
    aliases = AliasStudy(AliasAccount(), ())
    studies: _Studies | None = None
    try:
        async with asyncio.timeout(run.config.domain_timeout_s):
            chosen, urls = await _domain_patterns(run, target, observed, fetch_page, stats)
            run.progress.patterns_total += len(chosen)
            started = time.monotonic()
            budget = RenderBudget(run.config.renders_per_domain, stats.counters)
            studies = _Studies(run, target, chosen, stats, budget, listed, patterns)
            await studies.study_all()
            if run.config.aliases and urls is None:
                aliases = AliasStudy(AliasAccount(bound=NO_ALIAS_URLS), ())
            elif (
                run.config.aliases
                and isinstance(observed, DomainPlan)
                and urls
                and (alias_sample_partial(urls))
            ):
                aliases = AliasStudy(AliasAccount(bound=PARTIAL_ALIAS_URLS), ())
            elif run.config.aliases and urls and not budget.spent:
                aliases = await study_aliases(
                    urls,
                    run.config,
                    run.runner,
                    run.normalizer,
                    stats.counters,
                    budget.limit,
                    covers=target.covers,
                )
            stats.seconds["learn"] += time.monotonic() - started
    except TimeoutError:
        stats.error = f"domain time limit of {run.config.domain_timeout_s:.0f}s reached"
        stats.choice = stats.choice.cut(studies.done if studies else 0, Left.TIME)
        logger.warning(
            "%s: %s; keeping %d finished patterns", target.key, stats.error, len(patterns)
        )
    except LearnerError as exc:
        stats.error = str(exc)
        logger.warning("%s: %s", target.key, exc)
    except OSError:
        raise  # the run's own disk or folder: every domain would fail the same way
    except Exception as exc:  # a hostile site must end its own domain, never the run
        stats.error = f"{type(exc).__name__}: {exc}"
        logger.error(
            "%s: %s; keeping %d finished patterns",
            target.key,
            stats.error,
            len(patterns),
            exc_info=True,
        )
    if hopeless(patterns, stats.counters.outcomes, run.config.give_up_after):
        reason = (
            f"given up with the site: the originals of its first {len(patterns)} pattern(s) "
            "could not be used"
        )
        logger.warning("%s: %s", target.key, reason)
        stats.error = reason
        for group in chosen:
            if group.pattern not in patterns:
                patterns[group.pattern] = _untested(group, reason)
    rule = ChangeRule(run.config.threshold)
    shared = shared_evidence(patterns, run.normalizer, run.config.min_samples, rule=rule)
    stats.listed, keep = listed_account(listed.tallies, rule, listed.renders)
    stats.aliases, rules = aliases.account, aliases.rules
    if serves_one_page(stats.counters.outcomes):
        reason = "every page of the site rendered the same text: a block or consent page?"
        logger.warning("%s: %s; keeping every parameter", target.key, reason)
        stats.error = reason
        patterns = {key: _keep_all(entry, reason) for key, entry in patterns.items()}
        shared = {}
        keep = {}  # the lists stand: no change a block page showed is the site's
        rules = ()  # a block page is the same for every spelling
    stats.patterns_learned = len(patterns)
    stats.account = account(patterns, stats.counters.outcomes)
    run.progress.domains_done += 1
    run.progress.update(force=True)
    if not patterns:
        return None
    refused = tuple(
        v.refused() for v in stats.aliases.verdicts if v.finding is not AliasFinding.LEARNED
    )
    return DomainEntry(
        patterns,
        shared=shared,
        keep_listed=keep,
        aliases=rules,
        renders=stats.renders,
        urls=stats.urls,
        aliases_refused=refused,
    )


async def _study(
    run: DomainRun,
    target: Target,
    group: PatternGroup,
    host: Sequence[PatternGroup],
    compare_bound: Any,
) -> PatternEntry:
    """One pattern's verdicts and default values, compared through ``compare_bound``.

    ``host`` is every studied pattern of the domain: a value tested value by value may
    borrow its contexts from their URLs on the pattern's templates.
    """
    seed = sample_seed(run.config.seed, target.key, group.pattern)
    entry = await classify_pattern(group, run.config, compare_bound, seed=seed)
    learned = await learn_defaults(group, entry, run.config, compare_bound, seed=seed, host=host)
    return dataclasses.replace(learned, templates=entry.templates)


@dataclass(slots=True)
class _Studies:
    """A domain's patterns studied in their chosen order, several side by side.

    A render mostly waits (its quiet window), so one pattern's samples rarely keep every
    open page busy: up to ``concurrency`` patterns are studied at once, each stopped by the
    render budget on its own. Results are taken in the chosen order, so what is published
    is a prefix of the order whatever finished first: the patterns before a cut (the budget,
    the time limit) and none after it. Until one pattern of the site could be studied, the
    patterns go one at a time, so a site found hopeless is left after the same patterns.
    """

    run: DomainRun
    target: Target
    chosen: Sequence[PatternGroup]
    stats: DomainStats
    budget: RenderBudget
    listed: _ListedStudy
    patterns: dict[str, PatternEntry]
    done: int = 0
    """Patterns whose results were taken, in order."""

    async def study_all(self) -> None:
        """Study the patterns, taking each result in order, until the end or a cut."""
        waiting = collections.deque(self.chosen)
        running: collections.deque[_Running] = collections.deque()
        try:
            while waiting or running:
                usable = any(not gave_up(entry) for entry in self.patterns.values())
                width = self.run.config.concurrency if usable else 1
                if not running:
                    if hopeless(
                        self.patterns, self.stats.counters.outcomes, self.run.config.give_up_after
                    ):
                        return
                    if self.budget.spent:
                        self._cut()
                        return
                while waiting and len(running) < width and not self.budget.spent:
                    running.append(self._start(waiting.popleft()))
                if not await self._take(running.popleft()):
                    return
        finally:
            for left in running:
                left.task.cancel()
            await asyncio.gather(*(left.task for left in running), return_exceptions=True)

    def _start(self, group: PatternGroup) -> _Running:
        ticket = self.budget.ticket()
        runner = self.run.runner
        pages = PatternPages(runner, self.stats.counters, ticket.admit, self.target.covers)
        compare = functools.partial(runner.compare_urls, pages, self.stats.counters)
        study = _study(self.run, self.target, group, self.chosen, compare)
        return _Running(group, ticket, compare, asyncio.ensure_future(ticket.run(study)))

    async def _take(self, study: _Running) -> bool:
        """Keep one study's result; ``False`` once the budget has cut the domain there."""
        group = study.group
        try:
            learned = self.patterns[group.pattern] = await study.task
        except BudgetSpent as exc:
            self.patterns[group.pattern] = _untested(group, str(exc), VerdictCause.BUDGET)
            self._cut()
            return False
        self.done += 1
        if not gave_up(learned):  # originals that cannot be used: nothing to check
            try:
                await study.ticket.run(
                    self.listed.check(group, self.run.normalizer, study.compare, self.stats)
                )
            except BudgetSpent:  # the pattern stands; its listed names stay as listed
                self._cut()
                return False
        self.run.progress.patterns_done += 1
        self.run.progress.update()
        return True

    def _cut(self) -> None:
        _budget_spent(self.target, self.stats, self.done, self.budget.limit)


@dataclass(frozen=True, slots=True)
class _Running:
    """One pattern's study under way."""

    group: PatternGroup
    ticket: BudgetTicket
    compare: Any
    task: asyncio.Future[PatternEntry]


def _budget_spent(target: Target, stats: DomainStats, done: int, limit: int) -> None:
    """Leave the patterns not studied for the render budget, and say so."""
    stats.choice = stats.choice.cut(done, Left.BUDGET)
    left = [p for p in stats.choice.left if p.because is Left.BUDGET]
    logger.warning(
        "%s: render budget of %d spent after %d renders; %d pattern(s) left (%d URLs), "
        "%.1f%% of the URLs with parameters covered",
        target.key,
        limit,
        stats.renders,
        len(left),
        sum(p.urls for p in left),
        100 * stats.choice.share,
    )


@dataclass(slots=True)
class _ListedStudy:
    """The spot-checks of one host's listed names, pattern after pattern."""

    tallies: dict[str, ListedTally] = field(default_factory=dict)
    done: set[tuple[str, str]] = field(default_factory=set)
    renders: int = 0

    async def check(
        self, group: PatternGroup, normalizer: MIQPSNormalizer, compare: Any, stats: DomainStats
    ) -> None:
        """Spot-check the listed names of ``group`` not yet sampled on their template."""
        samples = listed_samples(group, normalizer, self.done)
        self.done.update((s.name, s.template) for s in samples)
        before = stats.counters.renders
        try:
            await check_listed(samples, compare, self.tallies)
        finally:
            self.renders += stats.counters.renders - before


def _untested(
    group: PatternGroup, reason: str, cause: VerdictCause = VerdictCause.SITE_GIVEN_UP
) -> PatternEntry:
    params = {
        name: ParamVerdict("non-neutral", 0, 0, 0, reason=reason, cause=cause)
        for name in group.names
    }
    return PatternEntry(group.count, params)


def _keep_all(entry: PatternEntry, reason: str) -> PatternEntry:
    # kept() leaves out learned defaults too: they rest on the same comparisons. Template
    # scopes are left out with them (the pattern's keep then holds on every template).
    params = {
        name: kept(v, reason, VerdictCause.ONE_PAGE) if v.neutral or v.defaults else v
        for name, v in entry.params.items()
    }
    return PatternEntry(
        entry.urls,
        params,
        entry.extra,
        joint_checks=entry.joint_checks,
        rejected_joint_defaults=entry.rejected_joint_defaults,
    )
