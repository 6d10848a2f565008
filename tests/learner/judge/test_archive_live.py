"""The live original vouches for an archive's match only with its own bytes, sent now."""

from __future__ import annotations

import base64
import dataclasses
import hashlib

import pytest

from learner.judge.archive import ArchiveMatch, ArchiveRefusal
from learner.judge.archive_live import Refused, digest_matches, vouch
from learner.judge.static_html import Doubt
from learner.model import Document, Rendering
from samepage.archives import Capture
from tests.archive_fixtures import sha1_digest

ORIGINAL = "https://shop.example/p?id=1&ref=home"
CANDIDATE = "https://shop.example/p?id=1"
PAGE = b"<!DOCTYPE html><title>Item 1</title><h1>Item 1</h1>"
HEADERS = {"content-type": "text/html; charset=utf-8", "content-length": str(len(PAGE))}


def _match(digest: str = sha1_digest(PAGE)) -> ArchiveMatch:
    first = Capture(ORIGINAL, "20240101000000", 200, digest, "text/html")
    second = Capture(CANDIDATE, "20240101000100", 200, digest, "text/html")
    return ArchiveMatch(first, second, 60.0, 86400.0, "text/html")


def _rendering(body: bytes = PAGE, **headers: str) -> Rendering:
    sent = {**HEADERS, **{k.replace("_", "-"): v for k, v in headers.items()}}
    return Rendering(
        url=ORIGINAL,
        final_url=ORIGINAL,
        status=200,
        screenshot=b"",
        text="Item 1",
        title="Item 1",
        elapsed_s=0.1,
        settled=True,
        requests=1,
        document=Document(body, sent),
    )


def test_the_live_original_vouches_when_it_sends_the_archived_static_bytes() -> None:
    assert vouch(_match(), _rendering()) is None


@pytest.mark.parametrize(
    ("rendering", "refused"),
    [
        (None, Refused(ArchiveRefusal.ORIGINAL_FAILED)),
        (
            dataclasses.replace(_rendering(), settled=False),
            Refused(ArchiveRefusal.ORIGINAL_FAILED),
        ),
        (dataclasses.replace(_rendering(), status=404), Refused(ArchiveRefusal.ORIGINAL_FAILED)),
        (
            dataclasses.replace(_rendering(), redirects=(CANDIDATE,)),
            Refused(ArchiveRefusal.ORIGINAL_FAILED),
        ),
        (dataclasses.replace(_rendering(), document=None), Refused(ArchiveRefusal.NO_DOCUMENT)),
        (_rendering(content_type="text/plain"), Refused(ArchiveRefusal.LIVE_MEDIA_TYPE)),
        (_rendering(content_encoding="gzip"), Refused(ArchiveRefusal.CONTENT_CODING)),
        (_rendering(refresh="0; url=/other"), Refused(ArchiveRefusal.LIVE_HEADERS)),
        (_rendering(link="</s.css>; rel=stylesheet"), Refused(ArchiveRefusal.LIVE_HEADERS)),
        # The server sends other bytes now: the index is stale.
        (_rendering(PAGE + b"<p>Value: home</p>"), Refused(ArchiveRefusal.STALE)),
        (dataclasses.replace(_rendering(), requests=2), Refused(ArchiveRefusal.LOADS_MORE)),
    ],
)
def test_a_live_original_that_is_not_the_archived_static_page_refuses(
    rendering: Rendering | None, refused: Refused
) -> None:
    assert vouch(_match(), rendering) == refused


def test_archived_bytes_that_run_script_are_refused_by_the_scan_of_the_live_bytes() -> None:
    page = PAGE + b"<script>document.currentScript.remove()</script>"
    found = vouch(_match(sha1_digest(page)), _rendering(page))
    assert found == Refused(ArchiveRefusal.NOT_STATIC, Doubt.SCRIPT)


def test_digests_are_checked_in_any_spelling_of_a_known_algorithm() -> None:
    raw = hashlib.sha256(PAGE).digest()
    spellings = [
        "sha256:" + base64.b32encode(raw).decode(),
        "SHA-256:" + raw.hex().upper(),
        "sha256:" + base64.b64encode(raw).decode().rstrip("="),
    ]
    assert [digest_matches(d, PAGE) for d in spellings] == [True, True, True]
    assert digest_matches(spellings[0], PAGE + b" ") is False
    # MD5 pairs are easy to make; an unknown algorithm or an empty value cannot be checked.
    assert digest_matches("md5:" + hashlib.md5(PAGE).hexdigest(), PAGE) is None
    assert digest_matches("sha1:", PAGE) is None
    assert vouch(_match("md5:" + hashlib.md5(PAGE).hexdigest()), _rendering()) == Refused(
        ArchiveRefusal.DIGEST_ALGORITHM
    )
