"""Generated rule files: normalize(), static_url() and explain() apply the same rewrites."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from samepage import MIQPSNormalizer
from samepage._rewrite import session_triggers
from samepage.rules import RuleSet
from tests.plugins.properties import examples

# Characters a normalised path carries as they are, "/" aside.
_PATH_CHARS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.~;=()!*:@,$+'"
_literal = st.text(_PATH_CHARS, min_size=1, max_size=4).map(re.escape)
_piece = st.one_of(
    _literal,
    st.sampled_from(["[0-9]", "[a-z]", "[0-9a-f]", "[;!]", "[-_]", "."]),
    st.tuples(st.sampled_from(["[0-9]", "[a-z]", "x"]), st.integers(1, 6)).map(
        lambda t: f"{t[0]}{{1,{t[1]}}}"
    ),
    st.tuples(_literal, _literal).map(lambda t: f"(?:{t[0]}|{t[1]})"),
    _literal.map(lambda text: f"(?:{text})?"),
)
_regex = st.tuples(st.sampled_from(["", "/"]), st.lists(_piece, min_size=1, max_size=5)).map(
    lambda t: t[0] + "".join(t[1])
)


@st.composite
def _rule_file_and_url(draw: st.DrawFn) -> tuple[dict[str, object], str]:
    regexes = draw(st.lists(_regex, min_size=1, max_size=3))
    rules = {
        "format": "samepage.rules",
        "version": 1,
        "path_sessions": [{"id": f"r{i}", "regex": r} for i, r in enumerate(regexes)],
    }
    chosen = draw(st.sampled_from(regexes))
    session = draw(st.from_regex(re.compile(chosen, re.IGNORECASE), fullmatch=True))
    segments = draw(st.lists(st.text(_PATH_CHARS, min_size=1, max_size=6), max_size=3))
    where = draw(st.integers(0, len(segments)))
    path = "/".join(segments[:where]) + session + "/".join(segments[where:])
    return rules, f"https://site.example/{path}"


@pytest.mark.slow
@settings(max_examples=examples(400), deadline=None)
@given(_rule_file_and_url())
def test_the_three_entry_points_apply_a_rule_files_path_rules_alike(
    case: tuple[dict[str, object], str],
) -> None:
    rules, url = case
    if not all(c in _PATH_CHARS + "/:" for c in url):
        return  # a generated match outside the path's own characters
    norm = MIQPSNormalizer(rules=RuleSet.from_json(rules))
    key = norm.normalize(url)
    assert norm.static_url(url) == key
    trace = norm.explain(url)
    assert trace.result == key
    if trace.rewrites:
        assert trace.rewrites[-1].after == key


def test_a_path_session_rule_of_another_shape_is_applied_by_normalize() -> None:
    # Before: normalize() looked for a rewrite only when the path held ";" or "(".
    rules = RuleSet.from_json(
        {
            "format": "samepage.rules",
            "version": 1,
            "path_sessions": [{"id": "sid", "regex": "/sid-[0-9]{4}(?=/|$)"}],
        }
    )
    norm = MIQPSNormalizer(rules=rules)
    url = "https://shop.example/cart/sid-1234/item"
    assert norm.normalize(url) == "https://shop.example/cart/item"
    assert norm.static_url(url) == "https://shop.example/cart/item"
    assert norm.normalize("https://shop.example/cart/sid-12/item").endswith("/sid-12/item")


def test_triggers_are_derived_from_the_rules() -> None:
    def triggers(*regexes: str) -> tuple[str, str]:
        rules = RuleSet.from_json(
            {
                "format": "samepage.rules",
                "version": 1,
                "path_sessions": [{"id": str(i), "regex": r} for i, r in enumerate(regexes)],
            }
        )
        return session_triggers(rules.path_sessions)

    assert triggers(";jsessionid=[0-9a-z]+") == (";", "#")
    assert triggers("/(?:a|b)x") == ("", "")  # letters and "/" prove nothing: always look
    assert triggers("(?:;|!)x") == ("!", ";")
    assert triggers(";a", "!b", "~c") == ("", "")  # three characters: always look
    assert triggers() == ("#", "#")
