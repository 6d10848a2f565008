"""The static rules: tracking names, ambiguous names and per-domain lists, read from JSON.

The defaults ship in ``samepage/data/rules.json``; every entry records a ``source`` so that
each decision can be traced to the reason the rule exists (see ``docs/rules.md``).

This module holds :class:`RuleSet`, the compiled whole and its lookups by host, and
:func:`default_rules`; the name rules are in ``_name_rules``, a host group's rules in
``_domain_rules``, the compiling of groups and exceptions at their scopes in ``_rule_scopes``
and the document's checks in ``_rule_checks``.
"""

from __future__ import annotations

import difflib
import json
import pkgutil
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import cache
from typing import Any, SupportsIndex, TypeVar

from samepage._domain_rules import DomainRules, _Changed, _Lazy, _mapped
from samepage._hosts import KeyTails, host_suffixes, longest_key, lookup_host
from samepage._name_rules import AmbiguousRule, NameMatcher, Rule, _ambiguous, _matcher
from samepage._rewrite import (
    AliasRule,
    PathSessionRule,
    RedirectRule,
    compile_aliases,
    compile_path_sessions,
    compile_redirects,
)
from samepage._rule_checks import _check_entries
from samepage._rule_scopes import _COMPILE_ERRORS, _exceptions, _Groups
from samepage.errors import SamepageError

__all__ = ["AmbiguousRule", "DomainRules", "NameMatcher", "Rule", "RuleSet", "default_rules"]

_R = TypeVar("_R", RedirectRule, AliasRule)


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

    def __reduce_ex__(self, protocol: SupportsIndex) -> str | tuple[Any, ...]:
        """The built-in set pickles as a call of :func:`default_rules`: nothing compiled."""
        if self is default_rules():
            return default_rules, ()
        return object.__reduce_ex__(self, protocol)

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
