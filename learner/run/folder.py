"""A run folder read back for the report: the learned set, stats, comparisons and images.

A single-process run keeps its comparisons and images at the top of the folder; a Ray run
(:mod:`learner.cluster.driver`) keeps them per domain, in ``domains/*/``: both are read.
Everything in it is treated as untrusted input: a torn or hostile checkpoint line is skipped,
and an image path is followed only to a plain file name inside ``evidence/``.
"""

from __future__ import annotations

import json
import logging
import shutil
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from learner.errors import ConfigError
from learner.model import PairOutcome
from learner.run.store import SAFE_NAME, RunLayout, comparison_scope, read_checkpoint
from samepage import LearnedFormatError, LearnedSet, load_learned

logger = logging.getLogger(__name__)

__all__ = ["ReportImages", "RunFolder", "read_run_folder"]


@dataclass(frozen=True, slots=True)
class RunFolder:
    """What the report reads from a run folder.

    ``pairs`` holds the checkpoints' comparisons by (original, candidate) made with the run's
    settings (the scope its ``stats.json`` settings give; every line when it has none); a
    later line wins.
    ``parts`` are the folders that hold a checkpoint and evidence: the run folder itself,
    then the domain folders of a Ray run.
    """

    folder: Path
    learned: LearnedSet
    stats: Mapping[str, Any]
    pairs: Mapping[tuple[str, str], PairOutcome]
    parts: tuple[Path, ...] = ()


def read_run_folder(folder: Path) -> RunFolder:
    """Read ``folder``; a missing stats.json or checkpoint only leaves its part out.

    Raises:
        ConfigError: not a run folder, or its learned.json cannot be read.
    """
    if not folder.is_dir():
        raise ConfigError(f"{folder}: not a run folder (no such directory)")
    layout = RunLayout(folder)
    learned_path = layout.learned
    if not learned_path.is_file():
        hint = (
            " (only learned.refused.json: the gate refused it)" if layout.refused.exists() else ""
        )
        raise ConfigError(f"{folder}: not a run folder: it has no learned.json{hint}")
    try:
        learned = load_learned(learned_path)
    except LearnedFormatError as exc:
        raise ConfigError(str(exc)) from exc
    stats: Mapping[str, Any] = {}
    try:
        loaded = json.loads(layout.stats.read_text(encoding="utf-8"))
        stats = loaded if isinstance(loaded, dict) else {}
    except (OSError, ValueError, RecursionError):
        logger.warning("%s: no readable stats.json; totals are left out", folder)
    parts = layout.parts()
    # A run folder reused with other render settings keeps the older comparisons' lines:
    # they are not the evidence of this run's verdicts. A later line wins.
    scope = _scope(stats)
    pairs = {
        (outcome.original, outcome.candidate): outcome
        for part in parts
        for outcome in read_checkpoint(RunLayout(part).checkpoint, scope)
    }
    if not pairs:
        logger.warning("%s: no comparisons; the report shows verdicts without evidence", folder)
    return RunFolder(folder, learned, stats, pairs, parts)


def _scope(stats: Mapping[str, Any]) -> str | None:
    """The comparison scope of the run's settings; ``None`` when stats.json does not say."""
    settings = stats.get("settings")
    if not isinstance(settings, Mapping) or not isinstance(settings.get("render"), Mapping):
        return None
    try:
        return comparison_scope(settings)
    except (TypeError, ValueError):
        return None


class ReportImages:
    """Copies the evidence images the report shows into ``OUT/evidence/``.

    An image is looked up in the ``evidence/`` folder of each part of the run, in order.
    """

    def __init__(self, run: RunFolder, out: Path) -> None:
        # A symbolic link is never followed: it could point at any file the reader can read.
        parts = run.parts or (run.folder,)
        sources = (RunLayout(p).evidence for p in parts)
        self.sources = [e for e in sources if not e.is_symlink()]
        self.target = out / "evidence"
        self.copied: set[str] = set()

    def link(self, relative: object) -> str | None:
        """The report-relative path of an evidence image, or ``None`` if it was not kept."""
        if not isinstance(relative, str):
            return None
        folder, _, name = relative.partition("/")
        if folder != "evidence" or not SAFE_NAME.fullmatch(name):
            return None  # never follow a path out of the evidence folder
        src = next((d / name for d in self.sources if _plain_file(d / name)), None)
        if src is None:
            return None
        if name not in self.copied:
            self.target.mkdir(parents=True, exist_ok=True)
            dst = self.target / name
            if dst.is_symlink():
                dst.unlink()  # replaced, never written through
            if src.resolve() != dst.resolve():
                shutil.copyfile(src, dst, follow_symlinks=False)
            self.copied.add(name)
        return f"evidence/{name}"


def _plain_file(path: Path) -> bool:
    """A regular file that is not a symbolic link."""
    return path.is_file() and not path.is_symlink()
