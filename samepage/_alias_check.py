"""The learned-set reader's checks of a host's ``aliases`` (format 2).

Each rule must be well formed (:mod:`samepage.aliases` parses it); and a set's rules must
leave every key a fixed point: no rule's result is always rewritten again by a rule (a chain
or a cycle), no two rules have one ``from``, and no host alias leads to a host another one
rewrites. A rule whose result some rule may match for some values is allowed: the normalizer
applies a rule only where no rule may match what it makes.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from samepage._hosts import lookup_host
from samepage.aliases import Alias, HostAlias, PathAlias, Template
from samepage.errors import LearnedFormatError

__all__ = ["check_host_aliases", "read_aliases"]

Fail = Callable[[str, str], LearnedFormatError]

_PATH_KEYS = ("from", "to", "evidence")
_HOST_KEYS = ("host", "to_host", "evidence")


def read_aliases(value: Any, where: str, fail: Fail) -> tuple[Alias, ...]:
    """A domain's ``aliases`` list, each rule checked alone and against the others."""
    if not isinstance(value, list):
        raise fail(where, f"expected a list of aliases, got {type(value).__name__}")
    rules: list[Alias] = []
    for i, item in enumerate(value):
        rules.append(_rule(item, f"{where}[{i}]", fail))
    _check_together(rules, where, fail)
    return tuple(rules)


def _rule(item: Any, at: str, fail: Fail) -> Alias:
    if not isinstance(item, Mapping):
        raise fail(at, f"expected an object, got {type(item).__name__}")
    is_path = "from" in item or "to" in item
    is_host = "host" in item or "to_host" in item
    if is_path == is_host:
        raise fail(at, "an alias is either {'from', 'to'} (a path) or {'host', 'to_host'}")
    keys = _PATH_KEYS if is_path else _HOST_KEYS
    for key in keys[:2]:
        if not isinstance(item.get(key), str):
            raise fail(f"{at}.{key}", f"expected a string, got {item.get(key)!r}")
    evidence = item.get("evidence", {})
    if not isinstance(evidence, Mapping):
        raise fail(f"{at}.evidence", f"expected an object, got {type(evidence).__name__}")
    extra = {k: v for k, v in item.items() if k not in keys}
    try:
        if is_path:
            return PathAlias(item["from"], item["to"], dict(evidence), extra)
        return HostAlias(item["host"], item["to_host"], dict(evidence), extra)
    except ValueError as exc:
        raise fail(at, str(exc)) from None


def _shape(template: Template) -> tuple[object, ...]:
    """A template with its placeholders unnamed: two ``from`` of one shape match alike."""
    segments = tuple((is_name, "" if is_name else text) for is_name, text in template.segments)
    params = sorted((n, is_name, "" if is_name else v) for n, is_name, v in template.params)
    return segments, tuple(params)


def always_matches(source: Template, made: Template) -> bool:
    """Whether ``source`` matches every URL a rule with the target ``made`` makes.

    A placeholder of ``source`` matches whatever stands there; a literal only the same
    literal (a placeholder of ``made`` may or may not be it: not always).
    """
    if len(source.segments) != len(made.segments):
        return False
    for (is_name, text), (made_name, made_text) in zip(source.segments, made.segments, strict=True):
        if not is_name and (made_name or made_text != text):
            return False
    given = {name: (is_name, value) for name, is_name, value in made.params}
    for name, is_name, want in source.params:
        found = given.get(name)
        if found is None:
            return False
        if is_name:
            if not found[0] and not found[1]:
                return False  # "name=": a placeholder matches no empty value
        elif found[0] or found[1] != want:
            return False
    return True


def _check_together(rules: list[Alias], where: str, fail: Fail) -> None:
    shapes: dict[object, int] = {}
    hosts: dict[str, int] = {}
    for i, rule in enumerate(rules):
        at = f"{where}[{i}]"
        if isinstance(rule, HostAlias):
            if rule.host in hosts:
                raise fail(
                    at, f"host {rule.host!r} has an alias already: {where}[{hosts[rule.host]}]"
                )
            hosts[rule.host] = i
            continue
        shape = _shape(rule.source)
        if shape in shapes:
            raise fail(at, f"the same 'from' as {where}[{shapes[shape]}]: one rule per spelling")
        shapes[shape] = i
    paths = [(i, r) for i, r in enumerate(rules) if isinstance(r, PathAlias)]
    for i, rule in paths:
        for j, other in paths:
            if always_matches(other.source, rule.target):
                raise fail(
                    f"{where}[{i}]",
                    f"its result is rewritten again by {where}[{j}] ({other.describe()}): "
                    "write the final spelling in 'to', so that a key is a fixed point",
                )


def check_host_aliases(domains: Mapping[str, Any], where: str, fail: Fail) -> None:
    """Host aliases across a set: each read by its own key, none leading to a rewritten host.

    ``domains`` maps each key to its parsed :class:`~samepage.DomainEntry`.
    """
    rewritten: dict[tuple[str, str], str] = {}
    for key, entry in domains.items():
        host_part, port = _split_key(key)
        for i, rule in enumerate(entry.aliases):
            if not isinstance(rule, HostAlias):
                continue
            at = f"{where}[{key!r}].aliases[{i}]"
            if rule.host != host_part and not rule.host.endswith("." + host_part):
                raise fail(
                    at, f"{rule.host!r} is not a host of the domain key {key!r}: it never applies"
                )
            found = lookup_host(domains, rule.host, port)
            if found is not None and found[0] != key:
                raise fail(
                    at,
                    f"URLs of {rule.host!r} are read by the domain key {found[0]!r}: "
                    "write the alias there",
                )
            rewritten[(rule.host, port)] = f"{where}[{key!r}].aliases[{i}]"
    for key, entry in domains.items():
        port = _split_key(key)[1]
        for i, rule in enumerate(entry.aliases):
            if isinstance(rule, HostAlias) and (rule.to_host, port) in rewritten:
                raise fail(
                    f"{where}[{key!r}].aliases[{i}]",
                    f"{rule.to_host!r} is rewritten again by {rewritten[(rule.to_host, port)]}: "
                    "name the final host in 'to_host'",
                )


def _split_key(key: str) -> tuple[str, str]:
    """``(host, port)`` of a domain key (``[::1]:8080`` included)."""
    if key.startswith("["):
        end = key.find("]") + 1
        return key[:end], key[end + 1 :]
    host, _, port = key.partition(":")
    return host, port
