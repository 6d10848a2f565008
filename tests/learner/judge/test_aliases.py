"""What the renders of a candidate alias prove: the samples, the controls and the coverage.

The samples' outcomes are given (as the sample runner would record them); the decision
behind each one (``decide(..., spellings=True)``) is tested with hand-built fingerprints.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping

import pytest

from learner.judge.aliases import AliasFinding, AliasVerdict, check_alias, publishable
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


_Outcomes = Mapping[tuple[str, str], Finding | tuple[Finding, Cause]]
"""Per sample or control, its outcome (its cause the usual one) or the outcome and cause."""
_CAUSES: dict[Finding, Cause] = {
    "same": Cause.NO_DIFFERENCE,
    "changed": Cause.CHANGED,
    "failed": Cause.CANDIDATE_FAILED,
}


def _verdict(
    outcomes: _Outcomes,
    min_samples: int = 2,
    compared: list[tuple[str, str]] | None = None,
) -> AliasVerdict:
    async def compare(original: str, candidate: str) -> PairOutcome:
        if compared is not None:
            compared.append((original, candidate))
        found = outcomes.get((original, candidate), "same")
        finding, cause = found if isinstance(found, tuple) else (found, _CAUSES[found])
        return PairOutcome(original, candidate, finding, cause.value, SampleEvidence(), cause)

    return asyncio.run(check_alias(_candidate(), compare, min_samples))


def _judge(outcomes: _Outcomes, min_samples: int = 2) -> AliasFinding:
    return _verdict(outcomes, min_samples).finding


def _control() -> tuple[str, str]:
    sample = next(s for s in _candidate().samples if s.other)
    return sample.url, sample.other


def _changed_control() -> dict[tuple[str, str], Finding]:
    """Every control "changed", of the samples and of the spares that may replace them."""
    candidate = _candidate()
    return {
        (s.url, other): "changed"
        for s in (*candidate.samples, *candidate.spares)
        for other in s.others
    }


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
    # The sample of the context with one URL: no spare replaces it.
    sample = next(s for s in _candidate().samples if not _candidate().spares_of(s.context))
    outcomes = {**_changed_control(), (sample.url, sample.spelled): found}
    assert _judge(outcomes) is AliasFinding.APART


@pytest.mark.parametrize(
    "cause", [Cause.CANDIDATE_FAILED, Cause.ORIGINAL_FAILED, Cause.ORIGINAL_UNSETTLED]
)
def test_a_sample_whose_render_failed_is_replaced_and_never_counted(cause: Cause) -> None:
    candidate = _candidate()
    sample = next(s for s in candidate.samples if candidate.spares_of(s.context))
    compared: list[tuple[str, str]] = []
    outcomes: _Outcomes = {**_changed_control(), (sample.url, sample.spelled): ("failed", cause)}
    verdict = _verdict(outcomes, compared=compared)
    assert verdict.finding is AliasFinding.LEARNED
    # The failed sample is replaced by another URL of its context; it counts for nothing.
    spare = candidate.spares_of(sample.context)[0]
    assert (spare.url, spare.spelled) in compared
    assert verdict.same == len(candidate.samples) and verdict.replaced == 1
    assert verdict.rule.evidence["replaced"] == 1


def test_a_replacement_must_be_the_same_too() -> None:
    candidate = _candidate()
    sample = next(s for s in candidate.samples if candidate.spares_of(s.context))
    outcomes: dict[tuple[str, str], Finding | tuple[Finding, Cause]] = {
        **_changed_control(),
        (sample.url, sample.spelled): "failed",
    }
    outcomes.update({(s.url, s.spelled): "changed" for s in candidate.spares_of(sample.context)})
    assert _judge(outcomes) is AliasFinding.APART


def test_a_context_whose_every_render_fails_keeps_the_spellings_apart() -> None:
    candidate = _candidate()
    sample = next(s for s in candidate.samples if candidate.spares_of(s.context))
    failing = [sample, *candidate.spares_of(sample.context)]
    outcomes: _Outcomes = {**_changed_control(), **{(s.url, s.spelled): "failed" for s in failing}}
    verdict = _verdict(outcomes)
    assert verdict.finding is AliasFinding.APART and verdict.same < len(candidate.samples)


@pytest.mark.parametrize("cause", [Cause.UNCONFIRMED, Cause.UNDECIDED])
def test_a_sample_whose_pages_were_compared_and_failed_is_not_replaced(cause: Cause) -> None:
    # Noise too large or a change not confirmed says something of the two pages.
    candidate = _candidate()
    sample = next(s for s in candidate.samples if candidate.spares_of(s.context))
    outcomes: _Outcomes = {**_changed_control(), (sample.url, sample.spelled): ("failed", cause)}
    assert _judge(outcomes) is AliasFinding.APART


def test_a_control_whose_render_failed_is_replaced_and_one_that_is_same_never_is() -> None:
    sample = next(s for s in _candidate().samples if len(s.others) > 1)
    outcomes: dict[tuple[str, str], Finding | tuple[Finding, Cause]] = {
        **_changed_control(),
        (sample.url, sample.others[0]): "failed",
        (sample.url, sample.others[1]): "changed",
    }
    verdict = _verdict(outcomes)
    assert verdict.finding is AliasFinding.LEARNED and verdict.replaced == 1
    # A control against a page the site does not serve (another status) proves nothing.
    outcomes[sample.url, sample.others[0]] = ("changed", Cause.STATUS_CHANGED)
    assert _verdict(outcomes).finding is AliasFinding.LEARNED
    outcomes.update({(sample.url, o): ("changed", Cause.STATUS_CHANGED) for o in sample.others})
    assert _judge(outcomes) is AliasFinding.UNPROVEN
    outcomes[sample.url, sample.others[0]] = "same"
    assert _judge(outcomes) is AliasFinding.UNPROVEN
    outcomes.update({(sample.url, other): "failed" for other in sample.others})
    assert _judge(outcomes) is AliasFinding.UNPROVEN


@pytest.mark.parametrize("found", ["same", "failed"])
def test_a_control_that_does_not_differ_publishes_nothing(found: Finding) -> None:
    # A comparison blind to this site's pages ("same" for two titles) proves nothing; nor
    # does a control whose renders all failed.
    url, _ = _control()
    sample = next(s for s in _candidate().samples if s.url == url)
    controls = {(url, other): found for other in sample.others}
    assert _judge({**_changed_control(), **controls}) is AliasFinding.UNPROVEN


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


def test_a_learned_rule_whose_result_a_learned_rule_rewrites_again_is_not_published() -> None:
    # The learned set's reader refuses a chain: publishing it would make the file unreadable.
    def learned(from_: str, to: str) -> AliasVerdict:
        candidate = AliasCandidate(PathAlias(from_, to), "", 2, 2, (), ())
        return AliasVerdict(candidate, AliasFinding.LEARNED, "", 3, 1)

    verdicts = [
        learned("/x?p={value}", "/item/{value}"),
        learned("/item/{value}", "/i/{value}"),
        learned("/{value}/index.html", "/{value}"),
    ]
    found = publishable(verdicts)
    assert [v.finding for v in found] == [
        AliasFinding.LEARNED,
        AliasFinding.UNPROVEN,
        AliasFinding.LEARNED,
    ]
    assert "rewritten again" in found[1].reason


def test_samples_render_side_by_side_and_the_first_apart_stops_the_rest() -> None:
    candidate = _candidate()
    outcomes = _changed_control()
    in_flight, most = 0, 0
    never = asyncio.Event()
    apart = candidate.samples[-1]

    async def compare(original: str, candidate_url: str) -> PairOutcome:
        nonlocal in_flight, most
        in_flight += 1
        most = max(most, in_flight)
        try:
            await asyncio.sleep(0.01)
            if stop and (original, candidate_url) != (apart.url, apart.spelled):
                await never.wait()  # a render still under way: cancelled, never awaited out
            finding = outcomes.get((original, candidate_url), "same")
            cause = _CAUSES[finding]
            return PairOutcome(
                original, candidate_url, finding, cause.value, SampleEvidence(), cause
            )
        finally:
            in_flight -= 1

    stop = False
    learned = asyncio.run(check_alias(candidate, compare, 2))
    assert learned.finding is AliasFinding.LEARNED
    assert most == len(candidate.samples)
    # The last sample differs while the others are still rendering: the verdict is not held up.
    stop = True
    outcomes[apart.url, apart.spelled] = "changed"
    found = asyncio.run(asyncio.wait_for(check_alias(candidate, compare, 2), timeout=5))
    assert found.finding is AliasFinding.APART and apart.url in found.reason
    assert in_flight == 0
