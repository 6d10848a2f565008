"""Generated learned sets: every key normalises to itself, and explain() accounts for it."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from samepage import LearnedSet, MIQPSNormalizer, dump_learned, load_learned
from samepage.learned import dumps_learned, parse_json

_NAMES = ("a", "b", "c", "ref")  # "ref" is also an ambiguous name: dropped for "twitter"
_VALUES = ("1", "2", "twitter")
_TEMPLATES = ("/p", "/p/{id}")
_PATHS = ("/p", "/p/7", "/q")  # a template with no scope: /q


@st.composite
def _scopes(draw: st.DrawFn, names: list[str]) -> dict[str, Any]:
    """Template scopes over ``names``: a verdict for some of them on some templates."""
    out: dict[str, Any] = {}
    for template in draw(st.lists(st.sampled_from(_TEMPLATES), unique=True)):
        scoped = draw(st.lists(st.sampled_from(names), unique=True)) if names else []
        out[template] = {"urls": 1, "params": {name: draw(_verdict_json()) for name in scoped}}
    return out


@st.composite
def _verdict_json(draw: st.DrawFn) -> dict[str, Any]:
    tested = draw(st.integers(1, 5))
    if draw(st.booleans()):
        return {"verdict": "neutral", "tested": tested, "changed": 0}
    out: dict[str, Any] = {"verdict": "non-neutral", "tested": tested, "changed": tested}
    values = draw(st.lists(st.sampled_from(_VALUES), unique=True, max_size=2))
    if values:
        out["defaults"] = {v: {"tested": draw(st.integers(1, 4))} for v in values}
    return out


@st.composite
def _pattern(draw: st.DrawFn, names: list[str]) -> dict[str, Any]:
    recorded = draw(st.lists(st.sampled_from(names), unique=True)) if names else []
    params = {name: draw(_verdict_json()) for name in recorded}
    out: dict[str, Any] = {"urls": draw(st.integers(0, 9)), "params": params}
    templates = draw(_scopes(names))
    if templates:
        out["templates"] = templates
    with_defaults = sorted(n for n, v in params.items() if "defaults" in v)
    if len(with_defaults) >= 2 and draw(st.booleans()):
        joint = draw(st.lists(st.sampled_from(with_defaults), min_size=2, unique=True))
        out["joint_defaults"] = {"names": sorted(joint), "tested": 2}
    return out


@st.composite
def _learned(draw: st.DrawFn) -> dict[str, Any]:
    # Patterns nested in each other, as a learner finds them: subsets of a few names.
    base = draw(st.lists(st.sampled_from(_NAMES), unique=True, min_size=1, max_size=3))
    keys = draw(
        st.lists(
            st.lists(st.sampled_from(base), unique=True).map(lambda n: "&".join(sorted(n))),
            unique=True,
            min_size=1,
            max_size=8,
        )
    )
    doc = _set({key: draw(_pattern(key.split("&") if key else [])) for key in keys})
    shared = draw(_scopes(list(_NAMES)))
    if shared:
        doc["domains"]["s.example"]["shared"] = shared
    return doc


def _set(patterns: dict[str, Any]) -> dict[str, Any]:
    """A learned-set document of the host s.example."""
    return {
        "format": "samepage.learned",
        "version": 1,
        "domains": {"s.example": {"patterns": patterns}},
    }


_query = st.lists(
    st.tuples(st.sampled_from((*_NAMES, "utm_source")), st.sampled_from(_VALUES)), max_size=5
).map(lambda pairs: "&".join(f"{n}={v}" for n, v in pairs))


@pytest.mark.slow
@settings(max_examples=1000, deadline=None)
@given(_learned(), _query, st.sampled_from(_PATHS), st.sampled_from(["shared", "keep", "domain"]))
def test_every_key_normalises_to_itself(
    doc: dict[str, Any], query: str, path: str, fallback: str
) -> None:
    norm = MIQPSNormalizer(learned=doc, learned_fallback=fallback)  # type: ignore[arg-type]
    url = f"https://s.example{path}?{query}"
    key = norm.normalize(url)
    assert norm.normalize(key) == key, (url, key)
    # explain() keeps exactly the parameters the key holds.
    trace = norm.explain(url)
    kept = sorted(f"{p.name}={p.value}" for p in trace.params if p.kept)
    held = sorted(q for q in key.partition("?")[2].split("&") if q)
    assert kept == held, (url, key)


@settings(max_examples=200, deadline=None)
@given(_learned())
def test_what_the_writer_writes_the_reader_reads(doc: dict[str, Any]) -> None:
    learned = load_learned(doc)
    text = dumps_learned(learned)
    again = LearnedSet.from_json(parse_json(text, "again"))
    assert again.domains == learned.domains


def test_a_parameter_that_matters_only_beside_another_is_not_merged_on_renormalising(
    tmp_path: Any,
) -> None:
    # Pattern a&b: a neutral, b matters; pattern b: b neutral (it matters only beside a).
    # Before: p?a=1&b=2 became p?b=2, and that key became p, merging b=2 with b=3.
    doc = _set(
        {
            "a&b": {
                "urls": 3,
                "params": {
                    "a": {"verdict": "neutral", "tested": 3},
                    "b": {"verdict": "non-neutral", "tested": 3, "changed": 3},
                },
            },
            "b": {"urls": 3, "params": {"b": {"verdict": "neutral", "tested": 3}}},
        }
    )
    path = tmp_path / "learned.json"
    dump_learned(load_learned(doc), path)
    norm = MIQPSNormalizer(learned=path)
    two, three = (norm.normalize(f"https://s.example/p?a=1&b={v}") for v in (2, 3))
    assert two == "https://s.example/p?a=1&b=2"
    assert norm.normalize(two) == two and norm.normalize(three) != norm.normalize(two)
    assert norm.normalize("https://s.example/p?b=2") == "https://s.example/p"
    rule = next(p.rule for p in norm.explain(two).params if p.name == "a")
    assert rule == "learned:s.example:a&b:a:conflict"


def test_conflicts_are_listed_by_the_check_normalize_makes() -> None:
    # a&b drops a; on /c/{id}, pattern b (not in the file) meets the shared evidence, which
    # drops b: normalize keeps a there, and the listing says so.
    def verdict(kind: str) -> dict[str, Any]:
        return {"verdict": kind, "tested": 3, "changed": 3 * (kind != "neutral")}

    doc = _set(
        {"a&b": {"urls": 3, "params": {"a": verdict("neutral"), "b": verdict("non-neutral")}}}
    )
    doc["domains"]["s.example"]["shared"] = {
        "/c/{id}": {"params": {"b": {**verdict("neutral"), "patterns": ["b"]}}}
    }
    conflicts = load_learned(doc).conflicts()
    assert [(c.pattern, c.into, c.names, c.template) for c in conflicts] == [
        ("a&b", "b", ("b",), "/c/{id}")
    ]
    norm = MIQPSNormalizer(learned=doc)
    assert norm.normalize("https://s.example/c/1?a=1&b=2") == "https://s.example/c/1?a=1&b=2"
    assert norm.normalize("https://s.example/d?a=1&b=2") == "https://s.example/d?b=2"
    rule = next(p.rule for p in norm.explain("https://s.example/c/1?a=1&b=2").params)
    assert rule == "learned:s.example:a&b@/c/{id}:a:conflict"


def test_conflicts_list_the_neutral_and_the_default_cases() -> None:
    def verdict(kind: str, **defaults: int) -> dict[str, Any]:
        out: dict[str, Any] = {"verdict": kind, "tested": 3, "changed": 3 * (kind != "neutral")}
        if defaults:
            out["defaults"] = {v: {"tested": n} for v, n in defaults.items()}
        return out

    doc = _set(
        {
            # page=1 is a default here; dropping it leaves pattern "q"...
            "page&q": {"urls": 3, "params": {"page": verdict("non-neutral", **{"1": 2})}},
            # ...where q=x is a default that "page&q" never proved.
            "q": {"urls": 3, "params": {"q": verdict("non-neutral", x=2)}},
            "q&s": {"urls": 3, "params": {"s": verdict("neutral")}},
        }
    )
    conflicts = load_learned(doc).conflicts()
    assert [(c.pattern, c.into, c.names) for c in conflicts] == [
        ("page&q", "q", ("q=x",)),
        ("q&s", "q", ("q=x",)),
    ]
    norm = MIQPSNormalizer(learned=doc)
    key = norm.normalize("https://s.example/p?page=1&q=x")
    assert key == "https://s.example/p?page=1&q=x" and norm.normalize(key) == key
