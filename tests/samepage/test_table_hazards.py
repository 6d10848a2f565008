"""Hostile table input for the command line: binary URL columns, outputs that would replace
their input, DuckDB's errors on one line, a URL column sniffed as numbers, a taken ``key``
column, a learned set that is no file, and temp files left by a killed job."""

from __future__ import annotations

import csv
import json
import os
import subprocess
from pathlib import Path
from typing import Any

import pytest

from samepage import LearnedFormatError, load_learned, normalize_url
from tests.cli_process import samepage_here as run_here
from tests.cli_process import samepage_process as run
from tests.plugins.engines import engine


@pytest.fixture(scope="module")
def pq() -> Any:
    engine("duckdb")
    engine("pyarrow")
    import pyarrow.parquet

    return pyarrow.parquet


def _binary_file(pq: Any, path: Path, values: list[bytes | None]) -> Path:
    import pyarrow as pa

    pq.write_table(pa.table({"url": pa.array(values, pa.binary())}), path)
    return path


def _bytes_key(value: bytes) -> str:
    return normalize_url(value.decode("utf-8", "surrogateescape"))


def _one_line(result: subprocess.CompletedProcess[str]) -> str:
    assert result.returncode == 2, result.stderr
    assert result.stderr.startswith("samepage: ") and result.stderr.count("\n") == 1
    assert "Traceback" not in result.stderr
    return result.stderr


def test_binary_column_is_keyed_as_normalize_url_keys_the_bytes(pq: Any, tmp_path: Path) -> None:
    # ::VARCHAR would write 0xFF as the text \xFF, read back as /xFF: one false group.
    values = [
        b"https://a.example/\xff",
        b"https://a.example/xFF",
        b"https://a.example/caf\xc3\xa9?id=1&utm_source=x",
        b"https://a.example/\xe9t\xe9",
        None,
    ]
    source = _binary_file(pq, tmp_path / "raw.parquet", values)
    groups = run_here("dedupe", str(source))
    assert groups.returncode == 0, groups.stderr
    found = {g["key"]: g for g in map(json.loads, groups.stdout.splitlines())}
    assert sorted(found) == sorted(_bytes_key(v) for v in values if v is not None)
    assert found[_bytes_key(b"https://a.example/\xff")]["urls"] == ["https://a.example/%FF"]
    assert found[_bytes_key(b"https://a.example/xFF")]["urls"] == ["https://a.example/xFF"]

    out = tmp_path / "keyed.parquet"
    keyed = run_here("normalize", str(source), "--out", str(out))
    assert keyed.returncode == 0, keyed.stderr
    rows = pq.read_table(out).to_pylist()
    assert [r["key"] for r in rows] == [None if v is None else _bytes_key(v) for v in values]
    assert [r["url"] for r in rows] == values  # the input column is kept as it was


def test_binary_column_value_that_is_not_a_url_is_shown_escaped(pq: Any, tmp_path: Path) -> None:
    source = _binary_file(pq, tmp_path / "raw.parquet", [b"not a url \xff", b"https://a.example/"])
    result = run_here("dedupe", str(source), "--out", str(tmp_path / "groups.jsonl"))
    assert result.returncode == 1
    assert "'not a url %FF'" in result.stderr


@pytest.mark.parametrize("command", ["normalize", "dedupe"])
def test_output_that_is_the_input_is_refused_before_any_work(
    pq: Any, tmp_path: Path, command: str
) -> None:
    source = _binary_file(pq, tmp_path / "crawl.parquet", [b"https://a.example/?id=1"])
    before = source.read_bytes()
    link = tmp_path / "link.parquet"
    link.symlink_to(source)
    folder = tmp_path / "crawl"
    folder.mkdir()
    _binary_file(pq, folder / "part-1.parquet", [b"https://b.example/"])
    cases = [
        (str(source), str(source)),  # the same file
        (str(source), str(link)),  # a symlink to it
        (str(tmp_path / "." / "crawl.parquet"), str(source)),  # another spelling
        (str(folder / "*.parquet"), str(folder / "groups.parquet")),  # the next run reads it
        (str(tmp_path / "**" / "*.parquet"), str(folder / "deep.parquet")),
    ]
    for given, out in cases:
        message = _one_line(run_here(command, given, "--out", out))
        assert "would overwrite or be read as the input" in message
    assert source.read_bytes() == before
    assert sorted(p.name for p in folder.iterdir()) == ["part-1.parquet"]
    # A sibling the glob does not match is fine.
    fine = run_here(command, str(folder / "*.parquet"), "--out", str(folder / "groups.csv"))
    assert fine.returncode == 0, fine.stderr


def test_csv_that_is_not_utf8_is_refused_on_one_line(tmp_path: Path) -> None:
    engine("duckdb")
    source = tmp_path / "latin1.csv"
    source.write_bytes(b"url,n\nhttps://a.example/caf\xe9,1\n")
    message = _one_line(run_here("dedupe", str(source)))
    assert "latin1.csv" in message and "not utf-8" in message.lower()


def test_csv_url_column_with_numbers_first_is_read_as_text(tmp_path: Path) -> None:
    # DuckDB sniffs the first 20,480 rows: numbers there made the column BIGINT, and the
    # first URL after them failed the whole file.
    engine("duckdb")
    source = tmp_path / "mixed.csv"
    with open(source, "w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(["url", "n"])
        writer.writerows([str(i), i] for i in range(21_000))
        writer.writerow(["https://a.example/p/?id=1&utm_source=x", 1])
    result = run_here("normalize", str(source))
    assert result.returncode == 1  # the numbers are not URLs
    assert result.stdout == "https://a.example/p?id=1\n"
    assert "21000 value(s)" in result.stderr and "Traceback" not in result.stderr


def test_input_with_a_key_column_is_refused_not_renamed(pq: Any, tmp_path: Path) -> None:
    import pyarrow as pa

    source = tmp_path / "keyed.parquet"
    pq.write_table(pa.table({"url": ["https://a.example/"], "Key": ["mine"]}), source)
    out = tmp_path / "out.parquet"
    message = _one_line(run_here("normalize", str(source), "--out", str(out)))
    assert "already has a column 'Key'" in message
    assert not out.exists()
    printed = run_here("normalize", str(source))  # keys to stdout add no column
    assert printed.returncode == 0 and printed.stdout == "https://a.example/\n"


def test_missing_column_is_named_with_the_columns_there(pq: Any, tmp_path: Path) -> None:
    source = _binary_file(pq, tmp_path / "raw.parquet", [b"https://a.example/"])
    message = _one_line(run_here("dedupe", str(source), "--column", "uri"))
    assert "no column 'uri' in the input; its columns: 'url'" in message


@pytest.mark.parametrize("kind", ["fifo", "device"])
def test_learned_set_that_is_not_a_regular_file_is_refused(tmp_path: Path, kind: str) -> None:
    if kind == "fifo":
        path = tmp_path / "learned.json"
        os.mkfifo(path)  # nobody writes: reading it would block for ever
    else:
        path = Path("/dev/zero")  # reading it would never end
    message = _one_line(
        run_here("same", "https://a.example/", "https://a.example/", "--learned", str(path))
    )
    assert "not a regular file" in message


def test_learned_set_path_no_file_can_have_is_refused() -> None:
    with pytest.raises(LearnedFormatError, match="cannot read learned set: embedded null byte"):
        load_learned("learned\0.json")


def test_temp_file_of_a_killed_job_is_removed_and_output_replaced_whole(
    pq: Any, tmp_path: Path
) -> None:
    source = _binary_file(pq, tmp_path / "raw.parquet", [b"https://a.example/?id=1"])
    out = tmp_path / "groups.parquet"
    stale = tmp_path / f".groups.parquet.{_dead_pid()}-0badc0de.tmp"
    stale.write_bytes(b"half a file")
    alive = tmp_path / f".groups.parquet.{os.getpid()}-0badc0de.tmp"
    alive.write_bytes(b"a job still writing")
    result = run("dedupe", str(source), "--out", str(out))
    assert result.returncode == 0, result.stderr
    assert not stale.exists() and alive.exists()
    assert pq.read_table(out).column("count").to_pylist() == [1]
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.endswith(".tmp")) == [alive.name]


def _dead_pid() -> int:
    child = subprocess.Popen(["true"])
    child.wait()
    return child.pid
