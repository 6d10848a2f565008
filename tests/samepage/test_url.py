"""URL hygiene: scheme, host, port, path, fragment, percent-encoding (RFC 3986 section 6)."""

from __future__ import annotations

import pytest

from samepage import InvalidURL, normalize_url


@pytest.mark.parametrize(
    "url, expected",
    [
        # scheme and host case, default ports
        ("HTTPS://WWW.Example.COM/Path", "https://www.example.com/Path"),
        ("http://example.com:80/", "http://example.com/"),
        ("https://example.com:443/x", "https://example.com/x"),
        ("http://example.com:443/x", "http://example.com:443/x"),
        ("https://example.com:8443/x", "https://example.com:8443/x"),
        ("https://example.com:0080/", "https://example.com:80/"),
        ("http://example.com:/", "http://example.com/"),
        # empty path, trailing slash, // runs, dot segments; path case kept
        ("https://example.com", "https://example.com/"),
        ("https://example.com?x=1", "https://example.com/?x=1"),
        ("https://example.com/a/", "https://example.com/a"),
        ("https://example.com/a//b///c/", "https://example.com/a/b/c"),
        ("https://example.com/a/./b/../c", "https://example.com/a/c"),
        ("https://example.com/../../a", "https://example.com/a"),
        ("https://example.com/a/b/..", "https://example.com/a"),
        ("https://example.com/a/%2e%2E/b", "https://example.com/b"),
        ("https://example.com/CaseMatters", "https://example.com/CaseMatters"),
        ("https://example.com\\a\\b?x=\\", "https://example.com/a/b?x=%5C"),
        # percent-encoding: hex case, unreserved decoded, reserved kept, unsafe encoded
        ("https://example.com/%7euser/%41", "https://example.com/~user/A"),
        ("https://example.com/a%2fb", "https://example.com/a%2Fb"),
        ("https://example.com/a b", "https://example.com/a%20b"),
        ("https://example.com/café", "https://example.com/caf%C3%A9"),
        ("https://example.com/100%", "https://example.com/100%25"),
        ("https://example.com/?q=a%2bb", "https://example.com/?q=a%2Bb"),
        ("https://example.com/?q=a+b", "https://example.com/?q=a+b"),
        ("https://example.com/?q=%e2%82%ac", "https://example.com/?q=%E2%82%AC"),
        # IDNA, IPv4 and IPv6, trailing dot, percent-encoded host
        ("https://Bücher.example/", "https://xn--bcher-kva.example/"),
        ("https://xn--bcher-kva.example/", "https://xn--bcher-kva.example/"),
        ("https://example.com./", "https://example.com/"),
        ("http://%65xample.com/", "http://example.com/"),
        ("http://[2001:DB8:0:0::1]:8080/", "http://[2001:db8::1]:8080/"),
        ("http://[::FFFF:127.0.0.1]/", "http://[::ffff:7f00:1]/"),
        ("http://0x7f.0.0.1/", "http://127.0.0.1/"),
        ("http://2130706433/", "http://127.0.0.1/"),
        ("http://0177.0.0.1/", "http://127.0.0.1/"),
        # userinfo kept, empty userinfo dropped
        ("https://user:pw@example.com/", "https://user:pw@example.com/"),
        ("https://@example.com/", "https://example.com/"),
        # fragments: plain anchors dropped, SPA routes kept
        ("https://example.com/p#section", "https://example.com/p"),
        ("https://example.com/p#", "https://example.com/p"),
        ("https://example.com/#!/item/42", "https://example.com/#!/item/42"),
        ("https://example.com/app#/users/7", "https://example.com/app#/users/7"),
        # whitespace around, tabs and newlines inside (browsers remove them)
        ("  https://example.com/a\n", "https://example.com/a"),
        ("https://exa\tmple.com/a", "https://example.com/a"),
        # empty query, empty pairs
        ("https://example.com/p?", "https://example.com/p"),
        ("https://example.com/p?&&a=1&", "https://example.com/p?a=1"),
    ],
)
def test_hygiene(url: str, expected: str) -> None:
    assert normalize_url(url) == expected


@pytest.mark.parametrize(
    "url",
    [
        "mailto:someone@example.com",
        "javascript:alert(1)",
        "data:text/html,<b>hi</b>",
        "ftp://Example.com/a/../b",
        "tel:+1-555-0100",
        "urn:isbn:0451450523",
    ],
)
def test_non_http_schemes_pass_through_unchanged(url: str) -> None:
    assert normalize_url(url) == url


@pytest.mark.parametrize(
    "url, reason",
    [
        ("", "no scheme"),
        ("example.com/path", "no scheme"),
        ("/relative/path", "no scheme"),
        ("https:example.com", "missing '//'"),
        ("https://", "empty label"),
        ("https://exa mple.com/", "character hosts may not have"),
        ("https://example.com:99999/", "out of range"),
        ("https://example.com:8o/", "not a number"),
        ("https://[::1/", "unterminated IPv6"),
        ("https://[zz::1]/", "bad IPv6"),
        ("https://256.256.256.256/", "out of range"),
        ("https://a..b/", "empty label"),
    ],
)
def test_invalid_urls_raise_invalid_url(url: str, reason: str) -> None:
    with pytest.raises(InvalidURL, match=reason) as info:
        normalize_url(url)
    assert isinstance(info.value, ValueError)
    assert info.value.url == url


def test_non_string_is_a_type_error() -> None:
    with pytest.raises(TypeError):
        normalize_url(b"https://example.com/")  # type: ignore[arg-type]
