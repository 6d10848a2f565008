"""Evidence images of a run folder: thumbnails and overlays, each saved once, within a budget."""

from __future__ import annotations

import hashlib
import os
import threading
from pathlib import Path

__all__ = ["EvidenceImages"]


class EvidenceImages:
    """The images of ``folder`` (a run folder's ``evidence/``), at most ``budget`` bytes."""

    def __init__(self, folder: Path, budget: int) -> None:
        self.folder = folder
        self.budget = budget
        self.bytes = 0
        """Bytes of images in the folder."""
        self.skipped = 0
        """Images not saved for the budget."""
        # Images are saved from worker threads: the exists-check, write and tally are one step.
        self._saving = threading.Lock()

    def count_existing(self) -> None:
        """Count the bytes of the images an earlier run left in the folder."""
        self.bytes = sum(p.stat().st_size for p in self.folder.iterdir() if p.is_file())

    def save(self, key: str, suffix: str, data: bytes) -> str | None:
        """Save an image once, within the budget; its name, or None past the budget."""
        name = hashlib.sha1(key.encode("utf-8")).hexdigest()[:16] + suffix
        path = self.folder / name
        with self._saving:
            if path.exists() or path.is_symlink():
                return name
            if self.bytes + len(data) > self.budget:
                self.skipped += 1
                return None
            flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
            with os.fdopen(os.open(path, flags, 0o666), "wb") as handle:
                handle.write(data)
            self.bytes += len(data)
        return name
