"""The normalizer's application of a learned set's aliases (:mod:`samepage.aliases`).

After the built-in rewrites (session ids, redirect wrappers, platform aliases), a URL on a
host with learned aliases is rewritten by the host alias of its host, before the parameter
filter; the filtered key is then rewritten by the first path alias of its host that
matches. A rule applies only where its result is final: no rule of that host may match it
(with any of its parameters), and the built-in rewrites leave it as it is; otherwise the URL
keeps its spelling. Then the parameter filter runs on the rewritten URL, and if the key it
makes could still be rewritten (a value-based drop made a named parameter appear once), the key goes
round again, so every key normalises to itself.

The normalizer hands in its two steps, the built-in rewrites and the parameter filter, as
functions: this layer knows nothing else of it. Hosts without aliases pay nothing on the way
of a URL: the table marks the hosts it covers in the normalizer's per-host rewrite cache,
which the normalizer consults anyway.
"""

from __future__ import annotations

from collections.abc import Callable

from samepage._hosts import longest_key, lookup_host
from samepage._query import query_pairs, serialize
from samepage._rewrite import Rewrite
from samepage._url import CACHED_HOST, Parts, join_url
from samepage.aliases import Alias, HostAlias, PathAlias, evidence_text
from samepage.learned import LearnedSet

__all__ = ["AliasTable", "Filter", "Rewriter"]

Rewriter = Callable[[Parts], Parts]
"""The built-in rewrites of the normalizer, until nothing changes."""
Filter = Callable[[str, str, str, str], str]
"""The normalizer's parameter filter: host, port, path and query in, the kept query out."""

_SETTLE = 4  # rounds of filter and rewrite; two suffice (docs/learned-format.md)
_CACHE_LIMIT = 50_000


class _HostRules:
    """The aliases of one domain key: host aliases by host, path aliases by length.

    Path aliases are kept in file order, grouped by the number of segments of their
    ``from``: a rule matches paths of that many segments only.
    """

    __slots__ = ("by_length", "hosts", "key")

    def __init__(self, key: str, aliases: tuple[Alias, ...]) -> None:
        self.key = key
        self.hosts = {a.host: a for a in aliases if isinstance(a, HostAlias)}
        by_length: dict[int, list[PathAlias]] = {}
        for alias in aliases:
            if isinstance(alias, PathAlias):
                by_length.setdefault(len(alias.source.segments), []).append(alias)
        self.by_length = {n: tuple(rules) for n, rules in by_length.items()}

    def paths(self, path: str) -> tuple[PathAlias, ...]:
        """The path aliases that may match ``path`` (a normalised path), in file order."""
        return self.by_length.get(0 if path == "/" else path.count("/"), ())


class AliasTable:
    """The aliases of a learned set, by domain key, and the hosts they may apply to."""

    __slots__ = ("_bare", "_bare_longest", "_by_host", "_keys", "_learned")

    def __init__(self, learned: LearnedSet) -> None:
        self._learned = learned
        self._keys = {
            key: _HostRules(key, entry.aliases)
            for key, entry in learned.domains.items()
            if entry.aliases
        }
        # Each key's host without its port: a host they cover may need a look, on any port.
        self._bare = {_bare(key): True for key in self._keys}
        self._bare_longest = longest_key(self._bare)
        self._by_host: dict[tuple[str, str], _HostRules | None] = {}

    @classmethod
    def of(cls, learned: LearnedSet | None) -> AliasTable | None:
        """The table of ``learned``, or ``None`` when no host of it has aliases."""
        if learned is None or not any(e.aliases for e in learned.domains.values()):
            return None
        return cls(learned)

    def may_apply(self, host: str) -> bool:
        """Whether a key with aliases covers ``host`` on some port."""
        return lookup_host(self._bare, host, longest=self._bare_longest) is not None

    def rules(self, host: str, port: str) -> _HostRules | None:
        """The aliases of the learned entry that reads URLs of ``host`` and ``port``."""
        at = (host, port)
        if at in self._by_host:
            return self._by_host[at]
        found = self._learned.domain(host, port)
        rules = self._keys.get(found[0]) if found is not None else None
        if len(self._by_host) >= _CACHE_LIMIT:
            self._by_host.clear()
        if len(host) <= CACHED_HOST:
            self._by_host[at] = rules
        return rules

    def apply(
        self,
        rewrite: Rewriter,
        parts: Parts,
        steps: list[Rewrite] | None,
        *,
        paths: bool = True,
    ) -> Parts:
        """``parts`` after its host alias and (with ``paths``) its first applicable path alias."""
        rules = self.rules(parts[2], parts[3])
        if rules is None:
            return parts
        host_rule = rules.hosts.get(parts[2])
        if host_rule is not None:
            moved = (*parts[:2], host_rule.to_host, *parts[3:])
            if rewrite(moved) == moved:
                _record(steps, rules.key, host_rule, parts, moved)
                parts = moved
                rules = self.rules(parts[2], parts[3])
                if rules is None:
                    return parts
        if not paths:
            return parts
        candidates = rules.paths(parts[4])
        pairs = query_pairs(parts[5]) if candidates else []
        for rule in candidates:
            found = rule.rewrite(parts[4], pairs)
            if found is None:
                continue
            path, new_pairs, _ = found
            if any(other.may_match(path, new_pairs) for other in rules.paths(path)):
                continue  # not final: keep this spelling
            new = (*parts[:4], path, serialize(new_pairs), parts[6])
            if rewrite(new) != new:
                continue  # a built-in rule would rewrite it again
            _record(steps, rules.key, rule, parts, new)
            return new
        return parts

    def settle(
        self, rewrite: Rewriter, filter_: Filter, parts: Parts, steps: list[Rewrite] | None
    ) -> tuple[Parts, str]:
        """The rewritten parts whose filtered query gives the key, and that query.

        ``parts`` has had the built-in rewrites; the aliases are applied here, and again to
        the key while they would still rewrite it.
        """
        # The host alias first: the filter reads the verdicts of the host the URL is on. The
        # path aliases then rewrite the filtered key, so a parameter the verdicts of the
        # observed spelling drop (MediaWiki's title beside oldid) is dropped, not moved into
        # the other spelling's path, where no verdict could drop it.
        parts = self.apply(rewrite, parts, steps, paths=False)
        if self.rules(parts[2], parts[3]) is None:
            return parts, filter_(parts[2], parts[3], parts[4], parts[5]) if parts[5] else ""
        query = parts[5]
        for _ in range(_SETTLE):
            query = filter_(parts[2], parts[3], parts[4], parts[5]) if parts[5] else ""
            keyed = (*parts[:5], query, parts[6])
            again = self.apply(rewrite, rewrite(keyed), steps)
            if again == keyed:
                break
            parts = again
        return parts, query

    def key(self, rewrite: Rewriter, filter_: Filter, parts: Parts) -> str:
        """The key of ``parts`` (after the built-in rewrites): aliases, filter, settled."""
        parts, query = self.settle(rewrite, filter_, parts, None)
        return join_url(parts, query)


def _bare(key: str) -> str:
    if key.startswith("["):
        return key[: key.find("]") + 1]
    return key.partition(":")[0]


def _record(steps: list[Rewrite] | None, key: str, rule: Alias, old: Parts, new: Parts) -> None:
    if steps is not None:
        evidence = evidence_text(rule)
        source = f"learned set, evidence {evidence}" if evidence else "learned set"
        rule_id = f"learned:{key}:alias:{rule.describe()}"
        steps.append(Rewrite(rule_id, source, join_url(old, old[5]), join_url(new, new[5])))
