"""URL hygiene: scheme, host, port, path, fragment, percent-encoding (RFC 3986 section 6)."""

from __future__ import annotations

import gc
import re
import tracemalloc

import pytest

from samepage import InvalidURL, MIQPSNormalizer, normalize_url


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
        ("HTTPS:\\\\Example.com\\a", "https://example.com/a"),
        ("https:/\\example.com/a", "https://example.com/a"),
        ("hTtP://Example.com/a", "http://example.com/a"),
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


def test_an_invalid_host_is_named_as_it_was_written() -> None:
    # Another case of a name takes the answer of its lower case, never its error message.
    with pytest.raises(InvalidURL, match=re.escape("empty label in host 'Ex..Ample.com'")):
        normalize_url("https://Ex..Ample.com/")
    assert normalize_url("https://ExAmple.COM/") == normalize_url("https://example.com/")


def test_non_string_is_a_type_error() -> None:
    with pytest.raises(TypeError):
        normalize_url(b"https://example.com/")  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "url, reason",
    [
        # int() refuses more than 4300 digits with its own ValueError: never let it through.
        ("http://a.example:" + "9" * 5000 + "/", "out of range"),
        ("http://a.example:" + "0" * 5000 + "65536/", "out of range"),
        ("http://" + "1" * 5000 + "/", "out of range"),
        ("http://1." + "7" * 5000 + "/", "out of range"),
        ("http://0x" + "f" * 5000 + "/", "out of range"),
        ("http://0" + "7" * 5000 + "/", "out of range"),
        ("http://a.example:²/", "not a number"),
    ],
)
def test_huge_numbers_are_invalid_urls(url: str, reason: str) -> None:
    with pytest.raises(InvalidURL, match=reason) as caught:
        normalize_url(url)
    assert len(str(caught.value)) < 400  # one readable line, not the whole number twice


@pytest.mark.parametrize(
    "url, expected",
    [
        ("http://a.example:" + "0" * 5000 + "8080/", "http://a.example:8080/"),
        ("http://0x" + "0" * 5000 + "7f.1/", "http://127.0.0.1/"),
        ("http://" + "0" * 5000 + "1.2.3.4/", "http://1.2.3.4/"),
    ],
)
def test_leading_zeros_do_not_count_as_digits(url: str, expected: str) -> None:
    assert normalize_url(url) == expected


@pytest.mark.parametrize(
    "host, expected",
    [
        # UTS 46 non-transitional, as browsers do: the deviation characters stay.
        ("faß.de", "xn--fa-hia.de"),
        ("FASS.de", "fass.de"),
        ("βόλος.com", "xn--nxasmm1c.com"),  # final sigma kept
        ("ΒΌΛΟΣ.com", "xn--nxasmq6b.com"),  # capital sigma maps to small sigma, as in browsers
        ("\u0915\u094d\u200d\u0937.in", "xn--11b2ezcw70k.in"),  # ZWJ after a virama
        ("\u0915\u094d\u200c\u0937.in", "xn--11b2ezcs70k.in"),  # ZWNJ after a virama
        ("\u0915\u094d\u0937.in", "xn--11b2ezc.in"),  # without the joiner: another name
        # the mapping: case, full-width forms and dots, ignored characters
        ("BÜCHER.example", "xn--bcher-kva.example"),
        ("b\u00adücher.example", "xn--bcher-kva.example"),
        ("bücher\uff0eexample", "xn--bcher-kva.example"),
        ("bü%63her.example", "xn--bcher-kva.example"),
        ("xn--bcher-kva.example", "xn--bcher-kva.example"),
        ("a_b.bücher.example", "a_b.xn--bcher-kva.example"),  # ASCII labels as browsers
    ],
)
def test_idna_hosts_follow_uts46_non_transitional(host: str, expected: str) -> None:
    assert normalize_url(f"https://{host}/") == f"https://{expected}/"


def test_sharp_s_and_ss_are_different_domains() -> None:
    assert normalize_url("https://faß.de/") != normalize_url("https://fass.de/")


@pytest.mark.parametrize(
    "host",
    [
        "a\u200db.example",  # ZWJ outside a joining context (CONTEXTJ)
        "a\u200cb.example",  # ZWNJ likewise
        "\u2665.example",  # IDNA 2008 disallows symbols
        "\u2488.example",  # ⒈ mapped to "1." by IDNA 2003, disallowed now
        "\ufffd.example",
        "\ue000.example",  # private use
        "\u0301a.example",  # a label may not start with a combining mark
        "\udc80.example",  # a byte that was not UTF-8
        "a.\uff1c.example",  # full-width "<" maps to a forbidden host character
    ],
)
def test_idna2008_disallowed_hosts_are_invalid(host: str) -> None:
    with pytest.raises(InvalidURL, match="host"):
        normalize_url(f"https://{host}/")


@pytest.mark.parametrize(
    "url, expected",
    [
        ("http://[fe80::1%25eth0]/", "http://[fe80::1%25eth0]/"),
        ("http://[fe80::1%eth0]:81/", "http://[fe80::1%25eth0]:81/"),
        ("http://[fe80::1%25en%2D1]/", "http://[fe80::1%25en%2D1]/"),
    ],
)
def test_ipv6_zone_ids(url: str, expected: str) -> None:
    assert normalize_url(url) == expected


@pytest.mark.parametrize("zone", ["", "25", "a<b", "a>b", "a b", "a%zz", "a/b"])
def test_bad_ipv6_zone_ids_are_invalid(zone: str) -> None:
    with pytest.raises(InvalidURL):
        normalize_url(f"http://[fe80::1%{zone}]/")


def test_raw_bytes_are_escaped_as_the_bytes_they_were() -> None:
    raw = b"https://a.example/p\xff\xe9?q=\xfe&r=\xc3\xa9#!/\x80".decode("utf-8", "surrogateescape")
    assert normalize_url(raw) == "https://a.example/p%FF%E9?q=%FE&r=%C3%A9#!/%80"
    # a lone surrogate that no byte stands for keeps its own (WTF-8) bytes
    assert normalize_url("https://a.example/\ud800") == "https://a.example/%ED%A0%80"


def test_long_inputs_are_not_held_by_the_caches() -> None:
    # Before, the caches were bounded by entries only: 36,000 URLs with 4 KB paths held
    # about 290 MB, and a host of any length was cached. A long host, path, query or name
    # is now worked out each time and never held.
    norm = MIQPSNormalizer()
    norm.normalize("https://warm.example/p?q=%7e")  # the rules, read once, are not counted
    count = 100
    gc.collect()
    tracemalloc.start()
    try:
        for n in range(count):
            host = f"h{n}." + "x" * 4000 + ".example"
            path = f"/{n}/" + "a%7e" * 1000
            query = f"n{n}" + "n" * 1000 + "=1&q=" + f"{n}%7e" * 1000
            assert norm.normalize(f"https://{host}{path}?{query}").startswith("https://h")
        gc.collect()
        held = tracemalloc.get_traced_memory()[0]
    finally:
        tracemalloc.stop()
    # About 40 KB of text a URL; 100 URLs held would be some 4 MB.
    assert held < 1_000_000, held
