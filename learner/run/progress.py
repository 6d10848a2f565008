"""Progress on stderr: a live line on a terminal, a periodic status line otherwise."""

from __future__ import annotations

import logging
import sys
import time
from dataclasses import dataclass, field
from typing import TextIO

logger = logging.getLogger(__name__)

__all__ = ["Progress"]


@dataclass(slots=True)
class Progress:
    """Counts a run's work and shows it.

    Args:
        stream: where to write (stderr by default).
        interval_s: how often a non-terminal status line is written.
        enabled: ``False`` for ``-q``.
    """

    stream: TextIO = field(default_factory=lambda: sys.stderr)
    interval_s: float = 10.0
    enabled: bool = True
    domains_total: int = 0
    domains_done: int = 0
    patterns_total: int = 0
    patterns_done: int = 0
    renders: int = 0
    rendering: int | None = None
    """Pages rendering at this moment; ``None`` where the run cannot see them (a cluster's
    driver counts what its workers report)."""
    failures: int = 0
    resumed: int = 0
    started: float = field(default_factory=time.monotonic)
    _last: float = 0.0

    def line(self) -> str:
        """The current status as one line."""
        elapsed = time.monotonic() - self.started
        eta = ""
        if self.patterns_done and self.patterns_total > self.patterns_done:
            remaining = elapsed / self.patterns_done * (self.patterns_total - self.patterns_done)
            eta = f" eta {remaining:.0f}s"
        rate = f"{self.renders / elapsed:.2f}/s" if elapsed > 0 else "0.00/s"
        at_once = "" if self.rendering is None else f", {self.rendering} rendering"
        return (
            f"domains {self.domains_done}/{self.domains_total}  patterns {self.patterns_done}/"
            f"{self.patterns_total}  renders {self.renders} ({rate}{at_once})  failures "
            f"{self.failures}  resumed {self.resumed}  {elapsed:.0f}s{eta}"
        )

    def update(self, *, force: bool = False) -> None:
        """Show the status if it is time to (always on a terminal)."""
        if not self.enabled:
            return
        now = time.monotonic()
        if self.stream.isatty():
            self.stream.write("\r\x1b[K" + self.line())
            self.stream.flush()
        elif force or now - self._last >= self.interval_s:
            self._last = now
            self.stream.write("progress: " + self.line() + "\n")
            self.stream.flush()

    def finish(self) -> None:
        """End the live line."""
        if self.enabled and self.stream.isatty():
            self.stream.write("\n")
            self.stream.flush()
