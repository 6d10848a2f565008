"""Listed names kept on one host (the ``keep_listed`` option, a learned set's ``keep_listed``),
and host keys that are public suffixes, refused wherever they come from."""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path
from typing import Any

import pytest

from samepage import (
    DomainEntry,
    LearnedFormatError,
    LearnedSet,
    ListedKeep,
    MIQPSNormalizer,
    dump_learned,
    load_learned,
)
from samepage._suffixes import is_public_suffix
from tests.cli_process import samepage_here as run

PLAUSIBLE = {"stats.example.org": ["utm_source", "source"]}


@pytest.mark.parametrize(
    ("url", "expected"),
    [
        # The dashboard's filters are its content: two filters, two pages.
        (
            "https://stats.example.org/stats.example.org?utm_source=github",
            "https://stats.example.org/stats.example.org?utm_source=github",
        ),
        (
            "https://stats.example.org/x?source=Twitter",
            "https://stats.example.org/x?source=Twitter",
        ),
        # Subdomains too, on label boundaries, on any port (as extra_allowlist's keys).
        (
            "https://a.stats.example.org:8443/x?UTM_SOURCE=a",
            "https://a.stats.example.org:8443/x?UTM_SOURCE=a",
        ),
        # Only the names given: fbclid still goes there.
        (
            "https://stats.example.org/x?utm_source=a&fbclid=1&utm_medium=b",
            "https://stats.example.org/x?utm_source=a",
        ),
        # Only there: the lists apply on every other host.
        (
            "https://notstats.example.org/x?utm_source=a&source=twitter",
            "https://notstats.example.org/x",
        ),
        ("https://example.com/x?utm_source=a", "https://example.com/x"),
    ],
)
def test_the_option_keeps_a_listed_name_on_its_host_only(url: str, expected: str) -> None:
    assert MIQPSNormalizer(keep_listed=PLAUSIBLE).normalize(url) == expected


def test_without_the_option_the_lists_apply() -> None:
    norm = MIQPSNormalizer(extra_allowlist={"stats.example.org": ["utm_source"]})
    # The allowlist runs after the blocklist: it never keeps a listed name.
    assert (
        norm.normalize("https://stats.example.org/x?utm_source=a") == "https://stats.example.org/x"
    )


def test_explain_names_the_keep_rule() -> None:
    trace = MIQPSNormalizer(keep_listed=PLAUSIBLE).explain(
        "https://stats.example.org/x?source=Twitter&fbclid=1"
    )
    decided = {p.name: (p.kept, p.layer, p.rule) for p in trace.params}
    assert decided["source"] == (True, "keep", "keep:stats.example.org:source")
    assert decided["fbclid"] == (False, "blocklist", "tracking:fbclid")


def test_a_kept_name_is_part_of_the_pattern_key_there() -> None:
    norm = MIQPSNormalizer(keep_listed=PLAUSIBLE)
    assert norm.pattern_key("https://stats.example.org/x?utm_source=a&id=1") == "id&utm_source"
    assert norm.pattern_key("https://example.com/x?utm_source=a&id=1") == "id"


@pytest.mark.parametrize(
    ("option", "error"),
    [
        ({"github.io": ["utm_source"]}, ValueError),  # a public suffix: every tenant's site
        ({"co.uk": ["utm_source"]}, ValueError),
        ({"blogspot.com": ["ref"]}, ValueError),
        ({"a.example:8080": ["x"]}, ValueError),  # keys have no port, as the allowlist's
        ({"bücher.example": ["x"]}, ValueError),  # not as URLs carry the host
        ({"a.example": ["utm_*"]}, ValueError),  # exact names only
        ({"a.example": [""]}, ValueError),
        ({"a.example": "utm_source"}, TypeError),  # never the names "u", "t", "m"...
        (["a.example"], TypeError),
    ],
)
def test_bad_option_values_are_refused_naming_the_option(option: Any, error: type) -> None:
    with pytest.raises(error, match="keep_listed"):
        MIQPSNormalizer(keep_listed=option)


def _learned_doc(keep: dict[str, Any]) -> dict[str, Any]:
    return {
        "format": "samepage.learned",
        "version": 1,
        "settings": {"threshold": 0.0},
        "domains": {
            "data.example": {
                "patterns": {},
                "keep_listed": keep,
            }
        },
    }


KEEP = {
    "utm_source": {
        "tested": 2,
        "changed": 2,
        "failed": 0,
        "overrules": ["tracking:utm_*"],
        "templates": ["/{slug}/{slug}"],
    }
}


def test_a_learned_keep_is_read_written_and_honoured(tmp_path: Path) -> None:
    learned = load_learned(_learned_doc(KEEP))
    entry = learned.domains["data.example"]
    assert entry.keep_listed == {
        "utm_source": ListedKeep(2, 2, 0, ("tracking:utm_*",), ("/{slug}/{slug}",))
    }
    path = dump_learned(learned, tmp_path / "learned.json")
    assert load_learned(path).domains == learned.domains
    assert json.loads(path.read_text())["domains"]["data.example"]["keep_listed"] == KEEP
    norm = MIQPSNormalizer(learned=path)
    url = "https://data.example/fixtures/facetable?utm_source=x"
    assert norm.normalize(url) == url
    (param,) = norm.explain(url).params
    assert (param.kept, param.layer, param.rule) == (
        True,
        "learned",
        "learned:data.example:keep:utm_source",
    )
    # Only the name the renders kept, only on that host.
    assert norm.normalize("https://data.example/t?utm_medium=x") == "https://data.example/t"
    assert norm.normalize("https://other.example/t?utm_source=x") == "https://other.example/t"


def test_the_option_and_a_learned_keep_are_both_honoured() -> None:
    norm = MIQPSNormalizer(learned=_learned_doc(KEEP), keep_listed={"data.example": ["ref"]})
    url = "https://data.example/t?ref=twitter&utm_source=x"
    assert norm.normalize(url) == url


@pytest.mark.parametrize(
    ("keep", "where"),
    [
        # A keep rests on renders that showed a change: never on none, nor on failures.
        ({"utm_source": {"tested": 2, "changed": 0}}, "['utm_source']: a listed name"),
        ({"utm_source": {"tested": 0, "changed": 0, "failed": 3}}, "['utm_source']: a listed"),
        ({"a&b": {"tested": 1, "changed": 1}}, "['a&b']: not a parameter name"),
        ({"x": {"tested": 1, "changed": 1, "templates": ["t/x"]}}, "['x'].templates"),
        ({"x": {"tested": 1, "changed": 1, "overrules": "tracking:x"}}, "['x'].overrules"),
        ({"x": {"tested": -1, "changed": 1}}, "['x'].tested"),
    ],
)
def test_a_malformed_learned_keep_is_refused(keep: dict[str, Any], where: str) -> None:
    with pytest.raises(LearnedFormatError, match=f"keep_listed{re.escape(where)}"):
        load_learned(_learned_doc(keep))


def test_an_older_file_without_the_section_reads_as_before() -> None:
    doc = _learned_doc({})
    del doc["domains"]["data.example"]["keep_listed"]
    entry = load_learned(doc).domains["data.example"]
    assert entry.keep_listed == {}
    assert "keep_listed" not in entry.to_json()


@pytest.mark.parametrize("key", ["github.io", "blogspot.com", "co.uk", "com", "myshopify.com"])
def test_a_learned_key_that_is_a_public_suffix_is_refused(key: str) -> None:
    doc = _learned_doc(KEEP)
    doc["domains"] = {key: copy.deepcopy(doc["domains"]["data.example"])}
    with pytest.raises(LearnedFormatError, match="public suffix"):
        load_learned(doc)
    with pytest.raises(LearnedFormatError, match="public suffix"):
        load_learned({key: ["id"]})  # the simple form too
    with pytest.raises(LearnedFormatError, match="public suffix"):
        dump_learned(LearnedSet({key: DomainEntry()}), "/nonexistent/never-written.json")


@pytest.mark.parametrize(
    ("host", "expected"),
    [
        ("co.uk", True),
        ("github.io", True),  # the private section: tenants' sites
        ("blogspot.com", True),
        ("xn--fiqs8s", True),  # an IDN suffix, as host keys spell it (.中国)
        ("anything.ck", True),  # *.ck
        ("www.ck", False),  # !www.ck
        ("bbc.co.uk", False),
        ("stats.example.org", False),
        ("localhost", False),  # the implicit "*" rule is not applied
        ("127.0.0.1", False),
    ],
)
def test_public_suffixes_follow_the_list(host: str, expected: bool) -> None:
    assert is_public_suffix(host) is expected


def test_no_built_in_group_is_keyed_by_a_public_suffix() -> None:
    """Built-in platform rules stay on the platform's own hosts.

    Per-host exceptions of ambiguous names (``except_hosts``) only keep names, so they
    are not held to this.
    """
    data = json.loads((Path(__file__).parents[2] / "samepage/data/rules.json").read_text())
    keys = [
        (section, host)
        for section in ("domains", "redirects", "aliases")
        for group in data[section]
        for host in group.get("hosts", [])
    ]
    assert len(keys) > 500
    assert [key for key in keys if is_public_suffix(key[1].partition(":")[0])] == []


def test_the_cli_flag_keeps_and_refuses() -> None:
    url = "https://stats.example.org/x?utm_source=a&source=Reddit&fbclid=1"
    done = run(
        "same",
        url,
        "https://stats.example.org/x?utm_source=b",
        "--keep-listed",
        "stats.example.org=utm_source",
    )
    assert done.returncode == 1  # two dashboard filters: two pages
    done = run("explain", url, "--json", "--keep-listed", "stats.example.org=utm_source,source")
    assert done.returncode == 0
    rules = {p["name"]: p["rule"] for p in json.loads(done.stdout)["params"]}
    assert rules == {
        "utm_source": "keep:stats.example.org:utm_source",
        "source": "keep:stats.example.org:source",
        "fbclid": "tracking:fbclid",
    }
    for bad in ("github.io=utm_source", "stats.example.org", "=x"):
        done = run("explain", url, "--keep-listed", bad)
        assert done.returncode == 2
        assert "--keep-listed" in done.stderr


def test_the_duckdb_function_honours_the_option() -> None:
    duckdb = pytest.importorskip("duckdb")
    from samepage.duckdb import register

    con = duckdb.connect()
    register(con, MIQPSNormalizer(keep_listed={"stats.example.org": ["utm_source"]}))
    got = con.execute(
        "select samepage_key('https://stats.example.org/x?utm_source=a'), "
        "samepage_key('https://a.example/x?utm_source=a')"
    ).fetchone()
    assert got == ("https://stats.example.org/x?utm_source=a", "https://a.example/x")


@pytest.mark.parametrize(
    "value", [{"stats.example.org": ["utm_source"]}, '{"stats.example.org": ["utm_source"]}']
)
def test_the_scrapy_setting_reads_a_dict_or_its_json(value: object) -> None:
    from scrapy.settings import Settings

    from samepage.scrapy import normalizer_from_settings

    norm = normalizer_from_settings(Settings({"SAMEPAGE_KEEP_LISTED": value}))
    assert norm.normalize("https://stats.example.org/x?utm_source=a") == (
        "https://stats.example.org/x?utm_source=a"
    )
    assert norm.normalize("https://a.example/x?utm_source=a") == "https://a.example/x"


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ("{not json", "not valid JSON"),
        ({"github.io": ["utm_source"]}, "public suffix"),
        ({"a.example": "utm_source"}, "collection of parameter names"),
    ],
)
def test_a_bad_scrapy_setting_is_an_error_naming_it(value: object, message: str) -> None:
    from scrapy.settings import Settings

    from samepage.scrapy import normalizer_from_settings

    with pytest.raises(ValueError, match=f"^SAMEPAGE_KEEP_LISTED: .*{message}"):
        normalizer_from_settings(Settings({"SAMEPAGE_KEEP_LISTED": value}))
