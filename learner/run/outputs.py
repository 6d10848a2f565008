"""Checks on the run's outputs made before any work, so a long run cannot fail at its end."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from learner.errors import ConfigError

__all__ = ["check_output"]


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
