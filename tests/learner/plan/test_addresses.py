"""The address policy: every spelling of a forbidden address is refused, private ones on request."""

from __future__ import annotations

import ipaddress
import socket

import pytest

from learner.config import build_config
from learner.errors import AddressRefused, ConfigError, Reach
from learner.net.resolve import parse_resolve
from learner.plan.addresses import AddressPolicy, host_address, reach_of
from learner.plan.targets import parse_target

FORBIDDEN_HOSTS = [
    "169.254.169.254",
    "2852039166",  # decimal
    "0xa9.0xfe.0xa9.0xfe",  # hex, dotted
    "0251.0376.0251.0376",  # octal, dotted
    "0xa9fea9fe",  # one hex number
    "169.254.43518",  # two parts, the last one 16 bits
    "\uff11\uff16\uff19.\uff12\uff15\uff14.\uff11\uff16\uff19.\uff12\uff15\uff14",  # full width
    "169.254.169.254.",  # trailing dot
    "[::ffff:169.254.169.254]",  # IPv4-mapped
    "[::ffff:a9fe:a9fe]",
    "[64:ff9b::a9fe:a9fe]",  # NAT64
    "[2002:a9fe:a9fe::]",  # 6to4
    "[::a9fe:a9fe]",  # IPv4-compatible
    "[fd00:ec2::254]",
    "[FD00:EC2:0::254]",
    "100.100.100.200",
    "[fe80::1]",
    "0.0.0.0",
    "0",
    "[::]",
    "224.0.0.1",
    "255.255.255.255",
    "metadata.google.internal",
    "Metadata.Google.Internal.",
    "metadata",
]
PRIVATE_HOSTS = [
    "10.0.0.1",
    "172.16.0.1",
    "192.168.1.1",
    "127.0.0.1",
    "127.1",
    "0x7f000001",
    "2130706433",
    "100.64.0.1",  # shared address space (CGNAT)
    "[::1]",
    "[fc00::1]",
    "[fd12:3456::1]",
    "[::ffff:10.0.0.1]",
]


@pytest.mark.parametrize("host", FORBIDDEN_HOSTS)
def test_every_spelling_of_a_forbidden_host_is_refused_in_the_domains_file(host: str) -> None:
    for line in (host, f"http://{host}", f"https://{host}:8443"):
        with pytest.raises(ConfigError, match="never studied"):
            parse_target(line, allow_private=True)


@pytest.mark.parametrize("host", PRIVATE_HOSTS)
def test_a_private_host_is_studied_only_when_allowed(host: str) -> None:
    with pytest.raises(ConfigError, match="--allow-private") as refused:
        parse_target(f"http://{host}")
    assert "--resolve" in str(refused.value)
    assert parse_target(f"http://{host}", allow_private=True).host


@pytest.mark.parametrize("line", ["https://a.example:0", "a.example:0", "http://[::1]:0"])
def test_port_zero_is_refused(line: str) -> None:
    with pytest.raises(ConfigError, match="port must be a number from 1 to 65535"):
        parse_target(line, allow_private=True)


def test_public_hosts_and_names_pass_the_domains_file() -> None:
    for line in ("example.com", "http://93.184.216.34", "https://[2606:4700::1111]"):
        assert parse_target(line).key


@pytest.mark.parametrize(
    "address, reach",
    [
        ("169.254.169.254", Reach.FORBIDDEN),
        ("fe80::1%eth0", Reach.FORBIDDEN),
        ("::ffff:a9fe:a9fe", Reach.FORBIDDEN),
        ("168.63.129.16", Reach.FORBIDDEN),
        ("10.0.0.1", Reach.PRIVATE),
        ("::ffff:127.0.0.1", Reach.PRIVATE),
        ("64:ff9b::a00:1", Reach.PRIVATE),
        ("1.1.1.1", Reach.PUBLIC),
        ("::ffff:1.1.1.1", Reach.PUBLIC),
        ("2606:4700::1111", Reach.PUBLIC),
    ],
)
def test_reach_of_an_address(address: str, reach: Reach) -> None:
    assert reach_of(ipaddress.ip_address(address)) is reach


def test_a_host_is_read_as_a_browser_reads_it() -> None:
    assert host_address("2852039166") == ipaddress.ip_address("169.254.169.254")
    assert host_address("::1") == host_address("[::1]") == ipaddress.ip_address("::1")
    assert host_address("shop.example") is None
    with pytest.raises(ValueError, match="out of range"):
        host_address("999.1.1.1")


def test_an_address_named_by_resolve_may_be_reached_at_that_port_only() -> None:
    policy = AddressPolicy.of(parse_resolve({"shop.test": "127.0.0.1:8080"}))
    assert policy.host_refusal("127.0.0.1", 8080) is None
    refusal = policy.host_refusal("127.0.0.1", 6379)
    assert refusal is not None and refusal.reach is Reach.PRIVATE
    assert policy.host_refusal("169.254.169.254", 80, named=True) is not None


def test_a_name_is_judged_by_every_address_it_resolves_to(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    answers = [("93.184.216.34", 80), ("169.254.169.254", 80)]
    infos = [(socket.AF_INET, socket.SOCK_STREAM, 6, "", answer) for answer in answers]
    monkeypatch.setattr(socket, "getaddrinfo", lambda *args, **kwargs: infos)
    with pytest.raises(AddressRefused) as refused:
        AddressPolicy().addresses("http://two.example/", "two.example", 80)
    assert refused.value.reach is Reach.FORBIDDEN
    assert not refused.value.transient


@pytest.mark.parametrize(
    "target",
    [
        "169.254.169.254:80",
        "2852039166:80",
        "0xa9.0xfe.0xa9.0xfe:80",
        "[fd00:ec2::254]:80",
        "[::ffff:169.254.169.254]:80",
        "metadata.google.internal:80",
        "0.0.0.0:80",
    ],
)
def test_resolve_refuses_a_forbidden_address(target: str) -> None:
    with pytest.raises(ConfigError, match="never studied"):
        parse_resolve({"shop.test": target})


def test_resolve_reads_an_address_as_a_browser_does() -> None:
    assert parse_resolve({"shop.test": "0x7f.1:8080"}) == {"shop.test": ("127.0.0.1", 8080)}


def test_allow_private_is_a_setting_of_the_config_file() -> None:
    assert build_config({"allow_private": True}, {}).allow_private is True
    assert build_config({}, {}).allow_private is False
    with pytest.raises(ConfigError, match="allow_private: expected true or false"):
        build_config({"allow_private": "yes"}, {})
