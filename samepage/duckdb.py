"""samepage in DuckDB: a vectorized ``samepage_key(url)`` SQL function, and file-to-file jobs.

Needs ``duckdb`` and ``pyarrow`` (``pip install 'samepage[duckdb]'``); ``import samepage``
never imports this module.

>>> import duckdb
>>> con = duckdb.connect()
>>> register(con)
>>> con.sql("SELECT samepage_key('https://A.example/p/?utm_source=x&id=1')").fetchall()
[('https://a.example/p?id=1',)]
"""

from __future__ import annotations

import os
import tempfile
import threading
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

import duckdb
import pyarrow as pa
import pyarrow.compute as pc

from samepage._files import refuse_overwrite, remove_stale_temps, temp_path
from samepage.arrow import normalize_array, observed_text
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
    "output_format",
    "quote_identifier",
    "quote_literal",
    "read_files_sql",
    "register",
]

InputFormat = Literal["parquet", "csv"]
OutputFormat = Literal["parquet", "csv", "jsonl"]

_COPY_OPTIONS = {"parquet": "FORMAT parquet", "csv": "FORMAT csv, HEADER", "jsonl": "FORMAT json"}
_EXAMPLES = 3
_BATCH_ROWS = 65_536


@dataclass
class Outcome:
    """What a file job saw: the values it read that are not URLs (their key is null).

    Attributes:
        seen: how many values ``samepage_key`` was called on.
        invalid: how many of them were not URLs (for :func:`dedupe_file`: distinct values).
        examples: the first few of them.
    """

    seen: int = 0
    invalid: int = 0
    examples: list[str] = field(default_factory=list)


class _KeyFunction:
    """The Arrow function behind ``samepage_key``: one normalizer, and a tally of bad values."""

    def __init__(self, normalizer: MIQPSNormalizer) -> None:
        self.normalizer = normalizer
        self.outcome = Outcome()
        self._lock = threading.Lock()

    def __call__(self, urls: pa.Array | pa.ChunkedArray) -> pa.Array | pa.ChunkedArray:
        keys = normalize_array(urls, self.normalizer)
        invalid = keys.null_count - urls.null_count
        with self._lock:
            self.outcome.seen += len(urls)
        if invalid:
            bad = observed_text(urls.filter(pc.and_(pc.is_valid(urls), pc.is_null(keys))))
            with self._lock:
                self.outcome.invalid += invalid
                room = _EXAMPLES - len(self.outcome.examples)
                self.outcome.examples.extend(bad.slice(0, room).to_pylist() if room > 0 else [])
        return keys


def register(
    con: duckdb.DuckDBPyConnection,
    normalizer: MIQPSNormalizer | None = None,
    name: str = "samepage_key",
) -> None:
    r"""Register ``name(url VARCHAR) -> VARCHAR`` on ``con``: the key, or NULL.

    Also ``name_bytes(url BLOB) -> VARCHAR`` for a binary column (a Parquet column without
    the UTF8 annotation): the bytes are read as UTF-8, any other byte kept as that byte, so
    the key is the one ``normalize_url`` gives the same bytes (``::VARCHAR`` would write a
    byte 0xFF as the text ``\xFF``). The functions are vectorized: DuckDB hands them Arrow
    batches, and the rules and learned set of ``normalizer`` (by default the built-in rules)
    are built once, here. A NULL, or a
    value that is not a URL, gives NULL.

    Args:
        con: the DuckDB connection.
        normalizer: the :class:`~samepage.MIQPSNormalizer` to use.
        name: the SQL name of the function.

    Example::

        register(con, MIQPSNormalizer(learned="data/learned.json"))
        con.sql("SELECT samepage_key(url), count(*) FROM 'crawl/*.parquet' GROUP BY 1")
    """
    _register(con, normalizer or default_normalizer(), name, pinned=False)


def _register(
    con: duckdb.DuckDBPyConnection, norm: MIQPSNormalizer, name: str, *, pinned: bool
) -> Outcome:
    function = _KeyFunction(norm)
    for suffix, kind in (("", "VARCHAR"), ("_bytes", "BLOB")):
        _create(con, name + suffix, function, kind, pinned=pinned)
    return function.outcome


def _create(
    con: duckdb.DuckDBPyConnection,
    name: str,
    function: object,
    kind: str,
    *,
    pinned: bool,
    returns: str = "VARCHAR",
) -> None:
    # "special": NULLs reach the function, and it may return NULL for a value that is not a
    # URL (DuckDB refuses NULL results from a function registered with default handling).
    # pinned: declared with side effects, so that the optimizer never copies the call into a
    # pushed-down filter (`WHERE key IS NOT NULL` would otherwise normalise every URL twice).
    con.create_function(  # type: ignore[call-overload]  # stubs type the options as enums
        name,
        function,
        [kind],
        returns,
        type="arrow",
        null_handling="special",
        side_effects=pinned,
    )


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


def keys_query(
    sources: Sequence[str],
    fmt: InputFormat,
    column: str,
    *,
    keep_columns: bool,
    binary: bool = False,
) -> str:
    """The SQL that selects the key of each row (after the input's columns, if kept).

    ``binary``: the column is a BLOB, keyed by ``samepage_key_bytes``.
    """
    url = quote_identifier(column)
    key = f"samepage_key_bytes({url})" if binary else f"samepage_key({url}::VARCHAR)"
    source = read_files_sql(sources, fmt, column)
    return f"SELECT {'*, ' if keep_columns else ''}{key} AS key FROM {source}"


def groups_query(
    sources: Sequence[str], fmt: InputFormat, column: str, sample: int, *, binary: bool = False
) -> str:
    """The SQL that selects ``key, count, urls`` per key, largest groups first.

    ``binary``: the column is a BLOB; its spellings are grouped as bytes and shown as text
    with each byte that is not UTF-8 percent-escaped (``samepage_observed``, which only a
    :class:`Job` registers).
    """
    url = quote_identifier(column)
    spelling, key = (url, "samepage_key_bytes") if binary else (f"{url}::VARCHAR", "samepage_key")
    # Exact duplicates (common in crawl logs) are counted before any key is computed: one call
    # per distinct URL.
    keyed = f"""
        spellings AS (
            SELECT {spelling} AS url, count(*) AS n FROM {read_files_sql(sources, fmt, column)}
            WHERE {url} IS NOT NULL GROUP BY 1
        ),
        keyed AS (SELECT {key}(url) AS key, url, n FROM spellings)"""
    return _groups_sql(keyed, sample, binary=binary)


def _groups_sql(keyed: str, sample: int, *, binary: bool, binary_key: bool = False) -> str:
    """``key, count, urls`` per key, from the CTEs ``keyed`` that end in ``keyed(key, url, n)``.

    The sample is taken with a window and a filter, which spill to disk, not with a top-N
    aggregate (``min(url, N)``), whose per-key state stays in memory. ``binary``: the URLs
    are BLOBs, ``binary_key``: the keys too; either is shown percent-escaped, by a Python
    function called on the grouped rows only: called inside the aggregate, its results are
    held by DuckDB past the job's memory limit (an out-of-memory error where the same
    grouping of BLOBs spills).
    """
    if sample < 1:
        raise ValueError(f"sample must be at least 1, not {sample}")
    urls_shown = "samepage_observed_list(urls)" if binary else "urls"
    key_shown = "samepage_observed(key)" if binary_key else "key"
    return f"""
        WITH {keyed},
        ranked AS (
            SELECT key, url, sum(n) OVER by_key AS count,
                   row_number() OVER (by_key ORDER BY url) AS rank
            FROM keyed WHERE key IS NOT NULL
            WINDOW by_key AS (PARTITION BY key)
        ),
        grouped AS (
            SELECT key, count::BIGINT AS count, list(url ORDER BY url) AS urls
            FROM ranked WHERE rank <= {sample:d}
            GROUP BY ranked.key, count
        )
        SELECT {key_shown} AS key, count, {urls_shown} AS urls
        FROM grouped ORDER BY count DESC, key
    """


def observed_groups(batch: pa.RecordBatch) -> pa.RecordBatch:
    r"""A batch of ``key, count, urls`` groups whose key and URLs are bytes, as text.

    >>> batch = pa.record_batch([pa.array([b"k\xff"]), pa.array([1]), pa.array([[b"u"]])],
    ...                         names=["key", "count", "urls"])
    >>> observed_groups(batch).to_pylist()
    [{'key': 'k%FF', 'count': 1, 'urls': ['u']}]
    """
    key, count, urls = batch.columns
    return pa.record_batch(
        [observed_text(key), count, _observed_lists(urls)], names=["key", "count", "urls"]
    )


def _observed_lists(lists: pa.Array | pa.ChunkedArray) -> pa.Array | pa.ChunkedArray:
    r"""Lists of URL bytes as lists of text, each URL as :func:`observed_text` shows it.

    >>> _observed_lists(pa.array([[b"https://a.example/\xff"], None])).to_pylist()
    [['https://a.example/%FF'], None]
    """
    if isinstance(lists, pa.ChunkedArray):
        chunks = [_observed_lists(c) for c in lists.chunks]
        return pa.chunked_array(chunks, type=pa.list_(pa.string()))
    assert isinstance(lists, pa.ListArray)
    texts = observed_text(lists.values)
    return pa.ListArray.from_arrays(lists.offsets, texts, mask=lists.is_null())


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


def read_files_sql(sources: Sequence[str], fmt: InputFormat, column: str | None = None) -> str:
    """DuckDB's table function reading ``sources``; a CSV's URL ``column`` is read as text.

    Without the type, DuckDB guesses the column's type from its first rows: a column of
    numbers there and URLs later fails half-way through the file. No comment character is
    sniffed: DuckDB would otherwise drop every row whose first field starts with ``#``.
    """
    if not sources:
        raise ValueError("no input files")
    paths = "[" + ", ".join(quote_literal(os.fspath(s)) for s in sources) + "]"
    if fmt == "csv":
        types = f", types = {{{quote_literal(column)}: 'VARCHAR'}}" if column is not None else ""
        return f"read_csv({paths}, header = true, comment = ''{types})"
    return f"read_parquet({paths})"


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


def quote_identifier(name: str) -> str:
    """``name`` as a DuckDB identifier (a column name), whatever characters it holds."""
    return '"' + name.replace('"', '""') + '"'


def quote_literal(text: str) -> str:
    """``text`` as a DuckDB string literal (a path, a setting)."""
    return "'" + text.replace("'", "''") + "'"
