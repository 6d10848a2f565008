"""Writing a file atomically with the mode a user expects, never over an input; a gone stdout."""

from __future__ import annotations

import contextlib
import os
import re
import stat
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path

__all__ = [
    "atomic_file",
    "discard_stdout",
    "overwritten_input",
    "refuse_overwrite",
    "remove_stale_temps",
    "temp_path",
    "write_text_atomic",
]


def temp_path(target: Path) -> Path:
    """A fresh hidden name next to ``target`` to write it under, holding this process's id.

    Stale ones, left by a writer that was killed (SIGKILL cannot be caught), are removed by
    :func:`remove_stale_temps` when the target is written again.
    """
    return target.parent / f".{target.name}.{os.getpid()}-{os.urandom(4).hex()}.tmp"


def remove_stale_temps(target: Path) -> None:
    """Remove the temp files of ``target`` whose writing process no longer runs."""
    prefix = f".{target.name}."
    try:
        names = [n for n in os.listdir(target.parent or ".") if n.startswith(prefix)]
    except OSError:
        return
    for name in names:
        pid, dash, rest = name[len(prefix) :].partition("-")
        if not (dash and rest.endswith(".tmp") and pid.isdigit()) or _running(int(pid)):
            continue
        with contextlib.suppress(OSError):
            os.unlink(target.parent / name)


def _running(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True  # it runs, as another user
    return True


_GLOB = re.compile(r"[*?\[{]")


def overwritten_input(out: str, inputs: Sequence[str], *, folders: bool = False) -> str | None:
    """The first of ``inputs`` that writing ``out`` would replace or add to, if any.

    ``out`` clashes with an input that is the same file (symlinks resolved, hard links
    found), and with a glob (``*``, ``?``, ``[...]``, ``**``) that would match it, so that
    the output is never read back as input by the next run. With ``folders`` (an output
    folder, as Spark writes), an output inside an input folder, or an input inside the output
    folder, clashes too. Remote paths (``s3://...``) are not checked.
    """
    if "://" in out:
        return None
    target = os.path.realpath(out)
    for name in inputs:
        if "://" in name or name == "-":
            continue
        if _GLOB.search(name):
            root, rest = _glob_parts(name)
            if _glob_matches(root, rest, target):
                return name
            if folders and (root == target or _inside(root, target)):
                return name
            continue
        source = os.path.realpath(name)
        if source == target or _same_file(name, out):
            return name
        if folders and (_inside(target, source) or _inside(source, target)):
            return name
    return None


def refuse_overwrite(out: str, inputs: Sequence[str], *, folders: bool = False) -> None:
    """Raise ``ValueError`` (one line) if writing ``out`` would replace or add to an input."""
    clash = overwritten_input(out, inputs, folders=folders)
    if clash is not None:
        raise ValueError(
            f"output {out} would overwrite or be read as the input {clash}: choose another path"
        )


def _same_file(a: str, b: str) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:
        return False


def _inside(path: str, folder: str) -> bool:
    return path.startswith(folder.rstrip(os.sep) + os.sep)


def _glob_parts(pattern: str) -> tuple[str, str]:
    """A glob's literal folders before the first wildcard (resolved), and the rest."""
    first = _GLOB.search(pattern)
    head = pattern[: first.start() if first else len(pattern)]
    base, _, _ = head.rpartition("/")
    rest = pattern[len(base) + 1 :] if base or head.startswith("/") else pattern
    return os.path.realpath(base or ("/" if head.startswith("/") else ".")), rest


def _glob_matches(root: str, rest: str, target: str) -> bool:
    """Whether a DuckDB or Spark glob (``root``/``rest``) matches the resolved ``target``.

    ``**`` crosses folders, ``*`` and ``?`` do not; ``{a,b}`` is taken to match anything.
    """
    regex = re.escape(root.rstrip("/")) + "/" + _glob_regex(rest)
    return re.fullmatch(regex, target) is not None or (_inside(target, root) and "**" in rest)


def _glob_regex(glob: str) -> str:
    out, i = [], 0
    while i < len(glob):
        char = glob[i]
        if glob.startswith("**", i):
            out.append(".*")
            i += 2
            continue
        if char == "*":
            out.append("[^/]*")
        elif char == "?":
            out.append("[^/]")
        elif char == "[":
            end = glob.find("]", i + 2)
            if end < 0:
                out.append(re.escape(char))
            else:
                body = glob[i + 1 : end].replace("\\", "\\\\")
                out.append("[^" + body[1:] + "]" if body.startswith("!") else "[" + body + "]")
                i = end
        elif char == "{":
            end = glob.find("}", i)
            out.append(".*" if end >= 0 else re.escape(char))
            i = end if end >= 0 else i
        else:
            out.append(re.escape(char))
        i += 1
    return "".join(out)


@contextlib.contextmanager
def atomic_file(path: str | os.PathLike[str]) -> Iterator[Path]:
    """A temporary file to write ``path`` through: renamed into place when the block ends.

    Readers see the old file or the new one, never half of one. If the block raises, the
    temporary file is removed and ``path`` is left as it was; a temporary file left by a
    killed writer is removed the next time. The new file keeps the mode of the file it
    replaces; a new file gets the mode ``open()`` would give it (0666 less the umask), not the
    0600 of :func:`tempfile.mkstemp`, so a published file stays readable to the service that
    loads it. Missing parent folders are created. The temporary file exists, empty, when the
    block starts; write it by name (a Parquet writer does) or open it for writing.

    Raises:
        OSError: when the folder cannot be written.
    """
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    try:
        mode: int | None = stat.S_IMODE(os.stat(target).st_mode)
    except FileNotFoundError:
        mode = None
    remove_stale_temps(target)
    temp = temp_path(target)
    # O_EXCL: never write through a file or link someone else put there. The kernel applies
    # the umask to 0o666, exactly as for any file the user's tools create.
    os.close(os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _NOFOLLOW, 0o666))
    try:
        yield temp
        with open(temp, "rb") as written:
            os.fsync(written.fileno())
        if mode is not None:
            os.chmod(temp, mode)
        os.replace(temp, target)
    except BaseException:
        temp.unlink(missing_ok=True)
        raise


_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)


def write_text_atomic(path: str | os.PathLike[str], text: str) -> Path:
    """Write ``text`` (UTF-8) to ``path`` through :func:`atomic_file`; the path written.

    Raises:
        OSError: when the folder cannot be written.
    """
    with atomic_file(path) as temp, open(temp, "w", encoding="utf-8") as handle:
        handle.write(text)
    return Path(path)


def discard_stdout() -> None:
    """Point stdout at /dev/null so the interpreter's final flush cannot fail again.

    For a command whose reader went away (``| head``): it then ends quietly, as Unix tools do.
    """
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (AttributeError, OSError, ValueError):
        pass
