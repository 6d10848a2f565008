"""samepage in DuckDB: a vectorized ``samepage_key(url)`` SQL function, and file-to-file jobs.

Needs ``duckdb`` and ``pyarrow`` (``pip install 'samepage[duckdb]'``); ``import samepage``
never imports this module.

This module runs the jobs (:class:`Job`, :func:`normalize_file`, :func:`dedupe_file`); the
functions it registers are in ``_duckdb_functions``, the SQL it runs in ``_duckdb_sql``.

>>> import duckdb
>>> con = duckdb.connect()
>>> register(con)
>>> con.sql("SELECT samepage_key('https://A.example/p/?utm_source=x&id=1')").fetchall()
[('https://a.example/p?id=1',)]
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import Literal

import duckdb
import pyarrow as pa

from samepage._duckdb_functions import (
    Outcome,
    _create,
    _observed_lists,
    _register,
    observed_groups,
    register,
)
from samepage._duckdb_sql import (
    InputFormat,
    _groups_sql,
    groups_query,
    keys_query,
    quote_identifier,
    quote_literal,
    read_files_sql,
)
from samepage._files import refuse_overwrite, remove_stale_temps, temp_path
from samepage.arrow import observed_text
from samepage.formats import file_format
from samepage.normalizer import MIQPSNormalizer, default_normalizer

__all__ = [
    "InputFormat",
    "Job",
    "Outcome",
    "OutputFormat",
    "dedupe_file",
    "error_line",
    "groups_query",
    "keys_query",
    "normalize_file",
    "observed_groups",
    "output_format",
    "quote_identifier",
    "quote_literal",
    "read_files_sql",
    "register",
]

OutputFormat = Literal["parquet", "csv", "jsonl"]

_COPY_OPTIONS = {"parquet": "FORMAT parquet", "csv": "FORMAT csv, HEADER", "jsonl": "FORMAT json"}
_BATCH_ROWS = 65_536


def output_format(path: str) -> OutputFormat:
    """The output format a path's extension names.

    Raises:
        ValueError: for an extension that is not ``.parquet``, ``.csv``, ``.jsonl`` or
            ``.ndjson``.
    """
    found = file_format(path)
    if found == "parquet" or found == "csv" or found == "jsonl":
        return found
    raise ValueError(f"{path}: output must end in .parquet, .csv, .jsonl or .ndjson")


def normalize_file(
    sources: Sequence[str],
    out: str,
    *,
    column: str = "url",
    fmt: InputFormat = "parquet",
    normalizer: MIQPSNormalizer | None = None,
    memory_limit: str | None = None,
) -> Outcome:
    """Copy Parquet or CSV files to ``out`` with a ``key`` column added.

    Every input column is kept, in order, with the key last: NULL for a NULL or for a value
    that is not a URL. Rows keep their order. Files larger than memory are streamed.

    Args:
        sources: input paths; DuckDB globs (``crawl/*.parquet``) are allowed.
        out: the output path; its extension picks Parquet, CSV or JSON Lines.
        column: the column holding the URLs.
        fmt: the input format.
        normalizer: the :class:`~samepage.MIQPSNormalizer` to use.
        memory_limit: DuckDB's ``memory_limit`` (``"1GB"``); by default DuckDB's own.

    Returns:
        The values that were not URLs.

    Raises:
        ValueError: ``out`` is an input, or a glob of ``sources`` would match it.
    """
    refuse_overwrite(out, sources)
    with Job(normalizer, memory_limit, ordered=True) as job:
        job.copy(job.keys_query(sources, fmt, column, keep_columns=True), out)
        return job.outcome


def dedupe_file(
    sources: Sequence[str],
    out: str,
    *,
    column: str = "url",
    fmt: InputFormat = "parquet",
    sample: int = 5,
    normalizer: MIQPSNormalizer | None = None,
    memory_limit: str | None = None,
) -> Outcome:
    """Group the URLs of Parquet or CSV files by key: one row per key, largest groups first.

    Output columns: ``key``, ``count`` (rows with that key) and ``urls`` (up to ``sample``
    distinct spellings, the alphabetically first). NULL URLs are skipped; values that are not
    URLs are left out and counted in the outcome (as distinct values). Each distinct URL is
    normalised once; DuckDB spills to disk when the groups do not fit in memory.

    Args:
        sources: input paths; DuckDB globs are allowed.
        out: the output path: Parquet, CSV or JSON Lines, by extension.
        column: the column holding the URLs.
        fmt: the input format.
        sample: how many spellings to keep per key.
        normalizer: the :class:`~samepage.MIQPSNormalizer` to use.
        memory_limit: DuckDB's ``memory_limit``; by default DuckDB's own.

    Returns:
        The values that were not URLs.

    Raises:
        ValueError: ``out`` is an input, or a glob of ``sources`` would match it.
    """
    refuse_overwrite(out, sources)
    with Job(normalizer, memory_limit, ordered=False) as job:
        job.copy(job.groups_query(sources, fmt, column, sample), out)
        return job.outcome


class Job:
    """One DuckDB connection with ``samepage_key`` registered, spilling to a private folder.

    A context manager; :func:`normalize_file` and :func:`dedupe_file` run one each. The
    ``outcome`` fills in as queries run.
    """

    def __init__(
        self,
        normalizer: MIQPSNormalizer | None = None,
        memory_limit: str | None = None,
        *,
        ordered: bool = True,
    ) -> None:
        self._spill = tempfile.TemporaryDirectory(prefix="samepage-duckdb-")
        self.con = duckdb.connect()
        self.con.execute(f"SET temp_directory = {quote_literal(self._spill.name)}")
        self.con.execute(f"SET preserve_insertion_order = {str(ordered).lower()}")
        self.con.execute("SET enable_progress_bar = false")
        if memory_limit is not None:
            self.con.execute(f"SET memory_limit = {quote_literal(memory_limit)}")
        self.outcome = _register(
            self.con, normalizer or default_normalizer(), "samepage_key", pinned=True
        )
        _create(self.con, "samepage_observed", observed_text, "BLOB", pinned=False)
        _create(
            self.con,
            "samepage_observed_list",
            _observed_lists,
            "BLOB[]",
            pinned=False,
            returns="VARCHAR[]",
        )

    def __enter__(self) -> Job:
        return self

    def __exit__(self, *exc: object) -> None:
        self.con.close()
        self._spill.cleanup()

    def columns(self, sources: Sequence[str], fmt: InputFormat) -> dict[str, str]:
        """The input's columns and their DuckDB types, in order."""
        rows = self.con.execute(f"DESCRIBE SELECT * FROM {read_files_sql(sources, fmt)}").fetchall()
        return {str(row[0]): str(row[1]) for row in rows}

    def keys_query(
        self, sources: Sequence[str], fmt: InputFormat, column: str, *, keep_columns: bool
    ) -> str:
        """:func:`keys_query` for this input, after checking its columns.

        Raises:
            ValueError: the column is missing, or (``keep_columns``) the input already has a
                column named ``key``.
        """
        found = self._url_column(sources, fmt, column)
        taken = [name for name in found if name.casefold() == "key"]
        if keep_columns and taken:
            raise ValueError(
                f"the input already has a column {taken[0]!r}; samepage adds its key as "
                "'key': rename that column first (SELECT * RENAME) or print keys to stdout"
            )
        binary = found[column] == "BLOB"
        return keys_query(sources, fmt, column, keep_columns=keep_columns, binary=binary)

    def groups_query(
        self, sources: Sequence[str], fmt: InputFormat, column: str, sample: int
    ) -> str:
        """:func:`groups_query` for this input, after checking its URL column.

        Raises:
            ValueError: the column is missing, or ``sample`` is below 1.
        """
        binary = self._url_column(sources, fmt, column)[column] == "BLOB"
        return groups_query(sources, fmt, column, sample, binary=binary)

    def keyed_groups_query(self, keyed: Iterable[tuple[str, str]], sample: int) -> str:
        """:func:`groups_query` of URLs already keyed: ``(url, key)`` pairs, streamed.

        Its rows hold the key and the URLs as bytes: :func:`observed_groups` shows them.

        The pairs (a text input, keyed as it is read) reach DuckDB in Arrow batches of
        :data:`_BATCH_ROWS`, never all at once; DuckDB counts and groups them, spilling past
        the job's memory limit. A URL is kept as its bytes (a byte that is not UTF-8, kept by
        ``surrogateescape``, stays that byte) and shown with such bytes percent-escaped.

        Raises:
            ValueError: ``sample`` is below 1.
        """
        schema = pa.schema([("url", pa.binary()), ("key", pa.binary())])

        def batches() -> Iterator[pa.RecordBatch]:
            rows: tuple[list[bytes], list[bytes]] = ([], [])
            for pair in keyed:
                for column, text in zip(rows, pair, strict=True):
                    column.append(text.encode("utf-8", "surrogateescape"))
                if len(rows[0]) >= _BATCH_ROWS:
                    yield pa.record_batch([pa.array(c, pa.binary()) for c in rows], schema)
                    rows = ([], [])
            yield pa.record_batch([pa.array(c, pa.binary()) for c in rows], schema)

        self.con.register("samepage_keyed", pa.RecordBatchReader.from_batches(schema, batches()))
        keyed_sql = "keyed AS (SELECT key, url, count(*) AS n FROM samepage_keyed GROUP BY ALL)"
        # Grouped as bytes and shown as text by the caller (:func:`observed_groups`): a Python
        # function in the query keeps DuckDB from spilling what it feeds.
        return _groups_sql(keyed_sql, sample, binary=False)

    def _url_column(self, sources: Sequence[str], fmt: InputFormat, column: str) -> dict[str, str]:
        found = self.columns(sources, fmt)
        if column not in found:
            names = ", ".join(repr(name) for name in list(found)[:10])
            raise ValueError(f"no column {column!r} in the input; its columns: {names}")
        return found

    def copy(self, query: str, out: str) -> None:
        """Write the result of ``query`` to ``out`` (Parquet, CSV or JSON Lines).

        The file is written under a temporary name and renamed into place: readers never see
        half a file, and a failed or killed job leaves ``out`` as it was (a temp file left by
        a kill is removed by the next job writing ``out``).
        """
        options = _COPY_OPTIONS[output_format(out)]
        target = Path(out)
        remove_stale_temps(target)
        temp = temp_path(target)
        try:
            self.con.execute(f"COPY ({query}) TO {quote_literal(os.fspath(temp))} ({options})")
            os.replace(temp, target)
        finally:
            temp.unlink(missing_ok=True)

    def batches(self, query: str) -> Iterator[pa.RecordBatch]:
        """The result of ``query``, streamed in Arrow record batches."""
        relation = self.con.sql(query)
        # DuckDB 2 names it to_arrow_reader, 1.x fetch_arrow_reader.
        reader = getattr(relation, "to_arrow_reader", None) or relation.fetch_arrow_reader
        yield from reader(_BATCH_ROWS)


def error_line(message: str) -> str:
    r"""DuckDB's error about an input file, on one line: the file (when it says) and why.

    DuckDB's CSV errors run to twenty lines of reader settings; this keeps the file, the line
    and the reason.

    >>> error_line("Invalid Input Error: CSV Error on Line: 2\nOriginal Line: a,b\n"
    ...            "Invalid unicode.\n\n  file = x.csv\n")
    'x.csv: Invalid Input Error: CSV Error on Line: 2; Invalid unicode.'
    """
    lines = [line.strip() for line in message.splitlines() if line.strip()]
    named = [line.partition("=")[2].strip() for line in lines if line.startswith("file =")]
    said = [line for line in lines[:4] if " = " not in line]
    skip = ("Original Line", "Possible Solution", "Candidate bindings", "LINE ")
    why = "; ".join(line for line in said if not line.startswith(skip))
    return f"{named[0]}: {why}" if named else why
