"""Web archives as URL logs for ``python -m learner plan``: CDXJ indexes and WARC files.

Each capture (response or revisit, whatever its status) is one observed URL, as a text log
line is: the archive's URLs are streamed into a temporary text log, one URL a line, which
the plan reads as any other (:mod:`learner.plan.logs`). Malformed records are skipped and
reported as warnings, one line each (the first ten, then a count).
"""

from __future__ import annotations

import glob
import logging
import os
import tempfile
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import cast

from learner.errors import ConfigError
from learner.plan.log_lines import LogProblems
from learner.plan.logs import LogFormat
from samepage.archives import ARCHIVE_FORMATS, ArchiveFormat, archive_format, file_captures

logger = logging.getLogger(__name__)

__all__ = ["archive_logs"]


def _format(sources: Sequence[str], given: str | None) -> ArchiveFormat | None:
    if given is not None:
        return "warc" if given == "warc" else "cdxj" if given in ARCHIVE_FORMATS else None
    # A glob is judged by the files it names (``archive/*.warc*``), when it names any here.
    names = [n for s in sources for n in (glob.glob(s) if glob.has_magic(s) else [s])]
    kinds = {archive_format(name) for name in names or sources}
    if len(kinds) > 1 and kinds & set(ARCHIVE_FORMATS):
        raise ConfigError("--urls: give web archives and other logs in separate plans")
    return kinds.pop() if kinds else None


def _paths(sources: Sequence[str]) -> list[str]:
    paths: list[str] = []
    for source in sources:
        found = sorted(glob.glob(source)) if glob.has_magic(source) else [source]
        if not found:
            raise ConfigError(f"--urls {source}: no file matches")
        paths += found
    return paths


@contextmanager
def archive_logs(
    sources: Sequence[str], given: str | None
) -> Iterator[tuple[Sequence[str], LogFormat | None]]:
    """``(sources, format)`` for :func:`~learner.plan.logs.plan_files`.

    Logs that are not archives pass through unchanged; archives become one temporary text
    log, removed when the block ends.

    Raises:
        ConfigError: an archive cannot be read, or archives are mixed with other logs.
    """
    fmt = _format(sources, given)
    if fmt is None:
        yield sources, cast(LogFormat | None, given)  # the parser's choices: text, csv, parquet
        return
    with tempfile.TemporaryDirectory(prefix="samepage-plan-") as folder:
        log = os.path.join(folder, "urls.txt")
        problem = LogProblems()
        with open(log, "w", encoding="utf-8", errors="surrogateescape") as out:
            for path in _paths(sources):
                try:
                    for capture in file_captures(path, fmt, problem):
                        out.write(capture.url + "\n")
                except OSError as exc:
                    raise ConfigError(f"--urls {path}: {exc.strerror or exc}") from None
        problem.summary()
        yield [log], "text"
