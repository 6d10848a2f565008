"""``learner plan`` over web archives: every capture is an observed URL, as a log line is."""

from __future__ import annotations

from pathlib import Path

import pytest

from learner.cli import main
from learner.plan.files import read_plan
from tests.archive_fixtures import Shot, write_cdxj, write_warc
from tests.plugins.engines import engine

engine("duckdb")
engine("warcio")

URLS = [f"https://shop.example/p?id={n}&ref={'abc'[n % 3]}&utm_source=x" for n in range(12)]
URLS += [f"https://shop.example/list?page={n}" for n in range(5)]
SHOTS = [Shot(url, f"202401010000{n:02d}", revisit=n % 4 == 0) for n, url in enumerate(URLS)]


def _plan(tmp_path: Path, name: str, *extra: str) -> object:
    listed = tmp_path / "domains.txt"
    listed.write_text("shop.example\n", encoding="utf-8")
    out = tmp_path / f"{name}.jsonl"
    status = main(["-q", "plan", str(listed), "--out", str(out), *extra])
    assert status == 0
    return read_plan(str(out))


def test_an_index_and_a_warc_plan_as_the_text_log_of_their_urls(tmp_path: Path) -> None:
    log = tmp_path / "urls.txt"
    log.write_text("\n".join(URLS) + "\n", encoding="utf-8")
    index = write_cdxj(tmp_path / "index.cdxj", SHOTS, ['bad 20240101000000 {"url": '])
    part = len(SHOTS) // 2
    warcs = [
        write_warc(tmp_path / "a.warc.gz", SHOTS[:part]),
        write_warc(tmp_path / "b.warc", SHOTS[part:], gzip=False),
    ]
    text = _plan(tmp_path, "text", "--urls", str(log))
    assert _plan(tmp_path, "cdxj", "--urls", str(index)) == text
    assert _plan(tmp_path, "warc", "--urls", str(tmp_path / "*.warc*")) == text
    assert _plan(tmp_path, "named", "--urls", *map(str, warcs)) == text


def _inputs(tmp_path: Path) -> tuple[Path, Path]:
    """A domains file and a one-line URL log."""
    listed = tmp_path / "domains.txt"
    listed.write_text("shop.example\n", encoding="utf-8")
    log = tmp_path / "urls.txt"
    log.write_text(URLS[0] + "\n", encoding="utf-8")
    return listed, log


def test_archives_mixed_with_logs_or_unreadable_are_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    listed, log = _inputs(tmp_path)
    index = write_cdxj(tmp_path / "index.cdxj", SHOTS)
    out = str(tmp_path / "plan.jsonl")
    assert main(["plan", str(listed), "--urls", str(index), str(log), "--out", out]) == 2
    assert capsys.readouterr().err.strip() == (
        "learner: --urls: give web archives and other logs in separate plans"
    )
    missing = str(tmp_path / "gone.cdxj")
    assert main(["plan", str(listed), "--urls", missing, "--out", out]) == 2
    assert capsys.readouterr().err.strip() == (
        f"learner: --urls {missing}: No such file or directory"
    )


def test_crawl_refuses_an_unreadable_archive_and_archive_with_ray_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    listed, log = _inputs(tmp_path)
    missing = str(tmp_path / "gone.cdxj")
    out = str(tmp_path / "learned.json")
    assert main(["crawl", str(listed), "--urls", str(log), "--archive", missing, "--out", out]) == 2
    assert capsys.readouterr().err.strip() == (
        f"learner: --archive {missing}: No such file or directory"
    )
    index = str(write_cdxj(tmp_path / "index.cdxj", SHOTS))
    args = ["crawl", str(listed), "--urls", str(log), "--archive", index, "--ray", "--out", out]
    assert main(args) == 2
    assert capsys.readouterr().err.strip() == (
        "learner: --archive: not available with --ray; run without --ray"
    )
    window = ["--archive-window", "-1"]
    assert main(["crawl", str(listed), "--urls", str(log), "--archive", index, *window]) == 2
    assert "--archive-window -1.0: give a finite number" in capsys.readouterr().err
