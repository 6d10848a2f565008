"""The run folder: checkpoint lines, resume scope, torn lines, the evidence budget."""

from __future__ import annotations

from pathlib import Path

import pytest

from learner.model import PairOutcome
from learner.store import RunStore


async def test_checkpoint_survives_a_torn_last_line_and_ignores_other_scopes(
    tmp_path: Path,
) -> None:
    async with RunStore(tmp_path, scope="s1", evidence_budget_bytes=100) as store:
        store.record(
            PairOutcome("https://a/?x=1", "https://a/", "same", "ok", {"distances": {"tiles": 0.0}})
        )
        store.record(PairOutcome("https://a/?x=2", "https://a/", "changed"))
    with open(store.checkpoint_path, "a", encoding="utf-8") as handle:
        handle.write('{"scope": "s1", "pair": {"orig')  # a run killed mid-write
    async with RunStore(tmp_path, scope="s1", evidence_budget_bytes=100) as again:
        assert again.resumed == 2
        done = again.finished("https://a/?x=1", "https://a/")
        assert done is not None and done.evidence == {"distances": {"tiles": 0.0}}
        assert again.from_earlier_run("https://a/?x=2", "https://a/")
    async with RunStore(tmp_path, scope="s2", evidence_budget_bytes=100) as other:
        assert other.resumed == 0 and other.finished("https://a/?x=1", "https://a/") is None


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
