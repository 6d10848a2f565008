"""A domain's alias study: candidates from its observed URLs, rendered within a bound.

After a domain's patterns, its candidate aliases (:mod:`learner.plan.aliases`, and a host
with and without ``www.``: :mod:`learner.plan.host_aliases`) are mined from its observed
URLs (from a plan, its alias URLs: :func:`learner.plan.sampling.alias_sample`) and the
spellings its samples' pages pointed to (:mod:`learner.plan.alias_hints`),
rendered through the domain's sample runner, two spellings per sample
(:meth:`~learner.run.sample_runner.SampleRunner.compare_urls` with ``spellings=True``), and
judged (:mod:`learner.judge.aliases`). A second round mines again
with the hints of the study's own renders, for rules whose templates no candidate of the
first round held. The study makes at most ``alias_renders`` renders, within the domain's
render budget: a candidate cut short by either is not published. Up to ``concurrency``
candidates are studied at once, through the same per-host turns as every render.
"""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from learner.config import LearnerConfig
from learner.judge.aliases import (
    AliasAccount,
    AliasFinding,
    AliasVerdict,
    check_alias,
    publishable,
)
from learner.plan.alias_hints import host_hints, spelling_hints
from learner.plan.aliases import AliasCandidate, alias_candidates
from learner.plan.host_aliases import host_alias_candidates
from learner.plan.root_documents import root_document_candidates
from learner.plan.sampling import MAX_ALIAS_URLS
from learner.run.budget import BudgetSpent, RenderBudget
from learner.run.sample_runner import PatternPages, SampleRunner, SiteCounters
from samepage import MIQPSNormalizer
from samepage.aliases import Alias

__all__ = ["NO_ALIAS_URLS", "PARTIAL_ALIAS_URLS", "AliasStudy", "study_aliases"]

NO_ALIAS_URLS = "not studied: the plan file holds no alias URLs (make it again to study aliases)"
PARTIAL_ALIAS_URLS = (
    f"not studied: the domain has more than {MAX_ALIAS_URLS:,} distinct URLs and its plan a "
    "sample of them; an alias must be proven in every context of the log, and some may lie "
    "outside the sample (crawl --urls reads them all)"
)
"""Why a domain learned from a plan file written before plans kept alias URLs has no study."""

_ROUNDS = 2
"""Rounds of mining: the second reads the hints of the first round's renders too."""


@dataclass(frozen=True, slots=True)
class AliasStudy:
    """The account of the study and the rules it publishes."""

    account: AliasAccount
    rules: tuple[Alias, ...]


async def study_aliases(
    urls: Sequence[str],
    config: LearnerConfig,
    runner: SampleRunner,
    normalizer: MIQPSNormalizer,
    counters: SiteCounters,
    domain_budget: int,
    *,
    covers: Callable[[str], bool] | None = None,
) -> AliasStudy:
    """Study the aliases ``urls`` propose (see the module).

    ``domain_budget`` is the domain's render budget, counted on ``counters`` as the
    patterns' renders are. ``covers`` (the domain's :meth:`~learner.plan.targets.Target.covers`)
    names the hosts a render may be redirected to (``www.example.com`` to ``example.com``).
    """
    before = counters.renders
    budget = RenderBudget(min(domain_budget, before + config.alias_renders), counters)
    window = asyncio.Semaphore(config.concurrency)
    verdicts: list[AliasVerdict] = []
    bound = ""

    async def study(candidate: AliasCandidate) -> AliasVerdict:
        nonlocal bound
        async with window:
            if bound:
                return AliasVerdict(candidate, AliasFinding.UNPROVEN, bound)
            ticket = budget.ticket()
            pages = PatternPages(runner, counters, ticket.admit, covers)
            compare = functools.partial(runner.compare_urls, pages, counters, spellings=True)
            try:
                return await ticket.run(check_alias(candidate, compare, config.min_samples))
            except BudgetSpent:
                bound = (
                    "the domain's render budget was spent"
                    if budget.limit == domain_budget
                    else f"the alias bound of {config.alias_renders} renders was reached"
                )
                return AliasVerdict(candidate, AliasFinding.UNPROVEN, bound)

    studied: set[str] = set()
    for _ in range(_ROUNDS):
        hints = spelling_hints(counters.outcomes, normalizer)
        pointed = host_hints(counters.outcomes, normalizer)
        candidates = [
            *alias_candidates(urls, normalizer, hints),
            *root_document_candidates(urls, normalizer, hints),
            *host_alias_candidates(urls, normalizer, pointed),
        ]
        fresh = [c for c in candidates if not set(c.ends) & studied]
        studied.update(spelling for c in fresh for spelling in c.ends)
        verdicts += await asyncio.gather(*(study(c) for c in fresh))
        if not fresh or bound:
            break
    verdicts = publishable(verdicts)
    rules = tuple(v.rule for v in verdicts if v.finding is AliasFinding.LEARNED)
    return AliasStudy(AliasAccount(counters.renders - before, tuple(verdicts), bound), rules)
