"""A domain's render budget: no render starts once the domain has made its share.

The patterns of a domain are studied in the order of their choice
(:mod:`learner.plan.coverage`) until ``renders_per_domain`` renders are made. A pattern
whose study asks for a render past the budget is stopped there: :meth:`BudgetTicket.run`
cancels the whole study (every sample of it, with the renders they wait on) and raises
:class:`BudgetSpent`, so nothing of a half-studied pattern is ever published as evidence.
Renders already under way when the budget is spent finish, so a domain may make a few
more renders than its budget (at most the pages open at once).
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable
from dataclasses import dataclass, field
from typing import TypeVar

from learner.run.sample_runner import SiteCounters

__all__ = ["BudgetSpent", "BudgetTicket", "RenderBudget"]

T = TypeVar("T")


class BudgetSpent(Exception):
    """A study was stopped because its domain's render budget was spent."""


@dataclass(slots=True)
class RenderBudget:
    """The renders one domain may make in this run, counted on its :class:`SiteCounters`.

    Comparisons read back from a checkpoint render nothing, so they cost nothing. Studies
    that run side by side each take a :meth:`ticket`: the one that asks for a render too
    many is stopped, and so is every other that asks after it.
    """

    limit: int
    counters: SiteCounters

    @property
    def spent(self) -> bool:
        """Whether the domain has made all the renders it may make."""
        return self.counters.renders >= self.limit

    def ticket(self) -> BudgetTicket:
        """A study's own admission to the budget, stopped on its own once spent."""
        return BudgetTicket(self)


@dataclass(slots=True)
class BudgetTicket:
    """One study's admission to its domain's :class:`RenderBudget`."""

    budget: RenderBudget
    _refused: asyncio.Event = field(default_factory=asyncio.Event)

    async def admit(self) -> None:
        """Wait here, before a new render starts, until the study is stopped if spent."""
        if self.budget.spent:
            self._refused.set()
            await asyncio.Event().wait()  # never set: the study is cancelled around it

    async def run(self, work: Awaitable[T]) -> T:
        """The result of ``work``, or :class:`BudgetSpent` once it asked for a render too many.

        Raises:
            BudgetSpent: ``work`` was cancelled, with every sample it had under way.
        """
        self._refused.clear()
        task = asyncio.ensure_future(work)
        refused = asyncio.ensure_future(self._refused.wait())
        try:
            await asyncio.wait({task, refused}, return_when=asyncio.FIRST_COMPLETED)
        except asyncio.CancelledError:
            task.cancel()
            raise
        finally:
            refused.cancel()
        if task.done():
            return task.result()
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)
        raise BudgetSpent(f"the render budget of {self.budget.limit} was spent")
