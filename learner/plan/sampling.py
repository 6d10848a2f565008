"""MIQPS sampling: group a site's URLs by pattern, read and edit URLs.

The learner renders URLs as they were observed, and the observed URL without a parameter:
never the normalized key, which may not be a URL the server answers as it is (a route that
ends in ``/`` redirects the slash-less key). Only a URL the normalizer rewrites to another
host (a redirect wrapper, a host alias) is rendered as the URL it stands for. Parameter
names are matched as the normalizer reads them (``samepage.pattern_key``), so ``%69d=1`` is
the parameter ``id``.
"""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from urllib.parse import urlsplit

from samepage import InvalidURL, MIQPSNormalizer, path_template, query_params, url_host
from samepage.urls import pattern_names

logger = logging.getLogger(__name__)

__all__ = [
    "BARE",
    "MAX_ALIAS_URLS",
    "MAX_GROUP_URLS",
    "Context",
    "PatternGroup",
    "Value",
    "alias_sample",
    "alias_sample_partial",
    "context_of",
    "context_value",
    "edit_observed",
    "group_by_pattern",
    "keep_only",
    "make_group",
    "param_name",
    "param_values",
    "read_piece",
    "sample_seed",
    "template_of",
    "template_urls",
    "with_value",
    "without_param",
]

MAX_GROUP_URLS = 1000
"""The most distinct URLs a pattern keeps for sampling (a uniform, order-free choice)."""
MAX_ALIAS_URLS = 10_000
"""The most distinct URLs of a domain whose alias study a plan holds (the same choice). A
plan keeps one more for a domain that has more: that domain's list is a sample, not its log,
and its study is skipped (an alias must be proven in every context of the log)."""

Value = tuple[str, ...]
"""A parameter's value in one URL, spelled as in the normalised URL (several if repeated)."""

BARE = "#bare"
"""The value of a bare name (``flag``, without ``=``), as the learner reads it.

``flag`` and ``flag=`` are different URLs (the key keeps both), so samples of one are no
evidence about the other: ``""`` is the value of ``flag=`` only. No query value holds
``#``, so no value is spelled so. A learned default never names it (docs/learned-format.md):
the learner does not test a bare name as a default, and the normalizer keeps it.
"""

Context = tuple[str, tuple[tuple[str, ...], ...]]
"""Where a parameter is tested: the URL's path and the values of its other parameters."""


@dataclass(frozen=True, slots=True)
class PatternGroup:
    """The URLs of one site that share a pattern.

    Attributes:
        pattern: the pattern key (``samepage.pattern_key``).
        urls: distinct observed URLs (one per blocklist-normalised form), first seen first.
        count: how many observed URLs had this pattern, duplicates included.
        statics: each URL normalised with only the blocklist applied
            (``MIQPSNormalizer.static_url``), in the order of ``urls``; values and paths are
            read from these. Defaults to ``urls`` themselves.
    """

    pattern: str
    urls: tuple[str, ...]
    count: int
    statics: tuple[str, ...] = field(default=())

    def __post_init__(self) -> None:
        if not self.statics:
            object.__setattr__(self, "statics", self.urls)
        if len(self.statics) != len(self.urls):
            raise ValueError("statics must match urls one for one")

    @property
    def names(self) -> list[str]:
        """The parameter names of the pattern."""
        return pattern_names(self.pattern)

    def static_of(self, url: str) -> str:
        """The blocklist-normalised form of one of the group's URLs."""
        return self.statics[self.urls.index(url)]


def group_by_pattern(urls: Iterable[str], normalizer: MIQPSNormalizer) -> dict[str, PatternGroup]:
    """Group URLs by pattern key; URLs without parameters and invalid lines are skipped.

    The groups do not depend on the order of ``urls`` (see :func:`make_group`), so a plan
    read from sharded logs in any order (:mod:`learner.plan.logs`) gives the very same groups.
    """
    seen: dict[str, dict[str, str]] = {}
    counts: dict[str, int] = {}
    for url in urls:
        parts = url_parts(url, normalizer)
        if parts is None or not parts[0]:
            continue
        pattern, static, shown = parts
        by_static = seen.setdefault(pattern, {})
        earlier = by_static.get(static)
        by_static[static] = shown if earlier is None else min(earlier, shown)
        counts[pattern] = counts.get(pattern, 0) + 1
    return {p: make_group(p, counts[p], by_static.items()) for p, by_static in seen.items()}


def url_parts(url: str, normalizer: MIQPSNormalizer) -> tuple[str, str, str] | None:
    """``(pattern, static, shown)`` of an observed URL, or None if it is not a URL.

    ``static`` is the URL with only the blocklist applied; ``shown`` is what gets rendered:
    the URL as observed, or, for a redirect wrapper or a host alias, the URL it stands for.
    The pattern is ``""`` for a URL without parameters.
    """
    try:
        pattern = normalizer.pattern_key(url)
        static = normalizer.static_url(url)
    except InvalidURL as exc:
        logger.debug("skipping %s", exc)
        return None
    return pattern, static, url if _host(url) == _host(static) else static


def make_group(pattern: str, count: int, pairs: Iterable[tuple[str, str]]) -> PatternGroup:
    """The group of one pattern from its distinct ``(static, shown)`` pairs.

    At most :data:`MAX_GROUP_URLS` pairs are kept: those whose statics have the smallest MD5
    digests, a uniform choice that needs no order and no seed (DuckDB computes the same one
    in SQL). They are ordered by static URL. Applying it to its own output changes nothing.
    """
    kept = _smallest_digests(pairs, MAX_GROUP_URLS)
    return PatternGroup(pattern, tuple(s for _, s in kept), count, tuple(s for s, _ in kept))


def alias_sample(pairs: Iterable[tuple[str, str]]) -> tuple[str, ...]:
    """The URLs of a domain a plan keeps for its alias study, from distinct ``(static, shown)``.

    The choice of :func:`make_group`, bounded by :data:`MAX_ALIAS_URLS` plus one: the shown
    URLs of the statics with the smallest MD5 digests, ordered by static. URLs without
    parameters are kept as any other (the miner pairs ``/wiki/Mill`` with
    ``/w/index.php?title=Mill``). More than the bound (:func:`alias_sample_partial`) says
    the domain had more: a sample.
    """
    return tuple(shown for _, shown in _smallest_digests(pairs, MAX_ALIAS_URLS + 1))


def alias_sample_partial(urls: Sequence[str]) -> bool:
    """Whether a plan's alias URLs are a sample of the domain's, not all of them."""
    return len(urls) > MAX_ALIAS_URLS


def _smallest_digests(pairs: Iterable[tuple[str, str]], bound: int) -> list[tuple[str, str]]:
    """At most ``bound`` pairs, those whose statics have the smallest digests, by static."""
    kept = sorted(pairs, key=lambda pair: (_digest(pair[0]), pair[0]))[:bound]
    kept.sort()
    return kept


def _digest(static: str) -> str:
    return hashlib.md5(static.encode("utf-8", "surrogatepass"), usedforsecurity=False).hexdigest()


def sample_seed(seed: int, domain: str, pattern: str) -> str:
    """The seed of one pattern's sample choice: the run seed with the site and the pattern."""
    return f"{seed}:{domain}:{pattern}"


def _host(url: str) -> str:
    try:
        return url_host(url)
    except InvalidURL:
        return ""


def param_values(url: str, name: str) -> Value:
    """Every value of ``name`` in a normalised URL, in order (read by samepage).

    >>> param_values("https://s.example/l?flag&flag=&flag=1", "flag")
    ('#bare', '', '1')
    """
    return tuple(value for n, value in query_params(url, bare=BARE) if n == name)


def context_of(static: str, name: str) -> Context:
    """The path of a normalised URL and the values of its parameters other than ``name``.

    >>> context_of("https://s.example/list?page=2&q=oak&size=10", "page")
    ('/list', (('q', 'oak'), ('size', '10')))
    """
    companions: dict[str, list[str]] = {}
    for other, value in query_params(static, bare=BARE):
        if other != name:
            companions.setdefault(other, []).append(value)
    path = urlsplit(static).path
    return path, tuple((n, *values) for n, values in sorted(companions.items()))


def context_value(context: Context, name: str) -> Value:
    """The value of ``name`` in a context (``()`` if it has none).

    >>> context_value(("/list", (("q", "oak"), ("size", "10"))), "size")
    ('10',)
    """
    for other, *values in context[1]:
        if other == name:
            return tuple(values)
    return ()


def template_of(static: str) -> str:
    """The path template of a normalised URL (:func:`samepage.path_template` of its path).

    >>> template_of("https://s.example/data/products/42?_sort=name")
    '/data/products/{id}'
    """
    return path_template(urlsplit(static).path)


def template_urls(group: PatternGroup) -> dict[str, int]:
    """How many of the group's distinct URLs each path template holds, most first.

    Ties are ordered by template, so the order is the same in every run.
    """
    counts: dict[str, int] = {}
    for static in group.statics:
        template = template_of(static)
        counts[template] = counts.get(template, 0) + 1
    return dict(sorted(counts.items(), key=lambda item: (-item[1], item[0])))


_PIECE_BASE = "http://samepage.invalid/?"
"""Any http URL: a query piece appended to it is read by :func:`samepage.query_params`."""


def read_piece(piece: str) -> tuple[str, str]:
    """One query piece (``name=value``) as :func:`samepage.query_params` reads it.

    The one reading of a parameter's name for sampling, default values and archive
    evidence, so ``%61=1`` and ``a=1`` are one parameter everywhere; a bare name has the
    value :data:`BARE`, so ``a`` and ``a=`` are two values. An empty piece, or one samepage
    cannot read, reads as ``("", "")`` (it is never a parameter studied).

    >>> read_piece("%61=1"), read_piece("a"), read_piece("a="), read_piece("")
    (('a', '1'), ('a', '#bare'), ('a', ''), ('', ''))
    """
    try:
        found = query_params(_PIECE_BASE + piece, bare=BARE)
    except InvalidURL:
        return "", ""
    return found[0] if found else ("", "")


def param_name(piece: str) -> str:
    """The name of one query piece, as :func:`read_piece` reads it."""
    return read_piece(piece)[0]


def _observed_pieces(url: str) -> tuple[str, str, list[tuple[str, str]], str]:
    """``url`` as observed: its base, ``?`` (or ""), its query pieces and ``#fragment``.

    Each piece comes with its name (:func:`param_name`), so that a URL can be rebuilt with
    every other piece spelled as it was observed.
    """
    head, hash_, fragment = url.partition("#")
    base, mark, query = head.partition("?")
    pieces = [(param_name(p) if p else "", p) for p in query.split("&")]
    return base, mark, pieces, hash_ + fragment


def edit_observed(
    url: str, *, drop: Iterable[str] = (), values: Mapping[str, str] | None = None
) -> str:
    """An observed URL with the parameters named in ``drop`` removed, or given ``values``.

    The one editor of observed URLs: names are read as the normaliser reads them
    (:func:`param_name`); everything else stays as observed: order, spelling, other
    parameters, the fragment. A value is spelled as in a normalised URL; :data:`BARE`
    writes the bare name and ``""`` the name with ``=``; a name given a value that the URL
    lacks is added at the end of its query. A URL that loses parameters loses the empty
    pieces around them too (and its ``?`` with the last one).

    >>> edit_observed("https://s.example/p/?b=2&%61=1&c=3#top", values={"a": "en"})
    'https://s.example/p/?b=2&%61=en&c=3#top'
    >>> edit_observed("https://s.example/p/?b=2&%61=1&c=3#top", drop=["a", "b"])
    'https://s.example/p/?c=3#top'
    >>> edit_observed("https://s.example/p?a&b", values={"a": "", "b": BARE})
    'https://s.example/p?a=&b'
    >>> edit_observed("https://s.example/p#top", values={"a": "en"})
    'https://s.example/p?a=en#top'
    """
    names, given = set(drop), values or {}
    base, mark, pieces, fragment = _observed_pieces(url)
    added = [(n, _spelled(n, v)) for n, v in given.items() if n not in {n for n, _ in pieces}]
    if not mark:
        if not added:
            return url
        mark, pieces = "?", []
    edited = [
        _spelled(p.partition("=")[0], given[n]) if p and n in given else p
        for n, p in [*pieces, *added]
        if not p or n not in names
    ]
    if not names:
        return f"{base}{mark}{'&'.join(edited)}{fragment}"
    rest = "&".join(edited).strip("&")
    return f"{base}?{rest}{fragment}" if rest else f"{base}{fragment}"


def _spelled(name: str, value: str) -> str:
    """The query piece of ``name`` (as observed) with ``value`` (:data:`BARE`: no ``=``)."""
    return name if value == BARE else f"{name}={value}"


def with_value(url: str, name: str, value: str) -> str:
    """An observed URL with the value of parameter ``name`` replaced by ``value``.

    >>> with_value("https://s.example/p/?b=2&%61=1&c=3#top", "a", "en")
    'https://s.example/p/?b=2&%61=en&c=3#top'
    """
    return edit_observed(url, values={name: value})


def without_param(url: str, name: str) -> str:
    """An observed URL with every occurrence of parameter ``name`` removed.

    >>> without_param("https://s.example/p/?b=2&%61=1&utm_source=x&a=3#!/x", "a")
    'https://s.example/p/?b=2&utm_source=x#!/x'
    """
    return edit_observed(url, drop=(name,))


def keep_only(url: str, names: Iterable[str], pattern: Iterable[str]) -> str:
    """An observed URL without the ``pattern`` parameters that are not in ``names``.

    >>> keep_only("https://s.example/p?c=3&a=1&b=2", {"a", "c"}, ["a", "b", "c"])
    'https://s.example/p?c=3&a=1'
    """
    keep = set(names)
    return edit_observed(url, drop=[n for n in pattern if n not in keep])
