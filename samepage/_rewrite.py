"""Whole-URL rewrites that run before the parameter filter.

Three kinds, each compiled from a section of ``rules.json`` and switchable by rule id:

- redirect wrappers (``google.com/url?q=TARGET``): the key is the target's key;
- aliases (``youtu.be/ID`` is ``www.youtube.com/watch?v=ID``): one host and path per page;
- session ids in the path (``;jsessionid=...``, ASP.NET's cookieless ``/(S(...))/``).
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import unquote

from samepage._url import normalize_path

__all__ = [
    "NO_REWRITES",
    "AliasRule",
    "HostRewrites",
    "PathSessionRule",
    "RedirectRule",
    "Rewrite",
    "session_triggers",
]

# The target of a wrapper must be an absolute http(s) URL; anything else (a relative path,
# "javascript:", a bare host) leaves the wrapper as it is.
_ABSOLUTE_HTTP = re.compile(r"https?://[^/?#\s]", re.IGNORECASE)
_GROUP = re.compile(r"\{(\d)\}")


@dataclass(frozen=True, slots=True)
class Rewrite:
    """One whole-URL rewrite step of :meth:`MIQPSNormalizer.explain`: rule, source, URLs."""

    rule: str
    source: str
    before: str
    after: str

    def to_json(self) -> dict[str, Any]:
        """This step as a JSON-ready dict."""
        return {
            "rule": self.rule,
            "source": self.source,
            "before": self.before,
            "after": self.after,
        }


@dataclass(frozen=True, slots=True)
class RedirectRule:
    """A redirector: on its hosts (and path), a parameter holds the URL it sends you to."""

    id: str
    source: str
    path: str | None  # the normalised path, or None for any path
    params: tuple[str, ...]  # lower-case names that may hold the target, preferred first

    def target(self, path: str, query: str) -> str | None:
        """The decoded target URL, if ``path`` and ``query`` hold one; else ``None``.

        >>> rule = RedirectRule("redirect:x", "", "/url", ("q",))
        >>> rule.target("/url", "sa=t&q=https%3A%2F%2Fexample.com%2Fa%3Fb%3D1")
        'https://example.com/a?b=1'
        >>> rule.target("/url", "q=%2Fsearch%3Fq%3Dx") is None
        True
        """
        if self.path is not None and path != self.path:
            return None
        found: dict[str, str] = {}
        for piece in query.split("&"):
            name, eq, value = piece.partition("=")
            lowered = name.lower()
            if eq and value and lowered in self.params and lowered not in found:
                found[lowered] = value
        for name in self.params:
            raw = found.get(name)
            if raw is None:
                continue
            target = unquote(raw)
            if _ABSOLUTE_HTTP.match(target):
                return target
        return None


@dataclass(frozen=True, slots=True)
class AliasRule:
    """Another spelling of a platform's page: rewrite host, path and query into one form.

    ``path`` must match the whole normalised path; ``{1}``, ``{2}``... in ``to_path`` and
    ``add_query`` of the data stand for its groups (compiled to ``str.format`` fields).
    """

    id: str
    source: str
    path: re.Pattern[str] | None
    to_host: str | None
    to_path: str | None
    add_query: str | None

    def apply(self, host: str, path: str, query: str) -> tuple[str, str, str] | None:
        """The rewritten ``(host, path, query)``, or ``None`` when the rule does not apply."""
        groups: tuple[str, ...] = ()
        if self.path is not None:
            match = self.path.fullmatch(path)
            if match is None:
                return None
            groups = match.groups("")
        new_host = self.to_host or host
        new_path = self.to_path.format(*groups) if self.to_path is not None else path
        new_query = query
        if self.add_query is not None:
            added = self.add_query.format(*groups)
            new_query = f"{added}&{query}" if query else added
        if new_path == path and new_host == host and new_query == query:
            return None
        return new_host, new_path, new_query


@dataclass(frozen=True, slots=True)
class PathSessionRule:
    """A session id written into the path; the matched text is removed."""

    id: str
    source: str
    pattern: re.Pattern[str]

    def strip(self, path: str) -> str:
        """``path`` without the session id (normalised again: no empty path, no ``/`` end)."""
        stripped = self.pattern.sub("", path)
        if stripped == path:
            return path
        return normalize_path(stripped or "/")


@dataclass(frozen=True, slots=True)
class HostRewrites:
    """The redirect and alias rules of one host, with the paths where any of them may apply.

    The normaliser asks :meth:`may_apply` on every URL, so it is a set lookup: most hosts
    have no rules, and a redirector such as ``www.google.com`` wraps only on ``/url``.
    """

    redirects: tuple[RedirectRule, ...] = ()
    aliases: tuple[AliasRule, ...] = ()
    paths: frozenset[str] = frozenset()
    any_path: bool = False

    @classmethod
    def of(
        cls, redirects: tuple[RedirectRule, ...], aliases: tuple[AliasRule, ...]
    ) -> HostRewrites:
        """Collect the rules; a rule without a fixed path makes every path a candidate."""
        paths = frozenset(r.path for r in redirects if r.path is not None)
        any_path = bool(aliases) or any(r.path is None for r in redirects)
        return cls(redirects, aliases, paths, any_path)

    def may_apply(self, path: str) -> bool:
        """Whether a rule of this host may rewrite a URL with this path."""
        return self.any_path or path in self.paths


NO_REWRITES = HostRewrites()


def _template(template: str | None) -> str | None:
    """``{1}``-style group references as ``str.format`` fields, other braces escaped.

    >>> _template("/dp/{1}")
    '/dp/{0}'
    """
    if template is None:
        return None
    out = []
    last = 0
    for match in _GROUP.finditer(template):
        out.append(template[last : match.start()].replace("{", "{{").replace("}", "}}"))
        out.append(f"{{{int(match.group(1)) - 1}}}")
        last = match.end()
    out.append(template[last:].replace("{", "{{").replace("}", "}}"))
    return "".join(out)


def compile_redirects(
    entries: Iterable[Mapping[str, Any]],
) -> dict[str, tuple[RedirectRule, ...]]:
    """Host key to redirect rules, from the ``redirects`` section."""
    table: dict[str, list[RedirectRule]] = {}
    for entry in entries:
        rule = RedirectRule(
            id=f"redirect:{entry['id']}",
            source=entry.get("source", ""),
            path=entry.get("path"),
            params=tuple(p.lower() for p in entry["params"]),
        )
        for host in entry["hosts"]:
            table.setdefault(host.lower(), []).append(rule)
    return {host: tuple(rules) for host, rules in table.items()}


def compile_aliases(entries: Iterable[Mapping[str, Any]]) -> dict[str, tuple[AliasRule, ...]]:
    """Exact host to alias rules, from the ``aliases`` section."""
    table: dict[str, list[AliasRule]] = {}
    for entry in entries:
        path = entry.get("path")
        rule = AliasRule(
            id=f"alias:{entry['id']}",
            source=entry.get("source", ""),
            path=re.compile(path) if path else None,
            to_host=entry.get("to_host"),
            to_path=_template(entry.get("to_path")),
            add_query=_template(entry.get("add_query")),
        )
        for host in entry["hosts"]:
            table.setdefault(host.lower(), []).append(rule)
    return {host: tuple(rules) for host, rules in table.items()}


def compile_path_sessions(entries: Iterable[Mapping[str, Any]]) -> tuple[PathSessionRule, ...]:
    """The ``path_sessions`` section; patterns match without regard to case."""
    return tuple(
        PathSessionRule(
            id=f"session-path:{entry['id']}",
            source=entry.get("source", ""),
            pattern=re.compile(entry["regex"], re.IGNORECASE),
        )
        for entry in entries
    )


def session_triggers(rules: Iterable[PathSessionRule]) -> tuple[str, str]:
    """Two substrings such that a path holds neither only if no session rule can match it.

    Derived from the rules' own regexes: each must match a character from a small set (the
    ``;`` of ``;jsessionid=``, the ``(`` of ASP.NET's ``/(S(...))/``), and a path without any
    of them is never rewritten. ``""`` (in every path) stands for "always look": a rule
    whose match needs no such character (or only ``/``), or more than two characters in
    all. ``"#"`` (never in a path) fills an unused place.

    >>> session_triggers(compile_path_sessions([{"id": "x", "regex": "/sid-[0-9]+(?=/|$)"}]))
    ('-', '#')
    """
    found: set[str] = set()
    for rule in rules:
        needed = _required_characters(rule.pattern)
        if needed is None:
            return "", ""
        found |= needed
    if len(found) > 2 or "/" in found:
        return "", ""
    first, second = [*sorted(found), "#", "#"][:2]
    return first, second


def _required_characters(pattern: re.Pattern[str]) -> set[str] | None:
    """A set of characters one of which every string the pattern can search in holds."""
    try:
        parser: Any = importlib.import_module("re._parser")
        tree = parser.parse(pattern.pattern, pattern.flags)
    except Exception:  # another Python's parser: look at every path
        return None
    return _sequence(list(tree), parser)


def _sequence(items: list[Any], parser: Any) -> set[str] | None:
    """The best required set of any item of a sequence: every item must match."""
    best: set[str] | None = None
    for op, arg in items:
        needed = _item(op, arg, parser)
        if needed is not None and (best is None or _score(needed) < _score(best)):
            best = needed
    return best


def _score(chars: set[str]) -> tuple[bool, int]:
    return "/" in chars, len(chars)  # every path has "/": it proves nothing


def _item(op: Any, arg: Any, parser: Any) -> set[str] | None:
    names = op.name if hasattr(op, "name") else str(op)
    if names == "LITERAL":
        char = chr(arg)
        # Case folding can reach other letters (k and the Kelvin sign): letters prove nothing.
        return None if char.lower() != char.upper() else {char}
    if names == "IN":
        chars: set[str] = set()
        for inner_op, inner_arg in arg:
            if str(getattr(inner_op, "name", inner_op)) != "LITERAL":
                return None
            one = _item(inner_op, inner_arg, parser)
            if one is None:
                return None
            chars |= one
        return chars or None
    if names == "SUBPATTERN":
        return _sequence(list(arg[-1]), parser)
    if names in ("MAX_REPEAT", "MIN_REPEAT", "POSSESSIVE_REPEAT"):
        low, _, inner = arg
        return _sequence(list(inner), parser) if low >= 1 else None
    if names == "BRANCH":
        union: set[str] = set()
        for alternative in arg[1]:
            one = _sequence(list(alternative), parser)
            if one is None:
                return None
            union |= one
        return union
    if names == "ASSERT":  # a lookahead or lookbehind: its text is in the path too
        return _sequence(list(arg[1]), parser)
    return None
