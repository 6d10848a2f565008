"""Query handling: order, repeated names, blank values, case-insensitive tracking names."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from samepage import normalize_url, pattern_key
from samepage._encoding import _KEPT_ESCAPE, _PCHAR, QUERY, _utf8, normalize_escapes
from samepage._query import query_pairs
from tests.plugins.properties import examples


@pytest.mark.parametrize(
    "url, expected",
    [
        ("https://example.com/?b=2&a=1&c=3", "https://example.com/?a=1&b=2&c=3"),
        # repeated names: sorted stably by name, their values keep their order
        ("https://example.com/?t=2&a=1&t=1", "https://example.com/?a=1&t=2&t=1"),
        ("https://example.com/?a=1&a=1", "https://example.com/?a=1&a=1"),
        # a bare name and an empty value stay distinct (frameworks tell them apart)
        ("https://example.com/?flag", "https://example.com/?flag"),
        ("https://example.com/?flag=", "https://example.com/?flag="),
        # tracking names match without regard to case; others keep their case
        ("https://example.com/?UTM_Source=x&Id=1", "https://example.com/?Id=1"),
        ("https://example.com/?FBCLID=x&id=1", "https://example.com/?id=1"),
        # an escaped name is the same name
        ("https://example.com/?utm%5Fsource=x&id=1", "https://example.com/?id=1"),
        # "=" inside a value is part of the value
        ("https://example.com/?next=a%3Db&x=a=b", "https://example.com/?next=a%3Db&x=a=b"),
        # only tracking: the query disappears entirely
        ("https://example.com/p?utm_source=a&utm_medium=b", "https://example.com/p"),
        # ";" is not a separator
        ("https://example.com/?a=1;utm_source=x", "https://example.com/?a=1;utm_source=x"),
    ],
)
def test_query(url: str, expected: str) -> None:
    assert normalize_url(url) == expected


@pytest.mark.parametrize(
    "url, expected",
    [
        ("https://shop.example/p?id=1&color=red", "color&id"),
        ("https://shop.example/p?id=1&utm_source=x&id=2", "id"),
        ("https://shop.example/p?Id=1&id=2", "Id&id"),
        ("https://shop.example/p", ""),
        ("https://shop.example/p?utm_campaign=x", ""),
        ("https://shop.example/p?ref=twitter&id=1", "id&ref"),
    ],
)
def test_pattern_key(url: str, expected: str) -> None:
    assert pattern_key(url) == expected


_QUERY_TEXT = st.text(alphabet="ab=&%2fF7eE~ \u00e9\udcff+?", max_size=24)


@settings(max_examples=examples(500), deadline=None)
@given(_QUERY_TEXT)
def test_a_query_normalised_whole_has_the_pieces_normalised_one_by_one(query: str) -> None:
    # "&" is never escaped nor unescaped and no escape spans it: one pass for the query.
    pieces = [normalize_escapes(piece, QUERY) for piece in query.split("&") if piece]
    assert query_pairs(query) == [(piece.partition("=")[0], piece) for piece in pieces]


_DEFINED_CLEAN = re.compile(f"(?:[{_PCHAR}/?]|{_KEPT_ESCAPE})*")


@settings(max_examples=examples(500), deadline=None)
@given(_QUERY_TEXT)
def test_the_normal_form_check_accepts_exactly_the_strings_of_its_definition(text: str) -> None:
    # Plain characters or escapes already in normal form, in any order.
    expected = _DEFINED_CLEAN.fullmatch(text) is not None
    assert (QUERY.clean.fullmatch(text) is not None) == expected


_RAW_QUERY_CHAR = re.compile(f"[{_PCHAR}/?]")


def _escapes_by_definition(text: str) -> str:
    """The normal form of a query's escapes, one character at a time (the slow, plain way)."""
    out = []
    index = 0
    while index < len(text):
        char = text[index]
        pair = text[index + 1 : index + 3]
        if char == "%" and len(pair) == 2 and all(c in "0123456789abcdefABCDEF" for c in pair):
            decoded = chr(int(pair, 16))
            unreserved = re.fullmatch(r"[A-Za-z0-9\-._~]", decoded)
            out.append(decoded if unreserved else f"%{pair.upper()}")
            index += 3
            continue
        if _RAW_QUERY_CHAR.fullmatch(char):
            out.append(char)
        else:
            out.append("".join(f"%{byte:02X}" for byte in _utf8(char)))
        index += 1
    return "".join(out)


@settings(max_examples=examples(500), deadline=None)
@given(_QUERY_TEXT)
def test_escapes_are_normalised_as_their_definition_says(text: str) -> None:
    # Upper-case hex, unreserved characters decoded, a stray "%" and raw characters escaped.
    assert normalize_escapes(text, QUERY) == _escapes_by_definition(text)
