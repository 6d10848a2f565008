"""Hostile archive input: no merge, no traceback, no runaway, through every reader.

Each row is a CDXJ index or a WARC file (plain and gzipped) built as a hostile user would,
read by ``samepage normalize``, ``samepage dedupe`` and ``learner plan``: the keys, the
one-line errors (``FILE:LINE:`` or ``FILE@OFFSET:``) and the exit status are asserted. Memory
stays bounded under an address-space limit.
"""

from __future__ import annotations

import gzip
import json
import logging
import re
import subprocess
import sys
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

from samepage import normalize_url
from samepage.archives import MAX_LINE, MAX_URL
from tests.cli_process import samepage_here as run
from tests.plugins.engines import engine

engine("duckdb")  # learner plan reads through DuckDB

SITE = "https://a.example/"


def cdxj(url: str | bytes, *, raw: bool = False) -> bytes:
    """A CDXJ line for ``url``: a JSON string (escapes allowed), or raw bytes when ``raw``."""
    if isinstance(url, bytes):
        quoted = url if raw else json.dumps(url.decode()).encode()[1:-1]
    else:
        quoted = json.dumps(url).encode()[1:-1]  # ASCII: any lone surrogate is escaped
    return b'a,example)/ 20240101000000 {"url": "' + quoted + b'", "status": "200"}\n'


def warc(
    uri: bytes | None,
    *,
    kind: bytes = b"response",
    length: bytes | None = None,
    header: bytes = b"",
) -> bytes:
    """One WARC record, written by hand so that it can lie."""
    block = b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n<h1>page</h1>"
    head = b"WARC/1.0\r\nWARC-Type: " + kind + b"\r\n"
    head += b"WARC-Target-URI: " + uri + b"\r\n" if uri is not None else b""
    head += b"WARC-Date: 2024-01-01T00:00:00Z\r\n" + header
    head += b"Content-Length: " + (length or str(len(block)).encode()) + b"\r\n\r\n"
    return head + block + b"\r\n\r\n"


def good(n: int) -> str:
    return f"{SITE}?id={n}"


@dataclass(frozen=True)
class Case:
    """An archive file and what every reader must make of it."""

    name: str
    records: list[bytes]
    keys: list[str]
    errors: list[str]
    """Each a regular expression for one stderr line, after ``samepage: FILE``."""
    members: bool = True
    """Gzipped, one member per record (as WARC writers do); else one member for all."""


CDXJ_CASES = [
    Case(
        "bytes that are not UTF-8 stay the bytes they were",
        [
            cdxj(b"https://a.example/?id=\xff", raw=True),
            cdxj(b"https://a.example/?id=\xfe", raw=True),
        ],
        [f"{SITE}?id=%FF", f"{SITE}?id=%FE"],
        [],
    ),
    Case(
        "a lone surrogate escape is refused, the rest is read",
        [cdxj("https://a.example/?id=\ud800"), cdxj(good(2))],
        [good(2)],
        [r":1: bad JSON: \\ud800 is half of a UTF-16 pair, not text"],
    ),
    Case(
        "an escaped low surrogate is no disguised 0xFF byte",
        [b'k 20240101000000 {"url": "https://a.example/?id=\\udcff"}\n', cdxj(good(2))],
        [good(2)],
        [r":1: bad JSON: \\udcff is half"],
    ),
    Case(
        "a line break in a URL cannot add an output line",
        [cdxj("mailto:x\nhttps://injected.example/?id=1"), cdxj(good(2)), cdxj("a\tb?id=3")],
        [good(2)],
        [r":1: a URL with the control character U\+000A in it", r":3: .*U\+0009"],
    ),
    Case(
        "a line past the bound is skipped",
        [b"k 20240101000000 {" + b"x" * (MAX_LINE + 10) + b"}\n", cdxj(good(2))],
        [good(2)],
        [rf":1: a line longer than {MAX_LINE} bytes$"],
    ),
    Case(
        "the last line is read without a line end",
        [cdxj(good(1)), cdxj(good(2)).rstrip(b"\n")],
        [good(1), good(2)],
        [],
    ),
    Case(
        "a URL past the bound is skipped",
        [cdxj(SITE + "?id=" + "9" * MAX_URL), cdxj(good(2))],
        [good(2)],
        [rf":1: a URL longer than {MAX_URL} characters"],
    ),
]

WARC_CASES = [
    Case(
        "a raw 0xFF and a UTF-8 ÿ are two URLs (no Latin-1 guess)",
        [warc(b"https://a.example/?id=\xff"), warc("https://a.example/?id=ÿ".encode())],
        [f"{SITE}?id=%FF", f"{SITE}?id=%C3%BF"],
        [],
    ),
    Case(
        "angle brackets are taken off only as a pair",
        [
            warc(b"https://a.example/?q=a>"),
            warc(b"<https://a.example/?q=b>"),
            warc(b"https://a.example/?q=a"),
        ],
        [f"{SITE}?q=a%3E", f"{SITE}?q=b", f"{SITE}?q=a"],
        [],
    ),
    Case(
        "records without WARC-Target-URI",
        [warc(None), warc(None, kind=b"request"), warc(good(3).encode())],
        [good(3)],
        [r"@0: response record without WARC-Target-URI"],
    ),
    Case(
        "a Content-Length past any file",
        [warc(good(1).encode(), length=b"99999999999999999999999"), warc(good(2).encode())],
        [good(2)],
        [r"@0: response record without a valid Content-Length"],
    ),
    Case(
        "a Content-Length that lies, long and short",
        [
            warc(good(1).encode(), length=b"300"),
            warc(good(2).encode()),
            warc(good(3).encode(), length=b"5"),
            warc(good(4).encode()),
        ],
        [good(2), good(4)],
        [
            r"@0: Content-Length 300 does not end the response record",
            r"@\d+: Content-Length 5 does not end the response record",
        ],
    ),
    Case(
        "a Content-Length past the end of the file",
        [
            warc(good(1).encode()),
            warc(good(2).encode(), length=b"999999999"),
            warc(good(3).encode()),
        ],
        [good(1), good(3)],
        [r"@\d+: response record cut short \(truncated\)"],
    ),
    Case(
        "a header line past the bound",
        [
            warc(good(1).encode(), header=b"X-Junk: " + b"x" * (2 << 20) + b"\r\n"),
            warc(good(2).encode()),
        ],
        [good(2)],
        [r"@0: WARC headers longer than 1048576 bytes"],
    ),
    Case(
        "junk between records",
        [warc(good(1).encode()), b"junk\r\n" * 3, warc(good(2).encode())],
        [good(1), good(2)],
        [r"@\d+: not a WARC record \(no WARC/1.x line\)"],
    ),
]


def _write(tmp_path: Path, case: Case, fmt: str, packing: str) -> Path:
    suffix = f".{fmt}" + (".gz" if packing != "plain" else "")
    path = tmp_path / f"archive{suffix}"
    if packing == "plain":
        path.write_bytes(b"".join(case.records))
    elif packing == "members":
        path.write_bytes(b"".join(gzip.compress(r, mtime=0) for r in case.records))
    else:
        path.write_bytes(gzip.compress(b"".join(case.records), mtime=0))
    return path


def _check_errors(stderr: str, path: Path, errors: list[str], prefix: str) -> None:
    lines = stderr.splitlines()
    assert "Traceback" not in stderr
    assert len(lines) == len(errors), stderr
    for line, pattern in zip(lines, errors, strict=True):
        assert re.match(re.escape(f"{prefix}{path}") + pattern, line), (line, pattern)


def _plan(
    tmp_path: Path, path: Path, caplog: pytest.LogCaptureFixture
) -> tuple[int, set[str], list[str]]:
    """``learner plan`` of ``path``: its status, the URLs planned (as keys), its warnings."""
    from learner.cli import main
    from learner.plan.files import read_plan

    listed = tmp_path / "domains.txt"
    listed.write_text("a.example\n", encoding="utf-8")
    out = tmp_path / "plan.jsonl"
    caplog.clear()
    with caplog.at_level(logging.WARNING):
        status = main(["-q", "plan", str(listed), "--urls", str(path), "--out", str(out)])
    plans = read_plan(str(out))[1].values() if out.exists() else []
    urls = {normalize_url(u) for plan in plans for group in plan.groups for u in group.urls}
    return status, urls, [r.getMessage() for r in caplog.records]


PACKINGS = ["plain", "members", "one member"]


@pytest.mark.parametrize("packing", PACKINGS)
@pytest.mark.parametrize(
    ("fmt", "case"),
    [("cdxj", c) for c in CDXJ_CASES] + [("warc", c) for c in WARC_CASES],
    ids=lambda value: getattr(value, "name", value),
)
def test_hostile_archives_through_normalize_dedupe_and_plan(
    tmp_path: Path, fmt: str, case: Case, packing: str, caplog: pytest.LogCaptureFixture
) -> None:
    path = _write(tmp_path, case, fmt, packing)
    status = 1 if case.errors else 0
    keys = run("normalize", str(path))
    assert (keys.returncode, keys.stdout.splitlines()) == (status, case.keys)
    _check_errors(keys.stderr, path, case.errors, "samepage: ")
    groups = run("dedupe", str(path))
    assert groups.returncode == status
    found = [json.loads(line) for line in groups.stdout.splitlines()]
    assert sorted(g["key"] for g in found) == sorted(set(case.keys))
    assert sum(g["count"] for g in found) == len(case.keys)
    _check_errors(groups.stderr, path, case.errors, "samepage: ")
    tsv = run("dedupe", "--format", "tsv", str(path)).stdout.splitlines()
    assert len(tsv) == len(found) and all(row.count("\t") == 3 for row in tsv)
    planned, urls, warnings = _plan(tmp_path, path, caplog)
    assert (planned, urls) == (0, set(case.keys))
    assert len(warnings) == len(case.errors) and all("\n" not in w for w in warnings)


def _gzip_members(*parts: bytes) -> bytes:
    return b"".join(gzip.compress(p, mtime=0) for p in parts)


@pytest.mark.parametrize("fmt", ["cdxj", "warc"])
def test_damaged_and_cut_gzip_is_one_line_and_the_rest_is_read(
    tmp_path: Path, fmt: str, caplog: pytest.LogCaptureFixture
) -> None:
    record: Callable[[int], bytes] = (
        (lambda n: cdxj(good(n))) if fmt == "cdxj" else (lambda n: warc(good(n).encode()))
    )
    damaged = bytearray(gzip.compress(record(2) * 50, mtime=0))
    damaged[len(damaged) // 2 : len(damaged) // 2 + 8] = b"\x00" * 8
    path = tmp_path / f"damaged.{fmt}.gz"
    path.write_bytes(_gzip_members(record(1)) + bytes(damaged) + _gzip_members(record(3)))
    done = run("normalize", str(path))
    keys = done.stdout.splitlines()
    assert done.returncode == 1 and keys[0] == good(1) and keys[-1] == good(3)
    assert set(keys) <= {good(1), good(2), good(3)}
    (line,) = done.stderr.splitlines()
    assert line.startswith(f"samepage: {path}") and "damaged gzip data" in line
    # Cut inside the last member: the whole records before it are read.
    whole = _gzip_members(record(1), record(2))
    cut = tmp_path / f"cut.{fmt}.gz"
    cut.write_bytes(whole[:-10])
    done = run("normalize", str(cut))
    assert (done.returncode, done.stdout.splitlines()) == (1, [good(1)])
    (line,) = done.stderr.splitlines()
    assert line.startswith(f"samepage: {cut}") and "truncated" in line
    planned, urls, warnings = _plan(tmp_path, cut, caplog)
    assert (planned, urls, len(warnings)) == (0, {good(1)}, 1)


def test_empty_gzip_members_and_padding_are_read_through(tmp_path: Path) -> None:
    empty = gzip.compress(b"", mtime=0)
    path = tmp_path / "index.cdxj.gz"
    path.write_bytes(_gzip_members(cdxj(good(1))) + empty * 50_000 + _gzip_members(cdxj(good(2))))
    with open(path, "ab") as handle:
        handle.write(b"\0" * 512)  # zero padding after the last member, as some tools write
    done = run("normalize", str(path))
    assert (done.returncode, done.stdout, done.stderr) == (0, f"{good(1)}\n{good(2)}\n", "")


@pytest.mark.parametrize("fmt", ["cdxj", "warc"])
def test_endless_input_is_refused_not_read_for_ever(fmt: str) -> None:
    done = run("normalize", "--input-format", fmt, "/dev/zero")
    assert (done.returncode, done.stderr) == (2, "samepage: /dev/zero: not a regular file\n")


LIMITED = """
import resource, sys
limit = int(sys.argv[1])
if limit:
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
from samepage.cli import main
status = main(sys.argv[2:])
with open("/proc/self/status") as status_file:
    peak = [line.split()[1] for line in status_file if line.startswith("VmPeak:")]
print(f"peak {int(peak[0]) << 10}", file=sys.stderr)
sys.exit(status)
"""


def _limited(limit: int, *args: str) -> tuple[int, list[str], list[str], int]:
    """``samepage ARGS`` under an address-space limit: status, stdout, stderr, peak bytes."""
    done = subprocess.run(
        [sys.executable, "-c", LIMITED, str(limit), *args],
        capture_output=True,
        text=True,
        timeout=300,
    )
    *errors, peak = done.stderr.splitlines() or ["peak 0"]
    return done.returncode, done.stdout.splitlines(), errors, int(peak.split()[-1])


def _bomb(path: Path, head: bytes, filler: bytes, size: int, tail: bytes) -> Path:
    """A gzip file of ``head``, ``size`` bytes of ``filler`` and ``tail``: a few hundred KB."""
    packer = zlib.compressobj(1, zlib.DEFLATED, 31)
    piece = filler * ((4 << 20) // len(filler))
    parts = [packer.compress(head)]
    parts += [packer.compress(piece) for _ in range(size // len(piece))]
    parts += [packer.compress(tail), packer.flush()]
    path.write_bytes(b"".join(parts))
    return path


@pytest.mark.slow
@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="reads VmPeak from /proc")
def test_memory_stays_bounded_under_an_address_space_limit(tmp_path: Path) -> None:
    # The address space samepage takes to read a small index, and 64 MiB more: far less than
    # the 160 MiB line and the 160 MiB body below.
    small = tmp_path / "small.cdxj"
    small.write_bytes(cdxj(good(1)))
    status, _, _, peak = _limited(0, "normalize", str(small))
    assert status == 0 and peak > 0
    limit = peak + (64 << 20)
    size = 160 << 20
    bomb = _bomb(tmp_path / "bomb.cdxj.gz", b"", b"a", size, b"\n" + cdxj(good(2)))
    status, keys, errors, _ = _limited(limit, "normalize", str(bomb))
    assert (status, keys, len(errors)) == (1, [], 1) and "MemoryError" not in errors[0]
    # A response body larger than the limit streams through; the record after it is read.
    block = b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n"
    head = (
        b"WARC/1.0\r\nWARC-Type: response\r\nWARC-Target-URI: " + good(1).encode() + b"\r\n"
        b"WARC-Date: 2024-01-01T00:00:00Z\r\nContent-Length: "
        + str(len(block) + size).encode()
        + b"\r\n\r\n"
        + block
    )
    big = _bomb(tmp_path / "big.warc.gz", head, b"\0", size, b"\r\n\r\n")
    with open(big, "ab") as handle:
        handle.write(gzip.compress(warc(good(2).encode()), mtime=0))
    assert _limited(limit, "normalize", str(big))[:3] == (0, [good(1), good(2)], [])
    # Without the bounds the same input does not fit: the limit is a real one.
    assert size > limit - peak
