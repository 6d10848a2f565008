"""A Scrapy request fingerprinter that uses samepage keys (``pip install 'samepage[scrapy]'``).

Scrapy's duplicate filter and HTTP cache identify a request by its fingerprint; the default
one hashes ``w3lib``'s ``canonicalize_url``, which keeps every tracking parameter. This one
hashes the method, the samepage key of the URL and the body, so ``?id=1&utm_source=x`` and
``?id=1`` are one request. In ``settings.py``::

    REQUEST_FINGERPRINTER_CLASS = "samepage.scrapy.SamepageFingerprinter"
    SAMEPAGE_LEARNED = "data/learned.json"  # optional: a learned set

Settings, each the :class:`~samepage.MIQPSNormalizer` option of the same name (and default):
``SAMEPAGE_LEARNED`` (a path; unset or ``""``: none), ``SAMEPAGE_LEARNED_FALLBACK``
(``"shared"``, ``"keep"`` or ``"domain"``), ``SAMEPAGE_EXTRA_BLOCKLIST`` and
``SAMEPAGE_EXTRA_ALLOWLIST`` (lists of names, or a comma-separated string or JSON list; the
allowlist may be a dict of host suffix to names, or that dict as a JSON object),
``SAMEPAGE_DISABLE_RULES`` (rule ids, as a list), ``SAMEPAGE_UNWRAP_REDIRECTS`` (bool:
``True``/``False``, ``1``/``0``, ``"true"``/``"false"``) and ``SAMEPAGE_KEEP_LISTED`` (a dict
of host to the listed names kept there, or its JSON:
``-s 'SAMEPAGE_KEEP_LISTED={"stats.example.org": ["utm_source"]}'``). Anything else, and any
other ``SAMEPAGE_*`` name, is an error naming the setting.

Two requests keep their own URL in the fingerprint: one with ``verbatim_url`` in its meta
(as Scrapy's own fingerprinter does), and one a redirect led to whose key equals the key of
a URL earlier in its chain (``/a/`` sent on to ``/a``, ``http`` to ``https``). Otherwise the
redirect's target would count as already seen and never be fetched, and the HTTP cache would
answer it with the redirect itself.
"""

from __future__ import annotations

import difflib
import hashlib
import json
from collections.abc import Mapping
from pathlib import PurePath
from typing import Any
from weakref import WeakKeyDictionary

from scrapy import Request
from scrapy.crawler import Crawler
from scrapy.settings import BaseSettings

from samepage.errors import InvalidURL, LearnedFormatError
from samepage.learned import LearnedSet, load_learned
from samepage.normalizer import MIQPSNormalizer

__all__ = ["SETTINGS", "SamepageFingerprinter", "normalizer_from_settings"]


_LEARNED = "SAMEPAGE_LEARNED"
_FALLBACK = "SAMEPAGE_LEARNED_FALLBACK"
_BLOCKLIST = "SAMEPAGE_EXTRA_BLOCKLIST"
_ALLOWLIST = "SAMEPAGE_EXTRA_ALLOWLIST"
_DISABLE = "SAMEPAGE_DISABLE_RULES"
_UNWRAP = "SAMEPAGE_UNWRAP_REDIRECTS"
_KEEP = "SAMEPAGE_KEEP_LISTED"
SETTINGS = (_LEARNED, _FALLBACK, _BLOCKLIST, _ALLOWLIST, _DISABLE, _UNWRAP, _KEEP)
"""Every ``SAMEPAGE_*`` setting the fingerprinter reads; another ``SAMEPAGE_*`` is refused."""

_TRUE, _FALSE = frozenset({"1", "True", "true"}), frozenset({"0", "False", "false"})


def _json(name: str, text: str) -> Any:
    """A setting given as JSON text (``-s NAME='{...}'``), as Scrapy's getdict reads it."""
    try:
        return json.loads(text)
    except (ValueError, RecursionError) as exc:
        message = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        raise ValueError(f"{name}: not valid JSON ({message})") from None


def _names(name: str, value: Any) -> Any:
    """A list setting as the normalizer takes it, to be checked as the option is.

    A string is Scrapy's comma-separated form (``scrapy crawl -s NAME=a,b``, each name
    stripped), or a JSON list (``'["a", "b"]'``).
    """
    if value is None:
        return ()
    if isinstance(value, str):
        text = value.strip()
        if text.startswith("["):
            value = _json(name, text)
            if not isinstance(value, list):  # JSON text starting with "[" is a list
                raise ValueError(f"{name}: not a JSON list")
            return value
        return [item.strip() for item in text.split(",")] if text else []
    if isinstance(value, (list, tuple, set, frozenset)):
        return value
    raise ValueError(
        f"{name}: a list of names (or a comma-separated string), not {type(value).__name__}"
    )


def _allowlist(value: Any) -> Any:
    """The allowlist: names on every host, or a dict of host to names.

    A string that starts with ``{`` is a JSON object, as Scrapy's ``getdict`` reads it: the
    only way to give a dict with ``scrapy crawl -s``.
    """
    if isinstance(value, str) and value.strip().startswith("{"):
        value = _json(_ALLOWLIST, value)
    if isinstance(value, Mapping):
        bad = [host for host in value if not isinstance(host, str)]
        if bad:
            raise ValueError(f"{_ALLOWLIST}: {bad[0]!r} is not a host suffix")
        return dict(value)  # each host and its names checked as the normalizer checks them
    return _names(_ALLOWLIST, value)


def _flag(name: str, value: Any) -> bool:
    """A boolean setting, with the spellings Scrapy's ``getbool`` takes, and no others."""
    if isinstance(value, bool):
        return value
    if type(value) is int and value in (0, 1):
        return bool(value)
    if isinstance(value, str) and value in _TRUE | _FALSE:
        return value in _TRUE
    raise ValueError(f"{name}: True or False (or 1, 0, 'true', 'false'), not {value!r}")


def _learned(value: Any) -> LearnedSet | None:
    """The learned set a path names; an unset or empty setting is none.

    Raises:
        LearnedFormatError: the file is not a readable learned set (naming the setting).
        ValueError: the setting is not a path (``0``, ``False``, a dict...).
    """
    if value is None or value == "":
        return None
    if not isinstance(value, (str, PurePath)):
        raise ValueError(f"{_LEARNED}: the path of a learned set, not {value!r}")
    try:
        return load_learned(value)
    except LearnedFormatError as exc:
        raise LearnedFormatError(f"{_LEARNED}: {exc}") from None


def _unknown(settings: BaseSettings) -> None:
    """Refuse a ``SAMEPAGE_*`` setting the fingerprinter does not read (a misspelt name)."""
    for name in settings:
        if isinstance(name, str) and name.startswith("SAMEPAGE_") and name not in SETTINGS:
            close = difflib.get_close_matches(name, SETTINGS, n=1)
            hint = f" (did you mean {close[0]}?)" if close else ""
            known = ", ".join(SETTINGS)
            raise ValueError(f"{name}: not a samepage setting{hint}; they are {known}")


def _keep_listed(value: Any) -> Any:
    """``SAMEPAGE_KEEP_LISTED``: a dict of host to names, or that dict as a JSON object."""
    if value is None:
        return None
    if isinstance(value, str):
        value = _json(_KEEP, value)
    if not isinstance(value, Mapping):
        raise ValueError(f"{_KEEP}: a dict of host to names, not {type(value).__name__}")
    return dict(value)  # each host and its names checked as the normalizer checks them


def normalizer_from_settings(settings: BaseSettings) -> MIQPSNormalizer:
    """The normalizer a crawler's ``SAMEPAGE_*`` settings describe.

    Each setting is checked as the :class:`~samepage.MIQPSNormalizer` option of the same
    name is (a bad one is an error naming the setting): ``{"a.example": "id"}`` is refused,
    never read as the names ``i`` and ``d``; ``0`` is not a path, nor ``2`` a boolean. A
    string is read as Scrapy reads it from the command line: a list as comma-separated
    names (or a JSON list), the allowlist's dict as a JSON object.

    Raises:
        LearnedFormatError: ``SAMEPAGE_LEARNED`` is not a readable learned set.
        ValueError: a setting has a bad value, or a ``SAMEPAGE_*`` name is not a setting
            (the message names it).
    """
    _unknown(settings)
    fallback = settings.get(_FALLBACK, "shared")
    if not isinstance(fallback, str):
        raise ValueError(f"{_FALLBACK}: 'shared', 'keep' or 'domain', not {fallback!r}")
    options: dict[str, Any] = {
        "learned_fallback": fallback,
        "extra_blocklist": _names(_BLOCKLIST, settings.get(_BLOCKLIST)),
        "extra_allowlist": _allowlist(settings.get(_ALLOWLIST)),
        "disable_rules": _names(_DISABLE, settings.get(_DISABLE)),
        "unwrap_redirects": _flag(_UNWRAP, settings.get(_UNWRAP, True)),
        "keep_listed": _keep_listed(settings.get(_KEEP)),
    }
    # Each option alone first, so that an error names its setting.
    for option, value in options.items():
        try:
            MIQPSNormalizer(**{option: value})
        except (TypeError, ValueError) as alone:
            raise ValueError(f"SAMEPAGE_{option.upper()}: {alone}") from None
    return MIQPSNormalizer(learned=_learned(settings.get(_LEARNED)), **options)


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
