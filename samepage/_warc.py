"""WARC records read with bounds: each record's WARC headers and the HTTP head of its block.

Only the headers are kept; a block is read through, never held, so a record of any size
streams. A record that cannot be read (no ``WARC/1.x`` line, headers past
:data:`MAX_HEADERS`, no ``Content-Length``, a ``Content-Length`` that does not end the
record) is reported through ``problem`` and the reader goes on at the next line that starts
a WARC record, looked for through at most :data:`MAX_SKIP` bytes. Header values are read
as UTF-8, a byte that is not UTF-8 kept as that byte (``surrogateescape``), never guessed
to be Latin-1: ``0xFF`` and the UTF-8 ``ÿ`` stay two URLs.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from samepage._archive_io import MAX_SKIP, ArchiveFile, Broken

__all__ = ["MAX_HEADERS", "MAX_SKIP", "WarcHead", "warc_heads"]

MAX_HEADERS = 1 << 20
"""The most bytes of a record's WARC headers, and of the HTTP headers at its block's start."""

_VERSION = re.compile(rb"WARC/[0-9]+\.[0-9]+\r?\n")
_STATUS = re.compile(rb"HTTP/[0-9](?:\.[0-9])? +([0-9]{3})(?:[ \r\n]|$)")
_KINDS = frozenset({"response", "revisit"})


@dataclass(frozen=True, slots=True)
class WarcHead:
    """A ``response`` or ``revisit`` record: its WARC headers and its HTTP status line."""

    kind: str
    headers: dict[str, str]
    """WARC headers, names in lower case; values as UTF-8 (``surrogateescape``)."""
    status: int | None
    content_type: str
    """The HTTP ``Content-Type`` header, when the block has HTTP headers."""
    where: str


class _Skip(Exception):
    """The record is passed over; ``rest`` says whether anything of the file is left."""

    def __init__(self, rest: bool = True) -> None:
        self.rest = rest


def warc_heads(data: ArchiveFile, name: str, problem: Callable[[str], None]) -> Iterator[WarcHead]:
    """The ``response`` and ``revisit`` records of a WARC file; others are read through."""
    while True:
        where = f"{name}@{data.member}"
        try:
            data.peek(1)  # so that the gzip member the record starts in is known
            where = f"{name}@{data.member}"
            head = _record(data, where, problem)
        except Broken as exc:
            problem(f"{where}: {exc}")
            continue
        except _Skip as skip:
            if skip.rest:
                continue
            return
        if head is None:
            return
        if head.kind in _KINDS:
            yield head


def _record(data: ArchiveFile, where: str, problem: Callable[[str], None]) -> WarcHead | None:
    """The next record (``None`` at the end); raises :class:`_Skip` for one that is not read."""
    line = data.readline(MAX_HEADERS)
    while line in (b"\r\n", b"\n"):
        line = data.readline(MAX_HEADERS)
    if not line:
        return None
    if not _VERSION.fullmatch(line):
        problem(f"{where}: not a WARC record (no WARC/1.x line)")
        raise _Skip(_resync(data, where, problem))
    headers = _headers(data, where, problem, len(line))
    kind = headers.get("warc-type", "").lower()
    length = headers.get("content-length", "")
    if not (length.isascii() and length.isdigit() and len(length) <= 18):
        problem(f"{where}: {kind or 'a'} record without a valid Content-Length")
        raise _Skip(_resync(data, where, problem))
    size = int(length)
    mark = data.mark()
    status, content_type, used, readable = None, "", 0, True
    if kind in _KINDS:
        head = data.read(min(size, MAX_HEADERS))
        used = len(head)
        found = _http(head, complete=used < MAX_HEADERS or used == size)
        if found is None:
            problem(f"{where}: {kind} record with HTTP headers longer than {MAX_HEADERS} bytes")
            readable = False
        else:
            status, content_type = found
    if used + data.skip(size - used) < size:
        # A Content-Length past the end of the file: a record cut, or one that lies.
        problem(f"{where}: {kind or 'a'} record cut short (truncated)")
        data.back(mark, MAX_SKIP)
        raise _Skip(_resync(data, where, None))
    if not _ended(data):
        # The next record is somewhere in or after this one's block: look for it from the
        # block's start (read again, within bounds), so no record after a lie is lost.
        problem(f"{where}: Content-Length {size} does not end the {kind or 'a'} record")
        data.back(mark, MAX_SKIP)
        raise _Skip(_resync(data, where, problem))
    if not readable:
        raise _Skip()
    return WarcHead(kind, headers, status, content_type, where)


def _headers(
    data: ArchiveFile, where: str, problem: Callable[[str], None], size: int
) -> dict[str, str]:
    """The WARC headers up to the blank line that ends them."""
    headers: dict[str, str] = {}
    last = ""
    while True:
        line = data.readline(MAX_HEADERS)
        size += len(line)
        if not line or (not line.endswith(b"\n") and len(line) < MAX_HEADERS):
            problem(f"{where}: the file ends inside a record (truncated)")
            raise _Skip(rest=False)
        if size > MAX_HEADERS:
            problem(f"{where}: WARC headers longer than {MAX_HEADERS} bytes")
            raise _Skip(_resync(data, where, problem))
        if line in (b"\r\n", b"\n"):
            return headers
        text = line.rstrip(b"\r\n").decode("utf-8", "surrogateescape")
        if text[:1] in (" ", "\t") and last:
            headers[last] += " " + text.strip()  # a folded line continues the last header
            continue
        label, colon, value = text.partition(":")
        if not colon:
            problem(f"{where}: a WARC header line without ':'")
            raise _Skip(_resync(data, where, problem))
        last = label.strip().lower()
        headers.setdefault(last, value.strip())


def _http(head: bytes, *, complete: bool) -> tuple[int | None, str] | None:
    """The status and ``Content-Type`` of an HTTP head; ``None`` if its headers do not end."""
    if not head.startswith(b"HTTP/"):
        return None, ""  # not HTTP (a dns: record, a revisit without headers)
    end = head.find(b"\r\n\r\n")
    if end < 0:
        end = head.find(b"\n\n")
    if end < 0 and not complete:
        return None
    lines = head[: end if end >= 0 else len(head)].split(b"\n")
    match = _STATUS.match(lines[0])
    status = int(match.group(1)) if match else None
    content_type = ""
    for line in lines[1:]:
        label, colon, value = line.partition(b":")
        if colon and label.strip().lower() == b"content-type":
            content_type = value.strip().decode("utf-8", "surrogateescape")
            break
    return status, content_type


def _ended(data: ArchiveFile) -> bool:
    """Whether the record ends here: two line ends (or at once another record, or the end).

    What follows two line ends is the next record's to answer for.
    """
    ends = 0
    while ends < 2:
        if data.peek(2) == b"\r\n":
            data.skip(2)
        elif data.peek(1) == b"\n":
            data.skip(1)
        else:
            break
        ends += 1
    return ends == 2 or data.peek(5) in (b"", b"WARC/")


def _resync(data: ArchiveFile, where: str, problem: Callable[[str], None] | None) -> bool:
    """Go on at the next line that starts a WARC record; whether there is one.

    ``problem`` is told when none is found within :data:`MAX_SKIP` bytes (the rest of the
    file is then not read); ``None`` when the record was reported already.
    """
    if data.peek(5) == b"WARC/":
        return True
    if data.find(b"\nWARC/", MAX_SKIP):
        data.skip(1)
        return True
    if data.peek(1) and problem is not None:
        problem(f"{where}: no WARC record in the next {MAX_SKIP} bytes; the rest is not read")
    return False
