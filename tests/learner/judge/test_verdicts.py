"""The account of what a run decided, and the warning when one cause keeps too much."""

from __future__ import annotations

from learner.judge.verdicts import Account, VerdictCause, account, cause_of, warnings
from learner.model import Cause, PairOutcome, SampleEvidence
from samepage import ParamVerdict, PatternEntry
from samepage.learned import Sample


def _verdict_of_failures(
    verdict: str, cause: VerdictCause, samples: list[tuple[str, str]]
) -> ParamVerdict:
    recorded = tuple(Sample(u, c, "failed") for u, c in samples)
    return ParamVerdict(verdict, 0, 0, len(samples), cause=cause, samples=recorded)  # type: ignore[arg-type]


def test_account_counts_decided_and_names_the_failures_behind_kept_parameters() -> None:
    stuck = PairOutcome(
        "u1",
        "c1",
        "failed",
        "original not settled: requests still in flight: 1",
        SampleEvidence(unsettled=("requests still in flight: 1",)),
        Cause.ORIGINAL_UNSETTLED,
    )
    entry = PatternEntry(
        10,
        {
            "a": _verdict_of_failures("neutral", VerdictCause.NO_CHANGE, []),
            "b": _verdict_of_failures("non-neutral", VerdictCause.CHANGED, []),
            "c": _verdict_of_failures("non-neutral", VerdictCause.FAILED_SAMPLES, [("u1", "c1")]),
            "d": _verdict_of_failures("non-neutral", VerdictCause.FEW_VALUES, []),
        },
    )
    found = account({"p": entry}, [stuck])
    assert (found.studied, found.decided) == (4, 2)
    assert found.kept == {"failed-samples": 1, "few-values": 1}
    assert found.failures == {
        "failed-samples": {"original-unsettled: requests still in flight: 1": 1}
    }
    assert Account.from_json(found.to_json()) == found
    assert found.to_json()["decided_share"] == 0.5


def test_a_cause_keeping_over_a_quarter_is_warned_of_by_domain_and_cause() -> None:
    found = Account(8, 5, {"failed-samples": 3}, {"failed-samples": {"original-failed: x": 3}})
    [line] = warnings("shop.example", found)
    assert line.startswith("shop.example: 3 of 8 studied parameters kept")
    assert "failed-samples" in line and "original-failed: x" in line
    assert warnings("shop.example", Account(8, 6, {"coverage": 2})) == []  # exactly a quarter


def test_verdicts_without_a_recorded_cause_are_unrecorded_never_guessed() -> None:
    for verdict in (
        ParamVerdict("non-neutral", 4, 2, 0),
        ParamVerdict("neutral", 4, 0, 0),
    ):
        assert cause_of(verdict) is VerdictCause.UNRECORDED
    assert not VerdictCause.UNRECORDED.decided and not VerdictCause.UNRECORDED.gave_up
    found = account({"p": PatternEntry(1, {"x": ParamVerdict("neutral", 4, 0, 0)})}, [])
    assert (found.decided, found.kept) == (0, {"unrecorded": 1})
    assert VerdictCause.JOINT_CHECK.decided and not VerdictCause.JOINT_UNRENDERED.decided
    assert VerdictCause.SITE_GIVEN_UP.gave_up and not VerdictCause.COVERAGE.gave_up
