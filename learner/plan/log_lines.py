"""The lines of text URL logs as a stream of Arrow batches of bytes, for DuckDB to scan.

DuckDB's CSV reader cannot read a log whatever its bytes: as UTF-8 it refuses a file with
one byte that is not UTF-8, and its Latin-1 refuses the bytes 0x80 to 0x9F, which UTF-8
itself is full of (``€`` is E2 82 AC). The log is read here instead, in binary, split into
lines exactly as ``crawl --urls`` reads it (:func:`log_lines`: at LF, CRLF or a lone CR, each
line bounded), and handed to DuckDB as a stream: nothing is held in memory beyond one batch,
and every byte reaches the planner.
"""

from __future__ import annotations

import glob
import logging
import os
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any

from learner.errors import ConfigError
from samepage import escape_undecodable
from samepage.archives import read_lines

logger = logging.getLogger(__name__)

__all__ = ["LogProblems", "log_lines", "log_paths", "observed_text", "text_log_reader"]

_SHOWN_PROBLEMS = 10


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

    Lines lose their line ending; gzip data is decompressed as it is read. Lines past
    the bound are warned about (:class:`LogProblems`) and read as empty lines.

    Raises:
        ConfigError: a source names no file, or a file that cannot be read (zstd data).
    """
    import pyarrow as pa

    schema = pa.schema([("line", pa.binary())])
    paths = log_paths(sources)
    for path in paths:  # refused here, before DuckDB reads a line
        try:
            with open(path, "rb") as handle:
                read_lines(handle, path, LogProblems())
        except OSError as exc:
            raise ConfigError(f"URL log {path}: {exc}") from exc

    def batches() -> Iterator[Any]:
        problems = LogProblems()
        for path in paths:
            for lines in _batches(log_lines(path, problems), batch_lines):
                yield pa.record_batch([pa.array(lines, pa.binary())], schema=schema)
        problems.summary()

    return pa.RecordBatchReader.from_batches(schema, batches())


class LogProblems:
    """Warns of a log's unreadable lines: the first ten, then how many there were in all."""

    def __init__(self) -> None:
        self.count = 0

    def __call__(self, message: str) -> None:
        """Tell of one problem (``FILE:LINE: why``)."""
        self.count += 1
        if self.count <= _SHOWN_PROBLEMS:
            logger.warning("%s", message)

    def summary(self) -> None:
        """Warn of the count, when more problems were found than were shown."""
        if self.count > _SHOWN_PROBLEMS:
            logger.warning("%d unreadable log lines or records skipped in all", self.count)


def log_lines(path: str, problem: Callable[[str], None]) -> Iterator[bytes]:
    """The lines of one URL log, as ``crawl --urls`` and ``plan`` read it, streaming.

    samepage's line reader (:func:`samepage.archives.read_lines`): lines end at LF, CRLF or
    a lone CR, each at most :data:`samepage.archives.MAX_LINE` bytes (a longer one is told
    to ``problem`` and read as an empty line), so no log, ``/dev/zero`` included, makes the
    reader hold more. Gzip data (known by its first bytes, as web archives are) is
    decompressed as it is read; other compressed data (zstd, xz, bzip2) is refused.

    Raises:
        OSError: the file cannot be opened, or holds zstd, xz or bzip2 data
            (:class:`samepage.archives.CompressedData`).
    """
    with open(path, "rb") as handle:
        yield from read_lines(handle, path, problem)


def observed_text(line: bytes) -> str:
    """A log line as text: UTF-8, other bytes kept as observed, percent-escaped (``%FF``)."""
    return escape_undecodable(line.decode("utf-8", "surrogateescape"))


def _batches(lines: Iterable[bytes], size: int) -> Iterator[list[bytes]]:
    batch: list[bytes] = []
    for line in lines:
        batch.append(line)
        if len(batch) >= size:
            yield batch
            batch = []
    if batch:
        yield batch
