"""Host-suffix lookups stay linear in the host's length, however many labels it has."""

from __future__ import annotations

from collections.abc import Iterator, Mapping

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import samepage._hosts as hosts
from samepage import MIQPSNormalizer
from samepage._hosts import KeyTails, host_suffixes, lookup_host
from samepage.learned import LearnedSet
from tests.plugins.properties import examples


class _CountingMapping(Mapping[str, int]):
    """A mapping that counts the characters of every key it is asked for."""

    def __init__(self, data: dict[str, int]) -> None:
        self.data = data
        self.asked = 0

    def __getitem__(self, key: str) -> int:
        self.asked += len(key)
        return self.data[key]

    def get(self, key: str, default: object = None) -> object:  # type: ignore[override]
        self.asked += len(key)
        return self.data.get(key, default)

    def __iter__(self) -> Iterator[str]:
        return iter(self.data)

    def __len__(self) -> int:
        return len(self.data)


def _work(labels: int) -> int:
    table = _CountingMapping({"example.com": 1, "shop.example.com": 2})
    found = lookup_host(table, "a." * labels + "shop.example.com")
    assert found == ("shop.example.com", 2)
    return table.asked


def test_lookup_asks_only_suffixes_no_longer_than_the_longest_key() -> None:
    # Before: every one of the host's suffixes was hashed, 64,000 labels gave 4e9 characters.
    assert _work(64_000) == _work(10)
    assert _work(64_000) <= 3 * len("shop.example.com")


def test_suffixes_bounded_by_length_still_find_every_candidate() -> None:
    host = "x.a.shop.example"
    for longest in range(len(host) + 2):
        bounded = list(host_suffixes(host, longest))
        assert bounded == [s for s in host_suffixes(host) if len(s) <= longest]
    assert list(host_suffixes("10.0.0.1", 3)) == []
    assert list(host_suffixes("[::1]", 5)) == ["[::1]"]


def test_normalize_cost_grows_linearly_with_the_label_count(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Count suffix objects built: 40,000 labels cost no more than 40 do."""
    learned = LearnedSet.from_simple({"shop.example": {"id"}})
    norm = MIQPSNormalizer(learned=learned, extra_allowlist={"example.org": {"q"}})
    built: list[int] = []
    original = hosts.host_suffixes

    def counting(host: str, longest: int | None = None) -> Iterator[str]:
        for suffix in original(host, longest):
            built.append(len(suffix))
            yield suffix

    monkeypatch.setattr(hosts, "host_suffixes", counting)
    for labels in (40, 40_000):
        built.clear()
        key = norm.normalize(f"https://{'a.' * labels}shop.example/p?id=1&x=2")
        assert key.endswith("shop.example/p?id=1")
        assert sum(built) < 2_000, (labels, sum(built))


# Labels from a small alphabet, so that generated hosts and keys often share their tails.
_label = st.text("ab1.", max_size=3)
_name = st.lists(_label, min_size=1, max_size=4).map(".".join)


@settings(max_examples=examples(500), deadline=None)
@given(st.lists(_name, max_size=6), _name)
def test_key_tails_never_hide_a_key_that_covers_the_host(keys: list[str], host: str) -> None:
    table = dict.fromkeys(keys, 1)
    if not KeyTails(keys).may_cover(host):
        assert lookup_host(table, host) is None, (keys, host)


def test_key_tails_let_the_hosts_of_a_key_through_and_turn_others_away() -> None:
    tails = KeyTails(["youtube.com", "amazon.co.uk", "localhost", "10.0.0.1"])
    assert [tails.may_cover(h) for h in ("youtube.com", "a.b.youtube.com", "amazon.co.uk")] == [
        True,
        True,
        True,
    ]
    assert tails.may_cover("localhost") and tails.may_cover("10.0.0.1")
    assert not tails.may_cover("example.com")
    assert not tails.may_cover("notyoutube.org")
    # The same tail is only a "maybe": the lookup that follows decides.
    assert tails.may_cover("shop.co.uk")
    assert not KeyTails([]).may_cover("example.com")
