"""Generated learned sets: every key normalises to itself, and explain() accounts for it."""

from __future__ import annotations

import contextlib
import io
import json
import tempfile
import time
from collections.abc import Iterator
from itertools import product
from pathlib import Path
from typing import Any
from unittest import mock

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from samepage import (
    LearnedFormatError,
    LearnedSet,
    MIQPSNormalizer,
    _conflicts,
    dump_learned,
    load_learned,
)
from samepage.cli import main
from samepage.learned import dumps_learned, parse_json
from tests.plugins.properties import examples

_NAMES = ("a", "b", "c", "ref")  # "ref" is also an ambiguous name: dropped for "twitter"
_VALUES = ("1", "2", "twitter", "")  # "" is the value of "a=", never of a bare "a"
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
def _pattern(draw: st.DrawFn, names: list[str], every: bool = False) -> dict[str, Any]:
    """A pattern of ``names``: a verdict for some of them (``every``: for each)."""
    recorded = names if every or not names else draw(st.lists(st.sampled_from(names), unique=True))
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
    st.tuples(st.sampled_from((*_NAMES, "utm_source")), st.sampled_from((*_VALUES, None))),
    max_size=5,
).map(lambda pairs: "&".join(n if v is None else f"{n}={v}" for n, v in pairs))  # None: bare


@pytest.mark.slow
@settings(max_examples=examples(1000), deadline=None)
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
    kept = sorted(f"{p.name}={p.value}".removesuffix("=") for p in trace.params if p.kept)
    held = sorted(q.removesuffix("=") for q in key.partition("?")[2].split("&") if q)
    assert kept == held, (url, key)
    # A bare name is its own value: no learned default (not even "", which is "a=") drops it.
    pieces = [piece for piece in query.split("&") if piece]
    bare = [p for piece, p in zip(pieces, trace.params, strict=True) if "=" not in piece]
    assert not any(":default=" in p.rule for p in bare), (url, key)


# Candidate aliases of s.example: they cross between paths and queries, name the ambiguous
# "ref", overlap and chain; a generated set keeps those the reader accepts, in drawn order.
_ALIASES = (
    {"from": "/p?a={x}", "to": "/p/{x}"},
    {"from": "/q?ref={x}", "to": "/q/{x}"},
    {"from": "/p/{x}", "to": "/q?c={x}"},
    {"from": "/q", "to": "/p"},
    {"from": "/p?b=1", "to": "/q"},
    {"from": "/q/{x}", "to": "/p/{x}"},
    {"from": "/p?a={x}&b={y}", "to": "/r/{x}/{y}"},
    {"from": "/p/{x}", "to": "/p"},
    {"from": "/?ref={x}", "to": "/r/{x}"},
    {"from": "/r/{x}/{y}", "to": "/p?a={x}&c={y}"},
    {"host": "www.s.example", "to_host": "s.example"},
    {"host": "m.s.example", "to_host": "www.s.example"},
)
_ALIAS_PATHS = ("/", "/p", "/p/7", "/p/twitter", "/q", "/q/7", "/r/1/2")
_ALIAS_HOSTS = ("s.example", "www.s.example", "m.s.example")


@st.composite
def _aliased(
    draw: st.DrawFn, learned: st.SearchStrategy[dict[str, Any]] | None = None
) -> dict[str, Any]:
    """A generated learned set of s.example (``learned``'s) with aliases the reader accepts."""
    doc = draw(learned if learned is not None else _learned())
    doc["version"] = 2
    entry = doc["domains"]["s.example"]
    entry["aliases"] = []
    order = st.lists(st.sampled_from(range(len(_ALIASES))), unique=True, min_size=1, max_size=6)
    for i in draw(order):
        entry["aliases"].append(_ALIASES[i])
        try:
            load_learned(doc)
        except LearnedFormatError:
            entry["aliases"].pop()
    return doc


@settings(max_examples=examples(300), deadline=None)
@given(
    _aliased(),
    _query,
    st.sampled_from(_ALIAS_PATHS),
    st.sampled_from(_ALIAS_HOSTS),
    st.sampled_from(["shared", "keep", "domain"]),
)
def test_every_key_normalises_to_itself_with_aliases(
    doc: dict[str, Any], query: str, path: str, host: str, fallback: str
) -> None:
    norm = MIQPSNormalizer(learned=doc, learned_fallback=fallback)  # type: ignore[arg-type]
    url = f"https://{host}{path}?{query}"
    key = norm.normalize(url)
    assert norm.normalize(key) == key, (url, key)
    trace = norm.explain(url)
    assert trace.result == key
    kept = sorted(f"{p.name}={p.value}".removesuffix("=") for p in trace.params if p.kept)
    held = sorted(q.removesuffix("=") for q in key.partition("?")[2].split("&") if q)
    assert kept == held, (url, key)
    # The last rewrite explain shows is the URL the key was filtered from.
    if trace.rewrites:
        assert trace.rewrites[-1].after.partition("?")[0] == key.partition("?")[0], (url, key)
    assert norm.normalize_many([url, key]) == [key, key]


_NUMBERS = st.one_of(
    st.integers(-3, 10),
    st.integers(2**63 - 2, 2**63 + 2),
    st.sampled_from([10**400, -(10**331), int("9" * 331), 10**4299, 2**1100]),
    st.floats(allow_nan=True, allow_infinity=True),
    st.booleans(),
    st.none(),
)
_NUMBER_KEYS = ("tested", "changed", "failed", "urls", "threshold", "share", "classes_seen")


@st.composite
def _with_numbers(draw: st.DrawFn) -> dict[str, Any]:
    """A generated learned set with numbers of every size and kind where numbers go."""
    doc = draw(_learned())
    objects: list[dict[str, Any]] = []
    stack: list[Any] = [doc]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            objects.append(item)
            stack.extend(item.values())
    for found in objects:
        if "verdict" in found and draw(st.booleans()):
            values = {"share": draw(_NUMBERS), "urls": draw(_NUMBERS)}
            values["classes_seen"] = draw(_NUMBERS)
            found["coverage"] = {"values": {"a": values, "b": {"share": draw(_NUMBERS)}}}
    for _ in range(draw(st.integers(1, 4))):
        target = draw(st.sampled_from(objects))
        target[draw(st.sampled_from(_NUMBER_KEYS))] = draw(_NUMBERS)
    if draw(st.booleans()):
        doc["settings"] = {"threshold": draw(_NUMBERS)}
    return doc


@settings(max_examples=examples(300), deadline=None)
@given(_with_numbers(), _query, st.sampled_from(_PATHS))
def test_numbers_of_any_size_give_a_format_error_or_a_working_set(
    doc: dict[str, Any], query: str, path: str
) -> None:
    # Before, a 331-digit share crashed every normalize of its pattern (OverflowError
    # formatting a rule's detail) and a count of 10**400 crashed the reader.
    try:
        learned = load_learned(doc)
    except LearnedFormatError:
        return
    norm = MIQPSNormalizer(learned=learned)
    url = f"https://s.example{path}?{query}"
    key = norm.normalize(url)
    assert norm.normalize(key) == key
    assert all(isinstance(p.source, str) for p in norm.explain(url).params)
    learned.conflicts()
    with contextlib.suppress(LearnedFormatError):
        dumps_learned(learned)  # or writes what the reader reads


@settings(max_examples=examples(200), deadline=None)
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


def _every_combination(
    choices: list[list[str]], own: list[frozenset[str]], joint: list[bool]
) -> Iterator[tuple[list[str], bool]]:
    """Every combination of the probe values: the listing as it was, (d + 1) ** n probes."""
    return ((list(chosen), False) for chosen in product(*choices))


@settings(max_examples=examples(300), deadline=None)
@given(_learned())
def test_the_probes_list_what_every_combination_lists(doc: dict[str, Any]) -> None:
    # The listing probes a few combinations of values per pattern instead of all of them;
    # it must find exactly the conflicts all of them show.
    learned = load_learned(doc)
    with mock.patch.object(_conflicts, "_probes", _every_combination):
        every = learned.conflicts()
    assert learned.conflicts() == every


def _many_defaults(joint: int) -> dict[str, Any]:
    """One pattern of 11 parameters with 3 defaults each, ``joint`` of them proven together,
    and the patterns left without each of them, where the others' defaults are new."""
    names = [f"p{i:02}" for i in range(11)]

    def verdict(values: list[str]) -> dict[str, Any]:
        defaults = {v: {"tested": 3} for v in values}
        return {"verdict": "non-neutral", "tested": 3, "changed": 3, "defaults": defaults}

    patterns: dict[str, Any] = {
        "&".join(names): {
            "urls": 9,
            "params": {n: verdict(["1", "2", "3"]) for n in names},
        }
    }
    if joint:
        patterns["&".join(names)]["joint_defaults"] = {"names": names[:joint], "tested": 2}
    for gone in names:
        rest = [n for n in names if n != gone]
        patterns["&".join(rest)] = {"urls": 3, "params": {n: verdict(["4"]) for n in rest}}
    return _set(patterns)


@pytest.mark.parametrize("joint", [0, 8, 11])
def test_conflicts_of_a_pattern_with_many_defaults_are_listed_quickly(joint: int) -> None:
    # Before, the listing tried (3 + 1) ** 11 = 4 million URLs and gave no answer in 60 s.
    learned = load_learned(_many_defaults(joint))
    started = time.process_time()
    conflicts = learned.conflicts()
    assert time.process_time() - started < 2
    # p00=1 goes alone and leaves pattern "p01&...&p10", where p01=4 (no default of the
    # first pattern) would go too, and so would each other parameter at 4.
    into = {c.into: c.names for c in conflicts if c.pattern.count("&") == 10}
    assert into["&".join(f"p{i:02}" for i in range(1, 11))] == tuple(
        f"p{i:02}=4" for i in range(1, 11)
    )


def _huge(field: str, value: Any) -> dict[str, Any]:
    """A set whose pattern ``a`` has ``value`` for ``field`` of its neutral verdict."""
    verdict: dict[str, Any] = {"verdict": "neutral", "tested": 3}
    if field == "share":
        verdict["coverage"] = {"values": {"b": {"share": value, "urls": 3}}}
    else:
        verdict[field] = value
    return _set({"a": {"urls": 3, "params": {"a": verdict}}})


@settings(max_examples=examples(50), deadline=None)
@given(_with_numbers(), _query, st.sampled_from(_PATHS))
@example(_huge("tested", 10**400), "a=1", "/p")
@example(_huge("share", int("9" * 331)), "a=1", "/p")
def test_the_command_line_reads_a_learned_file_or_exits_2(
    doc: dict[str, Any], query: str, path: str
) -> None:
    # Whatever numbers a learned file holds, normalize and explain answer or exit 2 naming
    # the problem: never a traceback (before: OverflowError, exit 1).
    url = f"https://s.example{path}?{query}"
    with tempfile.TemporaryDirectory() as folder:
        learned = Path(folder) / "learned.json"
        learned.write_text(json.dumps(doc), encoding="utf-8")  # NaN and Infinity included
        urls = Path(folder) / "urls.txt"
        urls.write_text(url + "\n", encoding="utf-8")
        try:
            load_learned(learned)
            expected = 0
        except LearnedFormatError:
            expected = 2
        given = ["--learned", str(learned)]
        for args in (["normalize", *given, str(urls)], ["explain", *given, "--json", "--", url]):
            out, err = io.StringIO(), io.StringIO()
            with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
                status = main(args)
            assert status == expected, err.getvalue()
            assert "Traceback" not in err.getvalue()
