"""A host with and without ``www.``: the candidate, its key, its samples and its controls."""

from __future__ import annotations

import asyncio
from collections import Counter

from learner.judge.aliases import AliasFinding, check_alias
from learner.model import Cause, Finding, PairOutcome, SampleEvidence
from learner.plan.host_aliases import host_alias_candidates
from samepage import HostAlias, MIQPSNormalizer
from samepage.learned import DomainEntry, LearnedSet

_LOG = [
    *(f"http://x.test/wiki/{t}" for t in ("Mill", "Harbour", "Tower", "Lake")),
    "http://x.test/find?q=mill",
    *(f"http://www.x.test/wiki/{t}?utm_source=a" for t in ("Mill", "Quarry")),
    "http://www.x.test/wiki/Lake",
    "http://www.x.test/find?q=lake",
    "http://www.x.test/find?page=2&q=lake",
]


def test_both_hosts_in_the_log_propose_the_commoner_as_the_key() -> None:
    (found,) = host_alias_candidates(_LOG, MIQPSNormalizer())
    assert found.rule == HostAlias("www.x.test", "x.test")
    assert found.ends == ("www.x.test", "x.test")
    assert found.urls == 5 and found.shared == 2  # /wiki/Mill and /wiki/Lake on both
    # Every section of the rewritten host, with each set of names, is a context, each sampled.
    assert found.contexts == ("/wiki?", "/?page&q", "/?q")
    assert {s.context for s in found.samples} == set(found.contexts)
    first = found.samples[0]
    assert first.url == "http://www.x.test/wiki/Mill?utm_source=a"
    assert first.spelled == "http://x.test/wiki/Mill"
    # The control is another page of the same kind, on the key's host.
    assert first.others[0] in ("http://x.test/wiki/Quarry", "http://x.test/wiki/Lake")


def test_pages_that_point_to_a_host_make_it_the_key() -> None:
    pointed = Counter({("x.test", "www.x.test"): 3})
    (found,) = host_alias_candidates(_LOG, MIQPSNormalizer(), pointed)
    assert found.rule == HostAlias("x.test", "www.x.test")
    assert "pages of 3 URLs pointed to www.x.test" in found.hint
    # Pointers both ways say nothing: the log's commoner host is the key.
    pointed[("www.x.test", "x.test")] = 1
    (found,) = host_alias_candidates(_LOG, MIQPSNormalizer(), pointed)
    assert found.rule == HostAlias("www.x.test", "x.test")
    # A log only on www.x.test whose pages led to x.test proposes the rule too.
    www_only = [u for u in _LOG if "//www." in u]
    pointed = Counter({("www.x.test", "x.test"): 2})
    (found,) = host_alias_candidates(www_only, MIQPSNormalizer(), pointed)
    assert found.rule == HostAlias("www.x.test", "x.test") and found.urls == 5


def test_other_hosts_and_ports_propose_nothing() -> None:
    log = [
        "http://m.x.test/wiki/Mill",
        "http://x.test/wiki/Mill",
        "http://www.y.test:8080/a",
        "http://y.test/a",
        "http://www.z.test/a",
    ]
    assert host_alias_candidates(log, MIQPSNormalizer()) == []


def test_a_host_alias_is_proven_and_published_like_a_path_alias() -> None:
    (candidate,) = host_alias_candidates(_LOG, MIQPSNormalizer())
    controls = {(s.url, o) for s in (*candidate.samples, *candidate.spares) for o in s.others}

    async def compare(original: str, other: str) -> PairOutcome:
        finding: Finding
        finding, cause = (
            ("changed", Cause.CHANGED)
            if (original, other) in controls
            else ("same", Cause.NO_DIFFERENCE)
        )
        return PairOutcome(original, other, finding, cause.value, SampleEvidence(), cause)

    verdict = asyncio.run(check_alias(candidate, compare, 3))
    assert verdict.finding is AliasFinding.LEARNED, verdict.reason
    assert verdict.to_json()["from"] == "www.x.test" and verdict.to_json()["to"] == "x.test"
    rule = verdict.rule
    assert isinstance(rule, HostAlias) and rule.evidence["samples"] == len(candidate.samples)
    learned = LearnedSet({"x.test": DomainEntry(aliases=(rule,))})
    norm = MIQPSNormalizer(learned=learned)
    assert norm.same("http://www.x.test/wiki/Mill", "http://x.test/wiki/Mill")
    assert not norm.same("http://www.x.test/wiki/Mill", "http://x.test/wiki/Lake")
