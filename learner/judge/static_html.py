"""Whether an HTML document's bytes make one page whatever its URL: no script, nothing loaded.

Equal bytes prove an equal page only for a document that runs no script (a script can read
the URL and show anything) and loads nothing (a style sheet, image or font is a request of
its own, and carries the page's URL in its ``Referer``: the server can answer each URL
differently while the document's bytes stay the same). :func:`doubt` reads the bytes as
sent, never a DOM that scripts have already changed, and answers ``None`` only when it is
sure of both; any doubt is a reason (:class:`Doubt`) to render instead.

The scan is conservative by construction. Every ``<`` followed by an ASCII letter starts a
tag for it, wherever it stands (in a comment, a ``<style>``, a ``<textarea>``, an attribute
value): an HTML parser starts every real tag there, so whatever the parser's state the real
tags are among those read, each with its attributes as the HTML tokenizer reads them
(``<body/onload=...>``, ``<a href="x"onclick=...>``). Attribute values have their character
references decoded (``&#106;avascript:``). CSS is looked at for anything that fetches
(``url(``, ``@import``, ``image-set(``...), and a backslash in it, which could spell those in
escapes, is a doubt too.
"""

from __future__ import annotations

import html
import re
from enum import StrEnum

__all__ = ["Doubt", "doubt"]


class Doubt(StrEnum):
    """Why a document's bytes may not make one page for every URL."""

    MEDIA_TYPE = "media-type"
    """Not served as ``text/html``: only HTML is scanned."""
    ENCODING = "encoding"
    """Not UTF-8, or an encoding other than UTF-8 (or ASCII) is declared."""
    PARSE = "parse"
    """A NUL character, or a document that takes too long to scan."""
    SCRIPT = "script"
    """A script element, in any namespace or with any prefix."""
    HANDLER = "event-handler"
    """An attribute whose name starts with ``on``, on any element."""
    JAVASCRIPT_URL = "javascript-url"
    FRAME = "frame"
    """A frame, iframe, portal or fenced frame, or a ``srcdoc``."""
    PLUGIN = "plugin"
    """An ``object``, ``embed`` or ``applet``."""
    META = "meta"
    """A ``<meta http-equiv>`` other than the content type (``refresh`` among them)."""
    BASE = "base"
    TEMPLATE = "template"
    """A ``<template>`` or a declarative shadow root."""
    LOADS = "loads"
    """A reference the browser would fetch: ``src``, ``srcset``, a style sheet, an icon, CSS
    ``url()``, an SVG ``href``..."""


_TAG = re.compile(r"<([A-Za-z][^\t\n\f\r />]*)")
_SPACE = "\t\n\f\r "
_UTF8 = frozenset({"utf-8", "utf8", "unicode-1-1-utf-8", "unicode11utf8", "unicode20utf8"})
# Labels of encodings that read ASCII bytes as ASCII: a document of ASCII bytes alone is the
# same text in each of them.
_ASCII = frozenset(
    {"us-ascii", "ascii", "iso-8859-1", "iso8859-1", "latin1", "l1", "windows-1252", "cp1252"}
)
_FRAMES = frozenset({"iframe", "frame", "frameset", "portal", "fencedframe"})
_PLUGINS = frozenset({"object", "embed", "applet"})
# SVG animation elements can set any attribute, a URL among them.
_ANIMATIONS = frozenset({"animate", "animatemotion", "animatetransform", "set"})
# Attributes whose value the browser fetches (a data: URL is inline, not fetched).
_FETCHED = frozenset({"src", "poster", "background", "lowsrc", "dynsrc", "manifest"})
_ALWAYS_FETCHED = frozenset({"srcset", "imagesrcset", "codebase", "archive", "classid"})
# Link relations that fetch nothing (preconnect and dns-prefetch open a connection only).
_QUIET_RELS = frozenset(
    {
        "alternate",
        "author",
        "bookmark",
        "canonical",
        "dns-prefetch",
        "external",
        "help",
        "license",
        "me",
        "next",
        "nofollow",
        "noopener",
        "noreferrer",
        "opener",
        "preconnect",
        "prev",
        "search",
        "shortlink",
        "tag",
    }
)
_QUIET_META = frozenset({"content-type", "x-ua-compatible", "content-language", "default-style"})
_CSS_FETCHES = re.compile(r"url\(|@import|image-set\(")
_CHARSET = re.compile(r"charset\s*=\s*[\"']?([^\"';\s]*)", re.IGNORECASE)
# How many characters the scan may read, per character of the document, before giving up.
_WORK = 16


def doubt(body: bytes, content_type: str) -> Doubt | None:
    """Why ``body``, served with ``content_type``, may not be one page for every URL.

    Args:
        body: the document's bytes as the server sent them (no content coding).
        content_type: the response's ``Content-Type`` header.

    >>> doubt(b"<!doctype html><title>Shop</title><h1>Item 1</h1>", "text/html")
    >>> doubt(b"<h1>Item</h1><body/onload=alert(1)>", "text/html")
    <Doubt.HANDLER: 'event-handler'>
    >>> doubt(b"<style>h1{background:url(/x.png)}</style><h1>Item</h1>", "text/html")
    <Doubt.LOADS: 'loads'>
    """
    media, _, params = content_type.partition(";")
    if media.strip().lower() != "text/html":
        return Doubt.MEDIA_TYPE
    text = _text(body, _charset(params))
    if text is None:
        return Doubt.ENCODING
    if "\0" in text:
        return Doubt.PARSE
    ascii_only = text.isascii()
    budget = _WORK * len(text) + 4096
    styled = False
    for match in _TAG.finditer(text):
        name = match.group(1).lower()
        attributes, used = _attributes(text, match.end(), budget)
        budget -= used
        if budget < 0:
            return Doubt.PARSE
        found = _tag_doubt(name, attributes, ascii_only)
        if found is not None:
            return found
        styled = styled or name == "style"
    # CSS fetches through url(), @import and image-set(); its escapes (\75 rl) can spell
    # them, so a backslash in a document with style sheets is a doubt too.
    for form in (text, html.unescape(text)):
        lowered = form.lower()
        if _CSS_FETCHES.search(lowered) or (styled and "\\" in lowered):
            return Doubt.LOADS
    return None


def _charset(params: str) -> str | None:
    found = _CHARSET.search(params)
    return found.group(1).lower() if found else None


def _text(body: bytes, declared: str | None) -> str | None:
    """The document as text if it is UTF-8 (or ASCII) for sure; ``None`` otherwise."""
    if body.startswith((b"\xff\xfe", b"\xfe\xff")):
        return None  # a UTF-16 (or UTF-32) byte order mark
    body = body.removeprefix(b"\xef\xbb\xbf")
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError:
        return None
    if declared is not None and not _known(declared, text.isascii()):
        return None
    return text


def _known(label: str, ascii_only: bool) -> bool:
    label = label.strip().strip("\"'").lower()
    return label in _UTF8 or (ascii_only and label in _ASCII)


def _attributes(text: str, at: int, budget: int) -> tuple[list[tuple[str, str]], int]:
    """The attributes of the tag whose name ends at ``at``, as the HTML tokenizer reads them.

    Returns them (names in lower case, values with character references decoded) and the
    characters read. A tag the document ends inside is read as far as it goes.
    """
    found: list[tuple[str, str]] = []
    start, end = at, len(text)
    i = at
    while i < end and i - start <= budget:
        char = text[i]
        if char in _SPACE or char == "/":
            i += 1
            continue
        if char == ">":
            return found, i - start
        first = i
        i += 1  # a name may start with "="
        while i < end and text[i] not in _SPACE and text[i] not in "/>=":
            i += 1
        name = text[first:i].lower()
        while i < end and text[i] in _SPACE:
            i += 1
        value = ""
        if i < end and text[i] == "=":
            i += 1
            while i < end and text[i] in _SPACE:
                i += 1
            if i < end and text[i] in "\"'":
                close = text.find(text[i], i + 1)
                close = end if close < 0 else close
                value, i = text[i + 1 : close], close + 1
            else:
                first = i
                while i < end and text[i] not in _SPACE and text[i] != ">":
                    i += 1
                value = text[first:i]
        found.append((name, html.unescape(value) if "&" in value else value))
    return found, i - start


def _tag_doubt(name: str, attributes: list[tuple[str, str]], ascii_only: bool) -> Doubt | None:
    if "script" in name:
        return Doubt.SCRIPT  # script, and svg:script or any other spelling of one
    if name in _FRAMES:
        return Doubt.FRAME
    if name in _PLUGINS:
        return Doubt.PLUGIN
    if name == "base":
        return Doubt.BASE
    if name == "template":
        return Doubt.TEMPLATE
    if name in _ANIMATIONS:
        return Doubt.LOADS
    for attribute, value in attributes:
        found = _attribute_doubt(name, attribute, value)
        if found is not None:
            return found
    if name == "link":
        # Every rel of every rel attribute: the browser reads the first, the scan all.
        rels = [r for a, v in attributes if a == "rel" for r in v.lower().split()]
        if not rels or any(rel not in _QUIET_RELS for rel in rels):
            return Doubt.LOADS
    if name == "meta":
        return _meta_doubt(attributes, ascii_only)
    return None


def _attribute_doubt(tag: str, name: str, value: str) -> Doubt | None:
    if name.startswith("on"):
        return Doubt.HANDLER
    if name == "srcdoc":
        return Doubt.FRAME
    if name.startswith("shadowroot"):
        return Doubt.TEMPLATE
    if "\\" in value or "url(" in value.lower():
        return Doubt.LOADS  # CSS in an attribute (style, SVG fill="url(/p.svg#p)")
    # A URL parser drops tabs and line breaks anywhere, and spaces and controls around it.
    url = re.sub(r"[\t\n\r]", "", value).strip("".join(map(chr, range(33)))).lower()
    if "javascript:" in url:
        return Doubt.JAVASCRIPT_URL
    if name in _ALWAYS_FETCHED or (name in _FETCHED and not url.startswith("data:")):
        return Doubt.LOADS
    if (name == "href" or name.endswith(":href")) and tag not in ("a", "area", "link"):
        return Doubt.LOADS  # SVG image, use, feImage...
    return None


def _meta_doubt(attributes: list[tuple[str, str]], ascii_only: bool) -> Doubt | None:
    labels: list[str] = []
    for name, value in attributes:
        if name == "http-equiv":
            equiv = value.strip().lower()
            if equiv not in _QUIET_META:
                return Doubt.META
            if equiv == "content-type":
                contents = [v for n, v in attributes if n == "content"]
                labels += [c for c in map(_charset, contents) if c is not None]
        elif name == "charset":
            labels.append(value)
    if any(not _known(label, ascii_only) for label in labels):
        return Doubt.ENCODING
    return None
