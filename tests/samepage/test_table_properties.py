"""Property tests of table input: random Parquet and CSV columns through normalize, dedupe, plan.

Whatever the column holds (strings, raw bytes, numbers, nulls), ``samepage normalize`` keys
each value exactly as ``normalize_url`` keys it (bytes read as UTF-8, any other byte kept),
``dedupe`` groups every value that has a key and nothing else, and the learner's plan of the
file is the plan ``crawl --urls`` makes of the same values; no command shows a traceback.
"""

from __future__ import annotations

import csv
import io
import json
import tempfile
from collections import Counter
from contextlib import redirect_stderr
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from samepage import InvalidURL, escape_undecodable, normalize_url
from samepage.cli import main
from tests.plugins.engines import engine
from tests.plugins.properties import examples

_PIECES = [
    b"https://a.example/",
    b"http://A.example:8080/p/?utm_source=x&id=1",
    b"https://a.example/p?id=2&q=",
    b"https://fa\xc3\x9f.de/?q=",
    b"https://\xe2\x99\xa5.example/",
    b"http://[::1",
    b"\xff",
    b"\\xFF",
    b"xFF",
    b"\xed\xb3\x80",
    b"%",
    b"%zz",
    b"#",
    b"?",
    b"&",
    b"=",
    b" ",
    b"\t",
]
_BYTES = st.lists(st.one_of(st.binary(max_size=12), st.sampled_from(_PIECES)), max_size=6).map(
    b"".join
)
_INT64 = st.integers(-(2**63), 2**63 - 1)
_TEXT = _BYTES.map(lambda b: b.decode("utf-8", "replace"))
_COLUMNS = st.sampled_from(["string", "binary", "integer"]).flatmap(
    lambda kind: st.tuples(
        st.just(kind),
        st.lists(
            st.one_of(
                st.none(),
                _TEXT if kind == "string" else _BYTES if kind == "binary" else _INT64,
            ),
            min_size=1,
            max_size=25,
        ),
    )
)
_SETTINGS = settings(
    max_examples=examples(40), deadline=None, suppress_health_check=[HealthCheck.too_slow]
)


@pytest.fixture(scope="module", autouse=True)
def _engines() -> None:
    engine("duckdb")
    engine("pyarrow")


def _text(value: Any) -> str | None:
    """A column value as the normalizer reads it."""
    if value is None:
        return None
    if isinstance(value, bytes):
        return value.decode("utf-8", "surrogateescape")
    return str(value)


def _cell_key(value: Any) -> str | None:
    text = _text(value)
    if text is None:
        return None
    try:
        # As text keys carry it: a byte kept by surrogateescape (a non-http value comes back
        # as it is) is written as its percent-escape.
        return escape_undecodable(normalize_url(text))
    except InvalidURL:
        return None


def _parquet(folder: Path, kind: str, values: list[Any]) -> Path:
    import pyarrow as pa
    import pyarrow.parquet as pq

    types = {"string": pa.string(), "binary": pa.binary(), "integer": pa.int64()}
    path = folder / "in.parquet"
    pq.write_table(
        pa.table({"url": pa.array(values, types[kind]), "row": range(len(values))}), path
    )
    return path


def _csv(folder: Path, values: list[Any]) -> Path:
    # CSV has no null: an empty field is one (DuckDB's reading), so "" is written as null.
    path = folder / "in.csv"
    with open(path, "w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(["url", "row"])
        writer.writerows(["" if v is None else v, n] for n, v in enumerate(values))
    return path


def _csv_values(values: list[Any]) -> list[Any]:
    return [None if v is None or v == "" else str(v) for v in values]


def _run_on_files(*args: str) -> tuple[int, str]:
    err = io.StringIO()
    with redirect_stderr(err):
        status = main(list(args))
    assert "Traceback" not in err.getvalue()
    return status, err.getvalue()


def _check_normalize(source: Path, values: list[Any], folder: Path) -> None:
    import pyarrow.parquet as pq

    out = folder / "keyed.parquet"
    status, err = _run_on_files("normalize", str(source), "--out", str(out))
    expected = [_cell_key(v) for v in values]
    bad = sum(1 for v, k in zip(values, expected, strict=True) if v is not None and k is None)
    assert status == (1 if bad else 0), err
    table = pq.read_table(out)
    assert table.column("key").to_pylist() == expected
    assert table.column("row").to_pylist() == list(range(len(values)))


def _check_dedupe(source: Path, values: list[Any], folder: Path) -> None:
    out = folder / "groups.jsonl"
    status, err = _run_on_files("dedupe", str(source), "--out", str(out))
    keys = [_cell_key(v) for v in values]
    distinct_bad = {_text(v) for v, k in zip(values, keys, strict=True) if v is not None and not k}
    assert status == (1 if distinct_bad else 0), err
    groups = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert {g["key"]: g["count"] for g in groups} == Counter(k for k in keys if k is not None)
    shown = {escape_undecodable(t) for t in map(_text, values) if t is not None}
    assert all(set(g["urls"]) <= shown for g in groups)  # spellings as observed, escaped


def _check_plan(source: Path, values: list[Any]) -> None:
    from learner.plan.domains import PlanSettings, plan_urls
    from learner.plan.logs import plan_files
    from learner.plan.targets import parse_target

    plan_settings = PlanSettings(top_patterns=3, samples=2, seed=0)
    targets = [parse_target("a.example"), parse_target("http://a.example:8080")]
    observed = [escape_undecodable(t) for t in map(_text, values) if t is not None]
    got = {p.key: p for p in plan_files(targets, [str(source)], plan_settings)}
    assert got == {p.key: p for p in plan_urls(targets, observed, plan_settings)}


@pytest.mark.slow
@_SETTINGS
@given(_COLUMNS)
def test_parquet_columns_of_any_type_key_as_normalize_url(column: tuple[str, list[Any]]) -> None:
    kind, values = column
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        source = _parquet(folder, kind, values)
        _check_normalize(source, values, folder)
        _check_dedupe(source, values, folder)
        _check_plan(source, values)


@pytest.mark.slow  # each example writes and reads a CSV file through DuckDB
@_SETTINGS
@given(_COLUMNS.filter(lambda c: c[0] != "binary"))
def test_csv_columns_of_any_type_key_as_normalize_url(column: tuple[str, list[Any]]) -> None:
    _, values = column
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        source = _csv(folder, values)
        read = _csv_values(values)
        _check_normalize(source, read, folder)
        _check_dedupe(source, read, folder)
        _check_plan(source, read)
