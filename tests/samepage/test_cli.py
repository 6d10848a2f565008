"""The samepage command line, run as a user would: a subprocess with files and stdin."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.cli_process import samepage_process as run


def test_normalize_streams_stdin_and_reports_bad_lines() -> None:
    result = run(
        "normalize",
        stdin="https://EXAMPLE.com/a/?utm_source=x&id=1\nnot a url\n\nmailto:x@y.example\n",
    )
    assert result.stdout.splitlines() == ["https://example.com/a?id=1", "mailto:x@y.example"]
    assert "<stdin>:2: invalid URL 'not a url'" in result.stderr
    assert result.returncode == 1


def test_normalize_files(tmp_path: Path) -> None:
    a = tmp_path / "a.txt"
    a.write_text("https://a.example/?b=1&a=2\n", encoding="utf-8")
    b = tmp_path / "b.txt"
    b.write_text("http://B.example:80/x\n", encoding="utf-8")
    result = run("normalize", str(a), str(b))
    assert result.returncode == 0
    assert result.stdout.splitlines() == ["https://a.example/?a=2&b=1", "http://b.example/x"]


def test_missing_file_is_a_usage_error(tmp_path: Path) -> None:
    result = run("normalize", str(tmp_path / "nope.txt"))
    assert result.returncode == 2
    assert "nope.txt" in result.stderr


def test_same_answers_by_exit_status() -> None:
    same = run("same", "https://a.example/p?id=1&utm_source=x", "https://A.example/p/?id=1#top")
    assert same.returncode == 0 and same.stdout.splitlines()[-1] == "same page"
    different = run("same", "-q", "https://a.example/p?id=1", "https://a.example/p?id=2")
    assert different.returncode == 1 and different.stdout == ""
    bad = run("same", "nope", "https://a.example/")
    assert bad.returncode == 2 and "invalid URL 'nope'" in bad.stderr


@pytest.mark.parametrize("fmt", ["jsonl", "tsv"])
def test_dedupe_groups_with_counts(fmt: str) -> None:
    urls = (
        "https://a.example/x?id=1&fbclid=1\nhttps://a.example/x/?id=1\nhttps://a.example/y\nbad\n"
    )
    result = run("dedupe", "--format", fmt, stdin=urls)
    assert result.returncode == 1
    lines = result.stdout.splitlines()
    if fmt == "jsonl":
        groups = [json.loads(line) for line in lines]
        assert groups == [
            {
                "key": "https://a.example/x?id=1",
                "count": 2,
                "urls": ["https://a.example/x?id=1&fbclid=1", "https://a.example/x/?id=1"],
            },
            {"key": "https://a.example/y", "count": 1, "urls": ["https://a.example/y"]},
        ]
    else:
        assert lines == [
            "2\thttps://a.example/x?id=1\thttps://a.example/x?id=1&fbclid=1",
            "1\thttps://a.example/y\thttps://a.example/y",
        ]


def test_learned_option_and_bad_learned_file(tmp_path: Path) -> None:
    learned = tmp_path / "learned.json"
    learned.write_text(
        json.dumps(
            {
                "format": "samepage.learned",
                "version": 1,
                "domains": {
                    "s.example": {
                        "patterns": {
                            "id&sid": {
                                "urls": 2,
                                "params": {
                                    "id": {"verdict": "non-neutral"},
                                    "sid": {"verdict": "neutral", "tested": 3},
                                },
                            }
                        }
                    }
                },
            }
        ),
        encoding="utf-8",
    )
    result = run("normalize", "--learned", str(learned), stdin="https://s.example/?sid=1&id=2\n")
    assert result.stdout == "https://s.example/?id=2\n"
    learned.write_text(
        '{"format": "samepage.learned", "version": 9, "domains": {}}', encoding="utf-8"
    )
    bad = run("normalize", "--learned", str(learned), stdin="https://s.example/\n")
    assert bad.returncode == 2 and "unknown version 9" in bad.stderr


def _huge_numbers(tested: int, share: int) -> str:
    sid = {"verdict": "neutral", "tested": tested}
    share_of = {"verdict": "non-neutral", "coverage": {"values": {"sid": {"share": share}}}}
    pattern = {"urls": 2, "params": {"id": share_of, "sid": sid}}
    doc = {"format": "samepage.learned", "version": 1}
    doc["domains"] = {"s.example": {"patterns": {"id&sid": pattern}}}
    return json.dumps(doc)


def test_huge_numbers_in_a_learned_file_are_refused_or_read(tmp_path: Path) -> None:
    # Before, a tested count of 10**400 ended in an OverflowError traceback (exit 1), and a
    # 331-digit share crashed every normalisation of its pattern.
    learned = tmp_path / "learned.json"
    learned.write_text(_huge_numbers(10**400, 1), encoding="utf-8")
    bad = run("normalize", "--learned", str(learned), stdin="https://s.example/?sid=1&id=2\n")
    assert bad.returncode == 2 and "a count is at most 2**63 - 1" in bad.stderr
    assert "Traceback" not in bad.stderr
    learned.write_text(_huge_numbers(3, int("9" * 331)), encoding="utf-8")
    good = run("normalize", "--learned", str(learned), stdin="https://s.example/?sid=1&id=2\n")
    assert (good.returncode, good.stdout) == (0, "https://s.example/?id=2\n")
    trace = run("explain", "--learned", str(learned), "https://s.example/?sid=1&id=2")
    assert trace.returncode == 0 and "Traceback" not in trace.stderr


def test_explain_text_and_json() -> None:
    url = "https://www.youtube.com/watch?v=abc&utm_source=x"
    text = run("explain", url)
    assert text.returncode == 0
    assert "keep  v=abc  [allowlist" in text.stdout
    assert "drop  utm_source=x  [blocklist: tracking:utm_*]" in text.stdout
    assert text.stdout.rstrip().endswith("result:  https://www.youtube.com/watch?v=abc")
    data = json.loads(run("explain", "--json", url).stdout)
    assert data["result"] == "https://www.youtube.com/watch?v=abc"
    assert [p["kept"] for p in data["params"]] == [True, False]


def test_explain_shows_the_unwrap_and_alias_steps() -> None:
    url = "https://l.facebook.com/l.php?u=https%3A%2F%2Fyoutu.be%2FdQw4w9WgXcQ&h=AT0"
    lines = run("explain", url).stdout.splitlines()
    assert lines[1].startswith("  rewrite  [redirect:facebook]  https://youtu.be/dQw4w9WgXcQ  (")
    assert lines[2].startswith(
        "  rewrite  [alias:youtube-short-link]  https://www.youtube.com/watch?v=dQw4w9WgXcQ  ("
    )
    assert lines[-1] == "result:  https://www.youtube.com/watch?v=dQw4w9WgXcQ"
    data = json.loads(run("explain", "--json", url).stdout)
    assert [r["rule"] for r in data["rewrites"]] == [
        "redirect:facebook",
        "alias:youtube-short-link",
    ]


def test_help_and_version() -> None:
    help_text = run("--help").stdout
    assert "exit status:" in help_text and "examples:" in help_text
    assert "130  interrupted" in help_text
    assert run("--version").stdout.startswith("samepage ")
    assert run().returncode == 2


def run_bytes(
    *args: str, stdin: bytes = b"", env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-m", "samepage", *args],
        input=stdin,
        capture_output=True,
        timeout=60,
        env={**os.environ, **(env or {})},
    )


def test_huge_port_is_a_bad_line_and_the_rest_goes_on() -> None:
    result = run("normalize", stdin=f"http://a.example:{'9' * 5000}/\nhttps://b.example/\n")
    assert result.returncode == 1
    assert result.stdout == "https://b.example/\n"
    assert "<stdin>:1: invalid URL" in result.stderr and "out of range" in result.stderr
    assert "Traceback" not in result.stderr


@pytest.mark.parametrize("bad", [f"http://a.example:{'9' * 5000}/", "http://a.example:²/", "x"])
def test_same_with_an_invalid_url_exits_2_not_1(bad: str) -> None:
    result = run("same", bad, "https://a.example/")
    assert result.returncode == 2
    assert result.stderr.startswith("samepage: invalid URL") and "Traceback" not in result.stderr


def test_invalid_utf8_on_stdin_is_kept_as_the_bytes_it_was() -> None:
    result = run_bytes(
        "normalize", stdin=b"https://a.example/\xff\xfe?q=\xe9\nhttps://b.example/\n"
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout == b"https://a.example/%FF%FE?q=%E9\nhttps://b.example/\n"


def test_a_non_http_line_comes_back_byte_for_byte() -> None:
    result = run_bytes("normalize", stdin=b"mailto:\xff@a.example\n")
    assert result.returncode == 0 and result.stdout == b"mailto:\xff@a.example\n"


def test_unencodable_output_is_reported_per_line() -> None:
    stdin = "mailto:é@a.example\nhttps://a.example/é\n".encode()
    result = run_bytes("normalize", stdin=stdin, env={"PYTHONIOENCODING": "ascii"})
    assert result.returncode == 1
    assert result.stdout == b"https://a.example/%C3%A9\n"
    assert b"cannot be written in the output encoding 'ascii'" in result.stderr
    assert b"Traceback" not in result.stderr


def test_unencodable_answer_of_explain_exits_2() -> None:
    result = run_bytes("explain", "mailto:é@a.example", env={"PYTHONIOENCODING": "ascii"})
    assert result.returncode == 2 and result.stdout == b""
    assert b"cannot be written in the output encoding 'ascii'" in result.stderr


@pytest.mark.parametrize(
    "redirect, message",
    [("<&-", "<stdin>: standard input is closed"), (">&-", "<stdout>: standard output is closed")],
)
def test_closed_stdin_or_stdout_is_a_usage_error(redirect: str, message: str) -> None:
    script = f'echo https://a.example/ | "$0" -m samepage normalize {redirect}'
    result = subprocess.run(
        ["sh", "-c", script, sys.executable], capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 2
    assert result.stderr == f"samepage: {message}\n"


def test_a_reader_that_stops_early_ends_the_command_quietly(tmp_path: Path) -> None:
    big = tmp_path / "big.txt"
    big.write_text("".join(f"https://a.example/p?id={i}\n" for i in range(200_000)))
    proc = subprocess.Popen(
        [sys.executable, "-m", "samepage", "normalize", str(big)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert proc.stdout is not None and proc.stderr is not None
    assert proc.stdout.readline() == b"https://a.example/p?id=0\n"
    proc.stdout.close()  # as `| head -1` does
    assert proc.wait(timeout=60) == 0
    assert proc.stderr.read() == b""


def _run_limited(*args: str, stdin: bytes = b"") -> subprocess.CompletedProcess[str]:
    """``samepage ARGS`` in a process whose address space is bounded to 1 GiB."""
    import resource

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))

    return subprocess.run(
        [sys.executable, "-m", "samepage", *args],
        input=stdin.decode("utf-8", "surrogateescape"),
        capture_output=True,
        text=True,
        timeout=120,
        preexec_fn=limit,
    )


@pytest.mark.parametrize("command", ["normalize", "dedupe"])
def test_an_endless_line_of_text_is_one_bad_line_not_a_memory_error(command: str) -> None:
    from samepage.archives import MAX_LINE, MAX_SKIP

    done = _run_limited(command, "/dev/zero")
    assert (done.returncode, done.stdout) == (1, "")
    assert done.stderr.splitlines() == [
        f"/dev/zero:1: a line longer than {MAX_LINE} bytes, with no end in the next "
        f"{MAX_SKIP} bytes; the rest of the file is not read"
    ]


@pytest.mark.parametrize("end", [b"\n", b"\r", b"\r\n"])
def test_a_line_past_the_bound_is_one_bad_line_and_the_rest_is_read(end: bytes) -> None:
    from samepage.archives import MAX_LINE

    long = b"https://a.example/?q=" + b"x" * MAX_LINE
    data = end.join([b"https://a.example/?id=1", long, b"https://b.example/", b""])
    done = run_bytes("normalize", stdin=data)
    assert done.returncode == 1
    assert done.stdout.decode().splitlines() == ["https://a.example/?id=1", "https://b.example/"]
    assert done.stderr.decode().splitlines() == [f"<stdin>:2: a line longer than {MAX_LINE} bytes"]


ZSTD_URL = b"(\xb5/\xfd\x04X\xa9\x00\x00http://a.test/x?id=1\n$\xd0\xc3\x14"
"""``printf 'http://a.test/x?id=1\\n' | zstd``: one URL, stored in a zstd frame."""


def test_text_input_is_gunzipped_by_its_bytes_and_other_compressions_are_refused(
    tmp_path: Path,
) -> None:
    import bz2
    import gzip
    import lzma

    text = b"https://a.example/?b=1&a=2\n"
    packed = tmp_path / "urls.log"
    packed.write_bytes(gzip.compress(text))
    result = run("normalize", str(packed))
    assert (result.returncode, result.stdout) == (0, "https://a.example/?a=2&b=1\n")
    # Read as lines, other compressed data would be garbage keys: a clear error instead.
    others = {"zstd": ZSTD_URL, "xz": lzma.compress(text), "bzip2": bz2.compress(text)}
    for kind, data in others.items():
        path = tmp_path / f"urls-{kind}.txt"
        path.write_bytes(data)
        result = run("normalize", str(path))
        assert result.returncode == 2 and result.stdout == ""
        assert f"{path}: {kind}-compressed data" in result.stderr, result.stderr
    # A line that merely starts like one is text.
    result = run("normalize", stdin="BZh9 is not a URL\n")
    assert result.returncode == 1 and "invalid URL 'BZh9" in result.stderr
