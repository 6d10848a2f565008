"""Plans: the patterns and sample URLs of each domain, read from URL logs of any size.

``python -m learner plan DOMAINS_FILE --urls LOG... --out PLAN`` reads observed-URL logs
(text, one URL a line; CSV; Parquet; globs allowed) through DuckDB, which streams files
larger than memory and spills its groupings to disk. DuckDB does everything whose size grows
with the log: it counts each distinct line once, keeps the lines of the listed domains,
groups them by pattern key (``samepage.pattern_key``, through a vectorized function), counts
the URLs of every domain and pattern, keeps the top ``K`` patterns of each domain and, per
pattern, at most :data:`~learner.sampling.MAX_GROUP_URLS` distinct URLs. What reaches Python
is bounded by domain: the same selection functions as the in-memory path
(:func:`~learner.sampling.make_group`, :func:`~learner.sampling.top_patterns`,
:func:`~learner.sampling.choose_samples`) pick from those rows, so the plan of a log is the
plan ``crawl --urls`` makes of it, by construction.

A plan file has one row per domain and pattern, most frequent pattern first (a domain
without any pattern has one row with a null pattern):

==================  =====================================================================
``domain``          the learned-set key of the domain (as in the domains file)
``domain_urls``     observed URLs of the domain, duplicates included
``patterns_seen``   distinct patterns of the domain
``pattern``         the pattern key
``rank``            1 for the most frequent pattern of the domain
``count``           observed URLs with this pattern, duplicates included
``urls``            the pattern's distinct URLs as rendered (at most ``MAX_GROUP_URLS``)
``statics``         the same URLs with the blocklist applied, one for one
``samples``         ``[{name, urls}]``: the sample URLs of each parameter
``top_patterns``,   the settings the plan was made with (``crawl --plan`` adopts them)
``samples_per_param``, ``seed``
==================  =====================================================================
"""

from __future__ import annotations

import json
import logging
import os
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import PurePath
from typing import Any, Literal
from urllib.parse import urlsplit

from learner.errors import ConfigError
from learner.sampling import (
    MAX_GROUP_URLS,
    PatternGroup,
    choose_samples,
    group_by_pattern,
    make_group,
    sample_seed,
    top_patterns,
    url_parts,
)
from learner.targets import Target
from samepage import MIQPSNormalizer
from samepage._hosts import host_suffixes

logger = logging.getLogger(__name__)

__all__ = [
    "DomainPlan",
    "LogFormat",
    "PlanSettings",
    "duckdb_errors",
    "input_format",
    "plan_files",
    "plan_format",
    "plan_rows",
    "plan_urls",
    "read_plan",
    "write_plan",
]

LogFormat = Literal["text", "csv", "parquet"]
PlanFormat = Literal["parquet", "jsonl"]


@dataclass(frozen=True, slots=True)
class PlanSettings:
    """The method settings a plan is made with: patterns per domain, samples, seed."""

    top_patterns: int
    samples: int
    seed: int


@dataclass(frozen=True, slots=True)
class DomainPlan:
    """What a crawl studies on one domain.

    Attributes:
        key: the domain's learned-set key.
        urls: observed URLs of the domain, duplicates included.
        patterns_seen: distinct patterns among them.
        groups: the top patterns, most frequent first.
    """

    key: str
    urls: int
    patterns_seen: int
    groups: tuple[PatternGroup, ...]

    def samples(self, settings: PlanSettings) -> dict[str, dict[str, list[str]]]:
        """Pattern -> parameter -> sample URLs, as the crawl will choose them."""
        return {
            g.pattern: choose_samples(
                g, g.names, settings.samples, sample_seed(settings.seed, self.key, g.pattern)
            )
            for g in self.groups
        }


def input_format(path: str) -> LogFormat:
    """The format of a URL log by its extension: Parquet, CSV, else text (one URL a line)."""
    name = PurePath(path).name.lower()
    if name.endswith((".parquet", ".pq")):
        return "parquet"
    if name.endswith((".csv", ".csv.gz")):
        return "csv"
    return "text"


class _Covering:
    """Which targets cover a blocklist-normalised URL (``Target.covers``, by host lookup)."""

    def __init__(self, targets: Sequence[Target]) -> None:
        self._by_host: dict[tuple[str, str], list[str]] = {}
        for target in targets:
            self._by_host.setdefault((target.host, target.port), []).append(target.key)

    def __call__(self, static: str) -> list[str]:
        try:
            parts = urlsplit(static)
            host = parts.hostname or ""
            port = str(parts.port) if parts.port is not None else ""
        except ValueError:
            return []
        if ":" in host:  # urlsplit drops the brackets of an IPv6 literal
            host = f"[{host}]"
        keys: list[str] = []
        for suffix in host_suffixes(host):
            keys.extend(self._by_host.get((suffix, port), ()))
        return keys


def _observed(line: str | None) -> str | None:
    """A log line as the in-memory reader takes it: stripped; blank and ``#`` lines skipped."""
    if line is None or line.startswith("#"):
        return None
    return line.strip() or None


def plan_urls(
    targets: Sequence[Target],
    urls: Iterable[str],
    settings: PlanSettings,
    normalizer: MIQPSNormalizer | None = None,
) -> list[DomainPlan]:
    """The plan of an observed-URL list held in memory, as ``crawl --urls`` makes it.

    Domains in key order; a domain without URLs has an empty plan.
    """
    norm = normalizer or MIQPSNormalizer()
    covering = _Covering(targets)
    by_domain: dict[str, list[str]] = {t.key: [] for t in targets}
    for line in urls:
        url = _observed(line)
        if url is None:
            continue
        try:
            keys = covering(norm.static_url(url))
        except ValueError:
            continue
        for key in keys:
            by_domain[key].append(url)
    plans = []
    for key in sorted(by_domain):
        groups = group_by_pattern(by_domain[key], norm)
        chosen = top_patterns(groups, settings.top_patterns)
        plans.append(DomainPlan(key, len(by_domain[key]), len(groups), tuple(chosen)))
    return plans


def _parts_function(targets: Sequence[Target], norm: MIQPSNormalizer) -> Any:
    import pyarrow as pa

    covering = _Covering(targets)
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
            url = _observed(line)
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


def _source_sql(sources: Sequence[str], fmt: LogFormat, column: str) -> str:
    from samepage.duckdb import _ident, _literal

    paths = "[" + ", ".join(_literal(os.fspath(s)) for s in sources) + "]"
    if fmt == "parquet":
        return f"SELECT {_ident(column)}::VARCHAR AS line FROM read_parquet({paths})"
    if fmt == "csv":
        return f"SELECT {_ident(column)}::VARCHAR AS line FROM read_csv({paths}, header = true)"
    # One URL a line: a delimiter no log line holds, no quoting, every byte kept.
    return (
        f"SELECT line FROM read_csv({paths}, columns = {{'line': 'VARCHAR'}}, delim = '\\x01', "
        "quote = '', escape = '', header = false, auto_detect = false)"
    )


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
        job.con.create_function(  # type: ignore[call-overload]  # stubs type options as enums
            "plan_parts",
            _parts_function(targets, norm),
            ["VARCHAR"],
            "STRUCT(domains VARCHAR[], pattern VARCHAR, static VARCHAR, shown VARCHAR)",
            type="arrow",
            null_handling="special",
            side_effects=True,
        )
        query = _plan_sql(_source_sql(sources, fmt, column), settings.top_patterns)
        for plan in _domains(job.batches(query), settings):
            found.add(plan.key)
            yield plan
    for key in sorted({t.key for t in targets} - found):
        yield DomainPlan(key, 0, 0, ())


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


def plan_format(path: str) -> PlanFormat:
    """The format of a plan file by its extension: ``.parquet`` or ``.jsonl``."""
    suffix = PurePath(path).suffix.lower()
    if suffix in (".parquet", ".pq"):
        return "parquet"
    if suffix in (".jsonl", ".ndjson"):
        return "jsonl"
    raise ConfigError(f"{path}: a plan must end in .parquet or .jsonl")


def plan_rows(plan: DomainPlan, settings: PlanSettings) -> list[dict[str, Any]]:
    """The rows of one domain in a plan file."""
    common = {
        "domain": plan.key,
        "domain_urls": plan.urls,
        "patterns_seen": plan.patterns_seen,
        "top_patterns": settings.top_patterns,
        "samples_per_param": settings.samples,
        "seed": settings.seed,
    }
    if not plan.groups:
        return [
            {
                **common,
                "pattern": None,
                "rank": 0,
                "count": 0,
                "urls": [],
                "statics": [],
                "samples": [],
            }
        ]
    samples = plan.samples(settings)
    return [
        {
            **common,
            "pattern": group.pattern,
            "rank": rank,
            "count": group.count,
            "urls": list(group.urls),
            "statics": list(group.statics),
            "samples": [{"name": n, "urls": u} for n, u in samples[group.pattern].items()],
        }
        for rank, group in enumerate(plan.groups, 1)
    ]


def write_plan(plans: Iterable[DomainPlan], out: str, settings: PlanSettings) -> int:
    """Write a plan file (Parquet or JSON Lines, by extension), streamed; the domains written.

    The file is written under a temporary name and renamed into place.
    """
    fmt = plan_format(out)
    temp = f"{out}.tmp-{os.getpid()}"
    count = 0
    try:
        if fmt == "jsonl":
            with open(temp, "w", encoding="utf-8") as handle:
                for plan in plans:
                    count += 1
                    for row in plan_rows(plan, settings):
                        handle.write(json.dumps(row, sort_keys=True, ensure_ascii=False) + "\n")
        else:
            count = _write_parquet(plans, temp, settings)
        os.replace(temp, out)
    except BaseException:
        if os.path.exists(temp):
            os.unlink(temp)
        raise
    return count


def _write_parquet(plans: Iterable[DomainPlan], path: str, settings: PlanSettings) -> int:
    import pyarrow as pa
    import pyarrow.parquet as pq

    strings = pa.list_(pa.string())
    schema = pa.schema(
        [
            ("domain", pa.string()),
            ("domain_urls", pa.int64()),
            ("patterns_seen", pa.int64()),
            ("pattern", pa.string()),
            ("rank", pa.int64()),
            ("count", pa.int64()),
            ("urls", strings),
            ("statics", strings),
            ("samples", pa.list_(pa.struct([("name", pa.string()), ("urls", strings)]))),
            ("top_patterns", pa.int64()),
            ("samples_per_param", pa.int64()),
            ("seed", pa.int64()),
        ]
    )
    count = 0
    with pq.ParquetWriter(path, schema) as writer:
        for plan in plans:
            count += 1
            writer.write_table(pa.Table.from_pylist(plan_rows(plan, settings), schema=schema))
    return count


def read_plan(path: str) -> tuple[PlanSettings, dict[str, DomainPlan]]:
    """Read a plan file: its settings and the plan of each domain, by key.

    Raises:
        ConfigError: the file cannot be read, is not a plan, or mixes settings.
    """
    fmt = plan_format(path)
    try:
        if fmt == "jsonl":
            with open(path, encoding="utf-8") as handle:
                rows = [json.loads(line) for line in handle if line.strip()]
        else:
            import pyarrow.parquet as pq

            rows = pq.read_table(path).to_pylist()
    except (OSError, ValueError) as exc:
        raise ConfigError(f"plan {path}: {exc}") from exc
    try:
        return _plans_of(rows)
    except (KeyError, TypeError, ValueError) as exc:
        raise ConfigError(f"plan {path}: not a plan file ({exc!r})") from exc


def _plans_of(rows: Sequence[Mapping[str, Any]]) -> tuple[PlanSettings, dict[str, DomainPlan]]:
    settings = {
        PlanSettings(int(r["top_patterns"]), int(r["samples_per_param"]), int(r["seed"]))
        for r in rows
    }
    if len(settings) != 1:
        raise ValueError("a plan needs one setting of top_patterns, samples and seed")
    groups: dict[str, list[tuple[int, PatternGroup]]] = {}
    heads: dict[str, tuple[int, int]] = {}
    for row in rows:
        key = str(row["domain"])
        heads[key] = (int(row["domain_urls"]), int(row["patterns_seen"]))
        found = groups.setdefault(key, [])
        if row["pattern"] is not None:
            group = PatternGroup(
                str(row["pattern"]),
                tuple(row["urls"]),
                int(row["count"]),
                tuple(row["statics"]),
            )
            found.append((int(row["rank"]), group))
    plans = {
        key: DomainPlan(key, *heads[key], tuple(g for _, g in sorted(found, key=lambda x: x[0])))
        for key, found in groups.items()
    }
    return settings.pop(), plans
