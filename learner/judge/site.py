"""Judgements about a whole site, read from its comparisons' outcomes alone.

Outcomes come fresh or from the checkpoint and carry the same evidence, so a resumed run
judges a site exactly as the run it resumes.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from learner.errors import RenderCause
from learner.judge.classify import gave_up
from learner.model import PairOutcome
from samepage import PatternEntry

__all__ = ["SLOW_FAILURES", "hopeless", "serves_one_page"]

SLOW_FAILURES = frozenset({RenderCause.TIMEOUT, RenderCause.BUSY, RenderCause.MEMORY})
"""Failures that cost a page timeout or more each: what makes a site not worth going on with."""


def serves_one_page(outcomes: Iterable[PairOutcome]) -> bool:
    """Whether every usable original, on two or more paths, showed the very same text.

    That is what a block, consent or error page served for everything looks like; on such a
    site "no change" proves nothing. Each outcome's evidence holds a stable digest of its
    original's text (``original_text``) and the original's path (``original_path``).
    """
    texts: dict[str, set[str]] = {}
    for outcome in outcomes:
        path, digest = outcome.evidence.original_path, outcome.evidence.original_text
        if path is not None and digest is not None:
            texts.setdefault(path, set()).add(digest)
    digests = set().union(*texts.values()) if texts else set()
    return len(texts) >= 2 and len(digests) == 1


def hopeless(
    patterns: Mapping[str, PatternEntry], outcomes: Iterable[PairOutcome], give_up_after: int
) -> bool:
    """Whether the site is not worth going on with.

    That is: every pattern studied so far was given up, and at least ``give_up_after``
    originals were tried and every one failed slowly (timed out, busy, or never settled),
    in pattern order. Sites whose pages fail fast (a redirect away, a download) cost little
    and are studied on.
    """
    if not patterns or not all(gave_up(entry) for entry in patterns.values()):
        return False
    slow = set()
    for outcome in outcomes:
        evidence = outcome.evidence
        if evidence.original_failure in SLOW_FAILURES or evidence.original_settled is False:
            slow.add(outcome.original)
        else:
            return False
    return len(slow) >= give_up_after
