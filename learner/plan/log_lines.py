"""The lines of text URL logs as a stream of Arrow batches of bytes, for DuckDB to scan.

DuckDB's CSV reader cannot read a log whatever its bytes: as UTF-8 it refuses a file with
one byte that is not UTF-8, and its Latin-1 refuses the bytes 0x80 to 0x9F, which UTF-8
itself is full of (``€`` is E2 82 AC). The log is read here instead, in binary, split into
lines exactly as ``crawl --urls`` reads it (at LF, CRLF or a lone CR), and handed to DuckDB
as a stream: nothing is held in memory beyond one batch, and every byte reaches the planner.
"""

from __future__ import annotations

import glob
import gzip
import io
import os
from collections.abc import Iterator, Sequence
from typing import Any

from learner.errors import ConfigError

__all__ = ["log_paths", "text_log_reader"]

_CHUNK_BYTES = 4 << 20
_NEWLINES = (b"\n", b"\r")


def log_paths(sources: Sequence[str]) -> list[str]:
    """The files ``sources`` name, globs expanded (``**`` crosses folders), in name order.

    Raises:
        ConfigError: a source that names no file.
    """
    paths: list[str] = []
    for source in sources:
        if glob.has_magic(source):
            found = sorted(p for p in glob.glob(source, recursive=True) if os.path.isfile(p))
            if not found:
                raise ConfigError(f"--urls {source}: no file matches")
            paths.extend(found)
        elif os.path.isdir(source):
            raise ConfigError(f"--urls {source}: is a folder (give a glob: {source}/*.txt)")
        elif not os.path.exists(source):
            raise ConfigError(f"--urls {source}: no such file")
        else:
            paths.append(source)
    return paths


def text_log_reader(sources: Sequence[str], batch_lines: int = 65_536) -> Any:
    """A ``pyarrow.RecordBatchReader`` of one ``binary`` column ``line``: every log line.

    Lines lose their line ending; a ``.gz`` file is decompressed as it is read.
    """
    import pyarrow as pa

    schema = pa.schema([("line", pa.binary())])
    paths = log_paths(sources)

    def batches() -> Iterator[Any]:
        for path in paths:
            for lines in _lines(path, batch_lines):
                yield pa.record_batch([pa.array(lines, pa.binary())], schema=schema)

    return pa.RecordBatchReader.from_batches(schema, batches())


def _open(path: str) -> io.BufferedIOBase:
    return gzip.open(path, "rb") if path.endswith(".gz") else open(path, "rb")


def _lines(path: str, batch_lines: int) -> Iterator[list[bytes]]:
    """The lines of one file, in lists of at most ``batch_lines``.

    A CR that ends one chunk and the LF that starts the next give an extra empty line, which
    the planner skips as it skips every blank line.
    """
    with _open(path) as handle:
        tail = b""
        while chunk := handle.read(_CHUNK_BYTES):
            lines = (tail + chunk).splitlines()  # at LF, CRLF and CR, as bytes do
            tail = b"" if chunk.endswith(_NEWLINES) else lines.pop()
            for start in range(0, len(lines), batch_lines):
                yield lines[start : start + batch_lines]
        if tail:
            yield [tail]
