"""Each built-in block entry applies at its source's scope; the lists' exceptions hold."""

from __future__ import annotations

import json
from importlib import resources
from typing import Any

import pytest

from samepage import MIQPSNormalizer, SamepageError
from samepage.rules import RuleSet
from tests.samepage import rule_scopes

DATA: dict[str, Any] = json.loads(
    resources.files("samepage").joinpath("data/rules.json").read_text(encoding="utf-8")
)
NORM = MIQPSNormalizer()


def test_no_entry_applies_wider_than_its_source() -> None:
    wider = [
        (hosts[0], entry.get("name", entry.get("prefix")), places[:3])
        for hosts, entry in rule_scopes.block_entries(DATA)
        if (places := rule_scopes.wider(entry, hosts))
    ]
    assert wider == []


def test_every_scoped_entry_is_as_wide_as_its_source() -> None:
    # The scope written in the file is the source's, not narrower: the names stay dropped
    # where the lists strip them.
    for hosts, entry in rule_scopes.block_entries(DATA):
        if "hosts" not in entry and "paths" not in entry:
            continue
        places = rule_scopes.source_places(entry, hosts)
        assert places, entry
        for place in places:
            if place.host:  # every place the lists strip it on is covered by an entry
                assert _covered_by_a_sibling(entry, hosts, place), (entry, place)


def _covered_by_a_sibling(entry: dict[str, Any], hosts: tuple[str, ...], place: Any) -> bool:
    """An entry written as several scopes: another entry of the same name covers ``place``."""
    key = entry.get("name", entry.get("prefix"))
    for group_hosts, other in rule_scopes.block_entries(DATA):
        if group_hosts == hosts and other.get("name", other.get("prefix")) == key:
            written = rule_scopes.entry_places(other, hosts)
            if any(rule_scopes.covers(w, place) for w in written):
                return True
    return False


@pytest.mark.parametrize(
    "a, b",
    [
        # AdGuard strips these on one newsletter (||zapiska.substack.com^) only.
        (
            "https://substack.com/app-link/post?publication_id=817132&post_id=172889991"
            "&isFreemail=true&r=abc12",
            "https://substack.com/app-link/post?publication_id=817132&post_id=167007623"
            "&isFreemail=true&r=abc12",
        ),
        # ||map.yahoo.co.jp^: from_srv is not stripped on another Yahoo! JAPAN host.
        ("https://news.yahoo.co.jp/a?from_srv=1", "https://news.yahoo.co.jp/a?from_srv=2"),
        # ||coupang.com/*/products/: pagetype stays on other Coupang paths.
        (
            "https://www.coupang.com/np/search?pagetype=1",
            "https://www.coupang.com/np/search?pagetype=2",
        ),
        # Plausible dashboards filter on these names.
        (
            "https://plausible.io/plausible.io?utm_source=github",
            "https://plausible.io/plausible.io?utm_source=twitter",
        ),
        (
            "https://plausible.io/plausible.io?source=Twitter",
            "https://plausible.io/plausible.io?source=Reddit",
        ),
        (
            "https://plausible.io/share/example.com?auth=x&referrer=a",
            "https://plausible.io/share/example.com?auth=x&referrer=b",
        ),
        # An Apps Script web app reads its own parameters.
        (
            "https://script.google.com/macros/s/ID/exec?subid=1",
            "https://script.google.com/macros/s/ID/exec?subid=2",
        ),
        # ClearURLs excepts docs.google.<any TLD>.
        (
            "https://docs.google.de/document/d/1/edit?ei=1",
            "https://docs.google.de/document/d/1/edit?ei=2",
        ),
    ],
)
def test_pages_the_lists_do_not_strip_stay_apart(a: str, b: str) -> None:
    assert NORM.normalize(a) != NORM.normalize(b)


@pytest.mark.parametrize(
    "url, expected",
    [
        ("https://zapiska.substack.com/p/x?post_id=1", "https://zapiska.substack.com/p/x"),
        (
            "https://map.yahoo.co.jp/v2/place/x?from_srv=loco_web",
            "https://map.yahoo.co.jp/v2/place/x",
        ),
        (
            "https://www.coupang.com/vp/products/1?pagetype=1",
            "https://www.coupang.com/vp/products/1",
        ),
        ("https://example.com/p?utm_source=github", "https://example.com/p"),
    ],
)
def test_names_stay_dropped_at_their_source_scope(url: str, expected: str) -> None:
    assert NORM.normalize(url) == expected


def test_explain_names_the_exception() -> None:
    trace = NORM.explain("https://plausible.io/plausible.io?utm_source=github")
    [param] = trace.params
    assert (param.kept, param.layer, param.rule) == (
        True,
        "exception",
        "exception:plausible:utm_source",
    )


def test_the_callers_own_blocklist_wins_over_a_list_exception() -> None:
    norm = MIQPSNormalizer(extra_blocklist=["utm_source"])
    assert norm.normalize("https://plausible.io/x?utm_source=a") == "https://plausible.io/x"


def test_an_exception_can_be_switched_off() -> None:
    norm = MIQPSNormalizer(disable_rules={"exception:plausible:utm_source"})
    assert norm.normalize("https://plausible.io/x?utm_source=a") == "https://plausible.io/x"


def _document(**entry: Any) -> dict[str, Any]:
    return {
        "format": "samepage.rules",
        "version": 1,
        "domains": [{"hosts": ["example.com"], "block": [{"name": "x", "source": "s", **entry}]}],
    }


def test_scoped_entries_compile_and_apply_only_there() -> None:
    rules = RuleSet.from_json(_document(hosts=["a.example.com"], paths=["/p/"]))
    norm = MIQPSNormalizer(rules=rules)
    assert norm.normalize("https://a.example.com/p/1?x=1") == "https://a.example.com/p/1"
    assert norm.normalize("https://a.example.com/q?x=1") == "https://a.example.com/q?x=1"
    assert norm.normalize("https://b.example.com/p/1?x=1") == "https://b.example.com/p/1?x=1"


@pytest.mark.parametrize(
    "entry", [{"hosts": ["other.org"]}, {"hosts": []}, {"paths": ["("]}, {"paths": "x"}]
)
def test_a_scope_wider_than_the_group_or_malformed_is_refused(entry: dict[str, Any]) -> None:
    with pytest.raises(SamepageError, match=r"domains\[0\] \(example.com\)"):
        RuleSet.from_json(_document(**entry))
