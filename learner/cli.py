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
from typing import Any, TypeVar

from learner.config import LearnerConfig, build_config, read_config_file
from learner.crawl import CrawlResult, GateRefused, crawl
from learner.diff import diff_learned, format_diff, gate
from learner.errors import ConfigError, LearnerError
from learner.plan import DomainPlan, PlanSettings
from learner.plan_file import plan_format, read_plan, write_plan
from learner.plan_logs import duckdb_errors, plan_files
from learner.progress import Progress
from learner.resolve import resolve_entries
from learner.store import saved_comparisons
from learner.targets import read_targets
from samepage import LearnedFormatError, LearnedSet, MIQPSNormalizer, load_learned
from samepage.cli import _discard_stdout

logger = logging.getLogger(__name__)

T = TypeVar("T")

__all__ = ["main"]

EXIT_OK, EXIT_GATE, EXIT_USAGE = 0, 1, 2
_DEFAULTS = LearnerConfig()
# Config fields set by an option whose name differs from the field's.
_OPTIONS = {
    "top_patterns": "--top-patterns",
    "min_samples": "--min-samples",
    "gate_max_flip_fraction": "--max-flip-fraction",
    "page_timeout_s": "--timeout",
    "delay_s": "--delay",
    "samples": "--samples",
    "threshold": "--threshold",
    "seed": "--seed",
    "concurrency": "--concurrency",
}

_EPILOG = """\
examples:
  python -m learner crawl domains.txt --urls access-log-urls.txt --out data/learned.json
  python -m learner plan domains.txt --urls 'logs/*.parquet' --column url --out plan.parquet
  python -m learner crawl domains.txt --plan plan.parquet --ray auto --cache /shared/run
  python -m learner crawl domains.txt --previous data/learned.json --out data/learned.new.json
  python -m learner crawl staging.txt --resolve shop.example=10.0.0.5:8080
  python -m learner demo
  python -m learner diff data/learned.json data/learned.new.json
  python -m learner report .samepage-cache --out report/

exit status:
  0  the run completed (failed pages are recorded in the output, not fatal)
  1  the publishing gate refused the new learned set
  2  unusable input or options, no browser found, or an unwritable output
"""


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m learner",
        description="Learn which query parameters change a site's pages, in headless Chromium.",
        epilog=_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "-v", "--verbose", action="count", default=0, help="more log output (-vv: debug)"
    )
    parser.add_argument("-q", "--quiet", action="store_true", help="no progress, warnings only")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    fmt = _DefaultsOnce

    run = sub.add_parser("crawl", help="learn the domains of a file", formatter_class=fmt)
    run.add_argument(
        "domains", metavar="DOMAINS_FILE", help="one domain or origin per line; # comments"
    )
    io = run.add_argument_group("input and output")
    io.add_argument(
        "--urls", metavar="FILE", help="observed-URL log (default: discover from each site)"
    )
    io.add_argument(
        "--plan",
        metavar="PLAN",
        help="study the patterns of a plan file (python -m learner plan) instead of --urls",
    )
    io.add_argument(
        "--out", metavar="PATH", default="data/learned.json", help="learned set to write"
    )
    io.add_argument(
        "--cache",
        metavar="DIR",
        default=".samepage-cache",
        help="run folder: resume state, evidence, stats",
    )
    io.add_argument(
        "--previous", metavar="PATH", help="last published learned set, for the publishing gate"
    )
    io.add_argument(
        "--force", action="store_true", help="write even when the publishing gate refuses"
    )
    io.add_argument(
        "--config", metavar="TOML", help="settings file ([learner] table); the command line wins"
    )
    _method_options(run)
    net = run.add_argument_group("browser and network")
    net.add_argument(
        "--resolve",
        metavar="HOST=ADDR:PORT",
        action="append",
        default=[],
        help="send every request for HOST to ADDR:PORT, keeping the Host name (repeatable)",
    )
    net.add_argument(
        "--browser",
        metavar="PATH",
        help="Chromium executable (else SAMEPAGE_BROWSER, Playwright's, the system's)",
    )
    net.add_argument(
        "--concurrency",
        type=int,
        metavar="C",
        help=f"pages open at once (default {_DEFAULTS.concurrency})",
    )
    net.add_argument(
        "--timeout",
        type=float,
        metavar="SECONDS",
        help=f"per-page time limit (default {_DEFAULTS.render.page_timeout_s})",
    )
    net.add_argument(
        "--delay",
        type=float,
        metavar="SECONDS",
        help=f"least time between requests to one host (default {_DEFAULTS.delay_s})",
    )
    cluster = run.add_argument_group("Ray cluster (pip install 'samepage[cluster]')")
    cluster.add_argument(
        "--ray",
        nargs="?",
        const="local",
        metavar="ADDRESS",
        help="render on Ray actors: 'auto', a cluster address, or none for a local Ray",
    )
    cluster.add_argument(
        "--ray-actors",
        type=int,
        metavar="N",
        help="actors, one Chromium each (default: the cluster's CPUs, at most one a domain)",
    )
    cluster.add_argument(
        "--ray-attempts",
        type=int,
        default=3,
        metavar="N",
        help="tries of a host whose actor dies (Ray retries it on the restarted actor); "
        "then its domains are reported and left out",
    )

    plan = sub.add_parser(
        "plan",
        help="choose patterns and sample URLs from URL logs of any size (DuckDB)",
        formatter_class=fmt,
    )
    plan.add_argument(
        "domains", metavar="DOMAINS_FILE", help="one domain or origin per line; # comments"
    )
    plan.add_argument(
        "--urls",
        metavar="LOG",
        nargs="+",
        required=True,
        help="URL logs: text (one URL a line), .csv or .parquet; globs allowed",
    )
    plan.add_argument(
        "--out", metavar="PLAN", required=True, help="plan to write: .parquet or .jsonl"
    )
    plan.add_argument("--column", default="url", help="the URL column of CSV and Parquet logs")
    plan.add_argument(
        "--input-format",
        choices=["text", "csv", "parquet"],
        help="format of the logs (default: by the first log's extension)",
    )
    plan.add_argument(
        "--memory-limit", metavar="SIZE", help="DuckDB's memory limit, e.g. 1GB (spills past it)"
    )
    plan.add_argument(
        "--top-patterns",
        type=int,
        metavar="K",
        help=f"patterns studied per domain (default {_DEFAULTS.top_patterns})",
    )
    plan.add_argument(
        "--samples",
        type=int,
        metavar="S",
        help=f"sample URLs per parameter (default {_DEFAULTS.samples})",
    )
    plan.add_argument(
        "--seed", type=int, help=f"seed of the sample choice (default {_DEFAULTS.seed})"
    )
    plan.add_argument(
        "--config", metavar="TOML", help="settings file ([learner] table); the command line wins"
    )

    demo = sub.add_parser(
        "demo", help="learn the bundled demo site and show the result", formatter_class=fmt
    )
    demo.add_argument(
        "--out",
        metavar="PATH",
        default="data/demo-learned.json",
        help="learned set to write (never one a crawl wrote)",
    )
    demo.add_argument(
        "--cache",
        metavar="DIR",
        default=".samepage-cache/demo",
        help="run folder, cleared first if an earlier demo made it",
    )
    demo.add_argument("--browser", metavar="PATH", help="Chromium executable")

    report = sub.add_parser(
        "report", help="write a static HTML report of a run folder", formatter_class=fmt
    )
    report.add_argument("run", metavar="RUN", help="a run folder (the --cache of a crawl)")
    report.add_argument(
        "--out", metavar="DIR", default="report", help="folder to write index.html into"
    )

    diff = sub.add_parser("diff", help="what changed between two learned sets", formatter_class=fmt)
    diff.add_argument("old", metavar="OLD.json")
    diff.add_argument("new", metavar="NEW.json")
    diff.add_argument(
        "--max-flip-fraction",
        type=_fraction,
        default=_DEFAULTS.gate_max_flip_fraction,
        help="the publishing gate's limit: share of common patterns allowed to flip a "
        "parameter to neutral",
    )
    return parser


class _DefaultsOnce(argparse.ArgumentDefaultsHelpFormatter):
    """Shows an option's default once: not when its help names it, nor when it is unset."""

    def _get_help_string(self, action: argparse.Action) -> str | None:
        text = action.help or ""
        if "default" in text or action.default in (None, False, [], argparse.SUPPRESS):
            return text
        return super()._get_help_string(action)


def _fraction(text: str) -> float:
    """An argparse type: a number from 0 to 1."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not 0.0 <= value <= 1.0:  # also refuses nan
        raise argparse.ArgumentTypeError(f"{text!r} is not a fraction from 0 to 1")
    return value


def _method_options(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("method (MIQPS)")
    d = _DEFAULTS
    group.add_argument(
        "--top-patterns",
        type=int,
        metavar="K",
        help=f"patterns studied per domain (default {d.top_patterns})",
    )
    group.add_argument(
        "--samples", type=int, metavar="S", help=f"sample URLs per parameter (default {d.samples})"
    )
    group.add_argument(
        "--threshold",
        type=float,
        metavar="T",
        help=f"change rate above which a parameter is non-neutral (default {d.threshold})",
    )
    group.add_argument(
        "--min-samples",
        type=int,
        metavar="N",
        help=f"successful samples needed to call a parameter neutral (default {d.min_samples})",
    )
    group.add_argument(
        "--min-contexts",
        type=int,
        metavar="N",
        help="paths, and values of the other parameters, the successful samples must cover "
        f"where the pattern has them (default {d.min_contexts})",
    )
    group.add_argument(
        "--give-up-after",
        type=int,
        metavar="N",
        help="unusable originals after which a parameter, and then a site, is given up and "
        f"kept (default {d.give_up_after})",
    )
    group.add_argument(
        "--default-values",
        type=int,
        metavar="K",
        help="most frequent values of each kept parameter tested against the page without "
        f"the parameter, to learn values that mean none; 0 tests none (default {d.default_values})",
    )
    group.add_argument("--seed", type=int, help=f"seed of the sample choice (default {d.seed})")
    group.add_argument(
        "--max-flip-fraction",
        type=float,
        dest="gate_max_flip_fraction",
        metavar="F",
        help=f"publishing gate limit (default {d.gate_max_flip_fraction})",
    )


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


def _read_urls(path: str) -> list[str]:
    try:
        with open(path, encoding="utf-8", errors="replace") as handle:
            return [line.strip() for line in handle if line.strip() and not line.startswith("#")]
    except OSError as exc:
        raise ConfigError(f"--urls {path}: {exc}") from exc


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
    print(f"{'domain':<24} {'urls':>6} {'patterns':>9} {'renders':>8} {'failed':>7} {'resumed':>8}")
    for s in result.domains:
        print(
            f"{s.key:<24} {s.urls:>6} {s.patterns_learned:>9} {s.renders:>8} "
            f"{s.counters.render_failures:>7} {s.counters.resumed:>8}"
            + (f"  {s.error}" if s.error else "")
        )
    stats = result.stats
    print(
        f"renders {stats['renders']} in {stats['seconds']:.1f}s "
        f"({stats['pages_per_second']:.2f} pages/s); "
        f"learned set: {result.out}; run folder: {result.run_folder}"
    )
    if result.gate is not None:
        print(result.gate.message)


def _run_crawl(args: argparse.Namespace, progress: Progress) -> int:
    targets = read_targets(args.domains)
    file_values = read_config_file(args.config) if args.config else {}
    overrides = {
        "top_patterns": args.top_patterns,
        "samples": args.samples,
        "threshold": args.threshold,
        "min_samples": args.min_samples,
        "min_contexts": args.min_contexts,
        "give_up_after": args.give_up_after,
        "default_values": args.default_values,
        "seed": args.seed,
        "gate_max_flip_fraction": args.gate_max_flip_fraction,
        "concurrency": args.concurrency,
        "page_timeout_s": args.timeout,
        "delay_s": args.delay,
    }
    try:
        config = build_config(file_values, overrides)
    except ConfigError as exc:
        # Name the option the user typed when the bad value came from the command line.
        field, _, problem = str(exc).partition(": ")
        if overrides.get(field) is not None:
            raise ConfigError(f"{_OPTIONS.get(field, field)}: {problem}") from None
        raise
    if args.urls and args.plan:
        raise ConfigError("--urls and --plan: give one of them")
    observed = _read_urls(args.urls) if args.urls else None
    plan = None
    if args.plan:
        config, plan = _adopt_plan(args.plan, config, overrides)
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
    if args.ray is not None:
        from learner.cluster import crawl_on_ray

        work = crawl_on_ray(
            targets,
            address=args.ray,
            actors=args.ray_actors,
            attempts=args.ray_attempts,
            **options,
        )
    else:
        work = crawl(targets, **options)
    result = _run_interruptible(work)
    _print_summary(result)
    return EXIT_OK


def _adopt_plan(
    path: str, config: LearnerConfig, overrides: dict[str, Any]
) -> tuple[LearnerConfig, dict[str, DomainPlan]]:
    """Read a plan; the crawl takes its patterns, samples and seed (an option may not differ)."""
    settings, plan = read_plan(path)
    adopted = {"top_patterns": settings.top_patterns, "samples": settings.samples}
    adopted["seed"] = settings.seed
    for field, value in adopted.items():
        given = overrides.get(field)
        if given is not None and given != value:
            raise ConfigError(
                f"{_OPTIONS.get(field, field)} {given}: the plan {path} was made with {value}"
            )
    adopted_config = replace(
        config,
        top_patterns=settings.top_patterns,
        samples=settings.samples,
        seed=settings.seed,
    )
    return adopted_config, plan


def _run_plan(args: argparse.Namespace, progress: Progress) -> int:
    targets = read_targets(args.domains)
    file_values = read_config_file(args.config) if args.config else {}
    overrides = {"top_patterns": args.top_patterns, "samples": args.samples, "seed": args.seed}
    config = build_config(file_values, overrides)
    settings = PlanSettings(config.top_patterns, config.samples, config.seed)
    plan_format(args.out)
    plans = plan_files(
        targets,
        args.urls,
        settings,
        fmt=args.input_format,
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
    lines = [line.strip() for line in message.splitlines() if line.strip()]
    named = [line.partition("=")[2].strip() for line in lines if line.startswith("file =")]
    where = named[0] if named else " ".join(sources)
    said = [line for line in lines[:4] if " = " not in line]
    why = "; ".join(x for x in said if not x.startswith(("Original Line", "Possible Solution")))
    return f"--urls {where}: {why}"


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
    from learner.report import write_report

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
    args = _parser().parse_args(argv)
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
        _discard_stdout()  # the reader stopped (``| head``): end quietly
        return EXIT_OK
    except OSError as exc:
        print(f"learner: cannot write output: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        progress.finish()
        cache = getattr(args, "cache", None)
        saved = (
            f"; {saved_comparisons(Path(cache))} finished comparisons are saved in {cache}"
            if cache and args.command == "crawl"
            else ""
        )
        print(f"learner: interrupted{saved}; rerun the same command to resume", file=sys.stderr)
        return 130
