"""A normalizer pickles (for a process pool) without its caches, and keys alike after."""

from __future__ import annotations

import multiprocessing
import pickle
from concurrent.futures import ProcessPoolExecutor
from typing import Any

import pytest

from samepage import HostAlias, LearnedSet, MIQPSNormalizer, load_learned
from samepage.learned import DomainEntry
from tests.samepage.test_template_scopes import DOC, HOST

URLS = [
    "https://www.google.com/url?q=https://x.test/a?utm_source=a&sid=3",
    "https://Shop.example:443/p/?id=1&utm_campaign=x&fbclid=9#top",
    "https://b.test/?fbclid=1&utm_source=2&x=1",
    "https://a.test/?x=1&y=2&sid=4",
    "https://www.youtube.com/watch?v=abc&si=tracking&t=10",
    f"https://{HOST}/c/1?a=1&b=2",
    f"https://{HOST}/t/items/42?sort=x",
    f"https://www.{HOST}/t/items?sort=x&utm_source=y",
]

OPTIONS: list[dict[str, Any]] = [
    {},
    {"extra_blocklist": ["sid"], "extra_allowlist": {"a.test": ["x"]}},
    {"keep_listed": {"b.test": ["fbclid"]}, "disable_rules": {"utm_*"}},
    {"unwrap_redirects": False, "learned_fallback": "domain"},
    {"learned": load_learned(DOC)},
    {"learned": LearnedSet({HOST: DomainEntry(aliases=(HostAlias(f"www.{HOST}", HOST),))})},
]


@pytest.mark.parametrize("options", OPTIONS)
def test_a_pickled_normalizer_keys_every_url_alike(options: dict[str, Any]) -> None:
    norm = MIQPSNormalizer(**options)
    keys = [norm.normalize(url) for url in URLS]  # the caches filled first
    copy = pickle.loads(pickle.dumps(norm))
    assert [copy.normalize(url) for url in URLS] == keys
    assert copy.learned == norm.learned
    assert copy.conflicts() == norm.conflicts()
    # Built-in rules travel as a reference to the package's rules, not compiled tables.
    if not options:
        assert len(pickle.dumps(norm)) < 2_000


def test_a_process_pool_normalizes_with_a_pickled_normalizer() -> None:
    norm = MIQPSNormalizer(extra_blocklist=["sid"], learned=load_learned(DOC))
    spawn = multiprocessing.get_context("spawn")  # nothing inherited: all of it pickled
    with ProcessPoolExecutor(max_workers=1, mp_context=spawn) as pool:
        keys = list(pool.map(norm.normalize, URLS))
    assert keys == [norm.normalize(url) for url in URLS]
