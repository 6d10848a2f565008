"""Listed names spot-checked: which samples a pattern's observed URLs give, what they prove,
and how ``learner diff`` lists what a learned set overrules."""

from __future__ import annotations

import asyncio
import copy
from typing import Any

import pytest

from learner.judge.listed import (
    ListedFinding,
    ListedTally,
    check_listed,
    listed_account,
)
from learner.judge.rate import ChangeRule
from learner.model import Finding, PairOutcome
from learner.plan.listed import ListedSample, listed_samples
from learner.plan.sampling import PatternGroup, group_by_pattern
from learner.run.diff import KEEP_LISTED, diff_learned, format_diff, gate
from samepage import ListedKeep, MIQPSNormalizer, load_learned

NORM = MIQPSNormalizer()


def _group(*urls: str) -> PatternGroup:
    (group,) = group_by_pattern(urls, NORM).values()
    return group


def test_one_sample_per_listed_name_and_template() -> None:
    group = _group(
        "https://d.example/db/table?_sort=a&utm_source=x",
        "https://d.example/db/table?_sort=b&utm_source=y&fbclid=1",
        "https://d.example/db/other?_sort=c&utm_source=z",
        "https://d.example/db/table/7?_sort=d&utm_source=w",
        "https://d.example/db/table/8?_sort=d",
    )
    samples = listed_samples(group, NORM)
    found = {(s.name, s.template): (s.rule, s.url) for s in samples}
    assert set(found) == {
        ("utm_source", "/db/table"),
        ("utm_source", "/db/other"),
        ("utm_source", "/db/table/{id}"),
        ("fbclid", "/db/table"),
    }
    # The first URL of the group (in its order) that carries the name on the template.
    assert found[("utm_source", "/db/table")] == (
        "tracking:utm_*",
        "https://d.example/db/table?_sort=a&utm_source=x",
    )
    # Names a host's earlier patterns sampled on a template are not sampled again.
    again = listed_samples(group, NORM, done=[("utm_source", "/db/table")])
    assert {(s.name, s.template) for s in again} == {
        ("utm_source", "/db/other"),
        ("utm_source", "/db/table/{id}"),
        ("fbclid", "/db/table"),
    }


def test_an_ambiguous_name_is_listed_only_where_its_value_is_dropped() -> None:
    group = _group(
        "https://d.example/db/table?_sort=f&ref=INV-1",  # kept: content
        "https://d.example/db/table?_sort=e&ref=twitter",  # dropped: a tracking value
    )
    (sample,) = listed_samples(group, NORM)
    assert (sample.name, sample.rule, sample.url) == (
        "ref",
        "ambiguous:ref",
        "https://d.example/db/table?_sort=e&ref=twitter",
    )


def test_a_name_kept_by_the_option_is_not_listed_there() -> None:
    norm = MIQPSNormalizer(keep_listed={"d.example": ["utm_source"]})
    group = _group("https://d.example/t?_sort=a&utm_source=x")
    assert listed_samples(group, norm) == []


def _outcome(finding: Finding) -> PairOutcome:
    return PairOutcome("https://d.example/t?utm_source=x", "https://d.example/t", finding)


def _tally(*findings: Finding) -> ListedTally:
    tally = ListedTally()
    for n, finding in enumerate(findings):
        sample = ListedSample("utm_source", f"/t{n % 2}", "u", "tracking:utm_*")
        tally.add(sample, _outcome(finding))
    return tally


@pytest.mark.parametrize(
    ("findings", "expected"),
    [
        (("changed",), ListedFinding.KEPT),
        (("same", "changed"), ListedFinding.KEPT),
        (("same", "same"), ListedFinding.CONFIRMED),
        (("same", "failed"), ListedFinding.CONFIRMED),
        # No successful sample: the list stands (reported as unsettled), never a keep.
        (("failed", "failed"), ListedFinding.UNSETTLED),
        ((), ListedFinding.UNSETTLED),
    ],
)
def test_what_a_listed_names_samples_prove(
    findings: tuple[Finding, ...], expected: ListedFinding
) -> None:
    assert _tally(*findings).finding(ChangeRule(0.0)) is expected


def test_the_change_rate_rule_decides_a_keep() -> None:
    tally = _tally("same", "same", "same", "changed")
    assert tally.finding(ChangeRule(0.0)) is ListedFinding.KEPT
    assert tally.finding(ChangeRule(0.25)) is ListedFinding.CONFIRMED


def test_the_account_and_the_learned_keep() -> None:
    tallies = {
        "utm_source": _tally("changed", "same"),
        "fbclid": _tally("same"),
        "gclid": _tally("failed"),
    }
    account, keep = listed_account(tallies, ChangeRule(0.0), renders=7)
    assert keep == {"utm_source": ListedKeep(2, 1, 0, ("tracking:utm_*",), ("/t0",))}
    assert (account.samples, account.renders) == (4, 7)
    assert account.to_json() == {
        "samples": 4,
        "renders": 7,
        "kept": ["utm_source"],
        "confirmed": ["fbclid"],
        "unsettled": ["gclid"],
    }
    assert "kept on evidence: utm_source" in account.describe()


def test_check_listed_renders_each_sample_with_and_without_its_name() -> None:
    asked: list[tuple[str, str]] = []

    async def compare(original: str, candidate: str) -> PairOutcome:
        asked.append((original, candidate))
        return PairOutcome(original, candidate, "changed")

    samples = [
        ListedSample("utm_source", "/t", "https://d.example/t?a=1&utm_source=x#f", "tracking:utm_*")
    ]
    tallies: dict[str, ListedTally] = {}
    asyncio.run(check_listed(samples, compare, tallies))
    assert asked == [("https://d.example/t?a=1&utm_source=x#f", "https://d.example/t?a=1#f")]
    assert tallies["utm_source"].finding(ChangeRule(0.0)) is ListedFinding.KEPT


def _doc(keep: dict[str, Any]) -> dict[str, Any]:
    return {
        "format": "samepage.learned",
        "version": 1,
        "domains": {
            "d.example": {
                "patterns": {
                    "_sort": {
                        "urls": 3,
                        "params": {"_sort": {"verdict": "non-neutral", "tested": 3, "changed": 3}},
                    }
                },
                "keep_listed": keep,
            }
        },
    }


KEEP = {"utm_source": {"tested": 1, "changed": 1, "overrules": ["tracking:utm_*"]}}


def test_diff_lists_every_overruled_rule_and_a_lost_keep_is_dangerous() -> None:
    old, new = load_learned(_doc({})), load_learned(_doc(copy.deepcopy(KEEP)))
    gained = diff_learned(old, new)
    assert [(o.domain, o.name, o.rules) for o in gained.overruled] == [
        ("d.example", "utm_source", ("tracking:utm_*",))
    ]
    assert [(f.pattern, f.param, f.old, f.new, f.dangerous) for f in gained.flips] == [
        (KEEP_LISTED, "utm_source", "listed", "kept", False)
    ]
    assert any(line.startswith("  OVERRULES d.example utm_source") for line in format_diff(gained))
    lost = diff_learned(new, old)
    assert [(f.old, f.new, f.dangerous) for f in lost.flips] == [("kept", "listed", True)]
    assert not gate(lost, 0.0).allowed
    assert gained.to_json()["overruled"][0]["rules"] == ["tracking:utm_*"]
