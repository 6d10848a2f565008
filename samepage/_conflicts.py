"""The conflicts between the patterns of a learned host, found by the normalizer's own check.

The host's policy is built as the normalizer builds it, from the caller's configuration
(:class:`~samepage._policy.PolicyConfig`), so the listing holds for that configuration.

A conflict is a URL whose first pass drops parameters and leaves a URL of another pattern,
whose verdicts would drop more (:meth:`~samepage._policy._HostPolicy.drops_again`). The
listing asks that per-URL check on probe URLs of every pattern of the file, on every path
template that a scope or the shared evidence names, each parameter at a value that a learned
default of the host names or at one value no default names. So the listing and ``normalize``
agree on every case: the learned defaults, the template scopes, the shared evidence and the
ambiguous layer on the URL's second pattern.

Every combination of those values would be ``(d + 1) ** n`` probes for ``n`` parameters of
``d`` values each; the probes are the few combinations that can each show what the others
show (:func:`_probes`), so the listing is polynomial in the size of the set:

- a URL's first pass drops its neutral parameters whatever their values, and its learned
  defaults only one at a time, or together when the pattern's ``joint_defaults`` names
  them all: the parameters it drops are its neutral ones plus no default, one default, or
  a set of the joint ones (another parameter at a default keeps them all);
- on the URL that is left, a parameter is dropped again by its own value (a default of the
  second pattern, a tracking value) unless another parameter there carries a default too:
  a value no default names, on every other parameter, is the URL where most goes again.

So a probe sets one parameter to a value a default names (it goes alone; or, beside a
second one at a default, both stay), or every parameter of one set of joint defaults (they
go together), and one more parameter to any value; all others are at a value no default
names. A pattern whose joint defaults name more than
:data:`MOST_JOINT` parameters is not probed for every set of them: the URL without them all
is listed as in conflict for every parameter it keeps, an answer that errs toward a conflict
(``normalize`` still checks each URL).
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations

from samepage._learned_layer import _recorded
from samepage._learned_model import DomainEntry, PatternConflict, PatternEntry, pattern_names
from samepage._policy import _OPEN, PolicyConfig, _HostPolicy, conflict, first_pass, host_policy
from samepage._query import value_of

MOST_JOINT = 10
"""The most joint-default parameters of one pattern whose every set is probed (2 ** 10)."""


def host_conflicts(domain: str, entry: DomainEntry, config: PolicyConfig) -> list[PatternConflict]:
    """The conflicts between the patterns of one host (see the module's docstring).

    ``config`` is the caller's configuration: the host's policy is the one a normalizer
    with that configuration and this entry builds for URLs of ``domain``.
    """
    if not entry.patterns:
        return []
    host, _, port = domain.rpartition(":") if _has_port(domain) else (domain, "", "")
    policy = host_policy(config, host, port, (domain, entry), {})
    values = _probe_values(entry)
    scoped = {t for p in entry.patterns.values() for t in p.templates} | set(entry.shared)
    found: list[PatternConflict] = []
    for key in sorted(entry.patterns):
        names = pattern_names(key)
        unscoped: dict[str, tuple[str, ...]] = {}
        for template in (None, *sorted(scoped)):
            at = _conflicts_at(
                policy, entry.patterns[key], names, values, template if policy.scoped else None
            )
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
    policy: _HostPolicy,
    found: PatternEntry,
    names: list[str],
    values: dict[str, list[str]],
    template: str | None,
) -> dict[str, tuple[str, ...]]:
    """Per pattern a probe URL of ``names`` turns into, what that pattern drops again."""
    lost: dict[str, set[str]] = {}
    scope = found.templates.get(template) if template is not None else None
    own: list[frozenset[str]] = []  # each parameter's defaults on this pattern and template
    for name in names:
        recorded = _recorded(found, scope, name)
        own.append(frozenset(recorded.defaults) if recorded is not None else frozenset())
    joint = found.joint_defaults.names if found.joint_defaults is not None else frozenset()
    choices = [values.get(name, [_PLAIN]) for name in names]
    probes = _probes(choices, own, [name in joint for name in names])
    for chosen, every in probes:
        pairs = [(name, f"{name}={value}") for name, value in zip(names, chosen, strict=True)]
        statics, _, decided = first_pass(policy, pairs, template)
        dropped, after, again = conflict(policy, pairs, statics, decided, template)
        items = lost.setdefault(after, set()) if again or every else set()
        for (name, piece), rule in again:
            by_default = ":default=" in rule.id
            items.add(f"{name}={value_of(piece)}" if by_default else name)
        if every and any(dropped):  # past MOST_JOINT: every parameter left, toward a conflict
            items.update(
                name
                for (name, _), (code, _), gone in zip(pairs, statics, dropped, strict=True)
                if code == _OPEN and not gone
            )
    return {
        into: tuple(sorted(items, key=lambda i: i.partition("=")))
        for into, items in lost.items()
        if items
    }


def _probes(
    choices: list[list[str]], own: list[frozenset[str]], joint: list[bool]
) -> Iterator[tuple[list[str], bool]]:
    """The probe values of a pattern's parameters, and whether a probe stands for many.

    ``choices`` are each parameter's values (:data:`_PLAIN` first), ``own`` its learned
    defaults on the pattern probed, ``joint`` whether its pattern's joint defaults name it.
    See the module's docstring for why these probes show what every combination shows.
    """
    n = len(choices)
    plain = [_PLAIN] * n
    yield plain, False
    for i in range(n):  # one parameter at any value: it goes, or it stays (no default)
        for value in choices[i][1:]:
            yield [*plain[:i], value, *plain[i + 1 :]], False
    for i in range(n):  # one at a default (it goes, or stays beside the next), one at any
        for value in choices[i][1:]:
            if value not in own[i]:
                continue
            for j in range(n):
                if j == i:
                    continue
                for other in choices[j][1:]:
                    probe = list(plain)
                    probe[i], probe[j] = value, other
                    yield probe, False
    # A set of joint defaults goes together, and one more parameter may be at any value.
    together = [i for i in range(n) if joint[i] and any(v in own[i] for v in choices[i])]
    sizes = range(2, len(together) + 1) if len(together) <= MOST_JOINT else ()
    for size in sizes:
        for chosen in combinations(together, size):
            probe = list(plain)
            for i in chosen:
                probe[i] = next(v for v in choices[i] if v in own[i])
            yield probe, False
            for j in range(n):
                if j not in chosen:
                    for other in choices[j][1:]:
                        if other not in own[j]:
                            yield [*probe[:j], other, *probe[j + 1 :]], False
    if len(together) > MOST_JOINT:
        probe = list(plain)
        for i in together:
            probe[i] = next(v for v in choices[i] if v in own[i])
        yield probe, True


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
