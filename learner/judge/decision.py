"""The judgement of one sample: which renders it needs, and what they prove.

A sample compares an original URL with a candidate URL (the original without a parameter).
:func:`decide` is a pure function of the renders made so far: it either asks for one more
render (:class:`Need`) or returns a :class:`Decision` with an outcome and typed causes. The
orchestration renders what is asked and calls it again, so every rule lives here:

1. The original must render, settled, with a 2xx status; otherwise the sample fails (and the
   candidate is never rendered: a failed sample keeps the parameter whatever it shows).
2. The candidate must render; a candidate identical to the original proves "same" at once.
3. A different status is a change; nothing else needs rendering.
4. Otherwise a second render of the original measures the page's noise. A change on a noisy
   page must survive a third render of the original; a change seen in screen tiles alone
   must show again in a second render of the candidate.
5. "Same" needs every render involved to be settled: an unsettled render may prove a change,
   never its absence. Noise too large to judge fails the sample.

Nothing here touches the browser: tests feed it fingerprints.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from learner.judge.compare import Comparison, compare
from learner.judge.fingerprint import Fingerprint
from learner.model import Cause, Finding, Role

__all__ = ["HOPELESS_ORIGINAL", "Decision", "Need", "Shot", "decide"]


HOPELESS_ORIGINAL = frozenset(
    {Cause.ORIGINAL_FAILED, Cause.ORIGINAL_UNSETTLED, Cause.ORIGINAL_STATUS}
)
"""Causes that say the original itself could not be used: what giving up early counts."""


@dataclass(frozen=True, slots=True)
class Shot:
    """One render as the decision sees it: a fingerprint, or why there is none."""

    fingerprint: Fingerprint | None
    settled: bool = True
    unsettled: str = ""
    error: str | None = None
    """Why the render failed (``fingerprint`` is then ``None``)."""
    failure: str = ""
    """The failure as data: a :class:`~learner.errors.RenderCause` value, or ``robots``."""
    step: str = ""
    """The step of the render that failed, when known: a :class:`~learner.errors.RenderStep`
    value (a timeout always names one)."""

    @property
    def status(self) -> int | None:
        """The HTTP status of the main document, if it rendered."""
        return None if self.fingerprint is None else self.fingerprint.status


@dataclass(frozen=True, slots=True)
class Need:
    """One more render: the ``nth`` (from 0) of the original or of the candidate."""

    role: Role
    nth: int


@dataclass(frozen=True, slots=True)
class Decision:
    """The outcome of a sample, its causes and the comparison behind it, if any."""

    outcome: Finding
    cause: Cause
    reason: str
    comparison: Comparison | None = None


def _failed(cause: Cause, reason: str, comparison: Comparison | None = None) -> Decision:
    return Decision("failed", cause, reason, comparison)


def _noisy(result: Comparison) -> bool:
    return result.noise.get("tiles", 0.0) > 0 or result.noise.get("text_lines", 0.0) > 0


def decide(originals: Sequence[Shot], candidates: Sequence[Shot]) -> Decision | Need:
    """Judge a sample from the renders so far, or ask for the next one.

    Args:
        originals: renders of the original URL, in the order they were asked for.
        candidates: renders of the candidate URL, likewise.
    """
    if not originals:
        return Need("original", 0)
    first = originals[0]
    if first.fingerprint is None:
        return _failed(Cause.ORIGINAL_FAILED, f"original: {first.error}")
    status = first.status
    if status is None or not 200 <= status < 300:
        return _failed(Cause.ORIGINAL_STATUS, f"original answered status {status}")
    if not first.settled:
        return _failed(Cause.ORIGINAL_UNSETTLED, f"original not settled: {first.unsettled}")
    if not candidates:
        return Need("candidate", 0)
    candidate = candidates[0]
    if candidate.fingerprint is None:
        return _failed(Cause.CANDIDATE_FAILED, f"candidate: {candidate.error}")
    result = compare(first.fingerprint, first.fingerprint, candidate.fingerprint)
    if result.verdict == "same":
        return _conclude(result, originals[:1], candidates[:1], Cause.IDENTICAL)
    if candidate.status != status:
        # A different status is a change whatever the page's noise.
        return Decision("changed", Cause.STATUS_CHANGED, "; ".join(result.reasons), result)
    if len(originals) < 2:
        return Need("original", 1)
    repeats = _usable(originals[1:])
    if isinstance(repeats, Decision):
        return repeats
    result = compare(first.fingerprint, repeats[:1], candidate.fingerprint)
    if result.verdict == "changed" and _noisy(result):
        # Two renders rarely show all of a page's noise (a banner may repeat by chance):
        # a change must hold against a third render of the original too.
        if len(originals) < 3:
            return Need("original", 2)
        result = compare(first.fingerprint, repeats[:2], candidate.fingerprint)
        if result.verdict == "changed" and result.pixels_only:
            # Noise that depends on timing (a clock caught before or after a tick) can hide
            # from every render of the original: a change in pixels alone must show again
            # in a second render of the candidate.
            if len(candidates) < 2:
                return Need("candidate", 1)
            again = candidates[1]
            if again.fingerprint is not None:
                second = compare(first.fingerprint, repeats[:2], again.fingerprint)
                if second.verdict == "same":
                    return _conclude(second, originals[:3], candidates[:2], Cause.NO_DIFFERENCE)
    if result.verdict == "undecided":
        return _failed(Cause.UNDECIDED, "undecided: " + "; ".join(result.reasons), result)
    if result.verdict == "changed":
        return Decision("changed", Cause.CHANGED, "; ".join(result.reasons), result)
    return _conclude(result, originals, candidates[:1], Cause.NO_DIFFERENCE)


def _usable(repeats: Sequence[Shot]) -> list[Fingerprint] | Decision:
    prints = []
    for number, shot in enumerate(repeats, start=2):
        if shot.fingerprint is None:
            return _failed(Cause.REPEAT_FAILED, f"original, render {number}: {shot.error}")
        prints.append(shot.fingerprint)
    return prints


def _conclude(
    result: Comparison, originals: Sequence[Shot], candidates: Sequence[Shot], cause: Cause
) -> Decision:
    """Conclude "same" if every render involved was settled; otherwise fail the sample."""
    for role, shots in (("original", originals), ("candidate", candidates)):
        for shot in shots:
            if not shot.settled:
                reason = f"no difference seen, but the {role} was not settled: {shot.unsettled}"
                return _failed(Cause.UNSETTLED, reason, result)
    return Decision("same", cause, "; ".join(result.reasons), result)
