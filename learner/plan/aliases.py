"""Candidate aliases of a domain, mined from its observed URLs, and the samples that test them.

A site may spell one page two ways: MediaWiki serves ``/wiki/Town_Hall`` and
``/w/index.php?title=Town_Hall``. The learner proposes a rule (:class:`samepage.PathAlias`)
where one value appears both as a parameter value of one path and as a path segment of a
template with one varying segment: the same values on both sides (at least
:data:`MIN_SHARED`, in the log or in the spellings the site's pages pointed to,
:mod:`learner.plan.alias_hints`) propose ``{path}?{name}={value}`` is
``{segments with value}``. Such a hint only proposes; renders prove
(:mod:`learner.judge.aliases`). A folder's template and its default document's
(:data:`DEFAULT_DOCUMENTS`) propose a rule the same way: ``/{value}/index.html`` is
``/{value}`` where the two share folders.

The key, ``to``, is the spelling the pages pointed to (their redirects or canonical links,
none pointing back), else the one the log holds most URLs of; ``from`` is the other. The
samples cover where the rule would apply in the log: every host and set of carried
parameter names (a *context*) of the URLs ``from`` matches, one URL each, then more values
until :data:`MIN_VALUES` distinct values are sampled. The context without carried
parameters is sampled on each host even where the log has no such URL (two of the log's
values, their other parameters removed): the rule rewrites those URLs too. Each sample is
the URL as observed against its rewritten spelling (:func:`samepage.match_alias`, the very
code the normalizer runs). A control renders the rewritten spelling of *another* value of
the same context and carried values: it must differ from the sample, or the comparison could
not tell two pages apart there. The context's other URLs are the candidate's *spares*: a
sample whose render failed is replaced by one of them (:mod:`learner.judge.aliases`), and a
control that failed by another value's spelling (``others``).

A host with and without ``www.`` is proposed by :mod:`learner.plan.host_aliases`, the root
and its default document by :mod:`learner.plan.root_documents`. Not mined (yet): rules with
more than one placeholder.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from urllib.parse import urlsplit

from learner.plan.alias_hints import SpellingHint
from learner.plan.sampling import edit_observed
from samepage import HostAlias, InvalidURL, MIQPSNormalizer, PathAlias, match_alias
from samepage.aliases import Alias

__all__ = [
    "DEFAULT_DOCUMENTS",
    "MIN_SHARED",
    "MIN_VALUES",
    "REPLACEMENTS",
    "AliasCandidate",
    "AliasSample",
    "alias_candidates",
]

MIN_SHARED = 2
"""Values two templates must share (in the log or where pages point) to propose an alias."""
MIN_VALUES = 3
"""Distinct values an alias's samples cover at least (where the log has them)."""
DEFAULT_DOCUMENTS = frozenset(
    {"index.html", "index.htm", "index.php", "default.aspx", "Default.aspx", "default.asp"}
)
"""Documents a server sends for their folder's URL (``/guide/`` is ``/guide/index.html``)."""
REPLACEMENTS = 2
"""The most times one sample (or control) whose render failed is replaced by another URL
of its context: a site that fails every render there does not spend the study on it."""
_PLACEHOLDER = "value"
_KINDS = {"redirect": "redirect", "canonical": "canonical link"}
_BARE_VALUES = 2


@dataclass(frozen=True, slots=True)
class AliasSample:
    """One URL ``from`` matches, as observed, and its spelling by ``to``; and controls.

    ``others`` are ``to``'s spellings of other values in the same context and carried
    values, the first the control, the next its replacements (none when the log has none):
    the pages they name must differ from ``url``'s.
    """

    context: str
    value: str
    url: str
    spelled: str
    others: tuple[str, ...] = ()

    @property
    def other(self) -> str:
        """The control: ``to``'s spelling of another value ("" without one)."""
        return self.others[0] if self.others else ""


@dataclass(frozen=True, slots=True)
class AliasCandidate:
    """A proposed rule, why, and its samples."""

    rule: Alias
    """A path alias, or a host alias (:mod:`learner.plan.host_aliases`)."""
    hint: str
    shared: int
    """Values (a host alias: paths) both spellings carry in the log."""
    urls: int
    """Observed URLs ``from`` matches: what the rule would rewrite."""
    contexts: tuple[str, ...]
    """Every context of those URLs (host and carried names), most URLs first."""
    samples: tuple[AliasSample, ...]
    spares: tuple[AliasSample, ...] = ()
    """The other URLs of the sampled contexts, in the log's order: a sample whose render
    failed is replaced by a spare of its context."""
    most_samples: int | None = None
    """The samples that cover every URL the rule rewrites, where that is fewer than the run
    asks for (an exact pair: :mod:`learner.plan.root_documents`); ``None``: no such bound."""

    @property
    def ends(self) -> tuple[str, str]:
        """The rule's two spellings, the one rewritten first: templates, or hosts."""
        rule = self.rule
        return (rule.host, rule.to_host) if isinstance(rule, HostAlias) else (rule.from_, rule.to)

    def spares_of(self, context: str) -> list[AliasSample]:
        """The spares of one context, in order."""
        return [s for s in self.spares if s.context == context]


@dataclass(frozen=True, slots=True)
class _Seen:
    url: str
    static: str
    host: str
    segments: tuple[str, ...]
    pairs: tuple[tuple[str, str], ...]


def _read(url: str, normalizer: MIQPSNormalizer) -> _Seen | None:
    try:
        static = normalizer.static_url(url)
    except (InvalidURL, ValueError):
        return None
    parts = urlsplit(static)
    segments = tuple(parts.path.split("/")[1:]) if parts.path not in ("", "/") else ()
    pairs = []
    for piece in parts.query.split("&") if parts.query else ():
        name, equals, value = piece.partition("=")
        if equals:
            pairs.append((name, value))
    return _Seen(url, static, parts.netloc, segments, tuple(pairs))


def _segment_template(segments: tuple[str, ...], at: int) -> str:
    spelled = [f"{{{_PLACEHOLDER}}}" if i == at else s for i, s in enumerate(segments)]
    return "/" + "/".join(spelled)


def _spellings(seen: list[_Seen]) -> tuple[dict[str, Counter[str]], dict[str, Counter[str]]]:
    """Values per path template with one varying segment, and per parameter of a path."""
    by_segment: dict[str, Counter[str]] = {}
    by_param: dict[str, Counter[str]] = {}
    for s in seen:
        for at, value in enumerate(s.segments):
            if value:
                by_segment.setdefault(_segment_template(s.segments, at), Counter())[value] += 1
        path = "/" + "/".join(s.segments)
        names = Counter(name for name, _ in s.pairs)
        for name, value in s.pairs:
            if value and names[name] == 1 and "{" not in name and "}" not in name:
                key = f"{path}?{name}={{{_PLACEHOLDER}}}"
                by_param.setdefault(key, Counter())[value] += 1
    return by_segment, by_param


def _context(rule: PathAlias, s: _Seen) -> tuple[str, tuple[tuple[str, str], ...]]:
    named = rule.source.param_names
    carried = tuple(sorted((n, v) for n, v in s.pairs if n not in named))
    names = "&".join(n for n, _ in carried)
    return f"{s.host}?{names}", carried


_Match = tuple[_Seen, str, str, tuple[tuple[str, str], ...]]
"""A URL ``from`` matches: as read, its other spelling, the value and the carried pairs."""


def _samples(
    rule: PathAlias, seen: list[_Seen]
) -> tuple[int, list[str], list[AliasSample], list[AliasSample]]:
    """The URLs ``rule`` matches, their contexts, the samples and the spares (see the module)."""
    found: dict[str, list[_Match]] = {}
    urls = 0
    for s in seen:
        try:
            match = match_alias(rule, s.static)
        except InvalidURL:
            continue
        if match is None:
            continue
        urls += 1
        context, carried = _context(rule, s)
        found.setdefault(context, []).append((s, match.url, match.values[_PLACEHOLDER], carried))
    _bare_contexts(rule, found)
    contexts = sorted(found, key=lambda c: (-len(found[c]), c))
    everything = {c: list(found[c]) for c in contexts}
    chosen: list[AliasSample] = []
    values: set[str] = set()

    def sample(context: str, pick: _Match) -> AliasSample:
        s, spelled, value, carried = pick
        others = tuple(
            dict.fromkeys(
                o_spelled
                for o, o_spelled, o_value, o_carried in everything[context]
                if o_value != value and o_carried == carried and o.host == s.host
            )
        )[: 1 + REPLACEMENTS]
        return AliasSample(context, value, s.url, spelled, others)

    def take(context: str, *, new_only: bool) -> bool:
        fresh = [m for m in found[context] if m[2] not in values]
        pick = fresh[0] if fresh else None if new_only else next(iter(found[context]), None)
        if pick is None:
            return False
        values.add(pick[2])
        chosen.append(sample(context, pick))
        found[context].remove(pick)
        return True

    for context in contexts:  # every context once
        take(context, new_only=False)
    more = True
    while more and len(values) < MIN_VALUES:  # then new values, where the log has them
        more = any(take(context, new_only=True) for context in contexts)
    spares: dict[str, AliasSample] = {}
    for context in contexts:
        for spare in found[context]:
            if all(spare[0].url != s.url for s in chosen):
                spares.setdefault(spare[0].url, sample(context, spare))
    return urls, contexts, chosen, list(spares.values())


def _bare_contexts(rule: PathAlias, found: dict[str, list[_Match]]) -> None:
    """Add each host's URLs without carried parameters, where the log has none.

    The rule rewrites them too (and the keys the filter leaves of the others): two values
    spelled without any other parameter, made from the log's URLs, cover that context (and
    as many more as a failed sample may be replaced by).
    """
    for host in sorted({matches[0][0].host for matches in found.values()}):
        bare = f"{host}?"
        if bare in found:
            continue
        made: dict[str, _Match] = {}
        for context in sorted(found):
            for s, _, value, carried in found[context]:
                full = len(made) >= _BARE_VALUES + REPLACEMENTS
                if s.host != host or value in made or full:
                    continue
                url = edit_observed(s.static, drop=[name for name, _ in carried])
                match = match_alias(rule, url)
                if match is not None:
                    made[value] = (dataclasses.replace(s, url=url), match.url, value, ())
        if made:
            found[bare] = list(made.values())


def _pointed(one: str, other: str, hints: Iterable[SpellingHint]) -> dict[str, Counter[str]]:
    """Per template of the pair, the hints (by kind) whose page pointed to its spelling.

    A hint points to ``one`` when its URL is ``other``'s spelling of a value and its target
    ``one``'s spelling of the same value (and the other way round).
    """
    toward: dict[str, Counter[str]] = {one: Counter(), other: Counter()}
    try:
        to_one, to_other = PathAlias(other, one), PathAlias(one, other)
    except ValueError:
        return toward
    for rule, back, key in ((to_one, to_other, one), (to_other, to_one, other)):
        for hint in hints:
            try:
                asked, target = match_alias(rule, hint.url), match_alias(back, hint.target)
            except InvalidURL:
                continue
            if asked and target and asked.values[_PLACEHOLDER] == target.values[_PLACEHOLDER]:
                toward[key][hint.how] += 1
    return toward


def _keyed_rule(
    one: str, other: str, urls: tuple[int, int], hints: list[SpellingHint]
) -> tuple[PathAlias | None, str]:
    """The rule of two templates and what chose its key (see :func:`alias_candidates`).

    ``urls`` are the log's URLs of each; on a tie, ``one`` is the key.
    """
    toward = _pointed(one, other, hints)
    to_one, to_other = toward[one].total(), toward[other].total()
    if to_one and not to_other:
        from_, to = other, one
    elif to_other and not to_one:
        from_, to = one, other
    else:  # no hint, or hints both ways: the log's commonest spelling
        from_, to = (other, one) if urls[0] >= urls[1] else (one, other)
    pointed = " and ".join(
        f"{n} {_KINDS[how]}{'s' if n > 1 else ''}" for how, n in sorted(toward[to].items())
    )
    try:
        rule = PathAlias(from_, to)
    except ValueError:  # a template samepage refuses (not a normalised spelling)
        return None, ""
    return rule, f"; {pointed} led to {to}" if pointed else ""


def _shared_pairs(
    by_segment: dict[str, Counter[str]], by_param: dict[str, Counter[str]]
) -> list[tuple[int, str, str, str]]:
    """Pairs of templates that share values, with the number and why they pair.

    A parameter's values that are a path template's segment, and a folder's template and
    the template of its default document (``/{value}/index.html`` beside ``/{value}``).
    """
    pairs = []
    for param, param_values in by_param.items():
        for segment, segment_values in by_segment.items():
            shared = len(param_values.keys() & segment_values.keys())
            if shared >= MIN_SHARED:
                name = param.partition("?")[2].partition("=")[0]
                pairs.append((shared, segment, param, f"values of {name!r} are path segments"))
    for document_template, values in by_segment.items():
        folder, _, document = document_template.rpartition("/")
        if document not in DEFAULT_DOCUMENTS or folder not in by_segment:
            continue
        shared = len(values.keys() & by_segment[folder].keys())
        if shared >= MIN_SHARED:
            why = f"{document} is the default document of its folder"
            pairs.append((shared, folder, document_template, why))
    return sorted(pairs, key=lambda p: (-p[0], p[1], p[2]))


def alias_candidates(
    urls: Iterable[str], normalizer: MIQPSNormalizer, hints: Iterable[SpellingHint] = ()
) -> list[AliasCandidate]:
    """The aliases a domain's observed URLs and hints propose, most shared values first.

    Two templates propose one rule where they share at least :data:`MIN_SHARED` values, in
    the log or in the spellings ``hints`` point to (:mod:`learner.plan.alias_hints`): a
    parameter of a path and a path template with one varying segment, or a folder's template
    and its default document's (:data:`DEFAULT_DOCUMENTS`). Each template is in one rule at
    most (the one sharing most values), so no two rules rewrite one spelling two ways. The
    key is the spelling the hints point to (none pointing the other way), else the one the
    log holds most URLs of (on a tie, the path segment, the folder). A rule that rewrites
    none of the log's URLs is not proposed.
    """
    hints = list(hints)
    seen = [s for url in urls if (s := _read(url, normalizer)) is not None]
    pointed = [s for hint in hints if (s := _read(hint.target, normalizer)) is not None]
    logged_segment, logged_param = _spellings(seen)
    logged = {**logged_segment, **logged_param}
    by_segment, by_param = _spellings([*seen, *pointed])
    taken: set[str] = set()
    out = []
    for shared, one, other, why in _shared_pairs(by_segment, by_param):
        if one in taken or other in taken:
            continue
        counts = (logged.get(one, Counter()).total(), logged.get(other, Counter()).total())
        rule, led = _keyed_rule(one, other, counts, hints)
        if rule is None:
            continue
        count, contexts, samples, spares = _samples(rule, seen)
        if count == 0:
            continue
        taken.update((one, other))
        out.append(
            AliasCandidate(
                rule, why + led, shared, count, tuple(contexts), tuple(samples), tuple(spares)
            )
        )
    return out
