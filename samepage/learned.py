"""Reading, validating and writing learned-set files (``format: samepage.learned``, versions 1, 2).

The learner writes these files and the normalizer reads them; both go through this module,
so the two halves can never disagree on the format. See ``docs/learned-format.md``.

The records of a set (:class:`DomainEntry` and the rest) are defined in the data model
below it (``_learned_model.py``) and checked by the validator (``_validate.py``); this
module is their public home, and adds the whole set: loading, writing and its conflicts.
"""

from __future__ import annotations

import json
import os
import stat
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Union

from samepage._alias_check import read_aliases
from samepage._conflicts import host_conflicts
from samepage._evidence import (
    CompanionCoverage,
    Coverage,
    RefusedAlias,
    RejectedDefault,
    RejectedJointDefaults,
    Sample,
    SampleOutcome,
    TemplateCounts,
    ValueClass,
    VerdictCause,
)
from samepage._files import write_text_atomic
from samepage._hosts import longest_key, lookup_host
from samepage._json import parse_json
from samepage._learned_model import (
    ALIAS_VERSION,
    FORMAT,
    VERSION,
    VERSIONS,
    DefaultValue,
    DomainEntry,
    JointDefaults,
    ListedKeep,
    ParamVerdict,
    PatternConflict,
    PatternEntry,
    TemplateScope,
    changed_too_often,
    pattern_names,
)
from samepage._learned_model import Verdict as Verdict
from samepage._policy import PolicyConfig
from samepage._validate import Reader, checked_host_key
from samepage.aliases import Alias
from samepage.errors import LearnedFormatError
from samepage.rules import default_rules

__all__ = [
    "ALIAS_VERSION",
    "FORMAT",
    "VERSION",
    "VERSIONS",
    "CompanionCoverage",
    "Coverage",
    "DefaultValue",
    "DomainEntry",
    "JointDefaults",
    "LearnedSet",
    "ListedKeep",
    "ParamVerdict",
    "PatternConflict",
    "PatternEntry",
    "RefusedAlias",
    "RejectedDefault",
    "RejectedJointDefaults",
    "Sample",
    "SampleOutcome",
    "TemplateCounts",
    "TemplateScope",
    "ValueClass",
    "VerdictCause",
    "changed_too_often",
    "check_aliases",
    "dump_learned",
    "dumps_learned",
    "load_learned",
    "parse_json",
    "pattern_conflicts",
    "pattern_names",
]

LearnedSource = Union["LearnedSet", Mapping[str, Any], str, "os.PathLike[str]"]


def pattern_conflicts(domain: str, entry: DomainEntry) -> list[PatternConflict]:
    """The conflicts between the patterns of one host, as :class:`PatternConflict` lists them.

    Found by the normalizer's own per-URL check (the one ``normalize`` and ``explain`` ask),
    on a probe URL of every pattern and every template a scope or the shared evidence
    names, with each parameter's learned default values and one value no default names.
    With the built-in rules and no options: the configuration of ``MIQPSNormalizer()``.
    """
    return host_conflicts(domain, entry, PolicyConfig(default_rules()))


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
        return cls(*Reader(origin).document(data))

    @classmethod
    def from_simple(cls, mapping: Mapping[str, Any], *, origin: str = "learned") -> LearnedSet:
        """Read the simple form ``{host_suffix: {content_param, ...}}``.

        Each host then keeps exactly its listed parameters (after the blocklist and the
        allowlist) and drops the others.
        """
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
            domains[checked_host_key(host.lower(), origin)] = DomainEntry(content=content)
        return cls(domains)


def check_aliases(rules: Iterable[Alias], *, where: str = "aliases") -> None:
    """Check that ``rules`` may stand together in one host's entry, as the reader checks a file.

    Raises:
        LearnedFormatError: naming the first rule the reader would refuse beside the others
            (a chain, two rules with one ``from``, two host aliases of one host, ...).
    """
    read_aliases([rule.to_json() for rule in rules], where, _format_error)


def _format_error(where: str, message: str) -> LearnedFormatError:
    return LearnedFormatError(f"{where}: {message}")


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
