"""Web archives as URL lists: CDXJ indexes and WARC files, read as a stream of captures.

A CDXJ index (pywb's form) has one capture a line: a SURT key, a timestamp and a JSON
object with ``url`` and, usually, ``status``, ``digest`` and ``mime``; lines that start with
``!`` are headers. A WARC file holds ``response`` and ``revisit`` records; other records
(``request``, ``metadata``, ``warcinfo``...) are not captures and are read through. Either may
be gzipped (any number of members, found by the gzip magic, not the name); both are read
with the standard library, in bounded pieces.

A capture's ``digest`` is the payload digest, ``algorithm:value`` (pywb leaves ``sha1:`` out;
it is put back). A revisit record's payload digest is that of the response it refers to (the
WARC "identical payload digest" profile), so a revisit's digest stands for the bytes it
repeats; a revisit without one (the "server not modified" profile) has no digest. Its status
is the one of its own HTTP headers, when it has them.

Bytes are read as UTF-8; a byte that is not UTF-8 is kept as that byte (``surrogateescape``),
as the command line reads text, so the normalizer escapes it as ``%FF``: distinct bytes stay
distinct URLs. Reading is bounded (:data:`MAX_LINE`, :data:`MAX_HEADERS`, :data:`MAX_URL`,
:data:`MAX_SKIP`), so no record can make it hold more, and every file ends.

A record that cannot be read (a line that is not ``SURT TIMESTAMP JSON``, bad JSON, no
``url``, a URL that is not one line of text or is too long; a WARC record cut short, or
whose ``Content-Length`` does not end it; damaged gzip data) is reported through ``problem``
as one line, ``FILE:LINE: why`` or ``FILE@OFFSET: why``, and skipped; reading goes on where
it can.

>>> lines = ['com,example)/p?id=1 20240101000000 {"url": "https://example.com/p?id=1",'
...          ' "status": "200", "digest": "AAAA", "mime": "text/html"}']
>>> [(c.url, c.status, c.digest) for c in cdxj_captures(lines, "index.cdxj")]
[('https://example.com/p?id=1', 200, 'sha1:AAAA')]
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Literal

from samepage._archive_io import (
    MAX_LINE,
    MAX_SKIP,
    ArchiveFile,
    CompressedData,
    bounded_lines,
    open_regular,
    read_lines,
)
from samepage._warc import MAX_HEADERS, WarcHead, warc_heads
from samepage.formats import file_format

__all__ = [
    "ARCHIVE_FORMATS",
    "MAX_HEADERS",
    "MAX_LINE",
    "MAX_SKIP",
    "MAX_URL",
    "ArchiveFormat",
    "Capture",
    "CompressedData",
    "archive_format",
    "cdxj_captures",
    "file_captures",
    "media_type",
    "read_lines",
    "seconds_between",
    "warc_captures",
]

ArchiveFormat = Literal["cdxj", "warc"]
ARCHIVE_FORMATS: tuple[ArchiveFormat, ...] = ("cdxj", "warc")

Problem = Callable[[str], None]

MAX_URL = 1 << 16
"""The longest URL read, in characters: far past what servers take (Apache and nginx refuse
request lines past 8 KiB by default), so a longer one was not a URL a crawler fetched."""


@dataclass(frozen=True, slots=True)
class Capture:
    """One capture of a URL in an archive."""

    url: str
    """The URL as the crawler asked for it (CDXJ ``url``, WARC ``WARC-Target-URI``)."""
    timestamp: str
    """When, in UTC, as the record gives it: 14 digits ``YYYYMMDDhhmmss`` from a WARC file;
    4 to 14 digits (a year, a month...) in a CDXJ line."""
    status: int | None
    """The HTTP status, if the record says."""
    digest: str | None
    """The payload digest, ``algorithm:value``, if the record has one."""
    mime: str = ""
    """The media type the record gives (CDXJ ``mime``, WARC: the HTTP ``Content-Type``)."""
    revisit: bool = False
    """A revisit record: ``digest`` is the payload digest of the capture it repeats."""
    where: str = ""
    """``FILE:LINE`` or ``FILE@OFFSET``, for messages."""

    @property
    def ok(self) -> bool:
        """Whether the capture answered 2xx."""
        return self.status is not None and 200 <= self.status < 300

    @property
    def to_the_second(self) -> bool:
        """Whether the timestamp names a second (14 digits), not a year or a day."""
        return len(self.timestamp) == 14

    def to_json(self) -> dict[str, Any]:
        """This capture as JSON (for reports)."""
        return {
            "url": self.url,
            "timestamp": self.timestamp,
            "status": self.status,
            "digest": self.digest,
            "mime": self.mime,
            "revisit": self.revisit,
            "where": self.where,
        }


def archive_format(path: str) -> ArchiveFormat | None:
    """``cdxj`` (``.cdxj``, ``.cdxj.gz``) or ``warc`` (``.warc``, ``.warc.gz``) by extension."""
    found = file_format(path, compressions=(".gz",))
    return found if found == "cdxj" or found == "warc" else None


def media_type(mime: str) -> str:
    """The media type of a ``Content-Type`` or CDXJ ``mime``, in lower case; "" if unknown.

    >>> media_type("Text/HTML; charset=UTF-8"), media_type("warc/revisit"), media_type("-")
    ('text/html', '', '')
    """
    found = mime.partition(";")[0].strip().lower()
    return found if "/" in found and found != "warc/revisit" else ""


def file_captures(path: str, fmt: ArchiveFormat, problem: Problem) -> Iterator[Capture]:
    """The captures of one archive file (plain or gzipped), streaming.

    Raises:
        OSError: the file cannot be read, or is not a regular file.
    """
    with open_regular(path) as handle:
        data = ArchiveFile(handle, gzip=handle.read(2) == b"\x1f\x8b")
        handle.seek(0)
        if fmt == "warc":
            for head in warc_heads(data, path, problem):
                capture = _warc_capture(head, problem)
                if capture is not None:
                    yield capture
        else:
            lines = bounded_lines(data, path, problem)
            yield from cdxj_captures(_decoded(lines), path, problem)


def _decoded(lines: Iterable[bytes]) -> Iterator[str]:
    """Lines as text: UTF-8, a byte that is not UTF-8 kept as that byte (``surrogateescape``)."""
    for line in lines:
        yield line.decode("utf-8", "surrogateescape")


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
            continue
        url, timestamp, fields = found
        status = _status(fields.get("status"))
        mime = fields.get("mime")
        mime = mime if isinstance(mime, str) else ""
        digest = _digest(fields.get("digest"))
        yield Capture(url, timestamp, status, digest, mime, mime == "warc/revisit", where)


def _cdxj_line(text: str) -> tuple[str, str, dict[str, Any]] | str:
    """A CDXJ line's URL, timestamp (as given) and fields, or what is wrong with it."""
    parts = text.split(" ", 2)
    if len(parts) < 3 or not parts[2].lstrip().startswith("{"):
        return "not a CDXJ line (SURT TIMESTAMP {JSON})"
    timestamp = parts[1]
    if not (timestamp.isascii() and timestamp.isdigit() and 4 <= len(timestamp) <= 14):
        return f"bad timestamp {timestamp[:20]!r} (4 to 14 digits)"
    lone = _lone_surrogate(parts[2]) if "\\u" in parts[2] else None
    if lone is not None:
        return f"bad JSON: {lone} is half of a UTF-16 pair, not text"
    try:
        fields = json.loads(parts[2])
    except (ValueError, RecursionError) as exc:
        return f"bad JSON: {str(exc).splitlines()[0]}"
    url = fields.get("url")  # a line's JSON starts with "{": an object
    if not isinstance(url, str) or not url:
        return "no url in the JSON"
    if _when(timestamp) is None:
        return f"bad timestamp {timestamp!r} (not a date)"
    wrong = _bad_url(url)
    return wrong if wrong is not None else (url, timestamp, fields)


_JSON_ESCAPE = re.compile(r"\\(u[0-9A-Fa-f]{4}|.)", re.DOTALL)


def _lone_surrogate(text: str) -> str | None:
    r"""The first ``\uXXXX`` escape of a JSON text that is a lone UTF-16 surrogate, if any.

    JSON lets an escape name half of a surrogate pair alone; Python's reader takes it as a
    lone surrogate, the very code point a byte that is not UTF-8 is kept as, so the two
    could not be told apart. Such a string is not text: the line is refused.
    """
    high: re.Match[str] | None = None
    for match in _JSON_ESCAPE.finditer(text):
        escape = match.group(1)
        code = int(escape[1:], 16) if escape[0] == "u" else -1
        if high is not None:
            if 0xDC00 <= code <= 0xDFFF and match.start() == high.end():
                high = None
                continue
            return high.group()
        if 0xD800 <= code <= 0xDBFF:
            high = match
        elif 0xDC00 <= code <= 0xDFFF:
            return match.group()
    return high.group() if high is not None else None


# C0 and C1 controls and the Unicode line separators: none is in a URL as sent, and any
# would break the one line a capture has in the output.
_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029]")


def _bad_url(url: str) -> str | None:
    """What keeps ``url`` from being one capture's URL (one line of text), if anything."""
    if len(url) > MAX_URL:
        return f"a URL longer than {MAX_URL} characters"
    control = _CONTROL.search(url)
    if control is not None:
        return f"a URL with the control character U+{ord(control.group()):04X} in it"
    return None


def _status(value: object) -> int | None:
    if isinstance(value, int) and not isinstance(value, bool):
        return value if 100 <= value <= 999 else None
    if isinstance(value, str) and value.isascii() and value.isdigit() and len(value) == 3:
        return int(value)
    return None


def _digest(value: object) -> str | None:
    """``algorithm:value`` with the algorithm in lower case; a bare value is pywb's SHA-1.

    An empty value (``sha1:``, ``-``) is no digest. The value is kept exactly: base32 and
    hex digests are written in one case, but a base64 digest is case-sensitive, and folding
    it could make two digests equal.
    """
    text = value.strip() if isinstance(value, str) else ""
    if not text or text == "-":
        return None
    algorithm, colon, rest = text.partition(":")
    if not colon:
        return f"sha1:{text}"
    return f"{algorithm.lower()}:{rest}" if algorithm and rest else None


def _when(timestamp: str) -> datetime | None:
    """The moment a timestamp of 4 to 14 digits starts at (a year is its 1 January)."""
    padded = timestamp + "20000101000000"[len(timestamp) :]
    try:
        return datetime.strptime(padded, "%Y%m%d%H%M%S").replace(tzinfo=UTC)
    except ValueError:
        return None


def seconds_between(a: str, b: str) -> float:
    """The seconds between two 14-digit timestamps (absolute).

    Raises:
        ValueError: a timestamp that does not name a second.
    """
    first, second = _when(a), _when(b)
    if first is None or second is None or len(a) != 14 or len(b) != 14:
        raise ValueError(f"bad timestamps {a!r}, {b!r} (14 digits each)")
    return abs((first - second).total_seconds())


def warc_captures(path: str, problem: Problem = _raise) -> Iterator[Capture]:
    """The ``response`` and ``revisit`` captures of a WARC file (plain or gzipped).

    Raises:
        OSError: the file cannot be read, or is not a regular file.
    """
    return file_captures(path, "warc", problem)


def _warc_capture(head: WarcHead, problem: Problem) -> Capture | None:
    headers, where = head.headers, head.where
    url = _unbracketed(headers.get("warc-target-uri", "").strip())
    if not url:
        problem(f"{where}: {head.kind} record without WARC-Target-URI")
        return None
    wrong = _bad_url(url)
    if wrong is not None:
        problem(f"{where}: {wrong}")
        return None
    timestamp = _warc_date(headers.get("warc-date", ""))
    if timestamp is None:
        problem(f"{where}: {head.kind} record with a bad WARC-Date")
        return None
    digest = _digest(headers.get("warc-payload-digest"))
    revisit = head.kind == "revisit"
    return Capture(url, timestamp, head.status, digest, head.content_type, revisit, where)


def _unbracketed(uri: str) -> str:
    """A WARC-Target-URI without the ``<...>`` of WARC 1.0's grammar, taken off only as a pair.

    A lone ``>`` or ``<`` belongs to the URL (``?q=a>`` is not ``?q=a``).

    >>> _unbracketed("<https://a.example/>"), _unbracketed("https://a.example/?q=a>")
    ('https://a.example/', 'https://a.example/?q=a>')
    """
    if len(uri) >= 2 and uri.startswith("<") and uri.endswith(">"):
        return uri[1:-1]
    return uri


def _warc_date(value: str) -> str | None:
    """``2024-01-01T00:00:00Z`` (fractions allowed) as 14 digits."""
    digits = "".join(ch for ch in value.split(".")[0] if ch.isascii() and ch.isdigit())
    if len(digits) < 14:
        return None
    stamp = digits[:14]
    return stamp if _when(stamp) is not None else None
