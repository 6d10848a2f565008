"""Learned aliases: the format (version 2), its checks, and the normalizer applying them."""

from __future__ import annotations

import io
import json
from contextlib import redirect_stdout
from pathlib import Path
from typing import Any

import pytest

from samepage import (
    HostAlias,
    InvalidURL,
    LearnedFormatError,
    LearnedSet,
    MIQPSNormalizer,
    PathAlias,
    dump_learned,
    load_learned,
    match_alias,
)
from samepage.cli import main
from samepage.learned import dumps_learned, parse_json

TITLE = {"from": "/w/index.php?title={title}", "to": "/wiki/{title}"}
TITLE_VIEW = {"from": "/w/index.php?action=view&title={title}", "to": "/wiki/{title}"}


def _doc(aliases: dict[str, list[dict[str, Any]]], version: int = 2) -> dict[str, Any]:
    """A learned set whose hosts hold only ``aliases``."""
    domains = {host: {"patterns": {}, "aliases": rules} for host, rules in aliases.items()}
    return {"format": "samepage.learned", "version": version, "domains": domains}


def _norm(aliases: dict[str, list[dict[str, Any]]]) -> MIQPSNormalizer:
    return MIQPSNormalizer(learned=_doc(aliases))


# --- the format ---------------------------------------------------------------------------


def test_aliases_round_trip_as_typed_rules_in_file_order(tmp_path: Path) -> None:
    rules: list[dict[str, Any]] = [
        {**TITLE_VIEW, "evidence": {"renders": 4, "cause": "same-render"}},
        {**TITLE, "note": "kept"},
        {"host": "www.wiki.example", "to_host": "wiki.example"},
    ]
    learned = load_learned(_doc({"wiki.example": rules}))
    found = learned.domains["wiki.example"].aliases
    assert found == (
        PathAlias(TITLE_VIEW["from"], TITLE_VIEW["to"], {"renders": 4, "cause": "same-render"}),
        PathAlias(TITLE["from"], TITLE["to"], extra={"note": "kept"}),
        HostAlias("www.wiki.example", "wiki.example"),
    )
    path = dump_learned(learned, tmp_path / "learned.json")
    text = json.loads(path.read_text(encoding="utf-8"))
    assert text["version"] == 2
    assert text["domains"]["wiki.example"]["aliases"] == rules
    assert load_learned(path).domains == learned.domains


def test_a_set_without_aliases_is_written_as_version_1() -> None:
    doc = {"format": "samepage.learned", "version": 1, "domains": {"a.example": {"patterns": {}}}}
    assert json.loads(dumps_learned(load_learned(doc)))["version"] == 1
    # A version-2 file without aliases reads, and is written as version 1 again.
    assert json.loads(dumps_learned(load_learned({**doc, "version": 2})))["version"] == 1


def test_a_version_1_file_with_aliases_is_refused() -> None:
    # A reader of version 1 would ignore the section: the file must say version 2.
    with pytest.raises(LearnedFormatError, match=r"aliases need version 2"):
        load_learned(_doc({"wiki.example": [TITLE]}, version=1))
    with pytest.raises(LearnedFormatError, match=r"unknown version 3 \(this reader knows 1, 2\)"):
        load_learned(_doc({"wiki.example": [TITLE]}, version=3))


@pytest.mark.parametrize(
    ("rules", "message"),
    [
        ({"from": "/a/", "to": "/b"}, r"aliases\[0\]: '/a/': .*the path is '/a'"),
        ({"from": "/a?b=%7e", "to": "/b"}, r"'b=%7e' is 'b=~'"),
        ({"from": "/a/x{id}", "to": "/b"}, r"a placeholder \{name\} is a whole path segment"),
        ({"from": "/a?b={x}y", "to": "/b"}, r"a whole parameter value"),
        ({"from": "/a?flag", "to": "/b"}, r"each parameter of a template is name=value"),
        ({"from": "/a/{x}/{x}", "to": "/b"}, r"each placeholder appears once"),
        ({"from": "/a/{x}", "to": "/b/{y}"}, r"placeholder \{y\} of 'to' is not in 'from'"),
        ({"from": "/a", "to": "/a"}, r"'from' and 'to' are the same"),
        ({"from": "a", "to": "/b"}, r"not a path and query starting with '/'"),
        ({"from": "/a"}, r"aliases\[0\]\.to: expected a string"),
        ({"from": "/a", "to": "/b", "evidence": []}, r"evidence: expected an object"),
        ({"from": "/a", "to": "/b", "host": "a.example"}, r"either \{'from', 'to'\}"),
        ({"host": "www.wiki.example", "to_host": "other.example"}, r"two sites"),
        ({"host": "WWW.wiki.example", "to_host": "wiki.example"}, r"URLs carry this host as"),
        ({"host": "127.0.0.1", "to_host": "wiki.example"}, r"an IP address"),
        ({"host": "www.other.example", "to_host": "other.example"}, r"not a host of the domain"),
    ],
)
def test_a_malformed_alias_is_refused_naming_it(rules: dict[str, Any], message: str) -> None:
    with pytest.raises(LearnedFormatError, match=message) as caught:
        load_learned(_doc({"wiki.example": [rules]}))
    assert "domains['wiki.example'].aliases[0]" in str(caught.value)


@pytest.mark.parametrize(
    ("rules", "message"),
    [
        # A chain: /a becomes /b, which becomes /c; a cycle is a chain too.
        ([{"from": "/a", "to": "/b"}, {"from": "/b", "to": "/c"}], r"\[0\]: its result is rewr"),
        ([{"from": "/a", "to": "/b"}, {"from": "/b", "to": "/a"}], r"\[0\]: its result is rewr"),
        # Every result of the first is matched by the second's placeholder.
        (
            [{"from": "/x?p={id}", "to": "/item/{id}"}, {"from": "/item/{n}", "to": "/i/{n}"}],
            r"rewr",
        ),
        # A rule whose result it matches itself.
        ([{"from": "/{x}", "to": "/home"}], r"\[0\]: its result is rewritten again by .*\[0\]"),
        ([TITLE, {"from": "/w/index.php?title={t}", "to": "/w/{t}"}], r"\[1\]: the same 'from'"),
        (
            [
                {"host": "www.wiki.example", "to_host": "wiki.example"},
                {"host": "www.wiki.example", "to_host": "m.wiki.example"},
            ],
            r"\[1\]: host 'www.wiki.example' has an alias already",
        ),
        (
            [
                {"host": "m.wiki.example", "to_host": "www.wiki.example"},
                {"host": "www.wiki.example", "to_host": "wiki.example"},
            ],
            r"\[0\]: 'www.wiki.example' is rewritten again by .*\[1\]",
        ),
    ],
)
def test_rules_that_would_rewrite_a_key_again_are_refused(
    rules: list[dict[str, Any]], message: str
) -> None:
    with pytest.raises(LearnedFormatError, match=message):
        load_learned(_doc({"wiki.example": rules}))


def test_a_host_alias_is_written_under_the_key_that_reads_its_host() -> None:
    doc = _doc({"wiki.example": [{"host": "www.wiki.example", "to_host": "wiki.example"}]})
    doc["domains"]["www.wiki.example"] = {"patterns": {}}
    with pytest.raises(LearnedFormatError, match=r"read by the domain key 'www.wiki.example'"):
        load_learned(doc)


def test_a_rule_whose_result_some_rule_may_match_is_allowed() -> None:
    # /{d}/index.html -> /{d} makes /index.html of /index.html/index.html: only for that
    # value, so the file is accepted and the normalizer leaves that URL as it is.
    rules = [{"from": "/index.html", "to": "/"}, {"from": "/{d}/index.html", "to": "/{d}"}]
    norm = _norm({"site.example": rules})
    assert norm.normalize("https://site.example/index.html") == "https://site.example/"
    assert norm.normalize("https://site.example/a/index.html") == "https://site.example/a"
    odd = "https://site.example/index.html/index.html"
    assert norm.normalize(odd) == odd


# --- the examples ---------------------------------------------------------------------------


def test_mediawiki_index_php_and_wiki_path_are_one_key_per_title() -> None:
    norm = _norm({"wiki.example": [TITLE]})
    a = norm.normalize("https://wiki.example/w/index.php?title=Main_Page&utm_source=x")
    assert (
        a
        == norm.normalize("https://wiki.example/wiki/Main_Page")
        == ("https://wiki.example/wiki/Main_Page")
    )
    assert norm.normalize("https://wiki.example/w/index.php?title=Other") != a
    # Other parameters are carried to the result (the filter decides them there).
    carried = "https://wiki.example/w/index.php?title=Main_Page&oldid=42"
    assert norm.normalize(carried) == "https://wiki.example/wiki/Main_Page?oldid=42"
    # Subdomains of the key read its entry.
    assert norm.normalize("https://en.wiki.example/w/index.php?title=T") == (
        "https://en.wiki.example/wiki/T"
    )


@pytest.mark.parametrize(
    "url",
    [
        "https://wiki.example/w/index.php?title=A+B",  # "+" is a space in a query, not in a path
        "https://wiki.example/w/index.php?title=A/B",  # one value, two segments
        "https://wiki.example/w/index.php?title=A%2FB",
        "https://wiki.example/w/index.php?title=..",  # would leave the folder
        "https://wiki.example/w/index.php?title=",
        "https://wiki.example/w/index.php?title",
        "https://wiki.example/w/index.php?title=A&title=B",  # which one the server reads
        "https://wiki.example/w/index.php?curid=5",
        "https://wiki.example/w/index.php/x?title=A",
        "https://wiki.example:8080/w/index.php?title=A",  # the key names no port
    ],
)
def test_a_value_that_may_not_mean_the_same_keeps_its_spelling(url: str) -> None:
    norm = _norm({"wiki.example": [TITLE]})
    assert norm.normalize(url) == MIQPSNormalizer().normalize(url)


def test_the_first_matching_rule_wins_in_file_order() -> None:
    norm = _norm({"wiki.example": [TITLE_VIEW, TITLE]})
    view = "https://wiki.example/w/index.php?title=T&action=view"
    edit = "https://wiki.example/w/index.php?title=T&action=edit"
    assert norm.normalize(view) == "https://wiki.example/wiki/T"
    assert norm.normalize(edit) == "https://wiki.example/wiki/T?action=edit"


def test_default_documents_are_their_folder() -> None:
    rules = [
        {"from": "/index.php", "to": "/"},
        {"from": "/{a}/index.html", "to": "/{a}"},
        {"from": "/{a}/{b}/default.aspx", "to": "/{a}/{b}"},
    ]
    norm = _norm({"site.example": rules})
    assert norm.same("https://site.example/a/index.html", "https://site.example/a/")
    assert norm.same("https://site.example/index.php?x=1", "https://site.example/?x=1")
    assert norm.same("https://site.example/a/b/default.aspx", "https://site.example/a/b")
    assert not norm.same("https://site.example/a/index.html", "https://site.example/b/")
    # Not learned for another host, nor at another depth.
    assert not norm.same("https://other.example/a/index.html", "https://other.example/a/")
    assert not norm.same("https://site.example/a/b/index.html", "https://site.example/a/b")


def test_wordpress_plain_permalinks_are_exact_pairs() -> None:
    rules = [
        {"from": "/?page_id=2", "to": "/sample-page"},
        {"from": "/?p=22", "to": "/2026/12/hello-world"},
    ]
    norm = _norm({"blog.example": rules})
    assert norm.same("https://blog.example/?page_id=2", "https://blog.example/sample-page/")
    assert norm.same(
        "https://blog.example/?p=22&fbclid=x", "https://blog.example/2026/12/hello-world"
    )
    assert not norm.same("https://blog.example/?p=23", "https://blog.example/2026/12/hello-world")
    assert norm.normalize_many(["https://blog.example/?page_id=2", None]) == [
        "https://blog.example/sample-page",
        None,
    ]


def test_a_host_alias_gives_the_named_host_then_its_path_aliases() -> None:
    rules = [
        {"host": "www.site.example", "to_host": "site.example"},
        {"from": "/{a}/index.html", "to": "/{a}"},
    ]
    norm = _norm({"site.example": rules})
    assert norm.normalize("https://WWW.site.example/a/index.html") == "https://site.example/a"
    assert norm.same("https://www.site.example/p?q=1", "https://site.example/p?q=1")
    assert not norm.same("https://shop.site.example/p", "https://site.example/p")
    # On a host:port key, the host alias keeps the port.
    ported = _norm({"site.example:8080": [{"host": "www.site.example", "to_host": "site.example"}]})
    assert ported.normalize("http://www.site.example:8080/p") == "http://site.example:8080/p"
    assert ported.normalize("http://www.site.example/p") == "http://www.site.example/p"


def test_aliases_compose_with_the_verdicts_of_the_rewritten_url() -> None:
    # On /w/index.php the pattern action&title keeps action; on /wiki/T the URL's pattern is
    # action, neutral there: the filter reads the rewritten URL's pattern.
    doc = _doc({"wiki.example": [TITLE]})
    doc["domains"]["wiki.example"]["patterns"] = {
        "action&title": {
            "urls": 5,
            "params": {
                "action": {"verdict": "non-neutral", "tested": 3, "changed": 3},
                "title": {"verdict": "non-neutral", "tested": 3, "changed": 3},
            },
        },
        "action": {"urls": 5, "params": {"action": {"verdict": "neutral", "tested": 3}}},
    }
    norm = MIQPSNormalizer(learned=doc)
    url = "https://wiki.example/w/index.php?title=T&action=view"
    assert norm.normalize(url) == "https://wiki.example/wiki/T"
    trace = norm.explain(url)
    assert [(p.name, p.kept, p.rule) for p in trace.params] == [
        ("action", False, "learned:wiki.example:action:action:neutral")
    ]
    assert trace.pattern == "action"


def test_a_parameter_the_verdicts_of_the_observed_spelling_drop_is_not_moved_into_a_path() -> None:
    # title is neutral beside oldid (the revision is the page): the key is /w/index.php?oldid=5
    # for every title, as without the alias; the path alias rewrites the filtered key only.
    doc = _doc({"wiki.example": [TITLE]})
    doc["domains"]["wiki.example"]["patterns"] = {
        "oldid&title": {
            "urls": 5,
            "params": {
                "oldid": {"verdict": "non-neutral", "tested": 3, "changed": 3},
                "title": {"verdict": "neutral", "tested": 3},
            },
        },
    }
    norm = MIQPSNormalizer(learned=doc)
    base = "https://wiki.example/w/index.php"
    assert norm.normalize(f"{base}?title=A&oldid=5") == f"{base}?oldid=5"
    assert norm.same(f"{base}?title=A&oldid=5", f"{base}?title=B&oldid=5")
    assert norm.normalize(f"{base}?title=A") == "https://wiki.example/wiki/A"
    assert not norm.same(f"{base}?title=A", f"{base}?title=B")


def test_explain_names_the_alias_its_rule_and_evidence() -> None:
    rules: list[dict[str, Any]] = [
        {"host": "www.wiki.example", "to_host": "wiki.example"},
        {**TITLE, "evidence": {"renders": 4}},
    ]
    norm = _norm({"wiki.example": rules})
    url = "https://www.wiki.example/w/index.php?title=T&id=1"
    trace = norm.explain(url)
    assert [(r.rule, r.source, r.before, r.after) for r in trace.rewrites] == [
        (
            "learned:wiki.example:alias:www.wiki.example -> wiki.example",
            "learned set",
            "https://www.wiki.example/w/index.php?title=T&id=1",
            "https://wiki.example/w/index.php?title=T&id=1",
        ),
        (
            "learned:wiki.example:alias:/w/index.php?title={title} -> /wiki/{title}",
            'learned set, evidence {"renders": 4}',
            "https://wiki.example/w/index.php?id=1&title=T",  # the filtered key
            "https://wiki.example/wiki/T?id=1",
        ),
    ]
    assert trace.result == norm.normalize(url) == "https://wiki.example/wiki/T?id=1"
    assert [p.name for p in trace.params] == ["id"]


def test_the_command_line_explains_an_alias(tmp_path: Path) -> None:
    path = dump_learned(load_learned(_doc({"wiki.example": [TITLE]})), tmp_path / "l.json")
    out = io.StringIO()
    with redirect_stdout(out):
        status = main(
            ["explain", "https://wiki.example/w/index.php?title=T", "--learned", str(path)]
        )
    assert status == 0
    assert (
        "  rewrite  [learned:wiki.example:alias:/w/index.php?title={title} -> /wiki/{title}]  "
        "https://wiki.example/wiki/T  (learned set)"
    ) in out.getvalue().splitlines()


def test_a_key_that_a_value_based_drop_makes_matchable_goes_round_again() -> None:
    # ref=twitter is dropped by the ambiguous layer, leaving one ref: the rule then applies,
    # so that the key is a fixed point.
    norm = _norm({"s.example": [{"from": "/q?ref={r}", "to": "/q/{r}"}]})
    url = "https://s.example/q?ref=twitter&ref=main"
    key = norm.normalize(url)
    assert key == "https://s.example/q/main"
    assert norm.normalize(key) == key
    assert norm.explain(url).result == key
    assert norm.explain(url).rewrites[-1].after == "https://s.example/q/main"


def test_a_built_in_rewrite_of_the_result_keeps_the_spelling() -> None:
    # youtube.com is rewritten to www.youtube.com by the built-in aliases: a learned host
    # alias back would loop, so it does not apply.
    norm = _norm({"youtube.com": [{"host": "www.youtube.com", "to_host": "youtube.com"}]})
    url = "https://www.youtube.com/watch?v=abc"
    assert norm.normalize(url) == MIQPSNormalizer().normalize(url) == url


# --- the public matching function ------------------------------------------------------------


def test_match_alias_says_what_a_url_becomes() -> None:
    rule = PathAlias("/w/index.php?title={title}", "/wiki/{title}")
    found = match_alias(rule, "https://Wiki.example/w/index.php?oldid=1&title=Caf%c3%a9")
    assert found is not None
    assert found.url == "https://wiki.example/wiki/Caf%C3%A9?oldid=1"
    assert found.values == {"title": "Caf%C3%A9"}
    assert match_alias(rule, "https://wiki.example/wiki/Main_Page") is None
    host = HostAlias("www.wiki.example", "wiki.example")
    assert match_alias(host, "http://www.wiki.example/a?b=1#c") is not None
    with pytest.raises(InvalidURL):
        match_alias(rule, "/relative")
    with pytest.raises(ValueError, match="not in 'from'"):
        PathAlias("/a", "/b/{x}")


def test_a_loaded_set_equals_itself_after_writing() -> None:
    learned = load_learned(_doc({"wiki.example": [TITLE, TITLE_VIEW]}))
    again = LearnedSet.from_json(parse_json(dumps_learned(learned), "again"))
    assert again.domains == learned.domains


def test_check_aliases_refuses_rules_that_cannot_stand_together_as_the_reader_does() -> None:
    from samepage.learned import check_aliases

    one = PathAlias("/a/{v}", "/b/{v}")
    check_aliases([one, HostAlias("www.x.test", "x.test")])
    with pytest.raises(LearnedFormatError, match="aliases"):
        check_aliases([one, PathAlias("/b/{v}", "/c/{v}")])  # a chain: /a/1 -> /b/1 -> /c/1
    with pytest.raises(LearnedFormatError):
        check_aliases([HostAlias("www.x.test", "x.test"), HostAlias("www.x.test", "m.x.test")])
