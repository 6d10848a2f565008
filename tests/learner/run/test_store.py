"""The run folder: checkpoint lines, resume scope, torn lines, the evidence budget."""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

import pytest

from learner.errors import ConfigError, RenderCause, RenderStep
from learner.model import Cause, PairOutcome, RenderFailure, SampleEvidence
from learner.run.store import (
    RunLayout,
    RunStore,
    checkpoint_line,
    read_pair,
    resumable_comparisons,
)


async def test_checkpoint_survives_a_torn_last_line_and_ignores_other_scopes(
    tmp_path: Path,
) -> None:
    measured = SampleEvidence(verdict="same", distances={"tiles": 0.0}, renders=(1, 1))
    async with RunStore(tmp_path, scope="s1", evidence_budget_bytes=100) as store:
        store.record(
            PairOutcome("https://a/?x=1", "https://a/", "same", "ok", measured, Cause.IDENTICAL)
        )
        store.record(PairOutcome("https://a/?x=2", "https://a/", "changed"))
    with open(store.checkpoint_path, "a", encoding="utf-8") as handle:
        handle.write('{"scope": "s1", "pair": {"orig')  # a run killed mid-write
    async with RunStore(tmp_path, scope="s1", evidence_budget_bytes=100) as again:
        assert again.resumed == 2
        done = again.finished("https://a/?x=1", "https://a/")
        assert done is not None and (done.evidence, done.cause) == (measured, Cause.IDENTICAL)
        assert again.from_earlier_run("https://a/?x=2", "https://a/")
    async with RunStore(tmp_path, scope="s2", evidence_budget_bytes=100) as other:
        assert other.resumed == 0 and other.finished("https://a/?x=1", "https://a/") is None


async def test_the_comparisons_a_rerun_resumes_are_counted_by_scope(tmp_path: Path) -> None:
    async with RunStore(tmp_path, scope="s1", evidence_budget_bytes=100) as store:
        store.record(PairOutcome("https://a/?x=1", "https://a/", "same"))
    async with RunStore(tmp_path, scope="s2", evidence_budget_bytes=100) as store:
        store.record(PairOutcome("https://a/?x=2", "https://a/", "same"))
    # A Ray run keeps a checkpoint per domain folder; a torn line and a repeat count nothing.
    domain = RunLayout(tmp_path).domains / "b.example-0123abcd"
    async with RunStore(domain, scope="s1", evidence_budget_bytes=100) as store:
        store.record(PairOutcome("https://b/?y=1", "https://b/", "changed"))
    async with RunStore(tmp_path, scope="s1", evidence_budget_bytes=100) as store:
        store.record(PairOutcome("https://a/?x=1", "https://a/", "same"))  # recorded again
    with open(RunLayout(tmp_path).checkpoint, "a", encoding="utf-8") as handle:
        handle.write('{"scope": "s1", "pair": {"original": "https://a/?x=3", "candidate": ')
    assert RunLayout(tmp_path).checkpoint.read_text().count("\n") == 3
    assert resumable_comparisons(tmp_path, "s1") == 2
    assert resumable_comparisons(tmp_path, "s2") == 1
    assert resumable_comparisons(tmp_path, "s3") == 0
    assert resumable_comparisons(tmp_path / "missing", "s1") == 0


async def test_evidence_budget_is_enforced_and_images_are_stored_once(tmp_path: Path) -> None:
    async with RunStore(tmp_path, scope="s", evidence_budget_bytes=10) as store:
        first = store.save_image("u1", ".jpg", b"123456")
        assert first is not None and (tmp_path / first).read_bytes() == b"123456"
        assert store.save_image("u1", ".jpg", b"123456") == first
        assert store.save_image("u2", ".jpg", b"123456") is None
        assert (store.evidence_bytes, store.evidence_skipped) == (6, 1)
    async with RunStore(tmp_path, scope="s", evidence_budget_bytes=10) as again:
        assert again.evidence_bytes == 6


async def test_a_store_is_entered_once(tmp_path: Path) -> None:
    store = RunStore(tmp_path, scope="s", evidence_budget_bytes=0)
    async with store:
        with pytest.raises(RuntimeError, match="once"):
            await store.__aenter__()


def _store(folder: Path) -> RunStore:
    return RunStore(folder, scope="s", evidence_budget_bytes=0)


def _outcome(n: int) -> PairOutcome:
    return PairOutcome(f"https://a/?x={n}", "https://a/", "changed")


async def _resumes(folder: Path, count: int) -> None:
    """A run resumes ``count`` records, adds one, and the next run resumes both."""
    async with _store(folder) as store:
        assert store.resumed == count
        store.record(_outcome(99))
    async with _store(folder) as later:
        assert later.resumed == count + 1


async def test_a_torn_last_line_is_dropped_and_later_records_survive(tmp_path: Path) -> None:
    async with _store(tmp_path) as store:
        store.record(_outcome(1))
    with open(store.checkpoint_path, "ab") as handle:
        handle.write(b'{"scope": "s", "pair": {"original": "https://a/?x=\xc3')  # killed mid-write
    async with _store(tmp_path) as again:
        assert again.resumed == 1
        again.record(_outcome(2))
    assert store.checkpoint_path.read_bytes().count(b"\n") == 2
    for _ in range(2):  # and on every later resume
        async with _store(tmp_path) as later:
            assert later.resumed == 2
            assert later.finished("https://a/?x=2", "https://a/") is not None


async def test_a_complete_last_record_without_its_newline_is_kept(tmp_path: Path) -> None:
    async with _store(tmp_path) as store:
        store.record(_outcome(1))
    text = store.checkpoint_path.read_bytes()
    store.checkpoint_path.write_bytes(text.rstrip(b"\n"))
    await _resumes(tmp_path, 1)


async def test_hostile_checkpoint_lines_are_skipped(tmp_path: Path) -> None:
    lines = [
        b"[" * 100_000 + b"]" * 100_000,
        b'{"scope": "s", "pair": ' + b"9" * 5000 + b"}",
        b'{"scope": "s", "pair": []}',
        b"\xff\xfe",
    ]
    (tmp_path / "checkpoint.jsonl").write_bytes(b"\n".join(lines) + b"\n")
    await _resumes(tmp_path, 0)


async def test_a_second_run_on_the_folder_is_refused(tmp_path: Path) -> None:
    async with _store(tmp_path):
        with pytest.raises(
            ConfigError, match=f"in use by another learner run \\(pid {os.getpid()}\\)"
        ):
            async with _store(tmp_path):
                pass
    async with _store(tmp_path):
        pass  # released when the first run ended


async def test_run_files_follow_the_umask_and_keep_a_replaced_mode(tmp_path: Path) -> None:
    old = os.umask(0o022)
    try:
        async with _store(tmp_path) as store:
            store.write_stats({"renders": 1})
            (tmp_path / "run.json").write_text("{}")
            (tmp_path / "run.json").chmod(0o640)
            store.write_run({"config": {}})
    finally:
        os.umask(old)
    assert (tmp_path / "stats.json").stat().st_mode & 0o777 == 0o644
    assert (tmp_path / "run.json").stat().st_mode & 0o777 == 0o640


@pytest.mark.parametrize("name", ["checkpoint.jsonl", "lock", "evidence"])
async def test_a_run_folder_never_follows_a_symbolic_link(tmp_path: Path, name: str) -> None:
    folder = tmp_path / "run"
    folder.mkdir()
    victim = tmp_path / "victim"
    victim.write_text("precious\n")
    (folder / name).symlink_to(victim)
    with pytest.raises(ConfigError, match=f"{name} is a symbolic link"):
        async with _store(folder):
            pass
    assert victim.read_text() == "precious\n"  # neither truncated nor appended to


async def test_evidence_is_never_written_through_a_planted_link(tmp_path: Path) -> None:
    victim = tmp_path / "victim.jpg"
    async with RunStore(tmp_path / "run", scope="s", evidence_budget_bytes=100) as store:
        name = hashlib.sha1(b"u2").hexdigest()[:16] + ".jpg"  # where "u2" is saved
        (store.evidence_dir / name).symlink_to(victim)  # dangling: a write would create it
        store.save_image("u2", ".jpg", b"image")
        assert store.evidence_bytes == 0
    assert not victim.exists()


def test_checkpoint_evidence_written_by_older_runs_reads_back_unchanged() -> None:
    # A rendered, changed sample and an archive's "same", as the checkpoint has long held them.
    rendered = {
        "verdict": "changed",
        "reasons": ["text lines differ"],
        "changes": ["text_lines"],
        "distances": {"tiles": 0.25, "text_lines": 3.0},
        "noise": {"tiles": 0.0},
        "renders": {"original": 2, "candidate": 1},
        "original_text": "0123456789abcdef",
        "original_path": "/p",
        "original_settled": True,
        "candidate_marks": {"lang": ["en"]},
        "status": [200, 200],
        "final_url": ["https://a/p?x=1", "https://a/p"],
        "canonical": ["https://a/p", ""],
        "unsettled": ["requests still in flight: 1"],
        "original_thumb": "evidence/a.jpg",
        "candidate_thumb": None,
        "difference": "evidence/a-diff.jpg",
    }
    archived = {
        "archive": {"original": {"url": "https://a/p?x=1"}, "seconds_apart": 60.0},
        "renders": {"original": 1, "candidate": 0},
        "original_live": {"digest": "sha1:X", "media_type": "text/html", "requests": 1},
    }
    failed = {
        "renders": {"original": 1, "candidate": 0},
        "original_failure": "timeout",
        "failure": {"render": "original", "cause": "timeout", "step": "screenshot"},
    }
    for data in (rendered, archived, failed):
        evidence = SampleEvidence.from_json(data)
        assert evidence.to_json() == data
        line = {"original": "https://a/p?x=1", "candidate": "https://a/p", "outcome": "failed"}
        outcome = PairOutcome.from_json({**line, "cause": "original-failed", "evidence": data})
        assert outcome.cause is Cause.ORIGINAL_FAILED and outcome.evidence == evidence
    read = SampleEvidence.from_json(failed)
    assert read.failure == RenderFailure("original", RenderCause.TIMEOUT, RenderStep.SCREENSHOT)
    assert read.original_failure is RenderCause.TIMEOUT
    assert SampleEvidence.from_json(rendered).status == (200, 200)


# The strings checkpoints hold, as every learner since render failures were recorded wrote
# them: a member renamed or a value respelled would make old run folders unreadable.
WRITTEN_CAUSES = {
    "timeout": RenderCause.TIMEOUT,
    "busy": RenderCause.BUSY,
    "connection": RenderCause.CONNECTION,
    "navigation": RenderCause.NAVIGATION,
    "download": RenderCause.DOWNLOAD,
    "redirect-loop": RenderCause.REDIRECT_LOOP,
    "other-host": RenderCause.OTHER_HOST,
    "non-http": RenderCause.NON_HTTP,
    "address-refused": RenderCause.ADDRESS,
    "retry-after": RenderCause.RETRY_AFTER,
    "memory": RenderCause.MEMORY,
    "crashed": RenderCause.CRASHED,
    "browser-gone": RenderCause.BROWSER_GONE,
    "robots": RenderCause.ROBOTS,
}
WRITTEN_STEPS = {
    "navigation": RenderStep.NAVIGATION,
    "ready": RenderStep.READY,
    "scroll-through": RenderStep.SCROLL,
    "screenshot": RenderStep.SCREENSHOT,
    "probe": RenderStep.PROBE,
}


def _failed_on(cause: RenderCause, step: RenderStep | None) -> PairOutcome:
    evidence = SampleEvidence(
        renders=(1, 0), original_failure=cause, failure=RenderFailure("original", cause, step)
    )
    return PairOutcome(
        "https://a/p?x=1", "https://a/p", "failed", "original: ...", evidence, Cause.ORIGINAL_FAILED
    )


@pytest.mark.parametrize("cause", list(RenderCause))
@pytest.mark.parametrize("step", [*RenderStep, None])
def test_every_render_failure_cause_and_step_round_trip_through_a_checkpoint_line(
    cause: RenderCause, step: RenderStep | None
) -> None:
    outcome = _failed_on(cause, step)
    line = checkpoint_line("s", outcome)
    assert read_pair(line, "s") == outcome
    # Written as the member's value, as before the causes were typed.
    evidence = json.loads(line)["pair"]["evidence"]
    assert evidence["original_failure"] == cause.value
    written = {"render": "original", "cause": cause.value}
    assert evidence["failure"] == written if step is None else {**written, "step": step.value}


def test_every_member_is_a_string_older_checkpoints_hold() -> None:
    assert set(WRITTEN_CAUSES.values()) == set(RenderCause)
    assert set(WRITTEN_STEPS.values()) == set(RenderStep)


@pytest.mark.parametrize(("cause", "member"), WRITTEN_CAUSES.items())
def test_an_old_checkpoint_line_reads_each_cause_string_as_its_member(
    cause: str, member: RenderCause
) -> None:
    for step, step_member in [*WRITTEN_STEPS.items(), ("", None)]:
        failure = {"render": "candidate", "cause": cause, **({"step": step} if step else {})}
        pair = {
            "original": "https://a/p?x=1",
            "candidate": "https://a/p",
            "outcome": "failed",
            "cause": "candidate-failed",
            "reason": "candidate: ...",
            "evidence": {"renders": {"original": 1, "candidate": 1}, "failure": failure},
        }
        read = read_pair(json.dumps({"scope": "s", "pair": pair}), "s")
        assert read and read.evidence.failure == RenderFailure("candidate", member, step_member)
        first = {"renders": {"original": 1, "candidate": 0}, "original_failure": cause}
        read = read_pair(json.dumps({"scope": "s", "pair": {**pair, "evidence": first}}), "s")
        assert read and read.evidence.original_failure is member


async def test_a_line_with_a_cause_or_step_this_learner_does_not_know_is_judged_again(
    tmp_path: Path,
) -> None:
    known = _failed_on(RenderCause.TIMEOUT, RenderStep.READY).to_json()
    unknown = [
        {**known, "evidence": {**known["evidence"], "original_failure": "teleported"}},
        {**known, "evidence": {**known["evidence"], "failure": {"render": "original"}}},
        {
            **known,
            "evidence": {
                **known["evidence"],
                "failure": {"render": "original", "cause": "timeout", "step": "dreaming"},
            },
        },
    ]
    with pytest.raises(ValueError, match="unknown render failure cause 'teleported'"):
        SampleEvidence.from_json(unknown[0]["evidence"])
    with pytest.raises(ValueError, match="unknown render step 'dreaming'"):
        SampleEvidence.from_json(unknown[2]["evidence"])
    # Each of another sample, so that a line read by mistake would be counted.
    pairs = [known, *({**p, "original": f"https://a/p?x={n}"} for n, p in enumerate(unknown, 2))]
    lines = [json.dumps({"scope": "s", "pair": pair}) for pair in pairs]
    (tmp_path / "checkpoint.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    async with RunStore(tmp_path, scope="s", evidence_budget_bytes=100) as store:
        # The known line resumes; the others are unreadable: their samples are judged again.
        assert store.resumed == 1
        assert store.finished("https://a/p?x=1", "https://a/p") == PairOutcome.from_json(known)
