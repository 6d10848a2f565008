"""Reading, validating and writing learned-set files (``format: samepage.learned``, versions 1, 2).

The learner writes these files and the normalizer reads them; both go through this module,
so the two halves can never disagree on the format. See ``docs/learned-format.md``.
"""

from __future__ import annotations

import json
import os
import stat
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from fractions import Fraction
from pathlib import Path
from typing import Any, Literal, Union

from samepage._files import write_text_atomic
from samepage._hosts import longest_key, lookup_host
from samepage._json import parse_json
from samepage.aliases import Alias
from samepage.errors import LearnedFormatError

__all__ = [
    "ALIAS_VERSION",
    "FORMAT",
    "VERSION",
    "VERSIONS",
    "DefaultValue",
    "DomainEntry",
    "JointDefaults",
    "LearnedSet",
    "ListedKeep",
    "ParamVerdict",
    "PatternConflict",
    "PatternEntry",
    "TemplateScope",
    "changed_too_often",
    "dump_learned",
    "dumps_learned",
    "load_learned",
    "parse_json",
    "pattern_conflicts",
    "pattern_names",
]

FORMAT = "samepage.learned"
VERSION = 1
ALIAS_VERSION = 2
"""The version of a file with aliases: a reader of version 1 refuses it rather than ignore them."""
VERSIONS = (VERSION, ALIAS_VERSION)

Verdict = Literal["neutral", "non-neutral"]
LearnedSource = Union["LearnedSet", Mapping[str, Any], str, "os.PathLike[str]"]

_COUNTS = ("tested", "changed", "failed")


@dataclass(frozen=True, slots=True)
class DefaultValue:
    """A value of a kept parameter that renders the page without the parameter.

    ``tested`` samples (all with this value, spread over the pattern's contexts) showed the
    same page with and without the parameter; ``changed`` is always 0 and ``failed`` counts
    samples that could not be decided (a default is learned only when none failed).
    """

    tested: int = 0
    changed: int = 0
    failed: int = 0
    extra: Mapping[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        """The JSON object of this default (extra evidence fields included)."""
        out: dict[str, Any] = dict(self.extra)
        out.update(tested=self.tested, changed=self.changed, failed=self.failed)
        return out


@dataclass(frozen=True, slots=True)
class ParamVerdict:
    """What the learner concluded about one parameter of one pattern, and on what evidence.

    ``defaults`` maps values (in the normalizer's query-value form) that mean "no parameter"
    to their evidence: the normalizer drops ``name=value`` for those values only. ``""``
    is the value of ``name=``; a bare ``name`` has no value a default names, and is kept.
    """

    verdict: Verdict
    tested: int = 0
    changed: int = 0
    failed: int = 0
    reason: str | None = None
    extra: Mapping[str, Any] = field(default_factory=dict)
    defaults: Mapping[str, DefaultValue] = field(default_factory=dict)

    @property
    def neutral(self) -> bool:
        """Whether removing the parameter was shown not to change the page."""
        return self.verdict == "neutral"

    def to_json(self) -> dict[str, Any]:
        """The JSON object of this verdict (extra evidence fields included)."""
        out: dict[str, Any] = dict(self.extra)
        out.update(
            verdict=self.verdict, tested=self.tested, changed=self.changed, failed=self.failed
        )
        if self.reason is not None:
            out["reason"] = self.reason
        if self.defaults:
            out["defaults"] = {value: d.to_json() for value, d in sorted(self.defaults.items())}
        return out


@dataclass(frozen=True, slots=True)
class JointDefaults:
    """Learned defaults of several parameters, shown to be droppable from one URL together.

    Each default is proven alone; ``tested`` sample URLs of the pattern, each carrying a
    default of every parameter in ``names``, showed the same page without all of them
    (``changed`` and ``failed`` are always 0). Without this, the normalizer drops at most
    one default from a URL.
    """

    names: frozenset[str]
    tested: int = 0
    changed: int = 0
    failed: int = 0
    extra: Mapping[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        """The JSON object of this check (extra evidence fields included)."""
        out: dict[str, Any] = dict(self.extra)
        out.update(
            names=sorted(self.names), tested=self.tested, changed=self.changed, failed=self.failed
        )
        return out


@dataclass(frozen=True, slots=True)
class TemplateScope:
    """Verdicts that hold on the URLs of one path template (:func:`samepage.path_template`).

    Inside a pattern (``PatternEntry.templates``), they replace the pattern's own verdicts
    for the parameters they name, on URLs of their template only. In a domain's ``shared``
    section, they are the evidence of every studied pattern combined, per template, for
    URLs whose pattern the file does not hold.
    """

    urls: int
    params: Mapping[str, ParamVerdict]
    extra: Mapping[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        """The JSON object of this scope."""
        out: dict[str, Any] = dict(self.extra)
        out["urls"] = self.urls
        out["params"] = {name: v.to_json() for name, v in sorted(self.params.items())}
        return out


@dataclass(frozen=True, slots=True)
class PatternEntry:
    """One query-parameter pattern of a domain: how often it was seen and its verdicts.

    ``joint_defaults``, when present, names the parameters whose learned defaults may be
    dropped from one URL together. ``templates``, when present, holds verdicts learned per
    path template where the evidence differed between templates: on a URL of a listed
    template, its verdict of a parameter replaces the pattern's.
    """

    urls: int
    params: Mapping[str, ParamVerdict]
    extra: Mapping[str, Any] = field(default_factory=dict)
    joint_defaults: JointDefaults | None = None
    templates: Mapping[str, TemplateScope] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        """The JSON object of this pattern."""
        out: dict[str, Any] = dict(self.extra)
        out["urls"] = self.urls
        out["params"] = {name: v.to_json() for name, v in sorted(self.params.items())}
        if self.joint_defaults is not None:
            out["joint_defaults"] = self.joint_defaults.to_json()
        if self.templates:
            out["templates"] = {t: s.to_json() for t, s in sorted(self.templates.items())}
        return out


@dataclass(frozen=True, slots=True)
class PatternConflict:
    """Two patterns of a host whose verdicts disagree on the URLs one turns into the other.

    Normalising a URL of ``pattern`` drops parameters (its neutral ones, or one learned
    default), which leaves a URL of ``into``; that pattern's verdicts would then drop
    ``names`` (``name`` or ``name=value``) that ``pattern`` keeps. The normalizer keeps,
    on each such URL, what the first pattern dropped, so every key normalises to itself.
    ``template``, when set, says the conflict holds on URLs of that path template, where
    a template scope of one of the two patterns decides; without it, on URLs of the
    templates neither pattern has a scope for.
    """

    domain: str
    pattern: str
    into: str
    names: tuple[str, ...]
    template: str | None = None

    def to_json(self) -> dict[str, Any]:
        """This conflict as JSON."""
        out: dict[str, Any] = {
            "domain": self.domain,
            "pattern": self.pattern,
            "into": self.into,
            "names": list(self.names),
        }
        if self.template is not None:
            out["template"] = self.template
        return out


@dataclass(frozen=True, slots=True)
class ListedKeep:
    """The evidence that keeps a listed name on a learned host, before every built-in list.

    The name is on a built-in list (the blocklist, or an ambiguous name), but renders of the
    host's own URLs showed a different page without it: ``changed`` of ``tested`` samples,
    more than the settings' threshold allows (:func:`changed_too_often`), on the path
    ``templates`` listed. ``overrules`` names the static rules it overrules (rule ids).
    """

    tested: int
    changed: int
    failed: int = 0
    overrules: tuple[str, ...] = ()
    templates: tuple[str, ...] = ()
    extra: Mapping[str, Any] = field(default_factory=dict)

    def describe(self) -> str:
        """One line for ``explain``: what the renders showed and which rules it overrules."""
        rules = ", ".join(self.overrules) or "a built-in list"
        return (
            f"kept: renders of this host changed without it on {self.changed} of "
            f"{self.tested} samples; overrules {rules}"
        )

    def to_json(self) -> dict[str, Any]:
        """The JSON object of this evidence (extra fields included)."""
        out: dict[str, Any] = dict(self.extra)
        out.update(tested=self.tested, changed=self.changed, failed=self.failed)
        out.update(overrules=list(self.overrules), templates=list(self.templates))
        return out


def pattern_conflicts(domain: str, entry: DomainEntry) -> list[PatternConflict]:
    """The conflicts between the patterns of one host, as :class:`PatternConflict` lists them.

    Found by the normalizer's own per-URL check (the one ``normalize`` and ``explain`` ask),
    on a probe URL of every pattern and every template a scope or the shared evidence
    names, with each parameter's learned default values and one value no default names.
    """
    from samepage._conflicts import host_conflicts  # the check needs the normalizer

    return host_conflicts(domain, entry)


@dataclass(frozen=True, slots=True)
class DomainEntry:
    """A learned host: its patterns, or (the simple form) its complete set of content names."""

    patterns: Mapping[str, PatternEntry] = field(default_factory=dict)
    content: frozenset[str] | None = None
    extra: Mapping[str, Any] = field(default_factory=dict)
    shared: Mapping[str, TemplateScope] = field(default_factory=dict)
    """Per path template, the verdicts that the evidence of every studied pattern supports
    together, for URLs of a pattern the file does not hold."""
    keep_listed: Mapping[str, ListedKeep] = field(default_factory=dict)
    """Listed names the host's renders showed to be content: kept there before the lists."""
    aliases: tuple[Alias, ...] = ()
    """Other spellings of one page on this host (format 2), first match first."""

    def fallback(self) -> dict[str, bool]:
        """Per parameter name, whether it is neutral in EVERY pattern that contains it.

        The template scopes of a pattern count as well. Used only by the opt-in
        domain-level fallback for patterns the file does not know.
        """
        neutral: dict[str, bool] = {}
        for entry in self.patterns.values():
            scoped = [scope.params for scope in entry.templates.values()]
            for params in (entry.params, *scoped):
                for name, verdict in params.items():
                    neutral[name] = neutral.get(name, True) and verdict.neutral
        return neutral

    def to_json(self) -> dict[str, Any]:
        """The JSON object of this domain."""
        out: dict[str, Any] = dict(self.extra)
        out["patterns"] = {key: p.to_json() for key, p in sorted(self.patterns.items())}
        if self.shared:
            out["shared"] = {t: s.to_json() for t, s in sorted(self.shared.items())}
        if self.keep_listed:
            out["keep_listed"] = {n: k.to_json() for n, k in sorted(self.keep_listed.items())}
        if self.aliases:
            out["aliases"] = [alias.to_json() for alias in self.aliases]
        return out


@dataclass(frozen=True, slots=True)
class LearnedSet:
    """A whole learned set: per host, per pattern, per parameter verdicts."""

    domains: Mapping[str, DomainEntry]
    created: str = ""
    settings: Mapping[str, Any] = field(default_factory=dict)
    extra: Mapping[str, Any] = field(default_factory=dict)
    _longest: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_longest", longest_key(self.domains))

    def conflicts(self) -> list[PatternConflict]:
        """Every host's :func:`pattern_conflicts`, by host."""
        return [
            conflict
            for host, entry in sorted(self.domains.items())
            for conflict in pattern_conflicts(host, entry)
        ]

    def domain(self, host: str, port: str = "") -> tuple[str, DomainEntry] | None:
        """The entry of the longest domain key covering ``host`` (and ``port``), if any."""
        return lookup_host(self.domains, host, port, longest=self._longest)

    def to_json(self) -> dict[str, Any]:
        """The JSON document of this set, as :func:`dump_learned` writes it."""
        out: dict[str, Any] = dict(self.extra)
        aliased = any(entry.aliases for entry in self.domains.values())
        out.update(
            format=FORMAT,
            version=ALIAS_VERSION if aliased else VERSION,
            created=self.created or _now(),
            settings=dict(self.settings),
            domains={host: d.to_json() for host, d in sorted(self.domains.items())},
        )
        return out

    @classmethod
    def from_json(cls, data: Any, *, origin: str = "learned set") -> LearnedSet:
        """Validate and read a document (version 1, or 2 with aliases).

        Raises:
            LearnedFormatError: naming the first problem found, and where.
        """
        from samepage._validate import Reader  # the validator builds this module's types

        return Reader(origin).document(data)

    @classmethod
    def from_simple(cls, mapping: Mapping[str, Any], *, origin: str = "learned") -> LearnedSet:
        """Read the simple form ``{host_suffix: {content_param, ...}}``.

        Each host then keeps exactly its listed parameters (after the blocklist and the
        allowlist) and drops the others.
        """
        from samepage._validate import host_key

        domains: dict[str, DomainEntry] = {}
        for host, names in mapping.items():
            if not isinstance(host, str) or not host:
                raise LearnedFormatError(f"{origin}: host key {host!r} is not a host name")
            if isinstance(names, (str, bytes)) or not isinstance(names, Iterable):
                raise LearnedFormatError(
                    f"{origin}[{host!r}]: expected a set of parameter names, "
                    f"got {type(names).__name__}"
                )
            content = frozenset(names)
            bad = [n for n in content if not isinstance(n, str) or not n]
            if bad:
                raise LearnedFormatError(f"{origin}[{host!r}]: {bad[0]!r} is not a parameter name")
            domains[host_key(host.lower(), origin)] = DomainEntry(content=content)
        return cls(domains)


def changed_too_often(changed: int, tested: int, threshold: float) -> bool:
    """Whether ``changed`` of ``tested`` samples are more changes than ``threshold`` allows.

    The change-rate rule of the learning method: a parameter is neutral only where this is
    false (and a sample was tested). The learner decides with it and the reader checks
    neutral verdicts with it. Any integer counts are compared: a count too large for a
    float is compared exactly, never turned into one.

    >>> changed_too_often(1, 10, 0.1), changed_too_often(2, 10, 0.1)
    (False, True)
    >>> changed_too_often(1, 10**400, 0.5)
    False
    """
    try:
        allowed = threshold * tested
    except OverflowError:  # int too large to convert to float
        return Fraction(changed) > Fraction(threshold) * tested
    return changed > allowed  # an int and a float compare exactly, whatever their size


def pattern_names(pattern: str) -> list[str]:
    """The parameter names of a pattern key (the inverse of :func:`samepage.pattern_key`)."""
    return pattern.split("&") if pattern else []


def load_learned(source: LearnedSource) -> LearnedSet:
    """Load a learned set from a path, a parsed document, a simple mapping, or a LearnedSet.

    Args:
        source: a file path; a mapping with a ``format`` key (a parsed format-1 document);
            a mapping of host suffix to content parameter names (the simple form); or an
            already loaded :class:`LearnedSet`.

    Raises:
        LearnedFormatError: the file cannot be read, is not JSON, or is malformed.
    """
    if isinstance(source, LearnedSet):
        return source
    if isinstance(source, (str, os.PathLike)):
        path = Path(source)
        try:
            regular = stat.S_ISREG(path.stat().st_mode)
            # A FIFO would block and /dev/zero never end: neither is a learned set.
            text = path.read_text(encoding="utf-8") if regular else ""
        except (OSError, UnicodeDecodeError, ValueError) as exc:
            # ValueError: a path no file can have (an embedded NUL).
            raise LearnedFormatError(f"{path}: cannot read learned set: {exc}") from exc
        if not regular:
            raise LearnedFormatError(f"{path}: cannot read learned set: not a regular file")
        return LearnedSet.from_json(parse_json(text, str(path)), origin=str(path))
    if isinstance(source, Mapping):
        if "format" in source:
            return LearnedSet.from_json(source)
        return LearnedSet.from_simple(source)
    raise LearnedFormatError(
        f"learned must be a path, a mapping or a LearnedSet, not {type(source).__name__}"
    )


def dump_learned(learned: LearnedSet, path: str | os.PathLike[str]) -> Path:
    """Write ``learned`` as JSON (sorted keys) atomically: a temp file renamed into place.

    A replaced file keeps its mode; a new one gets the umask's (as ``open()`` would).

    The text is read back with :func:`load_learned`'s own checks before anything is
    written, so a file this function writes is one that function reads.

    Raises:
        LearnedFormatError: for a simple-form set, which has no file format, or a set the
            reader would refuse (the message names the problem; nothing is written).
        OSError: when the folder cannot be written.
    """
    text = dumps_learned(learned, where=str(path))
    return write_text_atomic(path, text)


def dumps_learned(learned: LearnedSet, *, where: str = "learned set") -> str:
    """The JSON text :func:`dump_learned` writes, checked as :func:`load_learned` reads it.

    Raises:
        LearnedFormatError: as :func:`dump_learned`.
    """
    if any(d.content is not None for d in learned.domains.values()):
        raise LearnedFormatError("a simple-form learned set cannot be written as format 1")
    origin = f"{where}: not written"
    try:
        text = json.dumps(
            learned.to_json(), indent=2, sort_keys=True, ensure_ascii=False, allow_nan=False
        )
    except ValueError as exc:  # NaN or infinity
        raise LearnedFormatError(f"{origin}: {exc}") from None
    except TypeError as exc:  # a value JSON has no form for
        raise LearnedFormatError(f"{origin}: {exc}") from None
    LearnedSet.from_json(parse_json(text, origin), origin=origin)
    return text + "\n"


def _now() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
