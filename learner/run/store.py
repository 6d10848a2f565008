"""The run folder: its layout, an append-only checkpoint of compared pairs, and its other files.

This module owns the folder: :class:`RunLayout` names every file in it, :func:`read_pair`
reads a checkpoint line (for the run that resumes, and for the report), :class:`RunStore`
writes it while a run runs.

Its lock is a :class:`~learner.run.lock.FolderLock`, its images are kept by
:class:`~learner.run.evidence_images.EvidenceImages`.

Layout of a run folder (``--cache DIR``)::

    checkpoint.jsonl   one JSON line per finished comparison; a rerun skips them
    lock               held (flock) by the run using the folder; a second run is refused
    evidence/          small thumbnails and difference overlays, within a size budget
    stats.json         renders, failures, time per phase, pages per second
    run.json           the effective settings of the last run
    learned.json       the learned set the run published (learned.refused.json: refused)
    domains/*/         a Ray run's checkpoint and evidence, per domain
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import IO, Any, Literal

from learner.errors import ConfigError
from learner.model import PairOutcome
from learner.run.evidence_images import EvidenceImages
from learner.run.lock import FolderLock
from samepage.files import write_text_atomic

logger = logging.getLogger(__name__)

__all__ = [
    "COMPARISON_VERSION",
    "SAFE_NAME",
    "RunLayout",
    "RunStore",
    "checkpoint_line",
    "comparison_scope",
    "read_checkpoint",
    "read_pair",
    "resumable_comparisons",
    "write_json_atomic",
]

# Bumped whenever rendering or comparison changes meaning, so old checkpoints are not reused.
COMPARISON_VERSION = 2

SAFE_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,127}")
"""A name a run folder's reader follows: no path, no leading dot, not too long."""


def comparison_scope(settings: Mapping[str, Any]) -> str:
    """A digest of everything that decides a comparison.

    That is the render settings of a run's ``settings`` (``LearnerConfig.to_json()``, as
    ``stats.json`` records them) and :data:`COMPARISON_VERSION`. A checkpoint's lines are
    reused, and shown by the report, only within one scope.
    """
    data = json.dumps({"render": settings["render"], "version": COMPARISON_VERSION}, sort_keys=True)
    return hashlib.sha256(data.encode()).hexdigest()[:16]


@dataclass(frozen=True, slots=True)
class RunLayout:
    """Where each file of a run folder is (see the module's docstring)."""

    folder: Path

    @property
    def checkpoint(self) -> Path:
        """One JSON line per finished comparison."""
        return self.folder / "checkpoint.jsonl"

    @property
    def evidence(self) -> Path:
        """Thumbnails and difference overlays."""
        return self.folder / "evidence"

    @property
    def lock(self) -> Path:
        """The advisory lock a run holds (:class:`~learner.run.lock.FolderLock`)."""
        return self.folder / "lock"

    @property
    def stats(self) -> Path:
        """Renders, failures and times of the last run."""
        return self.folder / "stats.json"

    @property
    def run(self) -> Path:
        """The effective settings of the last run."""
        return self.folder / "run.json"

    @property
    def learned(self) -> Path:
        """The learned set the run published."""
        return self.folder / "learned.json"

    @property
    def refused(self) -> Path:
        """The learned set the gate refused to publish."""
        return self.folder / "learned.refused.json"

    @property
    def domains(self) -> Path:
        """The domain folders of a Ray run, each laid out as a run folder's checkpoint part."""
        return self.folder / "domains"

    def parts(self) -> tuple[Path, ...]:
        """The folders that hold a checkpoint and evidence: this one, then a Ray run's.

        A Ray run's domain folders (``domains/*/``) come by name; a link, or a name that is
        not :data:`SAFE_NAME`, is never followed.
        """
        try:
            found = [p for p in self.domains.iterdir() if SAFE_NAME.fullmatch(p.name)]
        except OSError:
            found = []
        return (self.folder, *sorted(p for p in found if p.is_dir() and not p.is_symlink()))


def checkpoint_line(scope: str, outcome: PairOutcome) -> str:
    """The checkpoint line (without its newline) recording ``outcome`` under ``scope``."""
    return json.dumps({"scope": scope, "pair": outcome.to_json()}, sort_keys=True)


def read_pair(line: bytes | str, scope: str | None) -> PairOutcome | Literal[False] | None:
    """One checkpoint line's outcome: ``False`` for another scope, ``None`` if unreadable.

    ``scope`` ``None`` reads a line of any scope. A line is untrusted input: a torn last
    line of an interrupted run, or a hostile one, reads as ``None``, never as an error. So
    does a line naming a cause (of the sample, or of a render failure) or a render step this
    learner does not know: its sample is judged again.
    """
    try:
        record = json.loads(line)
        if scope is not None and record.get("scope") != scope:
            return False
        return PairOutcome.from_json(record["pair"])
    except (ValueError, KeyError, TypeError, AttributeError, RecursionError):
        return None


def read_checkpoint(path: Path, scope: str | None) -> Iterator[PairOutcome]:
    """The readable outcomes of ``scope`` in the checkpoint at ``path``, in order.

    A checkpoint that cannot be opened holds none.
    """
    try:
        with open(path, "rb") as handle:
            for line in handle:
                outcome = read_pair(line, scope)
                if outcome:
                    yield outcome
    except OSError:
        logger.info("%s: no checkpoint", path)


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
        self.layout = RunLayout(folder)
        self.scope = scope
        self.images = EvidenceImages(self.layout.evidence, evidence_budget_bytes)
        self.recorded = 0
        """Comparisons recorded by this run."""
        self._done: dict[tuple[str, str], PairOutcome] = {}
        self._loaded: frozenset[tuple[str, str]] = frozenset()
        self._checkpoint: IO[str] | None = None
        self._lock = FolderLock(self.layout.lock)
        self._entered = False

    @property
    def checkpoint_path(self) -> Path:
        """Where finished comparisons are appended."""
        return self.layout.checkpoint

    @property
    def evidence_dir(self) -> Path:
        """Where thumbnails and overlays go."""
        return self.layout.evidence

    async def __aenter__(self) -> RunStore:
        if self._entered:
            raise RuntimeError("a RunStore can be entered once")
        self._entered = True
        for path in (self.evidence_dir, self.checkpoint_path, self.layout.lock):
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
                outcome = read_pair(line, self.scope)
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
        self._checkpoint.write(checkpoint_line(self.scope, outcome) + "\n")
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
        path = self.layout.stats
        write_json_atomic(path, stats)
        return path

    def write_run(self, settings: dict[str, Any]) -> None:
        """Record the run's effective settings in ``run.json``."""
        write_json_atomic(self.layout.run, settings)


def resumable_comparisons(folder: Path, scope: str) -> int:
    """How many finished comparisons a rerun of ``scope`` in ``folder`` reads back.

    The distinct readable pairs of ``scope`` in the checkpoints of the folder and of a Ray
    run's domain folders (:meth:`RunLayout.parts`): lines of another scope (a run with other
    render settings), torn or unreadable lines, and repeats are not counted.
    """
    return len(
        {
            (outcome.original, outcome.candidate)
            for part in RunLayout(folder).parts()
            for outcome in read_checkpoint(RunLayout(part).checkpoint, scope)
        }
    )
