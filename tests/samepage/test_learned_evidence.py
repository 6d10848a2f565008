"""The evidence a learned set records: read into its types, refused in a wrong shape, written back
byte for byte."""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from samepage import LearnedFormatError, LearnedSet, dump_learned, load_learned
from samepage._evidence_check import EvidenceReader
from samepage.learned import (
    CompanionCoverage,
    Coverage,
    RefusedAlias,
    RejectedDefault,
    RejectedJointDefaults,
    Sample,
    TemplateCounts,
    ValueClass,
    VerdictCause,
    dumps_learned,
)

ROOT = Path(__file__).resolve().parents[2]
URL = "https://s.example/l?page=1&q=a"
SAMPLE = {"url": URL, "candidate": "https://s.example/l?q=a", "outcome": "same"}
ARCHIVED = {**SAMPLE, "outcome": "changed", "from": "archive"}
COVERAGE: dict[str, Any] = {
    "paths": ["/l"],
    "paths_tested": 1,
    "paths_seen": 2,
    "companions_tested": 2,
    "companions_seen": 3,
    "share": 0.9,
    "templates_seen": 1,
    "templates": {"/l": {"urls": 10, "tested": 3, "changed": 0, "failed": 1}},
    "values": {
        "q": {
            "share": 0.642,
            "urls": 14,
            "numeric": False,
            "classes_seen": 3,
            "classes": [
                {"value": "a", "urls": 9, "samples": 3, "covered": True},
                {"value": ["a", "b"], "urls": 3, "samples": 0, "covered": False},
                {"value": None, "urls": 2, "samples": 0, "covered": False},
            ],
        }
    },
}
REJECTED = {
    "samples": [SAMPLE],
    "coverage": COVERAGE,
    "tested": 1,
    "changed": 1,
    "failed": 0,
    "reason": "the page changed without the parameter",
}
REFUSED = {
    "from": "/?p={value}",
    "to": "/{value}",
    "finding": "apart",
    "reason": "/?p=1 and /1: changed",
    "samples": 2,
    "controls": 1,
    "replaced": 0,
}


def _doc() -> dict[str, Any]:
    """A set holding every kind of evidence, as the learner writes it."""
    page = {
        "verdict": "non-neutral",
        "tested": 3,
        "changed": 1,
        "failed": 0,
        "cause": "changed",
        "samples": [SAMPLE, ARCHIVED],
        "coverage": COVERAGE,
        "defaults": {"1": {"tested": 3, "changed": 0, "failed": 0, "samples": [SAMPLE]}},
        "rejected_defaults": {"2": REJECTED, "3": {"samples": [SAMPLE], "reason": "changed"}},
    }
    q = {
        "verdict": "non-neutral",
        "tested": 3,
        "changed": 2,
        "failed": 0,
        "cause": "changed",
        "defaults": {"a": {"tested": 3, "changed": 0, "failed": 0, "coverage": COVERAGE}},
    }
    scoped = {"verdict": "neutral", "tested": 3, "changed": 0, "failed": 0, "samples": [SAMPLE]}
    scoped["cause"] = "no-change"
    shared = {
        "verdict": "non-neutral",
        "tested": 4,
        "changed": 1,
        "failed": 0,
        "cause": "changed",
        "patterns": ["page&q"],
        "defaults": {"1": {"tested": 3, "changed": 0, "failed": 0, "patterns": ["page&q"]}},
    }
    joint = {"names": ["page", "q"], "tested": 2, "changed": 0, "failed": 0, "samples": [SAMPLE]}
    pattern = {
        "urls": 20,
        "params": {"page": page, "q": q},
        "joint_checks": [SAMPLE],
        "joint_defaults": joint,
        "rejected_joint_defaults": {"names": ["page", "q"], "reason": "changed", "samples": []},
        "templates": {"/l": {"urls": 10, "params": {"page": scoped}, "joint_checks": [SAMPLE]}},
    }
    return {
        "format": "samepage.learned",
        "version": 1,
        "created": "2026-01-01T00:00:00Z",
        "settings": {"threshold": 0.0},
        "domains": {
            "s.example": {
                "patterns": {"page&q": pattern},
                "shared": {"/l": {"urls": 30, "params": {"page": shared}, "patterns": ["page&q"]}},
                "renders": 40,
                "urls": 25,
                "aliases_refused": [REFUSED],
            }
        },
    }


def _text(doc: dict[str, Any]) -> str:
    return json.dumps(doc, indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def test_every_kind_of_evidence_is_read_into_its_type() -> None:
    entry = load_learned(_doc()).domains["s.example"]
    pattern = entry.patterns["page&q"]
    page = pattern.params["page"]
    assert page.cause is VerdictCause.CHANGED
    archived = Sample(URL, SAMPLE["candidate"], "changed", from_archive=True)
    assert page.samples == (Sample(URL, SAMPLE["candidate"], "same"), archived)
    assert page.coverage is not None and page.coverage.templates is not None
    assert page.coverage.templates["/l"] == TemplateCounts(10, 3, 0, 1)
    assert page.coverage.values is not None
    q = page.coverage.values["q"]
    assert q.share == 0.642 and q.covered_classes == 1
    assert q.classes is not None and [c.value for c in q.classes] == ["a", ("a", "b"), None]
    assert page.defaults["1"].samples == (page.samples[0],)
    assert page.rejected_defaults["2"].reason == "the page changed without the parameter"
    assert page.rejected_defaults["3"].coverage is None
    assert pattern.params["q"].defaults["a"].coverage is not None
    assert pattern.joint_checks == (page.samples[0],)
    assert pattern.joint_defaults is not None and pattern.joint_defaults.samples is not None
    assert pattern.rejected_joint_defaults == RejectedJointDefaults(("page", "q"), "changed", ())
    assert pattern.templates["/l"].joint_checks == (page.samples[0],)
    scope = entry.shared["/l"]
    assert scope.patterns == ("page&q",) and scope.params["page"].patterns == ("page&q",)
    assert scope.params["page"].defaults["1"].patterns == ("page&q",)
    assert (entry.renders, entry.urls) == (40, 25)
    assert entry.aliases_refused == (
        RefusedAlias("/?p={value}", "/{value}", "apart", "/?p=1 and /1: changed", 2, 1, 0),
    )
    # A verdict that records nothing has nothing: no cause, no samples, no coverage.
    bare = load_learned(_doc() | {"domains": {"s.example": {"patterns": {}}}})
    assert bare.domains["s.example"].renders is None


def test_a_set_with_every_kind_of_evidence_writes_back_byte_for_byte(tmp_path: Path) -> None:
    path = tmp_path / "learned.json"
    path.write_text(_text(_doc()), encoding="utf-8")
    again = dump_learned(load_learned(path), tmp_path / "again.json")
    assert again.read_bytes() == path.read_bytes()


def test_unknown_keys_pass_through_beside_the_evidence() -> None:
    doc = _doc()
    entry = doc["domains"]["s.example"]
    page = entry["patterns"]["page&q"]["params"]["page"]
    page["samples"][0] = {**SAMPLE, "note": 1}
    page["coverage"] = {**COVERAGE, "newer": [1]}
    page["rejected_defaults"]["2"] = {**REJECTED, "renders": 4}
    entry["aliases_refused"][0] = {**REFUSED, "step": "x"}
    learned = load_learned(doc)
    verdict = learned.domains["s.example"].patterns["page&q"].params["page"]
    assert verdict.samples is not None and verdict.samples[0].extra == {"note": 1}
    assert verdict.coverage is not None and verdict.coverage.extra == {"newer": [1]}
    assert verdict.rejected_defaults["2"].extra == {"renders": 4}
    assert learned.domains["s.example"].aliases_refused[0].extra == {"step": "x"}
    assert dumps_learned(learned) == _text(doc)


_READ: list[tuple[str, Callable[[EvidenceReader], Callable[[Any, str], Any]], Any]] = [
    ("sample", lambda r: r.sample, Sample(URL, "c", "failed", True, {"x": 1})),
    ("coverage", lambda r: r.coverage, Coverage(share=1, values={"q": CompanionCoverage()})),
    (
        "companion",
        lambda r: lambda v, w: r.companions({"q": v}, w)["q"],
        CompanionCoverage(0.5, 3, True, 2, (ValueClass(("1", "2"), 1, 1, True),)),
    ),
    ("class", lambda r: r.value_class, ValueClass(None, 2, 0, False)),
    (
        "template counts",
        lambda r: lambda v, w: r.template_counts({"/t": v}, w)["/t"],
        TemplateCounts(1, 1, 0, 0),
    ),
    (
        "rejected default",
        lambda r: lambda v, w: r.rejected_defaults({"1": v}, w)["1"],
        RejectedDefault("why", (Sample(URL, "c", "same"),), Coverage(paths=("/",)), 1, 1, 0),
    ),
    ("rejected joint", lambda r: r.rejected_joint_defaults, RejectedJointDefaults(("a", "b"))),
    ("refused alias", lambda r: r.refused_alias, RefusedAlias("/a", "/b", "unproven", "few")),
]


@pytest.mark.parametrize(("kind", "reader", "record"), _READ, ids=[k for k, _, _ in _READ])
def test_each_evidence_record_reads_back_what_it_writes(
    kind: str, reader: Callable[[EvidenceReader], Callable[[Any, str], Any]], record: Any
) -> None:
    written = record.to_json()
    assert reader(EvidenceReader("t"))(json.loads(json.dumps(written)), kind) == record


_PAGE = ("domains", "s.example", "patterns", "page&q", "params", "page")
_PATTERN = _PAGE[:4]
_DOMAIN = _PAGE[:2]
_WRONG: list[tuple[tuple[str | int, ...], Any, str]] = [
    ((*_PAGE, "cause"), "bogus", r"\.params\['page'\]\.cause: unknown cause 'bogus'"),
    ((*_PAGE, "cause"), None, r"unknown cause None"),
    ((*_PAGE, "samples"), {"url": URL}, r"\.samples: expected a list, got dict"),
    ((*_PAGE, "samples", 0, "outcome"), "maybe", r"\.samples\[0\]\.outcome: expected 'same'"),
    ((*_PAGE, "samples", 0, "url"), 3, r"\.samples\[0\]\.url: expected a string, got 3"),
    ((*_PAGE, "samples", 1, "from"), "render", r"\.samples\[1\]\.from: expected 'archive'"),
    ((*_PAGE, "samples", 0), "x", r"\.samples\[0\]: expected an object, got str"),
    ((*_PAGE, "coverage"), [], r"\.coverage: expected an object, got list"),
    ((*_PAGE, "coverage", "share"), "0.9", r"\.coverage\.share: expected a number, got '0.9'"),
    ((*_PAGE, "coverage", "share"), True, r"\.share: expected a number, got True"),
    ((*_PAGE, "coverage", "paths"), "/l", r"\.coverage\.paths: expected a list of strings"),
    ((*_PAGE, "coverage", "paths_seen"), -1, r"\.paths_seen: expected a non-negative integer"),
    ((*_PAGE, "coverage", "templates", "/l", "tested"), 1.5, r"\['/l'\]\.tested: expected a"),
    ((*_PAGE, "coverage", "values", "q", "numeric"), 1, r"\['q'\]\.numeric: expected true or"),
    ((*_PAGE, "coverage", "values", "q", "classes"), {}, r"\.classes: expected a list"),
    (
        (*_PAGE, "coverage", "values", "q", "classes", 0, "value"),
        3,
        r"\.classes\[0\]\.value: expected a value, a list of values or null",
    ),
    ((*_PAGE, "defaults", "1", "samples"), ["x"], r"defaults\['1'\]\.samples\[0\]: expected an"),
    ((*_PAGE, "rejected_defaults"), [], r"\.rejected_defaults: expected an object, got list"),
    ((*_PAGE, "rejected_defaults", "2", "reason"), 1, r"\['2'\]\.reason: expected a string"),
    ((*_PAGE, "rejected_defaults", "2", "tested"), "1", r"\['2'\]\.tested: expected a non-neg"),
    ((*_PATTERN, "joint_checks"), {}, r"\.joint_checks: expected a list, got dict"),
    ((*_PATTERN, "joint_defaults", "samples", 0), 1, r"joint_defaults\.samples\[0\]: expected"),
    ((*_PATTERN, "rejected_joint_defaults"), [], r"rejected_joint_defaults: expected an object"),
    ((*_PATTERN, "rejected_joint_defaults", "names"), "a", r"\.names: expected a list of str"),
    ((*_PATTERN, "templates", "/l", "joint_checks", 0, "candidate"), None, r"\.candidate: exp"),
    (("domains", "s.example", "shared", "/l", "patterns"), "page&q", r"\.patterns: expected a"),
    ((*_DOMAIN, "renders"), "40", r"\['s\.example'\]\.renders: expected a non-negative integer"),
    ((*_DOMAIN, "urls"), -2, r"\['s\.example'\]\.urls: expected a non-negative integer"),
    ((*_DOMAIN, "aliases_refused"), {}, r"\.aliases_refused: expected a list, got dict"),
    ((*_DOMAIN, "aliases_refused", 0, "finding"), None, r"\[0\]\.finding: expected a string"),
    ((*_DOMAIN, "aliases_refused", 0, "controls"), 1.0, r"\[0\]\.controls: expected a non-neg"),
]


@pytest.mark.parametrize(("path", "value", "error"), _WRONG, ids=[m for _, _, m in _WRONG])
def test_evidence_of_a_wrong_shape_is_refused_naming_where(
    path: tuple[str | int, ...], value: Any, error: str
) -> None:
    doc = copy.deepcopy(_doc())
    target: Any = doc
    for step in path[:-1]:
        target = target[step]
    target[path[-1]] = value
    with pytest.raises(LearnedFormatError, match=error):
        load_learned(doc)


def _documented_sets() -> list[tuple[str, dict[str, Any]]]:
    """Every whole learned set the docs show (their JSON examples with a ``format``)."""
    found = []
    for doc in sorted((ROOT / "docs").glob("*.md")):
        blocks = re.findall(r"```json\n(.*?)```", doc.read_text(encoding="utf-8"), re.S)
        for n, block in enumerate(blocks):
            try:
                data = json.loads(block)
            except ValueError:
                continue
            if isinstance(data, dict) and data.get("format") == "samepage.learned":
                found.append((f"{doc.name}[{n}]", data))
    return found


@pytest.mark.parametrize(("where", "data"), _documented_sets(), ids=lambda v: str(v)[:30])
def test_the_documented_sets_read_and_read_the_same_once_written(
    where: str, data: dict[str, Any]
) -> None:
    learned = LearnedSet.from_json(data, origin=where)
    again = LearnedSet.from_json(json.loads(dumps_learned(learned)), origin=where)
    assert again.domains == learned.domains
