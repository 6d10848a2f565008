"""Run a third-party web application as its own process on 127.0.0.1, for as long as needed.

The process gets a free port, is polled over HTTP until it answers (bounded by a deadline,
failing with the tail of its log), and is terminated, then killed, on exit, with every
process it started (PHP's server forks its workers): it runs in a process group of its own.
"""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Sequence
from pathlib import Path
from types import TracebackType

__all__ = ["AppServer", "free_port"]

_POLL_S = 0.1
"""Pause between two readiness probes (the probe itself waits up to a second)."""


def _signal_group(group: int, signal_number: int) -> None:
    with contextlib.suppress(ProcessLookupError):  # the group is gone already
        os.killpg(group, signal_number)


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


class AppServer:
    """One application process answering for ``host`` on 127.0.0.1.

    Args:
        host: the host name the learner uses for it (mapped with ``--resolve``).
        command: the command line, given the port to listen on.
        log: where the process's output goes (read back when it fails to start).
        ready_path: the path polled until it answers with any HTTP status below 500.
        start_timeout_s: the longest wait for that answer.
        cwd: the working directory of the process.
    """

    def __init__(
        self,
        host: str,
        command: Callable[[int], Sequence[str]],
        *,
        log: Path,
        ready_path: str = "/",
        start_timeout_s: float = 60.0,
        cwd: Path | None = None,
    ) -> None:
        self.host = host
        self.port = free_port()
        self._argv = list(command(self.port))
        self._log = log
        self._ready_path = ready_path
        self._start_timeout_s = start_timeout_s
        self._cwd = cwd
        self._process: subprocess.Popen[bytes] | None = None

    @property
    def address(self) -> str:
        """``127.0.0.1:PORT``."""
        return f"127.0.0.1:{self.port}"

    def resolve(self) -> dict[str, str]:
        """The ``--resolve`` mapping that sends the app's host to this process."""
        return {self.host: self.address}

    def url(self, path_and_query: str) -> str:
        """The URL of ``path_and_query`` on the app's host (as the learner sees it)."""
        return f"http://{self.host}{path_and_query}"

    def __enter__(self) -> AppServer:
        with self._log.open("wb") as out:
            self._process = subprocess.Popen(
                self._argv,
                stdout=out,
                stderr=subprocess.STDOUT,
                cwd=self._cwd,
                start_new_session=True,  # its workers in its group: stopped with it
            )
        try:
            self._wait_until_ready()
        except BaseException:
            self.stop()
            raise
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self.stop()

    def stop(self) -> None:
        """Terminate the process group, and kill it if the process has not exited in 5 s.

        The group goes whole: a worker the server forked would outlive its parent otherwise.
        """
        process, self._process = self._process, None
        if process is None:
            return
        _signal_group(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            _signal_group(process.pid, signal.SIGKILL)
            process.wait(timeout=5)
        _signal_group(process.pid, signal.SIGKILL)  # a worker that outlived the parent

    def _wait_until_ready(self) -> None:
        assert self._process is not None
        probe = f"http://{self.address}{self._ready_path}"
        deadline = time.monotonic() + self._start_timeout_s
        while True:
            code = self._process.poll()
            if code is not None:
                raise RuntimeError(f"{self.host}: exited with status {code}: {self._log_tail()}")
            if _answers(probe, self.host):
                return
            if time.monotonic() > deadline:
                raise RuntimeError(
                    f"{self.host}: no answer on {probe} within {self._start_timeout_s:.0f} s: "
                    f"{self._log_tail()}"
                )
            time.sleep(_POLL_S)

    def _log_tail(self) -> str:
        try:
            return self._log.read_text(errors="replace")[-2000:]
        except OSError:
            return "(no log)"


def _answers(url: str, host: str) -> bool:
    request = urllib.request.Request(url, headers={"Host": host})
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
    try:
        with opener.open(request, timeout=1.0) as response:
            return int(response.status) < 500
    except urllib.error.HTTPError as exc:
        return exc.code < 500
    except OSError:
        return False
