"""Property tests: on any string, public functions normalise, pass through, or raise InvalidURL."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from samepage import InvalidURL, MIQPSNormalizer, normalize_url, pattern_key, same_page
from tests.plugins.properties import examples

_LEARNED = MIQPSNormalizer(
    learned={
        "format": "samepage.learned",
        "version": 1,
        "domains": {
            "shop.example": {
                "patterns": {
                    "id&ref&sid": {
                        "urls": 3,
                        "params": {
                            "id": {
                                "verdict": "non-neutral",
                                "tested": 3,
                                "changed": 3,
                                "failed": 0,
                            },
                            "ref": {
                                "verdict": "non-neutral",
                                "tested": 3,
                                "changed": 3,
                                "failed": 0,
                            },
                            "sid": {"verdict": "neutral", "tested": 3, "changed": 0, "failed": 0},
                        },
                    }
                }
            }
        },
    },
    learned_fallback="domain",
)

_component = st.lists(
    st.sampled_from(
        [
            *"aAzZ09-._~!$&'()*+,;=:@/?#%[]\\ \t\né€",
            *("%2e", "%7E", "%zz", "..", "/./", "url", "l.php", "redirect", "dp/", "gp/product/"),
            *(";jsessionid=0A1B2C3D4E5F60718293A4B5C6D7E8F9", "(S(lit3py55t21z5v55vlm25s55))/"),
            *("B08N5WRWNW", "dQw4w9WgXcQ"),
        ]
    ),
    max_size=12,
).map("".join)
_names = st.sampled_from(
    [
        *("id", "ref", "sid", "utm_source", "UTM_Medium", "fbclid", "v", "si", "q", "", "a b"),
        *("%69d", "u", "url", "PHPSESSID", "CFID", "CFTOKEN", "_pos", "_sid"),
    ]
)
# Wrapper targets: absolute, relative, nested, broken, and pointing at an alias.
_TARGETS = [
    "https%3A%2F%2Fnews.example%2Fa%3Fid%3D1%26utm_source%3Dx",
    "https://shop.example/p?x=1",
    "%2Fsearch%3Fq%3Dx",
    "https%3A%2F%2Fyoutu.be%2FdQw4w9WgXcQ%3Fsi%3Dx",
    "https%3A%2F%2Fwww.google.com%2Furl%3Fq%3Dhttps%253A%252F%252Fa.example%252F",
    "https%3A%2F%2F",
    "https%3A%2F%2Fexample.com..%2Fx",
    "http%3A%2F%2F%5B%3A%3A1%5D%3A99999%2F",
]
_values = st.sampled_from(
    [
        *("1", "twitter", "main", "", "a%20b", "x+y", "%zz", "é", "==", "0123456789abcdef" * 2),
        *("2f6c1e7fd0a9b8c3d4e5f6a7b8", "3f2a9c1de", *_TARGETS),
    ]
)
# Hosts that end in a run of dots: every pass must give the same key.
_dot_hosts = st.sampled_from(["example.com", "www.google.com", "youtu.be", "a", "127.0.0.1"])
_pair = st.builds(lambda n, v, eq: f"{n}={v}" if eq else n, _names, _values, st.booleans())
_urls = st.builds(
    lambda scheme, host, port, path, pairs, frag: (
        f"{scheme}://{host}{port}{path}?{'&'.join(pairs)}{frag}"
    ),
    st.sampled_from(["http", "https", "HTTP", "Https", "ftp", "mailto"]),
    st.sampled_from(
        [
            "shop.example",
            "WWW.Shop.Example",
            "youtube.com",
            "bücher.de",
            "[::1]",
            "127.0.0.1",
            "0x7f.1",
            "a..b",
            "",
            "ex ample.com",
            "example.com.",
            "%65x.com",
            "www.google.com",
            "l.facebook.com",
            "youtu.be",
            "m.youtube.com",
            "www.amazon.com",
            "twitter.com",
        ]
    )
    | st.builds(lambda name, dots: name + "." * dots, _dot_hosts, st.integers(1, 6)),
    st.sampled_from(["", ":80", ":443", ":8080", ":", ":99999", ":x"]),
    _component.map(lambda p: "/" + p),
    st.lists(_pair, max_size=5),
    st.sampled_from(["", "#top", "#!/a/b", "#/x", "#"]),
)


def _check(norm: MIQPSNormalizer, url: str) -> None:
    try:
        once = norm.normalize(url)
    except InvalidURL:
        return
    assert norm.normalize(once) == once, (url, once)
    if once == url and not url.lower().startswith("http"):
        return
    norm.explain(url)
    if once.startswith("http"):
        static = norm.static_url(url)
        assert norm.static_url(static) == static
        assert norm.pattern_key(static) == norm.pattern_key(url)
        assert norm.normalize(static) == once


@pytest.mark.slow
@settings(max_examples=examples(400), deadline=None)
@given(st.one_of(_urls, st.text(max_size=40)))
def test_default_normalizer_is_total_and_idempotent(url: str) -> None:
    _check(MIQPSNormalizer(), url)
    try:
        assert same_page(url, normalize_url(url))
        pattern_key(url)
    except InvalidURL:
        pass


@settings(max_examples=examples(300), deadline=None)
@given(_urls)
def test_learned_normalizer_is_total_and_idempotent(url: str) -> None:
    _check(_LEARNED, url)


@settings(max_examples=examples(200), deadline=None)
@given(
    st.text(alphabet=st.characters(codec="utf-8"), max_size=60).map(
        lambda s: "https://example.com/" + s
    )
)
def test_arbitrary_paths_and_queries(url: str) -> None:
    _check(MIQPSNormalizer(), url)
