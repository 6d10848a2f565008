"""``normalize`` and ``explain`` make one decision per parameter, though by two passes.

The normalizer's filter (``MIQPSNormalizer._filter``) is the hot path: it inlines the first
pass and the conflict rule that ``explain`` runs from ``_policy.first_pass`` and
``_policy.conflict``. Over generated learned sets (defaults, joint defaults, template
scopes, shared evidence, listed names kept, aliases: conflicts among them) and the
normalizer's options, the parameters ``explain`` keeps are exactly the key's.
"""

from __future__ import annotations

import random
from itertools import combinations
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from samepage import MIQPSNormalizer
from samepage.urls import query_params
from tests.plugins.properties import examples
from tests.samepage.test_learned_properties import (
    _ALIAS_HOSTS,
    _ALIAS_PATHS,
    _NAMES,
    _VALUES,
    _aliased,
    _pattern,
    _scopes,
    _set,
)

_BARE = "#bare"  # the value query_params gives a bare name: no value can be it

_KEPT_LISTED = {"ref": {"tested": 2, "changed": 2, "overrules": ["ambiguous:ref"]}}


@st.composite
def _lattice(draw: st.DrawFn) -> dict[str, Any]:
    """A learned set of s.example: patterns of a few names, most of their subsets, each name
    with a verdict (many defaults, template scopes, shared evidence): conflicts abound."""
    names = draw(st.lists(st.sampled_from(_NAMES), unique=True, min_size=2, max_size=3))
    subsets = ["&".join(sorted(c)) for size in range(4) for c in combinations(names, size)]
    keys = [key for key in subsets if draw(st.integers(0, 3))]
    doc = _set({key: draw(_pattern(key.split("&") if key else [], every=True)) for key in keys})
    shared = draw(_scopes(names))
    if shared:
        doc["domains"]["s.example"]["shared"] = shared
    return doc


@st.composite
def _document(draw: st.DrawFn) -> dict[str, Any]:
    """A lattice (aliases or not), its copy on a port, listed names kept."""
    doc: dict[str, Any] = draw(st.one_of(_lattice(), _aliased(_lattice())))
    entry = doc["domains"]["s.example"]
    if draw(st.booleans()):
        entry["keep_listed"] = _KEPT_LISTED
    if draw(st.booleans()):  # the same verdicts on one port only, without the aliases
        doc["domains"]["s.example:8080"] = {k: v for k, v in entry.items() if k != "aliases"}
    return doc


_options: st.SearchStrategy[dict[str, Any]] = st.one_of(
    st.just({}),
    st.fixed_dictionaries(
        {},
        optional={
            "learned_fallback": st.sampled_from(["shared", "keep", "domain"]),
            "keep_listed": st.just({"s.example": ["utm_source"]}),
            "disable_rules": st.just(["ref"]),
            "extra_blocklist": st.just(["c*"]),
            "extra_allowlist": st.sampled_from([["a"], {"s.example:8080": ["b"]}]),
        },
    ),
)

_HOSTS = (*_ALIAS_HOSTS, "s.example:8080", "other.example")
_NAMED = (*_NAMES, "utm_source", "A")
_SPELLINGS = (*_VALUES, None)  # None: a bare name


def _urls(doc: dict[str, Any], rng: random.Random, count: int) -> list[str]:
    """URLs of the hosts and paths of the generated sets, most with the names of a pattern
    (where conflicts are), at any values, some with a name repeated or one more name."""
    # A pattern that loses a parameter may turn into another: only patterns with names.
    patterns = sorted(filter(None, doc["domains"]["s.example"]["patterns"]))
    urls = []
    for _ in range(count):
        if patterns and rng.random() < 0.75:
            names = rng.choice(patterns).split("&") + rng.sample(_NAMED, rng.randint(0, 1))
        else:
            names = rng.choices(_NAMED, k=rng.randint(0, 5))
        rng.shuffle(names)
        spelled = [(name, rng.choice(_SPELLINGS)) for name in names]
        query = "&".join(name if value is None else f"{name}={value}" for name, value in spelled)
        urls.append(f"https://{rng.choice(_HOSTS)}{rng.choice(_ALIAS_PATHS)}?{query}")
    return urls


@settings(max_examples=examples(160), deadline=None)
@given(_document(), _options, st.randoms(use_true_random=False))
def test_explain_keeps_exactly_the_parameters_of_the_key(
    doc: dict[str, Any], options: dict[str, Any], rng: random.Random
) -> None:
    norm = MIQPSNormalizer(learned=doc, **options)
    for url in _urls(doc, rng, 12):
        key = norm.normalize(url)
        trace = norm.explain(url)
        assert trace.result == key
        # The URL explain decided on: after its rewrites (the aliases, the key's path).
        decided_on = trace.rewrites[-1].after if trace.rewrites else url
        params = query_params(decided_on, bare=_BARE)
        assert [name for name, _ in params] == [p.name for p in trace.params], (url, decided_on)
        kept = sorted(pair for pair, p in zip(params, trace.params, strict=True) if p.kept)
        assert kept == sorted(query_params(key, bare=_BARE)), (url, key)
        assert key.partition("?")[0] == decided_on.partition("?")[0], (url, key)
