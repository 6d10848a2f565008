"""The run folder: an append-only checkpoint of compared pairs, evidence images, statistics.

Layout of a run folder (``--cache DIR``)::

    checkpoint.jsonl   one JSON line per finished comparison; a rerun skips them
    evidence/          small thumbnails and difference overlays, within a size budget
    stats.json         renders, failures, time per phase, pages per second
    run.json           the effective settings of the last run
"""

from __future__ import annotations

import hashlib
import json
import logging
from pathlib import Path
from types import TracebackType
from typing import IO, Any

from learner.classify import PairOutcome
from learner.errors import ConfigError
from samepage._files import write_text_atomic

logger = logging.getLogger(__name__)

__all__ = ["RunStore", "write_json_atomic"]


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
        self.budget = evidence_budget_bytes
        self.evidence_bytes = 0
        self.evidence_skipped = 0
        self.recorded = 0
        """Comparisons recorded by this run."""
        self._done: dict[tuple[str, str], PairOutcome] = {}
        self._loaded: frozenset[tuple[str, str]] = frozenset()
        self._checkpoint: IO[str] | None = None
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
        try:
            self.evidence_dir.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise ConfigError(f"cache folder {self.folder}: {exc}") from exc
        self._load()
        self.evidence_bytes = sum(
            p.stat().st_size for p in self.evidence_dir.iterdir() if p.is_file()
        )
        # Held open for the whole run and closed in __aexit__: one append per comparison.
        self._checkpoint = open(self.checkpoint_path, "a", encoding="utf-8")  # noqa: SIM115
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        if self._checkpoint is not None:
            self._checkpoint.close()
            self._checkpoint = None

    def _load(self) -> None:
        if not self.checkpoint_path.exists():
            return
        kept = torn = 0
        with open(self.checkpoint_path, encoding="utf-8") as handle:
            for line in handle:
                try:
                    record = json.loads(line)
                    if record.get("scope") != self.scope:
                        continue
                    outcome = PairOutcome.from_json(record["pair"])
                except (ValueError, KeyError, TypeError):
                    # A run killed mid-write leaves at most one torn last line.
                    torn += 1
                    continue
                self._done[(outcome.original, outcome.candidate)] = outcome
                kept += 1
        self._loaded = frozenset(self._done)
        logger.info(
            "resuming: %d finished comparisons in %s (%d unreadable)",
            kept,
            self.checkpoint_path,
            torn,
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
        line = json.dumps({"scope": self.scope, "pair": outcome.to_json()}, sort_keys=True)
        self._checkpoint.write(line + "\n")
        self._checkpoint.flush()

    def save_image(self, key: str, suffix: str, data: bytes) -> str | None:
        """Save an evidence image once, within the budget; its path relative to the folder."""
        name = hashlib.sha1(key.encode("utf-8")).hexdigest()[:16] + suffix
        path = self.evidence_dir / name
        relative = f"evidence/{name}"
        if path.exists():
            return relative
        if self.evidence_bytes + len(data) > self.budget:
            self.evidence_skipped += 1
            return None
        path.write_bytes(data)
        self.evidence_bytes += len(data)
        return relative

    def write_stats(self, stats: dict[str, Any]) -> Path:
        """Write ``stats.json`` atomically."""
        path = self.folder / "stats.json"
        write_json_atomic(path, stats)
        return path

    def write_run(self, settings: dict[str, Any]) -> None:
        """Record the run's effective settings in ``run.json``."""
        write_json_atomic(self.folder / "run.json", settings)
