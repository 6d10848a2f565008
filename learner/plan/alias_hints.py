"""Spellings a site points to: where its pages ended and the canonical links they declared.

Every sample records, for its original and its candidate, the URL the page ended at (after
redirects and script navigations) and its ``<link rel=canonical>`` (:class:`SampleEvidence`,
in the checkpoint too, so a resumed run reads the same hints). Where one of them is another
spelling on the same host (another path or query, as the normaliser reads them), the page
*points* to it: :func:`spelling_hints` lists those pointers. The alias miner
(:mod:`learner.plan.aliases`) reads them to propose rules the log alone does not and to
choose the key; a hint only proposes, renders prove. A page that pointed to another host
(``example.com`` to ``www.example.com``) is counted by :func:`host_hints`, which chooses
the key of a host alias (:mod:`learner.plan.host_aliases`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Literal
from urllib.parse import urlsplit

from learner.model import PairOutcome
from samepage import InvalidURL, MIQPSNormalizer

__all__ = ["SpellingHint", "host_hints", "spelling_hints"]

HintKind = Literal["redirect", "canonical"]


@dataclass(frozen=True, slots=True)
class SpellingHint:
    """A rendered URL and the spelling on its host its page pointed to, and how."""

    url: str
    target: str
    """The spelling pointed to, as the normaliser reads it (``static_url``)."""
    how: HintKind


def _static(url: str, normalizer: MIQPSNormalizer) -> str | None:
    try:
        return normalizer.static_url(url)
    except (InvalidURL, ValueError):
        return None


def _pointers(
    outcomes: Iterable[PairOutcome], normalizer: MIQPSNormalizer
) -> Iterator[SpellingHint]:
    """Each rendered URL and the other spelling its page pointed to (as ``static_url`` reads)."""
    for outcome in outcomes:
        evidence = outcome.evidence
        pairs: list[tuple[str, str, HintKind]] = []
        if evidence.final_url is not None:
            ended = evidence.final_url
            pairs += [(outcome.original, ended[0], "redirect")]
            pairs += [(outcome.candidate, ended[1], "redirect")]
        if evidence.canonical is not None:
            canonical = evidence.canonical
            pairs += [(outcome.original, canonical[0], "canonical")]
            pairs += [(outcome.candidate, canonical[1], "canonical")]
        for url, pointed, how in pairs:
            if not pointed:
                continue
            asked, target = _static(url, normalizer), _static(pointed, normalizer)
            if asked is not None and target is not None and asked != target:
                yield SpellingHint(asked, target, how)


def spelling_hints(
    outcomes: Iterable[PairOutcome], normalizer: MIQPSNormalizer
) -> list[SpellingHint]:
    """The pointers the samples' renders showed on their own host, each once, in order."""
    found: dict[tuple[str, str, str], SpellingHint] = {}
    for hint in _pointers(outcomes, normalizer):
        if urlsplit(hint.url).netloc == urlsplit(hint.target).netloc:
            found.setdefault((hint.url, hint.target, hint.how), hint)
    return list(found.values())


def host_hints(
    outcomes: Iterable[PairOutcome], normalizer: MIQPSNormalizer
) -> Counter[tuple[str, str]]:
    """Per pair of hosts ``(asked, pointed)``, the pages of one that pointed to the other.

    Each rendered URL counts once per host it pointed to (its redirect and its canonical
    link may both point there); hosts as URLs carry them (``www.example.com``).
    """
    found: set[tuple[str, str]] = set()
    for hint in _pointers(outcomes, normalizer):
        asked, target = urlsplit(hint.url), urlsplit(hint.target)
        if asked.netloc != target.netloc and asked.hostname and target.hostname:
            found.add((hint.url, target.netloc))
    return Counter((urlsplit(url).netloc, host) for url, host in found)
