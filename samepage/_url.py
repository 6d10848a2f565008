"""Splitting an absolute http(s) URL and normalising its scheme, host, port, path and fragment.

The rules follow RFC 3986 section 6 (syntax-based normalisation) and, where browsers differ
from the RFC, the WHATWG URL Standard, because browsers decide what a server receives.
"""

from __future__ import annotations

import ipaddress
import re
from functools import lru_cache

from samepage._encoding import FRAGMENT, PATH, USERINFO, normalize_escapes, normalize_unsafe
from samepage.errors import InvalidURL

__all__ = [
    "CACHED_HOST",
    "Parts",
    "host_and_port",
    "join_url",
    "normalize_host",
    "normalize_path",
    "split_url",
    "url_host",
]

DEFAULT_PORTS = {"http": "80", "https": "443"}
_SCHEME = re.compile(r"[A-Za-z][A-Za-z0-9+.\-]*:")
# WHATWG strips leading and trailing C0 controls and spaces, and removes tabs and newlines.
_STRIP = "".join(chr(c) for c in range(0x21))
_TAB_NEWLINE = re.compile(r"[\t\n\r]")
# WHATWG "forbidden domain code points", checked after percent-decoding the host.
_FORBIDDEN_HOST = re.compile(r"[\x00-\x20#%/:<>?@\[\\\]^|\x7f]")
_ASCII_HOST = re.compile(r"[a-z0-9\-._~!$&'()*+,;=]++")
_NUMBER = re.compile(r"(?:0[xX][0-9A-Fa-f]*|[0-9]+)")
_PATH_SAFE = PATH.safe.fullmatch
# RFC 6874: ZoneID = 1*( unreserved / pct-encoded )
_ZONE = re.compile(r"(?:[A-Za-z0-9\-._~]|%[0-9A-Fa-f]{2})+")
# The caches of hosts and paths take short inputs only, so their size is bounded in bytes,
# not just in entries: a host longer than a DNS name can be (253) or a path longer than
# _CACHED_PATH is worked out each time (a long input costs its own length to read anyway),
# and never held; a path that long is seldom seen twice. With ASCII input that is at most
# about 65536 * 0.7 KB for hosts and 32768 * 0.5 KB for paths (each entry its input, its
# output and the cache's own bookkeeping). The normalizer's per-host tables hold no longer
# host either.
CACHED_HOST = 253
_CACHED_PATH = 128


# (scheme, userinfo, host, port, path, raw query, fragment); a plain tuple is the cheapest
# container on the hot path.
Parts = tuple[str, str, str, str, str, str, str]


def split_url(url: str) -> Parts | None:
    """Split and normalise an absolute URL; ``None`` for a non-http(s) URL (left as it is).

    Raises:
        InvalidURL: for a relative URL, a missing or malformed host, or a bad port.
    """
    text = url
    if not text or text[0] <= " " or text[-1] <= " ":
        text = text.strip(_STRIP)
    if "\t" in text or "\n" in text or "\r" in text:
        text = _TAB_NEWLINE.sub("", text)
    # The common spellings first, without the general checks of the scheme.
    if text.startswith("https://"):
        scheme, start = "https", 8
    elif text.startswith("http://"):
        scheme, start = "http", 7
    else:
        found = _scheme(url, text)
        if found is None:
            return None
        scheme, start = found
    if "\\" in text:
        # Browsers read "\" as "/" before the query in http(s) URLs.
        text = _backslashes(text)
    # No "#" or "?" comes before ``start``: the whole text is split, not a copy of its tail.
    rest, _, fragment = text.partition("#")
    rest, _, query = rest.partition("?")
    slash = rest.find("/", start)
    if slash < 0:
        authority, path = rest[start:], "/"
    else:
        authority, path = rest[start:slash], rest[slash:]
    userinfo = ""
    if "@" in authority:
        userinfo, _, authority = authority.rpartition("@")
        if userinfo:
            userinfo = normalize_escapes(userinfo, USERINFO) + "@"
    port = ""
    if ":" in authority:
        authority, port = _split_host_port(url, authority)
        if port:
            port = _normalize_port(url, port, scheme)
    try:
        # _normalize_host() and normalize_path() inlined: every URL comes here.
        host = _cached_host(authority) if len(authority) <= CACHED_HOST else _host_form(authority)
    except ValueError as exc:
        raise InvalidURL(url, str(exc)) from None
    return (
        scheme,
        userinfo,
        host,
        port,
        _cached_path(path) if len(path) <= _CACHED_PATH else _path_form(path),
        query,
        normalize_fragment(fragment) if fragment else "",
    )


def join_url(parts: Parts, query: str) -> str:
    """The URL of ``parts`` with ``query`` for its query (``parts[5]`` is not read)."""
    scheme, userinfo, host, port, path, _, fragment = parts
    if port:
        host = f"{host}:{port}"
    # One string built for the common forms (every URL goes through here).
    if not fragment:
        if query:
            return f"{scheme}://{userinfo}{host}{path}?{query}"
        return f"{scheme}://{userinfo}{host}{path}"
    if query:
        return f"{scheme}://{userinfo}{host}{path}?{query}#{fragment}"
    return f"{scheme}://{userinfo}{host}{path}#{fragment}"


def _scheme(url: str, text: str) -> tuple[str, int] | None:
    """The scheme of an absolute URL in lower case and where its authority starts.

    ``None`` for a scheme other than http(s).

    Raises:
        InvalidURL: for a URL without a scheme, or an http(s) URL without "//" after it.
    """
    colon = text.find(":")
    if colon <= 0 or not _SCHEME.match(text, 0, colon + 1):
        raise InvalidURL(url, "not an absolute URL (no scheme)")
    scheme = text[:colon].lower()
    if scheme != "http" and scheme != "https":
        return None
    # A "\\" after the scheme is a "/" to browsers (split_url replaces every one).
    if text[colon + 1 : colon + 3].replace("\\", "/") != "//":
        raise InvalidURL(url, "missing '//' after the scheme")
    return scheme, colon + 3


def url_host(url: str) -> str:
    """The host of an http(s) URL as the normalizer keys it.

    Lower case, IDNA (punycode) ASCII for a non-ASCII name, an IP address in its canonical
    form, no trailing dot: every spelling of one site gives one string.

    >>> url_host("https://Bücher.Example./p?q=1")
    'xn--bcher-kva.example'
    >>> url_host("http://0x7f.1:8080/")
    '127.0.0.1'

    Raises:
        InvalidURL: for a string that is not an absolute http(s) URL with a valid host.
    """
    return host_and_port(url)[0]


def host_and_port(url: str) -> tuple[str, str]:
    """The host of an http(s) URL (as :func:`url_host`) and its port, ``""`` for the default.

    An IPv6 literal keeps its brackets, as in a URL and a learned set's keys.

    >>> host_and_port("https://[::1]:443/"), host_and_port("http://Shop.Example:8080/")
    (('[::1]', ''), ('shop.example', '8080'))

    Raises:
        InvalidURL: for a string that is not an absolute http(s) URL with a valid host.
    """
    parts = split_url(url)
    if parts is None:
        raise InvalidURL(url, "not an http(s) URL")
    return parts[2], parts[3]


def normalize_host(host: str) -> str:
    """A host name (without a port) in the form :func:`url_host` gives.

    >>> normalize_host("Bücher.Example.")
    'xn--bcher-kva.example'

    Raises:
        InvalidURL: for a string that cannot be a host.
    """
    try:
        return _normalize_host(host)
    except ValueError as exc:
        raise InvalidURL(host, str(exc)) from None


def _shorten(text: str, limit: int = 40) -> str:
    """``text`` cut to ``limit`` characters for an error message."""
    return text if len(text) <= limit else f"{text[:limit]}...({len(text)} characters)"


def _backslashes(text: str) -> str:
    head, mark, tail = text.partition("?")
    if "#" in head:
        head, hash_, after = head.partition("#")
        return head.replace("\\", "/") + hash_ + after + mark + tail
    return head.replace("\\", "/") + mark + tail


def _split_host_port(url: str, hostport: str) -> tuple[str, str]:
    if hostport.startswith("["):
        end = hostport.find("]")
        if end < 0:
            raise InvalidURL(url, "unterminated IPv6 literal")
        after = hostport[end + 1 :]
        if after and not after.startswith(":"):
            raise InvalidURL(url, "unexpected text after IPv6 literal")
        return hostport[: end + 1], after[1:]
    host, colon, port = hostport.rpartition(":")
    if not colon:
        return hostport, ""
    return host, port


def _normalize_port(url: str, port: str, scheme: str) -> str:
    if not port:
        return ""
    if not port.isdigit() or not port.isascii():
        raise InvalidURL(url, f"port {_shorten(port)!r} is not a number")
    # Leading zeros are allowed (WHATWG); past five digits the number is out of range, and
    # int() of thousands of digits would raise its own ValueError (CVE-2020-10735 limit).
    text = port.lstrip("0") or "0"
    if len(text) > 5 or int(text) > 65535:
        raise InvalidURL(url, f"port {_shorten(text)} is out of range")
    return "" if text == DEFAULT_PORTS[scheme] else text


def _normalize_host(host: str) -> str:
    """The host in one form: lower case, IDNA, IPs canonical, no trailing dot.

    Cached for a host no longer than a DNS name can be (:data:`CACHED_HOST`).

    Raises ValueError when the string cannot be a host; split_url names the URL.
    """
    return _cached_host(host) if len(host) <= CACHED_HOST else _host_form(host)


def _host_form(host: str) -> str:
    """:func:`_normalize_host`, uncached."""
    if _ASCII_HOST.fullmatch(host):
        name = host
    else:
        if host.startswith("["):
            return _ipv6(host[1:-1])
        if host.isascii() and "%" not in host:
            lowered = host.lower()
            if lowered != host:
                # Another case of an ASCII name has the (cached) answer of its lower case.
                try:
                    return _normalize_host(lowered)
                except ValueError:
                    pass  # raised again below, naming the host as it was written
        name = _decode_host(host)
    if name.endswith(".") and len(name) > 1:
        # "example.com." names the same site as "example.com" for every practical purpose.
        # A run of dots goes at once, or a second pass would remove one more.
        name = name.rstrip(".")
    if not name or name.startswith(".") or ".." in name:
        raise ValueError(f"empty label in host {host!r}")
    last = name.rpartition(".")[2]
    if _NUMBER.fullmatch(last):
        return _ipv4(name)
    return name


_cached_host = lru_cache(maxsize=65536)(_host_form)


def _decode_host(host: str) -> str:
    if "%" in host:
        from urllib.parse import unquote

        host = unquote(host, errors="strict")
    name = host.lower() if host.isascii() else _idna(host)
    if _FORBIDDEN_HOST.search(name):
        raise ValueError(f"host {host!r} contains a character hosts may not have")
    return name


def _idna(host: str) -> str:
    """A non-ASCII host in punycode, by UTS 46 non-transitional processing, as browsers do.

    The UTS 46 mapping (case folding, full-width forms, ignored characters) runs over the
    whole host; deviation characters are kept, so ``faß.de`` stays ``xn--fa-hia.de`` and
    never becomes ``fass.de`` (IDNA 2003 and transitional processing merged the two
    domains). Each non-ASCII label must then be a valid IDNA 2008 label (code points,
    joiner contexts, bidi rule); ASCII labels pass as browsers pass them. The ``idna``
    package holds the Unicode tables; it is imported on the first non-ASCII host, and
    results are cached per host by the caller.
    """
    import idna

    try:
        mapped = idna.uts46_remap(host, std3_rules=False)
        return ".".join(label if label.isascii() else _alabel(label) for label in mapped.split("."))
    except UnicodeError as exc:  # idna.IDNAError and its subclasses
        raise ValueError(f"host {_shorten(host)!r} is not a valid IDNA host: {exc}") from None


@lru_cache(maxsize=1024)
def _alabel(label: str) -> str:
    """The punycode form of one mapped non-ASCII label (its checks are the costly part).

    Cached per label: the spellings of a host (its case, full-width forms) map to the same
    labels. A label that is not valid raises each time, and the cache holds only results,
    which are at most 63 characters.
    """
    import idna

    return idna.alabel(label).decode("ascii")


def _ipv4(name: str) -> str:
    """Parse an IPv4 address the way browsers do (decimal, octal, hex, short forms)."""
    parts = name.split(".")
    if len(parts) > 4:
        raise ValueError(f"host {name!r} looks like an IPv4 address but has too many parts")
    numbers = []
    for part in parts:
        if not _NUMBER.fullmatch(part):
            raise ValueError(f"host {_shorten(name)!r} mixes an IPv4 address with a name")
        if part[:2] in ("0x", "0X"):
            digits, base = part[2:], 16
        elif len(part) > 1 and part.startswith("0"):
            if not all(c in "01234567" for c in part):
                raise ValueError(f"host {_shorten(name)!r} has a bad octal part")
            digits, base = part, 8
        else:
            digits, base = part, 10
        # 2**32 has at most 11 significant digits in any of the bases: longer is out of
        # range, and int() is never asked to read thousands of digits.
        digits = digits.lstrip("0") or "0"
        if len(digits) > 11:
            raise ValueError(f"IPv4 address {_shorten(name)!r} is out of range")
        numbers.append(int(digits, base))
    *head, last = numbers
    if any(n > 255 for n in head) or last >= 256 ** (5 - len(numbers)):
        raise ValueError(f"IPv4 address {_shorten(name)!r} is out of range")
    value = last
    for index, number in enumerate(head):
        value += number << (8 * (3 - index))
    return str(ipaddress.IPv4Address(value))


def _ipv6(literal: str) -> str:
    address, percent, zone = literal.partition("%")
    try:
        compressed = ipaddress.IPv6Address(address).compressed
    except ValueError as exc:
        raise ValueError(f"bad IPv6 literal [{literal}]") from exc
    if percent:
        zone = zone[2:] if zone.startswith("25") else zone
        if not _ZONE.fullmatch(zone):
            raise ValueError(f"bad zone id in IPv6 literal [{_shorten(literal)}]")
        return f"[{compressed}%25{zone}]"
    return f"[{compressed}]"


def normalize_path(path: str) -> str:
    """Normalise a path: escapes, dot segments, ``//`` runs and one trailing slash.

    Path case is kept: servers are free to treat ``/A`` and ``/a`` as different pages.

    >>> normalize_path("/a/./b/../c//d/")
    '/a/c/d'
    >>> normalize_path("/%7Euser/")
    '/~user'
    """
    return _cached_path(path) if len(path) <= _CACHED_PATH else _path_form(path)


def _path_form(path: str) -> str:
    """:func:`normalize_path`, uncached."""
    if "%" not in path and "//" not in path and "/." not in path and _PATH_SAFE(path):
        if len(path) > 1 and path[-1] == "/":
            return path[:-1]
        return path
    return _normalize_path_slow(path)


# Cached whole (a short path only): a site's paths repeat (/watch, /search, /product), and a
# hit costs half the checks that find a path already normal.
_cached_path = lru_cache(maxsize=32768)(_path_form)


def _normalize_path_slow(path: str) -> str:
    # A "%" is never safe: then only the check for escapes in normal form is left to make.
    path = normalize_unsafe(path, PATH) if "%" in path else normalize_escapes(path, PATH)
    if "/." in path:
        path = _remove_dot_segments(path)
    while "//" in path:
        path = path.replace("//", "/")
    if len(path) > 1 and path[-1] == "/":
        path = path[:-1]
    return path


def _remove_dot_segments(path: str) -> str:
    """RFC 3986 section 5.2.4, on an absolute path (escaped dots already decoded)."""
    output: list[str] = []
    *segments, last = path.split("/")[1:]
    for segment in segments:
        if segment == "..":
            if output:
                output.pop()
        elif segment != ".":
            output.append(segment)
    # A last "." or ".." leaves the directory: the path ends with "/".
    if last == "..":
        if output:
            output.pop()
        output.append("")
    elif last == ".":
        output.append("")
    else:
        output.append(last)
    return "/" + "/".join(output)


def normalize_fragment(fragment: str) -> str:
    """Keep single-page-app routes (``#!...``, ``#/...``) and drop every other fragment.

    >>> normalize_fragment("!/item/42"), normalize_fragment("section-2")
    ('!/item/42', '')
    """
    if fragment[:1] in ("!", "/"):
        return normalize_escapes(fragment, FRAGMENT)
    return ""
