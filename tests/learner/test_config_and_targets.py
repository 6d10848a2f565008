"""Settings precedence and validation; the domains file."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from learner.config import LearnerConfig, build_config, default_concurrency, read_config_file
from learner.errors import ConfigError
from learner.plan.targets import parse_target, read_targets


def test_defaults_file_then_command_line(tmp_path: Path) -> None:
    toml = tmp_path / "learner.toml"
    toml.write_text(
        "[learner]\nsamples = 5\ndelay_s = 2.5\n[learner.render]\npage_timeout_s = 9.0\n"
    )
    config = build_config(read_config_file(str(toml)), {"samples": 6, "threshold": None})
    assert (config.samples, config.delay_s, config.render.page_timeout_s) == (6, 2.5, 9.0)
    assert config.threshold == LearnerConfig().threshold
    assert config.to_json()["render"]["page_timeout_s"] == 9.0


@pytest.mark.parametrize(
    "values, message",
    [
        ({"samples": 0}, "samples: must be between 1 and 1000"),
        ({"samples": 1001}, "samples: must be between 1 and 1000"),
        ({"top_patterns": 10**9}, "top_patterns: must be between 1 and 1000"),
        ({"concurrency": 100_000}, "concurrency: must be between 1 and 64"),
        ({"min_samples": 9}, "min_samples: must be between 1 and samples"),
        ({"threshold": 1.5}, "threshold: must be in"),
        ({"bogus": 1}, "bogus: unknown setting"),
        ({"render": {"viewport_width": 10}}, "viewport_width: must be at least 200"),
        ({"render": {"nope": 1}}, "render.nope: unknown setting"),
    ],
)
def test_bad_settings_name_the_field(values: dict[str, object], message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        build_config(values, {})


def test_unreadable_config_file(tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text("samples = [")
    with pytest.raises(ConfigError, match=re.escape("bad.toml")):
        read_config_file(str(bad))


@pytest.mark.parametrize(
    "line, key, origin",
    [
        ("example.com", "example.com", "https://example.com"),
        ("WWW.Example.COM.", "www.example.com", "https://www.example.com"),
        ("http://127.0.0.1:8080", "127.0.0.1:8080", "http://127.0.0.1:8080"),
        ("https://shop.example:443/", "shop.example", "https://shop.example"),
        ("bücher.example", "xn--bcher-kva.example", "https://xn--bcher-kva.example"),
    ],
)
def test_targets(line: str, key: str, origin: str) -> None:
    target = parse_target(line, allow_private=True)
    assert (target.key, target.origin) == (key, origin)


def test_target_covers_subdomains_on_label_boundaries_and_its_port_only() -> None:
    target = parse_target("example.com")
    assert target.covers("https://www.example.com/p?id=1")
    assert not target.covers("https://badexample.com/p")
    assert not target.covers("https://example.com:8443/p")
    assert parse_target("http://127.0.0.1:8080", allow_private=True).covers(
        "http://127.0.0.1:8080/x"
    )


def test_domains_file(tmp_path: Path) -> None:
    path = tmp_path / "domains.txt"
    path.write_text("# sites\nexample.com\n\nexample.com  # twice\nhttp://127.0.0.1:9000\n")
    assert [t.key for t in read_targets(path, allow_private=True)] == [
        "example.com",
        "127.0.0.1:9000",
    ]
    path.write_text("example.com\nhttps://example.com/path?x=1\n")
    with pytest.raises(ConfigError, match=r"domains.txt:2: .*without a path"):
        read_targets(path)
    path.write_text("# nothing\n")
    with pytest.raises(ConfigError, match="no domains"):
        read_targets(path)
    with pytest.raises(ConfigError, match=re.escape("missing.txt")):
        read_targets(tmp_path / "missing.txt")


@pytest.mark.parametrize(
    "values, message",
    [
        ({"samples": "8"}, "samples: expected an integer, got '8'"),
        ({"samples": True}, "samples: expected an integer, got True"),
        ({"samples": 8.0}, "samples: expected an integer, got 8.0"),
        ({"delay_s": "1"}, "delay_s: expected a number, got '1'"),
        ({"delay_s": float("inf")}, "delay_s: must be a finite number, not inf"),
        ({"delay_s": 1e9}, "delay_s: must be in"),
        ({"jitter_s": float("nan")}, "jitter_s: must be a finite number"),
        ({"threshold": float("nan")}, "threshold: must be a finite number"),
        ({"domain_timeout_s": float("inf")}, "domain_timeout_s: must be a finite number"),
        ({"render": {"page_timeout_s": float("inf")}}, "page_timeout_s: must be a finite"),
        ({"render": {"page_timeout_s": 1e12}}, "page_timeout_s: must be in"),
        ({"render": {"locale": 5}}, "locale: expected a string, got 5"),
        ({"render": 3}, "render: expected a table of settings"),
    ],
)
def test_config_type_and_range_errors_name_the_field(
    values: dict[str, object], message: str
) -> None:
    with pytest.raises(ConfigError, match=re.escape(message)):
        build_config(values, {})


def test_integers_are_accepted_for_seconds() -> None:
    assert build_config({"delay_s": 2, "render": {"page_timeout_s": 30}}, {}).delay_s == 2


@pytest.mark.parametrize(
    "line, message",
    [
        ("mailto:a@host", "expected a host name or an http(s) origin"),
        ("!!!", "expected a host name or an http(s) origin"),
        ("https://!!!", "'!!!' is not a host name"),
        ("a.example/path", "expected a host name or an http(s) origin"),
        ("http://user:pw@a.example", "no user name or password"),
        ("ftp://a.example", "expected a host name or an http(s) origin"),
        ("a.example:" + "9" * 5000, "out of range"),
        ("http://" + "1" * 5000, "out of range"),
        ("http://[fe80::1%25eth0]", "zone id"),
        # No DNS name has such a label: the fetcher's IDNA codec would raise on it.
        ("a" * 64 + ".example", "a host name label has at most 63 characters"),
        ("http://www." + "b" * 70 + ".example:8080", "a host name label has at most 63"),
    ],
)
def test_odd_domain_lines_are_refused(line: str, message: str) -> None:
    with pytest.raises(ConfigError, match=re.escape(message)) as caught:
        parse_target(line)
    assert len(str(caught.value)) < 300


def test_bad_domain_lines_are_named_by_file_and_line(tmp_path: Path) -> None:
    path = tmp_path / "domains.txt"
    path.write_text("example.com\nmailto:a@host\n")
    with pytest.raises(ConfigError, match=r"domains.txt:2: domain 'mailto:a@host'"):
        read_targets(path)


def test_an_ipv6_origin_covers_its_urls() -> None:
    target = parse_target("http://[::1]:8080", allow_private=True)
    assert (target.key, target.origin, target.host) == ("[::1]:8080", "http://[::1]:8080", "[::1]")
    assert target.covers("http://[::1]:8080/p?id=1")
    assert not target.covers("http://[::2]:8080/p")
    assert not target.covers("http://[::1]/p")
    assert parse_target("[::1]", allow_private=True).covers("https://[::1]/")


@pytest.mark.parametrize(
    "cores, memory_gib, expected",
    [
        (2, 24, 8),  # four per core
        (16, 4, 8),  # one per 512 MB of memory at most
        (64, 1024, 64),  # never past the cap
        (1, 0.25, 1),  # at least one
    ],
)
def test_the_default_concurrency_grows_with_cores_and_memory(
    cores: int, memory_gib: float, expected: int
) -> None:
    assert default_concurrency(cores, int(memory_gib * (1 << 30))) == expected
    assert LearnerConfig().concurrency == default_concurrency()
