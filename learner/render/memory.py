"""A memory cap for page renderers: a renderer process past the cap is killed.

Chromium offers no flag that bounds a renderer's whole memory (the DOM, layout and images
live outside the JavaScript heap), and one huge page can take a renderer to gigabytes. The
:class:`MemoryWatchdog` reads the resident size of every Chromium renderer process started
under this process (Linux ``/proc``; elsewhere it does nothing) a few times a second and
kills the ones past the cap. The page in that renderer crashes, and its render fails like
a timeout (``RenderCause.MEMORY``): a failure that can only keep a parameter.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import signal
import time
from pathlib import Path

logger = logging.getLogger(__name__)

__all__ = ["MemoryWatchdog", "renderer_processes"]

_PROC = Path("/proc")
_PAGE_SIZE = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096
# A crash this soon after a kill is put down to the kill.
_BLAME_WINDOW_S = 5.0


def _parent(pid: int) -> int | None:
    try:
        stat = (_PROC / str(pid) / "stat").read_text()
    except OSError:
        return None
    # The command name in parentheses may hold spaces: the fields follow the last ")".
    return int(stat.rpartition(")")[2].split()[1])


def _resident_bytes(pid: int) -> int:
    try:
        return int((_PROC / str(pid) / "statm").read_text().split()[1]) * _PAGE_SIZE
    except (OSError, IndexError, ValueError):
        return 0


def renderer_processes(root: int) -> dict[int, int]:
    """Chromium renderer processes descended from ``root``: pid to resident bytes."""
    if not _PROC.is_dir():
        return {}
    parents: dict[int, int] = {}
    renderers: list[int] = []
    for entry in _PROC.iterdir():
        if not entry.name.isdigit():
            continue
        pid = int(entry.name)
        try:
            cmdline = (entry / "cmdline").read_bytes()
        except OSError:
            continue
        parent = _parent(pid)
        if parent is not None:
            parents[pid] = parent
        if b"--type=renderer" in cmdline:
            renderers.append(pid)
    found = {}
    for pid in renderers:
        ancestor: int | None = pid
        for _ in range(64):  # bounded walk up the tree
            ancestor = parents.get(ancestor) if ancestor is not None else None
            if ancestor is None or ancestor == root:
                break
        if ancestor == root:
            found[pid] = _resident_bytes(pid)
    return found


class MemoryWatchdog:
    """Kills renderer processes, started under this process, whose memory passes a cap.

    Args:
        cap_bytes: the most resident memory one renderer may use.
        interval_s: how often the renderers are measured.
    """

    def __init__(self, cap_bytes: int, *, interval_s: float = 0.25) -> None:
        self.cap_bytes = cap_bytes
        self.interval_s = interval_s
        self.killed = 0
        self._last_kill = -float("inf")
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        """Start watching (once); a no-op where ``/proc`` is missing."""
        if self._task is None and _PROC.is_dir():
            self._task = asyncio.ensure_future(self._watch())

    async def stop(self) -> None:
        """Stop watching."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None

    def blames(self) -> bool:
        """Whether a crash now is likely the watchdog's doing (a kill in the last seconds)."""
        return time.monotonic() - self._last_kill < _BLAME_WINDOW_S

    def check(self) -> list[int]:
        """Measure once; kill and return the renderers past the cap."""
        over = [
            pid for pid, size in renderer_processes(os.getpid()).items() if size > self.cap_bytes
        ]
        for pid in over:
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)
                self.killed += 1
                self._last_kill = time.monotonic()
                logger.warning(
                    "killed a page renderer past the memory cap of %d MB", self.cap_bytes >> 20
                )
        return over

    async def _watch(self) -> None:
        while True:
            await asyncio.to_thread(self.check)
            await asyncio.sleep(self.interval_s)
