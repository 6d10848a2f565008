"""Learned sets: reading, validating, writing, and how the normalizer applies them."""

from __future__ import annotations

import copy
import json
import math
import os
import re
from pathlib import Path
from typing import Any

import pytest

from samepage import (
    DefaultValue,
    DomainEntry,
    LearnedFormatError,
    LearnedSet,
    MIQPSNormalizer,
    ParamVerdict,
    PatternEntry,
    dump_learned,
    load_learned,
)
from samepage.learned import Sample, changed_too_often


def _verdict_json(verdict: str, tested: int = 5, changed: int = 0, **extra: Any) -> dict[str, Any]:
    return {"verdict": verdict, "tested": tested, "changed": changed, "failed": 0, **extra}


DOC: dict[str, Any] = {
    "format": "samepage.learned",
    "version": 1,
    "created": "2026-12-02T15:04:05Z",
    "settings": {"samples": 8, "threshold": 0.2, "min_samples": 3, "top_patterns": 20},
    "domains": {
        "shop.example": {
            "patterns": {
                "color&id&sessionid": {
                    "urls": 1532,
                    "params": {
                        "color": _verdict_json("non-neutral", 5, 5),
                        "id": _verdict_json("non-neutral", 3, 3),
                        "sessionid": _verdict_json("neutral", 8, 0),
                    },
                },
                "ref&slug": {
                    "urls": 40,
                    "params": {
                        "ref": _verdict_json("neutral", 6, 0),
                        "slug": _verdict_json(
                            "non-neutral", 0, 0, reason="too few successful samples"
                        ),
                    },
                },
            }
        },
        "sub.shop.example": {
            "patterns": {"id": {"urls": 3, "params": {"id": _verdict_json("neutral")}}},
        },
        "127.0.0.1:8080": {
            "patterns": {
                "q&sid": {
                    "urls": 3,
                    "params": {
                        "q": _verdict_json("non-neutral", 3, 3),
                        "sid": _verdict_json("neutral"),
                    },
                }
            },
        },
    },
}


@pytest.fixture
def norm() -> MIQPSNormalizer:
    return MIQPSNormalizer(learned=DOC)


@pytest.mark.parametrize(
    "url, expected",
    [
        # known pattern: neutral dropped, non-neutral kept
        (
            "https://shop.example/p?id=1&color=red&sessionid=abc",
            "https://shop.example/p?color=red&id=1",
        ),
        # the pattern is computed after the blocklist, so utm_* does not change it
        (
            "https://www.shop.example/p?id=1&color=red&sessionid=abc&utm_source=x",
            "https://www.shop.example/p?color=red&id=1",
        ),
        # unknown pattern: everything kept (conservative default)
        ("https://shop.example/p?id=1&sessionid=abc", "https://shop.example/p?id=1&sessionid=abc"),
        # learned evidence overrides the ambiguous rule for ref (neutral here)
        ("https://shop.example/a?ref=main&slug=x", "https://shop.example/a?slug=x"),
        # undecided parameters are non-neutral: kept
        ("https://shop.example/a?ref=1&slug=hat", "https://shop.example/a?slug=hat"),
        # longest key wins: sub.shop.example has its own verdicts
        ("https://a.sub.shop.example/p?id=1", "https://a.sub.shop.example/p"),
        # label boundaries: not a subdomain
        (
            "https://badshop.example/p?id=1&color=r&sessionid=x",
            "https://badshop.example/p?color=r&id=1&sessionid=x",
        ),
        # a host:port key matches only that port, and a port-less key never matches another port
        ("http://127.0.0.1:8080/s?q=a&sid=1", "http://127.0.0.1:8080/s?q=a"),
        ("http://127.0.0.1:9090/s?q=a&sid=1", "http://127.0.0.1:9090/s?q=a&sid=1"),
        (
            "https://shop.example:8443/p?id=1&color=red&sessionid=abc",
            "https://shop.example:8443/p?color=red&id=1&sessionid=abc",
        ),
    ],
)
def test_learned_verdicts_apply(norm: MIQPSNormalizer, url: str, expected: str) -> None:
    assert norm.normalize(url) == expected


def test_domain_fallback_is_opt_in() -> None:
    url = "https://shop.example/p?sessionid=abc&id=1"
    assert (
        MIQPSNormalizer(learned=DOC).normalize(url) == "https://shop.example/p?id=1&sessionid=abc"
    )
    fallback = MIQPSNormalizer(learned=DOC, learned_fallback="domain")
    assert fallback.normalize(url) == "https://shop.example/p?id=1"
    # a name never learned stays; a name non-neutral in some pattern stays
    assert (
        fallback.normalize("https://shop.example/p?new=1&color=r")
        == "https://shop.example/p?color=r&new=1"
    )


def test_explain_names_the_learned_rule(norm: MIQPSNormalizer) -> None:
    trace = norm.explain("https://shop.example/p?id=1&color=red&sessionid=abc")
    assert trace.pattern == "color&id&sessionid"
    assert trace.learned_domain == "shop.example"
    by_name = {p.name: p for p in trace.params}
    assert by_name["sessionid"].kept is False
    assert by_name["sessionid"].layer == "learned"
    assert by_name["sessionid"].rule == "learned:shop.example:color&id&sessionid:sessionid:neutral"
    assert "tested 8, changed 0" in by_name["sessionid"].source
    assert by_name["id"].kept is True


def test_round_trip_through_a_file(tmp_path: Path) -> None:
    learned = load_learned(copy.deepcopy(DOC))
    path = dump_learned(learned, tmp_path / "out" / "learned.json")
    text = path.read_text(encoding="utf-8")
    assert json.loads(text) == DOC
    assert text == json.dumps(DOC, indent=2, sort_keys=True) + "\n"
    assert load_learned(path) == learned
    assert MIQPSNormalizer(learned=str(path)).normalize(
        "https://shop.example/p?id=1&color=r&sessionid=s"
    ) == ("https://shop.example/p?color=r&id=1")
    assert not list((tmp_path / "out").glob(".*tmp"))


def test_extra_keys_are_ignored_and_kept() -> None:
    doc = copy.deepcopy(DOC)
    doc["generator"] = "tests"
    doc["domains"]["shop.example"]["renders"] = 12
    doc["domains"]["shop.example"]["patterns"]["ref&slug"]["params"]["ref"]["distances"] = [
        0.0,
        0.01,
    ]
    learned = LearnedSet.from_json(doc)
    assert learned.to_json() == doc


def test_objects_build_a_set_by_hand(tmp_path: Path) -> None:
    learned = LearnedSet(
        {
            "site.example": DomainEntry(
                {
                    "id&sid": PatternEntry(
                        9,
                        {
                            "id": ParamVerdict("non-neutral", 3, 3),
                            "sid": ParamVerdict("neutral", 3),
                        },
                    )
                }
            )
        }
    )
    norm = MIQPSNormalizer(learned=learned)
    assert norm.normalize("https://site.example/?sid=1&id=2") == "https://site.example/?id=2"
    assert load_learned(dump_learned(learned, tmp_path / "l.json")).domains == learned.domains


def _broken(path: list[Any], value: Any) -> dict[str, Any]:
    doc = copy.deepcopy(DOC)
    target: Any = doc
    for key in path[:-1]:
        target = target[key]
    if value is KeyError:
        del target[path[-1]]
    else:
        target[path[-1]] = value
    return doc


SHOP = ["domains", "shop.example", "patterns", "color&id&sessionid"]


@pytest.mark.parametrize(
    "doc, message",
    [
        (_broken(["format"], "other"), "unknown format 'other'"),
        (_broken(["version"], 3), "unknown version 3"),
        (_broken(["domains"], KeyError), "domains: expected an object"),
        (_broken(["domains", "Shop.Example"], {"patterns": {}}), "can never match.*shop.example"),
        (
            _broken([*SHOP, "params", "id", "verdict"], "maybe"),
            "expected 'neutral' or 'non-neutral'",
        ),
        (_broken([*SHOP, "params", "id", "tested"], -1), "non-negative integer"),
        (_broken([*SHOP, "params", "id", "tested"], True), "non-negative integer"),
        (
            _broken([*SHOP, "params", "other"], _verdict_json("neutral")),
            "'other' is not in the pattern",
        ),
        (
            _broken(["domains", "shop.example", "patterns", "id&color"], {"urls": 1, "params": {}}),
            "sorted, de-duplicated",
        ),
        (_broken(["domains", "shop.example", "patterns"], []), "expected an object"),
        ([1, 2], "not list"),
    ],
)
def test_malformed_documents_are_refused_with_a_named_problem(doc: Any, message: str) -> None:
    with pytest.raises(LearnedFormatError, match=message):
        MIQPSNormalizer(learned=doc)


def test_bad_files_are_refused(tmp_path: Path) -> None:
    missing = tmp_path / "missing.json"
    with pytest.raises(LearnedFormatError, match="cannot read"):
        load_learned(missing)
    bad = tmp_path / "bad.json"
    bad.write_text("{not json", encoding="utf-8")
    with pytest.raises(LearnedFormatError, match="not valid JSON"):
        load_learned(bad)


@pytest.mark.parametrize(
    "simple, message",
    [
        ({"x.example": "page_id"}, "expected a set of parameter names"),
        ({"x.example": [1]}, "is not a parameter name"),
        ({"": ["id"]}, "is not a host name"),
    ],
)
def test_bad_simple_form_is_refused(simple: Any, message: str) -> None:
    with pytest.raises(LearnedFormatError, match=message):
        MIQPSNormalizer(learned=simple)


def test_simple_form_cannot_be_written(tmp_path: Path) -> None:
    with pytest.raises(LearnedFormatError, match="simple-form"):
        dump_learned(load_learned({"a.example": {"id"}}), tmp_path / "x.json")


_HEAD = '{"format": "samepage.learned", "version": 1, '


@pytest.mark.parametrize(
    "text, message",
    [
        (_HEAD + '"version": 1, "domains": {}}', "duplicate key 'version'"),
        (
            _HEAD + '"domains": {"a.example": {"patterns": {}}, "a.example": {"patterns": {}}}}',
            "duplicate key 'a.example'",
        ),
        (
            _HEAD + '"domains": {"a.example": {"patterns": {"id": {"params": {'
            '"id": {"verdict": "non-neutral"}, "id": {"verdict": "neutral"}}}}}}}',
            "duplicate key 'id'",
        ),
        ('{"format": "samepage.learned", "version": true, "domains": {}}', "unknown version True"),
        ('{"format": "samepage.learned", "version": 1.0, "domains": {}}', "unknown version 1.0"),
        ("[" * 100_000 + "]" * 100_000, "nested too deeply"),
        (_HEAD + '"domains": {}, "x": ' + "9" * 5000 + "}", "not valid JSON"),
        (_HEAD + '"domains": {}, "x": NaN}', "NaN is not a JSON number"),
    ],
)
def test_hostile_files_are_refused_with_a_clear_error(
    tmp_path: Path, text: str, message: str
) -> None:
    path = tmp_path / "learned.json"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(LearnedFormatError, match=message) as caught:
        load_learned(path)
    assert str(caught.value).startswith(str(path))


@pytest.mark.parametrize(
    "key, message",
    [
        ("bücher.example", "can never match.*'xn--bcher-kva.example'"),
        ("example.com.", "can never match.*'example.com'"),
        ("0x7f.1", "can never match.*'127.0.0.1'"),
        ("[::0001]", r"can never match.*'\[::1\]'"),
        ("a.example:0080", "no leading zeros"),
        ("a.example:65536", "no leading zeros"),
        ("a.example:", "lower-case IDNA"),
        ("a.example:" + "9" * 5000, "lower-case IDNA"),
        ("[fe80::1%25a<b]", "lower-case IDNA"),
        ("[fe80::1%25a b]", "lower-case IDNA"),
        ("[::1]x", "lower-case IDNA"),
        ("a b.example", "lower-case IDNA"),
        ("user@a.example", "lower-case IDNA"),
        ("a..example", "lower-case IDNA"),
    ],
)
def test_host_keys_that_can_never_match_are_refused(key: str, message: str) -> None:
    doc = {"format": "samepage.learned", "version": 1, "domains": {key: {"patterns": {}}}}
    with pytest.raises(LearnedFormatError, match=message):
        load_learned(doc)


@pytest.mark.parametrize(
    "key", ["a.example", "a.example:8080", "127.0.0.1:81", "[::1]", "[::1]:81", "[fe80::1%25eth0]"]
)
def test_host_keys_in_url_form_are_accepted(key: str) -> None:
    doc = {"format": "samepage.learned", "version": 1, "domains": {key: {"patterns": {}}}}
    assert set(load_learned(doc).domains) == {key}


def _mode(path: Path) -> int:
    return path.stat().st_mode & 0o777


def test_dump_keeps_the_mode_of_the_file_it_replaces(tmp_path: Path) -> None:
    target = tmp_path / "learned.json"
    target.write_text("{}", encoding="utf-8")
    target.chmod(0o644)
    dump_learned(load_learned(DOC), target)
    assert _mode(target) == 0o644
    target.chmod(0o640)
    dump_learned(load_learned(DOC), target)
    assert _mode(target) == 0o640
    assert load_learned(target).domains.keys() == load_learned(DOC).domains.keys()


@pytest.mark.parametrize("umask, expected", [(0o022, 0o644), (0o077, 0o600), (0o002, 0o664)])
def test_dump_follows_the_umask_for_a_new_file(tmp_path: Path, umask: int, expected: int) -> None:
    old = os.umask(umask)
    try:
        dump_learned(load_learned(DOC), tmp_path / "new" / "learned.json")
    finally:
        os.umask(old)
    assert _mode(tmp_path / "new" / "learned.json") == expected
    assert [p.name for p in (tmp_path / "new").iterdir()] == ["learned.json"]  # no temp left


def _default_doc(defaults: Any, verdict: str = "non-neutral") -> dict[str, Any]:
    changed = 4 if verdict == "non-neutral" else 0
    param = {"verdict": verdict, "tested": 4, "changed": changed, "defaults": defaults}
    return {
        "format": "samepage.learned",
        "version": 1,
        "domains": {"s.example": {"patterns": {"page&q": {"urls": 9, "params": {"page": param}}}}},
    }


def test_defaults_round_trip_and_old_files_have_none(tmp_path: Path) -> None:
    sample = {"url": "https://s.example/?page=1&q=a", "candidate": "https://s.example/?q=a"}
    sample["outcome"] = "same"
    doc = _default_doc({"1": {"tested": 3, "changed": 0, "failed": 0, "samples": [sample]}})
    learned = load_learned(doc)
    page = learned.domains["s.example"].patterns["page&q"].params["page"]
    assert page.defaults["1"].tested == 3
    assert page.defaults["1"].samples == (Sample(sample["url"], sample["candidate"], "same"),)
    path = tmp_path / "learned.json"
    dump_learned(learned, path)
    again = load_learned(path).domains["s.example"].patterns["page&q"].params["page"]
    assert again == page
    del doc["domains"]["s.example"]["patterns"]["page&q"]["params"]["page"]["defaults"]
    old = load_learned(doc).domains["s.example"].patterns["page&q"].params["page"]
    assert old.defaults == {} and "defaults" not in old.to_json()


@pytest.mark.parametrize(
    "defaults, verdict, message",
    [
        (["1"], "non-neutral", "defaults: expected an object, got list"),
        ({"1": 3}, "non-neutral", "defaults['1']: expected an object, got int"),
        ({"1": {"tested": -1}}, "non-neutral", "defaults['1'].tested: expected a non-negative"),
        ({"1": {"tested": 3, "changed": 1}}, "non-neutral", "a default never changed the page"),
        ({"%7e": {"tested": 3}}, "non-neutral", "as normalised URLs carry it ('~')"),
        ({"a&b": {"tested": 3}}, "non-neutral", "as normalised URLs carry it"),
        ({"1": {"tested": 3}}, "neutral", "a neutral parameter is dropped whatever its value"),
    ],
)
def test_malformed_defaults_are_refused_naming_the_entry(
    defaults: Any, verdict: str, message: str
) -> None:
    with pytest.raises(LearnedFormatError) as info:
        load_learned(_default_doc(defaults, verdict))
    assert "domains['s.example'].patterns['page&q'].params['page'].defaults" in str(info.value)
    assert message in str(info.value)


def test_the_normalizer_drops_a_learned_default_and_keeps_every_other_value() -> None:
    norm = MIQPSNormalizer(learned=_default_doc({"1": {"tested": 3}, "a~b": {"tested": 3}}))
    base = "https://s.example/search?q=oak"
    assert norm.normalize(base + "&page=1") == base
    assert norm.normalize("https://www.s.example/search?page=1&q=oak") == (
        "https://www.s.example/search?q=oak"
    )
    # Values compare after the normalizer's own escape normalisation.
    assert norm.normalize(base + "&page=a%7Eb") == base
    for other in ("2", "01", "", "1.0"):
        assert (
            norm.normalize(f"{base}&page={other}") == f"https://s.example/search?page={other}&q=oak"
        )
    # A bare name, a repeated parameter, another pattern: kept.
    assert norm.normalize(base + "&page") == "https://s.example/search?page&q=oak"
    twice = norm.normalize(base + "&page=1&page=2")
    assert twice == "https://s.example/search?page=1&page=2&q=oak"
    assert norm.normalize("https://s.example/search?page=1") == "https://s.example/search?page=1"
    trace = norm.explain(base + "&page=1")
    page = next(p for p in trace.params if p.name == "page")
    assert not page.kept and page.rule == "learned:s.example:page&q:page:default=1"
    assert "a learned default" in page.source and "3 sample(s)" in page.source


def test_an_empty_default_drops_the_empty_value_and_keeps_a_bare_name(tmp_path: Path) -> None:
    # "" names the spelling page= only: a bare page is a value of its own, which no
    # default names. Before, ?page&q=oak became ?q=oak, merging it with the page without.
    doc = _default_doc({"": {"tested": 3}})
    path = tmp_path / "learned.json"
    dump_learned(load_learned(doc), path)  # an old file's "" default reads the same way
    for learned in (doc, path):
        norm = MIQPSNormalizer(learned=learned)
        base = "https://s.example/search?q=oak"
        assert norm.normalize(base + "&page=") == base
        assert norm.normalize(base + "&page") == "https://s.example/search?page&q=oak"
        assert not norm.same(base + "&page", base)
        rules = {p.value: p.rule for p in norm.explain(base + "&page").params}
        assert rules[""] == "learned:s.example:page&q:page:non-neutral"
        empty = next(p for p in norm.explain(base + "&page=").params if p.name == "page")
        assert not empty.kept and empty.rule == "learned:s.example:page&q:page:default="


def test_a_bare_name_carries_no_default_that_keeps_another_default() -> None:
    # Defaults are dropped one per URL unless proven together: a bare sort carries no
    # default, so it does not stop page=1 from going.
    page = {"verdict": "non-neutral", "tested": 4, "changed": 4, "defaults": {"1": {"tested": 3}}}
    sort = {"verdict": "non-neutral", "tested": 4, "changed": 4, "defaults": {"": {"tested": 3}}}
    doc = _default_doc({})
    doc["domains"]["s.example"]["patterns"] = {
        "page&q&sort": {"urls": 9, "params": {"page": page, "sort": sort}}
    }
    norm = MIQPSNormalizer(learned=doc)
    base = "https://s.example/search?q=oak"
    assert norm.normalize(base + "&page=1&sort") == base + "&sort"
    assert norm.normalize(base + "&page=1&sort=") == "https://s.example/search?page=1&q=oak&sort="


def _two_defaults_doc(joint: Any = None) -> dict[str, Any]:
    """``page=1`` and ``sort=top`` learned on ``page&q&sort``, with ``joint`` if given."""
    page = {"verdict": "non-neutral", "tested": 4, "changed": 4, "defaults": {"1": {"tested": 3}}}
    sort = {**page, "defaults": {"top": {"tested": 3}}}
    q = {"verdict": "non-neutral", "tested": 4, "changed": 4}
    pattern: dict[str, Any] = {"urls": 9, "params": {"page": page, "q": q, "sort": sort}}
    if joint is not None:
        pattern["joint_defaults"] = joint
    return {
        "format": "samepage.learned",
        "version": 1,
        "domains": {"s.example": {"patterns": {"page&q&sort": pattern}}},
    }


def test_two_learned_defaults_in_one_url_are_both_kept() -> None:
    norm = MIQPSNormalizer(learned=_two_defaults_doc())
    base = "https://s.example/search?q=oak"
    # Each default was proven alone; dropped together they were never tested.
    both = base + "&page=1&sort=top"
    assert norm.normalize(both) == "https://s.example/search?page=1&q=oak&sort=top"
    assert norm.normalize(base + "&page=2&sort=top") == "https://s.example/search?page=2&q=oak"
    assert norm.normalize(base + "&page=1&sort=new") == "https://s.example/search?q=oak&sort=new"
    kept = {p.name: p.rule for p in norm.explain(both).params if p.kept}
    assert kept["page"] == "learned:s.example:page&q&sort:page:default-with-another"
    assert kept["sort"] == "learned:s.example:page&q&sort:sort:default-with-another"


def test_defaults_proven_together_are_dropped_together(tmp_path: Path) -> None:
    joint = {"names": ["page", "sort"], "tested": 2, "changed": 0, "failed": 0, "samples": []}
    learned = load_learned(_two_defaults_doc(joint))
    pattern = learned.domains["s.example"].patterns["page&q&sort"]
    assert pattern.joint_defaults is not None
    assert pattern.joint_defaults.names == {"page", "sort"}
    assert pattern.joint_defaults.samples == ()
    dump_learned(learned, tmp_path / "learned.json")
    assert load_learned(tmp_path / "learned.json").domains == learned.domains
    norm = MIQPSNormalizer(learned=learned)
    base = "https://s.example/search?q=oak"
    assert norm.normalize(base + "&sort=top&page=1") == base
    # Only defaults: other values, and repeated names, are kept as before.
    assert norm.normalize(base + "&page=2&sort=top") == "https://s.example/search?page=2&q=oak"
    assert norm.normalize(base + "&page=1&page=1&sort=top") == (
        "https://s.example/search?page=1&page=1&q=oak"
    )
    rules = {p.name: p.rule for p in norm.explain(base + "&page=1&sort=top").params}
    assert rules["sort"] == "learned:s.example:page&q&sort:sort:default=top"


@pytest.mark.parametrize(
    "joint, message",
    [
        ([], "expected an object"),
        ({"names": "page", "tested": 2}, "expected a list of parameter names"),
        ({"names": ["page"], "tested": 2}, "from two names up"),
        ({"names": ["page", "page"], "tested": 2}, "from two names up"),
        ({"names": ["page", "q"], "tested": 2}, "parameter 'q' has no learned default"),
        ({"names": ["page", "x"], "tested": 2}, "parameter 'x' has no learned default"),
        ({"names": ["page", "sort"], "tested": 0}, "tested 0, changed 0, failed 0"),
        ({"names": ["page", "sort"], "tested": 2, "changed": 1}, "changed 1"),
        ({"names": ["page", "sort"], "tested": 2, "failed": 1}, "failed 1"),
        ({"names": ["page", "sort"], "tested": -1}, "expected a non-negative integer"),
    ],
)
def test_malformed_joint_defaults_are_refused_naming_the_entry(joint: Any, message: str) -> None:
    with pytest.raises(LearnedFormatError) as info:
        load_learned(_two_defaults_doc(joint))
    assert "patterns['page&q&sort'].joint_defaults" in str(info.value)
    assert message in str(info.value)


def _one_verdict(**param: Any) -> dict[str, Any]:
    return {
        "format": "samepage.learned",
        "version": 1,
        "domains": {"s.example": {"patterns": {"a": {"urls": 3, "params": {"a": param}}}}},
    }


@pytest.mark.parametrize(
    "param, message",
    [
        ({"verdict": "neutral", "tested": 0}, "a neutral verdict needs a tested sample"),
        ({"verdict": "neutral"}, "a neutral verdict needs a tested sample"),
        ({"verdict": "neutral", "tested": 4, "changed": 1}, "(tested 4, changed 1)"),
        (
            {"verdict": "non-neutral", "tested": 4, "changed": 4, "defaults": {"1": {}}},
            "a default is learned on tested samples none of which failed (tested 0, failed 0)",
        ),
        (
            {"verdict": "non-neutral", "tested": 4, "defaults": {"1": {"tested": 3, "failed": 1}}},
            "(tested 3, failed 1)",
        ),
    ],
)
def test_verdicts_inconsistent_with_their_counts_are_refused(
    param: dict[str, Any], message: str
) -> None:
    with pytest.raises(LearnedFormatError, match=re.escape(message)):
        load_learned(_one_verdict(**param))


def test_a_neutral_verdict_may_change_as_often_as_the_threshold_allows() -> None:
    doc = _one_verdict(verdict="neutral", tested=10, changed=1)
    with pytest.raises(LearnedFormatError, match=r"threshold 0\.0"):
        load_learned(doc)
    doc["settings"] = {"threshold": 0.1}
    assert load_learned(doc).domains["s.example"].patterns["a"].params["a"].neutral
    doc["settings"] = {"threshold": "high"}
    with pytest.raises(LearnedFormatError, match=r"settings.threshold: expected a number"):
        load_learned(doc)


@pytest.mark.parametrize(
    "changed, tested, threshold, expected",
    [
        (1, 10, 0.1, False),
        (2, 10, 0.1, True),
        (0, 10**400, 0.0, False),
        (1, 10**400, 0.0, True),
        (10**399, 10**400, 0.5, False),
        (10**400, 10**400, 0.5, True),
        (10**400, 3, 0.5, True),
    ],
)
def test_the_change_rate_rule_compares_counts_of_any_size(
    changed: int, tested: int, threshold: float, expected: bool
) -> None:
    # Before, a count too large for a float raised OverflowError (threshold * tested).
    assert changed_too_often(changed, tested, threshold) is expected


def test_counts_too_large_for_a_count_are_refused() -> None:
    # Before, a neutral verdict tested 10**400 times crashed the reader (OverflowError).
    for tested in (10**400, 2**63):
        with pytest.raises(LearnedFormatError, match=r"\.tested: a count is at most 2\*\*63 - 1"):
            load_learned(_one_verdict(verdict="neutral", tested=tested))
    assert load_learned(_one_verdict(verdict="neutral", tested=2**63 - 1))
    with pytest.raises(LearnedFormatError, match="integer of thousands of digits"):
        load_learned(_one_verdict(verdict="non-neutral", tested=1, cost=10**5000))


def test_numbers_too_large_for_a_float_are_refused(tmp_path: Path) -> None:
    path = tmp_path / "learned.json"
    doc = json.dumps(_one_verdict(verdict="non-neutral", tested=1, changed=1))
    path.write_text(doc.replace('"urls": 3', '"urls": 3, "cost": 1e400'), encoding="utf-8")
    with pytest.raises(LearnedFormatError, match="1e400 is too large"):
        load_learned(path)
    parsed = _one_verdict(verdict="non-neutral", tested=1, changed=1)
    parsed["settings"] = {"budget": float("inf")}
    with pytest.raises(LearnedFormatError, match=r"settings\['budget'\]: inf is not a JSON"):
        load_learned(parsed)


def test_lone_surrogates_are_refused_on_reading_and_on_writing(tmp_path: Path) -> None:
    path = tmp_path / "learned.json"
    doc = _one_verdict(verdict="non-neutral", tested=1, changed=1, reason="x")
    path.write_text(json.dumps(doc).replace('"x"', '"\\ud800"'), encoding="utf-8")
    with pytest.raises(LearnedFormatError, match="lone surrogate"):
        load_learned(path)
    verdict = ParamVerdict("non-neutral", 1, 1, reason="\ud800")
    learned = LearnedSet({"s.example": DomainEntry({"a": PatternEntry(3, {"a": verdict})})})
    with pytest.raises(LearnedFormatError, match="lone surrogate"):
        dump_learned(learned, path)
    assert "\\ud800" in path.read_text(encoding="utf-8")  # the old file is untouched


@pytest.mark.parametrize(
    "domains, message",
    [
        (
            {
                "Shop.example": DomainEntry(
                    {"a": PatternEntry(3, {"a": ParamVerdict("neutral", 3)})}
                )
            },
            "URLs carry this host as 'shop.example'",
        ),
        (
            {
                "s.example": DomainEntry(
                    {
                        "a": PatternEntry(
                            3, {"a": ParamVerdict("neutral", 3, defaults={"1": DefaultValue(3)})}
                        )
                    }
                )
            },
            "a neutral parameter is dropped whatever its value",
        ),
        (
            {"s.example": DomainEntry({"a": PatternEntry(3, {"a": ParamVerdict("neutral")})})},
            "a neutral verdict needs a tested sample",
        ),
        (
            {
                "s.example": DomainEntry(
                    {
                        "a": PatternEntry(
                            3, {"a": ParamVerdict("non-neutral", extra={"x": math.nan})}
                        )
                    }
                )
            },
            "Out of range float values are not JSON compliant",
        ),
    ],
)
def test_dump_refuses_what_load_would_refuse(
    tmp_path: Path, domains: dict[str, DomainEntry], message: str
) -> None:
    path = tmp_path / "learned.json"
    with pytest.raises(LearnedFormatError, match=re.escape(message)):
        dump_learned(LearnedSet(domains), path)
    assert not path.exists()
