"""A plan's alias URLs: a bounded, deterministic sample of each domain's distinct URLs.

DuckDB chooses them (:mod:`learner.plan.logs`) as the in-memory plan does, URLs without
parameters included; a plan file carries them (Parquet and JSON Lines), refuses a row whose
alias URLs are not the domain's, and reads a plan file written before them as having none.
"""

from __future__ import annotations

import hashlib
import json
import random
import re
from pathlib import Path

import pytest

from learner.errors import ConfigError
from learner.plan.domains import PlanSettings, plan_urls
from learner.plan.files import plan_rows, read_plan, write_plan
from learner.plan.logs import plan_files
from learner.plan.sampling import MAX_ALIAS_URLS, alias_sample_partial
from learner.plan.targets import parse_target
from samepage import MIQPSNormalizer
from tests.plugins.engines import engine
from tests.site.alias_site import ALIAS_LOG, HOST

SETTINGS = PlanSettings(top_patterns=20, samples=4, seed=0)
WIKI = "wiki.test"
TARGETS = [parse_target(f"http://{WIKI}"), parse_target(f"http://{HOST}")]


@pytest.fixture(autouse=True)
def _duckdb() -> None:
    engine("duckdb")
    engine("pyarrow")


def _wiki_log() -> list[str]:
    """More distinct URLs than a plan keeps: titles spelled both ways, some twice or tracked."""
    lines = []
    for n in range(MAX_ALIAS_URLS):
        lines += [f"http://{WIKI}/wiki/T{n}", f"http://{WIKI}/w/index.php?title=T{n}"]
        if n % 7 == 0:  # the same static twice: one URL
            lines += [f"http://{WIKI}/wiki/T{n}", f"http://{WIKI}/wiki/T{n}?utm_source=mail"]
    return lines


def _smallest_digests(lines: list[str]) -> set[str]:
    """The statics with the smallest MD5 digests, computed here without the learner."""
    norm = MIQPSNormalizer()
    statics = {norm.static_url(line) for line in lines}
    ranked = sorted(statics, key=lambda s: (hashlib.md5(s.encode()).hexdigest(), s))
    return set(ranked[: MAX_ALIAS_URLS + 1])


def test_duckdb_keeps_a_bounded_deterministic_sample_with_and_without_parameters(
    tmp_path: Path,
) -> None:
    lines = _wiki_log() + list(ALIAS_LOG)
    shuffled = random.Random(3).sample(lines, len(lines))
    (tmp_path / "a.txt").write_text("\n".join(lines) + "\n")
    (tmp_path / "b.txt").write_text("\n".join(shuffled) + "\n")
    planned = list(plan_files(TARGETS, [str(tmp_path / "a.txt")], SETTINGS))
    assert planned == list(plan_files(TARGETS, [str(tmp_path / "b.txt")], SETTINGS))
    assert planned == plan_urls(TARGETS, shuffled, SETTINGS)
    by_key = {p.key: p for p in planned}
    wiki = by_key[WIKI].alias_urls
    # One more than the bound: the domain has more, and the plan's list is a sample.
    assert wiki is not None and len(wiki) == MAX_ALIAS_URLS + 1 == len(set(wiki))
    assert alias_sample_partial(wiki) and not alias_sample_partial(by_key[HOST].alias_urls or ())
    assert set(wiki) == _smallest_digests(lines[: len(_wiki_log())])
    assert any("?" not in url for url in wiki) and any("?title=" in url for url in wiki)
    assert not any("utm_source" in url for url in wiki)  # the static's smallest spelling
    # Within the bound, every distinct URL of the domain, both spellings of each value.
    spell = by_key[HOST].alias_urls
    assert spell is not None and set(spell) == set(ALIAS_LOG)
    assert {f"http://{HOST}/wiki/Mill", f"http://{HOST}/index.php?title=Mill"} <= set(spell)


@pytest.mark.parametrize("name", ["plan.parquet", "plan.jsonl"])
def test_alias_urls_read_back_and_a_plan_file_without_them_reads_as_having_none(
    tmp_path: Path, name: str
) -> None:
    import pyarrow.parquet as pq

    plans = plan_urls(TARGETS, ALIAS_LOG, SETTINGS)
    out = tmp_path / name
    write_plan(plans, str(out), SETTINGS)
    _, read = read_plan(str(out))
    assert read == {p.key: p for p in plans}
    assert set(read[HOST].alias_urls or ()) == set(ALIAS_LOG)
    if name.endswith(".jsonl"):  # a plan file written before plans kept alias URLs
        rows = [json.loads(line) for line in out.read_text().splitlines()]
        for row in rows:
            del row["alias_urls"]
        out.write_text("".join(json.dumps(row) + "\n" for row in rows))
    else:
        pq.write_table(pq.read_table(out).drop_columns(["alias_urls"]), out)
    _, old = read_plan(str(out))
    assert old[HOST].alias_urls is None
    assert old[HOST].groups == read[HOST].groups


@pytest.mark.parametrize(
    "url, message",
    [
        ("http://other.test/wiki/Mill", "is not a URL of the domain"),
        ("not a url", "is not a URL of the domain"),
        (f"http://{HOST}/wiki/Mill?utm_source=x", "is a second URL of one static form"),
    ],
)
def test_a_plan_whose_alias_urls_are_not_the_domains_is_refused(
    tmp_path: Path, url: str, message: str
) -> None:
    (plan,) = plan_urls(TARGETS[1:], ALIAS_LOG, SETTINGS)
    rows = plan_rows(plan, SETTINGS)
    rows[0]["alias_urls"].append(url)
    out = tmp_path / "plan.jsonl"
    out.write_text("".join(json.dumps(row) + "\n" for row in rows))
    with pytest.raises(ConfigError, match=re.escape(f"domain {HOST}: alias URL {url!r} {message}")):
        read_plan(str(out))
