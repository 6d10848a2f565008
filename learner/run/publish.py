"""Publishing a learned set: ``--out`` checked before any work, the gate, atomic writes.

:func:`check_output` runs before a run starts, so a long run cannot fail at its end.

The run folder's copy is written first, so that if ``--out`` cannot be written at the end
the work is not lost; a set the gate refuses is kept in the run folder only.
"""

from __future__ import annotations

import logging
import os
import tempfile
from pathlib import Path

from learner.errors import ConfigError, LearnerError
from learner.run.diff import GateResult, LearnedDiff, diff_learned, gate
from learner.run.store import RunLayout
from samepage import LearnedSet, dump_learned

logger = logging.getLogger(__name__)

__all__ = ["GateRefused", "check_output", "publish"]


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
            kept = dump_learned(learned, RunLayout(run_folder).refused)
            raise GateRefused(result, difference, kept)
    published = RunLayout(run_folder).learned
    dump_learned(learned, published)
    if out.resolve() != published.resolve():
        dump_learned(learned, out)
    return result


def check_output(out: Path) -> None:
    """Fail now if the learned set could not be written to ``out`` at the end of the run.

    ``out`` must name a file (not an existing folder, not empty) in a folder that exists
    and is writable, or that can be created under the nearest folder that exists and is
    writable. The folder is proved writable by creating and removing a file in it (a
    permission check alone says yes to root under a read-only system folder such as
    ``/proc``); a run that then stops for another reason leaves no trace.

    Raises:
        ConfigError: naming ``--out`` and the problem.
    """
    text = os.fspath(out)
    if not text or text.endswith(("/", os.sep)) or out.name in ("", ".", ".."):
        raise ConfigError(f"--out {text!r}: name a file for the learned set")
    if out.is_dir():
        raise ConfigError(f"--out {out}: is a folder; name a file for the learned set")
    if out.exists() and not out.is_file():
        raise ConfigError(f"--out {out}: is not a regular file")
    folder = out.absolute().parent
    while not folder.exists():
        if folder.is_symlink() or folder == folder.parent:  # a dangling link, or no root
            raise ConfigError(f"--out {out}: cannot write there: {folder} cannot be created")
        folder = folder.parent
    if not folder.is_dir():
        raise ConfigError(f"--out {out}: cannot write there: {folder} is not a folder")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise ConfigError(f"--out {out}: cannot write there: {folder} is not writable")
    try:
        handle, probe = tempfile.mkstemp(prefix=".samepage-probe-", dir=folder)
    except OSError as exc:
        raise ConfigError(
            f"--out {out}: cannot write there: {folder}: {exc.strerror or exc}"
        ) from None
    os.close(handle)
    os.unlink(probe)
