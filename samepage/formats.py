"""File formats by extension: the one table every reader of samepage and the learner uses.

The samepage CLI (tables and web archives), :mod:`samepage.duckdb` (output files),
``python -m samepage.spark`` (input), and the learner's plan files and URL logs each accept
some of these formats; each reads a path's format here and keeps the ones it accepts, so that
an extension means the same format everywhere.

>>> file_format("crawl/part-0.PQ"), file_format("logs.csv.gz", compressions=(".gz",))
('parquet', 'csv')
>>> file_format("logs.csv.gz") is None, file_format("urls.txt") is None
(True, True)
>>> table_format("logs.csv.zst"), table_format("urls.txt.gz")
('csv', None)
"""

from __future__ import annotations

import os
from collections.abc import Collection, Mapping
from pathlib import PurePath
from types import MappingProxyType
from typing import Final, Literal

__all__ = [
    "SUFFIXES",
    "TABLE_COMPRESSIONS",
    "FileFormat",
    "TableFormat",
    "file_format",
    "table_format",
]

FileFormat = Literal["parquet", "csv", "jsonl", "json", "cdxj", "warc"]
TableFormat = Literal["parquet", "csv"]

#: The compression suffixes DuckDB undoes when it reads a table file.
TABLE_COMPRESSIONS: Final = (".gz", ".zst")

#: Each extension (lower case) and the format it names.
SUFFIXES: Final[Mapping[str, FileFormat]] = MappingProxyType(
    {
        ".parquet": "parquet",
        ".pq": "parquet",
        ".csv": "csv",
        ".jsonl": "jsonl",
        ".ndjson": "jsonl",
        ".json": "json",
        ".cdxj": "cdxj",
        ".warc": "warc",
    }
)


def file_format(
    path: str | os.PathLike[str], *, compressions: Collection[str] = ()
) -> FileFormat | None:
    """The format a path's extension names (case-insensitive); ``None`` if the table has none.

    Args:
        path: a file name or path; only its last component counts.
        compressions: the compression suffixes the caller's reader undoes (``".gz"``,
            ``".zst"``): one of them may end the name, after the format's extension
            (``logs.csv.gz``). Without them, ``logs.csv.gz`` names no format.
    """
    name = PurePath(path).name.lower()
    stem, _, extension = name.rpartition(".")
    if stem and "." + extension in compressions:
        name = stem
    suffix = PurePath(name).suffix
    return SUFFIXES.get(suffix) if suffix else None


def table_format(path: str | os.PathLike[str]) -> TableFormat | None:
    """``parquet`` or ``csv`` for a table DuckDB reads, by extension; ``None`` for any other.

    The input of samepage's table commands and of the learner's URL logs: a name may end in
    one of :data:`TABLE_COMPRESSIONS` (``logs.csv.zst``). ``None`` is the caller's text input
    (one URL a line).
    """
    found = file_format(path, compressions=TABLE_COMPRESSIONS)
    return found if found == "parquet" or found == "csv" else None
