"""What changed between two learned sets, and the publishing gate built on it.

The dangerous direction is a parameter going from non-neutral to neutral, a value of a
parameter newly learned as a default, or defaults newly proven droppable together: from then
on the normalizer drops more, merging pages that used to stay apart. A default shows as the
flip of ``name=value`` from ``kept`` to ``default``, joint defaults as the flip of
``page&sort`` from ``apart`` to ``together``. A verdict of a path template (a pattern's
scope, or the domain's shared evidence, listed under the pattern ``(shared)``) shows as
``name @ /template``; a scope absent from a set stands for the pattern's verdict, a shared
verdict absent for a kept parameter, so a new scoped or shared neutral is a flip to neutral
like any other. A listed name a domain's ``keep_listed`` section keeps is compared under the
pattern ``(keep_listed)``: ``kept``, or ``listed`` where the set does not keep it; a flip
from ``kept`` to ``listed`` lets a built-in list drop it again, as dangerous as a flip to
neutral. ``crawl --previous`` and ``learner diff`` both
decide with :func:`gate`. The diff also lists the new set's conflicts between patterns
(:meth:`samepage.LearnedSet.conflicts`), where the normalizer keeps what a pattern dropped,
and every static rule the new set overrules (:class:`Overrule`). Aliases (other spellings of
one page) added and removed are listed by domain, each as ``from -> to`` (or ``host ->
to_host``); an added one merges URLs that used to stay apart, so a reviewer reads them too.
Aliases both sets have are listed as kept, and the candidates the new set's study did not
publish (its domains' ``aliases_refused``) as refused, with the finding and the reason.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from samepage import LearnedSet, ParamVerdict, PatternConflict, TemplateScope

__all__ = [
    "KEEP_LISTED",
    "SHARED",
    "Flip",
    "GateResult",
    "LearnedDiff",
    "Overrule",
    "diff_learned",
    "format_diff",
    "gate",
]

SHARED = "(shared)"
"""The pattern under which a domain's shared evidence is compared."""
KEEP_LISTED = "(keep_listed)"
"""The pattern under which a domain's kept listed names are compared."""
_AT = " @ "


_DANGEROUS = frozenset(
    {("non-neutral", "neutral"), ("kept", "default"), ("apart", "together"), ("kept", "listed")}
)


@dataclass(frozen=True, slots=True)
class Overrule:
    """A listed name a learned set keeps on a domain, and the static rules it overrules."""

    domain: str
    name: str
    rules: tuple[str, ...]
    changed: int
    tested: int

    def to_json(self) -> dict[str, Any]:
        """This overrule as JSON."""
        return {
            "domain": self.domain,
            "name": self.name,
            "rules": list(self.rules),
            "changed": self.changed,
            "tested": self.tested,
        }


def overrules(learned: LearnedSet) -> tuple[Overrule, ...]:
    """Every static rule ``learned`` overrules: its domains' kept listed names, sorted."""
    return tuple(
        Overrule(domain, name, keep.overrules, keep.changed, keep.tested)
        for domain, entry in sorted(learned.domains.items())
        for name, keep in sorted(entry.keep_listed.items())
    )


@dataclass(frozen=True, slots=True)
class Flip:
    """One parameter whose verdict changed between the two sets."""

    domain: str
    pattern: str
    param: str
    old: str
    new: str

    @property
    def dangerous(self) -> bool:
        """Towards neutral, default or together: the normalizer would start dropping more."""
        return (self.old, self.new) in _DANGEROUS


@dataclass(frozen=True, slots=True)
class LearnedDiff:
    """Patterns added and removed, flips in the patterns of both, the new set's conflicts."""

    added: tuple[tuple[str, str], ...]
    removed: tuple[tuple[str, str], ...]
    common: int
    flips: tuple[Flip, ...]
    conflicts: tuple[PatternConflict, ...] = ()
    overruled: tuple[Overrule, ...] = ()
    """Every static rule the new set overrules."""
    aliases_added: tuple[tuple[str, str], ...] = ()
    """``(domain, "from -> to")`` of each alias the new set has and the old one lacks."""
    aliases_removed: tuple[tuple[str, str], ...] = ()
    aliases_kept: tuple[tuple[str, str], ...] = ()
    """``(domain, "from -> to")`` of each alias both sets have."""
    aliases_refused: tuple[tuple[str, str, str], ...] = ()
    """``(domain, "from -> to", "finding: reason")`` of each alias the new set's study did
    not publish (its ``aliases_refused``: kept apart or unproven)."""

    @property
    def dangerous(self) -> tuple[Flip, ...]:
        """The flips to neutral."""
        return tuple(f for f in self.flips if f.dangerous)

    def to_json(self) -> dict[str, Any]:
        """This diff as JSON."""
        return {
            "added": [list(p) for p in self.added],
            "removed": [list(p) for p in self.removed],
            "common_patterns": self.common,
            "flips": [
                {
                    "domain": f.domain,
                    "pattern": f.pattern,
                    "param": f.param,
                    "old": f.old,
                    "new": f.new,
                }
                for f in self.flips
            ],
            "conflicts": [c.to_json() for c in self.conflicts],
            "overruled": [o.to_json() for o in self.overruled],
            "aliases_added": [list(a) for a in self.aliases_added],
            "aliases_removed": [list(a) for a in self.aliases_removed],
            "aliases_kept": [list(a) for a in self.aliases_kept],
            "aliases_refused": [list(a) for a in self.aliases_refused],
        }


@dataclass(frozen=True, slots=True)
class GateResult:
    """Whether the new set may replace the old one."""

    allowed: bool
    flipped_patterns: int
    common: int
    max_fraction: float

    @property
    def message(self) -> str:
        """One line saying what the gate decided and why."""
        share = self.flipped_patterns / self.common if self.common else 0.0
        verdict = "allowed" if self.allowed else "REFUSED"
        return (
            f"publishing gate {verdict}: {self.flipped_patterns} of {self.common} common patterns "
            f"({share:.1%}) have a parameter flipped to neutral or a new default; "
            f"the limit is {self.max_fraction:.1%}"
        )


def _add(states: dict[str, str], name: str, verdict: ParamVerdict, where: str = "") -> None:
    states[name + where] = verdict.verdict
    states.update((f"{name}={value}{where}", "default") for value in verdict.defaults)


def _add_scopes(states: dict[str, str], scopes: dict[str, TemplateScope]) -> None:
    for template, scope in scopes.items():
        for name, verdict in scope.params.items():
            _add(states, name, verdict, f"{_AT}{template}")


def _patterns(learned: LearnedSet) -> dict[tuple[str, str], dict[str, str]]:
    out: dict[tuple[str, str], dict[str, str]] = {}
    for domain, d in learned.domains.items():
        for pattern, entry in d.patterns.items():
            states = out[(domain, pattern)] = {}
            for name, v in entry.params.items():
                _add(states, name, v)
            _add_scopes(states, dict(entry.templates))
            if entry.joint_defaults is not None:
                states["&".join(sorted(entry.joint_defaults.names))] = "together"
        if d.shared:
            _add_scopes(out.setdefault((domain, SHARED), {}), dict(d.shared))
        if d.keep_listed:
            out[(domain, KEEP_LISTED)] = dict.fromkeys(d.keep_listed, "kept")
    return out


def _state(
    states: dict[str, str], key: str, shared: bool = False, keep: bool = False
) -> str | None:
    """The state of a parameter, a ``name=value`` or an ``a&b`` of joint defaults.

    A verdict; ``default`` or ``kept``; ``together`` or ``apart``. A key of a template
    (``name @ /t``) that the set lacks has the state of what stands in for it there.
    """
    if keep:
        return states.get(key, "listed")
    base, at, template = key.partition(_AT)
    if at and f"{base.partition('=')[0]}{_AT}{template}" not in states:
        if shared:
            return "kept" if "=" in base else "non-neutral"
        return _state(states, base)
    if "=" in key:
        return states.get(key, "kept")
    return states.get(key, "apart" if "&" in key else None)


def _aliases(learned: LearnedSet) -> set[tuple[str, str]]:
    return {
        (domain, alias.describe())
        for domain, entry in learned.domains.items()
        for alias in entry.aliases
    }


def _refused(learned: LearnedSet) -> set[tuple[str, str, str]]:
    """The aliases each domain's study refused, as its entry records them."""
    out = set()
    for domain, entry in learned.domains.items():
        for c in entry.aliases_refused:
            out.add((domain, f"{c.from_} -> {c.to}", f"{c.finding}: {c.reason}"))
    return out


def diff_learned(old: LearnedSet, new: LearnedSet) -> LearnedDiff:
    """Compare two learned sets; dangerous flips come first in ``flips``."""
    before, after = _patterns(old), _patterns(new)
    for domain in set(old.domains) & set(new.domains):
        # Shared evidence new on a domain is compared with none: every parameter kept.
        for pattern in (SHARED, KEEP_LISTED):
            if (domain, pattern) in before or (domain, pattern) in after:
                before.setdefault((domain, pattern), {})
                after.setdefault((domain, pattern), {})
    common = sorted(set(before) & set(after))
    flips = []
    for key in common:
        then, later = before[key], after[key]
        shared, keep = key[1] == SHARED, key[1] == KEEP_LISTED
        for name in sorted(set(then) | set(later)):
            was, now = _state(then, name, shared, keep), _state(later, name, shared, keep)
            if was is not None and now is not None and was != now:
                flips.append(Flip(*key, name, was, now))
    flips.sort(key=lambda f: (not f.dangerous, f.domain, f.pattern, f.param))
    return LearnedDiff(
        added=tuple(sorted(set(after) - set(before))),
        removed=tuple(sorted(set(before) - set(after))),
        common=len(common),
        flips=tuple(flips),
        conflicts=tuple(new.conflicts()),
        overruled=overrules(new),
        aliases_added=tuple(sorted(_aliases(new) - _aliases(old))),
        aliases_removed=tuple(sorted(_aliases(old) - _aliases(new))),
        aliases_kept=tuple(sorted(_aliases(old) & _aliases(new))),
        aliases_refused=tuple(sorted(_refused(new))),
    )


def gate(diff: LearnedDiff, max_fraction: float) -> GateResult:
    """Refuse when over ``max_fraction`` of the common patterns flipped a parameter to neutral."""
    flipped = len({(f.domain, f.pattern) for f in diff.dangerous})
    allowed = flipped == 0 or (diff.common > 0 and flipped / diff.common <= max_fraction)
    return GateResult(allowed, flipped, diff.common, max_fraction)


def format_diff(diff: LearnedDiff) -> list[str]:
    """Human-readable lines, the dangerous flips first."""
    lines = [
        f"{len(diff.added)} pattern(s) added, {len(diff.removed)} removed, {diff.common} in both"
    ]
    for flip in diff.flips:
        mark = "DANGER" if flip.dangerous else "safe  "
        lines.append(
            f"  {mark} {flip.domain} [{flip.pattern}] {flip.param}: {flip.old} -> {flip.new}"
        )
    lines.extend(
        f"  CONFLICT {c.domain} [{c.pattern}] -> [{c.into}]: {', '.join(c.names)} would be "
        f"dropped there, kept here; the normalizer keeps them on such URLs"
        for c in diff.conflicts
    )
    lines.extend(
        f"  OVERRULES {o.domain} {o.name}: {', '.join(o.rules) or 'a built-in list'} "
        f"(the page changed without it on {o.changed} of {o.tested} samples)"
        for o in diff.overruled
    )
    lines.extend(f"  ALIAS added   {d} {rule}" for d, rule in diff.aliases_added)
    lines.extend(f"  ALIAS removed {d} {rule}" for d, rule in diff.aliases_removed)
    lines.extend(f"  ALIAS kept    {d} {rule}" for d, rule in diff.aliases_kept)
    lines.extend(f"  ALIAS refused {d} {rule} ({why})" for d, rule, why in diff.aliases_refused)
    lines.extend(f"  added   {d} [{p}]" for d, p in diff.added)
    lines.extend(f"  removed {d} [{p}]" for d, p in diff.removed)
    return lines
