"""Plan files: a plan written as Parquet or JSON Lines, and read back by ``crawl --plan``.

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
``samples_per_param``, ``seed``, ``cover``
``coverage``        on a domain's first row, its choice of patterns as JSON text
                    (:meth:`learner.plan.coverage.Choice.to_json`, every pattern left
                    listed): the URLs covered, the patterns studied and the patterns left,
                    with their URL counts and why
``alias_urls``      on a domain's first row, the distinct URLs its alias study mines, with
                    or without parameters (:func:`learner.plan.sampling.alias_sample`: at
                    most ``MAX_ALIAS_URLS``, the smallest MD5 digests of their statics; one
                    more says the domain had more, and its study is skipped); a plan file
                    written before has none, and its domains' studies are skipped
==================  =====================================================================

A plan is checked when it is read, since a crawl trusts it: the integers must be integers
(not ``20.9`` or ``true``), and every URL must have the row's pattern key and static form
under the normalizer (``samepage.pattern_key``, ``MIQPSNormalizer.static_url``), so that
removing each parameter of the pattern changes the URL; every alias URL must be a URL of the
domain as the plan shows it (:func:`~learner.plan.sampling.url_parts`), once. A hand-edited
row that breaks this is refused, naming the domain (and the pattern) and the URL.
"""

from __future__ import annotations

import json
import os
import stat
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Literal

from learner.errors import ConfigError
from learner.plan.coverage import Choice
from learner.plan.domains import DomainPlan, PlanSettings
from learner.plan.sampling import MAX_ALIAS_URLS, PatternGroup, url_parts, without_param
from learner.plan.targets import Target
from samepage import MIQPSNormalizer
from samepage.files import atomic_file
from samepage.formats import file_format

__all__ = ["PlanFormat", "plan_format", "plan_rows", "read_plan", "write_plan"]

PlanFormat = Literal["parquet", "jsonl"]


def plan_format(path: str) -> PlanFormat:
    """The format of a plan file by its extension: ``.parquet`` or ``.jsonl``."""
    found = file_format(path)
    if found == "parquet" or found == "jsonl":
        return found
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
        "cover": settings.cover,
    }
    choice = plan.choice.to_json(shown=len(plan.choice.left))
    first = {
        "coverage": json.dumps(choice, sort_keys=True, ensure_ascii=False),
        "alias_urls": None if plan.alias_urls is None else list(plan.alias_urls),
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
                **first,
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
            **(first if rank == 1 else dict.fromkeys(first)),
        }
        for rank, group in enumerate(plan.groups, 1)
    ]


def write_plan(plans: Iterable[DomainPlan], out: str, settings: PlanSettings) -> int:
    """Write a plan file (Parquet or JSON Lines, by extension), streamed; the domains written.

    The file is written through :func:`samepage.files.atomic_file`: under a temporary name renamed
    into place, with the mode of the file it replaces; a temporary file left by a killed run
    is removed.
    """
    fmt = plan_format(out)
    count = 0
    with atomic_file(out) as temp:
        if fmt == "jsonl":
            with open(temp, "w", encoding="utf-8") as handle:
                for plan in plans:
                    count += 1
                    for row in plan_rows(plan, settings):
                        handle.write(json.dumps(row, sort_keys=True, ensure_ascii=False) + "\n")
        else:
            count = _write_parquet(plans, os.fspath(temp), settings)
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
            ("cover", pa.float64()),
            ("coverage", pa.string()),
            ("alias_urls", strings),
        ]
    )
    count = 0
    with pq.ParquetWriter(path, schema) as writer:
        for plan in plans:
            count += 1
            writer.write_table(pa.Table.from_pylist(plan_rows(plan, settings), schema=schema))
    return count


def read_plan(
    path: str, normalizer: MIQPSNormalizer | None = None
) -> tuple[PlanSettings, dict[str, DomainPlan]]:
    """Read a plan file: its settings and the plan of each domain, by key.

    Raises:
        ConfigError: the file cannot be read, is not a regular file, is not a plan, mixes
            settings, or has a URL that does not match its pattern (see the module).
    """
    fmt = plan_format(path)
    try:
        regular = stat.S_ISREG(os.stat(path).st_mode)
    except OSError as exc:
        raise ConfigError(f"plan {path}: {exc}") from exc
    if not regular:  # a FIFO would block, /dev/zero never end
        raise ConfigError(f"plan {path}: not a regular file")
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
        return _plans_of(rows, normalizer or MIQPSNormalizer())
    except _MismatchedPlan as exc:
        raise ConfigError(f"plan {path}: {exc}") from None
    except (KeyError, TypeError, ValueError) as exc:
        raise ConfigError(f"plan {path}: not a plan file ({exc!r})") from exc


class _MismatchedPlan(ValueError):
    """A row whose URLs do not hold its pattern: the crawl would prove nothing with them."""


def _integer(row: Mapping[str, Any], name: str) -> int:
    value = row[name]
    if type(value) is not int:  # bool is an int subclass, 20.9 a float: both refused
        raise TypeError(f"{name} must be an integer, not {value!r}")
    return value


def _share(row: Mapping[str, Any]) -> float:
    value = row["cover"]
    if type(value) not in (int, float) or not 0.0 < value <= 1.0:
        raise TypeError(f"cover must be a number in (0, 1], not {value!r}")
    return float(value)


def _strings(row: Mapping[str, Any], name: str) -> tuple[str, ...]:
    values = row[name]
    if not isinstance(values, list) or not all(isinstance(v, str) for v in values):
        raise TypeError(f"{name} must be a list of strings")
    return tuple(values)


def _checked_group(key: str, row: Mapping[str, Any], norm: MIQPSNormalizer) -> PatternGroup:
    pattern = row["pattern"]
    if not isinstance(pattern, str) or not pattern:
        raise TypeError(f"pattern must be a non-empty string, not {pattern!r}")
    group = PatternGroup(
        pattern, _strings(row, "urls"), _integer(row, "count"), _strings(row, "statics")
    )
    for url, static in zip(group.urls, group.statics, strict=True):
        found = url_parts(url, norm)
        if found != (pattern, static, url):
            got = "not a URL" if found is None else f"pattern {found[0]!r}, static {found[1]!r}"
            raise _MismatchedPlan(
                f"domain {key}, pattern {pattern!r}: URL {url!r} does not match its row "
                f"({got}); make the plan again with `python -m learner plan`"
            )
        for name in group.names:
            if without_param(url, name) == url:
                raise _MismatchedPlan(
                    f"domain {key}, pattern {pattern!r}: removing {name!r} from {url!r} "
                    "leaves it unchanged"
                )
    return group


def _checked_alias_urls(key: str, urls: tuple[str, ...], norm: MIQPSNormalizer) -> None:
    """Refuse an alias URL that is not the domain's, as the plan shows it, or comes twice."""
    site = _key_target(key)
    if len(urls) > MAX_ALIAS_URLS + 1:
        raise _MismatchedPlan(
            f"domain {key}: {len(urls)} alias URLs, more than a plan keeps "
            f"({MAX_ALIAS_URLS + 1}); make the plan again with `python -m learner plan`"
        )
    statics: set[str] = set()
    for url in urls:
        found = url_parts(url, norm)
        if found is None or found[2] != url or not site.covers(found[1]):
            why = "not a URL of the domain as the plan shows it"
        elif found[1] in statics:
            why = "a second URL of one static form"
        else:
            statics.add(found[1])
            continue
        raise _MismatchedPlan(
            f"domain {key}: alias URL {url!r} is {why}; make the plan again with "
            "`python -m learner plan`"
        )


def _key_target(key: str) -> Target:
    """The site of a learned-set key (``host`` or ``host:port``), to tell its URLs."""
    host, colon, port = key.rpartition(":")
    if not colon or not port.isdigit() or key.endswith("]"):
        host, port = key, ""
    return Target(key, "", host, port)


def _plans_of(
    rows: Sequence[Mapping[str, Any]], norm: MIQPSNormalizer
) -> tuple[PlanSettings, dict[str, DomainPlan]]:
    settings = {
        PlanSettings(
            _integer(r, "top_patterns"),
            _integer(r, "samples_per_param"),
            _integer(r, "seed"),
            _share(r),
        )
        for r in rows
    }
    if len(settings) != 1:
        raise ValueError("a plan needs one setting of top_patterns, samples, seed and cover")
    groups: dict[str, list[tuple[int, PatternGroup]]] = {}
    heads: dict[str, tuple[int, int]] = {}
    choices: dict[str, Choice] = {}
    aliased: dict[str, tuple[str, ...]] = {}
    for row in rows:
        key = row["domain"]
        if not isinstance(key, str):
            raise TypeError(f"domain must be a string, not {key!r}")
        heads[key] = (_integer(row, "domain_urls"), _integer(row, "patterns_seen"))
        if row["coverage"] is not None:
            choices[key] = Choice.from_json(json.loads(row["coverage"]))
            if row.get("alias_urls") is not None:  # none in a plan file written before
                aliased[key] = _strings(row, "alias_urls")
                _checked_alias_urls(key, aliased[key], norm)
        found = groups.setdefault(key, [])
        if row["pattern"] is not None:
            found.append((_integer(row, "rank"), _checked_group(key, row, norm)))
    for key, found in groups.items():
        if key not in choices:
            raise TypeError(f"domain {key}: no row holds its coverage")
        if choices[key].patterns != tuple(g.pattern for _, g in sorted(found, key=lambda x: x[0])):
            raise _MismatchedPlan(
                f"domain {key}: its rows are not the patterns its coverage studies; make the "
                "plan again with `python -m learner plan`"
            )
    plans = {
        key: DomainPlan(
            key,
            *heads[key],
            tuple(g for _, g in sorted(found, key=lambda x: x[0])),
            choices[key],
            aliased.get(key),
        )
        for key, found in groups.items()
    }
    return settings.pop(), plans
