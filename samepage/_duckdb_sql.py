"""The SQL of samepage's DuckDB jobs: the input files read, the keys and groups queries, quoting."""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Literal

InputFormat = Literal["parquet", "csv"]


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


def quote_identifier(name: str) -> str:
    """``name`` as a DuckDB identifier (a column name), whatever characters it holds."""
    return '"' + name.replace('"', '""') + '"'


def quote_literal(text: str) -> str:
    """``text`` as a DuckDB string literal (a path, a setting)."""
    return "'" + text.replace("'", "''") + "'"
