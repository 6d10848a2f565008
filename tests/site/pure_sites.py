"""Sites as pure functions from URL to page content, for testing the method without a browser.

``comparer(site, calls)`` is a ``compare(original, candidate)`` that records each pair and
says "same" when the two contents are equal, "failed" when either is ``None``;
``changes_for(originals)`` says "changed" for those originals and "same" for any other.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Collection

from learner.model import PairOutcome
from learner.plan.sampling import PatternGroup

Site = Callable[[str], str | None]
Compare = Callable[[str, str], Awaitable[PairOutcome]]


def pattern_group(pattern: str, urls: list[str]) -> PatternGroup:
    """The group of ``pattern`` holding ``urls``, each seen once."""
    return PatternGroup(pattern, tuple(urls), len(urls))


def comparer(site: Site, calls: list[tuple[str, str]]) -> Compare:
    """A comparison over ``site`` that appends every pair it is asked to ``calls``."""

    async def compare(original: str, candidate: str) -> PairOutcome:
        calls.append((original, candidate))
        before, after = site(original), site(candidate)
        if before is None or after is None:
            return PairOutcome(original, candidate, "failed", "could not render")
        return PairOutcome(original, candidate, "same" if before == after else "changed")

    return compare


def changes_for(originals: Collection[str]) -> Compare:
    """A comparison that shows a change for the ``originals`` and the same page otherwise."""

    async def compare(original: str, candidate: str) -> PairOutcome:
        return PairOutcome(original, candidate, "changed" if original in originals else "same")

    return compare
