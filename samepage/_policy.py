"""The per-host policy of the normalizer: the static rules of a host group and their caches."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from samepage._learned_layer import _learned_decision
from samepage._query import Pair, join_pattern, value_of
from samepage.learned import DomainEntry, TemplateScope
from samepage.rules import AmbiguousRule, DomainRules, NameMatcher, Rule

if TYPE_CHECKING:
    from samepage.normalizer import MIQPSNormalizer

_DROP, _KEEP, _OPEN = 0, 1, 2
_UNSEEN: Any = object()
_DEFAULT = Rule(
    "default:keep", "default", "unknown parameters are kept: never merge distinct pages"
)
_NAME_CACHE_LIMIT = 2_000
# Names up to this length are cached (the per-name tables stay within a few MB per policy).
_CACHED_NAME = 256


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
        "fallback",
        "keep",
        "learned",
        "learned_key",
        "list_exceptions",
        "names",
        "path_classes",
        "paths",
        "prefix_keys",
        "prefixes",
        "scoped",
        "shared",
        "verdict_rules",
    )

    def __init__(
        self,
        norm: MIQPSNormalizer,
        domain: DomainRules | None,
        allow_host: NameMatcher | None,
        learned: tuple[str, DomainEntry] | None,
        excepted: frozenset[str],
        *,
        keep: tuple[str, Mapping[str, Rule]] | None = None,
    ) -> None:
        # Listed names kept on these hosts: by the keep_listed option, then by learned evidence.
        self.keep = _kept_names(keep, learned)
        self.block = (norm._extra_block, norm.rules.tracking, domain.block if domain else None)
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
        self._made_with = (norm, domain, allow_host, learned, excepted, keep)
        # On the paths the group excepts, the same policy without the group's block list.
        self.except_paths = domain.except_paths if domain else None
        # Whether the policy depends on the URL's path: then ask :meth:`at`.
        self.path_classes = self.except_paths is not None or bool(self.paths)
        self.excepted: _HostPolicy = (
            _HostPolicy(
                norm,
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
        extra_allow = [norm._extra_allow_all]
        if allow_host is not None:
            extra_allow.append(allow_host)
        if domain:
            extra_allow.append(domain.allow)
        self.allow = tuple(extra_allow)
        self.learned_key: str | None = learned[0] if learned else None
        self.learned: DomainEntry | None = learned[1] if learned else None
        # Each recorded verdict's decision, built once: (label, name) -> (keep, rule).
        self.verdict_rules: dict[tuple[str, str], tuple[bool, Rule]] = {}
        self.fallback = (
            self.learned.fallback()
            if self.learned is not None and norm.learned_fallback == "domain"
            else None
        )
        self.shared: Mapping[str, TemplateScope] | None = (
            self.learned.shared
            if self.learned is not None and self.learned.shared and norm.learned_fallback != "keep"
            else None
        )
        # Whether a decision may depend on the URL's path template: only then is it computed.
        self.scoped = self.shared is not None or (
            self.learned is not None
            and any(pattern.templates for pattern in self.learned.patterns.values())
        )
        self.ambiguous: dict[str, AmbiguousRule] = {
            name: rule for name, rule in norm.rules.ambiguous.items() if name not in excepted
        }
        self.prefixes = norm.rules.ambiguous_prefixes
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
            norm, domain, allow_host, learned, excepted, keep = self._made_with
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
                mask, _HostPolicy(norm, here, allow_host, learned, excepted, keep=keep)
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
        if self.learned is not None:
            decided = _learned_decision(self, name, pattern, piece, pairs, template, detailed)
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
    keep: tuple[str, Mapping[str, Rule]] | None, learned: tuple[str, DomainEntry] | None
) -> dict[str, Rule]:
    """The names kept on a host before the lists: the option's, then the learned set's."""
    kept: dict[str, Rule] = {}
    if learned is not None:
        key, entry = learned
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
