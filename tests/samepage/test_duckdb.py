"""samepage.duckdb: the samepage_key SQL function and the file jobs, on a real DuckDB."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from samepage import MIQPSNormalizer
from tests.plugins.engines import engine
from tests.samepage.engine_inputs import ALIASED, LEARNED, expected, urls


@pytest.fixture(scope="module")
def duckdb() -> Any:
    engine("pyarrow")
    return engine("duckdb")


def _table(duckdb: Any, folder: Path, values: Sequence[str | None]) -> Path:
    """A Parquet file of (row, url), shaped like a crawl index."""
    pa = engine("pyarrow")
    path = folder / "crawl.parquet"
    table = pa.table({"row": list(range(len(values))), "url": values})
    duckdb.connect().from_arrow(table).write_parquet(str(path))
    return path


@pytest.mark.parametrize("learned", [False, True])
def test_sql_function_matches_normalize_url(duckdb: Any, tmp_path: Path, learned: bool) -> None:
    from samepage.duckdb import register

    values = urls()
    path = _table(duckdb, tmp_path, values)
    con = duckdb.connect()
    register(con, MIQPSNormalizer(learned=LEARNED) if learned else None)
    rows = con.sql(f"SELECT samepage_key(url) FROM '{path}' ORDER BY row").fetchall()
    assert [key for (key,) in rows] == expected(values, learned)


def test_sql_groups_the_spellings_a_learned_alias_names(duckdb: Any, tmp_path: Path) -> None:
    from samepage.duckdb import register

    path = _table(duckdb, tmp_path, [*ALIASED, "https://wiki.example/w/index.php?title=U"])
    con = duckdb.connect()
    register(con, MIQPSNormalizer(learned=LEARNED))
    query = f"SELECT samepage_key(url), count(*) FROM '{path}' GROUP BY 1 ORDER BY 2 DESC, 1"
    assert con.sql(query).fetchall() == [
        ("https://wiki.example/wiki/T", 2),
        ("https://wiki.example/wiki/U", 1),
    ]


def test_group_by_query_of_the_readme(duckdb: Any, tmp_path: Path) -> None:
    from samepage.duckdb import register

    values = ["https://a.example/p?id=1&utm_source=x", "https://A.example/p/?id=1", None]
    path = _table(duckdb, tmp_path, values)
    con = duckdb.connect()
    register(con, name="key_of")
    query = f"SELECT key_of(url), count(*) FROM '{path}' GROUP BY 1 ORDER BY 2 DESC"
    assert con.sql(query).fetchall() == [("https://a.example/p?id=1", 2), (None, 1)]


def test_dedupe_file_normalizes_each_distinct_url_once(duckdb: Any, tmp_path: Path) -> None:
    from samepage.duckdb import dedupe_file

    values: list[str | None] = [
        "https://a.example/p?id=1&utm_source=" + str(i % 7) for i in range(700)
    ]
    values += ["https://a.example/p?id=2"] * 3 + ["nope", "nope", None]
    path = _table(duckdb, tmp_path, values)
    out = tmp_path / "groups.parquet"
    outcome = dedupe_file([str(path)], str(out), sample=2)
    rows = duckdb.sql(f"SELECT key, count, urls FROM '{out}'").fetchall()
    assert rows == [
        (
            "https://a.example/p?id=1",
            700,
            ["https://a.example/p?id=1&utm_source=0", "https://a.example/p?id=1&utm_source=1"],
        ),
        ("https://a.example/p?id=2", 3, ["https://a.example/p?id=2"]),
    ]
    # 7 + 1 distinct URLs and one distinct bad value: each went through the function once.
    assert (outcome.seen, outcome.invalid, outcome.examples) == (9, 1, ["nope"])


def test_normalize_file_keeps_columns_and_order(duckdb: Any, tmp_path: Path) -> None:
    from samepage.duckdb import normalize_file

    values = urls()
    path = _table(duckdb, tmp_path, values)
    out = tmp_path / "keyed.parquet"
    learned = MIQPSNormalizer(learned=LEARNED)
    outcome = normalize_file([str(path)], str(out), normalizer=learned, memory_limit="256MB")
    rows = duckdb.sql(f"SELECT * FROM '{out}'").fetchall()
    assert [r[0] for r in rows] == list(range(len(values)))
    assert [r[1] for r in rows] == values
    assert [r[2] for r in rows] == expected(values, True)
    assert outcome.seen == len(values)
    assert outcome.invalid == sum(v is not None for v in values) - sum(
        k is not None for k in expected(values, True)
    )
