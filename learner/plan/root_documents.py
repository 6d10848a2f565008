"""Candidate aliases of a site's root and its default document: ``/index.php`` is ``/``.

Many servers answer the root under its default document too (``/index.php``,
``/index.html``, ``/default.aspx``: :data:`~learner.plan.aliases.DEFAULT_DOCUMENTS`).
Where a host's log holds both spellings, or a page of one pointed to the other (a redirect
or canonical link: :mod:`learner.plan.alias_hints`), the learner proposes the exact pair
(a :class:`samepage.PathAlias` without a placeholder; other parameters are carried). The
key is ``/``, the spelling every server of a site answers, unless the pages pointed to the
document (and none back).

An exact pair rewrites only the root's URLs, so its samples are those the log holds: one
per context (host and the carried parameter names), then more until
:data:`~learner.plan.aliases.MIN_VALUES` distinct URLs where the log has them, each
against its other spelling. The rule needs no more samples than that
(:attr:`~learner.plan.aliases.AliasCandidate.most_samples`). With no second value to
compare, a sample's control is another page of the host from the log (``/about`` against
``/index.php`` must differ): a comparison blind to the site's pages (a login wall) would
find them the same.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable
from urllib.parse import urlsplit

from learner.plan.alias_hints import SpellingHint
from learner.plan.aliases import (
    DEFAULT_DOCUMENTS,
    MIN_VALUES,
    REPLACEMENTS,
    AliasCandidate,
    AliasSample,
)
from samepage import InvalidURL, MIQPSNormalizer, PathAlias, match_alias

__all__ = ["root_document_candidates"]

_ROOT = "/"


def _statics(urls: Iterable[str], normalizer: MIQPSNormalizer) -> dict[str, list[tuple[str, str]]]:
    """The log's URLs by host (``host[:port]``): each as observed, and its static spelling."""
    by_host: dict[str, list[tuple[str, str]]] = {}
    for url in urls:
        try:
            static = normalizer.static_url(url)
        except (InvalidURL, ValueError):
            continue
        by_host.setdefault(urlsplit(static).netloc, []).append((url, static))
    return by_host


def root_document_candidates(
    urls: Iterable[str], normalizer: MIQPSNormalizer, hints: Iterable[SpellingHint] = ()
) -> list[AliasCandidate]:
    """The root's default documents a domain's log and hints propose (see the module)."""
    hints = list(hints)
    out = []
    for host, seen in sorted(_statics(urls, normalizer).items()):
        paths = Counter(urlsplit(static).path for _, static in seen)
        pointed = _pointed(host, hints)
        for document in (f"/{d}" for d in sorted(DEFAULT_DOCUMENTS)):
            if not _both(document, paths, pointed):
                continue
            to_document = pointed[_ROOT].get(document, 0)
            to_root = pointed[document].get(_ROOT, 0)
            if to_document and not to_root:
                rule, led = PathAlias(_ROOT, document), to_document
            else:
                rule, led = PathAlias(document, _ROOT), to_root
            candidate = _candidate(rule, seen, led)
            if candidate is not None:
                out.append(candidate)
    return out


def _pointed(host: str, hints: list[SpellingHint]) -> defaultdict[str, Counter[str]]:
    """Per path of ``host``, the paths of the same host its pages pointed to, counted."""
    found: defaultdict[str, Counter[str]] = defaultdict(Counter)
    for hint in hints:
        asked, target = urlsplit(hint.url), urlsplit(hint.target)
        if asked.netloc == host == target.netloc and asked.query == target.query:
            found[asked.path][target.path] += 1
    return found


def _both(document: str, paths: Counter[str], pointed: defaultdict[str, Counter[str]]) -> bool:
    """Whether both spellings are known: in the log, or one pointed to from the other."""
    logged = paths[document] and paths[_ROOT]
    return bool(logged or pointed[document].get(_ROOT) or pointed[_ROOT].get(document))


def _candidate(rule: PathAlias, seen: list[tuple[str, str]], led: int) -> AliasCandidate | None:
    found: dict[str, list[AliasSample]] = {}
    others: list[str] = []
    urls = 0
    for url, static in seen:
        path = urlsplit(static).path
        match = match_alias(rule, static)
        if match is None:
            if path not in (rule.from_, rule.to) and static not in others:
                others.append(static)
            continue
        urls += 1
        query = urlsplit(static).query
        names = "&".join(sorted({p.partition("=")[0] for p in query.split("&") if p}))
        context = f"{urlsplit(static).netloc}?{names}"
        if all(s.spelled != match.url for s in found.get(context, [])):
            found.setdefault(context, []).append(AliasSample(context, static, url, match.url))
    if not found or not others:
        return None  # nothing rewritten, or no other page to control the comparison with
    controls = tuple(others[: 1 + REPLACEMENTS])
    contexts = sorted(found, key=lambda c: (-len(found[c]), c))
    left = {c: list(found[c]) for c in contexts}
    chosen = [left[c].pop(0) for c in contexts]
    while len(chosen) < MIN_VALUES and any(left.values()):
        for context in contexts:
            if left[context] and len(chosen) < MIN_VALUES:
                chosen.append(left[context].pop(0))
    spares = [s for c in contexts for s in left[c]]

    def controlled(sample: AliasSample) -> AliasSample:
        return AliasSample(sample.context, sample.value, sample.url, sample.spelled, controls)

    why = f"{rule.from_ if rule.from_ != _ROOT else rule.to} is the default document of the root"
    if led:
        why += f"; {led} page{'s' if led > 1 else ''} led to {rule.to}"
    return AliasCandidate(
        rule,
        why,
        0,
        urls,
        tuple(contexts),
        tuple(controlled(s) for s in chosen),
        tuple(controlled(s) for s in spares),
        most_samples=len(chosen),
    )
