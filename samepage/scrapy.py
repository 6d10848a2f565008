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
``SAMEPAGE_UNWRAP_REDIRECTS`` (bool), ``SAMEPAGE_KEEP_LISTED`` (a dict of host to the listed
names kept there, or its JSON: ``-s 'SAMEPAGE_KEEP_LISTED={"plausible.io": ["utm_source"]}'``).

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


def _collection(settings: BaseSettings, name: str) -> Any:
    """A list setting as the normalizer takes it, to be checked as the option is.

    A string is Scrapy's comma-separated form (``scrapy crawl -s NAME=a,b``).
    """
    value = settings.get(name)
    if value is None:
        return ()
    return settings.getlist(name) if isinstance(value, str) else value


def _allowlist(settings: BaseSettings) -> Any:
    value = settings.get("SAMEPAGE_EXTRA_ALLOWLIST")
    if isinstance(value, Mapping):
        bad = [host for host in value if not isinstance(host, str)]
        if bad:
            raise ValueError(f"SAMEPAGE_EXTRA_ALLOWLIST: {bad[0]!r} is not a host suffix")
        return dict(value)  # each host's names checked as the normalizer checks them
    return _collection(settings, "SAMEPAGE_EXTRA_ALLOWLIST")


def _keep_listed(settings: BaseSettings) -> Any:
    """``SAMEPAGE_KEEP_LISTED`` as Scrapy reads a dict setting (a dict, or its JSON text)."""
    if settings.get("SAMEPAGE_KEEP_LISTED") is None:
        return None
    try:
        return settings.getdict("SAMEPAGE_KEEP_LISTED")
    except (TypeError, ValueError) as exc:
        raise ValueError(f"SAMEPAGE_KEEP_LISTED: not a dict of host to names ({exc})") from None


def normalizer_from_settings(settings: BaseSettings) -> MIQPSNormalizer:
    """The normalizer a crawler's ``SAMEPAGE_*`` settings describe.

    Each setting is checked as the :class:`~samepage.MIQPSNormalizer` option of the same
    name is (a bad one is an error naming the setting): ``{"a.example": "id"}`` is refused,
    never read as the names ``i`` and ``d``.

    Raises:
        LearnedFormatError: ``SAMEPAGE_LEARNED`` is not a readable learned set.
        ValueError: a setting has a bad value (the message names it).
    """
    learned = settings.get("SAMEPAGE_LEARNED")
    options: dict[str, Any] = {
        "learned_fallback": settings.get("SAMEPAGE_LEARNED_FALLBACK", "shared"),
        "extra_blocklist": _collection(settings, "SAMEPAGE_EXTRA_BLOCKLIST"),
        "extra_allowlist": _allowlist(settings),
        "disable_rules": _collection(settings, "SAMEPAGE_DISABLE_RULES"),
        "unwrap_redirects": settings.getbool("SAMEPAGE_UNWRAP_REDIRECTS", True),
        "keep_listed": _keep_listed(settings),
    }
    try:
        return MIQPSNormalizer(learned=str(learned) if learned else None, **options)
    except (TypeError, ValueError) as exc:
        # Only on the way to an error: find the setting by trying each option alone.
        for option, value in options.items():
            try:
                MIQPSNormalizer(**{option: value})
            except (TypeError, ValueError) as alone:
                raise ValueError(f"SAMEPAGE_{option.upper()}: {alone}") from None
        raise ValueError(str(exc)) from None


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
