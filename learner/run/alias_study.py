"""A domain's alias study: candidates from its observed URLs, rendered within a bound.

After a domain's patterns, its candidate aliases (:mod:`learner.plan.aliases`) are rendered
through the domain's sample runner, two spellings per sample
(:meth:`~learner.run.sample_runner.SampleRunner.compare_urls` with ``spellings=True``), and
judged (:mod:`learner.judge.aliases`). The study makes at most ``alias_renders`` renders,
within the domain's render budget: a candidate cut short by either is not published.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass

from learner.config import LearnerConfig
from learner.judge.aliases import AliasAccount, AliasFinding, AliasVerdict, check_alias
from learner.plan.aliases import alias_candidates
from learner.run.budget import BudgetSpent, RenderBudget
from learner.run.sample_runner import PatternPages, SampleRunner, SiteCounters
from samepage import MIQPSNormalizer, PathAlias

__all__ = ["AliasStudy", "study_aliases"]


@dataclass(frozen=True, slots=True)
class AliasStudy:
    """The account of the study and the rules it publishes."""

    account: AliasAccount
    rules: tuple[PathAlias, ...]


async def study_aliases(
    urls: Sequence[str],
    config: LearnerConfig,
    runner: SampleRunner,
    normalizer: MIQPSNormalizer,
    counters: SiteCounters,
    domain_budget: int,
) -> AliasStudy:
    """Study the aliases ``urls`` propose (see the module).

    ``domain_budget`` is the domain's render budget, counted on ``counters`` as the
    patterns' renders are.
    """
    before = counters.renders
    budget = RenderBudget(min(domain_budget, before + config.alias_renders), counters)
    pages = PatternPages(runner, counters, budget.admit)
    compare = functools.partial(runner.compare_urls, pages, counters, spellings=True)
    verdicts: list[AliasVerdict] = []
    bound = ""
    for candidate in alias_candidates(urls, normalizer):
        if bound:
            verdicts.append(AliasVerdict(candidate, AliasFinding.UNPROVEN, bound))
            continue
        try:
            verdicts.append(await budget.run(check_alias(candidate, compare, config.min_samples)))
        except BudgetSpent:
            bound = (
                "the domain's render budget was spent"
                if budget.limit == domain_budget
                else f"the alias bound of {config.alias_renders} renders was reached"
            )
            verdicts.append(AliasVerdict(candidate, AliasFinding.UNPROVEN, bound))
    rules = tuple(v.rule for v in verdicts if v.finding is AliasFinding.LEARNED)
    return AliasStudy(AliasAccount(counters.renders - before, tuple(verdicts), bound), rules)
