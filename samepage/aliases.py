"""Aliases: other spellings of one page, in its path, query or host, as a learned set holds them.

A host's ``aliases`` (learned-set format 2, ``docs/learned-format.md``) are rules of two kinds:

- a :class:`PathAlias` rewrites a path and query: ``/w/index.php?title={title}`` is
  ``/wiki/{title}``. ``from`` and ``to`` are templates of a normalised path and query; a
  placeholder ``{name}`` stands for one whole path segment or one whole parameter value.
  Parameters of the URL that ``from`` does not name are carried to the result, so the
  parameter filter decides them afterwards; a template without placeholders is an exact pair
  (``/?page_id=2`` is ``/sample-page``);
- a :class:`HostAlias` rewrites a host of one site into another: ``www.example.com`` is
  ``example.com``.

:func:`match_alias` says whether a URL matches one rule and what it becomes, with the very
code the normalizer runs, so a tool that proposes rules (the learner) tests its candidates
as the normalizer will apply them.

>>> rule = PathAlias("/w/index.php?title={title}", "/wiki/{title}")
>>> match_alias(rule, "https://wiki.example/w/index.php?title=Main_Page&oldid=7").url
'https://wiki.example/wiki/Main_Page?oldid=7'
>>> match_alias(rule, "https://wiki.example/w/index.php?title=A+B") is None  # "+" is a space there
True
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from samepage import _suffixes, _url
from samepage._encoding import QUERY, normalize_escapes
from samepage._query import Pair, query_pairs, serialize
from samepage._url import Parts, join_url, normalize_path, split_url
from samepage.errors import InvalidURL

__all__ = ["Alias", "AliasMatch", "HostAlias", "PathAlias", "Template", "match_alias", "site_of"]

_PLACEHOLDER = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)\}")
_BRACES = re.compile(r"[{}]")
# A value that moves between a path segment and a query value must mean the same in both:
# no "/" (a segment boundary, also escaped: servers differ on %2F), no "+" (a space in a
# query, a plus in a path), no ";", "=" or "&" (path parameters, query syntax).
_CROSSING = re.compile(r"(?:[A-Za-z0-9\-._~!$'()*,:@]|%(?!2F)[0-9A-F]{2})+")


@dataclass(frozen=True, slots=True)
class Template:
    """A parsed alias template: path segments and named query parameters.

    Each segment is ``(True, name)`` for a placeholder or ``(False, text)``; each parameter
    ``(name, True, placeholder)`` or ``(name, False, value)``.
    """

    text: str
    segments: tuple[tuple[bool, str], ...]
    params: tuple[tuple[str, bool, str], ...]

    @property
    def path_names(self) -> frozenset[str]:
        """The placeholders that stand for path segments."""
        return frozenset(text for is_name, text in self.segments if is_name)

    @property
    def query_names(self) -> frozenset[str]:
        """The placeholders that stand for parameter values."""
        return frozenset(value for _, is_name, value in self.params if is_name)

    @property
    def param_names(self) -> frozenset[str]:
        """The names of the parameters the template names."""
        return frozenset(name for name, _, _ in self.params)

    @classmethod
    def parse(cls, text: object) -> Template:
        """Parse ``text``; a :class:`ValueError` names what is wrong with it."""
        if not isinstance(text, str):
            raise ValueError(f"a template is a string, got {type(text).__name__}")
        if not text.startswith("/") or "#" in text:
            raise ValueError(f"{text!r} is not a path and query starting with '/' (no '#')")
        path, question, query = text.partition("?")
        segments = _segments(text, path)
        params = _params(text, query) if question else ()
        names = [name for is_name, name in segments if is_name]
        names += [value for _, is_name, value in params if is_name]
        if len(names) != len(set(names)):
            raise ValueError(f"{text!r}: each placeholder appears once")
        return cls(text, segments, params)

    def render(self, values: Mapping[str, str]) -> tuple[str, list[Pair]]:
        """The path and the named parameters with ``values`` for the placeholders."""
        path = "/" + "/".join(values[t] if is_name else t for is_name, t in self.segments)
        pairs = [(n, f"{n}={values[v] if is_name else v}") for n, is_name, v in self.params]
        return path, pairs


def _segments(text: str, path: str) -> tuple[tuple[bool, str], ...]:
    if path == "/":
        return ()
    out: list[tuple[bool, str]] = []
    tokens: list[str] = []
    for segment in path.split("/")[1:]:
        found = _PLACEHOLDER.fullmatch(segment)
        if found is not None:
            out.append((True, found.group(1)))
            tokens.append(f"~{len(out)}~")
        elif _BRACES.search(segment):
            raise ValueError(f"{text!r}: a placeholder {{name}} is a whole path segment")
        else:
            out.append((False, segment))
            tokens.append(segment)
    spelled = "/" + "/".join(tokens)
    normal = normalize_path(spelled)
    if normal != spelled:
        for i, (is_name, name) in enumerate(out, 1):
            if is_name:
                normal = normal.replace(f"~{i}~", f"{{{name}}}")
        raise ValueError(
            f"{text!r}: templates are spelled as normalised URLs carry them: the path is {normal!r}"
        )
    return tuple(out)


def _params(text: str, query: str) -> tuple[tuple[str, bool, str], ...]:
    out: list[tuple[str, bool, str]] = []
    for piece in query.split("&"):
        name, equals, value = piece.partition("=")
        if not name or not equals:
            raise ValueError(f"{text!r}: each parameter of a template is name=value, got {piece!r}")
        found = _PLACEHOLDER.fullmatch(value)
        if _BRACES.search(name) or (found is None and _BRACES.search(value)):
            raise ValueError(f"{text!r}: a placeholder {{name}} is a whole parameter value")
        plain = f"{name}={'v' if found else value}"
        if normalize_escapes(plain, QUERY) != plain:
            raise ValueError(
                f"{text!r}: templates are spelled as normalised URLs carry them: {piece!r} is "
                f"{normalize_escapes(plain, QUERY)!r}"
            )
        out.append((name, found is not None, found.group(1) if found else value))
    if len({name for name, _, _ in out}) != len(out):
        raise ValueError(f"{text!r}: a parameter is named once")
    return tuple(out)


@dataclass(frozen=True, slots=True)
class AliasMatch:
    """A URL a rule matched: what it becomes (before the parameter filter) and the values."""

    url: str
    values: Mapping[str, str]


@dataclass(frozen=True, slots=True)
class PathAlias:
    """``from`` and ``to`` spell one page: a URL matching ``from`` is rewritten to ``to``.

    A placeholder of ``from`` matches one whole, non-empty path segment or parameter value
    (as normalised URLs spell it); one that moves between a path and a query matches only
    characters that mean the same in both (no ``/``, ``%2F``, ``+``, ``;``, ``=``, ``&``,
    and not ``.`` or ``..``). A named parameter must appear exactly once, as ``name=value``.
    Parameters ``from`` does not name are carried; a URL carrying a name ``to`` sets is left
    alone. ``evidence`` is free-form, for the learner (samples, renders, cause).

    Raises:
        ValueError: a malformed template, a placeholder of ``to`` that ``from`` lacks, or
            ``from`` equal to ``to``.
    """

    from_: str
    to: str
    evidence: Mapping[str, Any] = field(default_factory=dict)
    extra: Mapping[str, Any] = field(default_factory=dict)
    source: Template = field(init=False, repr=False, compare=False)
    target: Template = field(init=False, repr=False, compare=False)
    _to_path: frozenset[str] = field(init=False, repr=False, compare=False)
    _to_query: frozenset[str] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        source, target = Template.parse(self.from_), Template.parse(self.to)
        missing = sorted(
            (target.path_names | target.query_names) - source.path_names - source.query_names
        )
        if missing:
            raise ValueError(f"placeholder {{{missing[0]}}} of 'to' is not in 'from'")
        if source == target:
            raise ValueError("'from' and 'to' are the same")
        set_ = object.__setattr__
        set_(self, "source", source)
        set_(self, "target", target)
        # The placeholders that cross from a query value into a path segment, and back.
        set_(self, "_to_path", target.path_names & source.query_names)
        set_(self, "_to_query", target.query_names & source.path_names)

    def describe(self) -> str:
        """``from -> to``."""
        return f"{self.from_} -> {self.to}"

    def to_json(self) -> dict[str, Any]:
        """The JSON object of this rule (extra fields included)."""
        out: dict[str, Any] = dict(self.extra)
        out.update({"from": self.from_, "to": self.to})
        if self.evidence:
            out["evidence"] = dict(self.evidence)
        return out

    def _path_values(self, path: str) -> dict[str, str] | None:
        segments = path.split("/")[1:] if path != "/" else []
        if len(segments) != len(self.source.segments):
            return None
        values: dict[str, str] = {}
        for (is_name, text), segment in zip(self.source.segments, segments, strict=True):
            if not is_name:
                if segment != text:
                    return None
            elif text in self._to_query and _CROSSING.fullmatch(segment) is None:
                return None
            else:
                values[text] = segment
        return values

    def _value_fits(self, is_name: bool, want: str, value: str) -> bool:
        if not is_name:
            return value == want
        if not value:
            return False
        return want not in self._to_path or (
            _CROSSING.fullmatch(value) is not None and value not in (".", "..")
        )

    def rewrite(
        self, path: str, pairs: list[Pair]
    ) -> tuple[str, list[Pair], dict[str, str]] | None:
        """The new path and pairs for a normalised path and query pairs, and the values."""
        values = self._path_values(path)
        if values is None:
            return None
        named = self.source.param_names
        found: dict[str, str] = {}
        carried: list[Pair] = []
        for pair in pairs:
            if pair[0] not in named:
                carried.append(pair)
            elif pair[0] in found:
                return None  # named twice: which one the page reads is the server's choice
            else:
                found[pair[0]] = pair[1]
        for name, is_name, want in self.source.params:
            piece = found.get(name)
            if piece is None or "=" not in piece:
                return None
            value = piece.partition("=")[2]
            if not self._value_fits(is_name, want, value):
                return None
            if is_name:
                values[want] = value
        setting = self.target.param_names
        if any(name in setting for name, _ in carried):
            return None
        new_path, new_pairs = self.target.render(values)
        if normalize_path(new_path) != new_path:
            return None
        return new_path, new_pairs + carried, values

    def may_match(self, path: str, pairs: list[Pair]) -> bool:
        """Whether ``from`` matches ``path`` with some of ``pairs`` (any subset of them).

        The normalizer's parameter filter only removes parameters, so a rule that may not
        match a URL matches none of the keys the filter makes of it.
        """
        if self._path_values(path) is None:
            return False
        for name, is_name, want in self.source.params:
            if not any(
                n == name
                and "=" in piece
                and self._value_fits(is_name, want, piece.partition("=")[2])
                for n, piece in pairs
            ):
                return False
        return True


@dataclass(frozen=True, slots=True)
class HostAlias:
    """``host`` and ``to_host`` are one site: a URL on ``host`` is rewritten to ``to_host``.

    Both are host names as normalised URLs carry them, of one registrable domain (never
    another site); the port and everything after the host stay as they are.

    Raises:
        ValueError: a host not spelled as URLs carry it, an IP address, the same host twice,
            or hosts of two sites.
    """

    host: str
    to_host: str
    evidence: Mapping[str, Any] = field(default_factory=dict)
    extra: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        for name in (self.host, self.to_host):
            _check_host_name(name)
        if self.host == self.to_host:
            raise ValueError("'host' and 'to_host' are the same")
        if site_of(self.host) != site_of(self.to_host):
            raise ValueError(
                f"{self.host!r} and {self.to_host!r} are two sites ({site_of(self.host)!r}, "
                f"{site_of(self.to_host)!r}): a host alias stays within one registrable domain"
            )

    def describe(self) -> str:
        """``host -> to_host``."""
        return f"{self.host} -> {self.to_host}"

    def to_json(self) -> dict[str, Any]:
        """The JSON object of this rule (extra fields included)."""
        out: dict[str, Any] = dict(self.extra)
        out.update(host=self.host, to_host=self.to_host)
        if self.evidence:
            out["evidence"] = dict(self.evidence)
        return out


Alias = PathAlias | HostAlias


def _check_host_name(name: object) -> None:
    if not isinstance(name, str) or not name:
        raise ValueError(f"{name!r} is not a host name")
    try:
        canonical = _url._normalize_host(name)
    except ValueError:
        raise ValueError(f"{name!r} is not a host name") from None
    if canonical != name:
        raise ValueError(f"{name!r} can never match: URLs carry this host as {canonical!r}")
    if name.startswith("[") or name.replace(".", "").isdigit():
        raise ValueError(f"{name!r} is an IP address: a host alias names host names")


def site_of(host: str) -> str:
    """The registrable domain of a host name: its public suffix and one more label.

    A host under no listed suffix is its last two labels (one label: itself).

    >>> site_of("en.m.wikipedia.org"), site_of("www.bbc.co.uk"), site_of("localhost")
    ('wikipedia.org', 'bbc.co.uk', 'localhost')
    """
    labels = host.split(".")
    for start in range(1, len(labels)):  # the longest listed suffix first
        if _suffixes.is_public_suffix(".".join(labels[start:])):
            return ".".join(labels[start - 1 :])
    return ".".join(labels[-2:])


def rewrite_parts(alias: Alias, parts: Parts) -> tuple[Parts, dict[str, str]] | None:
    """``parts`` (of a normalised URL) rewritten by ``alias``, and the placeholder values."""
    scheme, userinfo, host, port, path, query, fragment = parts
    if isinstance(alias, HostAlias):
        if host != alias.host:
            return None
        return (scheme, userinfo, alias.to_host, port, path, query, fragment), {}
    found = alias.rewrite(path, query_pairs(query))
    if found is None:
        return None
    new_path, pairs, values = found
    return (scheme, userinfo, host, port, new_path, serialize(pairs), fragment), values


def match_alias(alias: Alias, url: str) -> AliasMatch | None:
    """Whether ``url`` matches ``alias``, and the URL it becomes (before the parameter filter).

    The URL is normalised first (scheme, host, port, path, escapes), as the normalizer reads
    it; the result's parameters are sorted by name. The host is not checked against a
    learned domain key: that is the caller's (the normalizer applies a host's own rules).

    Raises:
        InvalidURL: for a string that is not an absolute http(s) URL.
    """
    parts = split_url(url)
    if parts is None:
        raise InvalidURL(url, "not an http(s) URL")
    found = rewrite_parts(alias, parts)
    if found is None:
        return None
    new, values = found
    return AliasMatch(join_url(new, new[5]), values)


def evidence_text(alias: Alias) -> str:
    """The rule's evidence as one line of compact JSON ("" without evidence)."""
    if not alias.evidence:
        return ""
    return json.dumps(alias.evidence, sort_keys=True, ensure_ascii=False, default=str)
