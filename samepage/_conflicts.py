"""The conflicts between the patterns of a learned host, found by the normalizer's own check.

A conflict is a URL whose first pass drops parameters and leaves a URL of another pattern,
whose verdicts would drop more (:meth:`~samepage._policy._HostPolicy.drops_again`). The
listing asks that per-URL check on a probe URL of every pattern of the file, on every path
template that a scope or the shared evidence names, with every value of its parameters that a
learned default names and one value no default names. So the listing and ``normalize`` agree
on every case: the learned defaults, the template scopes, the shared evidence and the
ambiguous layer on the URL's second pattern.
"""

from __future__ import annotations

from itertools import product

from samepage._policy import _HostPolicy, conflict, first_pass
from samepage._query import value_of
from samepage.learned import DomainEntry, LearnedSet, PatternConflict, pattern_names
from samepage.normalizer import MIQPSNormalizer


def host_conflicts(domain: str, entry: DomainEntry) -> list[PatternConflict]:
    """The conflicts between the patterns of one host (see the module's docstring)."""
    if not entry.patterns:
        return []
    host, _, port = domain.rpartition(":") if _has_port(domain) else (domain, "", "")
    policy = MIQPSNormalizer(learned=LearnedSet({domain: entry}))._policy(host, port)
    values = _probe_values(entry)
    scoped = {t for p in entry.patterns.values() for t in p.templates} | set(entry.shared)
    found: list[PatternConflict] = []
    for key in sorted(entry.patterns):
        names = pattern_names(key)
        unscoped: dict[str, tuple[str, ...]] = {}
        for template in (None, *sorted(scoped)):
            at = _conflicts_at(policy, names, values, template if policy.scoped else None)
            if template is None:
                unscoped = at
            for into, lost in sorted(at.items()):
                if (
                    template is None
                    or unscoped.get(into) != lost
                    or _has_scope(entry, template, key, into)
                ):
                    found.append(PatternConflict(domain, key, into, lost, template))
    return found


def _conflicts_at(
    policy: _HostPolicy, names: list[str], values: dict[str, list[str]], template: str | None
) -> dict[str, tuple[str, ...]]:
    """Per pattern a probe URL of ``names`` turns into, what that pattern drops again."""
    lost: dict[str, set[str]] = {}
    for chosen in product(*(values.get(name, [_PLAIN]) for name in names)):
        pairs = [(name, f"{name}={value}") for name, value in zip(names, chosen, strict=True)]
        statics, _, decided = first_pass(policy, pairs, template)
        _, after, again = conflict(policy, pairs, statics, decided, template)
        for (name, piece), rule in again:
            by_default = ":default=" in rule.id
            lost.setdefault(after, set()).add(f"{name}={value_of(piece)}" if by_default else name)
    return {
        into: tuple(sorted(items, key=lambda i: i.partition("="))) for into, items in lost.items()
    }


_PLAIN = "samepage-probe"


def _probe_values(entry: DomainEntry) -> dict[str, list[str]]:
    """Per parameter name with a learned default anywhere on the host: those values and one more."""
    scopes = [scope for p in entry.patterns.values() for scope in p.templates.values()]
    scopes += list(entry.shared.values())
    verdicts = [p.params for p in entry.patterns.values()] + [s.params for s in scopes]
    values: dict[str, set[str]] = {}
    for params in verdicts:
        for name, verdict in params.items():
            if verdict.defaults:
                values.setdefault(name, set()).update(verdict.defaults)
    return {name: [_PLAIN, *sorted(found)] for name, found in values.items()}


def _has_scope(entry: DomainEntry, template: str, *keys: str) -> bool:
    """Whether one of the patterns ``keys`` has a scope for ``template``."""
    return any(key in entry.patterns and template in entry.patterns[key].templates for key in keys)


def _has_port(domain: str) -> bool:
    return domain.rpartition(":")[2].isdigit() and ":" in domain
