"""URL logs are read line by line with one bound: crawl --urls keeps only the studied lines."""

from __future__ import annotations

import logging
import subprocess
import sys
from pathlib import Path

import pytest

from learner.cli import _read_urls
from learner.plan.targets import parse_target
from samepage.archives import MAX_LINE

LIMITED = """
import resource, sys
resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))
from learner.cli import _read_urls
from learner.plan.targets import parse_target
print(len(_read_urls(sys.argv[1], [parse_target("http://shop.test")])))
"""


def test_crawl_urls_keeps_only_the_lines_of_studied_domains(tmp_path: Path) -> None:
    log = tmp_path / "urls.txt"
    log.write_bytes(
        b"https://other.example/p?id=1\n"
        b"http://shop.test/item?id=1\r"
        b"http://www.shop.test/item?id=2\r\n"
        b"http://shop.test:8080/item?id=3\n"
        b"not a url\n"
        b"http://shop.test/item?id=\xff4"
    )
    found = _read_urls(str(log), [parse_target("http://shop.test")])
    assert found == [
        "http://shop.test/item?id=1",
        "http://www.shop.test/item?id=2",
        "http://shop.test/item?id=%FF4",
    ]


def test_a_line_past_the_bound_is_warned_of_and_the_rest_is_read(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    log = tmp_path / "urls.txt"
    log.write_bytes(b"http://shop.test/?q=" + b"x" * MAX_LINE + b"\nhttp://shop.test/?id=2\n")
    with caplog.at_level(logging.WARNING):
        found = _read_urls(str(log), [parse_target("http://shop.test")])
    assert found == ["http://shop.test/?id=2"]
    assert [r.getMessage() for r in caplog.records] == [
        f"{log}:1: a line longer than {MAX_LINE} bytes"
    ]


def test_an_endless_log_ends_within_a_memory_limit() -> None:
    done = subprocess.run(
        [sys.executable, "-c", LIMITED, "/dev/zero"], capture_output=True, text=True, timeout=120
    )
    assert (done.returncode, done.stdout) == (0, "0\n"), done.stderr
    assert "the rest of the file is not read" in done.stderr


def test_gzip_is_known_by_its_bytes_not_its_name(tmp_path: Path) -> None:
    import gzip

    text = b"http://shop.test/item?id=1\nhttp://shop.test/item?id=2\n"
    packed, plain = tmp_path / "urls.log", tmp_path / "plain.gz"
    packed.write_bytes(gzip.compress(text))
    plain.write_bytes(text)
    targets = [parse_target("http://shop.test")]
    expected = ["http://shop.test/item?id=1", "http://shop.test/item?id=2"]
    assert _read_urls(str(packed), targets) == _read_urls(str(plain), targets) == expected


def test_zstd_data_is_refused_not_read_as_lines(tmp_path: Path) -> None:
    from learner.errors import ConfigError
    from learner.plan.log_lines import text_log_reader
    from tests.samepage.test_cli import ZSTD_URL

    packed = tmp_path / "urls.txt.zst"
    packed.write_bytes(ZSTD_URL)
    targets = [parse_target("http://a.test")]
    with pytest.raises(ConfigError, match="zstd-compressed data"):
        _read_urls(str(packed), targets)
    with pytest.raises(ConfigError, match="zstd-compressed data"):
        text_log_reader([str(packed)])
