"""Percent-encoding normalisation for URL components (RFC 3986 section 6.2.2).

Escapes are upper-cased, escapes of unreserved characters are decoded, and characters that
may not appear raw in the component (space, controls, non-ASCII, a stray ``%``) are encoded
from their UTF-8 bytes, as WHATWG URL does.
"""

from __future__ import annotations

import re
from functools import lru_cache

_HEX = "0123456789ABCDEFabcdef"
_UNRESERVED = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")

# Characters allowed raw, per component. Everything else in the component is encoded.
# The sub-delimiters and ":@" stay raw (RFC 3986 pchar); "/" and "?" stay raw where the
# grammar allows them. "+" is left alone everywhere: in a query it may mean a space to the
# server, so "+" and "%2B" (or "%20") are different inputs and are never merged.
_PCHAR = "A-Za-z0-9\\-._~!$&'()*+,;=:@"
PATH_SAFE = re.compile(f"[{_PCHAR}/]*")
QUERY_SAFE = re.compile(f"[{_PCHAR}/?]*")
FRAGMENT_SAFE = QUERY_SAFE
USERINFO_SAFE = re.compile("[A-Za-z0-9\\-._~!$&'()*+,;=:]*")

_ESCAPE = re.compile(r"%([0-9A-Fa-f]{2})")


def _encode_char(char: str, safe: re.Pattern[str]) -> str:
    if safe.fullmatch(char):
        return char
    return "".join(f"%{byte:02X}" for byte in char.encode("utf-8", "surrogatepass"))


def normalize_escapes(text: str, safe: re.Pattern[str]) -> str:
    """Return ``text`` with its percent-encoding in normal form for a component.

    Args:
        text: the raw component (path, one query name or value, fragment, userinfo).
        safe: the pattern of characters the component may hold raw.

    >>> normalize_escapes("/a%7eb%2fc d%c3%a9", PATH_SAFE)
    '/a~b%2Fc%20d%C3%A9'
    >>> normalize_escapes("100%", QUERY_SAFE)
    '100%25'
    """
    if safe.fullmatch(text):
        return text
    return _normalize_slow(text, safe)


@lru_cache(maxsize=16384)
def _normalize_slow(text: str, safe: re.Pattern[str]) -> str:
    out: list[str] = []
    i = 0
    n = len(text)
    while i < n:
        char = text[i]
        if char == "%":
            if i + 2 < n and text[i + 1] in _HEX and text[i + 2] in _HEX:
                decoded = chr(int(text[i + 1 : i + 3], 16))
                out.append(decoded if decoded in _UNRESERVED else "%" + text[i + 1 : i + 3].upper())
                i += 3
                continue
            out.append("%25")
        else:
            out.append(_encode_char(char, safe))
        i += 1
    return "".join(out)


def unquote_for_matching(text: str) -> str:
    """Percent-decode ``text`` (UTF-8, lenient) for comparing it with rule values.

    >>> unquote_for_matching("Twitter%20Card")
    'Twitter Card'
    """
    if "%" not in text:
        return text
    try:
        return _ESCAPE.sub(lambda m: chr(int(m.group(1), 16)), text).encode("latin-1").decode("utf-8")
    except (UnicodeEncodeError, UnicodeDecodeError):
        return _ESCAPE.sub(lambda m: chr(int(m.group(1), 16)), text)
