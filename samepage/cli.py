"""The ``samepage`` command: normalize, compare, deduplicate and explain URLs.

Exit status: 0 success (``same``: the URLs are the same page); 1 some input lines were bad
(``same``: different pages); 2 usage error, unreadable file or bad learned set (``same``,
``explain``: an argument that is not a URL); 130 interrupted (Ctrl-C). Input is read as
UTF-8 (a byte order mark at the start is skipped); bytes that are not UTF-8 are kept as they
were (``surrogateescape``) and escaped as those bytes in keys. Lines are read with the bound
every reader of lines has (1 MiB, ``samepage.archives.MAX_LINE``): a longer line is one bad
line, and one with no end in 64 MiB more (``/dev/zero``) ends the reading of its file.
JSON output (``dedupe``, ``explain --json``) is always valid UTF-8: such a byte appears
there percent-escaped (``%FF``), as in the key. A reader that stops early (``| head``) ends
the command quietly with status 0.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterator, Sequence
from typing import Any

from samepage._cli_io import _lines, _stdout, _unwritable
from samepage._cli_parser import _parser
from samepage._encoding import json_line as _json_line
from samepage._files import discard_stdout, refuse_overwrite
from samepage.errors import InvalidURL, LearnedFormatError
from samepage.formats import table_format
from samepage.normalizer import MIQPSNormalizer

__all__ = ["main"]

EXIT_OK, EXIT_PARTIAL, EXIT_USAGE = 0, 1, 2


def _keys(norm: MIQPSNormalizer, files: Sequence[str]) -> Iterator[tuple[str, str | None]]:
    """Yield (url, key) per input line; bad lines are reported and yield key None."""
    for name, number, url in _lines(files):
        if url is None:
            yield "", None
            continue
        try:
            yield url, norm.normalize(url)
        except InvalidURL as exc:
            print(f"{name}:{number}: {exc}", file=sys.stderr)
            yield url, None


class _UsageError(Exception):
    """A command line that cannot run: printed, exit status 2."""


def _normalizer(args: argparse.Namespace) -> MIQPSNormalizer:
    """The normalizer the rule options describe; a bad ``--keep-listed`` is a usage error."""
    keep = _keep_listed(args.keep_listed)
    if keep:
        try:
            MIQPSNormalizer(keep_listed=keep)
        except ValueError as exc:
            raise _UsageError(f"--keep-listed: {exc}") from None
    return MIQPSNormalizer(
        learned=args.learned, learned_fallback=args.learned_fallback, keep_listed=keep
    )


def _keep_listed(values: list[str]) -> dict[str, list[str]]:
    """``--keep-listed HOST=NAME,...`` flags as the ``keep_listed`` option (checked there)."""
    hosts: dict[str, list[str]] = {}
    for value in values:
        host, sep, names = value.partition("=")
        if not sep or not host or not names:
            raise _UsageError(f"--keep-listed {value!r}: expected HOST=NAME[,NAME...]")
        hosts.setdefault(host, []).extend(names.split(","))
    return hosts


def _table_format(args: argparse.Namespace) -> str | None:
    """``parquet`` or ``csv`` for table input, ``None`` for text (one URL per line)."""
    if args.input_format is not None:
        found = None if args.input_format == "text" else str(args.input_format)
    else:
        kinds = {table_format(name) for name in args.files or ["-"]}
        if len(kinds) > 1:
            raise _UsageError("mixed inputs: give text files and table files in separate runs")
        found = kinds.pop()
    if found is None and args.out is not None:
        raise _UsageError("--out needs Parquet or CSV input (text input prints to stdout)")
    if found is not None and (not args.files or "-" in args.files):
        raise _UsageError(f"{found} input is read from files, not stdin")
    return found


def _engine(what: str) -> Any:
    """``samepage.duckdb``, or a usage error saying that ``what`` needs it."""
    try:
        from samepage import duckdb as engine
    except ImportError as exc:
        raise _UsageError(
            f"{what} needs DuckDB and pyarrow: pip install 'samepage[duckdb]' ({exc})"
        ) from None
    return engine


def _run_table(norm: MIQPSNormalizer, args: argparse.Namespace, fmt: Any) -> int:
    """Normalize or dedupe over Parquet or CSV files, through DuckDB."""
    engine = _engine(f"{fmt} input")
    duckdb = engine.duckdb
    dedupe = args.command == "dedupe"
    try:
        if args.out is not None:
            refuse_overwrite(args.out, args.files)
        with engine.Job(norm, args.memory_limit, ordered=not dedupe) as job:
            if dedupe:
                query = job.groups_query(args.files, fmt, args.column, args.sample)
            else:
                query = job.keys_query(
                    args.files, fmt, args.column, keep_columns=args.out is not None
                )
            if args.out is not None:
                job.copy(query, args.out)
            else:
                _print_table(job.batches(query), args)
            outcome = job.outcome
    except (duckdb.Error, ValueError) as exc:
        raise _UsageError(engine.error_line(str(exc))) from None
    if not outcome.invalid:
        return EXIT_OK
    what = "distinct value(s)" if dedupe else "value(s)"
    examples = ", ".join(repr(e) for e in outcome.examples)
    print(
        f"samepage: not URLs (left without a key): {outcome.invalid} {what} of column "
        f"{args.column!r}, e.g. {examples}",
        file=sys.stderr,
    )
    return EXIT_PARTIAL


def _print_table(batches: Iterator[Any], args: argparse.Namespace) -> None:
    write = _stdout().write
    for batch in batches:
        if args.command == "normalize":
            write("".join(f"{key}\n" for key in batch.column(0).to_pylist() if key is not None))
            continue
        for key, count, urls in zip(*(c.to_pylist() for c in batch.columns), strict=True):
            if args.format == "jsonl":
                write(_json_line({"key": key, "count": count, "urls": urls}))
            else:
                write(f"{count}\t{key}\t{urls[0]}\n")


def _run_archive(norm: MIQPSNormalizer, args: argparse.Namespace) -> int | None:
    """Normalize or dedupe web archives (CDXJ, WARC); ``None`` when the input is not one."""
    from samepage._archive_cli import archive_input, run_archive

    try:
        fmt = archive_input(args.input_format, args.files, args.out)
    except ValueError as exc:
        raise _UsageError(str(exc)) from None
    if fmt is not None and args.memory_limit is not None:
        raise _UsageError(
            f"--memory-limit is for Parquet or CSV input and text dedupe: {fmt} input is read "
            "in bounded pieces, and dedupe of an archive holds its groups in memory "
            "(see docs/archives.md)"
        )
    return None if fmt is None else run_archive(norm, args, fmt, _stdout())


def _run_normalize(norm: MIQPSNormalizer, args: argparse.Namespace) -> int:
    archived = _run_archive(norm, args)
    if archived is not None:
        return archived
    fmt = _table_format(args)
    if fmt is not None:
        return _run_table(norm, args, fmt)
    if args.memory_limit is not None:
        raise _UsageError(
            "--memory-limit is for Parquet or CSV input and dedupe: normalize of text "
            "streams, one line at a time"
        )
    status = EXIT_OK
    write = _stdout().write
    for url, key in _keys(norm, args.files):
        if key is None:
            status = EXIT_PARTIAL
            continue
        try:
            write(key + "\n")
        except UnicodeEncodeError as exc:
            # Nothing of the line was written: it is reported like a line that is not a URL.
            print(f"samepage: key of {url!r} {_unwritable(exc)}", file=sys.stderr)
            status = EXIT_PARTIAL
    return status


def _run_dedupe(norm: MIQPSNormalizer, args: argparse.Namespace) -> int:
    archived = _run_archive(norm, args)
    if archived is not None:
        return archived
    fmt = _table_format(args)
    if fmt is not None:
        return _run_table(norm, args, fmt)
    if args.memory_limit is not None:
        return _run_text_spilled(norm, args)
    status = EXIT_OK
    groups: dict[str, list[str]] = {}
    for url, key in _keys(norm, args.files):
        if key is None:
            status = EXIT_PARTIAL
        else:
            groups.setdefault(key, []).append(url)
    # Largest groups first; ties keep first-seen order (dicts keep insertion order).
    ordered = sorted(groups.items(), key=lambda item: -len(item[1]))
    write = _stdout().write
    for key, urls in ordered:
        if args.format == "jsonl":
            line = _json_line({"key": key, "count": len(urls), "urls": urls})
        else:
            line = f"{len(urls)}\t{key}\t{urls[0]}\n"
        try:
            write(line)
        except UnicodeEncodeError as exc:
            print(f"samepage: group of {key!r} {_unwritable(exc)}", file=sys.stderr)
            status = EXIT_PARTIAL
    return status


def _run_text_spilled(norm: MIQPSNormalizer, args: argparse.Namespace) -> int:
    """Dedupe text input through DuckDB, within ``--memory-limit`` (spilling to disk).

    Lines are keyed as they are read (a bad line is reported as without the limit) and
    streamed to DuckDB, which groups them as it groups a table: per key, the count and up
    to ``--sample`` distinct spellings.
    """
    engine = _engine("dedupe of text with --memory-limit")
    status = EXIT_OK
    failed: list[Exception] = []

    def keyed() -> Iterator[tuple[str, str]]:
        nonlocal status
        try:
            for url, key in _keys(norm, args.files):
                if key is None:
                    status = EXIT_PARTIAL
                else:
                    yield url, key
        except Exception as exc:  # raised again below: DuckDB would only see its text
            failed.append(exc)

    def checked(batches: Iterator[Any]) -> Iterator[Any]:
        # Groups come once every line was read: an input that failed prints none of them.
        for batch in batches:
            if failed:
                break
            yield batch
        if failed:
            raise failed[0]

    try:
        with engine.Job(norm, args.memory_limit, ordered=False) as job:
            query = job.keyed_groups_query(keyed(), args.sample)
            groups = map(engine.observed_groups, job.batches(query))
            _print_table(checked(groups), args)
    except (engine.duckdb.Error, ValueError) as exc:
        raise _UsageError(engine.error_line(str(exc))) from None
    return status


def _run_same(norm: MIQPSNormalizer, args: argparse.Namespace) -> int:
    key_a, key_b = norm.normalize(args.a), norm.normalize(args.b)
    if not args.quiet:
        verdict = "same page" if key_a == key_b else "different pages"
        _stdout().write(f"{key_a}\n{key_b}\n{verdict}\n")
    return EXIT_OK if key_a == key_b else EXIT_PARTIAL


def _run_explain(norm: MIQPSNormalizer, args: argparse.Namespace) -> int:
    trace = norm.explain(args.url)
    if args.json:
        _stdout().write(_json_line(trace.to_json(), indent=2))
        return EXIT_OK
    lines = [f"url:     {trace.url}"]
    if trace.learned_domain:
        lines.append(f"learned: {trace.learned_domain} (pattern {trace.pattern!r})")
    for step in trace.rewrites:
        lines.append(f"  rewrite  [{step.rule}]  {step.after}  ({step.source})")
    for p in trace.params:
        action = "keep" if p.kept else "drop"
        value = f"={p.value}" if p.value else ""
        source = f"  ({p.source})" if p.source else ""
        lines.append(f"  {action}  {p.name}{value}  [{p.layer}: {p.rule}]{source}")
    if not trace.params:
        lines.append("  (no query parameters)")
    lines.append(f"result:  {trace.result}")
    _stdout().write("\n".join(lines) + "\n")
    return EXIT_OK


_COMMANDS = {
    "normalize": _run_normalize,
    "dedupe": _run_dedupe,
    "same": _run_same,
    "explain": _run_explain,
}


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit status."""
    args = _parser().parse_args(argv)
    try:
        norm = _normalizer(args)
        status = _COMMANDS[args.command](norm, args)
        if sys.stdout is not None:
            sys.stdout.flush()  # a closed pipe shows here, not in the interpreter's exit
        return status
    except (LearnedFormatError, InvalidURL, _UsageError) as exc:
        print(f"samepage: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except UnicodeEncodeError as exc:  # same, explain: all of the answer or none of it
        print(f"samepage: the answer {_unwritable(exc)}", file=sys.stderr)
        return EXIT_USAGE
    except BrokenPipeError:
        # The reader stopped (``| head``): end quietly, as Unix tools do.
        discard_stdout()
        return EXIT_OK
    except OSError as exc:
        print(f"samepage: {exc}", file=sys.stderr)
        discard_stdout()
        return EXIT_USAGE
    except KeyboardInterrupt:
        discard_stdout()
        return 130


if __name__ == "__main__":
    sys.exit(main())
