"""The plan of URL logs of any size, read through DuckDB.

``python -m learner plan DOMAINS_FILE --urls LOG... --out PLAN`` reads observed-URL logs
(text, one URL a line; CSV; Parquet; globs allowed) through DuckDB, which streams files
larger than memory and spills its groupings to disk. DuckDB does everything whose size grows
with the log: it counts each distinct line once, keeps the lines of the listed domains,
groups them by pattern key (``samepage.pattern_key``, through a vectorized function), counts
the URLs of every domain and pattern and keeps, per pattern, at most
:data:`~learner.plan.sampling.MAX_GROUP_URLS` distinct URLs with their path templates. Python
gets each pattern's URL count per template, chooses the patterns with the function the
in-memory path uses (:func:`~learner.plan.coverage.choose_patterns`), and reads back the
URLs of the chosen ones, and each domain's distinct URLs kept for its alias study (at most
:data:`~learner.plan.sampling.MAX_ALIAS_URLS`, with or without parameters, chosen as a
pattern's URLs are). What reaches Python is bounded by domain: the same selection functions
as the in-memory path (:func:`~learner.plan.sampling.make_group`,
:func:`~learner.plan.sampling.alias_sample`, :meth:`~learner.plan.picks.Picker.first_picks`)
pick from those rows, so the plan of a log is the
plan ``crawl --urls`` makes of it, by construction.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any, Literal

from learner.errors import ConfigError
from learner.plan.coverage import Choice, PatternWeight, choose_patterns, studied_groups
from learner.plan.domains import Covering, DomainPlan, PlanSettings, observed_line
from learner.plan.log_lines import observed_text, text_log_reader
from learner.plan.sampling import (
    MAX_ALIAS_URLS,
    MAX_GROUP_URLS,
    alias_sample,
    make_group,
    template_of,
    url_parts,
)
from learner.plan.targets import Target
from samepage import MIQPSNormalizer
from samepage.formats import table_format

__all__ = ["LogFormat", "duckdb_errors", "input_format", "plan_files"]

LogFormat = Literal["text", "csv", "parquet"]
_TEXT_LINES = "text_log_lines"


def input_format(path: str) -> LogFormat:
    """The format of a URL log by its extension: Parquet, CSV, else text (one URL a line).

    Tables are named as samepage's table commands name them
    (:func:`samepage.formats.table_format`: DuckDB reads them, ``.gz`` and ``.zst`` included).
    """
    return table_format(path) or "text"


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
            ("template", pa.string()),
        ]
    )

    def parts(lines: Any) -> Any:
        rows: list[dict[str, Any]] = []
        for line in lines.to_pylist():
            url = observed_line(_observed(line))
            found = url_parts(url, norm) if url is not None else None
            if found is None:
                empty = dict.fromkeys(("pattern", "static", "shown", "template"))
                rows.append({"domains": [], **empty})
                continue
            pattern, static, shown = found
            rows.append(
                {
                    "domains": covering(static),
                    "pattern": pattern,
                    "static": static,
                    "shown": shown,
                    "template": template_of(static),
                }
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


_URLS = "plan_urls"
_PICKED = "plan_picked"
_ALIASED = "plan_aliased"
_DOMAINS = "plan_domains"
_CHOSEN = "plan_chosen"


def _picked_sql(source: str) -> list[str]:
    """Tables of every domain's counts and of the URLs each of its patterns keeps.

    The log is read once, into the distinct URLs of the listed domains (DuckDB spills them
    to disk past its memory limit). ``plan_picked`` holds, per domain and pattern, at most
    ``MAX_GROUP_URLS`` distinct URLs (the smallest MD5 digests of their statics, as
    :func:`~learner.plan.sampling.make_group` keeps them) with the pattern's count and each
    URL's path template: what the choice of patterns weighs, and what the chosen patterns'
    groups are made of. ``plan_aliased`` holds, per domain, at most ``MAX_ALIAS_URLS`` of its
    distinct statics, with or without parameters, each with its smallest shown URL (the choice
    of :func:`~learner.plan.sampling.alias_sample`): what its alias study mines.
    """
    return [
        f"""
        CREATE TEMP TABLE {_URLS} AS
        WITH spellings AS (
            SELECT line, count(*)::BIGINT AS n FROM ({source}) WHERE line IS NOT NULL GROUP BY 1
        ),
        keyed AS (SELECT plan_parts(line) AS p, n FROM spellings),
        flat AS (
            SELECT unnest(p.domains) AS domain, p.pattern AS pattern, p.static AS static,
                   p.shown AS shown, p.template AS template, n
            FROM keyed WHERE len(p.domains) > 0
        )
        SELECT domain, pattern, static, min(shown) AS shown, any_value(template) AS template,
               sum(n)::BIGINT AS n
        FROM flat GROUP BY domain, pattern, static
        """,
        f"""
        CREATE TEMP TABLE {_DOMAINS} AS
        SELECT domain, sum(n)::BIGINT AS urls,
               count(DISTINCT pattern) FILTER (WHERE pattern <> '') AS patterns_seen
        FROM {_URLS} GROUP BY 1
        """,
        f"""
        CREATE TEMP TABLE {_PICKED} AS
        SELECT * FROM (
            SELECT *, sum(n) OVER (PARTITION BY domain, pattern)::BIGINT AS count,
                   row_number() OVER (
                       PARTITION BY domain, pattern ORDER BY md5(static), static) AS pick
            FROM {_URLS} WHERE pattern <> ''
        ) WHERE pick <= {MAX_GROUP_URLS:d}
        """,
        f"""
        CREATE TEMP TABLE {_ALIASED} AS
        SELECT domain, static, min(shown) AS shown FROM {_URLS} GROUP BY domain, static
        QUALIFY row_number() OVER (PARTITION BY domain ORDER BY md5(static), static)
            <= {MAX_ALIAS_URLS + 1:d}
        """,
        f"DROP TABLE {_URLS}",
    ]


_WEIGHTS_SQL = f"""
    SELECT domain, pattern, any_value(count) AS count, template, count(*)::BIGINT AS n
    FROM {_PICKED} GROUP BY domain, pattern, template
    ORDER BY domain, pattern, template
"""

_PLAN_SQL = f"""
    SELECT d.domain, d.urls, d.patterns_seen, false AS aliased, c.pattern, c.rank, p.count,
           p.static, p.shown
    FROM {_DOMAINS} d LEFT JOIN {_CHOSEN} c USING (domain)
        LEFT JOIN {_PICKED} p ON p.domain = c.domain AND p.pattern = c.pattern
    UNION ALL
    SELECT a.domain, d.urls, d.patterns_seen, true, NULL, NULL, NULL, a.static, a.shown
    FROM {_ALIASED} a JOIN {_DOMAINS} d USING (domain)
    ORDER BY domain, aliased, rank, static
"""
"""A row per URL of each chosen pattern, then a row per alias URL, domain by domain."""


def _choices(batches: Iterable[Any], settings: PlanSettings) -> dict[str, Choice]:
    """Each domain's choice of patterns, from its patterns' URLs per template."""
    weights: dict[str, dict[str, tuple[int, dict[str, int]]]] = {}
    for batch in batches:
        for row in batch.to_pylist():
            found = weights.setdefault(row["domain"], {})
            found.setdefault(row["pattern"], (row["count"], {}))[1][row["template"]] = row["n"]
    return {
        domain: choose_patterns(
            (PatternWeight(p, count, templates) for p, (count, templates) in found.items()),
            cover=settings.cover,
            cap=settings.top_patterns,
            seed=settings.seed,
            domain=domain,
        )
        for domain, found in weights.items()
    }


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
        import pyarrow as pa

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
            "STRUCT(domains VARCHAR[], pattern VARCHAR, static VARCHAR, shown VARCHAR, "
            "template VARCHAR)",
            type="arrow",
            null_handling="special",
            side_effects=True,
        )
        source = _source_sql(sources, fmt, column, binary=binary)
        for statement in _picked_sql(source):
            job.con.execute(statement)
        choices = _choices(job.batches(_WEIGHTS_SQL), settings)
        chosen = pa.Table.from_pylist(
            [
                {"domain": d, "pattern": p, "rank": rank}
                for d, choice in choices.items()
                for rank, p in enumerate(choice.patterns, 1)
            ],
            schema=pa.schema(
                [("domain", pa.string()), ("pattern", pa.string()), ("rank", pa.int64())]
            ),
        )
        job.con.register(_CHOSEN, chosen)
        for plan in _domains(job.batches(_PLAN_SQL), choices, settings):
            found.add(plan.key)
            yield plan
    for key in sorted({t.key for t in targets} - found):
        yield DomainPlan(key, 0, 0, (), _choice(choices, key, settings), ())


def _column_type(job: Any, sources: Sequence[str], column: str) -> str:
    """The DuckDB type of a Parquet log's URL column (``BLOB`` without the UTF8 annotation)."""
    found: dict[str, str] = job.columns(sources, "parquet")
    if column not in found:
        names = ", ".join(repr(name) for name in list(found)[:10])
        raise ConfigError(f"--column: no column {column!r} in the logs; their columns: {names}")
    return found[column]


def _choice(choices: Mapping[str, Choice], key: str, settings: PlanSettings) -> Choice:
    """The choice of a domain; a domain without patterns has the choice of none."""
    found = choices.get(key)
    return found if found is not None else Choice(cover=settings.cover)


def _domains(
    batches: Iterable[Any], choices: Mapping[str, Choice], settings: PlanSettings
) -> Iterator[DomainPlan]:
    """Assemble one domain at a time from the query's rows (ordered by domain)."""
    current: dict[str, Any] | None = None
    for batch in batches:
        for row in batch.to_pylist():
            if current is None or current["domain"] != row["domain"]:
                if current is not None:
                    yield _assemble(current, _choice(choices, current["domain"], settings))
                current = {
                    "domain": row["domain"],
                    "urls": row["urls"],
                    "patterns_seen": row["patterns_seen"],
                    "patterns": {},
                    "aliased": [],
                }
            if row["aliased"]:
                current["aliased"].append((row["static"], row["shown"]))
            elif row["pattern"] is not None:
                entry = current["patterns"].setdefault(row["pattern"], (row["count"], []))
                entry[1].append((row["static"], row["shown"]))
    if current is not None:
        yield _assemble(current, _choice(choices, current["domain"], settings))


def _assemble(domain: dict[str, Any], choice: Choice) -> DomainPlan:
    groups = {p: make_group(p, count, pairs) for p, (count, pairs) in domain["patterns"].items()}
    return DomainPlan(
        domain["domain"],
        domain["urls"],
        domain["patterns_seen"],
        tuple(studied_groups(list(groups.values()), choice)),
        choice,
        alias_sample(domain["aliased"]),
    )


def duckdb_errors() -> tuple[type[Exception], ...]:
    """DuckDB's error class, to catch while a plan is read (none without DuckDB)."""
    try:
        import duckdb
    except ImportError:
        return ()
    return (duckdb.Error,)
