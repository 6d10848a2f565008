"""The learner's command line: usage errors fail fast, with one line and exit status 2."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest


def run(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "learner", *args],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=cwd,
    )


@pytest.fixture
def domains(tmp_path: Path) -> Path:
    path = tmp_path / "domains.txt"
    path.write_text("http://shop.test\n", encoding="utf-8")
    return path


def test_missing_domains_file(tmp_path: Path) -> None:
    result = run("crawl", str(tmp_path / "none.txt"))
    assert result.returncode == 2
    assert (
        result.stderr.startswith("learner: domains file") and len(result.stderr.splitlines()) == 1
    )


def test_no_browser(domains: Path, tmp_path: Path) -> None:
    result = run(
        "crawl",
        str(domains),
        "--out",
        str(tmp_path / "l.json"),
        "--browser",
        str(tmp_path / "nope"),
    )
    assert result.returncode == 2
    assert "nope" in result.stderr and len(result.stderr.splitlines()) <= 2
    assert not (tmp_path / "l.json").exists()


def test_unwritable_output_fails_before_any_work(domains: Path, tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    result = run("crawl", str(domains), "--out", str(blocker / "learned.json"))
    assert result.returncode == 2
    assert "cannot write there" in result.stderr


@pytest.mark.parametrize(
    "args, message",
    [
        (["--resolve", "shop.test"], "expected HOST=ADDR:PORT"),
        (["--resolve", "shop.test=localhost:80"], "shop.test"),
        (["--samples", "0"], "samples: must be at least 1"),
        (["--min-samples", "20"], "min_samples"),
    ],
)
def test_bad_options(domains: Path, tmp_path: Path, args: list[str], message: str) -> None:
    result = run("crawl", str(domains), "--out", str(tmp_path / "l.json"), *args)
    assert result.returncode == 2
    assert message in result.stderr


def test_help_has_groups_defaults_and_exit_codes() -> None:
    text = run("crawl", "--help").stdout
    for needle in (
        "method (MIQPS)",
        "browser and network",
        "input and output",
        "default: data/learned.json",
    ):
        assert needle in text
    assert "exit status:" in run("--help").stdout
