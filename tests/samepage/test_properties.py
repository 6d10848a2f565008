"""Property tests: on any string, public functions normalise, pass through, or raise InvalidURL."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from samepage import InvalidURL, MIQPSNormalizer, normalize_url, pattern_key, same_page

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
    st.sampled_from([*"aAzZ09-._~!$&'()*+,;=:@/?#%[]\\ \t\né€", "%2e", "%7E", "%zz", "..", "/./"]),
    max_size=12,
).map("".join)
_names = st.sampled_from(
    ["id", "ref", "sid", "utm_source", "UTM_Medium", "fbclid", "v", "si", "q", "", "a b", "%69d"]
)
_values = st.sampled_from(["1", "twitter", "main", "", "a%20b", "x+y", "%zz", "é", "=="])
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
        ]
    ),
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


@settings(max_examples=400, deadline=None)
@given(st.one_of(_urls, st.text(max_size=40)))
def test_default_normalizer_is_total_and_idempotent(url: str) -> None:
    _check(MIQPSNormalizer(), url)
    try:
        assert same_page(url, normalize_url(url))
        pattern_key(url)
    except InvalidURL:
        pass


@settings(max_examples=300, deadline=None)
@given(_urls)
def test_learned_normalizer_is_total_and_idempotent(url: str) -> None:
    _check(_LEARNED, url)


@settings(max_examples=200, deadline=None)
@given(
    st.text(alphabet=st.characters(codec="utf-8"), max_size=60).map(
        lambda s: "https://example.com/" + s
    )
)
def test_arbitrary_paths_and_queries(url: str) -> None:
    _check(MIQPSNormalizer(), url)
