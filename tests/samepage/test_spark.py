"""samepage.spark on a local Spark session: the key column and the dedupe job."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any, Literal

import pytest

from tests.plugins.engines import engine
from tests.samepage.engine_inputs import LEARNED, expected, urls, write_learned

pytestmark = pytest.mark.spark


def _frame(spark: Any, values: list[str | None]) -> Any:
    rows = [(i, v) for i, v in enumerate(values)]
    return spark.createDataFrame(rows, "row long, url string").repartition(3)


@pytest.mark.parametrize("kind", ["arrow", "pandas"])
def test_key_column_matches_normalize_url(
    spark: Any, tmp_path: Path, kind: Literal["arrow", "pandas"]
) -> None:
    from pyspark.sql import functions as F

    from samepage import spark as engine_module

    values = urls()
    df = _frame(spark, values)
    plain = engine_module._key_udf(engine_module._Recipe({}), kind)
    learned = engine_module._key_udf(engine_module._Recipe({"learned": LEARNED}), kind)
    rows = (
        df.select("row", plain(F.col("url")).alias("plain"), learned(F.col("url")).alias("learned"))
        .orderBy("row")
        .collect()
    )
    assert [r.plain for r in rows] == expected(values, learned=False)
    assert [r.learned for r in rows] == expected(values, learned=True)


def test_with_key_reads_the_learned_file_once_on_the_driver(spark: Any, tmp_path: Path) -> None:
    from pyspark.sql import functions as F

    from samepage import spark as engine_module
    from samepage.spark import with_key

    values = urls()
    path = write_learned(tmp_path)
    keyed = with_key(_frame(spark, values), "url", "k", learned=str(path))
    path.unlink()  # the executors never needed it
    rows = keyed.orderBy("row").collect()
    assert [r.k for r in rows] == expected(values, learned=True)
    assert keyed.columns == ["row", "url", "k"]

    # Each Python worker built each normalizer once, however many batches and tasks it ran,
    # and kept it in the module (not in a copy that came with the pickled function).
    builds = F.udf(lambda _: max(engine_module._BUILDS.values(), default=0), "int")
    assert {r[0] for r in keyed.select(builds("url")).collect()} == {1}


def test_dedupe_job_matches_the_duckdb_cli(
    spark: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    duckdb = engine("duckdb")
    from samepage.spark import main

    source = tmp_path / "crawl.parquet"
    values = urls() + [u for u in urls() if u and u.startswith("https://shop")] * 3
    _frame(spark, values).write.parquet(str(source))
    learned = write_learned(tmp_path)
    out = tmp_path / "groups"
    argv = ["dedupe", str(source), str(out), "--column", "url", "--learned", str(learned)]
    assert main([*argv, "--sample", "2"]) == 0
    got = duckdb.sql(f"SELECT key, count, urls FROM '{out}/*.parquet'").fetchall()

    from samepage import MIQPSNormalizer
    from samepage.duckdb import dedupe_file

    reference = tmp_path / "reference.parquet"
    dedupe_file(
        [f"{source}/*.parquet"],
        str(reference),
        sample=2,
        normalizer=MIQPSNormalizer(learned=LEARNED),
    )
    want = duckdb.sql(f"SELECT key, count, urls FROM '{reference}'").fetchall()
    assert sorted(got) == sorted(want)
    # Two shop URLs with one key once the learned set drops sessionid, each 8 times.
    counts = {key: count for key, count, _ in want}
    assert len(want) > 100 and counts["https://shop.example/p?color=red&id=7"] == 16
    assert main([*argv, "--output-format", "json"]) == 2  # one line, no Java trace
    said = capsys.readouterr().err
    assert "already exists" in said and said.count("\n") == 1 and "Traceback" not in said
    assert main([*argv, "--output-format", "json", "--overwrite"]) == 0
    lines = [
        json.loads(line)
        for name in sorted(os.listdir(out))
        if name.endswith(".json")
        for line in (out / name).read_text("utf-8").splitlines()
    ]
    assert sorted((g["key"], g["count"]) for g in lines) == sorted((k, c) for k, c, _ in want)


def test_binary_column_is_keyed_as_its_bytes_as_duckdb_does(spark: Any, tmp_path: Path) -> None:
    # A cast to string would not key 0xFF as normalize_url keys the byte.
    duckdb = engine("duckdb")
    import pyarrow as pa
    import pyarrow.parquet as pq

    from samepage.duckdb import dedupe_file
    from samepage.spark import dedupe

    values = [
        b"https://a.example/\xff",
        b"https://a.example/xFF",
        b"https://a.example/%FF",
        b"https://a.example/caf\xc3\xa9?id=1&utm_source=x",
        b"not a url \xfe",
        None,
    ]
    source = tmp_path / "raw.parquet"
    pq.write_table(pa.table({"url": pa.array(values, pa.binary())}), source)
    got = dedupe(spark.read.parquet(str(source)), "url").collect()
    reference = tmp_path / "reference.parquet"
    dedupe_file([str(source)], str(reference))
    want = duckdb.sql(f"SELECT key, count, urls FROM '{reference}'").fetchall()
    assert sorted((r.key, r["count"], r.urls) for r in got) == sorted(want)
    assert ("https://a.example/%FF", 2, ["https://a.example/%FF", "https://a.example/%FF"]) in [
        (k, c, u) for k, c, u in want
    ]


def test_job_errors_are_one_line_and_outputs_never_replace_the_input(
    spark: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from samepage.spark import main

    source = tmp_path / "crawl"
    _frame(spark, ["https://a.example/"]).write.parquet(str(source))
    before = sorted(p.name for p in source.iterdir())
    for output in (source, source / "groups", tmp_path):
        assert main(["dedupe", str(source), str(output), "--overwrite"]) == 2
        said = capsys.readouterr().err
        assert "would overwrite or be read as the input" in said and said.count("\n") == 1
    assert sorted(p.name for p in source.iterdir()) == before
    assert main(["dedupe", str(source), str(tmp_path / "out"), "--column", "uri"]) == 2
    said = capsys.readouterr().err
    assert said.startswith("samepage.spark: ") and said.count("\n") == 1
    assert "uri" in said and "Traceback" not in said
    assert main(["dedupe", str(tmp_path / "missing"), str(tmp_path / "out2")]) == 2
    said = capsys.readouterr().err
    assert "missing" in said and said.count("\n") == 1 and "Traceback" not in said


def test_with_key_passes_keep_listed_and_refuses_a_public_suffix_on_the_driver(
    spark: Any,
) -> None:
    from samepage.spark import with_key

    values: list[str | None] = [
        "https://stats.example.org/x?utm_source=a",
        "https://a.example/x?utm_source=a",
    ]
    keyed = with_key(
        _frame(spark, values), "url", "k", keep_listed={"stats.example.org": ["utm_source"]}
    )
    assert [r.k for r in keyed.orderBy("row").collect()] == [
        "https://stats.example.org/x?utm_source=a",
        "https://a.example/x",
    ]
    with pytest.raises(ValueError, match="public suffix"):
        with_key(_frame(spark, values), "url", "k", keep_listed={"github.io": ["utm_source"]})
