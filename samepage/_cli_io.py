"""The ``samepage`` command's text streams: URL lines read from files or stdin, stdout."""

from __future__ import annotations

import io
import sys
from collections.abc import Iterator, Sequence
from typing import BinaryIO, TextIO, cast

from samepage._archive_io import read_lines


def _lines(files: Sequence[str]) -> Iterator[tuple[str, int, str | None]]:
    """Yield (file name, line number, stripped line) from files, streaming.

    Lines are read with the bound every reader of lines has (``samepage.archives.MAX_LINE``):
    a longer one is reported on stderr and yields ``None``, as a bad line.
    """
    reported: list[str] = []

    def problem(message: str) -> None:
        reported.append(message)
        print(message, file=sys.stderr)

    for name in files or ["-"]:
        shown = "<stdin>" if name == "-" else name
        with _stdin() if name == "-" else open(name, "rb") as handle:
            for number, line in enumerate(read_lines(handle, shown, problem), start=1):
                if reported:
                    reported.clear()
                    yield shown, number, None
                    continue
                text = line.decode("utf-8", "surrogateescape").strip()
                if text:
                    yield shown, number, text
        if reported:  # the rest of the file was not read
            yield shown, 0, None


def _stdin() -> BinaryIO:
    """Standard input as bytes, read as the files are.

    Lines end as in files, at LF, CRLF or a lone CR (universal newlines), so
    one input gives the same keys through a pipe as from a file.
    """
    stdin = sys.stdin
    if stdin is None:
        raise OSError("<stdin>: standard input is closed")
    buffer = getattr(stdin, "buffer", None)
    if not isinstance(buffer, io.BufferedIOBase):
        raise OSError("<stdin>: standard input is not a stream of bytes")
    return cast(BinaryIO, buffer)


def _stdout() -> TextIO:
    """Standard output, writing bytes kept by ``surrogateescape`` back as they were."""
    stdout = sys.stdout
    if stdout is None:
        raise OSError("<stdout>: standard output is closed")
    if isinstance(stdout, io.TextIOWrapper):
        stdout.reconfigure(errors="surrogateescape")
    return stdout


def _unwritable(exc: UnicodeEncodeError) -> str:
    return f"cannot be written in the output encoding {exc.encoding!r}"
