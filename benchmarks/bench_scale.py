"""Throughput of the batch paths side by side, and a large Parquet dedupe through the CLI.

One run, the same URLs for every path: the plain loop over ``normalize``, ``normalize_many``,
the Arrow path, DuckDB's ``samepage_key`` and a local Spark session. Each path gets a fresh
normalizer (cold caches for all). Then ``samepage dedupe`` on a Parquet file of
``--dedupe-rows`` rows, in a child process whose peak memory is read with ``getrusage``.

    python -m benchmarks.bench_scale --n 1000000 --dedupe-rows 10000000
"""

from __future__ import annotations

import argparse
import os
import platform
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from importlib.metadata import version
from pathlib import Path
from typing import Any

import duckdb
import pyarrow as pa
import pyarrow.parquet as pq

from benchmarks.corpus import generate
from samepage import MIQPSNormalizer
from samepage.arrow import normalize_array
from samepage.duckdb import register


def _corpus(n: int) -> pa.Table:
    """``n`` URLs in a table shaped like Common Crawl's columnar index."""
    urls = [item.url for item in generate(n, seed=11)]
    hosts = [url.split("/")[2].lower() if url.count("/") >= 2 else None for url in urls]
    return pa.table(
        {
            "url": urls,
            "url_host_name": hosts,
            "fetch_status": pa.array([200] * n, pa.int16()),
            "content_mime_type": ["text/html"] * n,
        }
    )


def _timed(run: Callable[[], int]) -> tuple[float, float, int]:
    """Wall seconds, CPU seconds of this process (every thread), rows."""
    start, cpu = time.perf_counter(), time.process_time()
    rows = run()
    return time.perf_counter() - start, time.process_time() - cpu, rows


def _loop(urls: list[str]) -> int:
    normalize = MIQPSNormalizer().normalize
    keys = [normalize(url) for url in urls]
    return len(keys)


def _many(urls: list[str]) -> int:
    return len(MIQPSNormalizer().normalize_many(urls))


def _arrow(array: pa.ChunkedArray) -> int:
    return len(normalize_array(array, MIQPSNormalizer()))


def _duckdb(table: pa.Table) -> int:
    con = duckdb.connect()
    register(con, MIQPSNormalizer())
    con.register("crawl", table)
    result = con.sql("SELECT samepage_key(url) AS key FROM crawl").to_arrow_table()
    return int(result.num_rows)


def _duckdb_group_by(path: Path) -> int:
    con = duckdb.connect()
    register(con, MIQPSNormalizer())
    query = f"SELECT samepage_key(url), count(*) FROM '{path}' GROUP BY 1"
    return len(con.sql(query).fetchall())


def _spark(spark: Any, path: Path) -> int:
    from samepage.spark import with_key

    df = spark.read.parquet(str(path))
    with_key(df).write.format("noop").mode("overwrite").save()
    return int(df.count())


def _dedupe_file(source: Path, target: Path, rows: int, copies: int) -> None:
    """``rows`` rows: each corpus URL, then copies of it with one more tracking parameter.

    Every copy is a distinct string (so every row goes through the normalizer) with the
    key of its original; a URL with a fragment is repeated as it is.
    """
    con = duckdb.connect()
    con.sql(f"""
        COPY (
            SELECT CASE WHEN j = 0 OR contains(url, '#') THEN url
                        ELSE url || CASE WHEN contains(url, '?') THEN '&' ELSE '?' END
                             || 'utm_source=copy' || j::VARCHAR END AS url,
                   url_host_name, fetch_status, content_mime_type
            FROM '{source}', range({copies}) AS r(j)
            LIMIT {rows}
        ) TO '{target}' (FORMAT parquet, ROW_GROUP_SIZE 122880)
    """)


def _peak_memory(command: list[str]) -> tuple[float, int, int]:
    """Run ``command`` in a child; its wall time, exit status and peak RSS in bytes."""
    probe = (
        "import resource, subprocess, sys\n"
        "status = subprocess.run(sys.argv[1:], stdout=sys.stderr).returncode\n"
        "print(status, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n"
    )
    start = time.perf_counter()
    out = subprocess.run(
        [sys.executable, "-c", probe, *command], capture_output=True, text=True, check=True
    )
    if out.stderr:
        print(out.stderr[-2000:], file=sys.stderr)
    status, kib = out.stdout.split()
    return time.perf_counter() - start, int(status), int(kib) * 1024


def _print_table(best: dict[str, float], best_cpu: dict[str, float], n: int, repeat: int) -> None:
    base = best["plain loop: [norm.normalize(u) for u in urls]"]
    base_cpu = best_cpu["plain loop: [norm.normalize(u) for u in urls]"]
    print(f"\n{n} URLs, best of {repeat}:\n")
    print(
        "| path | wall s | rows/s | µs/URL | wall vs plain loop "
        "| CPU s (this process) | CPU vs plain loop |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|")
    for name, seconds in best.items():
        cpu = best_cpu.get(name)
        cpu_cells = (
            f"{cpu:.2f} | {(cpu / base_cpu - 1) * 100:+.0f}%"
            if cpu is not None
            else "(JVM and workers) | -"
        )
        print(
            f"| {name} | {seconds:.2f} | {n / seconds:,.0f} | "
            f"{seconds / n * 1e6:.2f} | {(seconds / base - 1) * 100:+.0f}% | {cpu_cells} |"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--n", type=int, default=1_000_000, help="URLs for the throughput table")
    parser.add_argument("--repeat", type=int, default=1, help="rounds (best is reported)")
    parser.add_argument("--dedupe-rows", type=int, default=10_000_000, help="0: skip")
    parser.add_argument("--memory-limit", default="1.5GB", help="for the dedupe run")
    parser.add_argument("--no-throughput", action="store_true", help="only the dedupe run")
    parser.add_argument("--no-spark", action="store_true")
    args = parser.parse_args()

    print(
        f"Python {platform.python_version()}, {os.cpu_count()} CPUs; duckdb "
        f"{version('duckdb')}, pyarrow {version('pyarrow')}, pyspark "
        f"{version('pyspark') if not args.no_spark else '-'}",
        flush=True,
    )
    with tempfile.TemporaryDirectory(prefix="samepage-bench-") as tmp:
        folder = Path(tmp)
        start = time.perf_counter()
        table = _corpus(args.n)
        path = folder / "crawl.parquet"
        pq.write_table(table, path)
        urls = table.column("url").to_pylist()
        print(f"corpus: {args.n} URLs in {time.perf_counter() - start:.0f} s", flush=True)

        paths: dict[str, Callable[[], int]] = {
            "plain loop: [norm.normalize(u) for u in urls]": lambda: _loop(urls),
            "norm.normalize_many(urls)": lambda: _many(urls),
            "samepage.arrow.normalize_array": lambda: _arrow(table.column("url")),
            "DuckDB: SELECT samepage_key(url) (Arrow table in memory)": lambda: _duckdb(table),
            "DuckDB: ... GROUP BY 1 (from Parquet)": lambda: _duckdb_group_by(path),
        }
        best: dict[str, float] = {}
        best_cpu: dict[str, float] = {}
        for round_ in range(0 if args.no_throughput else args.repeat):
            names = list(paths)
            names = names[round_ % len(names) :] + names[: round_ % len(names)]
            for name in names:
                seconds, cpu, rows = _timed(paths[name])
                assert rows > 0
                best[name] = min(best.get(name, seconds), seconds)
                best_cpu[name] = min(best_cpu.get(name, cpu), cpu)
                print(f"  round {round_ + 1}: {name}: {seconds:.2f} s, CPU {cpu:.2f} s", flush=True)
        if not args.no_spark and not args.no_throughput:
            from samepage.spark import local_session

            spark = local_session(2, **{"spark.driver.memory": "2g"})
            _spark(spark, path)  # starts the Python workers; not timed
            name = "Spark local[2]: with_key(df) (from Parquet)"
            best[name] = min(_timed(lambda: _spark(spark, path))[0] for _ in range(args.repeat))
            spark.stop()

        if best:
            _print_table(best, best_cpu, args.n, args.repeat)

        if args.dedupe_rows:
            big = folder / "big.parquet"
            copies = -(-args.dedupe_rows // args.n)
            _dedupe_file(path, big, args.dedupe_rows, copies)
            out = folder / "groups.parquet"
            command = [sys.executable, "-m", "samepage", "dedupe", str(big), "--out", str(out)]
            if args.memory_limit:
                command += ["--memory-limit", args.memory_limit]
            seconds, status, peak = _peak_memory(command)
            counted = duckdb.sql(f"SELECT count(*) FROM '{out}'")
            groups = counted.fetchall()[0][0] if counted is not None else 0
            print(
                f"\nsamepage dedupe: {args.dedupe_rows:,} rows "
                f"({big.stat().st_size / 2**20:.0f} MiB Parquet) -> {groups:,} groups in "
                f"{seconds:.0f} s ({args.dedupe_rows / seconds:,.0f} rows/s), "
                f"peak RSS {peak / 2**30:.2f} GiB, exit status {status}, "
                f"--memory-limit {args.memory_limit or 'DuckDB default'}"
            )


if __name__ == "__main__":
    main()
