"""Web archives as URL lists: CDXJ indexes and WARC files, read as a stream of captures.

A CDXJ index (pywb's form) has one capture a line: a SURT key, a 14-digit timestamp and a
JSON object with ``url`` and, usually, ``status``, ``digest`` and ``mime``; lines that start
with ``!`` are headers. A WARC file (plain or gzipped, read through ``warcio``:
``pip install 'samepage[warc]'``) holds ``response`` and ``revisit`` records; other records
(``request``, ``metadata``, ``warcinfo``...) are not captures and are passed over.

A capture's ``digest`` is the payload digest, ``algorithm:value`` (pywb leaves ``sha1:`` out;
it is put back). A revisit record's payload digest is that of the response it refers to (the
WARC "identical payload digest" profile), so a revisit's digest stands for the bytes it
repeats; a revisit without one (the "server not modified" profile) has no digest. Its status
is the one of its own HTTP headers, when it has them.

A malformed record (a line that is not ``SURT TIMESTAMP JSON``, bad JSON, no ``url``; a WARC
record cut short, or a file that ends inside one) is reported through ``problem`` as one line,
``FILE:LINE: why`` or ``FILE@OFFSET: why``, and skipped; reading goes on where it can.

>>> lines = ['com,example)/p?id=1 20240101000000 {"url": "https://example.com/p?id=1",'
...          ' "status": "200", "digest": "AAAA", "mime": "text/html"}']
>>> [(c.url, c.status, c.digest) for c in cdxj_captures(lines, "index.cdxj")]
[('https://example.com/p?id=1', 200, 'sha1:AAAA')]
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import PurePath
from typing import IO, Any, Literal

__all__ = [
    "ARCHIVE_FORMATS",
    "ArchiveFormat",
    "Capture",
    "archive_format",
    "cdxj_captures",
    "file_captures",
    "seconds_between",
    "warc_captures",
]

ArchiveFormat = Literal["cdxj", "warc"]
ARCHIVE_FORMATS: tuple[ArchiveFormat, ...] = ("cdxj", "warc")

Problem = Callable[[str], None]


@dataclass(frozen=True, slots=True)
class Capture:
    """One capture of a URL in an archive."""

    url: str
    """The URL as the crawler asked for it (CDXJ ``url``, WARC ``WARC-Target-URI``)."""
    timestamp: str
    """When, as 14 digits ``YYYYMMDDhhmmss`` (UTC)."""
    status: int | None
    """The HTTP status, if the record says."""
    digest: str | None
    """The payload digest, ``algorithm:value``, if the record has one."""
    mime: str = ""
    revisit: bool = False
    """A revisit record: ``digest`` is the payload digest of the capture it repeats."""
    where: str = ""
    """``FILE:LINE`` or ``FILE@OFFSET``, for messages."""

    @property
    def ok(self) -> bool:
        """Whether the capture answered 2xx."""
        return self.status is not None and 200 <= self.status < 300

    def to_json(self) -> dict[str, Any]:
        """This capture as JSON (for reports)."""
        return {
            "url": self.url,
            "timestamp": self.timestamp,
            "status": self.status,
            "digest": self.digest,
            "revisit": self.revisit,
            "where": self.where,
        }


def archive_format(path: str) -> ArchiveFormat | None:
    """``cdxj`` (``.cdxj``, ``.cdxj.gz``) or ``warc`` (``.warc``, ``.warc.gz``) by extension."""
    suffixes = [s.lower() for s in PurePath(path).suffixes]
    if suffixes and suffixes[-1] == ".gz":
        suffixes.pop()
    last = suffixes[-1] if suffixes else ""
    return "cdxj" if last == ".cdxj" else "warc" if last == ".warc" else None


def file_captures(path: str, fmt: ArchiveFormat, problem: Problem) -> Iterator[Capture]:
    """The captures of one archive file, streaming.

    Raises:
        OSError: the file cannot be read.
        ImportError: a WARC file without ``warcio`` installed.
    """
    if fmt == "warc":
        yield from warc_captures(path, problem)
        return
    if path.lower().endswith(".gz"):
        import gzip

        with gzip.open(path, "rt", encoding="utf-8", errors="replace") as text:
            yield from cdxj_captures(text, path, problem)
        return
    with open(path, encoding="utf-8", errors="replace") as handle:
        yield from cdxj_captures(handle, path, problem)


def _raise(message: str) -> None:
    raise ValueError(message)


def cdxj_captures(lines: Iterable[str], name: str, problem: Problem = _raise) -> Iterator[Capture]:
    """The captures of CDXJ lines (pywb's form); ``name`` is used in messages."""
    for number, line in enumerate(lines, start=1):
        text = line.strip()
        if not text or text.startswith("!"):
            continue
        where = f"{name}:{number}"
        found = _cdxj_line(text)
        if isinstance(found, str):
            problem(f"{where}: {found}")
        else:
            url, timestamp, fields = found
            status = _status(fields.get("status"))
            mime = fields.get("mime")
            mime = mime if isinstance(mime, str) else ""
            yield Capture(
                url,
                timestamp,
                status,
                _digest(fields.get("digest")),
                mime,
                mime == "warc/revisit",
                where,
            )


def _cdxj_line(text: str) -> tuple[str, str, dict[str, Any]] | str:
    """A CDXJ line's URL, 14-digit timestamp and fields, or what is wrong with it."""
    parts = text.split(" ", 2)
    if len(parts) < 3 or not parts[2].lstrip().startswith("{"):
        return "not a CDXJ line (SURT TIMESTAMP {JSON})"
    timestamp = parts[1]
    if not (timestamp.isascii() and timestamp.isdigit() and 4 <= len(timestamp) <= 14):
        return f"bad timestamp {timestamp[:20]!r} (4 to 14 digits)"
    try:
        fields = json.loads(parts[2])
    except (ValueError, RecursionError) as exc:
        return f"bad JSON: {str(exc).splitlines()[0]}"
    url = fields.get("url")  # a line's JSON starts with "{": an object
    if not isinstance(url, str) or not url:
        return "no url in the JSON"
    padded = timestamp + "20000101000000"[len(timestamp) :]
    if _when(padded) is None:
        return f"bad timestamp {timestamp!r} (not a date)"
    return url, padded, fields


def _status(value: object) -> int | None:
    if isinstance(value, int) and not isinstance(value, bool):
        return value if 100 <= value <= 999 else None
    if isinstance(value, str) and value.isascii() and value.isdigit() and len(value) == 3:
        return int(value)
    return None


def _digest(value: object) -> str | None:
    """``algorithm:value`` with the algorithm in lower case; a bare value is pywb's SHA-1.

    The value is kept exactly: base32 and hex digests are written in one case, but a base64
    digest is case-sensitive, and folding it could make two digests equal.
    """
    if not isinstance(value, str) or not value.strip() or value.strip() == "-":
        return None
    algorithm, colon, rest = value.strip().partition(":")
    return f"{algorithm.lower()}:{rest}" if colon and rest else f"sha1:{value.strip()}"


def _when(timestamp: str) -> datetime | None:
    try:
        return datetime.strptime(timestamp, "%Y%m%d%H%M%S").replace(tzinfo=UTC)
    except ValueError:
        return None


def seconds_between(a: str, b: str) -> float:
    """The seconds between two 14-digit timestamps (absolute)."""
    first, second = _when(a), _when(b)
    if first is None or second is None:
        raise ValueError(f"bad timestamps {a!r}, {b!r}")
    return abs((first - second).total_seconds())


def warc_captures(path: str, problem: Problem = _raise) -> Iterator[Capture]:
    """The ``response`` and ``revisit`` captures of a WARC file (plain or gzipped).

    Raises:
        ImportError: ``warcio`` is not installed.
        OSError: the file cannot be read.
    """
    from warcio.archiveiterator import ArchiveIterator
    from warcio.exceptions import ArchiveLoadFailed

    with open(path, "rb") as handle:
        size = os.fstat(handle.fileno()).st_size
        records = ArchiveIterator(handle)
        try:
            for record in records:
                offset = records.get_record_offset()
                capture = _warc_record(record, f"{path}@{offset}", problem)
                if capture is not None:
                    yield capture
        except (ArchiveLoadFailed, EOFError, OSError, ValueError) as exc:
            problem(f"{path}@{records.offset}: not a readable WARC record: {_one_line(exc)}")
            return
        if records.offset < size:
            problem(f"{path}@{records.offset}: the file ends inside a record (truncated)")


def _warc_record(record: Any, where: str, problem: Problem) -> Capture | None:
    kind = record.rec_type
    _read_all(record.raw_stream)
    if kind not in ("response", "revisit"):
        return None
    # Every WARC record has a Content-Length; warcio reads up to it and counts what is left.
    # A record without one had its headers cut; one with bytes left had its block cut.
    left = getattr(record.raw_stream, "limit", None)
    if record.length is None or left is None or left > 0:
        problem(f"{where}: {kind} record cut short (truncated)")
        return None
    headers = record.rec_headers
    url = headers.get_header("WARC-Target-URI")
    if not url:
        problem(f"{where}: {kind} record without WARC-Target-URI")
        return None
    timestamp = _warc_date(headers.get_header("WARC-Date") or "")
    if timestamp is None:
        problem(f"{where}: {kind} record with a bad WARC-Date")
        return None
    http = record.http_headers
    status = _status(http.get_statuscode()) if http is not None else None
    mime = (http.get_header("Content-Type") or "") if http is not None else ""
    digest = _digest(headers.get_header("WARC-Payload-Digest"))
    return Capture(url.strip("<>"), timestamp, status, digest, mime, kind == "revisit", where)


def _read_all(stream: IO[bytes]) -> None:
    while stream.read(1 << 16):
        pass


def _warc_date(value: str) -> str | None:
    """``2024-01-01T00:00:00Z`` (fractions allowed) as 14 digits."""
    digits = "".join(ch for ch in value.split(".")[0] if ch.isdigit())
    if len(digits) < 14:
        return None
    stamp = digits[:14]
    return stamp if _when(stamp) is not None else None


def _one_line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return text[0][:200] if text else type(exc).__name__
