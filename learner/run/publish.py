"""Publishing a learned set: the gate against the previous set, then atomic writes.

The run folder's copy is written first, so that if ``--out`` cannot be written at the end
the work is not lost; a set the gate refuses is kept in the run folder only.
"""

from __future__ import annotations

import logging
from pathlib import Path

from learner.errors import LearnerError
from learner.run.diff import GateResult, LearnedDiff, diff_learned, gate
from samepage import LearnedSet, dump_learned

logger = logging.getLogger(__name__)

__all__ = ["GateRefused", "publish"]


class GateRefused(LearnerError):
    """The publishing gate refused the new learned set (see ``learner diff``)."""

    def __init__(self, result: GateResult, diff: LearnedDiff, kept_at: Path) -> None:
        super().__init__(result.message)
        self.result = result
        self.diff = diff
        self.kept_at = kept_at


def publish(
    learned: LearnedSet,
    *,
    out: Path,
    run_folder: Path,
    previous: LearnedSet | None,
    max_flip_fraction: float,
    force: bool,
) -> GateResult | None:
    """Write ``learned`` to the run folder and to ``out``, unless the gate refuses it.

    Raises:
        GateRefused: more verdicts flipped to neutral than ``max_flip_fraction`` allows and
            ``force`` is false; the set was kept as ``learned.refused.json`` in the run folder.
    """
    result = None
    if previous is not None:
        difference = diff_learned(previous, learned)
        result = gate(difference, max_flip_fraction)
        if not result.allowed and not force:
            kept = dump_learned(learned, run_folder / "learned.refused.json")
            raise GateRefused(result, difference, kept)
    dump_learned(learned, run_folder / "learned.json")
    if out.resolve() != (run_folder / "learned.json").resolve():
        dump_learned(learned, out)
    return result
