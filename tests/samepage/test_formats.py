"""One table of file extensions: every reader of samepage and the learner reads it."""

from __future__ import annotations

import argparse
import re

import pytest

from learner.errors import ConfigError
from learner.plan.files import plan_format
from learner.plan.logs import input_format
from samepage import cli
from samepage.archives import archive_format
from samepage.formats import SUFFIXES, file_format


def test_the_table_names_each_format_by_its_extensions() -> None:
    by_format: dict[str, set[str]] = {}
    for suffix, fmt in SUFFIXES.items():
        assert suffix == suffix.lower() and suffix.startswith("."), suffix
        by_format.setdefault(fmt, set()).add(suffix)
    assert by_format == {
        "parquet": {".parquet", ".pq"},
        "csv": {".csv"},
        "jsonl": {".jsonl", ".ndjson"},
        "json": {".json"},
        "cdxj": {".cdxj"},
        "warc": {".warc"},
    }


@pytest.mark.parametrize(
    ("path", "compressions", "expected"),
    [
        ("crawl/Part-0.PQ", (), "parquet"),
        ("dir.csv/urls.txt", (), None),
        ("logs.csv.gz", (), None),
        ("logs.csv.gz", (".gz",), "csv"),
        ("logs.csv.ZST", (".gz", ".zst"), "csv"),
        ("logs.csv.zst", (".gz",), None),
        ("logs.csv.gz.gz", (".gz",), None),
        ("archive.warc.gz", (".gz",), "warc"),
        (".csv", (), None),
        ("urls", (), None),
        (".gz", (".gz",), None),
    ],
)
def test_file_format(path: str, compressions: tuple[str, ...], expected: str | None) -> None:
    assert file_format(path, compressions=compressions) == expected


def _cli_table(name: str) -> str | None:
    args = argparse.Namespace(input_format=None, files=[name], out=None)
    return cli._table_format(args)


def test_every_reader_takes_its_formats_from_the_table() -> None:
    names = ["a.parquet", "a.pq", "a.csv", "a.CSV.gz", "a.csv.zst", "a.jsonl", "a.ndjson"]
    names += ["a.json", "a.cdxj", "a.cdxj.gz", "a.warc.gz", "a.txt", "a", "a.parquet.gz"]
    cli_tables = {n: _cli_table(n) for n in names}
    assert {n for n, f in cli_tables.items() if f == "parquet"} == {
        "a.parquet",
        "a.pq",
        "a.parquet.gz",
    }
    assert {n for n, f in cli_tables.items() if f == "csv"} == {"a.csv", "a.CSV.gz", "a.csv.zst"}
    archives = {n: archive_format(n) for n in names}
    assert {n: f for n, f in archives.items() if f} == {
        "a.cdxj": "cdxj",
        "a.cdxj.gz": "cdxj",
        "a.warc.gz": "warc",
    }
    logs = {n: input_format(n) for n in names}
    assert {n for n, f in logs.items() if f == "parquet"} == {"a.parquet", "a.pq", "a.parquet.gz"}
    assert {n for n, f in logs.items() if f == "csv"} == {"a.csv", "a.CSV.gz", "a.csv.zst"}
    assert all(logs[n] == (cli_tables[n] or "text") for n in names)
    plans = {}
    for name in names:
        try:
            plans[name] = plan_format(name)
        except ConfigError as exc:
            assert str(exc) == f"{name}: a plan must end in .parquet or .jsonl"
    assert plans == {
        "a.parquet": "parquet",
        "a.pq": "parquet",
        "a.jsonl": "jsonl",
        "a.ndjson": "jsonl",
    }


def test_the_engines_take_their_formats_from_the_table() -> None:
    duckdb = pytest.importorskip("samepage.duckdb")
    spark = pytest.importorskip("samepage.spark")
    assert [
        duckdb.output_format(n) for n in ("k.parquet", "k.PQ", "k.csv", "k.jsonl", "k.ndjson")
    ] == [
        "parquet",
        "parquet",
        "csv",
        "jsonl",
        "jsonl",
    ]
    for name in ("k.json", "k.csv.gz", "k"):
        with pytest.raises(
            ValueError, match=re.escape("output must end in .parquet, .csv, .jsonl or .ndjson")
        ):
            duckdb.output_format(name)
    inputs = ("in/", "in.csv/", "in.json", "in.jsonl", "in.ndjson", "in.csv.gz", "in.pq")
    assert [spark._input_format(n) for n in inputs] == [
        "parquet",
        "csv",
        "json",
        "json",
        "json",
        "parquet",
        "parquet",
    ]
