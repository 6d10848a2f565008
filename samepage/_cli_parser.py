"""The ``samepage`` command line: its commands, options and help text."""

from __future__ import annotations

import argparse

from samepage import __version__

_EPILOG = """\
examples:
  samepage normalize urls.txt > keys.txt
  cat urls.txt | samepage dedupe --format tsv
  samepage normalize crawl/*.parquet --column url --out keyed.parquet
  samepage dedupe 'crawl/*.parquet' --column url --out groups.parquet
  samepage dedupe archive/index.cdxj        # per key: captures and distinct digests
  samepage same 'https://a.example/p?id=1&utm_source=x' 'https://A.example/p/?id=1'
  samepage explain 'https://shop.example/p?id=1&ref=twitter' --learned data/learned.json

exit status:
  0  success; for "same", the two URLs are the same page
  1  some input lines were not URLs, were longer than 1 MiB, or their key cannot be
     written in the output encoding (each reported on stderr); for "same",
     different pages
  2  usage error, unreadable input, invalid learned set, an --out that would
     replace or be read as an input, or (same, explain) an argument that is not a URL
  130  interrupted (Ctrl-C)

A binary (BLOB) URL column is keyed as its bytes, as normalize_url keys them.
"""


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="samepage",
        description="Are these two URLs the same page? Normalize URLs into deduplication keys.",
        epilog=_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"samepage {__version__}")
    common = argparse.ArgumentParser(add_help=False)
    group = common.add_argument_group("rules")
    group.add_argument("--learned", metavar="PATH", help="learned-set JSON file to apply")
    group.add_argument(
        "--learned-fallback",
        choices=("shared", "keep", "domain"),
        default="shared",
        help="for learned hosts, patterns missing from the file: the file's shared evidence "
        "per path template, else keep (shared, the default); keep all (keep); or the shared "
        "evidence, then the domain-level verdicts (domain)",
    )
    group.add_argument(
        "--keep-listed",
        action="append",
        default=[],
        metavar="HOST=NAME[,NAME]",
        help="keep these parameter names on HOST and its subdomains even where a built-in "
        "list drops them (repeatable; e.g. stats.example.org=utm_source,source)",
    )
    tables = argparse.ArgumentParser(add_help=False)
    group = tables.add_argument_group(
        "tables", "Parquet and CSV input, run through DuckDB (pip install 'samepage[duckdb]')"
    )
    group.add_argument(
        "--input-format",
        choices=("text", "parquet", "csv", "cdxj", "warc"),
        help="read the files as this format (default: by extension: .parquet, .pq, .csv, "
        ".csv.gz; .cdxj and .warc(.gz) are web archives, see docs/archives.md; anything "
        "else is text, one URL per line)",
    )
    group.add_argument(
        "--column", default="url", metavar="NAME", help="the column of URLs (default: %(default)s)"
    )
    group.add_argument(
        "--out",
        metavar="PATH",
        help="write a table here instead of text to stdout: .parquet, .csv, .jsonl or .ndjson "
        "(never an input, nor a path an input glob matches)",
    )
    group.add_argument(
        "--memory-limit",
        metavar="SIZE",
        help="DuckDB's memory limit, e.g. 1GB (default: its own); DuckDB spills to disk past "
        "it. For Parquet and CSV input, and dedupe of text (then run through DuckDB, with "
        "--sample spellings per key); refused where it would do nothing: normalize of text "
        "and archives streams, dedupe of archives holds its groups in memory",
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    normalize = sub.add_parser(
        "normalize",
        parents=[common, tables],
        help="print the key of each input URL, one per line (tables: add a key column)",
    )
    normalize.add_argument(
        "files", nargs="*", metavar="FILE", help="input files (default: stdin; - is stdin)"
    )

    same = sub.add_parser("same", parents=[common], help="exit 0 if two URLs are the same page")
    same.add_argument("a", metavar="URL_A")
    same.add_argument("b", metavar="URL_B")
    same.add_argument(
        "-q", "--quiet", action="store_true", help="print nothing; answer by exit status"
    )

    dedupe = sub.add_parser(
        "dedupe", parents=[common, tables], help="group equivalent URLs, with counts"
    )
    dedupe.add_argument("files", nargs="*", metavar="FILE", help="input files (default: stdin)")
    dedupe.add_argument(
        "--format",
        choices=("jsonl", "tsv"),
        default="jsonl",
        help="jsonl: {key, count, urls} per group; tsv: count, key, first URL "
        "(archives: jsonl adds digests and captures; tsv is count, digests, key, first URL) "
        "(default: %(default)s)",
    )
    dedupe.add_argument(
        "--sample",
        type=int,
        default=5,
        metavar="N",
        help="tables, and text with --memory-limit: keep up to N distinct spellings per key "
        "(default: %(default)s)",
    )

    explain = sub.add_parser(
        "explain", parents=[common], help="show, per parameter, which layer and rule decided"
    )
    explain.add_argument("url", metavar="URL")
    explain.add_argument("--json", action="store_true", help="print the decision trace as JSON")
    return parser
