"""Percent-encoding normalisation for URL components (RFC 3986 section 6.2.2).

Escapes are upper-cased, escapes of unreserved characters are decoded, and characters that
may not appear raw in the component (space, controls, non-ASCII, a stray ``%``) are encoded
from their UTF-8 bytes, as WHATWG URL does; a byte that was not UTF-8, kept by a
``surrogateescape`` decoder, is encoded as that byte.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

__all__ = [
    "FRAGMENT",
    "PATH",
    "QUERY",
    "USERINFO",
    "Component",
    "escape_undecodable",
    "json_line",
    "normalize_escapes",
    "normalize_unsafe",
]

_UNRESERVED = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
# Upper-case escapes of characters that are not unreserved: already in normal form.
_KEPT_ESCAPE = r"%(?!3[0-9]|4[1-9A-F]|5[0-9A]|6[1-9A-F]|7[0-9A]|2[DE]|5F|7E)[0-9A-F]{2}"
_ESCAPE = re.compile(r"%([0-9A-Fa-f]{2})")
_KEPT_BYTE = re.compile("[\udc80-\udcff]")


# eq=False: a component is one of the module's constants, and a cache keyed on it hashes
# it by identity (the generated hash of three patterns cost as much as the lookup itself).
@dataclass(frozen=True, slots=True, eq=False)
class Component:
    """The characters a URL component may hold raw, as compiled patterns.

    ``safe`` matches text that needs no work at all; ``clean`` also admits escapes already in
    normal form; ``token`` finds what the slow path must rewrite.
    """

    safe: re.Pattern[str]
    clean: re.Pattern[str]
    token: re.Pattern[str]

    @classmethod
    def of(cls, chars: str) -> Component:
        """Build the patterns for a component whose raw characters are the class ``chars``."""
        # Possessive repeats ("*+"): a run of plain characters ends at the first other
        # character, which no giving back can change, so a text that does not match fails
        # at once instead of backtracking over the run (four times as fast on such a text).
        return cls(
            re.compile(f"[{chars}]*+"),
            # (?:c|e)* written as c*(?:ec*)*: the same strings, and runs of plain characters
            # are one quick repeat instead of one alternation each (twice as fast).
            re.compile(f"[{chars}]*+(?:{_KEPT_ESCAPE}[{chars}]*+)*+"),
            # An escape or one character that may not stay raw (a stray "%" among them),
            # written to start with a character class, which the search skips to quickly.
            re.compile(f"[^{chars}](?:(?<=%)[0-9A-Fa-f]{{2}})?"),
        )


# The sub-delimiters and ":@" stay raw (RFC 3986 pchar); "/" and "?" stay raw where the
# grammar allows them. "+" is left alone everywhere: in a query it may mean a space to the
# server, so "+" and "%2B" (or "%20") are different inputs and are never merged.
_PCHAR = "A-Za-z0-9\\-._~!$&'()*+,;=:@"
PATH = Component.of(_PCHAR + "/")
QUERY = Component.of(_PCHAR + "/?")
FRAGMENT = QUERY
USERINFO = Component.of("A-Za-z0-9\\-._~!$&'()*+,;=:")


def _escape_form(token: str) -> str:
    """The normal form of one escape: the character if unreserved, else upper-case hex."""
    char = chr(int(token[1:], 16))
    return char if char in _UNRESERVED else token.upper()


_HEX = "0123456789ABCDEFabcdef"
# Every spelling of an escape and its normal form (484 of them), looked up per token.
_ESCAPE_FORMS = {f"%{a}{b}": _escape_form(f"%{a}{b}") for a in _HEX for b in _HEX}


def _rewrite(match: re.Match[str]) -> str:
    token = match.group()
    form = _ESCAPE_FORMS.get(token)
    if form is not None:
        return form
    return "".join(f"%{byte:02X}" for byte in _utf8(token))


def _utf8(char: str) -> bytes:
    """The bytes ``char`` stands for: its UTF-8 form, or the raw byte a surrogate escape kept.

    Input read with ``errors="surrogateescape"`` (as the CLI reads files and stdin) holds a
    byte that is not UTF-8 as a lone surrogate U+DC80..U+DCFF: it is escaped as the byte it
    was (``%FF``), not as the surrogate's own encoding. Other lone surrogates have no bytes
    of their own and keep their (WTF-8) encoding.
    """
    try:
        return char.encode("utf-8", "surrogateescape")
    except UnicodeEncodeError:
        return char.encode("utf-8", "surrogatepass")


def normalize_escapes(text: str, component: Component) -> str:
    """Return ``text`` with its percent-encoding in normal form for a component.

    Args:
        text: the raw component (path, one query piece, fragment, userinfo).
        component: which component it is (:data:`PATH`, :data:`QUERY`, ...).

    >>> normalize_escapes("/a%7eb%2fc d%c3%a9", PATH)
    '/a~b%2Fc%20d%C3%A9'
    >>> normalize_escapes("100%", QUERY), normalize_escapes("%zz", QUERY)
    ('100%25', '%25zz')
    """
    if component.safe.fullmatch(text) is not None:
        return text
    return normalize_unsafe(text, component)


def normalize_unsafe(text: str, component: Component) -> str:
    """:func:`normalize_escapes` of a text that the component's ``safe`` pattern does not match.

    For callers that have made that check already (every URL's query goes through here).
    """
    if component.clean.fullmatch(text) is not None:
        return text
    if len(text) > _CACHED_TEXT:
        return component.token.sub(_rewrite, text)
    return _normalize_slow(text, component)


# Only a short text is cached (a whole query goes through here), so the cache's size is
# bounded in bytes (at most 4096 texts of 256 characters and their rewrites, each at most
# three times as long for ASCII input); a longer text is rewritten each time.
_CACHED_TEXT = 256


@lru_cache(maxsize=4096)
def _normalize_slow(text: str, component: Component) -> str:
    return component.token.sub(_rewrite, text)


def unquote_for_matching(text: str) -> str:
    """Percent-decode ``text`` (UTF-8, lenient) for comparing it with rule values.

    >>> unquote_for_matching("Twitter%20Card")
    'Twitter Card'
    """
    if "%" not in text:
        return text
    decoded = _ESCAPE.sub(lambda m: chr(int(m.group(1), 16)), text)
    try:
        return decoded.encode("latin-1").decode("utf-8")
    except (UnicodeEncodeError, UnicodeDecodeError):
        return decoded


def escape_undecodable(text: str) -> str:
    r"""``text`` with each byte that was not UTF-8 written as its percent-escape.

    A byte kept by a ``surrogateescape`` decoder (U+DC80..U+DCFF) becomes ``%XX``; the result
    is valid text that shows the bytes as they were observed, and keys as they do.

    >>> escape_undecodable(b"https://a.example/\xff/\xc3\xa9".decode("utf-8", "surrogateescape"))
    'https://a.example/%FF/é'
    """
    if not _KEPT_BYTE.search(text):
        return text
    return _KEPT_BYTE.sub(lambda m: f"%{ord(m.group()) - 0xDC00:02X}", text)


def json_line(data: Any, *, indent: int | None = None) -> str:
    """``data`` as JSON text and a newline; a byte kept by ``surrogateescape`` is ``%XX``.

    JSON output must be UTF-8, which such a byte is not; it shows as the key shows it.
    """
    return json.dumps(_escaped(data), indent=indent, ensure_ascii=False) + "\n"


def _escaped(data: Any) -> Any:
    if isinstance(data, str):
        return escape_undecodable(data)
    if isinstance(data, dict):
        return {_escaped(k): _escaped(v) for k, v in data.items()}
    if isinstance(data, (list, tuple)):
        return [_escaped(v) for v in data]
    return data
