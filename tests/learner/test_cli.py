"""The learner's command line: usage errors fail fast, with one line and exit status 2."""

from __future__ import annotations

import fcntl
import os
import re
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from learner.cli import main
from learner.cli_options import build_parser
from learner.config import build_config
from learner.errors import ConfigError
from learner.render.browser import BrowserChoice
from samepage import DomainEntry, LearnedSet, dump_learned
from tests.cli_process import learner_here as run


def test_python_dash_m_learner_runs_the_command_line(tmp_path: Path) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "learner", "crawl", str(tmp_path / "none.txt")],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 2
    assert result.stderr.startswith("learner: domains file") and "Traceback" not in result.stderr


@pytest.fixture
def domains(tmp_path: Path) -> Path:
    path = tmp_path / "domains.txt"
    path.write_text("http://shop.test\n", encoding="utf-8")
    return path


def test_missing_domains_file(tmp_path: Path) -> None:
    result = run("crawl", str(tmp_path / "none.txt"))
    assert result.returncode == 2
    assert (
        result.stderr.startswith("learner: domains file") and len(result.stderr.splitlines()) == 1
    )


def test_no_browser(domains: Path, tmp_path: Path) -> None:
    result = run(
        "crawl",
        str(domains),
        "--out",
        str(tmp_path / "l.json"),
        "--browser",
        str(tmp_path / "nope"),
    )
    assert result.returncode == 2
    assert "nope" in result.stderr and len(result.stderr.splitlines()) <= 2
    assert not (tmp_path / "l.json").exists()


def test_unwritable_output_fails_before_any_work(domains: Path, tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    result = run("crawl", str(domains), "--out", str(blocker / "learned.json"))
    assert result.returncode == 2
    assert "cannot write there" in result.stderr


def test_output_in_a_folder_only_the_permissions_call_writable_is_refused(
    domains: Path, tmp_path: Path
) -> None:
    # The permission check says yes to root under /proc, where no file can be created.
    if not os.access("/proc", os.W_OK):
        pytest.skip("needs a folder that passes the permission check but takes no file")
    result = run("crawl", str(domains), "--out", "/proc/learned.json")
    assert result.returncode == 2
    assert "--out /proc/learned.json: cannot write there: /proc" in result.stderr
    assert len(result.stderr.splitlines()) == 1


@pytest.mark.parametrize(
    "args, message",
    [
        (["--resolve", "shop.test"], "expected HOST=ADDR:PORT"),
        (["--resolve", "shop.test=local_host:80"], "not an IP address or host name"),
        (["--samples", "0"], "--samples: must be between 1 and 1000"),
        (["--concurrency", "100000"], "--concurrency: must be between 1 and 64"),
        (["--top-patterns", "1000000000"], "--top-patterns: must be between 1 and 1000"),
        (["--cover", "1.5"], "--cover: must be in (0, 1]"),
        (["--renders-per-domain", "0"], "--renders-per-domain: must be at least 1"),
        (["--min-samples", "20"], "--min-samples: must be between 1 and samples"),
    ],
)
def test_bad_options(domains: Path, tmp_path: Path, args: list[str], message: str) -> None:
    result = run("crawl", str(domains), "--out", str(tmp_path / "l.json"), *args)
    assert result.returncode == 2
    assert message in result.stderr


def test_help_has_groups_defaults_and_exit_codes() -> None:
    text = run("crawl", "--help").stdout
    for needle in (
        "method (MIQPS)",
        "browser and network",
        "input and output",
        "default: data/learned.json",
    ):
        assert needle in text
    top = run("--help").stdout
    assert "exit status:" in top and "130  interrupted" in top


# Every subcommand, as the top-level help lists them under COMMAND.
COMMANDS = re.findall(r"^    ([a-z]+) ", build_parser().format_help(), re.M)


def test_every_subcommand_is_checked() -> None:
    assert {"crawl", "plan", "demo", "report", "diff"} <= set(COMMANDS)


@pytest.mark.parametrize("command", COMMANDS)
def test_help_shows_each_default_once(command: str) -> None:
    result = run(command, "--help")
    assert result.returncode == 0
    assert "(default: None)" not in result.stdout
    assert "(default: False)" not in result.stdout
    # One option's help, wrapped over lines, names its default at most once.
    entries = re.split(r"\n  (?=-)", result.stdout)
    assert [e for e in entries if e.count("(default") > 1] == []


def test_demo_refuses_to_clear_a_folder_it_did_not_make(tmp_path: Path) -> None:
    keep = tmp_path / "mine"
    keep.mkdir()
    (keep / "notes.txt").write_text("precious", encoding="utf-8")
    result = run("demo", "--cache", str(keep), "--out", str(tmp_path / "demo.json"))
    assert result.returncode == 2
    assert "not a folder an earlier demo made" in result.stderr
    assert (keep / "notes.txt").read_text(encoding="utf-8") == "precious"


def test_demo_refuses_to_overwrite_a_learned_set_a_crawl_wrote(tmp_path: Path) -> None:
    published = tmp_path / "learned.json"
    dump_learned(LearnedSet({"shop.example.com": DomainEntry({})}), published)
    before = published.read_bytes()
    result = run("demo", "--cache", str(tmp_path / "run"), "--out", str(published))
    assert result.returncode == 2
    assert "a crawl wrote this learned set" in result.stderr
    assert published.read_bytes() == before


def _one_clear_line(result: subprocess.CompletedProcess[str]) -> None:
    assert result.returncode == 2, result.stderr
    assert "Traceback" not in result.stderr
    assert len(result.stderr.splitlines()) == 1 and len(result.stderr) < 400, result.stderr


@pytest.mark.parametrize(
    "line, message",
    [
        ("http://shop.test:" + "9" * 5000, "domains.txt:1: domain 'http://shop.test:999"),
        ("http://" + "1" * 5000, "out of range"),
        ("mailto:a@host", "domains.txt:1: domain 'mailto:a@host'"),
        ("!!!", "domains.txt:1: domain '!!!'"),
        ("2852039166", "169.254.169.254 is a link-local, metadata or unspecified address"),
        ("metadata.google.internal", "never studied"),
        ("http://10.0.0.1", "or pass --allow-private"),
        ("https://shop.test:0", "the port must be a number from 1 to 65535"),
    ],
)
def test_bad_domains_file_lines_exit_2(tmp_path: Path, line: str, message: str) -> None:
    path = tmp_path / "domains.txt"
    path.write_text(line + "\n")
    result = run("crawl", str(path), "--out", str(tmp_path / "l.json"))
    _one_clear_line(result)
    assert message in result.stderr


@pytest.mark.parametrize(
    "args, message",
    [
        (["--resolve", "shop.test=127.0.0.1:²"], "port must be a number from 1 to 65535"),
        (["--resolve", "shop.test=127.0.0.1:" + "9" * 5000], "port must be a number"),
        (["--resolve", "shop.test=0xa9.0xfe.0xa9.0xfe:80"], "never studied"),
        (["--timeout", "inf"], "--timeout: must be a finite number, not inf"),
        (["--timeout", "nan"], "--timeout: must be a finite number, not nan"),
        (["--delay", "inf"], "--delay: must be a finite number, not inf"),
        (["--concurrency", "0"], "--concurrency: must be between 1 and 64"),
        (["--max-flip-fraction", "2"], "--max-flip-fraction: must be in [0, 1]"),
        (["--min-contexts", "0"], "--min-contexts: must be at least 1"),
        (["--give-up-after", "0"], "--give-up-after: must be at least 1"),
        (["--default-values", "-1"], "--default-values: must not be negative"),
    ],
)
def test_bad_numbers_exit_2_naming_the_option(
    domains: Path, tmp_path: Path, args: list[str], message: str
) -> None:
    result = run("crawl", str(domains), "--out", str(tmp_path / "l.json"), *args)
    _one_clear_line(result)
    assert message in result.stderr


@pytest.mark.parametrize(
    "toml, message",
    [
        ("min_contexts = 0", "config file {}: min_contexts: must be at least 1"),
        ("[render]\nquiet_window_s = 0", "config file {}: render.quiet_window_s: must be in"),
        ("quiet_window_s = 0", "config file {}: quiet_window_s: must be in (0, 60]"),
    ],
)
def test_a_bad_config_file_value_is_named_by_the_file_and_its_key(
    domains: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], toml: str, message: str
) -> None:
    config = tmp_path / "learner.toml"
    config.write_text(toml + "\n")
    out = str(tmp_path / "l.json")
    status = main(["crawl", str(domains), "--out", out, "--config", str(config)])
    assert status == 2
    assert message.format(config) in capsys.readouterr().err


def test_a_config_error_carries_its_field_and_names_the_option_given() -> None:
    with pytest.raises(ConfigError) as caught:
        build_config({}, {"min_contexts": 0})
    assert (caught.value.field, caught.value.problem) == ("min_contexts", "must be at least 1")
    named = caught.value.given_as("--min-contexts")
    assert str(named) == "--min-contexts: must be at least 1" and named.field == "min_contexts"


@pytest.mark.parametrize("value", ["1.5", "-0.1", "nan", "x"])
def test_diff_max_flip_fraction_is_a_fraction(tmp_path: Path, value: str) -> None:
    result = run("diff", "a.json", "b.json", "--max-flip-fraction", value)
    assert result.returncode == 2 and "argument --max-flip-fraction" in result.stderr


_HOSTILE = {
    "nested": "[" * 100_000 + "]" * 100_000,
    "huge": '{"format": "samepage.learned", "version": 1, "domains": {}, "x": ' + "9" * 5000 + "}",
    "duplicate": '{"format": "samepage.learned", "version": 1, "version": 1, "domains": {}}',
}


@pytest.mark.parametrize("kind", sorted(_HOSTILE))
def test_hostile_learned_sets_exit_2(tmp_path: Path, domains: Path, kind: str) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text(_HOSTILE[kind])
    good = tmp_path / "good.json"
    good.write_text('{"format": "samepage.learned", "version": 1, "domains": {}}')
    for args in (
        ["diff", str(bad), str(good)],
        ["diff", str(good), str(bad)],
        ["crawl", str(domains), "--previous", str(bad), "--out", str(tmp_path / "l.json")],
    ):
        result = run(*args)
        _one_clear_line(result)
        assert str(bad) in result.stderr
    run_folder = tmp_path / "run"
    run_folder.mkdir()
    (run_folder / "learned.json").write_text(_HOSTILE[kind])
    _one_clear_line(run("report", str(run_folder), "--out", str(tmp_path / "report")))


@pytest.mark.parametrize("out", ["", ".", "{tmp}", "{tmp}/"])
def test_out_naming_a_folder_fails_the_early_check(domains: Path, tmp_path: Path, out: str) -> None:
    result = run("crawl", str(domains), "--out", out.format(tmp=tmp_path), cwd=tmp_path)
    _one_clear_line(result)
    assert "--out" in result.stderr and "name a file" in result.stderr


def test_the_early_check_creates_no_folders(domains: Path, tmp_path: Path) -> None:
    result = run(
        "crawl",
        str(domains),
        "--out",
        str(tmp_path / "new" / "deeper" / "l.json"),
        "--cache",
        str(tmp_path / "cache"),
        "--browser",
        str(tmp_path / "no-such-browser"),
    )
    assert result.returncode == 2 and "no-such-browser" in result.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["domains.txt"]


@pytest.mark.browser
def test_a_second_run_on_one_run_folder_exits_2(
    domains: Path, tmp_path: Path, browser_choice: BrowserChoice
) -> None:
    cache = tmp_path / "cache"
    cache.mkdir()
    with open(cache / "lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # a run holds the folder
        lock.write(f"{os.getpid()}\n")
        lock.flush()
        args = ["--out", str(tmp_path / "l.json"), "--cache", str(cache)]
        if browser_choice.executable:
            args += ["--browser", browser_choice.executable]
        result = run("crawl", str(domains), *args)
    _one_clear_line(result)
    assert f"is in use by another learner run (pid {os.getpid()})" in result.stderr
    assert not (cache / "checkpoint.jsonl").exists()


@pytest.mark.browser
def test_ctrl_c_stops_with_one_line_and_publishes_nothing(
    tmp_path: Path, browser_choice: BrowserChoice
) -> None:
    from learner.demo.server import SiteServer
    from learner.demo.sites import demo_sites, demo_urls

    (tmp_path / "domains.txt").write_text("http://shop.example\n")
    (tmp_path / "urls.txt").write_text("\n".join(demo_urls()) + "\n")
    cache, out = tmp_path / "cache", tmp_path / "learned.json"
    with SiteServer(demo_sites()) as server:
        args = [
            *("-v", "crawl", str(tmp_path / "domains.txt"), "--urls", str(tmp_path / "urls.txt")),
            *("--out", str(out), "--cache", str(cache), "--delay", "0"),
            *("--resolve", f"shop.example={server.resolve()['shop.example']}"),
        ]
        if browser_choice.executable:
            args += ["--browser", browser_choice.executable]
        # A session of its own: Ctrl-C in a terminal reaches the whole process group,
        # the browser included.
        proc = subprocess.Popen(
            [sys.executable, "-m", "learner", *args],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
            start_new_session=True,
        )
        assert proc.stderr is not None
        seen = []
        for line in proc.stderr:  # wait for the first comparison to be saved
            seen.append(line)
            if "checkpoint: 1 comparisons recorded" in line:
                break
        else:
            raise AssertionError("the crawl ended first:\n" + "".join(seen))
        os.killpg(proc.pid, signal.SIGINT)
        rest = proc.stderr.read()
        assert proc.wait(timeout=60) == 130
    saved = (cache / "checkpoint.jsonl").read_text().count("\n")
    assert saved >= 1
    assert rest.splitlines()[-1] == (
        f"learner: interrupted; {saved} finished comparisons are saved in {cache}; "
        "rerun the same command to resume"
    )
    assert "Traceback" not in rest and "ERROR" not in rest and "WARNING" not in rest
    assert not out.exists()


def test_a_folder_an_older_demo_made_is_recognised_by_its_run(tmp_path: Path) -> None:
    from learner.demo.run import MARKER, claim_folders

    older = tmp_path / "older"
    older.mkdir()
    (older / "run.json").write_text('{"targets": ["news.example", "shop.example"]}')
    claim_folders(older, tmp_path / "learned.json")
    assert [p.name for p in older.iterdir()] == [MARKER]
    crawl = tmp_path / "crawl"
    crawl.mkdir()
    (crawl / "run.json").write_text('{"targets": ["shop.example.com"]}')
    with pytest.raises(ConfigError, match="not a folder an earlier demo made"):
        claim_folders(crawl, tmp_path / "learned.json")
    assert (crawl / "run.json").exists()
    claim_folders(tmp_path / "missing", tmp_path / "learned.json")
    assert (tmp_path / "missing" / MARKER).exists()
