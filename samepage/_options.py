"""The normalizer's options read: name lists as matchers, host keys checked, keep_listed rules."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Literal

from samepage._validate import checked_host_key
from samepage.errors import LearnedFormatError
from samepage.rules import NameMatcher, Rule


def _as_matcher(
    names: Iterable[str], label: str, layer: Literal["blocklist", "allowlist"]
) -> NameMatcher:
    if isinstance(names, str):
        raise TypeError(f"{label} must be a collection of parameter names, not a string")
    try:
        return NameMatcher.from_patterns(names, layer=layer, label=label)
    except ValueError as exc:
        raise ValueError(str(exc)) from None


def _option_host(key: object, label: str) -> str:
    """An option's host key (lower-cased), checked by the learned-set reader's host-key rule.

    Raises:
        TypeError: the key is not a string.
        ValueError: a key that could never match a URL's host (naming it, and the spelling
            URLs carry, when there is one).
    """
    if not isinstance(key, str):
        raise TypeError(f"{label}: host key {key!r} is not a string")
    try:
        return checked_host_key(key.lower(), label)
    except LearnedFormatError as exc:
        raise ValueError(str(exc)) from None


def _keep_listed(hosts: Mapping[str, Iterable[str]]) -> dict[str, dict[str, Rule]]:
    """The ``keep_listed`` option as per-host rules: host key -> lower-cased name -> rule.

    A key is a host without a port, checked by the learned-set reader's host-key rule
    (canonical spelling, no public suffix); it covers the host and its subdomains on label
    boundaries, on every port, as ``extra_allowlist``'s keys do. Names are exact names.
    """
    if not isinstance(hosts, Mapping):
        raise TypeError("keep_listed must be a mapping of host to parameter names")
    kept: dict[str, dict[str, Rule]] = {}
    for host, names in hosts.items():
        if not isinstance(host, str) or not host or ":" in host.lstrip("[").partition("]")[0]:
            raise ValueError(f"keep_listed: {host!r} is not a host name (no port, no scheme)")
        key = _option_host(host, "keep_listed")
        if isinstance(names, str) or not isinstance(names, Iterable):
            raise TypeError(f"keep_listed[{host!r}] must be a collection of parameter names")
        rules = kept.setdefault(key, {})
        for name in names:
            if not isinstance(name, str) or not name or "*" in name:
                raise ValueError(f"keep_listed[{host!r}]: {name!r} is not an exact parameter name")
            lower = name.lower()
            rules[lower] = Rule(f"keep:{key}:{lower}", "keep", "keep_listed option")
    return kept
