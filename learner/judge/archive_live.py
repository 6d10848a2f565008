"""Whether the live original vouches for an archive's match, so that it may decide a sample.

Two captures with one payload digest show that the server once sent the same bytes for a
sample's two URLs. That proves the two pages equal only if the bytes make the page, and
only if they are still the bytes the site sends. The original is rendered in this run
anyway; :func:`vouch` takes what its render saw of the main document and accepts the match
only when:

- the render settled with a 2xx status, with no redirect, and (a second guard behind the
  scan below) requested nothing but its document;
- the document is sent as the captures were (the same media type, no content coding,
  whose digest would be of other bytes, and no ``Refresh`` or ``Link`` header);
- the digest of the body the server sent now equals the archive's digest of the original
  (SHA-1 or SHA-2, in base32, hex or base64): an index made before the site changed is no
  evidence about it now;
- the bytes run no script and load nothing, by a conservative scan of the bytes as sent
  (:mod:`learner.judge.static_html`), never of a DOM that scripts have already changed.

Otherwise it says why not, and the sample is rendered as without an archive.
"""

from __future__ import annotations

import base64
import hashlib
from dataclasses import dataclass

from learner.judge.archive import ArchiveMatch, ArchiveRefusal
from learner.judge.static_html import Doubt, doubt
from learner.model import Rendering
from samepage.archives import media_type

__all__ = ["Refused", "digest_matches", "vouch"]

# The digests a payload digest may be written in, by the names WARC writers give them. MD5
# is not among them: two documents with one MD5 are easy to make.
_ALGORITHMS = {
    "sha1": "sha1",
    "sha-1": "sha1",
    "sha224": "sha224",
    "sha256": "sha256",
    "sha-256": "sha256",
    "sha384": "sha384",
    "sha512": "sha512",
    "sha-512": "sha512",
}


@dataclass(frozen=True, slots=True)
class Refused:
    """Why the live original does not vouch for a match (``doubt``: what the scan found)."""

    refusal: ArchiveRefusal
    doubt: Doubt | None = None


def digest_matches(digest: str, body: bytes) -> bool | None:
    """Whether ``body`` has the payload digest ``digest`` (``None``: one that cannot be checked).

    >>> digest_matches("sha1:VL2MMHO4YXUKFWV63YHTWSBM3GXKSQ2N", b"hello")
    True
    >>> digest_matches("sha1:aaf4c61ddcc5e8a2dabede0f3b482cd9aea9434d", b"hello")
    True
    >>> digest_matches("md5:5d41402abc4b2a76b9719d911017c592", b"hello")
    """
    label, _, value = digest.partition(":")
    name = _ALGORITHMS.get(label.strip().lower())
    value = value.strip()
    if name is None or not value:
        return None
    raw = hashlib.new(name, body).digest()
    spellings = (
        (value.upper().rstrip("="), base64.b32encode(raw).decode("ascii").rstrip("=")),
        (value.lower(), raw.hex()),
        (value.rstrip("="), base64.b64encode(raw).decode("ascii").rstrip("=")),
    )
    # The spellings of one digest differ in length, so no value reads as two of them.
    return any(given == wanted for given, wanted in spellings)


def vouch(found: ArchiveMatch, rendering: Rendering | None) -> Refused | None:
    """``None`` when the original's render vouches for ``found``; else why not."""
    if (
        rendering is None
        or not rendering.settled
        or rendering.redirects
        or not 200 <= (rendering.status or 0) < 300
    ):
        return Refused(ArchiveRefusal.ORIGINAL_FAILED)
    document = rendering.document
    if document is None:
        return Refused(ArchiveRefusal.NO_DOCUMENT)
    headers = document.headers
    content_type = headers.get("content-type", "")
    if media_type(content_type) != found.media_type:
        return Refused(ArchiveRefusal.LIVE_MEDIA_TYPE)
    if headers.get("content-encoding", "").strip().lower() not in ("", "identity"):
        return Refused(ArchiveRefusal.CONTENT_CODING)
    if "refresh" in headers or "link" in headers:
        return Refused(ArchiveRefusal.LIVE_HEADERS)
    matches = digest_matches(found.original.digest or "", document.body)
    if matches is None:
        return Refused(ArchiveRefusal.DIGEST_ALGORITHM)
    if not matches:
        return Refused(ArchiveRefusal.STALE)
    found_doubt = doubt(document.body, content_type)
    if found_doubt is not None:
        return Refused(ArchiveRefusal.NOT_STATIC, found_doubt)
    # The scan says the bytes load nothing; the render must agree (a second guard).
    return Refused(ArchiveRefusal.LOADS_MORE) if rendering.requests != 1 else None
