"""A Scrapy request fingerprinter that uses samepage keys (``pip install 'samepage[scrapy]'``).

Scrapy's duplicate filter and HTTP cache identify a request by its fingerprint; the default
one hashes ``w3lib``'s ``canonicalize_url``, which keeps every tracking parameter. This one
hashes the method, the samepage key of the URL and the body, so ``?id=1&utm_source=x`` and
``?id=1`` are one request. In ``settings.py``::

    REQUEST_FINGERPRINTER_CLASS = "samepage.scrapy.SamepageFingerprinter"
    SAMEPAGE_LEARNED = "data/learned.json"  # optional: a learned set

Settings, each the :class:`~samepage.MIQPSNormalizer` option of the same name (and default):
``SAMEPAGE_LEARNED`` (a path), ``SAMEPAGE_LEARNED_FALLBACK`` (``"shared"``, ``"keep"`` or
``"domain"``), ``SAMEPAGE_EXTRA_BLOCKLIST`` and ``SAMEPAGE_EXTRA_ALLOWLIST`` (lists of names;
the allowlist may be a dict of host suffix to names), ``SAMEPAGE_DISABLE_RULES`` (rule ids) and
``SAMEPAGE_UNWRAP_REDIRECTS`` (bool).

Two requests keep their own URL in the fingerprint: one with ``verbatim_url`` in its meta
(as Scrapy's own fingerprinter does), and one a redirect led to whose key equals the key of
a URL earlier in its chain (``/a/`` sent on to ``/a``, ``http`` to ``https``). Otherwise the
redirect's target would count as already seen and never be fetched, and the HTTP cache would
answer it with the redirect itself.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from typing import Any
from weakref import WeakKeyDictionary

from scrapy import Request
from scrapy.crawler import Crawler
from scrapy.settings import BaseSettings

from samepage.errors import InvalidURL
from samepage.normalizer import MIQPSNormalizer

__all__ = ["SamepageFingerprinter", "normalizer_from_settings"]


def _names(settings: BaseSettings, name: str) -> list[str]:
    return [str(item) for item in settings.getlist(name)]


def normalizer_from_settings(settings: BaseSettings) -> MIQPSNormalizer:
    """The normalizer a crawler's ``SAMEPAGE_*`` settings describe.

    Raises:
        LearnedFormatError: ``SAMEPAGE_LEARNED`` is not a readable learned set.
        ValueError: an option has a bad value.
    """
    allow: Any = settings.get("SAMEPAGE_EXTRA_ALLOWLIST") or ()
    if isinstance(allow, Mapping):
        allow = {str(host): [str(n) for n in names] for host, names in allow.items()}
    else:
        allow = _names(settings, "SAMEPAGE_EXTRA_ALLOWLIST")
    learned = settings.get("SAMEPAGE_LEARNED")
    return MIQPSNormalizer(
        learned=str(learned) if learned else None,
        learned_fallback=settings.get("SAMEPAGE_LEARNED_FALLBACK", "shared"),
        extra_blocklist=_names(settings, "SAMEPAGE_EXTRA_BLOCKLIST"),
        extra_allowlist=allow,
        disable_rules=_names(settings, "SAMEPAGE_DISABLE_RULES"),
        unwrap_redirects=settings.getbool("SAMEPAGE_UNWRAP_REDIRECTS", True),
    )


class SamepageFingerprinter:
    """Fingerprints requests by method, samepage key and body (SHA-1, as Scrapy's).

    A URL that is not an http(s) URL samepage can read is fingerprinted as it is.
    """

    def __init__(self, normalizer: MIQPSNormalizer | None = None) -> None:
        self.normalizer = normalizer or MIQPSNormalizer()
        self._cache: WeakKeyDictionary[Request, bytes] = WeakKeyDictionary()

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> SamepageFingerprinter:
        """The fingerprinter of a crawler's settings (Scrapy calls this)."""
        return cls(normalizer_from_settings(crawler.settings))

    def key(self, url: str) -> str:
        """The samepage key of ``url``; the URL itself when it cannot be read."""
        try:
            return self.normalizer.normalize(url)
        except InvalidURL:
            return url

    def _url(self, request: Request) -> str:
        if request.meta.get("verbatim_url"):
            return "verbatim " + request.url
        key = self.key(request.url)
        chain = request.meta.get("redirect_urls") or ()
        if any(self.key(str(earlier)) == key for earlier in chain):
            return "verbatim " + request.url
        return key

    def fingerprint(self, request: Request) -> bytes:
        """The fingerprint of ``request``: 20 bytes."""
        found = self._cache.get(request)
        if found is None:
            data = {
                "method": request.method,
                "url": self._url(request),
                "body": (request.body or b"").hex(),
            }
            text = json.dumps(data, sort_keys=True, ensure_ascii=False)
            found = hashlib.sha1(text.encode("utf-8", "surrogatepass")).digest()
            self._cache[request] = found
        return found
