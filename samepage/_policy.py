"""The per-host policy of the normalizer: the static rules of a host group and their caches.

A policy is built from frozen inputs: the caller's configuration (:class:`PolicyConfig`),
the host's domain rules and its learned entry (:class:`~samepage._learned_layer.LearnedLayer`).
The normalizer and the listing of conflicts build theirs the same way (:func:`host_policy`).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import Any

from samepage._hosts import longest_key, lookup_host
from samepage._learned_layer import Fallback, LearnedLayer, _learned_decision
from samepage._learned_model import DomainEntry
from samepage._query import Pair, join_pattern, value_of
from samepage.rules import AmbiguousRule, DomainRules, NameMatcher, Rule, RuleSet

_DROP, _KEEP, _OPEN = 0, 1, 2
_UNSEEN: Any = object()
_DEFAULT = Rule(
    "default:keep", "default", "unknown parameters are kept: never merge distinct pages"
)
_NAME_CACHE_LIMIT = 2_000
# Names up to this length are cached (the per-name tables stay within a few MB per policy).
_CACHED_NAME = 256


@dataclass(frozen=True, slots=True)
class PolicyConfig:
    """The caller's configuration that decides parameters: a normalizer's options, read.

    ``extra_allow_hosts`` is keyed by host, or ``host:port`` for one port; ``keep_hosts`` by
    host, then by lower-cased name. Both are read-only copies of the mappings given.
    """

    rules: RuleSet
    extra_block: NameMatcher = field(default_factory=NameMatcher)
    extra_allow_all: NameMatcher = field(default_factory=NameMatcher)
    extra_allow_hosts: Mapping[str, NameMatcher] = field(default_factory=dict)
    keep_hosts: Mapping[str, Mapping[str, Rule]] = field(default_factory=dict)
    learned_fallback: Fallback = "shared"
    _allow_longest: int = field(init=False, repr=False, compare=False)
    _keep_longest: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        kept = {host: MappingProxyType(dict(names)) for host, names in self.keep_hosts.items()}
        object.__setattr__(self, "keep_hosts", MappingProxyType(kept))
        object.__setattr__(
            self, "extra_allow_hosts", MappingProxyType(dict(self.extra_allow_hosts))
        )
        object.__setattr__(self, "_allow_longest", longest_key(self.extra_allow_hosts))
        object.__setattr__(self, "_keep_longest", longest_key(self.keep_hosts))

    def __reduce__(self) -> tuple[type[PolicyConfig], tuple[object, ...]]:
        """Pickled as its arguments (a read-only mapping does not pickle)."""
        keep = {host: dict(names) for host, names in self.keep_hosts.items()}
        allow = dict(self.extra_allow_hosts)
        return type(self), (
            self.rules,
            self.extra_block,
            self.extra_allow_all,
            allow,
            keep,
            self.learned_fallback,
        )

    def extra_allow(self, host: str, port: str) -> tuple[str, NameMatcher] | None:
        """The ``extra_allowlist`` entry of a host: its ``host:port`` key, else its host key.

        A key without a port keeps its names on every port of the host (keeping a name
        never merges two pages); a ``host:port`` key only on that port.
        """
        hosts, longest = self.extra_allow_hosts, self._allow_longest
        found = lookup_host(hosts, host, port, longest=longest) if port else None
        return found or lookup_host(hosts, host, longest=longest)

    def kept(self, host: str) -> tuple[str, Mapping[str, Rule]] | None:
        """The ``keep_listed`` entry of a host, if any."""
        if not self.keep_hosts:
            return None
        return lookup_host(self.keep_hosts, host, longest=self._keep_longest)


def host_policy(
    config: PolicyConfig,
    host: str,
    port: str,
    learned: tuple[str, DomainEntry] | None,
    groups: dict[tuple[object, ...], _HostPolicy],
) -> _HostPolicy:
    """The policy of ``host`` and ``port``, whose learned entry is ``learned``.

    Hosts with the same domain rules, extra allowlist entry, learned entry, ambiguous
    exceptions and kept names (most hosts: none of them) share one policy, held in
    ``groups`` (the caller's cache), so its per-name cache stays warm.
    """
    domain = config.rules.domain(host)
    allow = config.extra_allow(host, port)
    excepted = config.rules.excepted_names(host)
    keep = config.kept(host)
    shared = (
        id(domain) if domain else 0,
        allow[0] if allow else None,
        learned[0] if learned else None,
        excepted,
        keep[0] if keep else None,
    )
    policy = groups.get(shared)
    if policy is None:
        layer = LearnedLayer(*learned, config.learned_fallback) if learned else None
        policy = groups[shared] = _HostPolicy(
            config, domain, allow[1] if allow else None, layer, excepted, keep=keep
        )
    return policy


class _HostPolicy:
    """What the per-parameter decision needs for a group of hosts that share every rule.

    Hosts with the same domain rules, extra allowlist entry, learned entry and ambiguous
    exceptions (most hosts: none of them) share one policy, so its per-name cache stays warm
    however many distinct hosts a stream of URLs has.
    """

    __slots__ = (
        "_made_with",
        "allow",
        "ambiguous",
        "any_path",
        "block",
        "by_name",
        "by_path",
        "codes",
        "except_paths",
        "excepted",
        "keep",
        "learned",
        "learned_key",
        "learned_layer",
        "list_exceptions",
        "names",
        "path_classes",
        "paths",
        "prefix_keys",
        "prefixes",
        "scoped",
    )

    def __init__(
        self,
        config: PolicyConfig,
        domain: DomainRules | None,
        allow_host: NameMatcher | None,
        learned: LearnedLayer | None,
        excepted: frozenset[str],
        *,
        keep: tuple[str, Mapping[str, Rule]] | None = None,
    ) -> None:
        # Listed names kept on these hosts: by the keep_listed option, then by learned evidence.
        self.keep = _kept_names(keep, learned)
        self.block = (config.extra_block, config.rules.tracking, domain.block if domain else None)
        # The names a strip list excepts here: no built-in block list drops them.
        self.list_exceptions = domain.keep if domain and domain.keep else None
        # The group's path classes: entries scoped to a path, names excepted on a path.
        self.paths = domain.paths if domain else ()
        # One search for "in none of the classes", the common case, when there are several.
        self.any_path = (
            re.compile("|".join(f"(?:{regex.pattern})" for regex, _, _ in self.paths))
            if len(self.paths) > 1
            else None
        )
        self.by_path: dict[int, _HostPolicy] = {}
        self._made_with = (config, domain, allow_host, learned, excepted, keep)
        # On the paths the group excepts, the same policy without the group's block list.
        self.except_paths = domain.except_paths if domain else None
        # Whether the policy depends on the URL's path: then ask :meth:`at`.
        self.path_classes = self.except_paths is not None or bool(self.paths)
        self.excepted: _HostPolicy = (
            _HostPolicy(
                config,
                replace(
                    domain,
                    block=NameMatcher(),
                    except_paths=None,
                    paths=tuple((regex, NameMatcher(), names) for regex, _, names in domain.paths),
                ),
                allow_host,
                learned,
                excepted,
                keep=keep,
            )
            if domain is not None and domain.except_paths is not None
            else self
        )
        extra_allow = [config.extra_allow_all]
        if allow_host is not None:
            extra_allow.append(allow_host)
        if domain:
            extra_allow.append(domain.allow)
        self.allow = tuple(extra_allow)
        self.learned_layer = learned
        self.learned_key: str | None = learned.key if learned else None
        self.learned: DomainEntry | None = learned.entry if learned else None
        # Whether a decision may depend on the URL's path template: only then is it computed.
        self.scoped = learned.scoped if learned else False
        self.ambiguous: dict[str, AmbiguousRule] = {
            name: rule for name, rule in config.rules.ambiguous.items() if name not in excepted
        }
        self.prefixes = config.rules.ambiguous_prefixes
        self.prefix_keys = tuple(p for p, _ in self.prefixes)
        self.by_name: dict[str, AmbiguousRule | None] = {}
        self.names: dict[str, tuple[int, Rule | None]] = {}
        self.codes: dict[str, int] = {}

    def at(self, path: str) -> _HostPolicy:
        """The policy on ``path``, for a group whose rules depend on the path.

        Without the group's block list on the paths it excepts; with the entries and
        exceptions scoped to the path classes ``path`` is in. One policy per set of
        classes, built on first use, so its caches stay warm.
        """
        if self.except_paths is not None and self.except_paths.match(path):
            return self.excepted.at(path) if self.excepted.paths else self.excepted
        if self.any_path is not None and self.any_path.match(path) is None:
            return self
        mask = 0
        for bit, (regex, _, _) in enumerate(self.paths):  # a plain loop: the hot path
            if regex.match(path) is not None:
                mask |= 1 << bit
        if not mask:
            return self
        policy = self.by_path.get(mask)
        if policy is None:
            config, domain, allow_host, learned, excepted, keep = self._made_with
            assert domain is not None
            chosen = [item for bit, item in enumerate(self.paths) if mask >> bit & 1]
            here = replace(
                domain,
                block=domain.block.merged(*(block for _, block, _ in chosen)),
                keep=domain.keep.merged(*(names for _, _, names in chosen)),
                except_paths=None,
                paths=(),
            )
            policy = self.by_path.setdefault(
                mask, _HostPolicy(config, here, allow_host, learned, excepted, keep=keep)
            )
        return policy

    def static(self, name: str) -> tuple[int, Rule | None]:
        """Blocklist and allowlist decision for ``name`` (cached per host)."""
        decided = self.names.get(name)
        if decided is not None:
            return decided
        lower = name.lower()
        kept = self.keep.get(lower) if self.keep else None
        if kept is not None:  # kept on this host before every list (``code`` caches it)
            return _KEEP, kept
        decided = self.excepted_name(lower) or (_OPEN, None)
        for matcher in self.block if decided[1] is None else ():
            rule = matcher.match(lower) if matcher else None
            if rule is not None:
                decided = (_DROP, rule)
                break
        else:
            for matcher in self.allow if decided[1] is None else ():
                rule = matcher.match(lower) if matcher else None
                if rule is not None:
                    decided = (_KEEP, rule)
                    break
        if len(self.names) < _NAME_CACHE_LIMIT and len(name) <= _CACHED_NAME:
            self.names[name] = decided
        return decided

    def excepted_name(self, lower: str) -> tuple[int, Rule | None] | None:
        """Kept by a strip list's exception here (the ``exception`` layer), if so.

        It comes before the blocklist, unless the caller's own ``extra_blocklist`` has it.
        """
        if self.list_exceptions is None:
            return None
        rule = self.list_exceptions.match(lower)
        if rule is None or self.block[0].match(lower) is not None:
            return None
        return _KEEP, rule

    def code(self, name: str) -> int:
        """What the filter does with ``name`` (cached per host): drop, keep, or ask :meth:`dynamic`.

        A name the static rules leave open is kept outright when no later layer can drop it
        here (no learned entry, no ambiguous rule): :meth:`dynamic` would keep it by default.
        """
        code = self.static(name)[0]
        if code == _OPEN and self.learned is None and self.ambiguous_rule(name) is None:
            code = _KEEP
        if len(self.codes) < _NAME_CACHE_LIMIT and len(name) <= _CACHED_NAME:
            self.codes[name] = code
        return code

    def dynamic(
        self,
        name: str,
        piece: str,
        pattern: str | None,
        pairs: list[Pair],
        template: str | None,
        detailed: bool = False,
    ) -> tuple[bool, Rule]:
        """Learned, ambiguous and default layers for a name the static rules left open.

        ``pairs`` are the URL's other parameters, for rules that need a partner name;
        ``template`` is the URL's path template when the host is :attr:`scoped`, else None.
        With ``detailed`` (``explain``), a learned rule carries its detail text.
        """
        if self.learned_layer is not None:
            decided = _learned_decision(
                self.learned_layer, name, pattern, piece, pairs, template, detailed
            )
            if decided is not None:
                return decided
        ambiguous = self.ambiguous_rule(name)
        if (
            ambiguous is not None
            and ambiguous.is_tracking(value_of(piece))
            and (not ambiguous.requires or _has_name(pairs, ambiguous.requires))
        ):
            return False, ambiguous.rule
        return True, _DEFAULT

    def drops_again(
        self, reduced: list[Pair], left: list[Pair], template: str | None
    ) -> list[tuple[Pair, Rule]]:
        """What a second pass over ``reduced`` would drop (``left``: its open pairs), and why.

        Dropping parameters changes the pattern key, and the learned verdicts of the new
        pattern may drop more: a key that normalises to another key. The normalizer then
        keeps what the first pass dropped (the conflict resolves toward keeping), so every
        key normalises to itself. The path, and so ``template``, is the same on both passes.
        This is the one conflict rule: ``normalize``, ``explain`` and the listing of a
        learned set's conflicts (:func:`samepage.learned.pattern_conflicts`) all ask it.
        """
        pattern = join_pattern(name for name, _ in reduced)
        again = []
        for pair in left:  # a plain loop: no generator on this path
            kept, rule = self.dynamic(pair[0], pair[1], pattern, reduced, template)
            if not kept:
                again.append((pair, rule))
        return again

    def ambiguous_rule(self, name: str) -> AmbiguousRule | None:
        """The value-conditioned rule for ``name`` on this host, if any (cached per host)."""
        found: AmbiguousRule | None = self.by_name.get(name, _UNSEEN)
        if found is not _UNSEEN:
            return found
        lower = name.lower()
        found = self.ambiguous.get(lower)
        if found is None and lower.startswith(self.prefix_keys):
            found = next(r for p, r in self.prefixes if lower.startswith(p))
        if len(self.by_name) < _NAME_CACHE_LIMIT and len(name) <= _CACHED_NAME:
            self.by_name[name] = found
        return found


def _kept_names(
    keep: tuple[str, Mapping[str, Rule]] | None, learned: LearnedLayer | None
) -> dict[str, Rule]:
    """The names kept on a host before the lists: the option's, then the learned set's."""
    kept: dict[str, Rule] = {}
    if learned is not None:
        key, entry = learned.key, learned.entry
        for name, evidence in entry.keep_listed.items():
            kept[name.lower()] = Rule(f"learned:{key}:keep:{name}", "learned", evidence.describe())
    if keep is not None:
        kept.update(keep[1])
    return kept


def first_pass(
    policy: _HostPolicy, pairs: list[Pair], template: str | None, *, detailed: bool = False
) -> tuple[list[tuple[int, Rule | None]], str, list[tuple[bool, Rule]]]:
    """Each pair's static code and the pattern key, and each pair's decision before conflicts.

    ``template`` is the URL's path template when the policy is scoped, else None;
    ``detailed`` asks for the learned rules' detail text (``explain``).
    """
    statics = [policy.static(name) for name, _ in pairs]
    live = [pair for pair, (code, _) in zip(pairs, statics, strict=True) if code != _DROP]
    pattern = join_pattern(name for name, _ in live)
    decided: list[tuple[bool, Rule]] = []
    for (name, piece), (code, rule) in zip(pairs, statics, strict=True):
        if code == _OPEN:
            decided.append(policy.dynamic(name, piece, pattern, live, template, detailed))
        else:
            assert rule is not None
            decided.append((code == _KEEP, rule))
    return statics, pattern, decided


def conflict(
    policy: _HostPolicy,
    pairs: list[Pair],
    statics: list[tuple[int, Rule | None]],
    decided: list[tuple[bool, Rule]],
    template: str | None,
) -> tuple[list[bool], str, list[tuple[Pair, Rule]]]:
    """The first pass's dynamic drops, the pattern it leaves, and what that pattern drops again.

    No drops again (an empty list): the first pass stands.
    """
    opened = [code == _OPEN for code, _ in statics]
    dropped = [is_open and not kept for is_open, (kept, _) in zip(opened, decided, strict=True)]
    if not any(dropped):
        return dropped, "", []
    reduced = [
        pair
        for pair, (code, _), gone in zip(pairs, statics, dropped, strict=True)
        if code != _DROP and not gone
    ]
    left = [
        pair
        for pair, is_open, gone in zip(pairs, opened, dropped, strict=True)
        if is_open and not gone
    ]
    after = join_pattern(name for name, _ in reduced)
    return dropped, after, policy.drops_again(reduced, left, template)


def _keep_on_conflict(
    policy: _HostPolicy,
    pairs: list[Pair],
    statics: list[tuple[int, Rule | None]],
    decided: list[tuple[bool, Rule]],
    pattern: str,
    template: str | None,
) -> list[tuple[bool, Rule]]:
    """``decided``, with the dynamic drops kept when a second pass would drop more."""
    dropped, after, again = conflict(policy, pairs, statics, decided, template)
    if not again:
        return decided
    names = ", ".join(sorted({name for (name, _), _ in again}))
    why = (
        f"kept: without it the URL's pattern is {after!r}, whose verdicts would then drop "
        f"{names}, which pattern {pattern!r} keeps; a conflict "
        "between two patterns resolves toward keeping"
    )
    key = policy.learned_key or "*"
    where = pattern if template is None else f"{pattern}@{template}"
    return [
        (True, Rule(f"learned:{key}:{where}:{name}:conflict", "learned", why)) if gone else d
        for (name, _), gone, d in zip(pairs, dropped, decided, strict=True)
    ]


def _has_name(pairs: list[Pair], lower_name: str) -> bool:
    for name, _ in pairs:  # a plain loop: no generator on this path
        if name == lower_name:
            return True
    return lower_name in {name.lower() for name, _ in pairs}
