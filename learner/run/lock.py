"""The run folder's lock: one learner run uses a run folder at a time."""

from __future__ import annotations

import contextlib
import os
from pathlib import Path

from learner.errors import ConfigError

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows: no advisory locks, the folder is not locked
    fcntl = None  # type: ignore[assignment]

__all__ = ["FolderLock"]


class FolderLock:
    """The advisory ``flock`` of the file ``path``, held from :meth:`take` to :meth:`release`.

    The kernel releases it when the process ends, however it ends, so a killed run never
    leaves a stale lock. The holder's process id is written into the file for the message.
    """

    def __init__(self, path: Path) -> None:
        self.path = path
        self._fd: int | None = None

    def take(self) -> None:
        """Take the lock, or raise ConfigError if another run holds it."""
        if fcntl is None:  # pragma: no cover
            return
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0), 0o666)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = os.read(fd, 32).decode("ascii", "replace").strip() or "unknown"
            os.close(fd)
            raise ConfigError(
                f"cache folder {self.path.parent} is in use by another learner run (pid {holder}); "
                "wait for it to end or give another --cache"
            ) from None
        except BaseException:
            os.close(fd)
            raise
        with contextlib.suppress(OSError):
            os.ftruncate(fd, 0)
            os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
        self._fd = fd

    def release(self) -> None:
        """Release the lock if held (closing the descriptor releases the flock)."""
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None
