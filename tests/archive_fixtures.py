"""Web archive fixtures written as a crawler writes them: CDXJ lines and WARC records (warcio)."""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from io import BytesIO
from pathlib import Path

from samepage.archives import media_type


@dataclass(frozen=True, slots=True)
class Shot:
    """One capture to write: a response, or a revisit repeating ``body``'s digest."""

    url: str
    timestamp: str
    body: bytes = b"<h1>page</h1>"
    status: int = 200
    revisit: bool = False


def sha1_digest(body: bytes) -> str:
    """The WARC payload digest of ``body``: ``sha1:`` and base32, as warcio writes it."""
    import base64
    import hashlib

    return "sha1:" + base64.b32encode(hashlib.sha1(body).digest()).decode("ascii")


def cdxj_line(shot: Shot, *, bare_digest: bool = False, mime: str = "text/html") -> str:
    """The pywb CDXJ line of ``shot`` (a SURT-like key; readers take the URL from the JSON)."""
    digest = sha1_digest(shot.body)
    fields: dict[str, object] = {
        "url": shot.url,
        "mime": "warc/revisit" if shot.revisit else mime,
        "status": str(shot.status),
        "digest": digest.removeprefix("sha1:") if bare_digest else digest,
    }
    key = shot.url.split("://", 1)[-1]
    return f"{key} {shot.timestamp} {json.dumps(fields)}"


def write_cdxj(path: Path, shots: Iterable[Shot], extra_lines: Sequence[str] = ()) -> Path:
    """Write an index of ``shots`` (after a header line), then ``extra_lines`` as they are."""
    lines = ['!meta {"format": "cdxj-1.0"}', *(cdxj_line(s) for s in shots), *extra_lines]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def write_warc(path: Path, shots: Iterable[Shot], *, gzip: bool = True) -> Path:
    """Write a WARC of ``shots``: response records, and revisit records for revisits."""
    from warcio.statusandheaders import StatusAndHeaders
    from warcio.warcwriter import WARCWriter

    with open(path, "wb") as handle:
        writer = WARCWriter(handle, gzip=gzip)
        for shot in shots:
            when = datetime.strptime(shot.timestamp, "%Y%m%d%H%M%S")
            date = when.strftime("%Y-%m-%dT%H:%M:%SZ")
            http = StatusAndHeaders(
                f"{shot.status} OK", [("Content-Type", "text/html")], protocol="HTTP/1.1"
            )
            if shot.revisit:
                record = writer.create_revisit_record(
                    shot.url,
                    digest=sha1_digest(shot.body),
                    refers_to_uri=shot.url,
                    refers_to_date=date,
                    http_headers=http,
                    warc_headers_dict={"WARC-Date": date},
                )
            else:
                record = writer.create_warc_record(
                    shot.url,
                    "response",
                    payload=BytesIO(shot.body),
                    http_headers=http,
                    warc_headers_dict={"WARC-Date": date},
                )
            writer.write_record(record)
    return path


async def live_index(
    path: Path,
    urls: Sequence[str],
    resolve: Mapping[str, str],
    *,
    day: str = "20240101",
    bodies: Mapping[str, bytes] | None = None,
) -> Path:
    """An index of ``urls`` as an archive crawler writes it, fetched from the live server.

    Each URL is fetched once, redirects not followed (a redirect is left out, as a failure
    is), and becomes a CDXJ line with its
    status, media type and the SHA-1 payload digest of its body, on ``day``, one second
    apart. ``bodies`` stands a URL's captured bytes in for what the server sends
    now: a stale index.
    """
    from learner.errors import FetchError
    from learner.net.fetch import fetch

    lines = []
    for n, url in enumerate(urls):
        try:
            got = await fetch(
                url, resolve=resolve, user_agent="archiver", timeout_s=10, max_redirects=0
            )
        except FetchError:
            continue  # a redirect (not followed) or a failure: no capture
        body = (bodies or {}).get(url, got.body)
        when = f"{day}{n // 3600 % 24:02d}{n // 60 % 60:02d}{n % 60:02d}"
        fields = {
            "url": url,
            "status": str(got.status),
            "digest": sha1_digest(body),
            "mime": media_type(got.headers.get("content-type", "")) or "unk",
        }
        lines.append(f"{url.split('://', 1)[1]} {when} {json.dumps(fields)}")
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path
