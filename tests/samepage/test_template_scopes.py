"""Template scopes and shared evidence: the reader checks them, the normalizer applies them."""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from samepage import (
    LearnedFormatError,
    LearnedSet,
    MIQPSNormalizer,
    dump_learned,
    load_learned,
    path_template,
)
from samepage.learned import dumps_learned
from samepage.normalizer import Fallback
from tests.plugins.engines import engine
from tests.plugins.properties import examples

HOST = "t.example"


def _v(verdict: str, tested: int = 3, **extra: Any) -> dict[str, Any]:
    changed = 0 if verdict == "neutral" else tested
    return {"verdict": verdict, "tested": tested, "changed": changed, "failed": 0, **extra}


def _defaults(*values: str) -> dict[str, Any]:
    return {value: {"tested": 3, "changed": 0, "failed": 0} for value in values}


DOC: dict[str, Any] = {
    "format": "samepage.learned",
    "version": 1,
    "domains": {
        HOST: {
            "patterns": {
                # sort orders the table (/t/items) and is noise on a row (/t/items/42); the
                # pattern-level verdict is non-neutral, so templates without a scope keep it.
                "sort": {
                    "urls": 20,
                    "params": {"sort": _v("non-neutral")},
                    "templates": {
                        "/t/items": {"urls": 10, "params": {"sort": _v("non-neutral")}},
                        "/t/items/{id}": {"urls": 10, "params": {"sort": _v("neutral")}},
                    },
                },
                # page=1 is the default of a listing; on a search result page=0 is.
                "page&q": {
                    "urls": 12,
                    "params": {
                        "page": _v("non-neutral", defaults=_defaults("1")),
                        "q": _v("non-neutral"),
                    },
                    "templates": {
                        "/s/{id}": {
                            "urls": 6,
                            "params": {
                                "page": _v("non-neutral", defaults=_defaults("0")),
                                "q": _v("non-neutral", defaults=_defaults("all")),
                            },
                        }
                    },
                },
                # b matters beside a only on /c: on /c/{id}, a and then b are neutral.
                "a&b": {
                    "urls": 5,
                    "params": {"a": _v("non-neutral"), "b": _v("non-neutral")},
                    "templates": {"/c/{id}": {"urls": 3, "params": {"a": _v("neutral")}}},
                },
                "b": {
                    "urls": 5,
                    "params": {"b": _v("non-neutral")},
                    "templates": {"/c/{id}": {"urls": 3, "params": {"b": _v("neutral")}}},
                },
            },
            "shared": {
                "/t/items/{id}": {
                    "urls": 40,
                    "params": {
                        "sort": _v("neutral", patterns=["color&sort", "sort"]),
                        "view": _v(
                            "non-neutral",
                            defaults=_defaults("grid"),
                            patterns=["color&view", "lang&view"],
                        ),
                        "lang": _v("non-neutral", defaults=_defaults("en"), patterns=["lang&view"]),
                    },
                },
                # x is noise on /c/{id}, where pattern b's scope drops b: see the conflicts.
                "/c/{id}": {"urls": 6, "params": {"x": _v("neutral", patterns=["b&x"])}},
            },
        }
    },
}


@pytest.fixture(scope="module")
def norm() -> MIQPSNormalizer:
    return MIQPSNormalizer(learned=DOC)


def _url(path_query: str) -> str:
    return f"https://{HOST}{path_query}"


@pytest.mark.parametrize(
    "url, key",
    [
        # the scope of each template decides
        ("/t/items?sort=x", "/t/items?sort=x"),
        ("/t/items/42?sort=x", "/t/items/42"),
        ("/t/items/43.html?sort=x", "/t/items/43.html?sort=x"),  # /t/items/{id}.html: no scope
        # a template with no scope keeps the pattern-level (non-neutral) verdict
        ("/t/other/7?sort=x", "/t/other/7?sort=x"),
        ("/t?sort=x", "/t?sort=x"),
        # scoped defaults replace the pattern's: page=0 on /s/{id}, page=1 elsewhere
        ("/s/5?q=a&page=0", "/s/5?q=a"),
        ("/s/5?q=a&page=1", "/s/5?page=1&q=a"),
        ("/s?q=a&page=1", "/s?q=a"),
        ("/s?q=a&page=0", "/s?page=0&q=a"),
        # two scoped defaults on one URL: not proven together, both kept
        ("/s/5?q=all&page=0", "/s/5?page=0&q=all"),
        ("/s/5?q=all&page=2", "/s/5?page=2"),
    ],
)
def test_a_scope_decides_on_its_template_only(norm: MIQPSNormalizer, url: str, key: str) -> None:
    assert norm.normalize(_url(url)) == _url(key)


@pytest.mark.parametrize(
    "url, key",
    [
        # unseen pattern color&sort on a learned host: the shared evidence of /t/items/{id}
        ("/t/items/42?sort=x&color=red", "/t/items/42?color=red"),  # neutral dropped, color kept
        ("/t/items/42?view=grid&color=red", "/t/items/42?color=red"),  # a shared default
        ("/t/items/42?view=list&color=red", "/t/items/42?color=red&view=list"),  # not a default
        ("/t/items/42?view=grid&lang=en", "/t/items/42?lang=en&view=grid"),  # one default a URL
        # sort was never seen beside view, nor view beside sort: both kept
        ("/t/items/42?sort=x&view=grid", "/t/items/42?sort=x&view=grid"),
        ("/t/items/42?sort=x&color=red&view=grid", "/t/items/42?color=red&sort=x&view=grid"),
        ("/t/items/42?view=grid&view=grid", "/t/items/42?view=grid&view=grid"),  # repeated
        # a template the shared section does not hold keeps every parameter
        ("/t/items?sort=x&color=red", "/t/items?color=red&sort=x"),
        ("/t/other/7?sort=x&color=red", "/t/other/7?color=red&sort=x"),
    ],
)
def test_shared_evidence_decides_unseen_patterns(norm: MIQPSNormalizer, url: str, key: str) -> None:
    assert norm.normalize(_url(url)) == _url(key)


def test_keep_ignores_shared_evidence_and_domain_reads_it_first() -> None:
    keep = MIQPSNormalizer(learned=DOC, learned_fallback="keep")
    url = _url("/t/items/42?sort=x&color=red&view=grid")
    assert keep.normalize(url) == _url("/t/items/42?color=red&sort=x&view=grid")
    assert keep.explain(url).params[0].layer == "default"
    # the domain fallback keeps sort (non-neutral in pattern sort), but shared evidence
    # for /t/items/{id} comes first and drops it
    domain = MIQPSNormalizer(learned=DOC, learned_fallback="domain")
    assert domain.normalize(_url("/t/items/42?sort=x&color=red")) == _url("/t/items/42?color=red")


def test_a_file_without_shared_behaves_as_before_under_every_fallback() -> None:
    doc = copy.deepcopy(DOC)
    del doc["domains"][HOST]["shared"]
    url = _url("/t/items/42?sort=x&color=red")
    fallbacks: tuple[Fallback, ...] = ("shared", "keep", "domain")
    for fallback in fallbacks:
        norm = MIQPSNormalizer(learned=doc, learned_fallback=fallback)
        assert norm.normalize(url) == _url("/t/items/42?color=red&sort=x"), fallback


def test_the_default_fallback_is_shared() -> None:
    assert MIQPSNormalizer().learned_fallback == "shared"
    with pytest.raises(ValueError, match="'shared', 'keep' or 'domain'"):
        MIQPSNormalizer(learned_fallback="drop")  # type: ignore[arg-type]


def _rules(norm: MIQPSNormalizer, url: str) -> dict[str, tuple[bool, str, str]]:
    return {p.name: (p.kept, p.rule, p.source) for p in norm.explain(_url(url)).params}


def test_explain_names_the_scope(norm: MIQPSNormalizer) -> None:
    key = f"learned:{HOST}"
    assert _rules(norm, "/t/items/42?sort=x")["sort"][:2] == (
        False,
        f"{key}:sort@/t/items/{{id}}:sort:neutral",
    )
    assert _rules(norm, "/t/items?sort=x")["sort"][:2] == (
        True,
        f"{key}:sort@/t/items:sort:non-neutral",
    )
    assert _rules(norm, "/t/other/7?sort=x")["sort"][:2] == (True, f"{key}:sort:sort:non-neutral")
    assert _rules(norm, "/s/5?q=a&page=0")["page"][:2] == (
        False,
        f"{key}:page&q@/s/{{id}}:page:default=0",
    )
    assert _rules(norm, "/s/5?q=all&page=0")["page"][:2] == (
        True,
        f"{key}:page&q@/s/{{id}}:page:default-with-another",
    )
    shared = _rules(norm, "/t/items/42?sort=x&color=red")
    assert shared["sort"][:2] == (False, f"{key}:*@/t/items/{{id}}:sort:neutral")
    assert "2 pattern(s): 'color&sort', 'sort'" in shared["sort"][2]
    assert shared["color"][:2] == (True, "default:keep")
    shared = _rules(norm, "/t/items/42?view=grid&color=red")
    assert shared["view"][:2] == (False, f"{key}:*@/t/items/{{id}}:view:default=grid")
    assert "2 pattern(s): 'color&view', 'lang&view'" in shared["view"][2]
    unseen = _rules(norm, "/t/items/42?sort=x&color=red&view=grid")
    assert unseen["sort"][:2] == (True, f"{key}:*@/t/items/{{id}}:sort:unseen-companions")
    assert unseen["sort"][2] == (
        "kept: the shared evidence of 2 pattern(s): 'color&sort', 'sort' never had sort beside view"
    )
    assert unseen["view"][:2] == (True, f"{key}:*@/t/items/{{id}}:view:unseen-companions")
    two = _rules(norm, "/t/items/42?lang=en&view=grid")
    assert two["view"][:2] == (True, f"{key}:*@/t/items/{{id}}:view:default-with-another")


def test_a_conflict_inside_a_scope_keeps_and_every_key_is_its_own_key(
    norm: MIQPSNormalizer,
) -> None:
    # On /c/{id}, a&b drops a, leaving pattern b, whose scope drops b: a stays.
    assert norm.normalize(_url("/c/1?a=1&b=2")) == _url("/c/1?a=1&b=2")
    assert _rules(norm, "/c/1?a=1&b=2")["a"][:2] == (
        True,
        f"learned:{HOST}:a&b@/c/{{id}}:a:conflict",
    )
    assert norm.normalize(_url("/c/1?b=2")) == _url("/c/1")
    assert norm.normalize(_url("/c?a=1&b=2")) == _url("/c?a=1&b=2")
    # b&x is unseen: shared evidence drops x, leaving pattern b, whose scope drops b
    assert norm.normalize(_url("/c/1?b=2&x=9")) == _url("/c/1?b=2&x=9")
    assert _rules(norm, "/c/1?b=2&x=9")["x"][1] == f"learned:{HOST}:b&x@/c/{{id}}:x:conflict"
    conflicts = load_learned(DOC).conflicts()
    assert [(c.pattern, c.into, c.names, c.template) for c in conflicts] == [
        ("a&b", "b", ("b",), "/c/{id}")
    ]
    assert conflicts[0].to_json()["template"] == "/c/{id}"


IDEMPOTENCE_PATHS = ("/t/items", "/t/items/42", "/t/other/7", "/s", "/s/5", "/c", "/c/1", "/z")
IDEMPOTENCE_QUERIES = (
    "sort=x",
    "sort=x&color=red",
    "sort=x&view=grid",
    "view=grid&lang=en&sort=x",
    "q=a&page=0",
    "q=a&page=1",
    "q=all&page=0",
    "q=all&page=1",
    "a=1&b=2",
    "b=2",
    "b=2&x=9",
    "a=1&x=9",
    "a=1&b=2&x=9",
    "x=9",
    "ref=twitter&b=2",
)


@pytest.mark.parametrize("fallback", ["shared", "keep", "domain"])
def test_every_key_normalises_to_itself(fallback: str) -> None:
    norm = MIQPSNormalizer(learned=DOC, learned_fallback=fallback)  # type: ignore[arg-type]
    changed = 0
    for path in IDEMPOTENCE_PATHS:
        for query in IDEMPOTENCE_QUERIES:
            url = _url(f"{path}?{query}")
            key = norm.normalize(url)
            assert norm.normalize(key) == key, (url, key)
            kept = sorted(f"{p.name}={p.value}" for p in norm.explain(url).params if p.kept)
            assert kept == sorted(q for q in key.partition("?")[2].split("&") if q), url
            elsewhere = norm.normalize(_url(f"/elsewhere?{query}"))
            changed += key.partition("?")[2] != elsewhere.partition("?")[2]
    assert changed >= 5  # keys depend on the template: the checks above cover scopes


@pytest.mark.parametrize(
    "edit, where, problem",
    [
        (
            lambda d: d["patterns"]["sort"]["templates"].update({"/t/items/42": {"params": {}}}),
            "patterns['sort'].templates['/t/items/42']",
            "'/t/items/{id}'",
        ),
        (
            lambda d: d["shared"].update({"t/items": {"params": {}}}),
            "shared['t/items']",
            "a template is a path starting with '/'",
        ),
        (
            lambda d: d["patterns"]["sort"]["templates"]["/t/items"]["params"].update(
                {"color": _v("neutral")}
            ),
            "patterns['sort'].templates['/t/items'].params",
            "parameter 'color' is not in the pattern",
        ),
        (
            lambda d: d["patterns"]["sort"]["templates"]["/t/items"]["params"].update(
                {"sort": {"verdict": "maybe"}}
            ),
            "templates['/t/items'].params['sort'].verdict",
            "expected 'neutral' or 'non-neutral'",
        ),
        (
            lambda d: d["shared"]["/t/items/{id}"]["params"].update(
                {"sort": _v("neutral", defaults=_defaults("x"))}
            ),
            "shared['/t/items/{id}'].params['sort'].defaults",
            "a neutral parameter is dropped whatever its value",
        ),
        (
            lambda d: d["shared"]["/t/items/{id}"]["params"].update({"": _v("neutral")}),
            "shared['/t/items/{id}'].params",
            "'' is not a parameter name",
        ),
        (
            lambda d: d["shared"]["/t/items/{id}"]["params"].update({"a=b": _v("neutral")}),
            "shared['/t/items/{id}'].params",
            "'a=b' is not a parameter name",
        ),
        (
            lambda d: d["shared"]["/t/items/{id}"].update({"urls": "many"}),
            "shared['/t/items/{id}'].urls",
            "expected a non-negative integer, got 'many'",
        ),
        (
            lambda d: d["patterns"]["sort"]["templates"]["/t/items"].update({"urls": -1}),
            "templates['/t/items'].urls",
            "expected a non-negative integer, got -1",
        ),
        (
            lambda d: d["patterns"]["sort"].update({"templates": ["/t/items"]}),
            "patterns['sort'].templates",
            "expected an object, got list",
        ),
        (
            lambda d: d.update({"shared": {"/t/items": {"urls": 1}}}),
            "shared['/t/items'].params",
            "expected an object, got NoneType",
        ),
    ],
)
def test_malformed_scopes_are_refused_by_name(edit: Any, where: str, problem: str) -> None:
    doc = copy.deepcopy(DOC)
    edit(doc["domains"][HOST])
    with pytest.raises(LearnedFormatError) as caught:
        load_learned(doc)
    message = str(caught.value)
    assert where in message and problem in message, message
    assert "\n" not in message


@pytest.mark.parametrize(
    ("key", "spelled"),
    [
        ("/items/", "/items"),  # normalised paths have no trailing slash
        ("/a//b", "/a/b"),
        ("/%ce%bb", "/%CE%BB"),  # escapes are upper case
        ("/items?x", "/items%3Fx"),  # a ? starts the query
        ("/\u00e9t\u00e9", "/%C3%A9t%C3%A9"),  # non-ASCII is escaped
        ("/a/./b", "/a/b"),
        ("/a{id}b/{id}", "/a%7Bid%7Db/{id}"),  # a placeholder is a whole segment
    ],
)
def test_a_template_key_that_can_never_match_is_refused_by_name(key: str, spelled: str) -> None:
    for scopes in (("patterns", "sort", "templates"), ("shared",)):
        doc = copy.deepcopy(DOC)
        found = doc["domains"][HOST]
        for name in scopes:
            found = found[name]
        found[key] = {"urls": 1, "params": {}}
        with pytest.raises(LearnedFormatError) as caught:
            load_learned(doc)
        message = str(caught.value)
        assert f"[{key!r}]: this template can never match" in message, message
        assert f"which spell it {spelled!r}" in message
    # Templates in normal form load, escaped names in any script among them.
    doc = copy.deepcopy(DOC)
    for good in ("/", "/p/{id}.html", "/w/%D0%9C%D0%B8%D1%80", "/{slug}/{id}"):
        doc["domains"][HOST]["shared"][good] = {"urls": 1, "params": {}}
    assert "/w/%D0%9C%D0%B8%D1%80" in load_learned(doc).domains[HOST].shared


def test_scopes_round_trip_exactly(tmp_path: Path) -> None:
    learned = load_learned(DOC)
    entry = learned.domains[HOST]
    assert entry.patterns["sort"].templates["/t/items/{id}"].params["sort"].neutral
    assert entry.shared["/t/items/{id}"].params["view"].defaults.keys() == {"grid"}
    assert entry.shared["/t/items/{id}"].params["sort"].patterns == ("color&sort", "sort")
    path = dump_learned(learned, tmp_path / "learned.json")
    again = load_learned(path)
    assert again.domains == learned.domains
    assert dumps_learned(again) == path.read_text(encoding="utf-8")
    document = json.loads(path.read_text(encoding="utf-8"))
    assert document["domains"][HOST]["shared"] == DOC["domains"][HOST]["shared"]
    assert document["domains"][HOST]["patterns"] == DOC["domains"][HOST]["patterns"]
    assert LearnedSet.from_json(document).domains == learned.domains


def test_templates_are_computed_from_the_normalised_path(norm: MIQPSNormalizer) -> None:
    # /T/../t/items//42/ normalises to /t/items/42, whose template has a scope
    assert path_template("/t/items/42") == "/t/items/{id}"
    assert norm.normalize(_url("/x/../t/items//42/?sort=x")) == _url("/t/items/42")


ENGINE_CASES = {
    "/t/items?sort=x": "/t/items?sort=x",
    "/t/items/42?sort=x": "/t/items/42",
    "/t/items/42?sort=x&color=red&utm_source=m": "/t/items/42?color=red",
    "/s/5?q=a&page=0": "/s/5?q=a",
    "/c/1?a=1&b=2": "/c/1?a=1&b=2",
}


def test_arrow_and_duckdb_give_normalizes_keys(norm: MIQPSNormalizer) -> None:
    pa = engine("pyarrow")
    from samepage.arrow import normalize_array

    urls = [_url(u) for u in ENGINE_CASES]
    wanted = [_url(k) for k in ENGINE_CASES.values()]
    assert [norm.normalize(u) for u in urls] == wanted
    assert normalize_array(pa.array(urls), norm).to_pylist() == wanted
    duckdb = engine("duckdb")
    from samepage.duckdb import register

    con = duckdb.connect()
    register(con, norm)
    con.register("crawl", pa.table({"row": list(range(len(urls))), "url": urls}))
    rows = con.sql("SELECT samepage_key(url) FROM crawl ORDER BY row").fetchall()
    assert [key for (key,) in rows] == wanted


def _characters(text: str) -> str:
    """Percent-escapes read as UTF-8 bytes, one at a time (a byte that is not: itself)."""
    data = bytearray()
    out = []
    for piece in re.split(r"(%[0-9A-Fa-f]{2})", text):
        if re.fullmatch(r"%[0-9A-Fa-f]{2}", piece):
            data.append(int(piece[1:], 16))
            continue
        if not piece:
            continue  # between two escapes: one run of bytes
        out.append(bytes(data).decode("utf-8", "surrogateescape"))
        data.clear()
        out.append(piece)
    out.append(bytes(data).decode("utf-8", "surrogateescape"))
    return "".join(out)


def _reference_template(path: str) -> str:
    """The rule of docs/learned-format.md, segment by segment, without shortcuts."""
    out = []
    for segment in path.split("/"):
        stem, dot, ext = segment.rpartition(".")
        if not (dot and stem and 1 <= len(ext) <= 5 and ext.isascii() and ext.isalpha()):
            stem, ext = segment, ""
        else:
            ext = "." + ext
        text = _characters(stem)
        words = [w for w in re.split(r"[-_+]", text) if w]
        if not segment or stem in ("{id}", "{slug}"):
            out.append(segment)
        elif any(c.isdecimal() for c in text):
            out.append("{id}" + ext)
        elif len(text) + len(ext) > 40 or len(words) >= 3:
            out.append("{slug}" + ext)
        else:
            out.append(segment)
    return "/".join(out)


# Escaped names in several scripts: Latin, Greek, Cyrillic, Arabic (and its digits), CJK.
ESCAPED = [
    "Caf%C3%A9",
    "%CE%BB",
    "%D0%9C%D0%BE%D1%81%D0%BA%D0%B2%D0%B0",
    "%D9%85%D8%B5%D8%B1",
    "%D9%A3",
    "%E6%9D%B1%E4%BA%AC",
    "%FF%FE",
    "%D0%91" * 41,
]


@settings(max_examples=examples(500), deadline=None)
@given(
    st.lists(
        st.text(alphabet="ab-_+.9{}id%C3A", max_size=12)
        | st.sampled_from(["x" * 41, "{id}.html", *ESCAPED]),
        max_size=5,
    )
)
def test_path_template_follows_the_documented_rule(segments: list[str]) -> None:
    path = "/" + "/".join(segments)
    assert path_template(path) == _reference_template(path)
    assert path_template(path_template(path)) == path_template(path)


@pytest.mark.parametrize(
    ("path", "template"),
    [
        ("/wiki/Caf%C3%A9", "/wiki/Caf%C3%A9"),
        ("/w/%D0%9C%D0%BE%D1%81%D0%BA%D0%B2%D0%B0", "/w/%D0%9C%D0%BE%D1%81%D0%BA%D0%B2%D0%B0"),
        ("/wiki/%E6%9D%B1%E4%BA%AC", "/wiki/%E6%9D%B1%E4%BA%AC"),
        ("/wiki/%CE%BB", "/wiki/%CE%BB"),
        ("/p/%D9%A3", "/p/{id}"),  # an Arabic-Indic digit is a digit
        ("/p/" + "%D0%91" * 41, "/p/{slug}"),  # 41 characters, whatever their bytes
        ("/p/" + "%D0%91" * 40, "/p/" + "%D0%91" * 40),
        ("/p/caf%C3%A9-au-lait.html", "/p/{slug}.html"),
    ],
)
def test_a_percent_escape_is_the_byte_it_encodes(path: str, template: str) -> None:
    assert path_template(path) == template


def test_a_normalizer_lists_the_conflicts_of_its_own_configuration() -> None:
    # The same conflicts as the set lists for the default configuration...
    assert MIQPSNormalizer(learned=load_learned(DOC)).conflicts() == load_learned(DOC).conflicts()
    assert MIQPSNormalizer().conflicts() == []
    # ... but a name this normalizer always keeps is dropped by no verdict: no conflict.
    norm = MIQPSNormalizer(learned=load_learned(DOC), extra_allowlist={HOST: ["b"]})
    assert [c for c in norm.conflicts() if c.pattern == "a&b"] == []
    assert norm.normalize(_url("/c/1?b=2")) == _url("/c/1?b=2")
