"""The learner's plain data: what one render produced, and how one sample came out.

No browser code lives here, so the comparison and decision modules (and their tests) can use
these types without importing Playwright.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

__all__ = ["Document", "Outcome", "PairOutcome", "Rendering"]

Outcome = Literal["same", "changed", "failed"]


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
    requests: int = 0
    """Requests the page made while it was rendered, its document's own included."""
    document: Document | None = None
    """The main document's bytes and headers, when the renderer was asked to keep them."""


@dataclass(frozen=True, slots=True)
class PairOutcome:
    """The comparison of an original URL's page with a candidate URL's page.

    ``cause`` is a :class:`learner.judge.decision.Cause` value (why the outcome is what it is);
    ``evidence`` holds the measurements, the statuses, the renders' readiness and, whenever
    the original rendered, a stable digest of its text (``original_text``) and its path
    (``original_path``), which the site-level checks read. Everything a verdict depends on
    is here, so an outcome read back from the checkpoint decides exactly as a fresh one.
    """

    original: str
    candidate: str
    outcome: Outcome
    reason: str = ""
    evidence: Mapping[str, Any] = field(default_factory=dict)
    cause: str = ""

    def to_json(self) -> dict[str, Any]:
        """This outcome as JSON (for checkpoints and reports)."""
        return {
            "original": self.original,
            "candidate": self.candidate,
            "outcome": self.outcome,
            "cause": self.cause,
            "reason": self.reason,
            "evidence": dict(self.evidence),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> PairOutcome:
        """Read an outcome written by :meth:`to_json`.

        Raises:
            KeyError, TypeError, ValueError: for a record of the wrong shape.
        """
        outcome = data["outcome"]
        if outcome not in ("same", "changed", "failed"):
            raise ValueError(f"unknown outcome {outcome!r}")
        evidence = data.get("evidence", {})
        if not isinstance(evidence, dict):
            raise TypeError("evidence must be an object")
        return cls(
            str(data["original"]),
            str(data["candidate"]),
            outcome,
            str(data.get("reason", "")),
            evidence,
            str(data.get("cause", "")),
        )
