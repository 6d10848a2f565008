"""The plan of URL logs of any size, read through DuckDB.

``python -m learner plan DOMAINS_FILE --urls LOG... --out PLAN`` reads observed-URL logs
(text, one URL a line; CSV; Parquet; globs allowed) through DuckDB, which streams files
larger than memory and spills its groupings to disk. DuckDB does everything whose size grows
with the log: it counts each distinct line once, keeps the lines of the listed domains,
groups them by pattern key (``samepage.pattern_key``, through a vectorized function), counts
the URLs of every domain and pattern, keeps the top ``K`` patterns of each domain and, per
pattern, at most :data:`~learner.plan.sampling.MAX_GROUP_URLS` distinct URLs. What reaches Python
is bounded by domain: the same selection functions as the in-memory path
(:func:`~learner.plan.sampling.make_group`, :func:`~learner.plan.sampling.top_patterns`,
:meth:`~learner.plan.picks.Picker.first_picks`) pick from those rows, so the plan of a log is the
plan ``crawl --urls`` makes of it, by construction.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from typing import Any, Literal

from learner.errors import ConfigError
from learner.plan.domains import Covering, DomainPlan, PlanSettings, observed_line
from learner.plan.log_lines import observed_text, text_log_reader
from learner.plan.sampling import MAX_GROUP_URLS, make_group, top_patterns, url_parts
from learner.plan.targets import Target
from samepage import MIQPSNormalizer
from samepage.formats import file_format

__all__ = ["LogFormat", "duckdb_errors", "input_format", "plan_files"]

LogFormat = Literal["text", "csv", "parquet"]
_TEXT_LINES = "text_log_lines"


def input_format(path: str) -> LogFormat:
    """The format of a URL log by its extension: Parquet, CSV, else text (one URL a line)."""
    found = file_format(path, compressions=(".gz",))
    return found if found == "parquet" or found == "csv" else "text"


def _observed(line: str | bytes | None) -> str | None:
    """A log line as ``crawl --urls`` reads it: UTF-8, other bytes percent-escaped (``%FF``)."""
    return observed_text(line) if isinstance(line, bytes) else line


def _parts_function(targets: Sequence[Target], norm: MIQPSNormalizer) -> Any:
    """The vectorized ``plan_parts`` of DuckDB: each line's domains, pattern and URLs.

    The lines of a text log (:mod:`learner.plan.log_lines`) and of a binary column come as bytes:
    they are decoded here as UTF-8, a byte that is not UTF-8 kept as observed,
    percent-escaped (``%FF``), as ``crawl --urls`` reads a text log.
    """
    import pyarrow as pa

    covering = Covering(targets)
    out_type = pa.struct(
        [
            ("domains", pa.list_(pa.string())),
            ("pattern", pa.string()),
            ("static", pa.string()),
            ("shown", pa.string()),
        ]
    )

    def parts(lines: Any) -> Any:
        rows: list[dict[str, Any]] = []
        for line in lines.to_pylist():
            url = observed_line(_observed(line))
            found = url_parts(url, norm) if url is not None else None
            if found is None:
                rows.append({"domains": [], "pattern": None, "static": None, "shown": None})
                continue
            pattern, static, shown = found
            rows.append(
                {"domains": covering(static), "pattern": pattern, "static": static, "shown": shown}
            )
        return pa.array(rows, type=out_type)

    return parts


def _source_sql(sources: Sequence[str], fmt: LogFormat, column: str, *, binary: bool) -> str:
    if fmt == "text":
        # One URL a line, every byte kept: read in Python and streamed (learner.plan.log_lines).
        return f"SELECT line FROM {_TEXT_LINES}"
    # Read as samepage's table commands read files (a CSV's URL column as text).
    from samepage.duckdb import quote_identifier, read_files_sql  # needs duckdb, as plans do

    line = quote_identifier(column)
    if fmt == "parquet" and not binary:
        line += "::VARCHAR"
    return f"SELECT {line} AS line FROM {read_files_sql(sources, fmt, column)}"


def _plan_sql(source: str, top: int) -> str:
    return f"""
        WITH spellings AS (
            SELECT line, count(*)::BIGINT AS n FROM ({source}) WHERE line IS NOT NULL GROUP BY 1
        ),
        keyed AS (SELECT plan_parts(line) AS p, n FROM spellings),
        flat AS (
            SELECT unnest(p.domains) AS domain, p.pattern AS pattern, p.static AS static,
                   p.shown AS shown, n
            FROM keyed WHERE len(p.domains) > 0
        ),
        distinct_urls AS (
            SELECT domain, pattern, static, min(shown) AS shown, sum(n)::BIGINT AS n
            FROM flat GROUP BY ALL
        ),
        domains AS (
            SELECT domain, sum(n)::BIGINT AS urls,
                   count(DISTINCT pattern) FILTER (WHERE pattern <> '') AS patterns_seen
            FROM distinct_urls GROUP BY 1
        ),
        patterns AS (
            SELECT domain, pattern, sum(n)::BIGINT AS count
            FROM distinct_urls WHERE pattern <> '' GROUP BY ALL
        ),
        top AS (
            SELECT * FROM (
                SELECT *, row_number() OVER (
                    PARTITION BY domain ORDER BY count DESC, pattern) AS rank
                FROM patterns
            ) WHERE rank <= {top:d}
        ),
        picked AS (
            SELECT * FROM (
                SELECT u.domain, u.pattern, u.static, u.shown, row_number() OVER (
                    PARTITION BY u.domain, u.pattern ORDER BY md5(u.static), u.static) AS pick
                FROM distinct_urls u SEMI JOIN top t
                    ON u.domain = t.domain AND u.pattern = t.pattern
            ) WHERE pick <= {MAX_GROUP_URLS:d}
        )
        SELECT d.domain, d.urls, d.patterns_seen, t.pattern, t.rank, t.count, p.static, p.shown
        FROM domains d LEFT JOIN top t USING (domain)
            LEFT JOIN picked p ON p.domain = t.domain AND p.pattern = t.pattern
        ORDER BY d.domain, t.rank, p.static
    """


def plan_files(
    targets: Sequence[Target],
    sources: Sequence[str],
    settings: PlanSettings,
    *,
    fmt: LogFormat | None = None,
    column: str = "url",
    memory_limit: str | None = None,
    normalizer: MIQPSNormalizer | None = None,
) -> Iterator[DomainPlan]:
    """The plan of URL logs of any size, read through DuckDB; domains in key order.

    Args:
        targets: the domains to plan.
        sources: log files; DuckDB globs (``logs/*.parquet``) are allowed.
        settings: patterns per domain, samples per parameter, seed.
        fmt: ``text`` (one URL a line), ``csv`` or ``parquet``; by default from the first
            source's extension (:func:`input_format`).
        column: the column that holds the URLs, for CSV and Parquet.
        memory_limit: DuckDB's memory limit (``"1GB"``); past it, DuckDB spills to disk.
        normalizer: the normalizer whose pattern key and blocklist are used.
    """
    try:
        from samepage.duckdb import Job
    except ImportError as exc:
        raise ConfigError(
            f"a plan is made with DuckDB: pip install 'samepage[duckdb]' ({exc})"
        ) from exc
    if not sources:
        raise ConfigError("no URL logs given")
    norm = normalizer or MIQPSNormalizer()
    fmt = fmt or input_format(sources[0])
    found: set[str] = set()
    with Job(memory_limit=memory_limit, ordered=False) as job:
        binary = fmt == "text" or (
            fmt == "parquet" and _column_type(job, sources, column) == "BLOB"
        )
        if fmt == "text":
            job.con.register(_TEXT_LINES, text_log_reader(sources))
        job.con.create_function(  # type: ignore[call-overload]  # stubs type options as enums
            "plan_parts",
            _parts_function(targets, norm),
            ["BLOB" if binary else "VARCHAR"],
            "STRUCT(domains VARCHAR[], pattern VARCHAR, static VARCHAR, shown VARCHAR)",
            type="arrow",
            null_handling="special",
            side_effects=True,
        )
        source = _source_sql(sources, fmt, column, binary=binary)
        query = _plan_sql(source, settings.top_patterns)
        for plan in _domains(job.batches(query), settings):
            found.add(plan.key)
            yield plan
    for key in sorted({t.key for t in targets} - found):
        yield DomainPlan(key, 0, 0, ())


def _column_type(job: Any, sources: Sequence[str], column: str) -> str:
    """The DuckDB type of a Parquet log's URL column (``BLOB`` without the UTF8 annotation)."""
    found: dict[str, str] = job.columns(sources, "parquet")
    if column not in found:
        names = ", ".join(repr(name) for name in list(found)[:10])
        raise ConfigError(f"--column: no column {column!r} in the logs; their columns: {names}")
    return found[column]


def _domains(batches: Iterable[Any], settings: PlanSettings) -> Iterator[DomainPlan]:
    """Assemble one domain at a time from the query's rows (ordered by domain)."""
    current: dict[str, Any] | None = None
    for batch in batches:
        for row in batch.to_pylist():
            if current is None or current["domain"] != row["domain"]:
                if current is not None:
                    yield _assemble(current, settings)
                current = {
                    "domain": row["domain"],
                    "urls": row["urls"],
                    "patterns_seen": row["patterns_seen"],
                    "patterns": {},
                }
            if row["pattern"] is not None:
                entry = current["patterns"].setdefault(row["pattern"], (row["count"], []))
                entry[1].append((row["static"], row["shown"]))
    if current is not None:
        yield _assemble(current, settings)


def _assemble(domain: dict[str, Any], settings: PlanSettings) -> DomainPlan:
    groups = {p: make_group(p, count, pairs) for p, (count, pairs) in domain["patterns"].items()}
    chosen = top_patterns(groups, settings.top_patterns)
    return DomainPlan(domain["domain"], domain["urls"], domain["patterns_seen"], tuple(chosen))


def duckdb_errors() -> tuple[type[Exception], ...]:
    """DuckDB's error class, to catch while a plan is read (none without DuckDB)."""
    try:
        import duckdb
    except ImportError:
        return ()
    return (duckdb.Error,)
