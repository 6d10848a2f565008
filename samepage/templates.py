"""Path templates: the kind of page a path names, with its ids and slugs as placeholders.

``/data/products`` and ``/data/products/42`` are two kinds of page (a table and a row), and a
parameter may matter on one and not on the other; ``/data/products/42`` and
``/data/products/43`` are one kind. The learner learns verdicts per template where they
differ, and the normalizer applies such a verdict only to URLs of its template.

The rule, per path segment (between slashes, as normalised URLs spell it), read as the
characters it names: a percent-escape is the byte it encodes, and the bytes are UTF-8 (a byte
that is not is one character), so ``/Caf%C3%A9`` is ``/Café`` and ``/%D0%9C%D0%B8%D1%80`` is
``/Мир``, in any script:

- a segment with a digit in it is ``{id}`` (numbers, dates, hashes, UUIDs, ``item-42``);
- a segment of three or more words joined by ``-``, ``_`` or ``+``, or longer than
  :data:`SLUG_LENGTH` characters, is ``{slug}`` (``my-first-post``);
- any other segment stays as it is (``products``, ``about-us``, ``Caf%C3%A9``).

A file extension of one to five letters after a placeholder stays
(``/p/42.html`` is ``/p/{id}.html``), and a template is its own template.
"""

from __future__ import annotations

import re

__all__ = ["PLACEHOLDERS", "SLUG_LENGTH", "is_template", "path_template"]

SLUG_LENGTH = 40
"""A segment longer than this is a slug whatever its words."""

PLACEHOLDERS = ("{id}", "{slug}")

_EXTENSION = re.compile(r"^(?P<stem>.+?)(?P<ext>\.[A-Za-z]{1,5})$")
_WORDS = re.compile(r"[-_+]")
_DIGIT = re.compile(r"\d")
# A segment without these (and not too long) stays as it is: the common case, in one search.
_MAY_CHANGE = re.compile(r"[-_+.%\d]")
_ESCAPES = re.compile(r"(?:%[0-9A-Fa-f]{2})+")


def _characters(text: str) -> str:
    """``text`` with its percent-escapes read as the UTF-8 bytes they encode.

    A byte that is not UTF-8 stays one character (a lone surrogate), never a digit.
    """
    if "%" not in text:
        return text
    return _ESCAPES.sub(
        lambda m: bytes.fromhex(m.group().replace("%", "")).decode("utf-8", "surrogateescape"),
        text,
    )


def _segment(segment: str) -> str:
    if len(segment) <= SLUG_LENGTH and _MAY_CHANGE.search(segment) is None:
        return segment  # the placeholders too
    match = _EXTENSION.match(segment) if "." in segment else None
    stem, ext = (match["stem"], match["ext"]) if match else (segment, "")
    if stem in PLACEHOLDERS:
        return segment
    text = _characters(stem)
    if _DIGIT.search(text):
        return "{id}" + ext
    if len(text) + len(ext) > SLUG_LENGTH or len([w for w in _WORDS.split(text) if w]) >= 3:
        return "{slug}" + ext
    return segment


def path_template(path: str) -> str:
    """The template of a URL path (see the module's rule).

    >>> path_template("/data/products/42")
    '/data/products/{id}'
    >>> path_template("/blog/2024-05-01/my-first-post.html")
    '/blog/{id}/{slug}.html'
    >>> path_template("/about-us/")
    '/about-us/'
    >>> path_template("/wiki/Caf%C3%A9"), path_template("/wiki/%D0%9C%D0%B8%D1%80")
    ('/wiki/Caf%C3%A9', '/wiki/%D0%9C%D0%B8%D1%80')
    >>> path_template(path_template("/p/9f86d081884c7d65"))
    '/p/{id}'
    """
    if len(path) <= SLUG_LENGTH and _MAY_CHANGE.search(path) is None:
        return path  # no segment can change
    return "/".join(map(_segment, path.split("/")))


def is_template(text: str) -> bool:
    """Whether ``text`` is a path template: it starts with ``/`` and is its own template.

    >>> is_template("/data/{id}"), is_template("/data/42"), is_template("data")
    (True, False, False)
    """
    return text.startswith("/") and path_template(text) == text
