"""Query handling: order, repeated names, blank values, case-insensitive tracking names."""

from __future__ import annotations

import pytest

from samepage import normalize_url, pattern_key


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
