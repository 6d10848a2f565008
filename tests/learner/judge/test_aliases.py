"""What the renders of a candidate alias prove: the samples, the controls and the coverage.

The samples' outcomes are given (as the sample runner would record them); the decision
behind each one (``decide(..., spellings=True)``) is tested with hand-built fingerprints.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping

import pytest

from learner.judge.aliases import AliasFinding, check_alias
from learner.judge.decision import Decision, decide
from learner.model import Cause, Finding, PairOutcome, SampleEvidence
from learner.plan.aliases import AliasCandidate, alias_candidates
from samepage import MIQPSNormalizer, PathAlias
from tests.learner.judge.test_decision import fp, shot

_W = "http://w.test"
_LOG = [
    *(f"{_W}/wiki/{t}?ref=a" for t in ("Mill", "Harbour", "Tower", "Lake")),
    *(f"{_W}/w/index.php?title={t}&action=history" for t in ("Mill", "Harbour", "Tower")),
    f"{_W}/w/index.php?title=Mill&oldid=7",
]


def _candidate() -> AliasCandidate:
    (found,) = alias_candidates(_LOG, MIQPSNormalizer())
    return found


def _judge(outcomes: Mapping[tuple[str, str], Finding], min_samples: int = 2) -> AliasFinding:
    async def compare(original: str, candidate: str) -> PairOutcome:
        found = outcomes.get((original, candidate), "same")
        return PairOutcome(original, candidate, found, found, SampleEvidence(), Cause.CHANGED)

    return asyncio.run(check_alias(_candidate(), compare, min_samples)).finding


def _control() -> tuple[str, str]:
    sample = next(s for s in _candidate().samples if s.other)
    return sample.url, sample.other


def _changed_control() -> dict[tuple[str, str], Finding]:
    return {(s.url, s.other): "changed" for s in _candidate().samples if s.other}


def test_the_log_proposes_the_query_spelling_as_the_path_spelling() -> None:
    candidate = _candidate()
    assert candidate.rule == PathAlias("/w/index.php?title={value}", "/wiki/{value}")
    assert candidate.shared == 3
    assert {s.context for s in candidate.samples} == set(candidate.contexts)
    assert len({s.value for s in candidate.samples}) >= 3
    control = next(s for s in candidate.samples if s.other)
    assert control.other.startswith(f"{_W}/wiki/") and control.value not in control.other


def test_samples_the_same_and_a_control_that_differs_publish_the_rule() -> None:
    assert _judge(_changed_control()) is AliasFinding.LEARNED


@pytest.mark.parametrize("found", ["failed", "changed"])
def test_a_sample_that_failed_or_changed_keeps_the_spellings_apart(found: Finding) -> None:
    sample = _candidate().samples[-1]
    outcomes = {**_changed_control(), (sample.url, sample.spelled): found}
    assert _judge(outcomes) is AliasFinding.APART


@pytest.mark.parametrize("found", ["same", "failed"])
def test_a_control_that_does_not_differ_publishes_nothing(found: Finding) -> None:
    # A comparison blind to this site's pages ("same" for two titles) proves nothing.
    assert _judge({**_changed_control(), _control(): found}) is AliasFinding.UNPROVEN


def test_too_few_samples_publish_nothing() -> None:
    assert _judge(_changed_control(), min_samples=8) is AliasFinding.UNPROVEN


def test_two_spellings_of_one_page_compare_pages_not_destinations() -> None:
    log = fp(url=f"{_W}/w/index.php?title=Mill")
    spelled = fp(url=f"{_W}/wiki/Mill")
    step = decide([shot(log), shot(log)], [shot(spelled)], spellings=True)
    assert isinstance(step, Decision) and step.outcome == "same"
    # As a parameter's sample, the other destination is not "same" (a change, or a probe).
    step = decide([shot(log), shot(log)], [shot(spelled)])
    assert not isinstance(step, Decision) or step.outcome != "same"
    # Every other rule holds: a page that differs is a change, an unsettled one proves nothing.
    other = fp(["Harbour"], url=f"{_W}/wiki/Harbour")
    step = decide([shot(log), shot(log)], [shot(other)], spellings=True)
    assert isinstance(step, Decision) and step.outcome == "changed"
    step = decide([shot(log), shot(log)], [shot(spelled, settled=False)], spellings=True)
    assert isinstance(step, Decision) and step.outcome == "failed"
