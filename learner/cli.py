"""``python -m learner``: plan, crawl, demo, diff (and report).

Exit status: 0 the run completed (pages that failed are recorded, not fatal); 1 the
publishing gate refused the new set (``crawl --previous``, ``diff``); 2 unusable input or
options, no browser, or an output that cannot be written.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import signal
import sys
import threading
from collections.abc import Coroutine, Sequence
from dataclasses import replace
from pathlib import Path
from types import FrameType
from typing import TYPE_CHECKING, Any, TypeVar

from learner.cli_options import OPTION_NAMES, build_parser
from learner.config import LearnerConfig, build_config, read_config_file
from learner.errors import ConfigError, LearnerError
from learner.net.resolve import resolve_entries
from learner.plan.archive_logs import archive_logs
from learner.plan.coverage import floor_share, left_line
from learner.plan.domains import DomainPlan, PlanSettings, studied_urls
from learner.plan.files import plan_format, read_plan, write_plan
from learner.plan.log_lines import LogProblems, log_lines, observed_text
from learner.plan.logs import duckdb_errors, plan_files
from learner.plan.targets import Target, read_targets
from learner.run.diff import diff_learned, format_diff, gate
from learner.run.progress import Progress
from learner.run.publish import GateRefused
from learner.run.store import comparison_scope, resumable_comparisons
from samepage import LearnedFormatError, LearnedSet, MIQPSNormalizer, load_learned
from samepage.files import discard_stdout, refuse_overwrite

if TYPE_CHECKING:
    from learner.run.crawl import CrawlResult

logger = logging.getLogger(__name__)

T = TypeVar("T")

__all__ = ["main"]

EXIT_OK, EXIT_GATE, EXIT_USAGE = 0, 1, 2


def _run_interruptible(work: Coroutine[Any, Any, T]) -> T:
    """Run ``work``; Ctrl-C stops it at once and quietly, and nothing is published.

    asyncio's own handler only cancels the main task, and a cancellation that reaches a
    browser call can be taken for a failed page: the run would go on and write a learned set
    of failed domains. Ctrl-C also reaches the browser (same process group), so the errors
    that follow are noise: logging and unraisable-exception reports are silenced, and
    ``main`` prints one line.
    """
    if threading.current_thread() is not threading.main_thread():
        return asyncio.run(work)

    def stop(signum: int, frame: FrameType | None) -> None:
        logging.disable(logging.CRITICAL)
        sys.unraisablehook = lambda unraisable: None
        raise KeyboardInterrupt

    previous = signal.signal(signal.SIGINT, stop)
    try:
        return asyncio.run(work)
    finally:
        signal.signal(signal.SIGINT, previous)


class _CrawlInterrupted(KeyboardInterrupt):
    """Ctrl-C in a crawl, with what its run folder keeps for the rerun that resumes it."""

    def __init__(self, cache: Path, resumable: int) -> None:
        super().__init__()
        self.cache, self.resumable = cache, resumable


def _configure_logging(verbose: int, quiet: bool) -> None:
    level = (
        logging.WARNING
        if quiet or verbose == 0
        else logging.INFO
        if verbose == 1
        else logging.DEBUG
    )
    logging.basicConfig(
        level=level, format="%(levelname)s %(name)s: %(message)s", stream=sys.stderr
    )


def _read_urls(path: str, targets: Sequence[Target]) -> list[str]:
    """The lines of an observed-URL log that the studied domains cover: ``crawl --urls``.

    The log is streamed; the lines of other domains are never held. See
    :func:`learner.plan.log_lines.log_lines` and :func:`learner.plan.domains.observed_line`.

    Bytes that are not UTF-8 are kept as observed, percent-escaped (``%FF``); a UTF-8 BOM is
    not part of the first URL; lines end at LF, CRLF or a lone CR.
    """
    problems = LogProblems()
    try:
        lines = (observed_text(line) for line in log_lines(path, problems))
        return studied_urls(targets, lines)
    except OSError as exc:
        raise ConfigError(f"--urls {path}: {exc}") from exc
    finally:
        problems.summary()


def _refuse_overwrite(out: str, inputs: Sequence[str | None]) -> None:
    """Refuse an ``--out`` that is one of the inputs, or that a glob among them matches."""
    try:
        refuse_overwrite(out, [i for i in inputs if i])
    except ValueError as exc:
        raise ConfigError(f"--out: {exc}") from None


def _print_verdicts(learned: LearnedSet) -> None:
    for domain, entry in sorted(learned.domains.items()):
        print(f"{domain}")
        for pattern, found in sorted(entry.patterns.items()):
            print(f"  [{pattern}]  ({found.urls} URLs)")
            for name, verdict in sorted(found.params.items()):
                reason = f"  ({verdict.reason})" if verdict.reason else ""
                print(
                    f"    {name:<12} {verdict.verdict:<12} tested {verdict.tested} "
                    f"changed {verdict.changed} "
                    f"failed {verdict.failed}{reason}"
                )


def _print_summary(result: CrawlResult) -> None:
    _print_verdicts(result.learned)
    print()
    print(
        f"{'domain':<24} {'urls':>6} {'patterns':>9} {'renders':>8} {'failed':>7} "
        f"{'resumed':>8} {'decided':>9} {'covered':>8}"
    )
    for s in result.domains:
        found = s.account
        print(
            f"{s.key:<24} {s.urls:>6} {s.patterns_learned:>9} {s.renders:>8} "
            f"{s.counters.render_failures:>7} {s.counters.resumed:>8} "
            f"{f'{found.decided}/{found.studied}':>9} {floor_share(s.choice.share):>8.1%}"
            + (f"  {s.error}" if s.error else "")
        )
        if s.choice.left:
            print(f"{'':<24} {left_line(s.choice.to_json())}")
        kept = ", ".join(f"{count} {cause}" for cause, count in found.kept.items())
        if kept:
            print(f"{'':<24} kept for want of evidence: {kept}")
        for param, reason in found.uncovered.items():
            print(f"{'':<24} {param}: {reason}")
        if s.listed.samples:
            print(f"{'':<24} {s.listed.describe()}")
        if s.aliases.verdicts or s.aliases.bound:
            print(f"{'':<24} {s.aliases.describe()}")
    stats = result.stats
    print(
        f"decided by evidence: {stats['decided']} of {stats['studied']} studied parameters "
        f"({stats['decided_share']:.0%})"
    )
    if stats.get("listed_samples"):
        print(
            f"listed names spot-checked: {stats['listed_samples']} samples, "
            f"{stats['listed_renders']} renders"
        )
    refused = stats.get("archive_refused") or {}
    if stats.get("archive_samples") or refused:
        print(f"samples decided by the archive, not rendered: {stats['archive_samples']}")
        why = ", ".join(f"{count} {reason}" for reason, count in refused.items())
        print(f"samples the archive did not decide (rendered): {why or 'none'}")
    print(
        f"URLs with parameters covered by the patterns studied and the evidence they share: "
        f"{stats['covered_share']:.1%}"
    )
    spent = stats.get("renders_per_studied")
    per_studied = f", {spent:.1f} per studied parameter" if spent is not None else ""
    print(
        f"renders {stats['renders']} in {stats['seconds']:.1f}s "
        f"({stats['pages_per_second']:.2f} pages/s{per_studied}); "
        f"learned set: {result.out}; run folder: {result.run_folder}"
    )
    if result.gate is not None:
        print(result.gate.message)


def _run_crawl(args: argparse.Namespace, progress: Progress) -> int:
    file_values = read_config_file(args.config) if args.config else {}
    overrides = {
        "top_patterns": args.top_patterns,
        "cover": args.cover,
        "renders_per_domain": args.renders_per_domain,
        "samples": args.samples,
        "threshold": args.threshold,
        "min_samples": args.min_samples,
        "min_contexts": args.min_contexts,
        "min_share": args.min_share,
        "give_up_after": args.give_up_after,
        "default_values": args.default_values,
        "aliases": args.aliases,
        "alias_renders": args.alias_renders,
        "seed": args.seed,
        "gate_max_flip_fraction": args.gate_max_flip_fraction,
        "concurrency": args.concurrency,
        "page_timeout_s": args.timeout,
        "delay_s": args.delay,
        "allow_private": args.allow_private,
    }
    try:
        config = build_config(file_values, overrides)
    except ConfigError as exc:
        raise _as_given(exc, overrides, file_values, args.config) from None
    targets = read_targets(args.domains, allow_private=config.allow_private)
    if args.urls and args.plan:
        raise ConfigError("--urls and --plan: give one of them")
    _refuse_overwrite(args.out, [args.domains, args.urls, args.plan, args.config])
    observed = _read_urls(args.urls, targets) if args.urls else None
    plan = None
    if args.plan:
        config, plan = _adopt_plan(args.plan, config, overrides)
    archive = None
    if args.archive:
        if args.ray is not None:
            raise ConfigError("--archive: not available with --ray; run without --ray")
        from learner.judge.archive import load_archive

        archive = load_archive(args.archive, args.archive_window)
    options: dict[str, Any] = {
        "config": config,
        "out": Path(args.out),
        "cache": Path(args.cache),
        "observed": observed,
        "plan": plan,
        "resolve": resolve_entries(args.resolve),
        "browser": args.browser,
        "previous": Path(args.previous) if args.previous else None,
        "force": args.force,
        "progress": progress,
    }
    if archive is not None:
        options["archive"] = archive
    if args.ray is not None:
        from learner.cluster.driver import crawl_on_ray

        work = crawl_on_ray(
            targets,
            address=args.ray,
            actors=args.ray_actors,
            attempts=args.ray_attempts,
            **options,
        )
    else:
        from learner.run.crawl import crawl  # the browser's stack, loaded only to crawl

        work = crawl(targets, **options)
    try:
        result = _run_interruptible(work)
    except KeyboardInterrupt:
        cache = Path(args.cache)
        scope = comparison_scope(config.to_json())
        raise _CrawlInterrupted(cache, resumable_comparisons(cache, scope)) from None
    _print_summary(result)
    return EXIT_OK


def _as_given(
    exc: ConfigError, overrides: dict[str, Any], file_values: dict[str, Any], path: str | None
) -> ConfigError:
    """The error naming its setting as the user gave it: the option, or the file and its key."""
    field = exc.field
    if field is None:
        return exc
    if overrides.get(field) is not None:
        return exc.given_as(OPTION_NAMES[field])
    render = file_values.get("render")
    if field in file_values or field.startswith("render."):
        return exc.given_as(f"config file {path}: {field}")
    if isinstance(render, dict) and field in render:
        return exc.given_as(f"config file {path}: render.{field}")
    return exc


def _adopt_plan(
    path: str, config: LearnerConfig, overrides: dict[str, Any]
) -> tuple[LearnerConfig, dict[str, DomainPlan]]:
    """Read a plan; the crawl takes its cap, share, samples and seed (no option may differ)."""
    settings, plan = read_plan(path)
    adopted: dict[str, float] = {"top_patterns": settings.top_patterns}
    adopted["samples"] = settings.samples
    adopted["seed"] = settings.seed
    adopted["cover"] = settings.cover
    for field, value in adopted.items():
        given = overrides.get(field)
        if given is not None and given != value:
            raise ConfigError(
                f"{OPTION_NAMES.get(field, field)} {given}: the plan {path} was made with {value}"
            )
    adopted_config = replace(
        config,
        top_patterns=settings.top_patterns,
        samples=settings.samples,
        seed=settings.seed,
        cover=settings.cover,
    )
    return adopted_config, plan


def _run_plan(args: argparse.Namespace, progress: Progress) -> int:
    # A plan sends nothing: the crawl that uses it checks the addresses of its domains file.
    targets = read_targets(args.domains, allow_private=True)
    file_values = read_config_file(args.config) if args.config else {}
    overrides = {"top_patterns": args.top_patterns, "samples": args.samples, "seed": args.seed}
    overrides["cover"] = args.cover
    config = build_config(file_values, overrides)
    settings = PlanSettings.of(config)
    plan_format(args.out)
    _refuse_overwrite(args.out, [args.domains, *args.urls, args.config])
    with archive_logs(args.urls, args.input_format) as (sources, fmt):
        plans = plan_files(
            targets,
            sources,
            settings,
            fmt=fmt,
            column=args.column,
            memory_limit=args.memory_limit,
        )
        try:
            written = write_plan(plans, args.out, settings)
        except duckdb_errors() as exc:
            raise ConfigError(_log_error(str(exc), args.urls)) from exc
    print(f"plan: {written} domains written to {args.out}")
    return EXIT_OK


def _log_error(message: str, sources: Sequence[str]) -> str:
    """DuckDB's error while reading URL logs, on one line naming the file (when it says)."""
    from samepage.duckdb import error_line

    line = error_line(message)
    return f"--urls {line}" if "file =" in message else f"--urls {' '.join(sources)}: {line}"


def _run_demo(args: argparse.Namespace, progress: Progress) -> int:
    from learner.demo.run import claim_folders, learn_demo

    cache, out = Path(args.cache), Path(args.out)
    claim_folders(cache, out)
    result, urls = _run_interruptible(
        learn_demo(cache, out, browser=args.browser, progress=progress)
    )
    _print_summary(result)
    norm = MIQPSNormalizer(learned=result.out)
    print("\nbefore -> after normalization with the learned set:")
    for url in urls[:: max(1, len(urls) // 8)][:8]:
        print(f"  {url}\n    -> {norm.normalize(url)}")
    return EXIT_OK


def _run_report(args: argparse.Namespace, progress: Progress) -> int:
    from learner.report.build import write_report

    index = write_report(Path(args.run), Path(args.out))
    print(f"report: {index}")
    return EXIT_OK


def _run_diff(args: argparse.Namespace, progress: Progress) -> int:
    old, new = load_learned(args.old), load_learned(args.new)
    difference = diff_learned(old, new)
    for line in format_diff(difference):
        print(line)
    result = gate(difference, args.max_flip_fraction)
    print(result.message)
    return EXIT_OK if result.allowed else EXIT_GATE


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit status."""
    args = build_parser().parse_args(argv)
    _configure_logging(args.verbose, args.quiet)
    progress = Progress(enabled=not args.quiet)
    commands = {
        "crawl": _run_crawl,
        "demo": _run_demo,
        "diff": _run_diff,
        "plan": _run_plan,
        "report": _run_report,
    }
    try:
        return commands[args.command](args, progress)
    except GateRefused as exc:
        print(f"learner: {exc}", file=sys.stderr)
        for line in format_diff(exc.diff):
            print(line, file=sys.stderr)
        print(
            f"learner: the new set was kept at {exc.kept_at}; --force writes it anyway",
            file=sys.stderr,
        )
        return EXIT_GATE
    except (LearnerError, LearnedFormatError) as exc:
        # ConfigError, BrowserNotFound and the rest: unusable input, one line.
        print(f"learner: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except BrokenPipeError:
        discard_stdout()  # the reader stopped (``| head``): end quietly
        return EXIT_OK
    except OSError as exc:
        print(f"learner: cannot write output: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt as exc:
        progress.finish()
        saved = (
            f"; {exc.resumable} finished comparisons are saved in {exc.cache}"
            if isinstance(exc, _CrawlInterrupted)
            else ""
        )
        print(f"learner: interrupted{saved}; rerun the same command to resume", file=sys.stderr)
        return 130
