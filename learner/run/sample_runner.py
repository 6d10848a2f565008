"""Run samples: render what :func:`learner.judge.decision.decide` asks for, politely, and record it.

:class:`SampleRunner` owns the per-run machinery a sample needs (the renderer, the per-host
limiter, robots.txt, the retry policy and the run folder); :class:`PatternPages` caches the
renders of one pattern, so one render of an original serves every parameter tested on it.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field, replace
from typing import Any
from urllib.parse import urlsplit

from learner.config import LearnerConfig
from learner.errors import RenderCause, RenderError, RenderStep
from learner.judge import images
from learner.judge.archive import ArchiveEvidence, ArchiveMatch, ArchiveRefusal, archive_outcome
from learner.judge.archive_live import Refused, vouch
from learner.judge.decision import Decision, Shot, decide
from learner.judge.fingerprint import fingerprint
from learner.model import (
    Cause,
    LiveOriginal,
    PairOutcome,
    RenderFailure,
    Rendering,
    Role,
    SampleEvidence,
)
from learner.net.hosts import url_host_key
from learner.net.limiter import HostLimiter, Sleep
from learner.net.retries import RetryPolicy, closed_reason, with_retries
from learner.net.robots import RobotsPolicy
from learner.render.marks import page_marks
from learner.render.renderer import Renderer
from learner.run.progress import Progress
from learner.run.store import RunStore

logger = logging.getLogger(__name__)

__all__ = [
    "PatternPages",
    "SampleRunner",
    "SiteCounters",
    "same_url_outcome",
    "text_digest",
]


def text_digest(lines: tuple[str, ...]) -> str:
    """A digest of a page's visible text that is the same in every process and run."""
    return hashlib.sha256("\n".join(lines).encode("utf-8", "surrogatepass")).hexdigest()[:16]


def same_url_outcome(url: str) -> PairOutcome:
    """The failed sample of a candidate that is its original URL: it proves nothing."""
    return PairOutcome(
        url,
        url,
        "failed",
        "the candidate is the original URL itself: the parameter is not in it",
        SampleEvidence(),
        Cause.SAME_URL,
    )


@dataclass(slots=True)
class SiteCounters:
    """What one site's samples cost: renders, failures, comparisons done and resumed."""

    renders: int = 0
    render_failures: int = 0
    comparisons: int = 0
    resumed: int = 0
    archived: int = 0
    """Samples decided by a web archive's captures, not rendered."""
    archive_refused: dict[str, int] = field(default_factory=dict)
    """Per :class:`~learner.judge.archive.ArchiveRefusal`, the samples the archive did not
    decide (with an archive given)."""
    archive_doubts: dict[str, int] = field(default_factory=dict)
    """Per :class:`~learner.judge.static_html.Doubt`, the samples refused as not static."""
    outcomes: list[PairOutcome] = field(default_factory=list)
    """Every outcome of the site, fresh or read back from the checkpoint."""


@dataclass(slots=True)
class _Page:
    rendering: Rendering | None
    shot: Shot


class PatternPages:
    """Renders of one pattern's URLs, each (URL, n-th render) done once; shared by all tests.

    With ``admit`` (:meth:`learner.run.budget.BudgetTicket.admit`), every new render waits
    for it first: the domain's render budget stops the study there. ``covers`` (the study's
    :meth:`~learner.plan.targets.Target.covers`) names the hosts a page may be redirected to
    (:meth:`SampleRunner.render_page`).
    """

    def __init__(
        self,
        runner: SampleRunner,
        counters: SiteCounters,
        admit: Callable[[], Awaitable[None]] | None = None,
        covers: Callable[[str], bool] | None = None,
    ) -> None:
        self._runner = runner
        self._counters = counters
        self._admit = admit
        self._covers = covers
        self._tasks: dict[tuple[str, int], asyncio.Task[_Page]] = {}

    async def get(self, url: str, nth: int = 0) -> _Page:
        """The ``nth`` render (from 0) of ``url``."""
        key = (url, nth)
        task = self._tasks.get(key)
        if task is None and self._admit is not None:
            await self._admit()
            task = self._tasks.get(key)
        if task is None:
            task = asyncio.ensure_future(
                self._runner.render_page(url, self._counters, covers=self._covers)
            )
            self._tasks[key] = task
        return await task


class SampleRunner:
    """Renders pages politely and judges samples; every finished sample is checkpointed."""

    def __init__(
        self,
        config: LearnerConfig,
        renderer: Renderer,
        store: RunStore,
        limiter: HostLimiter,
        robots: RobotsPolicy,
        progress: Progress,
        *,
        retry_policy: RetryPolicy,
        sleep: Sleep = asyncio.sleep,
        archive: ArchiveEvidence | None = None,
    ) -> None:
        self.config = config
        self.renderer = renderer
        self.store = store
        self.limiter = limiter
        self.robots = robots
        self.progress = progress
        self.retry_policy = retry_policy
        self.sleep = sleep
        self.archive = archive
        self.render_seconds = 0.0
        self._used: set[tuple[str, str]] = set()

    async def render_page(
        self, url: str, counters: SiteCounters, *, covers: Callable[[str], bool] | None = None
    ) -> _Page:
        """Render ``url`` politely (robots, per-host pacing, the retry policy), fingerprinted.

        A page redirected to another host fails, unless ``covers`` says that host is one the
        study may fetch (``www.example.com`` sent to ``example.com``, both of the domain
        studied): the redirect's target is then rendered in its own right (its robots.txt,
        its host's turn, the address guard) and stands for ``url``, as if the browser had
        followed the redirect; once, with the target's own redirects kept to its host.
        """
        if not await self.robots.allowed(url):
            return self._failed(counters, "disallowed by robots.txt", RenderCause.ROBOTS)
        try:
            rendering = await self._rendered(url, counters)
        except RenderError as exc:
            if not (exc.location and covers is not None and _covered(covers, exc.location)):
                return self._failed(counters, exc.reason, exc.cause, exc.step)
            followed = await self.render_page(exc.location, counters)
            if followed.rendering is None:
                return followed
            redirects = (exc.location, *followed.rendering.redirects)
            rendering = replace(followed.rendering, url=url, redirects=redirects)
        print_ = await asyncio.to_thread(fingerprint, rendering)
        shot = Shot(print_, rendering.settled, rendering.unsettled)
        return _Page(rendering, shot)

    async def _rendered(self, url: str, counters: SiteCounters) -> Rendering:
        """One render of ``url`` in its host's turn, with the retry policy.

        Raises:
            RenderError: the render failed, after the retries the policy allows.
        """
        host = url_host_key(url)

        async def attempt() -> Rendering:
            closed = self.limiter.closed_for(host)
            if closed > 0:
                raise RenderError(url, closed_reason(closed), RenderCause.RETRY_AFTER)
            started = time.monotonic()
            try:
                async with self.limiter.turn(host) as turn:
                    self.progress.rendering = (self.progress.rendering or 0) + 1
                    try:
                        return await self.renderer.render(url, turn)
                    finally:
                        self.progress.rendering -= 1
            finally:
                self.render_seconds += time.monotonic() - started
                counters.renders += 1
                self.progress.renders += 1
                self.progress.update()

        return await with_retries(
            attempt,
            policy=self.retry_policy,
            sleep=self.sleep,
            on_retry_after=lambda seconds: self.limiter.note_retry_after(
                host, seconds, budget_s=self.retry_policy.max_delay_s
            ),
        )

    def _failed(
        self,
        counters: SiteCounters,
        reason: str,
        failure: RenderCause,
        step: RenderStep | None = None,
    ) -> _Page:
        counters.render_failures += 1
        self.progress.failures += 1
        return _Page(None, Shot(None, error=reason, failure=failure, step=step))

    async def compare_urls(
        self,
        pages: PatternPages,
        counters: SiteCounters,
        original: str,
        candidate: str,
        *,
        spellings: bool = False,
    ) -> PairOutcome:
        """Judge one sample, or read it back from the checkpoint of an earlier run.

        A candidate equal to its original proves nothing (a plan whose URLs do not hold the
        parameter): the sample fails, and is never taken for "identical". The archive, when
        given, is asked next (for URLs robots.txt allows), then the checkpoint; an archive
        outcome in the checkpoint that this run's archive does not give again (another index
        or window, or none) is judged afresh. So a resumed run decides as an uninterrupted one.
        ``spellings``: two spellings of one page (:func:`~learner.judge.decision.decide`);
        the archive, which proves one thing of two URLs' bytes, is not asked.
        """
        if original == candidate:
            counters.outcomes.append(same_url_outcome(original))
            return counters.outcomes[-1]
        done = self.store.finished(original, candidate)
        archived = None
        if not spellings:
            archived = await self._archived(pages, counters, original, candidate, done)
        if archived is not None:
            if done is None or done.to_json() != archived.to_json():
                self.store.record(archived)
            counters.archived += (original, candidate) not in self._used
            self._used.add((original, candidate))
            counters.outcomes.append(archived)
            return archived
        if done is not None and done.cause == Cause.ARCHIVE:
            done = None
        if done is not None:
            first_use = (original, candidate) not in self._used
            if first_use and self.store.from_earlier_run(original, candidate):
                counters.resumed += 1
                self.progress.resumed += 1
        else:
            done = await self._judge(pages, original, candidate, spellings)
            counters.comparisons += 1
            self.store.record(done)
            logger.info("checkpoint: %d comparisons recorded", self.store.recorded)
        self._used.add((original, candidate))
        counters.outcomes.append(done)
        return done

    async def _archived(
        self,
        pages: PatternPages,
        counters: SiteCounters,
        original: str,
        candidate: str,
        done: PairOutcome | None,
    ) -> PairOutcome | None:
        """The archive's "same" for a sample, once the live original vouches for it.

        One payload digest proves that the server once sent the same bytes for both URLs;
        the original, rendered here as for every sample of it, must still be sent as those
        bytes, and they must run no script and load nothing
        (:func:`learner.judge.archive_live.vouch`). Then the digest stands in for the
        candidate's render and the noise renders. An archive outcome in the checkpoint with
        the same captures was vouched for by the earlier run's render of the original.
        """
        if self.archive is None:
            return None
        found = self.archive.match(original, candidate)
        if isinstance(found, ArchiveMatch):
            allowed = await self.robots.allowed(original) and await self.robots.allowed(candidate)
            found = found if allowed else ArchiveRefusal.ROBOTS
        if not isinstance(found, ArchiveMatch):
            self._refused(counters, original, candidate, Refused(found))
            return None
        if (
            done is not None
            and done.cause == Cause.ARCHIVE
            and done.evidence.original_live is not None
            and done.evidence.archive == found.to_json()
        ):
            return done
        page = await pages.get(original)
        refused = vouch(found, page.rendering)
        if refused is not None:
            self._refused(counters, original, candidate, refused)
            return None
        outcome = archive_outcome(original, candidate, found)
        live = LiveOriginal(found.original.digest or "", found.media_type)
        evidence = replace(outcome.evidence, original_live=live, renders=(1, 0))
        return PairOutcome(
            original, candidate, outcome.outcome, outcome.reason, evidence, outcome.cause
        )

    def _refused(
        self, counters: SiteCounters, original: str, candidate: str, refused: Refused
    ) -> None:
        """Count why the archive did not decide a sample, once per sample."""
        if (original, candidate) in self._used:
            return
        why = refused.refusal.value
        counters.archive_refused[why] = counters.archive_refused.get(why, 0) + 1
        if refused.doubt is not None:
            what = refused.doubt.value
            counters.archive_doubts[what] = counters.archive_doubts.get(what, 0) + 1

    async def _judge(
        self, pages: PatternPages, original: str, candidate: str, spellings: bool
    ) -> PairOutcome:
        originals: list[_Page] = []
        candidates: list[_Page] = []
        destinations: list[_Page] = []
        while True:
            step = decide(
                [p.shot for p in originals],
                [p.shot for p in candidates],
                [p.shot for p in destinations],
                spellings=spellings,
            )
            if isinstance(step, Decision):
                break
            if step.role == "original":
                originals.append(await pages.get(original, step.nth))
            elif step.role == "candidate":
                candidates.append(await pages.get(candidate, step.nth))
            else:
                destinations.append(await pages.get(step.url, step.nth))
        evidence = await asyncio.to_thread(self._evidence, step, originals, candidates)
        return PairOutcome(original, candidate, step.outcome, step.reason, evidence, step.cause)

    def _evidence(
        self, decision: Decision, originals: list[_Page], candidates: list[_Page]
    ) -> SampleEvidence:
        found: dict[str, Any] = {}
        if decision.comparison is not None:
            result = decision.comparison
            found.update(
                verdict=result.verdict,
                reasons=tuple(result.reasons),
                changes=tuple(sorted(result.changes)),
                distances=dict(result.distances),
                noise=dict(result.noise),
            )
        found["renders"] = (len(originals), len(candidates))
        first = originals[0] if originals else None
        if first is not None:
            found["original_failure"] = first.shot.failure
        found["failure"] = _failed_render(decision.cause, originals, candidates)
        if first is not None and first.rendering is not None and first.shot.fingerprint:
            ref = first.rendering
            found["original_text"] = text_digest(first.shot.fingerprint.lines)
            found["original_path"] = urlsplit(ref.url).path
            found["original_settled"] = ref.settled
        cand = candidates[0] if candidates else None
        if cand is not None and cand.rendering is not None and cand.rendering.marks:
            marks = page_marks(cand.rendering.url, cand.rendering.marks)
            # What the page without the parameter calls its own values (learner.judge.defaults).
            found["candidate_marks"] = {name: tuple(v) for name, v in marks.items()}
        unsettled = [p.rendering.unsettled for p in (*originals, *candidates) if p.rendering]
        found["unsettled"] = tuple(sorted({u for u in unsettled if u}))
        renders = [p.rendering for p in (*originals, *candidates) if p.rendering]
        found["refused"] = tuple(sorted({r for rendering in renders for r in rendering.refused}))
        if first is None or first.rendering is None or cand is None or cand.rendering is None:
            return SampleEvidence(**found)
        ref, other = first.rendering, cand.rendering
        found["status"] = (ref.status, other.status)
        found["final_url"] = (ref.final_url, other.final_url)
        if ref.canonical or other.canonical:
            found["canonical"] = (ref.canonical, other.canonical)
        found.update(self._images(ref, other, decision.outcome))
        return SampleEvidence(**found)

    def _images(self, ref: Rendering, cand: Rendering, outcome: str) -> dict[str, str | None]:
        store = self.store
        out: dict[str, str | None] = {
            "original_thumb": store.save_image(ref.url, ".jpg", images.thumbnail(ref.screenshot)),
            "candidate_thumb": store.save_image(
                cand.url, ".jpg", images.thumbnail(cand.screenshot)
            ),
        }
        if outcome != "same":
            overlay = images.difference_overlay(ref.screenshot, cand.screenshot)
            out["difference"] = store.save_image(f"{ref.url}\n{cand.url}", "-diff.jpg", overlay)
        return out


def _covered(covers: Callable[[str], bool], url: str) -> bool:
    try:
        return covers(url)
    except ValueError:  # a URL samepage cannot read
        return False


def _failed_render(
    cause: Cause, originals: list[_Page], candidates: list[_Page]
) -> RenderFailure | None:
    """The render that failed a sample (``decide`` stops at the first one), as data."""
    role: Role = "original"
    shot = None
    if cause is Cause.ORIGINAL_FAILED and originals:
        shot = originals[0].shot
    elif cause is Cause.CANDIDATE_FAILED and candidates:
        role, shot = "candidate", candidates[0].shot
    elif cause is Cause.REPEAT_FAILED:
        shot = next((p.shot for p in originals[1:] if p.shot.fingerprint is None), None)
    if shot is None or shot.failure is None:
        return None
    return RenderFailure(role, shot.failure, shot.step)
