"""The run folder: an append-only checkpoint of compared pairs, and the folder's other files.

Its lock is a :class:`~learner.run.lock.FolderLock`, its images are kept by
:class:`~learner.run.evidence_images.EvidenceImages`.

Layout of a run folder (``--cache DIR``)::

    checkpoint.jsonl   one JSON line per finished comparison; a rerun skips them
    lock               held (flock) by the run using the folder; a second run is refused
    evidence/          small thumbnails and difference overlays, within a size budget
    stats.json         renders, failures, time per phase, pages per second
    run.json           the effective settings of the last run
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
from collections.abc import Mapping
from pathlib import Path
from types import TracebackType
from typing import IO, Any, Literal

from learner.errors import ConfigError
from learner.model import PairOutcome
from learner.run.evidence_images import EvidenceImages
from learner.run.lock import FolderLock
from samepage import write_text_atomic

logger = logging.getLogger(__name__)

__all__ = [
    "COMPARISON_VERSION",
    "RunStore",
    "comparison_scope",
    "saved_comparisons",
    "write_json_atomic",
]

# Bumped whenever rendering or comparison changes meaning, so old checkpoints are not reused.
COMPARISON_VERSION = 2


def comparison_scope(settings: Mapping[str, Any]) -> str:
    """A digest of everything that decides a comparison.

    That is the render settings of a run's ``settings`` (``LearnerConfig.to_json()``, as
    ``stats.json`` records them) and :data:`COMPARISON_VERSION`. A checkpoint's lines are
    reused, and shown by the report, only within one scope.
    """
    data = json.dumps(
        {"render": settings["render"], "version": COMPARISON_VERSION}, sort_keys=True
    )
    return hashlib.sha256(data.encode()).hexdigest()[:16]


def write_json_atomic(path: Path, data: Any) -> None:
    """Write ``data`` as sorted, indented JSON through a temp file renamed into place.

    A replaced file keeps its mode; a new one gets the umask's (as ``open()`` would).
    """
    write_text_atomic(path, json.dumps(data, indent=2, sort_keys=True, ensure_ascii=False) + "\n")


class RunStore:
    """Owns one run folder while a crawl runs; refuses a second entry.

    Args:
        folder: the run folder, created if needed.
        scope: a digest of everything that decides a comparison (render settings, fingerprint
            version); checkpoint lines from another scope are ignored, not reused.
        evidence_budget_bytes: the most bytes of images to keep; past it, no more are saved.
    """

    def __init__(self, folder: Path, *, scope: str, evidence_budget_bytes: int) -> None:
        self.folder = folder
        self.scope = scope
        self.images = EvidenceImages(folder / "evidence", evidence_budget_bytes)
        self.recorded = 0
        """Comparisons recorded by this run."""
        self._done: dict[tuple[str, str], PairOutcome] = {}
        self._loaded: frozenset[tuple[str, str]] = frozenset()
        self._checkpoint: IO[str] | None = None
        self._lock = FolderLock(folder)
        self._entered = False

    @property
    def checkpoint_path(self) -> Path:
        """Where finished comparisons are appended."""
        return self.folder / "checkpoint.jsonl"

    @property
    def evidence_dir(self) -> Path:
        """Where thumbnails and overlays go."""
        return self.folder / "evidence"

    async def __aenter__(self) -> RunStore:
        if self._entered:
            raise RuntimeError("a RunStore can be entered once")
        self._entered = True
        for path in (self.evidence_dir, self.checkpoint_path, self.folder / "lock"):
            if path.is_symlink():
                raise ConfigError(
                    f"cache folder: {path} is a symbolic link; a run folder never follows "
                    "links (give the real folder, or remove the link)"
                )
        try:
            self.evidence_dir.mkdir(parents=True, exist_ok=True)
            self._lock.take()
        except OSError as exc:
            raise ConfigError(f"cache folder {self.folder}: {exc}") from exc
        try:
            self._load()
            self.images.count_existing()
            # Held open for the whole run and closed in __aexit__: one append per comparison.
            self._checkpoint = open(self.checkpoint_path, "a", encoding="utf-8")  # noqa: SIM115
        except BaseException:
            self._lock.release()
            raise
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        try:
            if self._checkpoint is not None:
                self._checkpoint.close()
                self._checkpoint = None
        finally:
            self._lock.release()

    def _load(self) -> None:
        if not self.checkpoint_path.exists():
            return
        kept = unreadable = 0
        end = 0  # where the last complete line ends
        tail_ok = True
        with open(self.checkpoint_path, "rb") as handle:
            for line in handle:
                complete = line.endswith(b"\n")
                outcome = self._read_line(line)
                if complete:
                    end += len(line)
                else:
                    tail_ok = outcome is not None
                if outcome is None:
                    unreadable += 1
                elif outcome is not False:
                    self._done[(outcome.original, outcome.candidate)] = outcome
                    kept += 1
        self._loaded = frozenset(self._done)
        size = self.checkpoint_path.stat().st_size
        if size > end:
            # A run killed inside a write leaves a last line without its newline: the next
            # record appended would be glued to it and lost on every later resume.
            with open(self.checkpoint_path, "r+b") as handle:
                if tail_ok:
                    handle.seek(0, os.SEEK_END)
                    handle.write(b"\n")
                else:
                    handle.truncate(end)
                    logger.warning(
                        "%s: dropped a torn last line (%d bytes) left by an interrupted run",
                        self.checkpoint_path,
                        size - end,
                    )
        logger.info(
            "resuming: %d finished comparisons in %s (%d unreadable)",
            kept,
            self.checkpoint_path,
            unreadable,
        )

    def _read_line(self, line: bytes) -> PairOutcome | Literal[False] | None:
        """One checkpoint line's outcome; ``False`` for another scope, ``None`` if unreadable."""
        try:
            record = json.loads(line)
            if record.get("scope") != self.scope:
                return False
            return PairOutcome.from_json(record["pair"])
        except (ValueError, KeyError, TypeError, AttributeError, RecursionError):
            return None

    @property
    def resumed(self) -> int:
        """How many comparisons the checkpoint already held when the run started."""
        return len(self._loaded)

    def finished(self, original: str, candidate: str) -> PairOutcome | None:
        """A comparison finished by this or an earlier run of the same scope."""
        return self._done.get((original, candidate))

    def from_earlier_run(self, original: str, candidate: str) -> bool:
        """Whether the comparison was read from the checkpoint rather than done in this run."""
        return (original, candidate) in self._loaded

    def record(self, outcome: PairOutcome) -> None:
        """Append a finished comparison to the checkpoint, flushed at once."""
        if self._checkpoint is None:
            raise RuntimeError("RunStore is not open")
        self._done[(outcome.original, outcome.candidate)] = outcome
        self.recorded += 1
        line = json.dumps({"scope": self.scope, "pair": outcome.to_json()}, sort_keys=True)
        self._checkpoint.write(line + "\n")
        self._checkpoint.flush()

    @property
    def evidence_bytes(self) -> int:
        """Bytes of evidence images in the folder."""
        return self.images.bytes

    @property
    def evidence_skipped(self) -> int:
        """Evidence images not saved for the budget."""
        return self.images.skipped

    def save_image(self, key: str, suffix: str, data: bytes) -> str | None:
        """Save an evidence image once, within the budget; its path relative to the folder."""
        name = self.images.save(key, suffix, data)
        return None if name is None else f"evidence/{name}"

    def write_stats(self, stats: dict[str, Any]) -> Path:
        """Write ``stats.json`` atomically."""
        path = self.folder / "stats.json"
        write_json_atomic(path, stats)
        return path

    def write_run(self, settings: dict[str, Any]) -> None:
        """Record the run's effective settings in ``run.json``."""
        write_json_atomic(self.folder / "run.json", settings)


def saved_comparisons(folder: Path) -> int:
    """How many finished comparisons the run folder's checkpoint holds (complete lines)."""
    try:
        with open(folder / "checkpoint.jsonl", "rb") as handle:
            return sum(1 for line in handle if line.endswith(b"\n"))
    except OSError:
        return 0
