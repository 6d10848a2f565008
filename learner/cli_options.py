"""The options of ``python -m learner``: one parser for every subcommand, defaults shown once.

:mod:`learner.cli` runs what the options ask for; the defaults come from
:class:`~learner.config.LearnerConfig`, so the help and the run cannot disagree.
"""

from __future__ import annotations

import argparse

from learner.config import (
    ARCHIVE_WINDOW_S,
    MAX_CONCURRENCY,
    MAX_SAMPLES,
    MAX_TOP_PATTERNS,
    PAGES_PER_CORE,
    LearnerConfig,
)

__all__ = ["OPTION_NAMES", "build_parser"]

_DEFAULTS = LearnerConfig()
# Config fields set by an option whose name differs from the field's.
OPTION_NAMES = {
    "top_patterns": "--top-patterns",
    "cover": "--cover",
    "renders_per_domain": "--renders-per-domain",
    "min_samples": "--min-samples",
    "min_share": "--min-share",
    "gate_max_flip_fraction": "--max-flip-fraction",
    "page_timeout_s": "--timeout",
    "delay_s": "--delay",
    "samples": "--samples",
    "threshold": "--threshold",
    "seed": "--seed",
    "concurrency": "--concurrency",
    "min_contexts": "--min-contexts",
    "give_up_after": "--give-up-after",
    "default_values": "--default-values",
    "aliases": "--no-aliases",
    "alias_renders": "--alias-renders",
    "allow_private": "--allow-private",
}

_COVER_HELP = (
    "share of a domain's URLs with parameters to cover: patterns are studied most URLs first "
    "until they, and the evidence they share on the same path templates, cover it "
    f"(default {_DEFAULTS.cover})"
)
_CAP_HELP = (
    f"at most K patterns studied per domain, 1 to {MAX_TOP_PATTERNS}, whatever share they "
    f"cover (default {_DEFAULTS.top_patterns})"
)

_EPILOG = """\
examples:
  python -m learner crawl domains.txt --urls access-log-urls.txt --out data/learned.json
  python -m learner plan domains.txt --urls 'logs/*.parquet' --column url --out plan.parquet
  python -m learner crawl domains.txt --plan plan.parquet --ray auto --cache /shared/run
  python -m learner crawl domains.txt --previous data/learned.json --out data/learned.new.json
  python -m learner crawl staging.txt --resolve shop.example=10.0.0.5:8080
  python -m learner crawl domains.txt --urls urls.txt --archive archive/index.cdxj
  python -m learner demo
  python -m learner diff data/learned.json data/learned.new.json
  python -m learner report .samepage-cache --out report/

exit status:
  0  the run completed (failed pages are recorded in the output, not fatal)
  1  the publishing gate refused the new learned set
  2  unusable input or options, no browser found, or an unwritable output
  130  interrupted (Ctrl-C): nothing is published; a rerun resumes from the checkpoint
"""


def build_parser() -> argparse.ArgumentParser:
    """The parser of ``python -m learner`` and its subcommands."""
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
    io.add_argument(
        "--archive",
        metavar="INDEX",
        action="append",
        default=[],
        help="a web archive's CDXJ index (repeatable): a sample whose URL and URL without the "
        "parameter both have 2xx captures with one payload digest, on a page that runs no "
        "script, is 'same' without rendering the candidate (docs/archives.md)",
    )
    io.add_argument(
        "--archive-window",
        type=float,
        metavar="SECONDS",
        default=ARCHIVE_WINDOW_S,
        help="the most seconds between the two captures of a sample",
    )
    _method_options(run)
    net = run.add_argument_group("browser and network")
    net.add_argument(
        "--resolve",
        metavar="HOST=ADDR:PORT",
        action="append",
        default=[],
        help="send every request for HOST to ADDR:PORT, keeping the Host name (repeatable); "
        "a private or loopback ADDR named here may be reached",
    )
    net.add_argument(
        "--allow-private",
        action="store_true",
        default=None,
        help="let the learner reach any private or loopback address (10/8, 127/8, ::1, ...); "
        "link-local and metadata addresses are never reached (docs/learner.md, Security)",
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
        help=(
            f"pages open at once, 1 to {MAX_CONCURRENCY} (default: {PAGES_PER_CORE} per CPU"
            f" core, at most one per 512 MB of memory; {_DEFAULTS.concurrency} here)"
        ),
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
        help="URL logs: text (one URL a line), .csv or .parquet; globs allowed; or web "
        "archives: CDXJ indexes (.cdxj) or WARC files (.warc, .warc.gz), one URL a capture",
    )
    plan.add_argument(
        "--out", metavar="PLAN", required=True, help="plan to write: .parquet or .jsonl"
    )
    plan.add_argument("--column", default="url", help="the URL column of CSV and Parquet logs")
    plan.add_argument(
        "--input-format",
        choices=["text", "csv", "parquet", "cdxj", "warc"],
        help="format of the logs (default: by the first log's extension)",
    )
    plan.add_argument(
        "--memory-limit", metavar="SIZE", help="DuckDB's memory limit, e.g. 1GB (spills past it)"
    )
    plan.add_argument("--cover", type=float, metavar="F", help=_COVER_HELP)
    plan.add_argument("--top-patterns", type=int, metavar="K", help=_CAP_HELP)
    plan.add_argument(
        "--samples",
        type=int,
        metavar="S",
        help=f"sample URLs per parameter, 1 to {MAX_SAMPLES} (default {_DEFAULTS.samples})",
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
    group.add_argument("--cover", type=float, metavar="F", help=_COVER_HELP)
    group.add_argument("--top-patterns", type=int, metavar="K", help=_CAP_HELP)
    group.add_argument(
        "--renders-per-domain",
        type=int,
        metavar="N",
        help="renders a domain may make in a run; the patterns not studied when they are "
        "spent keep their parameters, and a pattern cut short keeps all of its own "
        f"(cause budget) (default {d.renders_per_domain})",
    )
    group.add_argument(
        "--samples",
        type=int,
        metavar="S",
        help=f"sample URLs per parameter, 1 to {MAX_SAMPLES} (default {d.samples})",
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
        help="values of the other parameters (and, for a default value, paths) the successful "
        f"samples must cover where the pattern has them (default {d.min_contexts})",
    )
    group.add_argument(
        "--min-share",
        type=float,
        metavar="F",
        help="share of the pattern's URLs whose path templates the successful samples must "
        f"cover to call a parameter neutral, in (0, 1] (default {d.min_share})",
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
        help="most frequent values of each kept parameter tested, one at a time until one "
        "holds, against the page without the parameter, to learn values that mean none; "
        f"0 tests none (default {d.default_values})",
    )
    group.add_argument(
        "--no-aliases",
        dest="aliases",
        action="store_const",
        const=False,
        help="do not study the other spellings of a page the observed URLs propose "
        "(docs/learner.md, aliases)",
    )
    group.add_argument(
        "--alias-renders",
        type=int,
        metavar="N",
        help="renders a domain's alias study may make, within its render budget "
        f"(default {d.alias_renders})",
    )
    group.add_argument("--seed", type=int, help=f"seed of the sample choice (default {d.seed})")
    group.add_argument(
        "--max-flip-fraction",
        type=float,
        dest="gate_max_flip_fraction",
        metavar="F",
        help=f"publishing gate limit (default {d.gate_max_flip_fraction})",
    )
