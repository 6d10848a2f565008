"""The static rules: tracking names, ambiguous names and per-domain lists, read from JSON.

The defaults ship in ``samepage/data/rules.json``; every entry records a ``source`` so that
each decision can be traced to the reason the rule exists (see ``docs/rules.md``).
"""

from __future__ import annotations

import difflib
import json
import pkgutil
import re
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cache
from itertools import repeat
from typing import Any, Literal, TypeVar, overload

from samepage._encoding import unquote_for_matching
from samepage._hosts import KeyTails, host_suffixes, longest_key, lookup_host
from samepage._rewrite import (
    AliasRule,
    PathSessionRule,
    RedirectRule,
    compile_aliases,
    compile_path_sessions,
    compile_redirects,
)
from samepage.errors import SamepageError

__all__ = ["AmbiguousRule", "DomainRules", "NameMatcher", "Rule", "RuleSet", "default_rules"]

_R = TypeVar("_R", RedirectRule, AliasRule)
_T = TypeVar("_T")

Layer = Literal[
    "keep", "exception", "blocklist", "allowlist", "learned", "ambiguous", "default"
]


@dataclass(frozen=True, slots=True)
class Rule:
    """One reason to keep or drop a parameter: which layer, which entry, and why it exists."""

    id: str
    layer: Layer
    source: str = ""


@dataclass(frozen=True, slots=True)
class NameMatcher:
    """Exact parameter names and name prefixes, matched on the lower-cased name."""

    names: Mapping[str, Rule] = field(default_factory=dict)
    prefixes: tuple[tuple[str, Rule], ...] = ()

    def match(self, lower_name: str) -> Rule | None:
        """Return the rule that matches ``lower_name``, if any (exact names first)."""
        rule = self.names.get(lower_name)
        if rule is not None:
            return rule
        for prefix, prefix_rule in self.prefixes:
            if lower_name.startswith(prefix):
                return prefix_rule
        return None

    def __bool__(self) -> bool:
        return bool(self.names) or bool(self.prefixes)

    def merged(self, *others: NameMatcher) -> NameMatcher:
        """One matcher with the names and prefixes of ``self`` and ``others`` (longest first)."""
        names = dict(self.names)
        prefixes = list(self.prefixes)
        for other in others:
            names.update(other.names)
            prefixes.extend(other.prefixes)
        return NameMatcher(names, tuple(sorted(prefixes, key=lambda item: -len(item[0]))))

    @classmethod
    def from_patterns(cls, patterns: Iterable[str], *, layer: Layer, label: str) -> NameMatcher:
        """Build a matcher from names, where ``name*`` stands for a prefix.

        >>> matcher = NameMatcher.from_patterns(["sid", "trk_*"], layer="blocklist", label="extra")
        >>> matcher.match("trk_x")
        Rule(id='extra:trk_*', layer='blocklist', source='')
        """
        names: dict[str, Rule] = {}
        prefixes: list[tuple[str, Rule]] = []
        for pattern in patterns:
            if not isinstance(pattern, str) or not pattern.strip("*"):
                raise ValueError(f"{label}: {pattern!r} is not a parameter name")
            lowered = pattern.lower()
            rule = Rule(f"{label}:{lowered}", layer)
            if lowered.endswith("*"):
                prefixes.append((lowered[:-1], rule))
            else:
                names[lowered] = rule
        return cls(names, tuple(sorted(prefixes, key=lambda item: -len(item[0]))))


@dataclass(frozen=True, slots=True)
class AmbiguousRule:
    """A name that is tracking only with certain values, and never on the excepted hosts.

    Session ids are such names too (``phpsessid`` holding a token); ``requires`` names a
    parameter that must also be present (``cfid`` counts only next to ``cftoken``).
    """

    rule: Rule
    values: frozenset[str] = frozenset()
    value_prefixes: tuple[str, ...] = ()
    value_regex: re.Pattern[str] | None = None
    except_hosts: Mapping[str, bool] = field(default_factory=dict)
    requires: str = ""

    def is_tracking(self, value: str) -> bool:
        """Whether ``value`` (as in the URL) is one of the values that mark tracking."""
        lowered = unquote_for_matching(value).lower()
        if lowered in self.values:
            return True
        if self.value_prefixes and lowered.startswith(self.value_prefixes):
            return True
        return self.value_regex is not None and self.value_regex.fullmatch(lowered) is not None


@dataclass(frozen=True, slots=True)
class DomainRules:
    """The allowlist and blocklist of one group of hosts.

    ``except_paths`` matches the start of the paths where the block list does not apply
    (the API and dialog paths a strip list excepts); the allowlist applies everywhere.
    ``block`` holds the entries that apply on every host and path of the group. An entry
    its source scopes to a path is in ``paths`` (a path regex, matched from the start of
    the path, and the entries that apply there); an entry scoped to some hosts of the group
    is in the rules of those hosts, ``by_host`` (the group's rules with those entries added,
    looked up by the longest host key covering the URL's host). ``keep`` holds the names a
    strip list excepts on these hosts (rule ids ``exception:...``): no static rule drops
    them; ``paths`` has the block entries and the excepted names of each path class.
    """

    hosts: tuple[str, ...]
    allow: NameMatcher
    block: NameMatcher
    except_paths: re.Pattern[str] | None = None
    paths: tuple[tuple[re.Pattern[str], NameMatcher, NameMatcher], ...] = ()
    by_host: Mapping[str, DomainRules] = field(default_factory=dict)
    keep: NameMatcher = field(default_factory=NameMatcher)

    def at_host(self, host: str) -> DomainRules:
        """The rules on ``host``: the group's, with the entries scoped to ``host`` added."""
        if not self.by_host:
            return self
        longest = self.by_host.longest if isinstance(self.by_host, _Lazy) else None
        found = lookup_host(self.by_host, host, longest=longest)
        return found[1] if found else self

    def mapped(self, matcher: Callable[[NameMatcher], NameMatcher]) -> DomainRules:
        """These rules with ``matcher`` applied to every name list (its variants' too).

        A variant is changed the first time it is read.
        """
        return DomainRules(
            self.hosts,
            matcher(self.allow),
            matcher(self.block),
            self.except_paths,
            tuple((regex, matcher(block), matcher(keep)) for regex, block, keep in self.paths),
            _mapped(self.by_host, lambda rules: rules.mapped(matcher)),
            matcher(self.keep),
        )

    def matchers(self) -> Iterator[NameMatcher]:
        """Every name list of these rules: allow, block, per path and per host."""
        yield self.allow
        yield self.block
        yield self.keep
        for _, block, keep in self.paths:
            yield block
            yield keep
        for rules in self.by_host.values():
            yield from rules.matchers()


_COMPILE_ERRORS = (KeyError, TypeError, ValueError, AttributeError, re.error)


class _Groups(Mapping[str, DomainRules]):
    """Host key to platform group, each group compiled the first time one of its hosts is read.

    A stream of URLs visits few of the hundreds of platforms the built-in rules know, and
    compiling all of their names up front took longer than reading and checking the whole
    file. A group is compiled once and that one object is returned from then on (also when
    two threads compile it at once), so it can key a cache.
    """

    __slots__ = ("_compiled", "_groups", "_index")

    def __init__(self, groups: Sequence[Mapping[str, Any]]) -> None:
        self._groups = groups
        self._index = {host.lower(): i for i, group in enumerate(groups) for host in group["hosts"]}
        self._compiled: dict[int, DomainRules] = {}

    def __getitem__(self, host: str) -> DomainRules:
        return self._group(self._index[host])

    @overload
    def get(self, host: str, /) -> DomainRules | None: ...
    @overload
    def get(self, host: str, /, default: DomainRules | _T) -> DomainRules | _T: ...
    def get(self, host: str, /, default: object = None) -> object:
        """The group of the host key ``host``, or ``default`` (no exception on the way)."""
        index = self._index.get(host)
        return default if index is None else self._group(index)

    def __contains__(self, host: object) -> bool:
        return host in self._index

    def __iter__(self) -> Iterator[str]:
        return iter(self._index)

    def __len__(self) -> int:
        return len(self._index)

    def __repr__(self) -> str:
        return f"<{len(self._groups)} platform groups on {len(self._index)} host keys>"

    def compile_all(self) -> None:
        """Compile every group now (a document from a caller is checked whole when read)."""
        for index in range(len(self._groups)):
            self._group(index)

    def _group(self, index: int) -> DomainRules:
        found = self._compiled.get(index)
        if found is None:
            group = self._groups[index]
            try:
                compiled = _domain_rules(group)
            except _COMPILE_ERRORS as exc:
                where = f"domains[{index}] ({group['hosts'][0]})"
                raise SamepageError(f"rules: {where}: {type(exc).__name__}: {exc}") from exc
            found = self._compiled.setdefault(index, compiled)
        return found


class _Lazy(Mapping[str, DomainRules]):
    """Host key to rules, each built the first time it is read (then always that object).

    A platform's hosts and the places the lists except are many (every Google domain),
    and a stream of URLs visits few of them.
    """

    __slots__ = ("_build", "_built", "_keys", "longest")

    def __init__(self, keys: Iterable[str], build: Callable[[str], DomainRules]) -> None:
        self._keys = frozenset(keys)
        self._build = build
        self._built: dict[str, DomainRules] = {}
        # The longest key, for host lookups (samepage._hosts.lookup_host).
        self.longest = longest_key(dict.fromkeys(self._keys))

    def __getitem__(self, key: str) -> DomainRules:
        found = self._built.get(key)
        if found is None:
            if key not in self._keys:
                raise KeyError(key)
            found = self._built.setdefault(key, self._build(key))
        return found

    @overload
    def get(self, key: str, /) -> DomainRules | None: ...
    @overload
    def get(self, key: str, /, default: DomainRules | _T) -> DomainRules | _T: ...
    def get(self, key: str, /, default: object = None) -> object:
        """The rules of ``key``, or ``default``, raising no exception on the way.

        A host lookup tries every suffix of a host, and most are no key.
        """
        found = self._built.get(key)
        if found is not None:
            return found
        return self[key] if key in self._keys else default

    def __contains__(self, key: object) -> bool:
        return key in self._keys

    def __iter__(self) -> Iterator[str]:
        return iter(sorted(self._keys))

    def __len__(self) -> int:
        return len(self._keys)

    def compile_all(self) -> None:
        """Build every entry now (a document from a caller is checked whole when read)."""
        for key in self._keys:
            self[key]


class _Changed(Mapping[str, DomainRules]):
    """Host key to platform group: ``source``'s, each changed when first read.

    The hosts that share a group in ``source`` share the changed one.
    """

    __slots__ = ("_change", "_done", "_source")

    def __init__(
        self, source: Mapping[str, DomainRules], change: Callable[[DomainRules], DomainRules]
    ) -> None:
        self._source = source
        self._change = change
        self._done: dict[int, DomainRules] = {}

    def __getitem__(self, host: str) -> DomainRules:
        group = self._source[host]
        found = self._done.get(id(group))
        if found is None:
            found = self._done.setdefault(id(group), self._change(group))
        return found

    @overload
    def get(self, host: str, /) -> DomainRules | None: ...
    @overload
    def get(self, host: str, /, default: DomainRules | _T) -> DomainRules | _T: ...
    def get(self, host: str, /, default: object = None) -> object:
        """The group of the host key ``host``, or ``default``."""
        return self[host] if host in self._source else default

    def __contains__(self, host: object) -> bool:
        return host in self._source

    def __iter__(self) -> Iterator[str]:
        return iter(self._source)

    def __len__(self) -> int:
        return len(self._source)


def _mapped(
    table: Mapping[str, DomainRules], change: Callable[[DomainRules], DomainRules]
) -> Mapping[str, DomainRules]:
    """``table`` with ``change`` applied to each value the first time it is read."""
    if not table:
        return {}
    return _Lazy(table, lambda key: change(table[key]))


@dataclass(frozen=True, slots=True)
class RuleSet:
    """All static rules, compiled for lookups."""

    tracking: NameMatcher
    ambiguous: Mapping[str, AmbiguousRule]
    domains: Mapping[str, DomainRules]
    ambiguous_prefixes: tuple[tuple[str, AmbiguousRule], ...] = ()
    redirects: Mapping[str, tuple[RedirectRule, ...]] = field(default_factory=dict)
    aliases: Mapping[str, tuple[AliasRule, ...]] = field(default_factory=dict)
    path_sessions: tuple[PathSessionRule, ...] = ()
    # Host key to the names strip lists except there (``keep`` and ``paths`` of each).
    exceptions: Mapping[str, DomainRules] = field(default_factory=dict)
    _excepts: Mapping[str, frozenset[str]] = field(init=False, repr=False, compare=False)
    # The longest key of the excepts, domains, redirects and exceptions tables: host
    # lookups stay linear.
    _longest: tuple[int, int, int, int] = field(init=False, repr=False, compare=False)
    # A host's group rules with the exceptions of its host keys, built once per pair.
    _with_exceptions: dict[tuple[int, tuple[str, ...]], DomainRules] = field(
        init=False, repr=False, compare=False
    )
    # The tails of those tables' keys: most hosts are in none of them, found with one lookup.
    _tails: KeyTails = field(init=False, repr=False, compare=False)
    # What :meth:`rule_keys` found, once asked.
    _rule_keys: list[frozenset[str]] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        excepts: dict[str, set[str]] = {}
        for name, rule in self.ambiguous.items():
            for host in rule.except_hosts:
                excepts.setdefault(host, set()).add(name)
        object.__setattr__(self, "_excepts", {h: frozenset(n) for h, n in excepts.items()})
        longest = (
            longest_key(excepts),
            longest_key(self.domains),
            longest_key(self.redirects),
            longest_key(self.exceptions),
        )
        object.__setattr__(self, "_longest", longest)
        keys = [*excepts, *self.domains, *self.redirects, *self.exceptions]
        object.__setattr__(self, "_tails", KeyTails(keys))
        object.__setattr__(self, "_with_exceptions", {})
        object.__setattr__(self, "_rule_keys", [])

    def excepted_names(self, host: str) -> frozenset[str]:
        """The ambiguous names that are always content on ``host`` (its except-hosts)."""
        if not self._excepts or not self._tails.may_cover(host):
            return frozenset()
        found: frozenset[str] = frozenset()
        for suffix in host_suffixes(host, self._longest[0]):
            names = self._excepts.get(suffix)
            if names:
                found |= names
        return found

    def domain(self, host: str) -> DomainRules | None:
        """The rules on ``host``, with its host keys' scoped entries and list exceptions.

        The group is the longest domain key covering ``host``; the entries scoped to some
        of its hosts and the names the strip lists except there are added.

        The same object for every host with the same rules, so it can key a cache.
        """
        if not self._tails.may_cover(host):
            return None
        found = lookup_host(self.domains, host, longest=self._longest[1])
        rules = found[1].at_host(host) if found else None
        if not self.exceptions:
            return rules
        keys = tuple(key for key in host_suffixes(host, self._longest[3]) if key in self.exceptions)
        if not keys:
            return rules
        cache_key = (id(rules), keys)
        combined = self._with_exceptions.get(cache_key)
        if combined is None:
            excepted = [self.exceptions[key] for key in keys]
            base = rules or DomainRules((), NameMatcher(), NameMatcher())
            combined = DomainRules(
                base.hosts,
                base.allow,
                base.block,
                base.except_paths,
                base.paths + tuple(p for e in excepted for p in e.paths),
                {},
                base.keep.merged(*(e.keep for e in excepted)),
            )
            combined = self._with_exceptions.setdefault(cache_key, combined)
        return combined

    def redirect_rules(self, host: str) -> tuple[RedirectRule, ...]:
        """The redirect rules of the longest host key covering ``host`` (none: empty)."""
        if not self._tails.may_cover(host):
            return ()
        found = lookup_host(self.redirects, host, longest=self._longest[2])
        return found[1] if found else ()

    def without(self, disabled: Iterable[str]) -> RuleSet:
        """A copy with the named rules switched off.

        Each item is a rule id (as :meth:`MIQPSNormalizer.explain` reports it, e.g.
        ``tracking:ref_*``, ``youtube.com:block:si``, ``redirect:google`` or
        ``alias:youtube-short-link``) or a bare name or ``prefix*``, which switches off
        every rule on that name.

        Raises:
            TypeError: for a bare string (a collection of ids is expected).
            ValueError: for an id or name no rule has, naming the closest known one.
        """
        if isinstance(disabled, str):
            raise TypeError(
                f"disable_rules must be a collection of rule ids or names, not the string "
                f"{disabled!r} (write {{{disabled!r}}})"
            )
        off = set()
        for item in disabled:
            if not isinstance(item, str):
                raise TypeError(f"disable_rules: {item!r} is not a rule id or name")
            off.add(item.lower())
        if not off:
            return self
        known = self.rule_keys()
        unknown = sorted(off - known)
        if unknown:
            covering = [k for k in known if k.endswith("*") and unknown[0].startswith(k[:-1])]
            close = covering or difflib.get_close_matches(unknown[0], known, n=1, cutoff=0.0)
            hint = f"; the closest known one is {close[0]!r}" if close else ""
            raise ValueError(f"disable_rules: no rule has the id or name {unknown[0]!r}{hint}")

        def keep(rule: Rule, key: str) -> bool:
            # A list's exception is switched off by its id only: a bare name switches off
            # the rules that drop or keep that name, not the places a list excepts.
            return rule.id.lower() not in off and (rule.layer == "exception" or key not in off)

        def filtered(matcher: NameMatcher) -> NameMatcher:
            return NameMatcher(
                {n: r for n, r in matcher.names.items() if keep(r, n)},
                tuple((p, r) for p, r in matcher.prefixes if keep(r, p + "*")),
            )


        def kept_ids(table: Mapping[str, tuple[_R, ...]]) -> dict[str, tuple[_R, ...]]:
            out = {
                k: tuple(r for r in rules if r.id.lower() not in off) for k, rules in table.items()
            }
            return {k: rules for k, rules in out.items() if rules}

        return RuleSet(
            tracking=filtered(self.tracking),
            ambiguous={n: a for n, a in self.ambiguous.items() if keep(a.rule, n)},
            domains=_Changed(self.domains, lambda group: group.mapped(filtered)),
            ambiguous_prefixes=tuple(
                (p, a) for p, a in self.ambiguous_prefixes if keep(a.rule, p + "*")
            ),
            redirects=kept_ids(self.redirects),
            aliases=kept_ids(self.aliases),
            path_sessions=tuple(r for r in self.path_sessions if r.id.lower() not in off),
            exceptions=_mapped(self.exceptions, lambda excepted: excepted.mapped(filtered)),
        )

    def rule_keys(self) -> frozenset[str]:
        """Every lower-case rule id, name and ``prefix*`` that :meth:`without` accepts."""
        if not self._rule_keys:
            self._rule_keys.append(self._find_rule_keys())
        return self._rule_keys[0]

    def _find_rule_keys(self) -> frozenset[str]:
        keys: set[str] = set()

        def add(matcher: NameMatcher) -> None:
            keys.update(matcher.names)
            keys.update(r.id.lower() for r in matcher.names.values())
            for prefix, rule in matcher.prefixes:
                keys.update((prefix + "*", rule.id.lower()))

        add(self.tracking)
        # Many host keys share one platform group: each group once.
        for group in {id(g): g for g in self.domains.values()}.values():
            for matcher in group.matchers():
                add(matcher)
        for excepted in self.exceptions.values():
            for matcher in excepted.matchers():
                keys.update(rule.id.lower() for rule in matcher.names.values())
                keys.update(rule.id.lower() for _, rule in matcher.prefixes)
        for name, rule in self.ambiguous.items():
            keys.update((name, rule.rule.id.lower()))
        for prefix, rule in self.ambiguous_prefixes:
            keys.update((prefix + "*", rule.rule.id.lower()))
        for table in (self.redirects, self.aliases):
            for rules in table.values():
                keys.update(r.id.lower() for r in rules)
        keys.update(r.id.lower() for r in self.path_sessions)
        return frozenset(keys)

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> RuleSet:
        """Compile a rules document (``format: samepage.rules``, ``version: 1``).

        Raises:
            SamepageError: for an unknown format, or an entry that is not well formed; the
                message names the section, the entry's place in it and the problem.
        """
        return cls._read(data, lazy=False)

    @classmethod
    def _read(cls, data: Mapping[str, Any], *, lazy: bool) -> RuleSet:
        """Check and compile a document; with ``lazy``, each platform group on first use.

        Only a document nobody else holds may be lazy (the package's own): a group is
        compiled from the document as it is then.
        """
        if not isinstance(data, Mapping):
            raise SamepageError("rules: the document must be a JSON object")
        if data.get("format") != "samepage.rules" or data.get("version") != 1:
            raise SamepageError(
                f"unknown rules format {data.get('format')!r} version {data.get('version')!r}"
            )
        _check_entries(data)
        try:
            rules = cls._compile(data)
        except _COMPILE_ERRORS as exc:
            raise SamepageError(f"rules: {type(exc).__name__}: {exc}") from exc
        if not lazy:
            assert isinstance(rules.domains, _Groups) and isinstance(rules.exceptions, _Lazy)
            rules.domains.compile_all()
            try:
                rules.exceptions.compile_all()
                for group in {id(g): g for g in rules.domains.values()}.values():
                    if isinstance(group.by_host, _Lazy):
                        group.by_host.compile_all()
            except _COMPILE_ERRORS as exc:
                raise SamepageError(f"rules: {type(exc).__name__}: {exc}") from exc
        return rules

    @classmethod
    def _compile(cls, data: Mapping[str, Any]) -> RuleSet:
        tracking = _matcher(data.get("tracking", []), "tracking", "blocklist")
        ambiguous: dict[str, AmbiguousRule] = {}
        prefixes: list[tuple[str, AmbiguousRule]] = []
        for section in ("ambiguous", "session"):
            for entry in data.get(section, []):
                key = (entry.get("name") or entry["prefix"] + "*").lower()
                rule = _ambiguous(
                    entry, Rule(f"{section}:{key}", "ambiguous", entry.get("source", ""))
                )
                if key.endswith("*"):
                    prefixes.append((key[:-1], rule))
                else:
                    ambiguous[key] = rule
        return cls(
            tracking,
            ambiguous,
            _Groups(data.get("domains", [])),
            ambiguous_prefixes=tuple(sorted(prefixes, key=lambda item: -len(item[0]))),
            redirects=compile_redirects(data.get("redirects", [])),
            aliases=compile_aliases(data.get("aliases", [])),
            path_sessions=compile_path_sessions(data.get("path_sessions", [])),
            exceptions=_exceptions(data.get("exceptions", [])),
        )


def _domain_rules(group: Mapping[str, Any]) -> DomainRules:
    """One platform group of a rules document, compiled.

    A block entry with ``hosts`` (host keys of the group, or subdomains of them) applies
    only on those hosts, one with ``paths`` (regexes matched from the start of the path)
    only on those paths: each entry at the scope its source gives it, never wider.
    """
    hosts = tuple(h.lower() for h in group["hosts"])
    label = hosts[0]
    excepted = group.get("except_paths", [])
    allow = _matcher(group.get("allow", []), f"{label}:allow", "allowlist")
    entries = group.get("block", [])
    plain = [entry for entry in entries if "hosts" not in entry and "paths" not in entry]
    block = _matcher(plain, f"{label}:block", "blocklist")
    except_paths = re.compile("|".join(excepted)) if excepted else None
    if len(plain) == len(entries):
        return DomainRules(hosts, allow, block, except_paths)
    keys = frozenset(hosts)
    # Each list of hosts checked once: a platform's entries share a few long lists.
    checked: dict[tuple[str, ...], frozenset[str]] = {}
    scoped = [
        (entry, _entry_hosts(entry, keys, checked), _entry_paths(entry))
        for entry in entries
        if "hosts" in entry or "paths" in entry
    ]

    def rules_at(key: str) -> DomainRules:
        above = set(host_suffixes(key)) if key else set()
        here = [(e, p) for e, h, p in scoped if not h or not h.isdisjoint(above)]
        by_path: dict[str, list[Mapping[str, str]]] = {}
        for entry, path in here:
            by_path.setdefault(path, []).append(entry)
        added = by_path.pop("", [])
        return DomainRules(
            hosts,
            allow,
            block.merged(_matcher(added, f"{label}:block", "blocklist")),
            except_paths,
            tuple(
                (re.compile(path), _matcher(found, f"{label}:block", "blocklist"), NameMatcher())
                for path, found in by_path.items()
            ),
        )

    variants = {host for _, listed, _ in scoped for host in listed}
    return replace(rules_at(""), by_host=_Lazy(variants, rules_at))


def _entry_hosts(
    entry: Mapping[str, Any],
    group: frozenset[str],
    checked: dict[tuple[str, ...], frozenset[str]],
) -> frozenset[str]:
    """An entry's own hosts, each inside the group's hosts; empty: the whole group.

    ``checked`` holds the lists already found good, by their spelling.
    """
    if "hosts" not in entry:
        return frozenset()
    listed = entry["hosts"]
    if not isinstance(listed, list) or not listed or not all(map(isinstance, listed, repeat(str))):
        raise ValueError(f"{entry.get('name')!r}: 'hosts' must be a non-empty list of names")
    spelled = tuple(listed)
    hosts = checked.get(spelled)
    if hosts is None:
        lowered = [host.lower() for host in listed]
        for host in lowered:
            # A host key of the group or a subdomain of one (most often of its parent).
            if host in group or host.partition(".")[2] in group:
                continue
            if group.isdisjoint(host_suffixes(host)):
                raise ValueError(f"{entry.get('name')!r}: host {host!r} is not a host of the group")
        hosts = checked[spelled] = frozenset(lowered)
    return hosts


def _entry_paths(entry: Mapping[str, Any]) -> str:
    """An entry's path regexes as one regex matched from the path's start ("" for every path)."""
    if "paths" not in entry:
        return ""
    listed = entry["paths"]
    if not isinstance(listed, list) or not listed or not all(map(isinstance, listed, repeat(str))):
        raise ValueError(f"{entry.get('name')!r}: 'paths' must be a non-empty list of regexes")
    joined = "|".join(f"(?:{path})" for path in listed)
    re.compile(joined)
    return joined


def _exceptions(entries: Sequence[Mapping[str, Any]]) -> _Lazy:
    """The ``exceptions`` section: per host key, the names kept on its paths (or all paths).

    Each entry names its ``hosts``, optionally ``paths`` (regexes matched from the start of
    the path), and the names it keeps: ``names`` and ``prefixes``, or ``every`` parameter.
    Its rule ids are ``exception:ID:NAME``. A host's exceptions are compiled when a URL of
    it is first seen.
    """
    by_host: dict[str, list[Mapping[str, Any]]] = {}
    for entry in entries:
        for host in entry["hosts"]:
            by_host.setdefault(host.lower(), []).append(entry)
    empty = NameMatcher()
    # One entry's names, compiled once for all its hosts (Google's on every Google domain).
    compiled: dict[int, NameMatcher] = {}

    def build(host: str) -> DomainRules:
        keep: list[NameMatcher] = []
        paths = []
        for entry in by_host[host]:
            names = compiled.get(id(entry))
            if names is None:
                names = compiled.setdefault(id(entry), _kept_names(entry))
            path = _entry_paths(entry)
            if path:
                paths.append((re.compile(path), empty, names))
            else:
                keep.append(names)
        return DomainRules((host,), empty, empty, paths=tuple(paths), keep=empty.merged(*keep))

    return _Lazy(by_host, build)


def _kept_names(entry: Mapping[str, Any]) -> NameMatcher:
    """The names an ``exceptions`` entry keeps: its names and prefixes, or every name."""
    label = f"exception:{entry['id']}"
    source = entry.get("source", "")
    if entry.get("every"):
        return NameMatcher({}, (("", Rule(f"{label}:*", "exception", source)),))
    listed = [{"name": name, "source": source} for name in entry.get("names", [])]
    listed += [{"prefix": prefix, "source": source} for prefix in entry.get("prefixes", [])]
    if not listed:
        raise ValueError(f"{label}: needs 'names', 'prefixes' or 'every'")
    return _matcher(listed, label, "exception")


def _check_entries(data: Mapping[str, Any]) -> None:
    """Name the first entry of a rules document that cannot be compiled, and why."""
    # A place is only formatted for a bad entry, and a parsed document's dicts pass the
    # cheap type() test before the generic Mapping one: a file has thousands of entries.

    def problem(entry: object) -> str:
        if type(entry) is not dict and not isinstance(entry, Mapping):
            return "an entry must be an object"
        key = entry.get("name")
        if key is None:
            key = entry.get("prefix")
        elif "prefix" in entry:
            key = None
        if not isinstance(key, str) or not key:
            return "needs exactly one of 'name' or 'prefix'"
        return ""

    def listed(value: object, where: str, *place: object) -> list[Any]:
        if not isinstance(value, list):
            raise SamepageError(f"rules: {where.format(*place)}: must be a list")
        return value

    for section in ("tracking", "ambiguous", "session"):
        for index, entry in enumerate(listed(data.get(section, []), section)):
            if found := problem(entry):
                raise SamepageError(f"rules: {section}[{index}]: {found}")
    for index, group in enumerate(listed(data.get("domains", []), "domains")):
        is_mapping = type(group) is dict or isinstance(group, Mapping)
        hosts = group.get("hosts") if is_mapping else None
        if not isinstance(hosts, list) or not hosts or not all(map(isinstance, hosts, repeat(str))):
            message = "'hosts' must be a non-empty list of names"
            raise SamepageError(f"rules: domains[{index}]: {message}")
        for kind in ("allow", "block"):
            entries = listed(group.get(kind, []), "domains[{}].{}", index, kind)
            for number, entry in enumerate(entries):
                if found := problem(entry):
                    where = f"domains[{index}] ({hosts[0]}).{kind}[{number}]"
                    raise SamepageError(f"rules: {where}: {found}")
    for section in ("redirects", "aliases", "path_sessions", "exceptions"):
        for index, entry in enumerate(listed(data.get(section, []), section)):
            if not isinstance(entry, Mapping) or not isinstance(entry.get("id"), str):
                raise SamepageError(f"rules: {section}[{index}]: needs a string 'id'")
    for index, entry in enumerate(data.get("exceptions", [])):
        hosts = entry.get("hosts")
        if not isinstance(hosts, list) or not hosts or not all(map(isinstance, hosts, repeat(str))):
            message = "'hosts' must be a non-empty list of names"
            raise SamepageError(f"rules: exceptions[{index}] ({entry['id']}): {message}")


def _ambiguous(entry: Mapping[str, Any], rule: Rule) -> AmbiguousRule:
    regex = entry.get("value_regex")
    return AmbiguousRule(
        rule=rule,
        values=frozenset(v.lower() for v in entry.get("values", [])),
        value_prefixes=tuple(p.lower() for p in entry.get("value_prefixes", [])),
        value_regex=re.compile(regex) if regex else None,
        except_hosts=dict.fromkeys((h.lower() for h in entry.get("except_hosts", [])), True),
        requires=entry.get("requires", "").lower(),
    )


def _matcher(entries: Iterable[Mapping[str, str]], label: str, layer: Layer) -> NameMatcher:
    names: dict[str, Rule] = {}
    prefixes: list[tuple[str, Rule]] = []
    for entry in entries:
        source = entry.get("source", "")
        if "name" in entry:
            name = entry["name"].lower()
            names[name] = Rule(f"{label}:{name}", layer, source)
        else:
            prefix = entry["prefix"].lower()
            prefixes.append((prefix, Rule(f"{label}:{prefix}*", layer, source)))
    # Longest prefix first, so the most specific rule is the one reported.
    prefixes.sort(key=lambda item: -len(item[0]))
    return NameMatcher(names, tuple(prefixes))


@cache
def default_rules() -> RuleSet:
    """The rules shipped with samepage, read once from the package data.

    A platform group is compiled the first time a URL of one of its hosts is seen (the
    test suite compiles the whole file). The file is read through the package's loader, as
    ``importlib.resources`` reads it, without importing that machinery (and ``zipfile``) on
    the first normalisation.
    """
    data = pkgutil.get_data("samepage", "data/rules.json")
    if data is None:
        raise SamepageError("rules: samepage/data/rules.json cannot be read")
    return RuleSet._read(json.loads(data), lazy=True)
