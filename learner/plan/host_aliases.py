"""Candidate host aliases of a domain: a host with and without ``www.``, and their samples.

Many sites answer on ``www.example.com`` and ``example.com`` alike, most by a redirect from
one to the other. Where a domain's log holds URLs on both spellings of a host, or the pages
the learner rendered pointed from one to the other (their redirects and canonical links:
:func:`learner.plan.alias_hints.host_hints`), the learner proposes a
:class:`samepage.HostAlias`. Such a hint only proposes; renders prove
(:mod:`learner.judge.aliases`, as for a path alias). The key (``to_host``) is the host the
pages pointed to (none pointing back), else the one the log holds most URLs of (on a tie,
the host without ``www.``).

A host alias rewrites every URL of its host, so its samples cover every *context* of the
host's URLs in the log: each section of the site (the first segment of a path that has more,
``/wiki`` of ``/wiki/Mill``; else the root) with each set of parameter names, one URL each,
then more URLs until :data:`~learner.plan.aliases.MIN_VALUES` distinct ones.
Each sample is the URL as observed against its spelling on ``to_host``; its control, the
``to_host`` spelling of another URL of the same context, must show another page. The
context's other URLs are the spares. Only ``www.`` is proposed: the other hosts of a site
(``m.``, ``en.``, ``shop.``) serve other pages as often as the same ones.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from urllib.parse import urlsplit

from learner.plan.aliases import MIN_VALUES, REPLACEMENTS, AliasCandidate, AliasSample
from samepage import HostAlias, InvalidURL, MIQPSNormalizer, match_alias

__all__ = ["host_alias_candidates"]

_WWW = "www."
_KINDS = {"redirect": "redirect", "canonical": "canonical link"}

_Seen = tuple[str, str, str]
"""An observed URL, its static spelling (as ``static_url`` reads it) and its context."""


def _read(urls: Iterable[str], normalizer: MIQPSNormalizer) -> dict[str, list[_Seen]]:
    """The log's URLs by host as URLs carry it (``host[:port]``), each with its context."""
    by_host: dict[str, list[_Seen]] = {}
    for url in urls:
        try:
            static = normalizer.static_url(url)
            pattern = normalizer.pattern_key(static)
        except (InvalidURL, ValueError):
            continue
        parts = urlsplit(static)
        section = parts.path.split("/")[1] if parts.path.count("/") > 1 else ""
        context = f"/{section}?{pattern}"
        by_host.setdefault(parts.netloc, []).append((url, static, context))
    return by_host


def host_alias_candidates(
    urls: Iterable[str],
    normalizer: MIQPSNormalizer,
    pointed: Counter[tuple[str, str]] | None = None,
) -> list[AliasCandidate]:
    """The host aliases a domain's log and its pages' pointers propose (see the module).

    ``pointed`` counts, per ``(host, other host)``, the rendered pages of one that pointed
    to the other (:func:`~learner.plan.alias_hints.host_hints`). A rule that rewrites none
    of the log's URLs is not proposed.
    """
    pointed = pointed or Counter()
    by_host = _read(urls, normalizer)
    hosts = set(by_host) | {host for pair in pointed for host in pair}
    out = []
    for www in sorted(h for h in hosts if h.startswith(_WWW)):
        bare = www.removeprefix(_WWW)
        if bare not in hosts:
            continue
        keyed = _keyed(www, bare, by_host, pointed)
        if keyed is None:
            continue
        from_, to, why = keyed
        try:
            rule = HostAlias(_name(from_), _name(to))
        except ValueError:  # an IP address, or a name samepage does not read as a host
            continue
        seen = by_host.get(from_, [])
        if not seen:
            continue
        contexts, samples, spares = _samples(rule, seen)
        shared = len({_path(s) for s in seen} & {_path(s) for s in by_host.get(to, [])})
        out.append(
            AliasCandidate(
                rule, why, shared, len(seen), tuple(contexts), tuple(samples), tuple(spares)
            )
        )
    return out


def _name(netloc: str) -> str:
    return urlsplit(f"//{netloc}").hostname or netloc


def _path(seen: _Seen) -> str:
    parts = urlsplit(seen[1])
    return f"{parts.path}?{parts.query}"


def _keyed(
    www: str, bare: str, by_host: dict[str, list[_Seen]], pointed: Counter[tuple[str, str]]
) -> tuple[str, str, str] | None:
    """``(from, to, why)`` of the pair, or ``None`` where neither may be the key.

    The key is the host the pages pointed to, none pointing back; else the one with more
    of the log's URLs; on a tie the bare host.
    """
    to_www, to_bare = pointed[bare, www], pointed[www, bare]
    if to_www and not to_bare:
        from_, to, led = bare, www, to_www
    elif to_bare and not to_www:
        from_, to, led = www, bare, to_bare
    else:
        counts = len(by_host.get(www, [])), len(by_host.get(bare, []))
        from_, to = (bare, www) if counts[0] > counts[1] else (www, bare)
        led = 0
    if _name(from_) == _name(to) or urlsplit(f"//{from_}").port != urlsplit(f"//{to}").port:
        return None
    why = "a host with and without www."
    if led:
        why += f"; pages of {led} URL{'s' if led > 1 else ''} pointed to {to}"
    return from_, to, why


def _samples(
    rule: HostAlias, seen: list[_Seen]
) -> tuple[list[str], list[AliasSample], list[AliasSample]]:
    """The contexts of ``seen``, the samples and the spares (see the module)."""
    found: dict[str, list[AliasSample]] = {}
    for url, static, context in seen:
        match = match_alias(rule, static)
        if match is None:
            continue
        value = _path((url, static, context))
        if all(s.value != value for s in found.get(context, [])):
            found.setdefault(context, []).append(AliasSample(context, value, url, match.url))
    contexts = sorted(found, key=lambda c: (-len(found[c]), c))

    def with_others(sample: AliasSample) -> AliasSample:
        others = tuple(o.spelled for o in found[sample.context] if o.value != sample.value)
        return AliasSample(
            sample.context, sample.value, sample.url, sample.spelled, others[: 1 + REPLACEMENTS]
        )

    left = {c: list(found[c]) for c in contexts}
    chosen: list[AliasSample] = []
    for context in contexts:  # every context once
        chosen.append(left[context].pop(0))
    while len(chosen) < MIN_VALUES and any(left.values()):  # then more URLs
        for context in contexts:
            if left[context] and len(chosen) < MIN_VALUES:
                chosen.append(left[context].pop(0))
    spares = [s for c in contexts for s in left[c]]
    return contexts, [with_others(s) for s in chosen], [with_others(s) for s in spares]
