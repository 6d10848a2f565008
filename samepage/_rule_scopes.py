"""A rules document's platform groups and strip-list exceptions, compiled, each at its scope.

Each entry applies at the scope (hosts, paths) its source gives it, never wider; a platform
group is compiled when one of its hosts is first read.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import replace
from itertools import repeat
from typing import Any, TypeVar, overload

from samepage._domain_rules import DomainRules, _Lazy
from samepage._hosts import host_suffixes
from samepage._name_rules import NameMatcher, Rule, _matcher
from samepage.errors import SamepageError

_T = TypeVar("_T")

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
