"""Property tests of the command line: random bytes in, documented exit status out.

Whatever the input, a command never shows a traceback, exits with the status the README
documents, and writes one key per input line that is a URL (a bad line never stops the
lines after it).
"""

from __future__ import annotations

import io
import json
import re
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from samepage import InvalidURL, escape_undecodable, normalize_url
from samepage.cli import main
from tests.plugins.properties import examples

_PIECES = [
    b"https://a.example/",
    b"http://B.example:8080/p?utm_source=x&id=1",
    b"http://a.example:" + b"9" * 5000 + b"/",
    b"http://" + b"1" * 5000 + b"/",
    b"http://[fe80::1%25",
    b"]/",
    b"https://fa\xc3\x9f.de/?q=",
    b"https://\xe2\x99\xa5.example/",
    b"mailto:x@y.example",
    b"\xff",
    b"\xed\xb3\x80",
    b"%",
    b"%zz",
    b"0x",
    b"\n",
    b"\r",
    b"\r\n",
    b" ",
    b"#",
    b"?",
    b"\xef\xbb\xbf",
]
_INPUT = st.lists(st.one_of(st.binary(max_size=30), st.sampled_from(_PIECES)), max_size=12).map(
    b"".join
)
_COMPRESSED_INPUT = st.sampled_from(
    [b"\x1f\x8b", b"\x28\xb5\x2f\xfd", b"\xfd7zXZ\x00", b"BZh91AY&SY"]
).flatmap(lambda head: _INPUT.map(lambda rest: head + rest))


def _line_key(line: str) -> str | None:
    """The key the CLI must print for one stripped input line, or None for a bad line."""
    try:
        key = normalize_url(line)
        key.encode("utf-8", "surrogateescape")
    except (InvalidURL, UnicodeEncodeError):
        return None
    return key


_COMPRESSED = re.compile(rb"\x1f\x8b|\x28\xb5\x2f\xfd|\xfd7zXZ\x00|BZh[1-9]1AY&SY")
"""The first bytes of gzip, zstd, xz and bzip2 data: not read as text (gzip from a file is)."""


def _compressed(data: bytes) -> bool:
    return _COMPRESSED.match(data) is not None


def _expected(data: bytes) -> list[str | None]:
    # A byte order mark at the start is not part of the first line.
    lines = io.TextIOWrapper(io.BytesIO(data), encoding="utf-8-sig", errors="surrogateescape")
    return [_line_key(line.strip()) for line in lines if line.strip()]


@contextmanager
def _streams(data: bytes) -> Iterator[tuple[io.BytesIO, io.StringIO]]:
    """Real text streams over bytes for stdin and stdout, as the interpreter sets them up."""
    out = io.BytesIO()
    err = io.StringIO()
    saved = sys.stdin, sys.stdout, sys.stderr
    # newline="\n" and a strict codec, as the interpreter opens stdin on POSIX
    sys.stdin = io.TextIOWrapper(io.BytesIO(data), encoding="utf-8", newline="\n")
    sys.stdout = io.TextIOWrapper(out, encoding="utf-8", write_through=True)
    sys.stderr = err
    try:
        yield out, err
    finally:
        sys.stdin, sys.stdout, sys.stderr = saved


def _run_on_bytes(data: bytes, *args: str) -> tuple[int, bytes, str]:
    with _streams(data) as (out, err):
        status = main(list(args))
        return status, out.getvalue(), err.getvalue()


_SETTINGS = settings(
    max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.too_slow]
)


@_SETTINGS
@given(_INPUT)
def test_normalize_prints_one_key_per_url_line(data: bytes) -> None:
    assume(not _compressed(data))
    status, out, err = _run_on_bytes(data, "normalize")
    expected = _expected(data)
    keys = [k for k in expected if k is not None]
    assert status == (1 if None in expected else 0)
    assert out == b"".join(k.encode("utf-8", "surrogateescape") + b"\n" for k in keys)
    assert err.count("\n") == expected.count(None)
    assert "Traceback" not in err


@_SETTINGS
@given(_INPUT, st.sampled_from(["jsonl", "tsv"]))
def test_dedupe_counts_every_url_line_once(data: bytes, fmt: str) -> None:
    assume(not _compressed(data))
    status, out, err = _run_on_bytes(data, "dedupe", "--format", fmt)
    expected = _expected(data)
    assert status == (1 if None in expected else 0)
    lines = out.decode("utf-8", "surrogateescape").split("\n")
    assert lines.pop() == ""
    if fmt == "jsonl":
        out.decode("utf-8")  # JSON Lines are valid UTF-8: other bytes are percent-escaped
        counts = [json.loads(line)["count"] for line in lines]
    else:
        counts = [int(line.split("\t", 1)[0]) for line in lines]
    assert sum(counts) == len([k for k in expected if k is not None])
    assert "Traceback" not in err


@_SETTINGS
@given(_INPUT, _INPUT)
def test_same_answers_0_1_or_2(a_bytes: bytes, b_bytes: bytes) -> None:
    a = a_bytes.decode("utf-8", "surrogateescape")
    b = b_bytes.decode("utf-8", "surrogateescape")
    status, _, err = _run_on_bytes(b"", "same", "-q", "--", a, b)
    try:
        expected = 0 if normalize_url(a) == normalize_url(b) else 1
    except InvalidURL:
        expected = 2
    assert status == expected
    assert "Traceback" not in err
    assert (err == "") == (expected != 2)


@_SETTINGS
@given(_INPUT)
def test_explain_answers_0_or_2(data: bytes) -> None:
    url = data.decode("utf-8", "surrogateescape")
    status, out, err = _run_on_bytes(b"", "explain", "--json", "--", url)
    if status == 0:
        # Valid UTF-8, a byte that was not UTF-8 shown as its percent-escape.
        assert json.loads(out.decode("utf-8"))["url"] == escape_undecodable(url)
    else:
        assert status == 2 and err.startswith("samepage: ") and err.count("\n") == 1


@settings(max_examples=examples(15), deadline=None)
@given(st.one_of(_INPUT, _COMPRESSED_INPUT))
def test_the_real_process_never_shows_a_traceback(data: bytes) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "samepage", "normalize"],
        input=data,
        capture_output=True,
        timeout=60,
    )
    assert b"Traceback" not in result.stderr
    if _compressed(data):  # zstd, xz or bzip2, or gzip on a pipe: refused, not read as text
        assert (result.returncode, result.stdout) == (2, b"")
        assert b"-compressed data" in result.stderr or b"gzip data on a stream" in result.stderr
        return
    expected = _expected(data)
    assert result.returncode == (1 if None in expected else 0)
    assert result.stdout.count(b"\n") == len([k for k in expected if k is not None])
