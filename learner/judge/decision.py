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
   page must survive a third render of the original. A change seen in screen tiles alone
   (same text, title, status and height), on any page, must show again in a second render
   of the candidate: unconfirmed (the second render shows no change, or fails), it fails
   the sample, which proves neither a change nor its absence.
5. A change of destination alone (the page otherwise the same within the noise) where the
   original's final URL carries the removed parameter, with the value it was asked with,
   and the candidate's carries none: the original's final URL without the parameter is
   rendered (:func:`~learner.judge.compare.carried_destination`). If it ends where the
   candidate ended, the destination is the same. If it is served where it is (MediaWiki
   serves ``/w/index.php?title=T`` as it is, and shows ``/wiki/T`` for the same article),
   the candidate's final URL is rendered too: the two are spellings of one destination only
   if both render alike with no noise allowed, with the same status, and the place the
   probe ended spells no value of the parameter (then the parameter chose it:
   :func:`~learner.judge.compare.names_value_of`). Otherwise, or if a render fails, it is a
   change.
6. "Same" needs every render involved to be settled: an unsettled render may prove a change,
   never its absence. Noise too large to judge fails the sample.

A sample of two spellings of one page (``spellings=True``, :mod:`learner.judge.aliases`)
compares the pages, not where they end: two spellings end at two URLs by nature. Every
other rule holds.

Nothing here touches the browser: tests feed it fingerprints.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from learner.errors import RenderCause, RenderStep
from learner.judge.compare import (
    Comparison,
    carried_destination,
    compare,
    lands_where,
    names_value_of,
)
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
    failure: RenderCause | None = None
    """The failure as data (``None`` for a render that did not fail)."""
    step: RenderStep | None = None
    """The step of the render that failed, when known (a timeout always names one)."""

    @property
    def status(self) -> int | None:
        """The HTTP status of the main document, if it rendered."""
        return None if self.fingerprint is None else self.fingerprint.status


@dataclass(frozen=True, slots=True)
class Need:
    """One more render: the ``nth`` (from 0) of the original, the candidate or the destination.

    A ``destination`` render is of ``url``: the original's final URL without the parameter,
    then, if that is served where it is, the candidate's final URL.
    """

    role: Role
    nth: int
    url: str = ""


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


def decide(
    originals: Sequence[Shot],
    candidates: Sequence[Shot],
    destinations: Sequence[Shot] = (),
    *,
    spellings: bool = False,
) -> Decision | Need:
    """Judge a sample from the renders so far, or ask for the next one.

    Args:
        originals: renders of the original URL, in the order they were asked for.
        candidates: renders of the candidate URL, likewise.
        destinations: the renders of the original's final URL without the parameter and
            of the candidate's final URL, once asked for (see the module, rule 5).
        spellings: the two URLs spell one page two ways: their destinations are not
            compared (:func:`~learner.judge.compare.compare` with ``carried``).
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
    result = compare(first.fingerprint, first.fingerprint, candidate.fingerprint, carried=spellings)
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
    result = compare(first.fingerprint, repeats[:1], candidate.fingerprint, carried=spellings)
    if result.verdict == "changed" and _noisy(result):
        # Two renders rarely show all of a page's noise (a banner may repeat by chance):
        # a change must hold against a third render of the original too.
        if len(originals) < 3:
            return Need("original", 2)
        result = compare(first.fingerprint, repeats[:2], candidate.fingerprint, carried=spellings)
    if result.verdict == "changed" and result.pixels_only:
        # Noise can hide from every render of the original (a clock caught before or after
        # a tick, a spot an animation leaves at random): a change in pixels alone counts
        # only once a second render of the candidate shows a change too.
        if len(candidates) < 2:
            return Need("candidate", 1)
        again = candidates[1].fingerprint
        second = (
            None if again is None else compare(first.fingerprint, repeats, again, carried=spellings)
        )
        if second is None or second.verdict != "changed":
            shown = "failed" if second is None else "showed no change"
            reason = f"a change in screen tiles alone, unconfirmed: a second render {shown}"
            return _failed(Cause.UNCONFIRMED, reason, result)
    if result.verdict == "changed" and result.changes == {"destination"}:
        probe = carried_destination(first.fingerprint, candidate.fingerprint)
        if probe:
            if not destinations:
                return Need("destination", 0, probe)
            step = _same_destination(first.fingerprint, candidate.fingerprint, destinations)
            if isinstance(step, Need):
                return step
            if step:
                # The original ends where the candidate does but for the parameter it carries.
                result = compare(first.fingerprint, repeats, candidate.fingerprint, carried=True)
                if result.verdict == "same":
                    shots = [*candidates[:1], *destinations[:2]]
                    return _conclude(result, originals, shots, Cause.CARRIED_DESTINATION)
    if result.verdict == "undecided":
        return _failed(Cause.UNDECIDED, "undecided: " + "; ".join(result.reasons), result)
    if result.verdict == "changed":
        return Decision("changed", Cause.CHANGED, "; ".join(result.reasons), result)
    return _conclude(result, originals, candidates[:1], Cause.NO_DIFFERENCE)


def _same_destination(
    original: Fingerprint, candidate: Fingerprint, destinations: Sequence[Shot]
) -> bool | Need:
    """Whether the probe of rule 5 (``destinations[0]``) shows the candidate's destination."""
    landed = destinations[0].fingerprint
    if landed is None or landed.status != candidate.status:
        return False
    if lands_where(landed, candidate):
        return True
    if names_value_of(original, candidate, landed.final_url):
        return False
    # Served where it is: another spelling of the candidate's destination if both render
    # alike, each on its own, with no noise allowed.
    if len(destinations) < 2:
        return Need("destination", 0, candidate.final_url.partition("#")[0])
    spelling = destinations[1].fingerprint
    if spelling is None or spelling.status != landed.status:
        return False
    return compare(spelling, spelling, landed, carried=True).verdict == "same"


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
