"""The root and its default document: ``/index.php`` is ``/``, proposed, sampled, proven."""

from __future__ import annotations

import asyncio

from learner.judge.aliases import AliasFinding, check_alias
from learner.model import Cause, Finding, PairOutcome, SampleEvidence
from learner.plan.alias_hints import SpellingHint
from learner.plan.root_documents import root_document_candidates
from samepage import MIQPSNormalizer, PathAlias
from samepage.learned import DomainEntry, LearnedSet

_H = "http://h.test"
_LOG = [
    f"{_H}/",
    f"{_H}/index.php",
    f"{_H}/?lang=de",
    f"{_H}/index.php?lang=de&utm_source=x",
    f"{_H}/about",
    f"{_H}/news/1",
]


def _outcome(original: str, other: str, finding: Finding, cause: Cause) -> PairOutcome:
    return PairOutcome(original, other, finding, cause.value, SampleEvidence(), cause)


def test_both_spellings_in_the_log_propose_the_root_as_the_key() -> None:
    (found,) = root_document_candidates(_LOG, MIQPSNormalizer())
    assert found.rule == PathAlias("/index.php", "/")
    assert found.contexts == ("h.test?", "h.test?lang")
    assert [(s.url, s.spelled) for s in found.samples] == [
        (f"{_H}/index.php", f"{_H}/"),
        (f"{_H}/index.php?lang=de&utm_source=x", f"{_H}/?lang=de"),
    ]
    assert found.most_samples == 2 and found.urls == 2
    # No second value to compare: another page of the host is each sample's control.
    assert found.samples[0].others == (f"{_H}/about", f"{_H}/news/1")


def test_where_the_pages_point_chooses_the_key_and_one_spelling_alone_proposes_nothing() -> None:
    hint = SpellingHint(f"{_H}/", f"{_H}/index.php", "redirect")
    (found,) = root_document_candidates(_LOG, MIQPSNormalizer(), [hint])
    assert found.rule == PathAlias("/", "/index.php") and "led to /index.php" in found.hint
    only_document = [u for u in _LOG if "index.php" in u or "about" in u]
    assert root_document_candidates(only_document, MIQPSNormalizer()) == []
    # ... unless the document pointed to the root.
    hint = SpellingHint(f"{_H}/index.php", f"{_H}/", "canonical")
    (found,) = root_document_candidates(only_document, MIQPSNormalizer(), [hint])
    assert found.rule == PathAlias("/index.php", "/")
    # No other page to control the comparison with: nothing is proposed.
    assert root_document_candidates([f"{_H}/", f"{_H}/index.php"], MIQPSNormalizer()) == []


def test_the_root_rule_is_proven_by_the_samples_the_log_has_and_published() -> None:
    (candidate,) = root_document_candidates(_LOG, MIQPSNormalizer())
    others = {o for s in candidate.samples for o in s.others}

    async def compare(original: str, other: str) -> PairOutcome:
        if other in others:
            return _outcome(original, other, "changed", Cause.CHANGED)
        return _outcome(original, other, "same", Cause.NO_DIFFERENCE)

    verdict = asyncio.run(check_alias(candidate, compare, 3))
    assert verdict.finding is AliasFinding.LEARNED, verdict.reason
    norm = MIQPSNormalizer(learned=LearnedSet({"h.test": DomainEntry(aliases=(verdict.rule,))}))
    assert norm.same(f"{_H}/index.php?lang=de", f"{_H}/?lang=de")
    assert not norm.same(f"{_H}/index.php?lang=de", f"{_H}/?lang=fr")

    async def blind(original: str, other: str) -> PairOutcome:
        return _outcome(original, other, "same", Cause.NO_DIFFERENCE)

    assert asyncio.run(check_alias(candidate, blind, 3)).finding is AliasFinding.UNPROVEN
