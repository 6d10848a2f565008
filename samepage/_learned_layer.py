"""The learned layer's decision for one query parameter of one URL.

The pattern's verdicts (its template scope's first), else the shared evidence of the URL's
path template, else the domain fallback; learned defaults drop one value of a kept parameter.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Literal

from samepage._evidence import CompanionCoverage
from samepage._learned_model import (
    DefaultValue,
    DomainEntry,
    ParamVerdict,
    PatternEntry,
    TemplateScope,
    pattern_names,
)
from samepage._query import Pair, learned_value
from samepage.rules import Rule

Fallback = Literal["shared", "keep", "domain"]
"""How a learned host decides for a pattern its file lacks (``MIQPSNormalizer``'s option)."""


class LearnedLayer:
    """The learned entry of one host, read with the configured fallback, and its own cache.

    Built from frozen inputs (the domain key, its entry, the fallback option); the only
    state is the cache of each recorded verdict's decision, which no other layer touches.
    """

    __slots__ = ("entry", "fallback", "key", "scoped", "shared", "verdict_rules")

    def __init__(self, key: str, entry: DomainEntry, fallback: Fallback) -> None:
        self.key = key
        self.entry = entry
        self.fallback = entry.fallback() if fallback == "domain" else None
        self.shared: Mapping[str, TemplateScope] | None = (
            entry.shared if entry.shared and fallback != "keep" else None
        )
        # Whether a decision may depend on the URL's path template: only then is it computed.
        self.scoped = self.shared is not None or any(
            pattern.templates for pattern in entry.patterns.values()
        )
        # Each recorded verdict's decision, built once: (label, name) -> (keep, rule).
        self.verdict_rules: dict[tuple[str, str], tuple[bool, Rule]] = {}


def _count_name(pairs: list[Pair], name: str) -> int:
    count = 0
    for other, _ in pairs:
        count += other == name
    return count


def _recorded(
    found: PatternEntry | None, scope: TemplateScope | None, name: str
) -> ParamVerdict | None:
    """The verdict that holds for ``name``: the template scope's, else the pattern's."""
    recorded = scope.params.get(name) if scope is not None else None
    if recorded is None and found is not None:
        recorded = found.params.get(name)
    return recorded


def _default_of(recorded: ParamVerdict, piece: str) -> DefaultValue | None:
    """The learned default of ``recorded`` that ``piece`` carries, if any.

    ``""`` names the spelling ``name=`` only: a bare ``name`` carries no default value.
    """
    value = learned_value(piece)
    return recorded.defaults.get(value) if value is not None else None


def _another_default(
    found: PatternEntry | None, scope: TemplateScope | None, name: str, pairs: list[Pair]
) -> bool:
    """Whether another parameter carries a learned default not proven droppable with ``name``'s.

    Defaults are proven one at a time; several leave one URL together only where the
    pattern's ``joint_defaults`` names every parameter involved (shared evidence has none).
    """
    joint = found.joint_defaults if found is not None else None
    together = joint.names if joint is not None and name in joint.names else frozenset()
    for other, piece in pairs:
        if other != name and other not in together:
            recorded = _recorded(found, scope, other)
            if recorded is not None and _default_of(recorded, piece) is not None:
                return True
    return False


def _default_decision(
    where: str,
    name: str,
    recorded: ParamVerdict,
    found: PatternEntry | None,
    scope: TemplateScope | None,
    piece: str,
    pairs: list[Pair],
    evidence: str | None,
) -> tuple[bool, Rule] | None:
    """The decision a learned default of ``name`` makes on this URL, if any.

    ``where`` is the rule id's ``HOST:LABEL`` part. ``evidence`` is ``None`` on
    ``normalize``, which reads no rule's detail: the detail is written only for ``explain``,
    which passes the note to end it with (``""`` for none).
    """
    default = _default_of(recorded, piece)
    if default is None:
        return None
    # The learner tested each default alone, where the parameter appears once, and
    # several together only for the names of the pattern's joint_defaults.
    if _another_default(found, scope, name, pairs):
        detail = (
            "a learned default, kept: another parameter of the URL has its default too, "
            f"and the two were not proven droppable together{evidence}"
            if evidence is not None
            else ""
        )
        return True, Rule(f"learned:{where}:{name}:default-with-another", "learned", detail)
    if _count_name(pairs, name) == 1:
        value = piece.partition("=")[2]
        detail = (
            f"a learned default: the page with {name}={value} and without {name} "
            f"were the same on {default.tested} sample(s){evidence}"
            if evidence is not None
            else ""
        )
        return False, Rule(f"learned:{where}:{name}:default={value}", "learned", detail)
    return None


def _shared_evidence(recorded: ParamVerdict) -> str:
    """The detail's note of the patterns a shared verdict rests on."""
    patterns = recorded.patterns
    if patterns is not None:
        named = ", ".join(repr(p) for p in patterns)
        return f"; shared evidence of {len(patterns)} pattern(s): {named}"
    return "; shared evidence of the host's patterns"


def _companion_note(values: Mapping[str, CompanionCoverage]) -> str:
    """The detail's note of how a verdict's samples covered the other parameters' values.

    >>> from samepage._evidence import ValueClass
    >>> classes = (ValueClass("10", covered=True), ValueClass("5"))
    >>> _companion_note({"max": CompanionCoverage(0.642, 14, classes_seen=2, classes=classes)})
    '; beside max: 1 of 2 value classes, 64.2% of 14 URLs'
    """
    notes = []
    for name, seen in sorted(values.items()):
        share = seen.share
        # A share is a number in [0, 1]: compared exactly, so a 300-digit integer is no
        # share (formatting it as a float would overflow) and is left out.
        if share is not None and 0 <= share <= 1:
            notes.append(
                f"{name}: {seen.covered_classes} of {seen.classes_seen} value classes, "
                f"{share:.1%} of {seen.urls} URLs"
            )
    return "; beside " + ", ".join(notes) if notes else ""


def _unseen_companions(recorded: ParamVerdict, pattern: str | None, name: str) -> list[str]:
    """The URL's other parameters that no pattern a shared verdict rests on has beside ``name``.

    A shared verdict was learned on studied patterns; a URL of another pattern whose other
    parameters one of them holds met the same companions. Any other companion (a page size
    beside ``page``, say) may decide whether ``name`` matters: the verdict says nothing there.
    """
    others = {n for n in pattern_names(pattern or "") if n != name}
    patterns = recorded.patterns
    if patterns is None:
        return sorted(others)  # evidence of unknown patterns met no companion
    best: set[str] | None = None
    for studied in patterns:
        missing = others - set(pattern_names(studied))
        if best is None or len(missing) < len(best):
            best = missing
    return sorted(best if best is not None else others)


def _learned_decision(
    layer: LearnedLayer,
    name: str,
    pattern: str | None,
    piece: str,
    pairs: list[Pair],
    template: str | None,
    detailed: bool,
) -> tuple[bool, Rule] | None:
    """The learned layer's decision, or None when it has none.

    The pattern's verdicts (its template scope's first), else the shared evidence of the
    URL's template, else the domain fallback. Only with ``detailed`` (for ``explain``) do
    the rules carry their detail (``source``): ``normalize`` reads no rule's text, and a
    detail built from a file's evidence has no place on its path.
    """
    entry = layer.entry
    key = layer.key
    if entry.content is not None:
        kept = name in entry.content
        verdict = "content" if kept else "not-content"
        return kept, Rule(f"learned:{key}:{verdict}:{name}", "learned", "learned set (simple form)")
    found = entry.patterns.get(pattern) if pattern is not None else None
    scope: TemplateScope | None = None
    recorded: ParamVerdict | None = None
    shared = False
    label = pattern
    if found is not None:
        if template is not None and found.templates:
            scope = found.templates.get(template)
            recorded = scope.params.get(name) if scope is not None else None
            if recorded is not None:
                label = f"{pattern}@{template}"
        if recorded is None:
            recorded = found.params.get(name)
            if recorded is None:
                return True, Rule(
                    f"learned:{key}:{pattern}:{name}:unrecorded", "learned", "no verdict: kept"
                )
    elif layer.shared is not None and template is not None:
        scope = layer.shared.get(template)
        recorded = scope.params.get(name) if scope is not None else None
        label = f"*@{template}"
        if recorded is not None:
            shared = True
            unseen = _unseen_companions(recorded, pattern, name)
            if unseen and (recorded.neutral or recorded.defaults):
                detail = ""
                if detailed:
                    of = _shared_evidence(recorded).removeprefix("; shared evidence")
                    detail = f"kept: the shared evidence{of} never had {name} beside "
                    detail += ", ".join(unseen)
                return True, Rule(
                    f"learned:{key}:{label}:{name}:unseen-companions", "learned", detail
                )
    if recorded is None:
        fallback = layer.fallback
        if fallback is not None and name in fallback:
            neutral = fallback[name]
            kind = "neutral-everywhere" if neutral else "non-neutral-somewhere"
            return not neutral, Rule(
                f"learned:{key}:*:{name}:{kind}", "learned", "domain-level fallback"
            )
        return None
    evidence = (_shared_evidence(recorded) if shared else "") if detailed else None
    if recorded.defaults:
        where = f"{key}:{label}"
        decided = _default_decision(where, name, recorded, found, scope, piece, pairs, evidence)
        if decided is not None:
            return decided
    assert label is not None  # a recorded verdict came from a pattern or a template scope
    if evidence is not None:
        return not recorded.neutral, _verdict_rule(f"{key}:{label}", name, recorded, evidence)
    decided = layer.verdict_rules.get((label, name))
    if decided is None:
        decided = not recorded.neutral, _verdict_rule(f"{key}:{label}", name, recorded, None)
        layer.verdict_rules[(label, name)] = decided
    return decided


def _verdict_rule(where: str, name: str, recorded: ParamVerdict, evidence: str | None) -> Rule:
    """The rule of a recorded verdict, its detail the counts, reason and coverage.

    The detail is written for ``explain`` only (``evidence`` not None: the note to end it
    with); the counts and coverage are the file's own numbers.
    """
    rule_id = f"learned:{where}:{name}:{recorded.verdict}"
    if evidence is None:
        return Rule(rule_id, "learned")
    detail = f"tested {recorded.tested}, changed {recorded.changed}, failed {recorded.failed}"
    if recorded.reason:
        detail += f"; {recorded.reason}"
    covered = recorded.coverage
    if covered is not None and covered.values:
        detail += _companion_note(covered.values)
    return Rule(rule_id, "learned", detail + evidence)
