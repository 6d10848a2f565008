"""Plans from URL logs: DuckDB's plan is the in-memory plan, for any input form and order."""

from __future__ import annotations

import dataclasses
import json
import os
import random
import re
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from benchmarks.bench_plan import domains, generate_log
from learner.cli import _read_urls, main
from learner.config import MAX_TOP_PATTERNS
from learner.errors import ConfigError
from learner.plan.coverage import Choice
from learner.plan.domains import DomainPlan, PlanSettings, plan_urls
from learner.plan.files import plan_rows, read_plan, write_plan
from learner.plan.logs import plan_files
from learner.plan.sampling import MAX_GROUP_URLS, group_by_pattern, without_param
from learner.plan.targets import parse_target
from samepage import MIQPSNormalizer
from tests.plugins.engines import engine
from tests.plugins.properties import examples
from tests.site.fixture import FIXTURE_HOSTS, observed_urls

SETTINGS = PlanSettings(top_patterns=MAX_TOP_PATTERNS, samples=4, seed=0)
FIXTURE_TARGETS = [parse_target(f"http://{host}") for host in FIXTURE_HOSTS]


@pytest.fixture(autouse=True)
def _duckdb() -> None:
    engine("duckdb")
    engine("pyarrow")


def _by_key(plans: list[DomainPlan]) -> dict[str, DomainPlan]:
    return {p.key: p for p in plans}


def test_fixture_log_as_text_csv_and_parquet_plans_as_in_memory(tmp_path: Path) -> None:
    import pyarrow as pa
    import pyarrow.parquet as pq

    urls = observed_urls()
    expected = plan_urls(FIXTURE_TARGETS, urls, SETTINGS)
    assert [p.key for p in expected] == sorted(FIXTURE_HOSTS)
    assert all(p.groups for p in expected)
    text = tmp_path / "urls.txt"
    text.write_text("# a comment\n\n" + "\n".join(f"  {u} " for u in urls) + "\n")
    pq.write_table(pa.table({"u": urls}), tmp_path / "urls.parquet")
    (tmp_path / "urls.csv").write_text(
        "n,u\n" + "".join(f'{i},"{u}"\n' for i, u in enumerate(urls))
    )
    assert list(plan_files(FIXTURE_TARGETS, [str(text)], SETTINGS)) == expected
    for name in ("urls.parquet", "urls.csv"):
        got = plan_files(FIXTURE_TARGETS, [str(tmp_path / name)], SETTINGS, column="u")
        assert list(got) == expected, name


def test_compressed_csv_logs_plan_as_the_plain_one(tmp_path: Path) -> None:
    import duckdb

    urls = observed_urls()
    plain = tmp_path / "urls.csv"
    plain.write_text("n,u\n" + "".join(f'{i},"{u}"\n' for i, u in enumerate(urls)))
    expected = list(plan_files(FIXTURE_TARGETS, [str(plain)], SETTINGS, column="u"))
    assert expected == plan_urls(FIXTURE_TARGETS, urls, SETTINGS)
    for name, codec in (("urls.csv.gz", "gzip"), ("urls.CSV.zst", "zstd")):
        packed = tmp_path / name
        duckdb.sql(
            f"COPY (SELECT * FROM read_csv('{plain}')) TO '{packed}' "
            f"(FORMAT csv, HEADER, COMPRESSION {codec})"
        )
        assert packed.read_bytes()[:2] != plain.read_bytes()[:2], name  # compressed
        got = plan_files(FIXTURE_TARGETS, [str(packed)], SETTINGS, column="u")
        assert list(got) == expected, name


def test_generated_log_plans_as_in_memory_in_any_order_and_sharding(tmp_path: Path) -> None:
    lines = list(generate_log(60_000, sites=40, seed=3))
    targets = [parse_target(k) for k in domains(40)[::3]]
    expected = plan_urls(targets, lines, SETTINGS)
    # The busiest patterns have more distinct URLs than a pattern keeps.
    assert max(len(g.urls) for p in expected for g in p.groups) == MAX_GROUP_URLS
    shuffled = lines[:]
    random.Random(1).shuffle(shuffled)
    for n, part in enumerate((shuffled[:25_000], shuffled[25_000:])):
        (tmp_path / f"log-{n}.txt").write_text("\n".join(part) + "\n")
    got = list(plan_files(targets, [str(tmp_path / "log-*.txt")], SETTINGS, memory_limit="200MB"))
    assert got == expected


def test_groups_do_not_depend_on_the_order_of_the_log() -> None:
    lines = list(generate_log(5_000, sites=3, seed=5))
    norm = MIQPSNormalizer()
    backwards = group_by_pattern(reversed(lines), norm)
    assert group_by_pattern(lines, norm) == backwards


def test_domains_missing_from_the_log_get_an_empty_plan(tmp_path: Path) -> None:
    log = tmp_path / "urls.txt"
    log.write_text("http://shop.test/item?id=1\nnot a url\n")
    targets = [parse_target("http://shop.test"), parse_target("nowhere.example")]
    plans = _by_key(list(plan_files(targets, [str(log)], SETTINGS)))
    empty = Choice(cover=SETTINGS.cover)
    assert plans["nowhere.example"] == DomainPlan("nowhere.example", 0, 0, (), empty, ())
    assert plans["shop.test"].urls == 1 and plans["shop.test"].patterns_seen == 1


@pytest.mark.parametrize("name", ["plan.parquet", "plan.jsonl"])
def test_plan_files_read_back_as_written(tmp_path: Path, name: str) -> None:
    plans = plan_urls(FIXTURE_TARGETS, observed_urls(), SETTINGS)
    out = tmp_path / name
    assert write_plan(plans, str(out), SETTINGS) == len(plans)
    settings, read = read_plan(str(out))
    assert settings == SETTINGS
    assert read == _by_key(plans)


@pytest.mark.parametrize("name", ["plan.parquet", "plan.jsonl"])
def test_a_rewritten_plan_keeps_its_mode_and_a_failed_write_keeps_the_old_plan(
    tmp_path: Path, name: str
) -> None:
    plans = plan_urls(FIXTURE_TARGETS, observed_urls(), SETTINGS)
    out = tmp_path / name
    write_plan(plans, str(out), SETTINGS)
    out.chmod(0o640)
    write_plan(plans, str(out), SETTINGS)
    assert out.stat().st_mode & 0o777 == 0o640
    before = out.read_bytes()

    def broken() -> Iterator[DomainPlan]:
        yield plans[0]
        raise RuntimeError("the log ended badly")

    with pytest.raises(RuntimeError, match="ended badly"):
        write_plan(broken(), str(out), SETTINGS)
    assert out.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == [name]


def test_plan_rows_carry_counts_and_the_crawls_samples() -> None:
    (news,) = plan_urls([parse_target("http://news.test")], observed_urls(), SETTINGS)
    rows = plan_rows(news, SETTINGS)
    assert [(r["pattern"], r["rank"], r["count"]) for r in rows] == [
        (g.pattern, n, g.count) for n, g in enumerate(news.groups, 1)
    ]
    first = rows[0]
    assert first["domain_urls"] == news.urls and first["patterns_seen"] == news.patterns_seen
    samples = {s["name"]: s["urls"] for s in first["samples"]}
    assert samples == news.samples(SETTINGS)[first["pattern"]]
    assert all(1 <= len(u) <= SETTINGS.samples for u in samples.values())


def test_plan_command_writes_what_the_crawl_reads(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    log = tmp_path / "urls.txt"
    log.write_text("\n".join(observed_urls()) + "\n")
    listed = tmp_path / "domains.txt"
    listed.write_text("http://shop.test\nhttp://news.test\n")
    out = tmp_path / "plan.jsonl"
    status = main(["plan", str(listed), "--urls", str(log), "--out", str(out), "--samples", "4"])
    assert status == 0
    assert "2 domains written" in capsys.readouterr().out
    settings, plans = read_plan(str(out))
    assert settings == SETTINGS
    targets = [parse_target("http://shop.test"), parse_target("http://news.test")]
    assert plans == _by_key(plan_urls(targets, observed_urls(), SETTINGS))
    assert {json.loads(line)["domain"] for line in out.read_text().splitlines()} == set(plans)


def test_crawl_refuses_options_that_contradict_the_plan(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "plan.jsonl"
    write_plan(plan_urls(FIXTURE_TARGETS[:1], [], SETTINGS), str(out), SETTINGS)
    listed = tmp_path / "domains.txt"
    listed.write_text("http://hostile.test\n")
    status = main(["crawl", str(listed), "--plan", str(out), "--samples", "8"])
    assert status == 2
    assert "--samples 8: the plan" in capsys.readouterr().err
    status = main(["crawl", str(listed), "--plan", str(out), "--urls", str(out)])
    assert status == 2
    assert "--urls and --plan" in capsys.readouterr().err


def test_the_single_process_learner_does_not_import_ray() -> None:
    code = (
        "import sys, learner.cli, learner.run.crawl, learner.plan.domains, learner.plan.files; "
        "sys.exit(any(m == 'ray' or m.startswith('ray.') for m in sys.modules))"
    )
    assert subprocess.run([sys.executable, "-c", code], check=False).returncode == 0


def test_a_text_log_keeps_bytes_as_observed_and_plans_as_in_memory(tmp_path: Path) -> None:
    # Bytes that are not UTF-8 are kept, percent-escaped: replacing them (U+FFFD) would
    # render URLs nobody observed and merge distinct bytes. A BOM, CRLF and a lone CR do not
    # stop the plan, and split lines as crawl --urls reads them.
    log = tmp_path / "urls.txt"
    log.write_bytes(
        b"\xef\xbb\xbfhttp://shop.test/item?id=1&q=caf\xc3\xa9\r\n"
        b"http://shop.test/item?id=2&q=caf\xe9\r"  # Latin-1, not UTF-8; a lone CR
        b"http://shop.test/item?id=2&q=caf\xe8\n"
        b"http://shop.test/item?id=\xff3&q=x\n"
    )
    targets = [parse_target("http://shop.test")]
    expected = plan_urls(targets, _read_urls(str(log), targets), SETTINGS)
    (shop,) = expected
    assert shop.urls == 4
    assert set(shop.groups[0].urls) == {
        "http://shop.test/item?id=1&q=caf\u00e9",
        "http://shop.test/item?id=2&q=caf%E9",
        "http://shop.test/item?id=2&q=caf%E8",
        "http://shop.test/item?id=%FF3&q=x",
    }
    assert list(plan_files(targets, [str(log)], SETTINGS)) == expected


def test_a_csv_log_that_is_not_utf8_stops_with_one_line_naming_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    log = tmp_path / "urls.csv"
    log.write_bytes(b"url\nhttp://shop.test/item?id=1\nhttp://shop.test/item?id=\xff2\n")
    listed = tmp_path / "domains.txt"
    listed.write_text("http://shop.test\n")
    out = tmp_path / "plan.jsonl"
    status = main(["plan", str(listed), "--urls", str(log), "--out", str(out)])
    assert status == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1
    assert f"--urls {log}: " in err and "not utf-8" in err
    assert not out.exists()


def _edited_plan(tmp_path: Path, edit: Callable[[dict[str, Any]], None]) -> Path:
    """A JSON Lines plan of the fixture's shop, its first pattern row changed by ``edit``."""
    (shop,) = plan_urls([parse_target("http://shop.test")], observed_urls(), SETTINGS)
    rows = plan_rows(shop, SETTINGS)
    edit(rows[0])
    out = tmp_path / "plan.jsonl"
    out.write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")
    return out


def _without_id(row: dict[str, Any]) -> None:
    assert "id" in row["pattern"].split("&")
    row["urls"] = [without_param(u, "id") for u in row["urls"]]
    row["statics"] = [without_param(u, "id") for u in row["statics"]]


@pytest.mark.parametrize(
    "edit, message",
    [
        # URLs that lack a parameter of the pattern: "without id" would be the URL itself.
        (_without_id, "does not match its row"),
        (lambda row: row.update(pattern=row["pattern"] + "&zz"), "does not match its row"),
        (lambda row: row["statics"].reverse(), "does not match its row"),
        (lambda row: row.update(top_patterns=20.9), "top_patterns must be an integer"),
        (lambda row: row.update(count=True), "count must be an integer"),
        (lambda row: row.update(urls="http://shop.test/"), "urls must be a list of strings"),
    ],
)
def test_a_plan_that_does_not_hold_its_patterns_is_refused(
    tmp_path: Path, edit: Callable[[dict[str, Any]], None], message: str
) -> None:
    path = _edited_plan(tmp_path, edit)
    with pytest.raises(ConfigError, match=re.escape(message)):
        read_plan(str(path))


def test_a_plan_that_is_not_a_regular_file_is_refused(tmp_path: Path) -> None:
    fifo = tmp_path / "plan.jsonl"
    os.mkfifo(fifo)  # nobody writes: reading it would block for ever
    listed = tmp_path / "domains.txt"
    listed.write_text("http://shop.test\n")
    # In a process of its own, so that a reader that blocks fails the test, not the run.
    result = subprocess.run(
        [sys.executable, "-m", "learner", "crawl", str(listed), "--plan", str(fifo)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 2
    assert result.stderr == f"learner: plan {fifo}: not a regular file\n"


def test_a_temp_plan_left_by_a_killed_run_is_removed(tmp_path: Path) -> None:
    child = subprocess.Popen(["true"])
    child.wait()
    stale = tmp_path / f".plan.jsonl.{child.pid}-0badc0de.tmp"
    stale.write_text("half a plan")
    write_plan(plan_urls(FIXTURE_TARGETS[:1], [], SETTINGS), str(tmp_path / "plan.jsonl"), SETTINGS)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["plan.jsonl"]


@pytest.mark.parametrize("command", ["plan", "crawl"])
def test_an_out_that_names_an_input_is_refused_before_any_work(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], command: str
) -> None:
    logs = tmp_path / "logs"
    logs.mkdir()
    log = logs / "urls.jsonl"
    log.write_text("http://shop.test/item?id=1\n")
    listed = tmp_path / "domains.txt"
    listed.write_text("http://shop.test\n")
    link = tmp_path / "link.jsonl"
    link.symlink_to(log)
    cases = [(str(log), str(log)), (str(log), str(link))]
    if command == "plan":  # the next plan of logs/*.jsonl would read it
        cases.append((str(logs / "*.jsonl"), str(logs / "new.jsonl")))
    else:
        cases.append((str(log), str(listed)))
    for urls, out in cases:
        status = main([command, str(listed), "--urls", urls, "--out", out])
        err = capsys.readouterr().err
        assert status == 2 and "would overwrite or be read as the input" in err, err
        assert err.count("\n") == 1
    assert log.read_text() == "http://shop.test/item?id=1\n"
    assert sorted(p.name for p in logs.iterdir()) == ["urls.jsonl"]


_LOG_PIECES = [
    b"http://shop.test/item?id=1&q=x",
    b"http://shop.test/item?id=",
    b"&q=",
    b"\xff",
    b"\xc3\xa9",
    b"\xef\xbb\xbf",
    b"\r",
    b"\n",
    b"\r\n",
    b"#",
    b" ",
    b"%",
]


@settings(max_examples=examples(40), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.one_of(st.binary(max_size=8), st.sampled_from(_LOG_PIECES)), max_size=30))
def test_any_bytes_in_a_text_log_plan_as_crawl_urls_reads_them(pieces: list[bytes]) -> None:
    with tempfile.TemporaryDirectory() as name:
        log = Path(name) / "urls.txt"
        log.write_bytes(b"".join(pieces))
        targets = [parse_target("http://shop.test")]
        expected = plan_urls(targets, _read_urls(str(log), targets), SETTINGS)
        assert list(plan_files(targets, [str(log)], SETTINGS)) == expected
        for group in expected[0].groups:
            for url in group.urls:
                url.encode("utf-8")  # what the browser is sent is text: no lone surrogates


def test_a_gzipped_text_log_plans_as_the_plain_one(tmp_path: Path) -> None:
    import gzip

    text = "\n".join(observed_urls()).encode() + b"\nhttp://shop.test/item?id=9&q=\xe2\x82\xac\n"
    (tmp_path / "urls.txt").write_bytes(text)
    (tmp_path / "urls.txt.gz").write_bytes(gzip.compress(text))
    every = dataclasses.replace(SETTINGS, cover=1.0)  # the one URL of id&q is planned too
    plain = list(plan_files(FIXTURE_TARGETS, [str(tmp_path / "urls.txt")], every))
    assert list(plan_files(FIXTURE_TARGETS, [str(tmp_path / "urls.txt.gz")], every)) == plain
    shop = _by_key(plain)["shop.test"]
    assert any("q=\u20ac" in url for group in shop.groups for url in group.urls)
