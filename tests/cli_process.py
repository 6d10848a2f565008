"""A command line's ``main`` run in the test's process, as its own process would run it.

Starting an interpreter costs up to a second a call (most of it importing DuckDB or the
learner's stack); the tests that check what a command answers run ``main`` here instead, on
UTF-8 streams as in a pipe, with help wrapped at 80 columns. A few tests per command line
still start the real process (:func:`samepage_process`).
"""

from __future__ import annotations

import contextlib
import io
import os
import subprocess
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from unittest import mock

_ERRORS = {"stdin": "strict", "stdout": "strict", "stderr": "backslashreplace"}


def run_in_process(
    main: Callable[[Sequence[str]], int], program: str, args: Sequence[str], cwd: Path | None = None
) -> subprocess.CompletedProcess[str]:
    """``program ARGS`` through ``main``: its exit status and what it printed."""
    streams = {
        name: io.TextIOWrapper(io.BytesIO(), encoding="utf-8", errors=handling)
        for name, handling in _ERRORS.items()
    }
    with contextlib.ExitStack() as stack:
        for name, stream in streams.items():
            stack.enter_context(mock.patch.object(sys, name, stream))
        stack.enter_context(mock.patch.dict(os.environ, {"COLUMNS": "80"}))
        if cwd is not None:
            stack.enter_context(contextlib.chdir(cwd))
        try:
            status = main(list(args))
        except SystemExit as exc:  # argparse: usage errors and --help
            status = exc.code if isinstance(exc.code, int) else 0 if exc.code is None else 1
        printed = []
        for name in ("stdout", "stderr"):
            streams[name].flush()
            buffer = streams[name].buffer
            assert isinstance(buffer, io.BytesIO)
            printed.append(buffer.getvalue().decode("utf-8", "surrogateescape"))
    return subprocess.CompletedProcess([program, *args], status, *printed)


def samepage_process(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    """``python -m samepage ARGS`` in its own process, as a user starts it."""
    return subprocess.run(
        [sys.executable, "-m", "samepage", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=60,
    )


def samepage_here(*args: str) -> subprocess.CompletedProcess[str]:
    """``samepage ARGS`` run in this process."""
    from samepage.cli import main

    return run_in_process(main, "samepage", args)


def learner_here(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    """``learner ARGS`` run in this process, as ``python -m learner`` runs it."""
    from learner.cli import main

    return run_in_process(main, "learner", args, cwd)
