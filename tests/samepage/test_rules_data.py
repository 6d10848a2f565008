"""The shipped rule data (samepage/data/rules.json): shape, hygiene and safety checks.

The file is read with the standard library only, from the installed ``samepage`` package, so
these checks hold for the wheel as well as for the source tree.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Callable, Iterator
from importlib import resources
from pathlib import Path
from typing import Any

import pytest

from samepage import SamepageError
from samepage.rules import RuleSet, default_rules

# Names that are content on ordinary sites: never in the global tracking list.
CONTENT_NAMES = frozenset(
    {
        "ref", "source", "from", "id", "page", "lang", "s", "q", "v", "t", "si", "feature",
        "tag", "sid", "session", "cid", "share", "p", "query", "search", "sort", "order",
        "type", "category", "item", "product", "variant", "color", "size", "format",
    }
)  # fmt: skip
# Host keys cover subdomains, so a "www." key is usually a mistake; these are deliberate.
_WWW_ON_PURPOSE = frozenset({"www.baidu.com"})
_HOST = re.compile(r"^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*$")


def _load() -> dict[str, Any]:
    text = resources.files("samepage").joinpath("data/rules.json").read_text(encoding="utf-8")
    data: dict[str, Any] = json.loads(text)
    return data


DATA = _load()


def _name_lists() -> Iterator[tuple[str, list[dict[str, Any]]]]:
    yield "tracking", DATA["tracking"]
    for group in DATA["domains"]:
        label = group["hosts"][0]
        yield f"{label}:allow", group.get("allow", [])
        yield f"{label}:block", group.get("block", [])


def _entries() -> Iterator[tuple[str, dict[str, Any]]]:
    for label, entries in _name_lists():
        for entry in entries:
            yield label, entry
    for entry in DATA["ambiguous"]:
        yield "ambiguous", entry
    for entry in DATA["session"]:
        yield "session", entry


def _rule_name(entry: dict[str, Any]) -> str:
    return str(entry["name"]) if "name" in entry else str(entry["prefix"]) + "*"


def test_format_and_version() -> None:
    assert DATA["format"] == "samepage.rules"
    assert DATA["version"] == 1
    assert set(DATA) == {
        "format",
        "version",
        "tracking",
        "ambiguous",
        "domains",
        "session",
        "path_sessions",
        "redirects",
        "aliases",
        "exceptions",
    }


def test_the_lists_are_broad() -> None:
    assert len(DATA["tracking"]) >= 150
    assert len(DATA["ambiguous"]) >= 8
    assert len(DATA["domains"]) >= 25


def test_every_entry_has_exactly_one_of_name_or_prefix() -> None:
    for label, entries in _name_lists():
        for entry in entries:
            assert ("name" in entry) != ("prefix" in entry), (label, entry)
            # A block entry may carry its source's narrower scope: hosts and paths.
            scope = {"hosts", "paths"} if label.endswith(":block") else set()
            assert set(entry) <= {"name", "prefix", "source"} | scope, (label, entry)
    allowed = {"name", "values", "value_prefixes", "value_regex", "except_hosts", "requires"}
    for entry in DATA["ambiguous"]:
        assert "name" in entry and "prefix" not in entry, entry
        assert set(entry) <= allowed | {"source"}, entry
        assert entry.get("values") or entry.get("value_prefixes") or entry.get("value_regex"), entry
    for entry in DATA["session"]:
        assert ("name" in entry) != ("prefix" in entry), entry
        assert set(entry) <= allowed | {"prefix", "source"}, entry
        # A session id is only dropped for a token-shaped value: sid=42 is a story id.
        assert entry.get("value_regex"), entry


def test_every_entry_and_group_has_a_source() -> None:
    for label, entry in _entries():
        assert isinstance(entry.get("source"), str) and entry["source"].strip(), (label, entry)
    for group in DATA["domains"]:
        assert isinstance(group.get("source"), str) and group["source"].strip(), group["hosts"]


def test_names_and_values_are_lower_case() -> None:
    for label, entry in _entries():
        key = entry.get("name", entry.get("prefix"))
        assert isinstance(key, str) and key, (label, entry)
        assert key == key.lower(), (label, key)
        assert key == key.strip() and "=" not in key and "&" not in key, (label, key)
    for entry in DATA["ambiguous"]:
        for value in [*entry.get("values", []), *entry.get("value_prefixes", [])]:
            assert value == value.lower() and value, (entry["name"], value)


@pytest.mark.parametrize(
    "label, entries", [pytest.param(label, entries, id=label) for label, entries in _name_lists()]
)
def test_no_duplicates_within_a_list(label: str, entries: list[dict[str, Any]]) -> None:
    # One name may have entries of different scopes (hosts and paths) in one block list.
    counts = Counter(
        (_rule_name(entry), str(entry.get("hosts")), str(entry.get("paths"))) for entry in entries
    )
    assert [key for key, count in counts.items() if count > 1] == []


def test_no_duplicates_in_ambiguous_or_its_values() -> None:
    counts = Counter(entry["name"] for entry in DATA["ambiguous"])
    assert [key for key, count in counts.items() if count > 1] == []
    for entry in DATA["ambiguous"]:
        for field in ("values", "value_prefixes", "except_hosts"):
            items = entry.get(field, [])
            assert len(items) == len(set(items)), (entry["name"], field)


def test_no_name_both_tracking_and_ambiguous() -> None:
    tracking = {entry["name"] for entry in DATA["tracking"] if "name" in entry}
    prefixes = [entry["prefix"] for entry in DATA["tracking"] if "prefix" in entry]
    for entry in DATA["ambiguous"]:
        assert entry["name"] not in tracking, entry["name"]
        # A tracking prefix would drop the name before the ambiguous layer could look at it.
        assert not any(entry["name"].startswith(prefix) for prefix in prefixes), entry["name"]


def test_no_content_name_in_tracking() -> None:
    for entry in DATA["tracking"]:
        if "name" in entry:
            assert entry["name"] not in CONTENT_NAMES, entry
        else:
            assert not any(name.startswith(entry["prefix"]) for name in CONTENT_NAMES), entry


def test_tracking_prefixes_are_long_and_end_in_a_separator() -> None:
    for entry in DATA["tracking"]:
        if "prefix" in entry:
            assert len(entry["prefix"]) >= 3, entry
            assert entry["prefix"][-1] in "_-.", entry


def test_domain_block_prefixes_are_at_least_three_characters() -> None:
    for group in DATA["domains"]:
        for entry in group.get("block", []):
            if "prefix" in entry:
                assert len(entry["prefix"]) >= 3, (group["hosts"][0], entry)


def test_value_regexes_compile() -> None:
    for entry in [*DATA["ambiguous"], *DATA["session"]]:
        if "value_regex" in entry:
            re.compile(entry["value_regex"])


def test_partner_names_exist() -> None:
    # "requires" names a parameter that must be present too; it must be a rule of its own,
    # so that a pair such as CFID and CFTOKEN goes together.
    names = {e.get("name") for e in [*DATA["ambiguous"], *DATA["session"]]}
    for entry in [*DATA["ambiguous"], *DATA["session"]]:
        if "requires" in entry:
            assert entry["requires"] in names, entry


def test_rewrite_sections_have_ids_sources_and_valid_patterns() -> None:
    for section, fields in [
        ("path_sessions", {"id", "regex", "source"}),
        ("redirects", {"id", "hosts", "path", "params", "source"}),
        ("aliases", {"id", "hosts", "path", "to_host", "to_path", "add_query", "source"}),
    ]:
        ids = Counter(entry["id"] for entry in DATA[section])
        assert [key for key, count in ids.items() if count > 1] == [], section
        for entry in DATA[section]:
            assert set(entry) <= fields, (section, entry)
            assert isinstance(entry.get("source"), str) and entry["source"].strip(), entry
            assert re.fullmatch(r"[a-z0-9-]+", entry["id"]), entry["id"]
            for host in entry.get("hosts", []):
                assert _HOST.fullmatch(host), (section, host)
            for key in ("regex", "path"):
                if key in entry and section != "redirects":
                    re.compile(entry[key])
    for entry in DATA["redirects"]:
        assert entry.get("path", "/").startswith("/"), entry
        assert entry["params"] and all(p == p.lower() for p in entry["params"]), entry
    for entry in DATA["aliases"]:
        assert entry.get("to_host") or entry.get("to_path"), entry
    # An alias gives the final form of its host's page, so a host has at most one alias
    # rule, and no alias leads to a host that has one.
    alias_hosts = Counter(host for entry in DATA["aliases"] for host in entry["hosts"])
    assert [host for host, count in alias_hosts.items() if count > 1] == []
    for entry in DATA["aliases"]:
        assert entry.get("to_host") not in alias_hosts, entry["id"]


def test_ambiguous_values_are_not_ordinary_content() -> None:
    # The ambiguous layer must never drop the values of the table's "must keep" rows.
    rules = RuleSet.from_json(DATA)
    for name, value in [
        ("ref", "main"),
        ("ref", "inv-2024-001"),
        ("source", "kb123"),
        ("from", "2024-01-01"),
        ("origin", "lhr"),
        ("medium", "oil"),
    ]:
        rule = rules.ambiguous.get(name)
        assert rule is None or not rule.is_tracking(value), (name, value)


def _hosts() -> Iterator[str]:
    for group in DATA["domains"]:
        yield from group["hosts"]
    for entry in DATA["ambiguous"]:
        yield from entry.get("except_hosts", [])


def test_hosts_are_bare_lower_case_names() -> None:
    for host in _hosts():
        assert host == host.lower(), host
        assert "://" not in host and "/" not in host and ":" not in host, host
        assert _HOST.fullmatch(host), host
        assert not host.startswith("www.") or host in _WWW_ON_PURPOSE, host


def test_no_host_in_two_groups() -> None:
    counts = Counter(host for group in DATA["domains"] for host in group["hosts"])
    assert [host for host, count in counts.items() if count > 1] == []
    for group in DATA["domains"]:
        assert group["hosts"], group
        assert set(group) <= {"hosts", "allow", "block", "source", "except_paths"}, group["hosts"]
        for pattern in group.get("except_paths", []):
            # Matched from the start of the path: every pattern starts with "/".
            assert pattern.startswith("/"), (group["hosts"][0], pattern)
            re.compile(pattern)


def test_ruleset_accepts_the_file() -> None:
    rules = RuleSet.from_json(DATA)
    assert rules.tracking.match("utm_source") is not None
    assert rules.tracking.match("fbclid") is not None
    assert rules.tracking.match("ref") is None
    assert rules.domain("www.youtube.com") is not None
    assert rules.domain("www.amazon.co.uk") is not None
    assert rules.domain("notamazon.com") is None
    named = [entry["name"] for entry in [*DATA["ambiguous"], *DATA["session"]] if "name" in entry]
    assert set(rules.ambiguous) == set(named)
    assert [p for p, _ in rules.ambiguous_prefixes] == [
        entry["prefix"] for entry in DATA["session"] if "prefix" in entry
    ]
    assert rules.redirect_rules("www.google.co.uk")
    assert not rules.redirect_rules("notgoogle.com")
    assert rules.aliases["youtu.be"]


def test_the_built_in_groups_compiled_on_first_use_are_the_groups_of_the_file() -> None:
    # default_rules() compiles a platform group when one of its hosts is first looked up.
    built_in = default_rules()
    whole = RuleSet.from_json(DATA)
    assert set(built_in.domains) == set(whole.domains)
    for host in whole.domains:
        assert built_in.domain(host) == whole.domain(host), host
    assert built_in.domain("youtu.be") is built_in.domain("www.youtube.com")
    assert built_in.rule_keys() == whole.rule_keys()


def test_a_group_that_cannot_be_compiled_is_named_when_the_document_is_read() -> None:
    document = _load()
    document["domains"].append(
        {"hosts": ["bad.test"], "except_paths": ["/(unclosed"], "block": [{"name": "x"}]}
    )
    where = rf"rules: domains\[{len(document['domains']) - 1}\] \(bad\.test\): error"
    with pytest.raises(SamepageError, match=where):
        RuleSet.from_json(document)


# Every name that at least two of the reference lists strip on every site (Brave's
# query-filter.json and clean-urls.json global lists, Firefox's query-stripping and
# strip-on-share lists, AdGuard's general_url.txt, ClearURLs' globalRules), as read in
# December 2026. docs/rules.md says how the list was made.
STRIPPED_BY_TWO_LISTS = (  # noqa: SIM905
    """
__hsfp __hssc __hstc __s _bhlid _branch_match_id _branch_referrer _ga _gl _hsenc _kx _openstat
action_object_map action_ref_map action_type_map at_recipient_id at_recipient_list bbeml
bsft_clkid bsft_uid cm_cr cm_me cmpid cx_click cx_recsorder cx_recswidget dclid et_rid
fb_action_ids fb_action_types fb_comment_id fb_ref fb_source fbclid gbraid gclid gclsrc
guccounter guce_referrer guce_referrer_sig hsa_acc hsa_ad hsa_cam hsa_grp hsa_kw hsa_la hsa_mt
hsa_net hsa_ol hsa_src hsa_tgt hsa_ver hsctatracking ir_adid ir_campaignid ir_partnerid
irclickid irgwc itm_campaign itm_medium itm_source mc_cid mc_eid mkt_tok ml_subscriber
ml_subscriber_hash msclkid mtm_campaign mtm_cid mtm_content mtm_group mtm_keyword mtm_kwd
mtm_medium mtm_placement mtm_source oft_c oft_ck oft_d oft_id oft_ids oft_k oft_lk oft_sk
oly_anon_id oly_enc_id pk_campaign pk_cid pk_medium pk_source rb_clickid s_cid sc_customer
sc_eh sc_uid sfmc_activityid sfmc_id sms_click sms_source sms_uph srsltid ss_email_id syclid
ttclid twclid unicorn_click_id usqp utm_ad utm_adgroup utm_affiliate utm_ag utm_brand
utm_campaign utm_campaigncode utm_campaignid utm_channel utm_cid utm_content utm_creative
utm_creative_format utm_device utm_emcid utm_emmid utm_id utm_id_ utm_internal utm_keyword
utm_mailing utm_marketing_tactic utm_medium utm_name utm_place utm_product utm_pubreferrer
utm_reader utm_referrer utm_serial utm_session utm_siteid utm_social utm_social-type
utm_source utm_source_platform utm_supplier utm_swu utm_term utm_umguk utm_userid utm_viz_id
vero_conv vero_id vgo_ee wbraid wickedid wt_mc yclid ymclid ymid ysclid
"""
).split()


def test_every_tracker_two_reference_lists_strip_is_covered() -> None:
    rules = RuleSet.from_json(DATA)
    assert len(STRIPPED_BY_TWO_LISTS) == 159
    for name in STRIPPED_BY_TWO_LISTS:
        # __s is content on some sites: value-conditioned in the ambiguous layer.
        assert rules.tracking.match(name) is not None or name in rules.ambiguous, name


# The lists a source can cite, as docs/rules.md counts them.
_CITED = [
    (
        "Brave query-filter / clean-urls",
        re.compile(r"Brave (query filter|clean-urls)|brave-browser"),
    ),
    (
        "Firefox query-stripping / strip-on-share",
        re.compile(r"Firefox (query-stripping|strip-on-share)"),
    ),
    ("AdGuard URL Tracking filter", re.compile(r"AdGuard")),
    ("ClearURLs", re.compile(r"ClearURLs")),
    ("uBlock Origin privacy filters", re.compile(r"uBlock Origin")),
    ("Zyte duplicate-url-discarder-rules", re.compile(r"duplicate-url-discarder-rules")),
    ("Heritrix / surt (web archives)", re.compile(r"Heritrix|surt package")),
    ("a document (vendor, platform, RFC, issue)", re.compile(r"https?://")),
]
_COLUMNS = ["global", "value-conditioned", "per platform", "rewrites"]


def _sourced_entries() -> Iterator[tuple[str, str]]:
    for entry in DATA["tracking"]:
        yield "global", entry["source"]
    for entry in [*DATA["ambiguous"], *DATA["session"]]:
        yield "value-conditioned", entry["source"]
    for group in DATA["domains"]:
        for entry in [*group.get("block", []), *group.get("allow", [])]:
            yield "per platform", entry["source"]
    for entry in [*DATA["path_sessions"], *DATA["redirects"], *DATA["aliases"]]:
        yield "rewrites", entry["source"]


def source_table() -> str:
    """The per-source count table of docs/rules.md, computed from the data."""
    counts: Counter[tuple[str, str]] = Counter()
    for column, source in _sourced_entries():
        counts[("entries", column)] += 1
        cited = [label for label, pattern in _CITED if pattern.search(source)]
        for label in cited:
            counts[(label, column)] += 1
        if not cited:
            counts[("a written reason only", column)] += 1
    rows = ["| source cited | " + " | ".join(_COLUMNS) + " | all |", "|---" + "|---:" * 5 + "|"]
    for label in ["entries", *(label for label, _ in _CITED), "a written reason only"]:
        cells = [counts[(label, column)] for column in _COLUMNS]
        rows.append(f"| {label} | " + " | ".join(map(str, cells)) + f" | {sum(cells)} |")
    return "\n".join(rows)


def test_docs_count_entries_per_source() -> None:
    docs = (Path(__file__).parents[2] / "docs" / "rules.md").read_text(encoding="utf-8")
    assert source_table() in docs, "docs/rules.md needs this table:\n" + source_table()


@pytest.mark.parametrize(
    "change, message",
    [
        (lambda d: d["tracking"].append({"source": "x"}), "tracking[{n}]: needs exactly one"),
        (lambda d: d["ambiguous"].append("ref"), "ambiguous[{n}]: an entry must be an object"),
        (lambda d: d["domains"].append({"allow": []}), "domains[{n}]: 'hosts' must be"),
        (lambda d: d["redirects"].append({"hosts": ["a.test"]}), "redirects[{n}]: needs a string"),
        (lambda d: d.update(aliases={}), "aliases: must be a list"),
    ],
)
def test_a_broken_rules_file_names_the_entry_and_the_problem(
    change: Callable[[dict[str, Any]], None], message: str
) -> None:
    document = _load()
    section = message.split("[")[0].split(":")[0]
    count = len(document[section]) if isinstance(document.get(section), list) else 0
    change(document)
    with pytest.raises(SamepageError, match=re.escape("rules: " + message.format(n=count))):
        RuleSet.from_json(document)
