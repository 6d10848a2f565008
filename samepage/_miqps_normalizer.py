"""The normalizer: URL hygiene plus a per-parameter keep-or-drop decision in layers.

For each query parameter, in this order (the first layer that decides wins):

0. kept: a listed name ``keep_listed`` or the learned set keeps on the URL's host;
1. blocklist: always-tracking names (built-in, ``extra_blocklist``, the host's block list);
2. allowlist: the host's content names (built-in and ``extra_allowlist``);
3. learned: the verdicts a learned set records for the URL's host and pattern;
4. ambiguous: names such as ``ref`` dropped only for tracking-like values;
5. default: keep.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import replace
from typing import Literal

from samepage._alias_runtime import AliasTable
from samepage._conflicts import host_conflicts
from samepage._encoding import QUERY, normalize_unsafe
from samepage._explanation import Explanation, ParamDecision
from samepage._learned_layer import Fallback
from samepage._options import _as_matcher, _keep_listed, _option_host
from samepage._policy import (
    _DROP,
    _KEEP,
    _OPEN,
    PolicyConfig,
    _HostPolicy,
    _keep_on_conflict,
    first_pass,
    host_policy,
)
from samepage._query import Pair, join_pattern, query_pairs, serialize, value_of
from samepage._rewrite import NO_REWRITES, HostRewrites, Rewrite, session_triggers
from samepage._url import CACHED_HOST, Parts, join_url, split_url
from samepage.errors import InvalidURL
from samepage.learned import (
    LearnedSet,
    LearnedSource,
    PatternConflict,
    load_learned,
)
from samepage.rules import NameMatcher, RuleSet, default_rules
from samepage.templates import path_template

_POLICY_CACHE_LIMIT = 50_000
# Each unwrap makes the URL shorter; the bound only guards against a pathological rule table.
_MAX_REWRITES = 32

_FALLBACKS = ("shared", "keep", "domain")
Errors = Literal["none", "raise"]


class MIQPSNormalizer:
    """A configured normalizer; immutable once built and safe to share between threads.

    Args:
        extra_blocklist: more always-tracking parameter names, on every host (``name*``
            means a prefix). Case-insensitive.
        extra_allowlist: content names to always keep: a collection (every host) or a
            mapping of host suffix to names. A key is a host as URLs carry it (lower case,
            IDNA, no trailing dot, no scheme), or ``host:port`` for a site on that port only;
            any other key is refused.
        keep_listed: ``{host: names}``: exact names to keep on ``host`` and its subdomains
            even where a built-in list (blocklist or ambiguous) would drop them, and only
            there. A host that is a public suffix (``co.uk``, ``github.io``) is refused.
        learned: a learned set: a path, a loaded :class:`~samepage.LearnedSet`, a parsed
            format-1 document, or the simple form ``{host_suffix: {content names}}``.
        disable_rules: built-in rules to switch off, by rule id or bare name (a collection;
            an id no rule has is an error naming the closest known one).
        unwrap_redirects: replace a redirect wrapper (``google.com/url?q=TARGET``) by its
            target before normalising (default ``True``).
        learned_fallback: for a learned host whose file lacks the URL's pattern,
            ``"shared"`` (default: the host's shared evidence for the URL's path template
            decides the parameters it names, and keeps the others), ``"keep"`` (keep every
            parameter) or ``"domain"`` (the shared evidence first; then drop a parameter
            only if it is neutral in every learned pattern of that host that contains it).
        rules: a complete replacement for the built-in rule set.

    >>> norm = MIQPSNormalizer(extra_blocklist=frozenset({"sessionid"}))
    >>> norm.normalize("https://example.com/p?id=1&sessionid=abc")
    'https://example.com/p?id=1'
    """

    __slots__ = (
        "_aliases",
        "_config",
        "_frozen",
        "_policies",
        "_rewrites",
        "_session_probe",
        "_session_triggers",
        "_shared",
        "learned",
        "learned_fallback",
        "rules",
    )

    def __init__(
        self,
        *,
        extra_blocklist: Iterable[str] = frozenset(),
        extra_allowlist: Iterable[str] | Mapping[str, Iterable[str]] = frozenset(),
        keep_listed: Mapping[str, Iterable[str]] | None = None,
        learned: LearnedSource | None = None,
        disable_rules: Iterable[str] = frozenset(),
        learned_fallback: Fallback = "shared",
        rules: RuleSet | None = None,
        unwrap_redirects: bool = True,
    ) -> None:
        if learned_fallback not in _FALLBACKS:
            raise ValueError(
                f"learned_fallback must be 'shared', 'keep' or 'domain', not {learned_fallback!r}"
            )
        base = rules if rules is not None else default_rules()
        set_ = object.__setattr__
        ruleset = base.without(disable_rules)
        if not unwrap_redirects:
            ruleset = replace(ruleset, redirects={})
        set_(self, "rules", ruleset)
        set_(self, "learned", load_learned(learned) if learned is not None else None)
        set_(self, "learned_fallback", learned_fallback)
        set_(self, "_aliases", AliasTable.of(self.learned))
        extra_block = _as_matcher(extra_blocklist, "extra_blocklist", "blocklist")
        allow_all, allow_hosts = NameMatcher(), {}
        if isinstance(extra_allowlist, Mapping):
            allow_hosts = {
                _option_host(host, "extra_allowlist"): _as_matcher(
                    names, f"extra_allowlist[{host}]", "allowlist"
                )
                for host, names in extra_allowlist.items()
            }
        else:
            allow_all = _as_matcher(extra_allowlist, "extra_allowlist", "allowlist")
        config = PolicyConfig(
            ruleset,
            extra_block,
            allow_all,
            allow_hosts,
            _keep_listed(keep_listed) if keep_listed is not None else {},
            learned_fallback,
        )
        set_(self, "_config", config)
        set_(self, "_policies", {})
        set_(self, "_rewrites", {})
        triggers = session_triggers(ruleset.path_sessions)
        set_(self, "_session_triggers", triggers)
        # The session rules are tried on the paths that hold a trigger. Only rules without
        # triggers ("": look at every path) need a probe: one search for all of them.
        sessions = [f"(?:{rule.pattern.pattern})" for rule in ruleset.path_sessions]
        probe = re.compile("|".join(sessions), re.I) if sessions and "" in triggers else None
        set_(self, "_session_probe", probe)
        set_(self, "_shared", {})
        set_(self, "_frozen", True)

    rules: RuleSet
    learned: LearnedSet | None
    learned_fallback: Fallback
    _aliases: AliasTable | None
    _config: PolicyConfig
    _policies: dict[str | tuple[str, str], _HostPolicy]
    _rewrites: dict[str, HostRewrites]
    _session_probe: re.Pattern[str] | None
    _session_triggers: tuple[str, str]
    _shared: dict[tuple[object, ...], _HostPolicy]
    _frozen: bool

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"{type(self).__name__} is immutable")

    def __getstate__(self) -> dict[str, object]:
        """The configuration, without the caches (pickled for another process)."""
        return {name: getattr(self, name) for name in self.__slots__ if name not in _CACHES}

    def __setstate__(self, state: dict[str, object]) -> None:
        for name, value in state.items():
            object.__setattr__(self, name, value)
        for name in _CACHES:
            object.__setattr__(self, name, {})

    def __repr__(self) -> str:
        learned = len(self.learned.domains) if self.learned else 0
        return f"<MIQPSNormalizer learned_domains={learned} fallback={self.learned_fallback!r}>"

    def _policy(self, host: str, port: str) -> _HostPolicy:
        key = (host, port) if port else host
        policy = self._policies.get(key)
        if policy is None:
            if len(self._policies) >= _POLICY_CACHE_LIMIT:
                self._policies.clear()
            learned = self.learned.domain(host, port) if self.learned else None
            policy = host_policy(self._config, host, port, learned, self._shared)
            if len(host) <= CACHED_HOST:  # a longer host is no DNS name, and is not held
                self._policies[key] = policy
        return policy

    def _path_policy(self, parts: Parts) -> _HostPolicy:
        """The policy of the URL's host, for its path (a group may except some paths)."""
        policy = self._policy(parts[2], parts[3])
        return policy.at(parts[4]) if policy.path_classes else policy

    def normalize(self, url: str) -> str:
        """Return the deduplication key of ``url``: a normalised, valid URL.

        Non-http(s) URLs (``mailto:``, ``javascript:``, ``data:``, ``ftp:``...) come back
        unchanged. Fetch with the original URL if a server cares about parameter order.

        Raises:
            InvalidURL: (a ``ValueError``) for a string that is not an absolute URL.

        >>> MIQPSNormalizer().normalize("https://EXAMPLE.com:443/article/?b=2&a=1#anchor")
        'https://example.com/article?a=1&b=2'
        """
        if type(url) is not str:
            _require_str(url)
        parts = split_url(url)
        if parts is None:
            return url
        rewrites = self._rewrites.get(parts[2]) or self._host_rewrites(parts[2])
        path = parts[4]
        # HostRewrites.may_apply() inlined: this check runs on every URL. A path without the
        # characters every path session rule needs (derived from the loaded rules) keeps its
        # session-free form.
        first, second = self._session_triggers
        if rewrites.any_path or path in rewrites.paths or first in path or second in path:
            parts = self._rewrite(parts, None)
            if self._aliases is not None:  # the learned set's aliases, then the filter
                return self._aliases.key(self._rewritten, self._filter, parts)
        query = parts[5]
        if query:
            query = self._filter(parts[2], parts[3], parts[4], query)
        return join_url(parts, query)

    def _host_rewrites(self, host: str) -> HostRewrites:
        """The redirect and alias rules of ``host``, cached per host."""
        found = self._rewrites.get(host)
        if found is None:
            if len(self._rewrites) >= _POLICY_CACHE_LIMIT:
                self._rewrites.clear()
            redirects = self.rules.redirect_rules(host)
            aliases = self.rules.aliases.get(host, ())
            found = HostRewrites.of(redirects, aliases) if redirects or aliases else NO_REWRITES
            if self._aliases is not None and self._aliases.may_apply(host):
                found = replace(found, any_path=True)  # the learned aliases are looked at
            if len(host) <= CACHED_HOST:  # a longer host is no DNS name, and is not held
                self._rewrites[host] = found
        return found

    def _rewrite(self, parts: Parts, steps: list[Rewrite] | None) -> Parts:
        """Apply path session rules, redirect unwrapping and aliases until nothing changes.

        With ``steps``, each rewrite is recorded there for :meth:`explain`.
        """
        for _ in range(_MAX_REWRITES):
            scheme, userinfo, host, port, path, query, fragment = parts
            new = parts
            probe = self._session_probe
            if probe is None:
                first, second = self._session_triggers
                may_hold = first in path or second in path
            else:
                may_hold = probe.search(path) is not None
            sessions = self.rules.path_sessions if may_hold else ()
            for session in sessions:
                stripped = session.strip(path)
                if stripped != path:
                    new = (scheme, userinfo, host, port, stripped, query, fragment)
                    _record(steps, session.id, session.source, parts, new)
                    parts, path = new, stripped
            rules = self._host_rewrites(host) if not port else NO_REWRITES
            if not rules.may_apply(path):
                return parts
            for redirect in rules.redirects:
                target = redirect.target(path, query)
                if target is None:
                    continue
                try:
                    unwrapped = split_url(target)
                except InvalidURL:
                    continue
                if unwrapped is not None:
                    new = unwrapped
                    _record(steps, redirect.id, redirect.source, parts, new)
                    break
            else:
                for alias in rules.aliases:
                    changed = alias.apply(host, path, query)
                    if changed is not None:
                        new = (scheme, userinfo, changed[0], port, changed[1], changed[2], fragment)
                        _record(steps, alias.id, alias.source, parts, new)
                        if changed[0] == host:
                            # An alias gives the final form: only another host's rules remain.
                            return new
                        break
            if new is parts:
                return parts
            parts = new
        return parts

    def _rewritten(self, parts: Parts) -> Parts:
        """``parts`` after every built-in rewrite, unrecorded."""
        return self._rewrite(parts, None)

    def normalize_many(
        self, urls: Iterable[str | None], *, errors: Errors = "none"
    ) -> list[str | None]:
        """Return the key of each URL in ``urls``, in order: the batch form of :meth:`normalize`.

        ``None`` in gives ``None`` out. A string that is not a URL gives ``None`` too, or,
        with ``errors="raise"``, raises :class:`~samepage.InvalidURL`.

        Args:
            urls: URLs, or ``None`` for a missing value (a null in a table column).
            errors: ``"none"`` (default) or ``"raise"``, for strings that are not URLs.

        >>> MIQPSNormalizer().normalize_many(["https://A.example/?utm_source=x", None, "nope"])
        ['https://a.example/', None, None]
        """
        if errors not in ("none", "raise"):
            raise ValueError(f"errors must be 'none' or 'raise', not {errors!r}")
        if isinstance(urls, str):
            raise TypeError("urls must be a collection of URLs, not a string (write [url])")
        normalize = self.normalize
        keys: list[str | None] = []
        append = keys.append
        for url in urls:
            if url is None:
                append(None)
                continue
            try:
                append(normalize(url))
            except InvalidURL:
                if errors == "raise":
                    raise
                append(None)
        return keys

    def _filter(self, host: str, port: str, path: str, query: str) -> str:
        # Keyed by the host alone on the default port: no tuple to build on the hot path.
        policy = self._policies.get((host, port) if port else host) or self._policy(host, port)
        if policy.path_classes:
            policy = policy.at(path)
        kept: list[Pair] = []
        open_pairs: list[Pair] | None = None
        cached = policy.codes.get
        # query_pairs() inlined: this loop is the hot path of every normalisation.
        if QUERY.safe.fullmatch(query) is None:
            query = normalize_unsafe(query, QUERY)
        for piece in query.split("&"):
            if not piece:
                continue
            pair = (piece.partition("=")[0], piece)
            code = cached(pair[0])
            if code is None:
                code = policy.code(pair[0])
            if code == _KEEP:
                kept.append(pair)
            elif code == _OPEN:
                if open_pairs is None:
                    open_pairs = []
                open_pairs.append(pair)
                kept.append(pair)
        if open_pairs is None or (policy.learned is None and not policy.ambiguous):
            return serialize(kept)
        pattern = template = None
        if policy.learned is not None:
            pattern = join_pattern(name for name, _ in kept)
            if policy.scoped:
                template = path_template(path)
        dropped = []
        for pair in open_pairs:  # a plain loop: a comprehension would be a closure here
            if not policy.dynamic(pair[0], pair[1], pattern, kept, template)[0]:
                dropped.append(pair)
        if dropped:
            gone = {id(pair) for pair in dropped}
            reduced = [pair for pair in kept if id(pair) not in gone]
            left = [pair for pair in open_pairs if id(pair) not in gone]
            if policy.learned is None or not policy.drops_again(reduced, left, template):
                kept = reduced
        return serialize(kept)

    def explain(self, url: str) -> Explanation:
        """Report, per query parameter, whether it is kept, by which layer and which rule.

        >>> trace = MIQPSNormalizer().explain("https://example.com/p?utm_source=x&id=1")
        >>> [(p.name, p.kept, p.layer) for p in trace.params]
        [('utm_source', False, 'blocklist'), ('id', True, 'default')]
        """
        result = self.normalize(url)
        parts = split_url(url)
        if parts is None:
            return Explanation(url, result, None, None, ())
        steps: list[Rewrite] = []
        parts = self._rewrite(parts, steps)
        if self._aliases is not None:
            parts = self._aliases.settle(self._rewritten, self._filter, parts, steps)[0]
        policy = self._path_policy(parts)
        pairs = query_pairs(parts[5])
        template = path_template(parts[4]) if policy.scoped else None
        statics, pattern, decided = first_pass(policy, pairs, template, detailed=True)
        if policy.learned is not None:
            decided = _keep_on_conflict(policy, pairs, statics, decided, pattern, template)
        decisions = [
            ParamDecision(name, value_of(piece), kept, rule.layer, rule.id, rule.source)
            for (name, piece), (kept, rule) in zip(pairs, decided, strict=True)
        ]
        return Explanation(url, result, pattern, policy.learned_key, tuple(decisions), tuple(steps))

    def pattern_key(self, url: str) -> str:
        """The learned-set pattern key of ``url``: its parameter names after the blocklist.

        Sorted, de-duplicated, joined by ``&``; the learner and the normalizer both use it.

        Raises:
            InvalidURL: for a string that is not an absolute http(s) URL.

        >>> MIQPSNormalizer().pattern_key("https://shop.example/p?id=1&utm_source=x&color=red&id=2")
        'color&id'
        """
        parts = self._http_parts(url)
        policy = self._path_policy(parts)
        return join_pattern(
            name for name, _ in query_pairs(parts[5]) if policy.static(name)[0] != _DROP
        )

    def static_url(self, url: str) -> str:
        """``url`` normalised with only the blocklist applied: every other parameter kept.

        This is the page the learner renders as the original.

        Raises:
            InvalidURL: for a string that is not an absolute http(s) URL.

        >>> MIQPSNormalizer().static_url("https://shop.example/p?sid=1&utm_source=x&b=2")
        'https://shop.example/p?b=2&sid=1'
        """
        parts = self._http_parts(url)
        policy = self._path_policy(parts)
        kept = [pair for pair in query_pairs(parts[5]) if policy.static(pair[0])[0] != _DROP]
        return join_url(parts, serialize(kept))

    def same(self, a: str, b: str) -> bool:
        """Whether ``a`` and ``b`` normalise to the same key."""
        return self.normalize(a) == self.normalize(b)

    def conflicts(self) -> list[PatternConflict]:
        """The conflicts between the learned set's patterns, under this configuration.

        As :meth:`LearnedSet.conflicts <samepage.learned.LearnedSet.conflicts>` lists them
        for the default one, but with this normalizer's own rules, blocklist, allowlists,
        ``keep_listed`` and fallback: a name this normalizer always keeps, say, is in no
        conflict. ``[]`` without a learned set.
        """
        if self.learned is None:
            return []
        return [
            conflict
            for host, entry in sorted(self.learned.domains.items())
            for conflict in host_conflicts(host, entry, self._config)
        ]

    def _http_parts(self, url: str) -> Parts:
        parts = split_url(_require_str(url))
        if parts is None:
            raise InvalidURL(url, "not an http(s) URL")
        parts = self._rewrite(parts, None)
        if self._aliases is None:
            return parts
        return self._aliases.apply(self._rewritten, parts, None)


_CACHES = ("_policies", "_rewrites", "_shared")
"""The per-host caches a normalizer fills as it reads URLs: not part of its pickled state."""


def _require_str(url: object) -> str:
    if not isinstance(url, str):
        raise TypeError(f"url must be a str, not {type(url).__name__}")
    return url


def _record(steps: list[Rewrite] | None, rule: str, source: str, old: Parts, new: Parts) -> None:
    if steps is not None:
        steps.append(Rewrite(rule, source, join_url(old, old[5]), join_url(new, new[5])))
