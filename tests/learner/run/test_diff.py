"""Diffs between learned sets, the publishing gate, and the diff command."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

from learner.run.diff import diff_learned, format_diff, gate
from samepage import LearnedSet
from tests.plugins.engines import need_extra


def _doc(verdicts: dict[str, dict[str, str]]) -> dict[str, Any]:
    patterns = {
        pattern: {
            "urls": 1,
            "params": {
                n: {"verdict": v, "tested": 3, "changed": 0 if v == "neutral" else 3}
                for n, v in params.items()
            },
        }
        for pattern, params in verdicts.items()
    }
    return {
        "format": "samepage.learned",
        "version": 1,
        "domains": {"s.example": {"patterns": patterns}},
    }


OLD = _doc(
    {
        "a&b": {"a": "non-neutral", "b": "neutral"},
        "c": {"c": "non-neutral"},
        "gone": {"gone": "neutral"},
    }
)
NEW = _doc(
    {
        "a&b": {"a": "neutral", "b": "non-neutral"},
        "c": {"c": "non-neutral"},
        "new": {"new": "neutral"},
    }
)


def test_diff_lists_dangerous_flips_first() -> None:
    diff = diff_learned(LearnedSet.from_json(OLD), LearnedSet.from_json(NEW))
    assert diff.added == (("s.example", "new"),) and diff.removed == (("s.example", "gone"),)
    assert diff.common == 2
    assert [(f.param, f.dangerous) for f in diff.flips] == [("a", True), ("b", False)]
    lines = format_diff(diff)
    assert lines[1].startswith("  DANGER s.example [a&b] a: non-neutral -> neutral")


def test_diff_lists_the_new_sets_conflicts_between_patterns() -> None:
    conflicting = _doc({"a&b": {"a": "neutral", "b": "non-neutral"}, "b": {"b": "neutral"}})
    diff = diff_learned(LearnedSet.from_json(OLD), LearnedSet.from_json(conflicting))
    assert [(c.pattern, c.into, c.names) for c in diff.conflicts] == [("a&b", "b", ("b",))]
    assert (
        "  CONFLICT s.example [a&b] -> [b]: b would be dropped there, kept here; "
        "the normalizer keeps them on such URLs"
    ) in format_diff(diff)
    assert diff.to_json()["conflicts"] == [
        {"domain": "s.example", "pattern": "a&b", "into": "b", "names": ["b"]}
    ]


def test_gate_counts_patterns_with_a_flip_to_neutral() -> None:
    diff = diff_learned(LearnedSet.from_json(OLD), LearnedSet.from_json(NEW))
    assert not gate(diff, 0.4).allowed  # 1 of 2 common patterns = 50%
    assert gate(diff, 0.5).allowed
    same = diff_learned(LearnedSet.from_json(OLD), LearnedSet.from_json(OLD))
    assert gate(same, 0.0).allowed and same.flips == ()


def test_diff_command_exit_status(tmp_path: Path) -> None:
    old, new = tmp_path / "old.json", tmp_path / "new.json"
    old.write_text(json.dumps(OLD))
    new.write_text(json.dumps(NEW))
    need_extra("learner")  # python -m learner loads every command
    run = [sys.executable, "-m", "learner", "diff", str(old), str(new)]
    refused = subprocess.run(run, capture_output=True, text=True, timeout=60)
    assert refused.returncode == 1
    assert "DANGER s.example [a&b] a" in refused.stdout and "REFUSED" in refused.stdout
    allowed = subprocess.run(
        [*run, "--max-flip-fraction", "0.5"], capture_output=True, text=True, timeout=60
    )
    assert allowed.returncode == 0 and "allowed" in allowed.stdout
    new.write_text('{"format": "samepage.learned", "version": 7, "domains": {}}')
    bad = subprocess.run(run, capture_output=True, text=True, timeout=60)
    assert bad.returncode == 2 and "unknown version 7" in bad.stderr


def _with_default(values: dict[str, Any]) -> dict[str, Any]:
    doc = _doc({"page&q": {"page": "non-neutral", "q": "non-neutral"}})
    params = doc["domains"]["s.example"]["patterns"]["page&q"]["params"]
    params["page"]["defaults"] = values
    return doc


def test_a_newly_learned_default_is_the_dangerous_direction() -> None:
    old = LearnedSet.from_json(_with_default({}))
    new = LearnedSet.from_json(_with_default({"1": {"tested": 3}}))
    diff = diff_learned(old, new)
    assert [(f.param, f.old, f.new, f.dangerous) for f in diff.flips] == [
        ("page=1", "kept", "default", True)
    ]
    assert not gate(diff, 0.5).allowed
    assert "DANGER s.example [page&q] page=1: kept -> default" in format_diff(diff)[1]
    back = diff_learned(new, old)
    assert [(f.param, f.dangerous) for f in back.flips] == [("page=1", False)]
    assert gate(back, 0.0).allowed


def test_diff_lists_aliases_added_and_removed() -> None:
    def aliased(*rules: dict[str, Any]) -> LearnedSet:
        doc = _doc({"c": {"c": "non-neutral"}})
        doc["version"] = 2
        doc["domains"]["s.example"]["aliases"] = list(rules)
        return LearnedSet.from_json(doc)

    title = {"from": "/w/index.php?title={t}", "to": "/wiki/{t}"}
    host = {"host": "www.s.example", "to_host": "s.example"}
    diff = diff_learned(aliased(title), aliased(host, {**title, "evidence": {"renders": 2}}))
    # New evidence for one rule is no change; the host alias is new.
    assert diff.aliases_added == (("s.example", "www.s.example -> s.example"),)
    assert diff.aliases_removed == ()
    assert "  ALIAS added   s.example www.s.example -> s.example" in format_diff(diff)
    back = diff_learned(aliased(host), aliased())
    assert back.to_json()["aliases_removed"] == [["s.example", "www.s.example -> s.example"]]
    assert "  ALIAS removed s.example www.s.example -> s.example" in format_diff(back)


def test_diff_lists_aliases_kept_and_the_ones_the_study_refused_with_the_reason() -> None:
    title = {"from": "/w/index.php?title={t}", "to": "/wiki/{t}"}
    refused = {
        "from": "/?p={value}",
        "to": "/{value}",
        "finding": "apart",
        "reason": "/?p=1 and /1: changed (text differs)",
    }

    def aliased(*rules: dict[str, Any], refusals: list[dict[str, Any]] | None = None) -> LearnedSet:
        doc = _doc({"c": {"c": "non-neutral"}})
        doc["version"] = 2
        doc["domains"]["s.example"]["aliases"] = list(rules)
        if refusals:
            doc["domains"]["s.example"]["aliases_refused"] = refusals
        return LearnedSet.from_json(doc)

    diff = diff_learned(aliased(title), aliased(title, refusals=[refused]))
    assert diff.aliases_kept == (("s.example", "/w/index.php?title={t} -> /wiki/{t}"),)
    assert diff.aliases_refused == (
        ("s.example", "/?p={value} -> /{value}", "apart: /?p=1 and /1: changed (text differs)"),
    )
    lines = format_diff(diff)
    assert "  ALIAS kept    s.example /w/index.php?title={t} -> /wiki/{t}" in lines
    assert any(
        line.startswith("  ALIAS refused s.example /?p={value} -> /{value} (apart:")
        for line in lines
    )
