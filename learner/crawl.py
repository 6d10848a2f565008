"""One learner run: discover or read URLs, render and compare, write the learned set.

Resources have one owner each, entered in one ``AsyncExitStack``: the run folder
(:class:`~learner.store.RunStore`) and the browser (:class:`~learner.renderer.Renderer`).
"""

from __future__ import annotations

import asyncio
import functools
import hashlib
import json
import logging
import random
import tempfile
import time
from collections.abc import Mapping, Sequence
from contextlib import AsyncExitStack
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from learner import images
from learner.browser import find_browser
from learner.classify import PairOutcome, classify_pattern
from learner.config import LearnerConfig
from learner.diff import GateResult, LearnedDiff, diff_learned, gate
from learner.discovery import discover
from learner.errors import ConfigError, LearnerError, NavigationFailed, RenderError, RenderTimeout
from learner.fetch import fetch, parse_resolve
from learner.fingerprint import Comparison, Fingerprint, compare, fingerprint
from learner.outputs import check_output
from learner.politeness import HostLimiter, RetryPolicy, RobotsPolicy, polite_fetcher
from learner.progress import Progress
from learner.renderer import Renderer, Rendering
from learner.sampling import group_by_pattern, top_patterns
from learner.store import RunStore
from learner.targets import Target
from samepage import (
    DomainEntry,
    LearnedSet,
    MIQPSNormalizer,
    ParamVerdict,
    PatternEntry,
    dump_learned,
    load_learned,
)

logger = logging.getLogger(__name__)

__all__ = ["CrawlResult", "DomainStats", "GateRefused", "crawl"]

# Bumped whenever rendering or comparison changes meaning, so old checkpoints are not reused.
COMPARISON_VERSION = 1
_TRANSIENT = (
    "ERR_CONNECTION_REFUSED",
    "ERR_CONNECTION_RESET",
    "ERR_CONNECTION_CLOSED",
    "ERR_EMPTY_RESPONSE",
)


class GateRefused(LearnerError):
    """The publishing gate refused the new learned set (see ``learner diff``)."""

    def __init__(self, result: GateResult, diff: LearnedDiff, kept_at: Path) -> None:
        super().__init__(result.message)
        self.result = result
        self.diff = diff
        self.kept_at = kept_at


@dataclass(slots=True)
class DomainStats:
    """What one domain cost and produced."""

    key: str
    urls: int = 0
    patterns_seen: int = 0
    patterns_learned: int = 0
    renders: int = 0
    render_failures: int = 0
    comparisons: int = 0
    resumed: int = 0
    seconds: dict[str, float] = field(default_factory=lambda: {"discover": 0.0, "learn": 0.0})
    error: str | None = None
    page_texts: dict[str, set[int]] = field(default_factory=dict)
    """Per path, digests of the visible text of the originals rendered there."""

    def serves_one_page(self) -> bool:
        """Whether every original, on two or more paths, showed the very same text.

        That is what a block, consent or error page served for everything looks like; on
        such a site "no change" proves nothing.
        """
        digests = set().union(*self.page_texts.values()) if self.page_texts else set()
        return len(self.page_texts) >= 2 and len(digests) == 1

    def to_json(self) -> dict[str, Any]:
        """These statistics as JSON."""
        return {
            "urls": self.urls,
            "patterns_seen": self.patterns_seen,
            "patterns_learned": self.patterns_learned,
            "renders": self.renders,
            "render_failures": self.render_failures,
            "comparisons": self.comparisons,
            "resumed_comparisons": self.resumed,
            "seconds": {k: round(v, 3) for k, v in self.seconds.items()},
            "error": self.error,
        }


@dataclass(frozen=True, slots=True)
class CrawlResult:
    """The outcome of a run: the learned set, where it went, and what it cost."""

    learned: LearnedSet
    out: Path
    run_folder: Path
    stats: dict[str, Any]
    domains: tuple[DomainStats, ...]
    gate: GateResult | None


@dataclass(slots=True)
class _Page:
    rendering: Rendering | None
    fingerprint: Fingerprint | None
    error: str | None


class _Pages:
    """Renders of one pattern's URLs, each (URL, n-th render) done once; shared by all tests."""

    def __init__(self, run: _Run, stats: DomainStats) -> None:
        self._run = run
        self._stats = stats
        self._tasks: dict[tuple[str, int], asyncio.Task[_Page]] = {}

    async def get(self, url: str, nth: int = 0) -> _Page:
        key = (url, nth)
        task = self._tasks.get(key)
        if task is None:
            task = self._tasks[key] = asyncio.ensure_future(self._run.render_page(url, self._stats))
        return await task


class _Run:
    """The shared machinery of one run: browser, politeness, store, normalizer, progress."""

    def __init__(
        self,
        config: LearnerConfig,
        renderer: Renderer,
        store: RunStore,
        limiter: HostLimiter,
        robots: RobotsPolicy,
        normalizer: MIQPSNormalizer,
        progress: Progress,
    ) -> None:
        self.config = config
        self.renderer = renderer
        self.store = store
        self.limiter = limiter
        self.robots = robots
        self.normalizer = normalizer
        self.progress = progress
        self.render_seconds = 0.0

    async def render_page(self, url: str, stats: DomainStats) -> _Page:
        """Render ``url`` politely (robots, per-host pacing, retries) and fingerprint it."""
        if not await self.robots.allowed(url):
            return _Page(None, None, "disallowed by robots.txt")
        host = urlsplit(url).hostname or ""
        attempts = self.config.retries + 1
        for attempt in range(1, attempts + 1):
            started = time.monotonic()
            try:
                async with self.limiter.slot(host):
                    rendering = await self.renderer.render(url)
            except RenderTimeout as exc:
                # A page that did not settle once will rarely settle on a second try.
                return self._failed(stats, exc.reason)
            except NavigationFailed as exc:
                if attempt < attempts and any(code in exc.reason for code in _TRANSIENT):
                    await asyncio.sleep(2 ** (attempt - 1))
                    continue
                return self._failed(stats, exc.reason)
            except RenderError as exc:
                return self._failed(stats, exc.reason)
            finally:
                self.render_seconds += time.monotonic() - started
                stats.renders += 1
                self.progress.renders += 1
                self.progress.update()
            if rendering.status in (429, 503) and attempt < attempts:
                await asyncio.sleep(2 ** (attempt - 1))
                continue
            print_ = await asyncio.to_thread(fingerprint, rendering)
            return _Page(rendering, print_, None)
        raise AssertionError("unreachable")  # pragma: no cover

    def _failed(self, stats: DomainStats, reason: str) -> _Page:
        stats.render_failures += 1
        self.progress.failures += 1
        return _Page(None, None, reason)

    async def compare_urls(
        self, pages: _Pages, stats: DomainStats, original: str, candidate: str
    ) -> PairOutcome:
        """Compare two URLs' pages against the original's own noise; checkpointed."""
        done = self.store.finished(original, candidate)
        if done is not None:
            if self.store.from_earlier_run(original, candidate):
                stats.resumed += 1
                self.progress.resumed += 1
            return done
        outcome = await self._compare(pages, stats, original, candidate)
        stats.comparisons += 1
        self.store.record(outcome)
        logger.info("checkpoint: %d comparisons recorded", self.store.recorded)
        return outcome

    async def _compare(
        self, pages: _Pages, stats: DomainStats, original: str, candidate: str
    ) -> PairOutcome:
        ref = await pages.get(original)
        if ref.fingerprint is None or ref.rendering is None:
            return PairOutcome(original, candidate, "failed", f"original: {ref.error}")
        status = ref.rendering.status
        if status is None or not 200 <= status < 300:
            return PairOutcome(original, candidate, "failed", f"original answered status {status}")
        path = urlsplit(original).path
        stats.page_texts.setdefault(path, set()).add(hash(ref.fingerprint.lines))
        cand = await pages.get(candidate)
        if cand.fingerprint is None or cand.rendering is None:
            return PairOutcome(original, candidate, "failed", f"candidate: {cand.error}")
        # Identical to one render of the original: the same page, whatever its noise.
        result = compare(ref.fingerprint, ref.fingerprint, cand.fingerprint)
        repeat = ref
        # A different HTTP status is a change whatever the page's noise (and a flaky status
        # could only make the parameter kept): no second render is needed to judge it.
        status_changed = cand.rendering.status != status
        if result.verdict != "same" and not status_changed:
            repeat = await pages.get(original, 1)
            if repeat.fingerprint is None:
                return PairOutcome(
                    original, candidate, "failed", f"original, second render: {repeat.error}"
                )
            result = compare(ref.fingerprint, repeat.fingerprint, cand.fingerprint)
            noisy = result.noise.get("tiles", 0.0) > 0 or result.noise.get("text_lines", 0.0) > 0
            if result.verdict == "changed" and noisy:
                # Two renders rarely show all of a page's noise (a banner may repeat by
                # chance): confirm a change against a third render before believing it.
                third = await pages.get(original, 2)
                if third.fingerprint is None:
                    return PairOutcome(
                        original, candidate, "failed", f"original, third render: {third.error}"
                    )
                repeats = [repeat.fingerprint, third.fingerprint]
                result = compare(ref.fingerprint, repeats, cand.fingerprint)
                if result.verdict == "changed" and _pixels_only(result):
                    # Noise that depends on timing (a live clock caught before or after its
                    # first tick) can hide from every render of the original: a change seen
                    # only in pixels must show again in a second render of the candidate.
                    again = await pages.get(candidate, 1)
                    if again.fingerprint is not None:
                        second = compare(ref.fingerprint, repeats, again.fingerprint)
                        if second.verdict == "same":
                            result = second
        evidence: dict[str, Any] = {
            **result.as_dict(),
            "status": [status, cand.rendering.status],
            "final_url": [ref.rendering.final_url, cand.rendering.final_url],
        }
        evidence.update(
            await asyncio.to_thread(self._images, ref.rendering, cand.rendering, result.verdict)
        )
        if result.verdict == "undecided":
            reason = "undecided: " + "; ".join(result.reasons)
            return PairOutcome(original, candidate, "failed", reason, evidence)
        return PairOutcome(original, candidate, result.verdict, "; ".join(result.reasons), evidence)

    def _images(self, ref: Rendering, cand: Rendering, verdict: str) -> dict[str, Any]:
        store = self.store
        out: dict[str, Any] = {
            "original_thumb": store.save_image(ref.url, ".jpg", images.thumbnail(ref.screenshot)),
            "candidate_thumb": store.save_image(
                cand.url, ".jpg", images.thumbnail(cand.screenshot)
            ),
        }
        if verdict != "same":
            overlay = images.difference_overlay(ref.screenshot, cand.screenshot)
            out["difference"] = store.save_image(f"{ref.url}\n{cand.url}", "-diff.jpg", overlay)
        return out


def _scope(config: LearnerConfig) -> str:
    data = json.dumps(
        {"render": config.to_json()["render"], "version": COMPARISON_VERSION}, sort_keys=True
    )
    return hashlib.sha256(data.encode()).hexdigest()[:16]


async def _domain_urls(
    run: _Run, target: Target, observed: Sequence[str] | None, fetch_page: Any, stats: DomainStats
) -> list[str]:
    started = time.monotonic()
    delay = await run.robots.crawl_delay(target.origin)
    run.limiter.set_crawl_delay(target.host, delay)
    if observed is not None:
        urls = []
        for url in observed:
            try:
                if target.covers(run.normalizer.static_url(url)):
                    urls.append(url)
            except ValueError:
                continue
    else:
        urls = await discover(
            target.origin,
            fetch_page=fetch_page,
            robots=run.robots,
            max_pages=run.config.discover_max_pages,
            max_urls=run.config.discover_max_urls,
        )
    stats.seconds["discover"] += time.monotonic() - started
    stats.urls = len(urls)
    return urls


async def _learn_domain(
    run: _Run, target: Target, observed: Sequence[str] | None, fetch_page: Any, stats: DomainStats
) -> DomainEntry | None:
    """Learn one domain within its time limit; what finished before a limit is kept."""
    patterns: dict[str, PatternEntry] = {}
    try:
        async with asyncio.timeout(run.config.domain_timeout_s):
            urls = await _domain_urls(run, target, observed, fetch_page, stats)
            groups = group_by_pattern(urls, run.normalizer)
            chosen = top_patterns(groups, run.config.top_patterns)
            stats.patterns_seen = len(groups)
            run.progress.patterns_total += len(chosen)
            started = time.monotonic()
            for group in chosen:
                pages = _Pages(run, stats)
                compare_bound = functools.partial(run.compare_urls, pages, stats)
                seed = f"{run.config.seed}:{target.key}:{group.pattern}"
                patterns[group.pattern] = await classify_pattern(
                    group, run.config, compare_bound, seed=seed
                )
                run.progress.patterns_done += 1
                run.progress.update()
            stats.seconds["learn"] += time.monotonic() - started
    except TimeoutError:
        stats.error = f"domain time limit of {run.config.domain_timeout_s:.0f}s reached"
        logger.warning(
            "%s: %s; keeping %d finished patterns", target.key, stats.error, len(patterns)
        )
    except LearnerError as exc:
        stats.error = str(exc)
        logger.warning("%s: %s", target.key, exc)
    if stats.serves_one_page():
        reason = "every page of the site rendered the same text: a block or consent page?"
        logger.warning("%s: %s; keeping every parameter", target.key, reason)
        stats.error = reason
        patterns = {key: _keep_all(entry, reason) for key, entry in patterns.items()}
    stats.patterns_learned = len(patterns)
    run.progress.domains_done += 1
    run.progress.update(force=True)
    if not patterns:
        return None
    return DomainEntry(patterns, extra={"renders": stats.renders, "urls": stats.urls})


def _pixels_only(result: Comparison) -> bool:
    """Whether a change was seen in screen tiles alone: same text, height, title, destination."""
    distances = result.distances
    return (
        distances.get("text_lines", 1.0) == 0
        and distances.get("height_px", 1.0) == 0
        and all(reason.split(" ", 1)[0].isdigit() for reason in result.reasons)
    )


def _check_writable(out: Path) -> None:
    """Fail before any work when the learned set could not be written at the end."""
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=out.parent, prefix=f".{out.name}.", suffix=".probe"):
            pass
    except OSError as exc:
        raise ConfigError(f"--out {out}: cannot write there: {exc}") from exc


def _keep_all(entry: PatternEntry, reason: str) -> PatternEntry:
    params = {
        name: v
        if not v.neutral
        else ParamVerdict(
            "non-neutral", v.tested, v.changed, v.failed, reason=reason, extra=v.extra
        )
        for name, v in entry.params.items()
    }
    return PatternEntry(entry.urls, params, entry.extra)


async def crawl(
    targets: Sequence[Target],
    *,
    config: LearnerConfig,
    out: Path,
    cache: Path,
    observed: Sequence[str] | None = None,
    resolve: Mapping[str, str] | None = None,
    browser: str | None = None,
    previous: Path | None = None,
    force: bool = False,
    progress: Progress | None = None,
) -> CrawlResult:
    """Learn ``targets`` and write the learned set to ``out``.

    Args:
        targets: the sites, from the domains file.
        config: the method, politeness and budgets.
        out: where the learned set goes (written atomically).
        cache: the run folder: checkpoint, evidence, stats; a rerun with it resumes.
        observed: an observed-URL log; ``None`` discovers URLs from each site.
        resolve: ``HOST -> ADDR:PORT`` for every request, browser and plain alike.
        browser: a Chromium executable to use instead of the one found.
        previous: the learned set last published, for the publishing gate.
        force: write even when the gate refuses.
        progress: where progress is shown.

    Raises:
        BrowserNotFound, ConfigError: before any work is done.
        GateRefused: the new set was kept in the run folder, not written to ``out``.
    """
    progress = progress or Progress(enabled=False)
    progress.domains_total = len(targets)
    resolve = dict(resolve or {})
    parse_resolve(resolve)
    old = load_learned(previous) if previous is not None else None
    check_output(out)
    choice = find_browser(browser)
    started = time.monotonic()
    normalizer = MIQPSNormalizer()
    rng = random.Random(config.seed)
    limiter = HostLimiter(
        delay_s=config.delay_s, jitter_s=config.jitter_s, per_host=config.per_host, rng=rng
    )
    plain = functools.partial(
        fetch,
        resolve=resolve,
        user_agent=config.render.user_agent,
        timeout_s=config.render.page_timeout_s,
    )
    fetch_page = polite_fetcher(
        plain, limiter=limiter, policy=RetryPolicy(attempts=config.retries + 1)
    )
    robots = RobotsPolicy(fetch_page, config.render.user_agent)
    stats = [DomainStats(t.key) for t in targets]
    async with AsyncExitStack() as stack:
        store = await stack.enter_async_context(
            RunStore(
                cache, scope=_scope(config), evidence_budget_bytes=config.evidence_budget_bytes
            )
        )
        store.write_run(
            {"config": config.to_json(), "targets": [t.key for t in targets], "resolve": resolve}
        )
        renderer = await stack.enter_async_context(
            Renderer(
                config.render,
                executable=choice.executable,
                resolve=resolve,
                max_open_pages=config.concurrency,
            )
        )
        run = _Run(config, renderer, store, limiter, robots, normalizer, progress)
        entries = await asyncio.gather(
            *(
                _learn_domain(run, t, observed, fetch_page, s)
                for t, s in zip(targets, stats, strict=True)
            )
        )
        learned = LearnedSet(
            {t.key: e for t, e in zip(targets, entries, strict=True) if e is not None},
            created=datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
            settings=config.method_settings(),
        )
        elapsed = time.monotonic() - started
        renders = sum(s.renders for s in stats)
        summary = {
            "browser": {"executable": choice.executable, "source": choice.source},
            "domains": {s.key: s.to_json() for s in stats},
            "renders": renders,
            "render_failures": sum(s.render_failures for s in stats),
            "comparisons": sum(s.comparisons for s in stats),
            "resumed_comparisons": store.resumed,
            "seconds": round(elapsed, 3),
            "render_seconds": round(run.render_seconds, 3),
            "pages_per_second": round(renders / elapsed, 3) if elapsed else 0.0,
            "evidence_bytes": store.evidence_bytes,
            "evidence_skipped": store.evidence_skipped,
            "settings": config.to_json(),
        }
        store.write_stats(summary)
    progress.finish()
    result_gate = None
    if old is not None:
        difference = diff_learned(old, learned)
        result_gate = gate(difference, config.gate_max_flip_fraction)
        if not result_gate.allowed and not force:
            kept = dump_learned(learned, cache / "learned.refused.json")
            raise GateRefused(result_gate, difference, kept)
    # The run folder's copy first: if --out fails now, the work is not lost.
    dump_learned(learned, cache / "learned.json")
    if out.resolve() != (cache / "learned.json").resolve():
        dump_learned(learned, out)
    return CrawlResult(learned, out, cache, summary, tuple(stats), result_gate)
