"""The learner's command line: usage errors fail fast, with one line and exit status 2."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from samepage import DomainEntry, LearnedSet, dump_learned


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


@pytest.mark.parametrize("command", ["crawl", "demo", "report", "diff"])
def test_help_shows_each_default_once(command: str) -> None:
    result = run(command, "--help")
    assert result.returncode == 0
    assert "(default: None)" not in result.stdout
    assert "(default: False)" not in result.stdout
    # One option's help, wrapped over lines, names its default at most once.
    entries = re.split(r"\n  (?=-)", result.stdout)
    assert [e for e in entries if e.count("default") > 1] == []


def test_demo_refuses_to_clear_a_folder_it_did_not_make(tmp_path: Path) -> None:
    keep = tmp_path / "mine"
    keep.mkdir()
    (keep / "notes.txt").write_text("precious", encoding="utf-8")
    result = run("demo", "--cache", str(keep), "--out", str(tmp_path / "demo.json"))
    assert result.returncode == 2
    assert "not a folder an earlier demo made" in result.stderr
    assert (keep / "notes.txt").read_text(encoding="utf-8") == "precious"


def test_demo_refuses_to_overwrite_a_learned_set_a_crawl_wrote(tmp_path: Path) -> None:
    published = tmp_path / "learned.json"
    dump_learned(LearnedSet({"shop.example.com": DomainEntry({})}), published)
    before = published.read_bytes()
    result = run("demo", "--cache", str(tmp_path / "run"), "--out", str(published))
    assert result.returncode == 2
    assert "a crawl wrote this learned set" in result.stderr
    assert published.read_bytes() == before
