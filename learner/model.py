"""The learner's plain data: what one render produced, and how one sample came out.

No browser code lives here, so the comparison and decision modules (and their tests) can use
these types without importing Playwright.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Literal, TypeVar

from learner.errors import RenderCause, RenderStep

__all__ = [
    "Cause",
    "Document",
    "Finding",
    "LiveOriginal",
    "PairOutcome",
    "RenderFailure",
    "Rendering",
    "Role",
    "SampleEvidence",
    "read_member",
]

_T = TypeVar("_T")
_E = TypeVar("_E", bound=StrEnum)

Finding = Literal["same", "changed", "failed"]
"""What comparing a sample's two URLs found: the same page, a changed one, or nothing."""
Role = Literal["original", "candidate", "destination"]
"""Which URL of a sample a render is of: ``destination`` is the original's final URL without
the parameter (:func:`learner.judge.compare.carried_destination`)."""


@dataclass(frozen=True, slots=True)
class Document:
    """A page's main document as the server sent it, kept for archive evidence.

    ``body`` is the body once any content coding is undone: its digest, and whether its
    bytes run no script, decide whether an archive's digest may stand for a render.
    """

    body: bytes
    headers: Mapping[str, str]
    """The response headers, names in lower case."""


@dataclass(frozen=True, slots=True)
class Rendering:
    """What one render of a URL produced.

    ``screenshot`` is a PNG of the page from the top down to ``max_page_height``; ``text`` is
    the visible text of the whole page, capped at ``max_text_chars``. ``settled`` is true when
    the page met the readiness rule (nothing in flight, no one-shot timer due soon, the DOM
    quiet; see ``docs/fingerprint.md``) and stayed still while it was captured; otherwise
    ``unsettled`` says what was still going on. ``redirects`` lists the URLs the main frame
    was sent on to after ``url`` (HTTP redirects, then script or meta navigations), in order.
    ``retry_after`` is the main response's ``Retry-After`` header, if any.
    """

    url: str
    final_url: str
    status: int | None
    screenshot: bytes
    text: str
    title: str
    elapsed_s: float
    settled: bool
    redirects: tuple[str, ...] = ()
    unsettled: str = ""
    retry_after: str | None = None
    readiness: Mapping[str, Any] = field(default_factory=dict)
    """What the last readiness check saw (timers, requests, quiet time, noise changes)."""
    marks: tuple[str, ...] = ()
    """The URLs the page marks as itself (current links, selected options, its canonical
    link; at most 50): where :mod:`learner.render.marks` reads the values it calls its own."""
    canonical: str = ""
    """The page's ``<link rel=canonical>`` (its first), absolute; "" without one."""
    requests: int = 0
    """Requests the page made while it was rendered, its document's own included."""
    document: Document | None = None
    """The main document's bytes and headers, when the renderer was asked to keep them."""
    refused: tuple[str, ...] = ()
    """Connections of the page refused before they were opened, as ``HOST:PORT (reason)``
    (at most 20): addresses the learner may not reach (``learner.plan.addresses``). The page
    was rendered without them, as every render of the sample is."""


class Cause(StrEnum):
    """Why a sample came out as it did (:func:`learner.judge.decision.decide` gives it)."""

    IDENTICAL = "identical"
    """The candidate rendered exactly as the original."""
    NO_DIFFERENCE = "no-difference"
    """No difference outside the page's own noise."""
    CHANGED = "changed"
    """A difference outside the noise (the comparison's ``changes`` say where)."""
    STATUS_CHANGED = "status-changed"
    ORIGINAL_FAILED = "original-failed"
    ORIGINAL_UNSETTLED = "original-unsettled"
    ORIGINAL_STATUS = "original-status"
    """The original answered with a status other than 2xx."""
    REPEAT_FAILED = "repeat-failed"
    """A further render of the original, needed to measure noise, failed."""
    CANDIDATE_FAILED = "candidate-failed"
    UNSETTLED = "unsettled"
    """No difference was seen, but a render involved never became ready."""
    UNDECIDED = "undecided"
    """The original disagreed with itself too much to judge."""
    UNCONFIRMED = "unconfirmed"
    """A change seen in screen tiles alone that a second render of the candidate did not
    show again (or that failed): neither a change nor its absence is proved."""
    CARRIED_DESTINATION = "carried-destination"
    """No difference outside the noise but the destination, and the original's final URL
    without the parameter it carried ends where the candidate ended, or renders exactly as
    the candidate's final URL does (another spelling of the same destination)."""
    SAME_URL = "same-url"
    """The candidate is the original URL itself: nothing was removed, nothing is proved."""
    ARCHIVE = "archive-same"
    """The candidate not rendered: a web archive holds 2xx captures of both URLs with the
    same payload digest (:mod:`learner.judge.archive`), and the original still sends those
    bytes, which run no script and load nothing (:mod:`learner.judge.archive_live`)."""


@dataclass(frozen=True, slots=True)
class RenderFailure:
    """The render that failed a sample, as data: what the run's account groups by."""

    render: Role
    cause: RenderCause
    step: RenderStep | None = None
    """The step the render failed in, when known (a timeout always names one)."""

    def to_json(self) -> dict[str, str]:
        """This failure as the checkpoint records it: the members' values."""
        data = {"render": self.render, "cause": self.cause.value}
        return data if self.step is None else {**data, "step": self.step.value}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> RenderFailure:
        """Read a failure written by :meth:`to_json` (by this learner or an older one).

        Raises:
            ValueError: for a record of the wrong shape, or a cause or step this learner does
                not know (a line a newer learner wrote): the run reads such a checkpoint line
                as unreadable, and judges its sample again.
        """
        render = data.get("render")
        if render not in ("original", "candidate", "destination"):
            raise ValueError(f"unknown render {render!r}")
        step = data.get("step")
        return cls(
            render,
            read_member(RenderCause, data.get("cause"), "render failure cause"),
            read_member(RenderStep, step, "render step") if step else None,
        )


def read_member(vocabulary: type[_E], value: Any, what: str) -> _E:
    """The member of ``vocabulary`` whose value ``value`` is, as a checkpoint line spells it.

    >>> read_member(RenderCause, "robots", "render failure cause")
    <RenderCause.ROBOTS: 'robots'>

    Raises:
        ValueError: naming ``what`` and the value, for a value that is no member's.
    """
    if isinstance(value, str):
        try:
            return vocabulary(value)
        except ValueError:
            pass
    raise ValueError(f"unknown {what} {value!r}")


@dataclass(frozen=True, slots=True)
class LiveOriginal:
    """What the live original sent, vouching for an archive's "same" (its payload digest)."""

    digest: str
    media_type: str
    requests: int = 1

    def to_json(self) -> dict[str, Any]:
        """This record as the checkpoint keeps it."""
        return {"digest": self.digest, "media_type": self.media_type, "requests": self.requests}


@dataclass(frozen=True, slots=True)
class SampleEvidence:
    """What a sample's renders (or an archive's captures) showed: everything a verdict reads.

    Its JSON form (:meth:`to_json`) is the ``evidence`` object of a checkpoint line, with the
    same keys older runs wrote, so a checkpoint reads back into the same evidence and a
    resumed run decides exactly as an uninterrupted one.
    """

    verdict: str | None = None
    """The comparison's verdict (``same``, ``changed``, ``undecided``), when one was made."""
    reasons: tuple[str, ...] = ()
    changes: tuple[str, ...] = ()
    distances: Mapping[str, float] = field(default_factory=dict)
    noise: Mapping[str, float] = field(default_factory=dict)
    renders: tuple[int, int] = (0, 0)
    """Renders of the original and of the candidate the sample used."""
    original_failure: RenderCause | None = None
    """Why the first render of the original failed, if it did."""
    failure: RenderFailure | None = None
    """The render that failed the sample, if a render did."""
    original_text: str | None = None
    """A stable digest of the original's visible text (the site-level checks compare it)."""
    original_path: str | None = None
    original_settled: bool | None = None
    candidate_marks: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    """The values the page without the parameter calls its own (:mod:`learner.render.marks`)."""
    status: tuple[int | None, int | None] | None = None
    """The statuses of the original and the candidate, when both rendered."""
    final_url: tuple[str, str] | None = None
    canonical: tuple[str, str] | None = None
    """The canonical links of the original and the candidate ("" for none), when both
    rendered and one has a link."""
    unsettled: tuple[str, ...] = ()
    """What was still going on in the renders that never became ready."""
    refused: tuple[str, ...] = ()
    """Connections of the sample's pages refused before they were opened
    (:attr:`Rendering.refused`): the pages rendered without them, original and candidate alike."""
    original_thumb: str | None = None
    candidate_thumb: str | None = None
    difference: str | None = None
    """The images of the sample, as paths inside the run folder."""
    archive: Mapping[str, Any] | None = None
    """The archive's captures that decided the sample (``ArchiveMatch.to_json()``)."""
    original_live: LiveOriginal | None = None

    def to_json(self) -> dict[str, Any]:
        """This evidence as the checkpoint's ``evidence`` object."""
        data: dict[str, Any] = {}
        if self.verdict is not None:
            data["verdict"] = self.verdict
            data["reasons"] = list(self.reasons)
            data["changes"] = list(self.changes)
            data["distances"] = dict(self.distances)
            data["noise"] = dict(self.noise)
        if self.archive is not None:
            data["archive"] = dict(self.archive)
        data["renders"] = {"original": self.renders[0], "candidate": self.renders[1]}
        if self.original_live is not None:
            data["original_live"] = self.original_live.to_json()
        if self.original_failure is not None:
            data["original_failure"] = self.original_failure.value
        if self.failure is not None:
            data["failure"] = self.failure.to_json()
        if self.original_text is not None:
            data["original_text"] = self.original_text
        if self.original_path is not None:
            data["original_path"] = self.original_path
        if self.original_settled is not None:
            data["original_settled"] = self.original_settled
        if self.candidate_marks:
            data["candidate_marks"] = {k: list(v) for k, v in self.candidate_marks.items()}
        if self.status is not None:
            data["status"] = list(self.status)
        if self.final_url is not None:
            data["final_url"] = list(self.final_url)
        if self.canonical is not None:
            data["canonical"] = list(self.canonical)
        if self.unsettled:
            data["unsettled"] = list(self.unsettled)
        if self.refused:
            data["refused"] = list(self.refused)
        if self.status is not None:
            # Written as a pair whenever both pages rendered; null past the image budget.
            data["original_thumb"] = self.original_thumb
            data["candidate_thumb"] = self.candidate_thumb
        if self.difference is not None:
            data["difference"] = self.difference
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> SampleEvidence:
        """Read evidence written by :meth:`to_json` (or by older runs: the same keys).

        Raises:
            TypeError, ValueError: for a record of the wrong shape (a render failure cause
            or step this learner does not know included).
        """
        renders = data.get("renders") or {}
        original_failure = data.get("original_failure")
        failure = data.get("failure")
        live = data.get("original_live")
        archive = data.get("archive")
        marks = data.get("candidate_marks") or {}
        return cls(
            verdict=_opt_str(data.get("verdict")),
            reasons=tuple(str(r) for r in data.get("reasons") or ()),
            changes=tuple(str(c) for c in data.get("changes") or ()),
            distances={str(k): float(v) for k, v in (data.get("distances") or {}).items()},
            noise={str(k): float(v) for k, v in (data.get("noise") or {}).items()},
            renders=(int(renders.get("original", 0)), int(renders.get("candidate", 0))),
            original_failure=(
                read_member(RenderCause, original_failure, "render failure cause")
                if original_failure
                else None
            ),
            failure=RenderFailure.from_json(failure) if isinstance(failure, dict) else None,
            original_text=_opt_str(data.get("original_text")),
            original_path=_opt_str(data.get("original_path")),
            original_settled=_opt_bool(data.get("original_settled")),
            candidate_marks={str(k): tuple(str(x) for x in v) for k, v in marks.items()},
            status=_pair(data.get("status"), _opt_int),
            final_url=_pair(data.get("final_url"), str),
            canonical=_pair(data.get("canonical"), str),
            unsettled=tuple(str(u) for u in data.get("unsettled") or ()),
            refused=tuple(str(r) for r in data.get("refused") or ()),
            original_thumb=_opt_str(data.get("original_thumb")),
            candidate_thumb=_opt_str(data.get("candidate_thumb")),
            difference=_opt_str(data.get("difference")),
            archive=dict(archive) if isinstance(archive, dict) else None,
            original_live=(
                LiveOriginal(
                    str(live["digest"]), str(live["media_type"]), int(live.get("requests", 1))
                )
                if isinstance(live, dict)
                else None
            ),
        )


def _opt_str(value: Any) -> str | None:
    return None if value is None else str(value)


def _opt_int(value: Any) -> int | None:
    return None if value is None else int(value)


def _opt_bool(value: Any) -> bool | None:
    return None if value is None else bool(value)


def _pair(value: Any, read: Callable[[Any], _T]) -> tuple[_T, _T] | None:
    if value is None:
        return None
    first, second = value
    return read(first), read(second)


@dataclass(frozen=True, slots=True)
class PairOutcome:
    """The comparison of an original URL's page with a candidate URL's page.

    ``cause`` says why the outcome is what it is (``None`` only for an outcome recorded
    without one); ``evidence`` holds the measurements, the statuses, the renders' readiness
    and, whenever the original rendered, a stable digest of its text and its path, which the
    site-level checks read. ``reason`` is the same in words, for people. Everything a verdict
    depends on is typed here, so an outcome read back from the checkpoint decides exactly as
    a fresh one.
    """

    original: str
    candidate: str
    outcome: Finding
    reason: str = ""
    evidence: SampleEvidence = SampleEvidence()
    cause: Cause | None = None

    def to_json(self) -> dict[str, Any]:
        """This outcome as JSON (for checkpoints and reports)."""
        return {
            "original": self.original,
            "candidate": self.candidate,
            "outcome": self.outcome,
            "cause": "" if self.cause is None else self.cause.value,
            "reason": self.reason,
            "evidence": self.evidence.to_json(),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> PairOutcome:
        """Read an outcome written by :meth:`to_json`.

        Raises:
            KeyError, TypeError, ValueError: for a record of the wrong shape (an unknown
            cause included).
        """
        outcome = data["outcome"]
        if outcome not in ("same", "changed", "failed"):
            raise ValueError(f"unknown outcome {outcome!r}")
        evidence = data.get("evidence", {})
        if not isinstance(evidence, dict):
            raise TypeError("evidence must be an object")
        cause = str(data.get("cause") or "")
        return cls(
            str(data["original"]),
            str(data["candidate"]),
            outcome,
            str(data.get("reason", "")),
            SampleEvidence.from_json(evidence),
            read_member(Cause, cause, "sample cause") if cause else None,
        )
