"""The rules on parameter names, and their compiling from a rules document's entries.

Why a name is kept or dropped (:class:`Rule`), exact names and prefixes
(:class:`NameMatcher`), names that are tracking only with certain values
(:class:`AmbiguousRule`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from samepage._encoding import unquote_for_matching

Layer = Literal["keep", "exception", "blocklist", "allowlist", "learned", "ambiguous", "default"]


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
