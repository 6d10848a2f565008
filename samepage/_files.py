"""Writing a file atomically with the mode a user expects."""

from __future__ import annotations

import os
import stat
from pathlib import Path

__all__ = ["write_text_atomic"]


def write_text_atomic(path: str | os.PathLike[str], text: str) -> Path:
    """Write ``text`` (UTF-8) to ``path`` through a temp file renamed into place.

    Readers see the old file or the new one, never half of one. The new file keeps the
    mode of the file it replaces; a new file gets the mode ``open()`` would give it (0666
    less the umask), not the 0600 of :func:`tempfile.mkstemp`, so a published learned set
    stays readable to the service that loads it. Missing parent folders are created.

    Raises:
        OSError: when the folder cannot be written.
    """
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    try:
        mode: int | None = stat.S_IMODE(os.stat(target).st_mode)
    except FileNotFoundError:
        mode = None
    temp = target.parent / f".{target.name}.{os.urandom(6).hex()}.tmp"
    # O_EXCL: never write through a file or link someone else put there. The kernel applies
    # the umask to 0o666, exactly as for any file the user's tools create.
    fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o666)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        if mode is not None:
            os.chmod(temp, mode)
        os.replace(temp, target)
    except BaseException:
        temp.unlink(missing_ok=True)
        raise
    return target
