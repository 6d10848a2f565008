"""The rules of one group of hosts, and the host-key tables that build rules when first read.

:class:`DomainRules` holds a group's lists, per path and per host; the tables keep a stream
of URLs from building the rules of hosts it never visits.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import TypeVar, overload

from samepage._hosts import longest_key, lookup_host
from samepage._name_rules import NameMatcher

_T = TypeVar("_T")


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

    def __reduce__(self) -> tuple[Callable[[dict[str, DomainRules]], _Lazy], tuple[object]]:
        """Pickled with every key built: the builder is a closure over its source."""
        return _built, (dict(self.items()),)

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


def _built(table: dict[str, DomainRules]) -> _Lazy:
    """A :class:`_Lazy` whose every key is built already (as unpickled)."""
    lazy = _Lazy(table, table.__getitem__)
    lazy._built.update(table)
    return lazy


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

    def __reduce__(self) -> tuple[Callable[[dict[str, DomainRules]], _Lazy], tuple[object]]:
        """Pickled with every group changed: ``change`` is a closure of its caller."""
        return _built, (dict(self.items()),)

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
