"""samepage in Apache Spark: a key column through an Arrow UDF, and a dedupe job.

Needs ``pyspark`` and ``pyarrow`` (``pip install 'samepage[spark]'``) on the driver and the
executors; ``import samepage`` never imports this module. The learned set is read on the
driver and shipped with the function, so executors need no copy of the file; each Python
worker builds its normalizer once and keeps it for every batch and task it runs.

Run the job with ``spark-submit`` given this file's path (or ``python -m samepage.spark`` for
a local session)::

    spark-submit "$(python -c 'import samepage.spark as m; print(m.__file__)')" \
        dedupe s3://bucket/cc-index/ out/ --column url
"""

from __future__ import annotations

import argparse
import os
import sys
import uuid
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any, Literal

import pyarrow as pa
from pyspark.sql import Column, DataFrame, SparkSession, Window
from pyspark.sql import functions as F

from samepage._files import refuse_overwrite
from samepage.arrow import normalize_array, observed_text
from samepage.formats import file_format
from samepage.learned import load_learned
from samepage.normalizer import MIQPSNormalizer

__all__ = ["dedupe", "local_session", "main", "with_key"]

UdfKind = Literal["arrow", "pandas"]

# Normalizers built in this Python worker, by recipe token: one per recipe and process.
_BUILT: dict[str, MIQPSNormalizer] = {}
_BUILDS: Counter[str] = Counter()


class _Recipe:
    """What the workers need to build the normalizer: picklable options, read on the driver."""

    def __init__(self, options: dict[str, Any]) -> None:
        learned = options.get("learned")
        if learned is not None:
            options = {**options, "learned": load_learned(learned)}
        MIQPSNormalizer(**options)  # bad options fail here, on the driver
        self.options = options
        self.token = uuid.uuid4().hex


def _worker_normalizer(recipe: _Recipe) -> MIQPSNormalizer:
    """The normalizer of ``recipe`` in this process, built on first use.

    A module-level function, so that a pickled UDF finds this module's cache rather than a
    copy of it: Spark reuses its Python workers across tasks.
    """
    norm = _BUILT.get(recipe.token)
    if norm is None:
        norm = _BUILT[recipe.token] = MIQPSNormalizer(**recipe.options)
        _BUILDS[recipe.token] += 1
    return norm


def _default_kind() -> UdfKind:
    return "arrow" if hasattr(F, "arrow_udf") else "pandas"


def _key_udf(recipe: _Recipe, kind: UdfKind) -> Callable[[Column], Column]:
    """A Spark function from a string column to its keys (null where there is none)."""
    if kind == "arrow":
        # Spark 4.1+: pyarrow arrays in and out, no pandas in between.
        def arrow_keys(urls: pa.Array) -> pa.Array:
            return normalize_array(urls, _worker_normalizer(recipe))

        return F.arrow_udf(arrow_keys, "string")  # type: ignore[attr-defined,no-any-return]

    import pandas as pd
    from pyspark.sql.pandas.functions import pandas_udf

    def pandas_keys(urls: pd.Series) -> pd.Series:
        keys = normalize_array(pa.Array.from_pandas(urls), _worker_normalizer(recipe))
        return keys.to_pandas()

    # Spark reads the UDF kind from the type hints; pandas is imported here, not globally.
    pandas_keys.__annotations__ = {"urls": pd.Series, "return": pd.Series}

    return pandas_udf(pandas_keys, "string")  # type: ignore[call-overload,no-any-return]


def _observed_udf(kind: UdfKind) -> Callable[[Column], Column]:
    """A Spark function from a binary column to its text, bytes not UTF-8 percent-escaped."""
    if kind == "arrow":

        def arrow_text(urls: pa.Array) -> pa.Array:
            return observed_text(urls)

        return F.arrow_udf(arrow_text, "string")  # type: ignore[attr-defined,no-any-return]

    import pandas as pd
    from pyspark.sql.pandas.functions import pandas_udf

    def pandas_text(urls: pd.Series) -> pd.Series:
        return observed_text(pa.array(urls.tolist(), pa.binary())).to_pandas()

    pandas_text.__annotations__ = {"urls": pd.Series, "return": pd.Series}
    return pandas_udf(pandas_text, "string")  # type: ignore[call-overload,no-any-return]


def with_key(
    df: DataFrame, column: str = "url", output: str = "key", **normalizer_options: Any
) -> DataFrame:
    """``df`` with a column ``output`` holding the key of the URL in ``column``.

    The key is null where the URL is null or not a URL. A binary column (Parquet without the
    UTF8 annotation) is keyed as ``normalize_url`` keys the same bytes: UTF-8, any other byte
    kept as that byte. The options are those of
    :class:`~samepage.MIQPSNormalizer`; a ``learned`` path is read here, on the driver.

    Args:
        df: the input DataFrame.
        column: the string column holding the URLs.
        output: the name of the key column (replaced if it exists).
        normalizer_options: ``learned=``, ``extra_blocklist=``... as for the normalizer.

    Example::

        keyed = with_key(spark.read.parquet("cc-index/"), learned="learned.json")
        keyed.groupBy("key").count()
    """
    recipe = _Recipe(normalizer_options)
    return df.withColumn(output, _key_udf(recipe, _default_kind())(F.col(column)))


def dedupe(
    df: DataFrame, column: str = "url", *, sample: int = 5, **normalizer_options: Any
) -> DataFrame:
    """One row per key: ``key``, ``count`` (rows) and ``urls`` (up to ``sample`` spellings).

    The same result as ``samepage dedupe --out``: null URLs are skipped, values that are not
    URLs left out, the spellings are the alphabetically first distinct ones, largest groups
    first. Each distinct URL is normalised once. A binary column's spellings are grouped as
    bytes and shown as text, each byte that is not UTF-8 percent-escaped.

    Raises:
        ValueError: ``sample`` is below 1, or ``df`` has no column ``column``.
    """
    if sample < 1:
        raise ValueError(f"sample must be at least 1, not {sample}")
    types = dict(df.dtypes)
    if column not in types:
        raise ValueError(f"no column {column!r} in the input; its columns: {list(types)[:10]}")
    binary = types[column] == "binary"
    url = (F.col(column) if binary else F.col(column).cast("string")).alias("url")
    spellings = df.select(url).where(F.col("url").isNotNull()).groupBy("url").count()
    keyed = with_key(spellings.withColumnRenamed("count", "n"), "url", "key", **normalizer_options)
    shown = _observed_udf(_default_kind())(F.col("url")) if binary else F.col("url")
    rank = F.row_number().over(Window.partitionBy("key").orderBy("url"))
    ranked = keyed.where(F.col("key").isNotNull()).withColumn("rank", rank)
    ranked = ranked.withColumn("shown", shown)
    # Spellings in the order of the URLs themselves (bytes, for a binary column).
    picked = F.when(F.col("rank") <= sample, F.struct("rank", "shown"))
    urls = F.transform(F.sort_array(F.collect_list(picked)), lambda pick: pick["shown"])
    groups = ranked.groupBy("key").agg(F.sum("n").cast("long").alias("count"), urls.alias("urls"))
    return groups.orderBy(F.col("count").desc(), F.col("key"))


def local_session(cores: int = 2, **config: str) -> SparkSession:
    """A Spark session on this machine, for trying samepage out, tests and benchmarks.

    ``cores`` worker threads, no web UI, bound to 127.0.0.1, Python workers running this
    interpreter (the one with samepage installed), ``cores`` shuffle partitions, and any
    further ``config`` (``{"spark.driver.memory": "2g"}``). Logs errors only.
    """
    os.environ["PYSPARK_PYTHON"] = sys.executable
    builder = (
        SparkSession.builder.master(f"local[{cores}]")
        .appName("samepage")
        .config("spark.ui.enabled", "false")
        .config("spark.ui.showConsoleProgress", "false")
        .config("spark.driver.host", "127.0.0.1")
        .config("spark.driver.bindAddress", "127.0.0.1")
        .config("spark.sql.shuffle.partitions", str(cores))
        .config("spark.default.parallelism", str(cores))
    )
    for key, value in config.items():
        builder = builder.config(key, value)
    session = builder.getOrCreate()
    session.sparkContext.setLogLevel("ERROR")
    return session


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m samepage.spark",
        description="samepage jobs for Spark: run with spark-submit, or python -m for a "
        "local session.",
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    job = sub.add_parser("dedupe", help="write one row per key: key, count, urls")
    job.add_argument("input", metavar="INPUT", help="input path (file, folder or glob)")
    job.add_argument("output", metavar="OUTPUT", help="output folder")
    job.add_argument("--column", default="url", help="the column of URLs (default: %(default)s)")
    job.add_argument("--learned", metavar="PATH", help="learned-set JSON file (read here)")
    job.add_argument(
        "--learned-fallback",
        choices=("shared", "keep", "domain"),
        default="shared",
        help="for learned hosts, patterns missing from the file (default: %(default)s; "
        "see samepage --help)",
    )
    job.add_argument(
        "--input-format",
        choices=("parquet", "csv", "json"),
        help="default: by extension (.csv; .json, .jsonl, .ndjson), else parquet",
    )
    job.add_argument(
        "--output-format", choices=("parquet", "json"), default="parquet", help="%(default)s"
    )
    job.add_argument("--sample", type=int, default=5, help="spellings kept per key (5)")
    job.add_argument(
        "--overwrite",
        action="store_true",
        help="replace OUTPUT if it exists (an OUTPUT that is, holds or is inside INPUT is "
        "always refused)",
    )
    return parser


def _input_format(path: str) -> str:
    found = file_format(path.rstrip("/"))
    return "csv" if found == "csv" else "json" if found in ("json", "jsonl") else "parquet"


def main(argv: Sequence[str] | None = None) -> int:
    """Run a job in the active Spark session (one is created if there is none).

    Exit status 0, or 2 with one line on stderr: an output that would replace or be read as
    the input (checked before Spark starts), a bad option, a missing path or column, or a
    failed job (Spark's own error, its first line).
    """
    args = _parser().parse_args(argv)
    try:
        refuse_overwrite(os.fspath(args.output), [args.input], folders=True)
        _run(args)
    except Exception as exc:  # every failure is reported on one line
        print(f"samepage.spark: {_first_line(exc)}", file=sys.stderr)
        return 2
    return 0


def _run(args: argparse.Namespace) -> None:
    submitted = "PYSPARK_GATEWAY_PORT" in os.environ
    if not submitted:
        # Run with python -m, not spark-submit: this process starts a local Spark, whose
        # Python workers must be this interpreter, the one with samepage installed.
        os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    spark = SparkSession.builder.appName("samepage dedupe").getOrCreate()
    if not submitted:
        # A failed task logs Java stack traces; the error is reported on one line instead.
        spark.sparkContext.setLogLevel("OFF")
    fmt = args.input_format or _input_format(args.input)
    reader = spark.read.option("header", "true") if fmt == "csv" else spark.read
    groups = dedupe(
        reader.format(fmt).load(args.input),
        args.column,
        sample=args.sample,
        learned=args.learned,
        learned_fallback=args.learned_fallback,
    )
    writer = groups.write.mode("overwrite" if args.overwrite else "errorifexists")
    writer.format(args.output_format).save(os.fspath(args.output))


def _first_line(exc: BaseException) -> str:
    """What went wrong, on one line: a Java error's own message rather than py4j's wrapper."""
    java = getattr(exc, "java_exception", None)
    text = str(java) if java is not None else str(exc)
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    line = lines[0] if lines else type(exc).__name__
    return line if len(line) <= 400 else line[:400] + "..."


if __name__ == "__main__":
    # Run through the installed module, not this file's copy as __main__: the UDF must
    # reference samepage.spark, where each worker keeps its normalizer.
    from samepage.spark import main as _main

    sys.exit(_main())
