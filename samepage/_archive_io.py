"""A file read in bounded pieces (plain, or gzip of any number of members), and its lines.

Every reader of lines in samepage and the learner reads through :func:`bounded_lines`: CDXJ
indexes, the command line's text input and URL logs, each line at most :data:`MAX_LINE`.

Gzip data is inflated at most :data:`PIECE` bytes at a time, so no line, header or gzip bomb
can make the reader hold more than the bound its caller gives plus one piece. Damaged or cut
gzip data raises :class:`Broken` once, where it is found; the reader then goes on at the
next gzip member that decodes (web archives compress one record, or a few lines, per member,
so what follows a damaged member can still be read), or at the end of the file.
"""

from __future__ import annotations

import errno
import os
import stat
import zlib
from collections.abc import Callable, Iterator
from typing import BinaryIO

__all__ = [
    "MAX_LINE",
    "MAX_SKIP",
    "PIECE",
    "ArchiveFile",
    "Broken",
    "CompressedData",
    "bounded_lines",
    "open_regular",
    "read_lines",
]

PIECE = 1 << 16
"""Bytes read, or inflated, at once."""

MAX_LINE = 1 << 20
"""The longest line read, in bytes (a CDXJ line, a URL of a text list or log): room for a
SURT key, the URL and a redirect URL of 64 KiB each, and the rest of a CDXJ line's JSON."""

MAX_SKIP = 64 << 20
"""The most bytes read through to find where the next record (or line) starts."""

_MAGIC = b"\x1f\x8b\x08"

_NOT_INFLATED = (
    ("zstd", b"\x28\xb5\x2f\xfd"),
    ("xz", b"\xfd7zXZ\x00"),
    ("bzip2", b"BZh?1AY&SY"),  # ? is the block size, 1 to 9
)
"""Compressions known by their first bytes that the line reader does not undo."""


class Broken(Exception):
    """The file's data broke off (damaged or cut gzip data); reading goes on after it."""


class CompressedData(OSError):
    """Data compressed as the line reader does not undo (it inflates gzip only).

    Read as lines, it would be garbage: the reader refuses it at its first bytes instead.
    An ``OSError``, as :class:`gzip.BadGzipFile` is: the file cannot be read as asked.
    """


def _starts_gzip(handle: BinaryIO, name: str) -> bool:
    """Whether ``handle`` starts with gzip data, by its first bytes (read ahead, not taken).

    A stream that cannot read ahead (no ``peek``) is taken as plain.

    Raises:
        CompressedData: the data starts as zstd, xz or bzip2 data.
    """
    peek = getattr(handle, "peek", None)
    head: bytes = peek(16)[:16] if peek is not None else b""
    for kind, magic in _NOT_INFLATED:
        if len(head) >= len(magic) and all(
            m == ord("?") or h == m for h, m in zip(head, magic, strict=False)
        ):
            raise CompressedData(
                f"{name}: {kind}-compressed data, which samepage does not read as lines "
                "(it reads gzip): decompress it first, or give a table DuckDB reads "
                "(.csv.zst with a url column)"
            )
    return head.startswith(_MAGIC[:2])


def open_regular(path: str) -> BinaryIO:
    """``path`` opened for reading bytes; a FIFO or a device (``/dev/zero``) is refused.

    Raises:
        OSError: the file cannot be opened, or is not a regular file.
    """
    handle = open(path, "rb")  # noqa: SIM115  # returned to the caller, who closes it
    try:
        if not stat.S_ISREG(os.fstat(handle.fileno()).st_mode):
            # A FIFO would block and /dev/zero never end: neither is an archive file.
            raise OSError(errno.EINVAL, "not a regular file", path)
    except BaseException:
        handle.close()
        raise
    return handle


class ArchiveFile:
    """The bytes of a file, inflated if ``gzip``, with bounded line reads.

    Plain data is only read forward, so a pipe serves (``back`` aside); gzip data needs a
    seekable file to go on after damaged data.
    """

    def __init__(self, handle: BinaryIO, *, gzip: bool) -> None:
        self._handle = handle
        self._gzip = gzip
        self._buf = bytearray()
        self._pos = 0
        self._offset = 0
        """Bytes delivered (inflated) before ``_buf``."""
        self._pending = b""
        """Compressed bytes read from the file and not yet inflated."""
        self._read = 0
        """Bytes read from the file so far."""
        self._inflater: zlib._Decompress | None = None
        self._member = 0
        """Where the gzip member being inflated starts in the file."""
        self._members: list[tuple[int, int]] = [(0, 0)]
        """Where gzip members start in the inflated data and in the file: from the one that
        holds the buffer's first byte on."""
        self._ended = False

    @property
    def offset(self) -> int:
        """The position of the next byte in the (inflated) data."""
        return self._offset + self._pos

    @property
    def member(self) -> int:
        """Where the gzip member holding the next byte starts in the file (plain: ``offset``)."""
        return self._holding(self.offset)[1] if self._gzip else self.offset

    def _holding(self, offset: int) -> tuple[int, int]:
        """The start of the gzip member that holds ``offset``: inflated, and in the file."""
        found = self._members[0]
        for entry in self._members:
            if entry[0] > offset:
                break
            found = entry
        return found

    def _raw(self) -> bytes:
        """The next piece of data, b"" at the end; raises :class:`Broken` where it breaks."""
        if not self._gzip:
            data = self._handle.read(PIECE)
            self._read += len(data)
            return data
        while True:
            if not self._pending:
                self._pending = self._handle.read(PIECE)
                self._read += len(self._pending)
                if not self._pending:
                    if self._inflater is not None:
                        self._inflater = None
                        raise Broken("the file ends inside gzip data (truncated)")
                    return b""
            if self._inflater is None and not self._start_member():
                continue
            assert self._inflater is not None
            data = self._pending
            try:
                out = self._inflater.decompress(data, PIECE)
            except zlib.error as exc:
                self._inflater = None
                where = self._member
                self._resync(self._member + 1)
                raise Broken(f"damaged gzip data in the member at {where} ({exc})") from None
            if self._inflater.eof:
                self._pending = self._inflater.unused_data
                self._inflater = None
            else:
                self._pending = self._inflater.unconsumed_tail
            if out:
                return out

    def _start_member(self) -> bool:
        """Begin a gzip member at the pending bytes; False when more bytes are needed."""
        if len(self._pending) < len(_MAGIC):
            more = self._handle.read(PIECE)
            self._read += len(more)
            if more:
                self._pending += more
                return False
            if not self._pending.strip(b"\0"):
                self._pending = b""  # zero padding after the last member
                return False
        if not self._pending.startswith(_MAGIC):
            if not self._pending.strip(b"\0") and self._at_end():
                self._pending = b""
                return False
            where = self._read - len(self._pending)
            self._resync(where)
            raise Broken(f"not gzip data at {where}")
        self._member = self._read - len(self._pending)
        start = (self._offset + len(self._buf), self._member)
        if self._members[-1][0] == start[0]:
            self._members[-1] = start  # the one before was empty: one entry, not millions
        else:
            self._members.append(start)
        self._inflater = zlib.decompressobj(16 + zlib.MAX_WBITS)
        return True

    def _at_end(self) -> bool:
        more = self._handle.read(PIECE)
        self._read += len(more)
        self._pending += more
        return not more

    def _resync(self, start: int) -> None:
        """Go on at the first gzip member from ``start`` on that begins to decode."""
        while True:
            self._handle.seek(start)
            self._read, self._pending = start, b""
            found = self._find_magic()
            if found is None:
                return
            probe = zlib.decompressobj(16 + zlib.MAX_WBITS)
            self._handle.seek(found)
            try:
                probe.decompress(self._handle.read(PIECE), PIECE)
            except zlib.error:
                start = found + 1
                continue
            self._handle.seek(found)
            self._read, self._pending = found, b""
            return

    def _find_magic(self) -> int | None:
        at, tail = self._read, b""
        while True:
            data = self._handle.read(PIECE)
            if not data:
                self._read = at + len(tail)
                return None
            window = tail + data
            index = window.find(_MAGIC)
            if index >= 0:
                return at + index
            keep = min(len(_MAGIC) - 1, len(window))
            at += len(window) - keep
            tail = window[len(window) - keep :]

    def _fill(self) -> bool:
        """Add a piece to the buffer; False at the end of the data."""
        if self._ended:
            return False
        if self._pos:
            del self._buf[: self._pos]
            self._offset += self._pos
            self._pos = 0
            while len(self._members) > 1 and self._members[1][0] <= self._offset:
                del self._members[0]
        try:
            data = self._raw()
        except Broken:
            self._drop_buffer()
            raise
        if not data:
            self._ended = True
            return False
        self._buf += data
        return True

    def _drop_buffer(self) -> None:
        """Forget what was inflated before a break: it is cut off from what follows."""
        self._offset += len(self._buf)
        self._buf.clear()
        self._pos = 0

    def readline(self, limit: int, *, cr: bool = False) -> bytes:
        r"""The next line with its ``\n``; at most ``limit`` bytes (then without it); b"" at end.

        With ``cr``, a lone ``\r`` ends a line too, and ``\r\n`` is one line end (Python's
        universal newlines).

        Raises:
            Broken: the data broke off inside the line (what was read of it is dropped).
        """
        searched = 0
        while True:
            start = self._pos
            end = self._buf.find(b"\n", start + searched, start + limit)
            if cr:
                at = self._buf.find(b"\r", start + searched, end if end >= 0 else start + limit)
                if at >= 0:
                    if at + 1 == len(self._buf):
                        searched = at - start  # is it \r\n? Look again with the next piece.
                        if self._fill():
                            continue
                        start = self._pos  # the buffer now starts at the line
                        at = start + searched
                    end = at + 1 if self._buf[at + 1 : at + 2] == b"\n" else at
            if end >= 0:
                self._pos = end + 1
                return bytes(self._buf[start : end + 1])
            searched = len(self._buf) - start
            if searched >= limit:
                self._pos = start + limit
                return bytes(self._buf[start : self._pos])
            if not self._fill():
                start = self._pos  # the buffer now starts at the line
                self._pos = len(self._buf)
                return bytes(self._buf[start:])

    def read(self, size: int) -> bytes:
        """Up to ``size`` bytes (fewer only at the end of the data).

        Raises:
            Broken: the data broke off (what was read is dropped).
        """
        data = self.peek(size)
        self._pos += len(data)
        return data

    def peek(self, size: int) -> bytes:
        """The next ``size`` bytes (fewer at the end of the data), left to be read.

        Raises:
            Broken: the data broke off.
        """
        while len(self._buf) - self._pos < size:
            if not self._fill():
                break
        return bytes(self._buf[self._pos : self._pos + size])

    def skip(self, size: int) -> int:
        """Read through ``size`` bytes without keeping them; how many there were.

        Raises:
            Broken: the data broke off.
        """
        left = size
        while left > 0:
            ready = len(self._buf) - self._pos
            if ready == 0:
                if not self._fill():
                    break
                continue
            step = min(ready, left)
            self._pos += step
            left -= step
        return size - left

    def find(self, needle: bytes, limit: int) -> bool:
        """Move to the next ``needle`` within ``limit`` bytes; else read through ``limit``.

        Raises:
            Broken: the data broke off.
        """
        start = self.offset
        while True:
            index = self._buf.find(needle, self._pos)
            if index >= 0 and self._offset + index - start <= limit:
                self._pos = index
                return True
            scanned = self._offset + len(self._buf) - start
            if scanned > limit:
                self.skip(start + limit - self.offset)
                return False
            # Keep the bytes that may begin the needle; the rest is passed.
            self._pos = max(self._pos, len(self._buf) - len(needle) + 1)
            if not self._fill():
                self._pos = len(self._buf)
                return False

    def mark(self) -> tuple[int, int, int]:
        """A position :meth:`back` can return to: (offset, member in the file, its offset)."""
        inflated, member = self._holding(self.offset)
        return (self.offset, member, inflated)

    def back(self, mark: tuple[int, int, int], limit: int) -> bool:
        """Return to ``mark`` if that means inflating at most ``limit`` bytes again.

        Raises:
            Broken: the data broke off on the way.
        """
        offset, member, inflated = mark
        if self._gzip and offset - inflated > limit:
            return False
        start = member if self._gzip else offset
        self._handle.seek(start)
        self._read, self._pending, self._inflater = start, b"", None
        self._buf.clear()
        self._pos, self._ended = 0, False
        self._offset = inflated if self._gzip else offset
        self._members = [(self._offset, start)]
        if self._gzip:
            self.skip(offset - inflated)
        return True


def read_lines(
    handle: BinaryIO, name: str, problem: Callable[[str], None], *, gzip: bool | None = None
) -> Iterator[bytes]:
    r"""The lines of a text file or stream, without their line ends, as bytes.

    Read as every line of samepage is (CDXJ indexes, the command line's text input, the
    learner's URL logs): each at most :data:`MAX_LINE` bytes, a longer one reported through
    ``problem`` (``NAME:LINE: why``) and read as an empty line; lines end at ``\n``, ``\r\n``
    or a lone ``\r``; a UTF-8 byte order mark before the first is dropped. ``gzip``: the
    stream is gzip data (any number of members), inflated in bounded pieces; ``None`` (the
    default) tells by the stream's first bytes.

    Raises:
        CompressedData: with ``gzip=None``, data compressed otherwise (zstd, xz, bzip2), or
            gzip data on a stream that cannot seek (a pipe: gzip is read with look-backs).
    """
    if gzip is None:
        gzip = _starts_gzip(handle, name)
        if gzip and not handle.seekable():
            raise CompressedData(
                f"{name}: gzip data on a stream that cannot seek: give it as a file, or "
                "decompress it first (zcat FILE | samepage ...)"
            )
    return bounded_lines(ArchiveFile(handle, gzip=gzip), name, problem, cr=True)


_BOM = b"\xef\xbb\xbf"


def bounded_lines(
    data: ArchiveFile, name: str, problem: Callable[[str], None], *, cr: bool = False
) -> Iterator[bytes]:
    r"""The lines of ``data`` without their line ends, each at most :data:`MAX_LINE` bytes.

    Every reader of lines uses this one: CDXJ indexes, the text input of the command line,
    and URL logs. Lines end at ``\n``; with ``cr`` also at a lone ``\r`` (and ``\r\n`` is
    one end), as Python reads text. A UTF-8 byte order mark before the first line is not
    part of it. A line past the bound, or one the data broke off in, is reported through
    ``problem`` as ``NAME:LINE: why`` and stands as an empty line, so the lines after it
    keep their numbers; one whose end is not within :data:`MAX_SKIP` bytes more ends the
    reading (``/dev/zero``), reported as such.
    """
    ends = (b"\n", b"\r") if cr else (b"\n",)
    number = 0
    while True:
        number += 1
        try:
            line = data.readline(MAX_LINE, cr=cr)
        except Broken as exc:
            problem(f"{name}:{number}: {exc}")
            yield b""
            continue
        if not line:
            return
        if len(line) >= MAX_LINE and not line.endswith(ends):
            if _skip_line(data, ends, cr=cr):
                problem(f"{name}:{number}: a line longer than {MAX_LINE} bytes")
                yield b""
                continue
            problem(
                f"{name}:{number}: a line longer than {MAX_LINE} bytes, with no end in the "
                f"next {MAX_SKIP} bytes; the rest of the file is not read"
            )
            return
        if number == 1:
            line = line.removeprefix(_BOM)
        if line.endswith(b"\n"):
            line = line[:-2] if line.endswith(b"\r\n") else line[:-1]
        elif cr and line.endswith(b"\r"):
            line = line[:-1]
        yield line


def _skip_line(data: ArchiveFile, ends: tuple[bytes, ...], *, cr: bool) -> bool:
    """Read through to the end of the line; False if it does not end within :data:`MAX_SKIP`."""
    skipped = 0
    try:
        while skipped < MAX_SKIP:
            piece = data.readline(MAX_LINE, cr=cr)
            if not piece or piece.endswith(ends):
                return True
            skipped += len(piece)
    except Broken:
        return True
    return False
