"""Reading the evidence of a learned set into its types (``_evidence.py``), naming a wrong shape.

The base of the validator (``_validate.py``): it holds the checks of plain values (an object,
a count, a string) and reads each kind of evidence; a record's keys it does not know are kept
in the record's ``extra``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, TypeVar

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
from samepage.errors import LearnedFormatError

MAX_COUNT = 2**63 - 1
"""The largest count a learned set holds (a signed 64-bit integer, as DuckDB and Arrow
read counts); a larger one is no count of samples or URLs, and is refused."""

_OUTCOMES: tuple[SampleOutcome, ...] = ("same", "changed", "failed")
_ALIAS_COUNTS = ("samples", "controls", "replaced")
_CAUSES = tuple(cause.value for cause in VerdictCause)

_T = TypeVar("_T")


def _rest(fields: Mapping[str, Any], known: tuple[str, ...]) -> dict[str, Any]:
    """The fields of an object no record field holds (kept as they are)."""
    return {k: v for k, v in fields.items() if k not in known}


class EvidenceReader:
    """Checks plain values and reads evidence, naming the path of the first problem."""

    def __init__(self, origin: str) -> None:
        self.origin = origin

    def fail(self, where: str, problem: str) -> LearnedFormatError:
        return LearnedFormatError(f"{self.origin}: {where}: {problem}")

    def mapping(self, value: Any, where: str) -> Mapping[str, Any]:
        if not isinstance(value, Mapping):
            raise self.fail(where, f"expected an object, got {type(value).__name__}")
        return value

    def count(self, value: Any, where: str) -> int:
        if not isinstance(value, int) or isinstance(value, bool) or value < 0:
            raise self.fail(where, f"expected a non-negative integer, got {value!r}")
        if value > MAX_COUNT:
            digits = len(str(value))
            raise self.fail(where, f"a count is at most 2**63 - 1, got a number of {digits} digits")
        return value

    def text(self, value: Any, where: str) -> str:
        if not isinstance(value, str):
            raise self.fail(where, f"expected a string, got {value!r}")
        return value

    def texts(self, value: Any, where: str) -> tuple[str, ...]:
        if not isinstance(value, list) or not all(isinstance(i, str) for i in value):
            raise self.fail(where, f"expected a list of strings, got {value!r}")
        return tuple(value)

    def number(self, value: Any, where: str) -> float:
        """A number as the file holds it (an integer stays one, so it is written back so)."""
        if not isinstance(value, (int, float)) or isinstance(value, bool):
            raise self.fail(where, f"expected a number, got {value!r}")
        return value

    def flag(self, value: Any, where: str) -> bool:
        if not isinstance(value, bool):
            raise self.fail(where, f"expected true or false, got {value!r}")
        return value

    def optional(
        self, fields: Mapping[str, Any], key: str, read: Callable[[Any, str], _T], where: str
    ) -> _T | None:
        """``read(fields[key], where.key)``, or ``None`` where the key is absent."""
        return read(fields[key], f"{where}.{key}") if key in fields else None

    def listed(self, value: Any, where: str, read: Callable[[Any, str], _T]) -> tuple[_T, ...]:
        if not isinstance(value, list):
            raise self.fail(where, f"expected a list, got {type(value).__name__}")
        return tuple(read(item, f"{where}[{i}]") for i, item in enumerate(value))

    def cause(self, value: Any, where: str) -> VerdictCause:
        if value not in _CAUSES:
            known = ", ".join(_CAUSES)
            raise self.fail(where, f"unknown cause {value!r} (expected one of {known})")
        return VerdictCause(value)

    def sample(self, value: Any, where: str) -> Sample:
        fields = self.mapping(value, where)
        url = self.text(fields.get("url"), f"{where}.url")
        candidate = self.text(fields.get("candidate"), f"{where}.candidate")
        outcome = fields.get("outcome")
        if outcome not in _OUTCOMES:
            raise self.fail(
                f"{where}.outcome", f"expected 'same', 'changed' or 'failed', got {outcome!r}"
            )
        source = fields.get("from", "archive")
        if source != "archive":
            raise self.fail(f"{where}.from", f"expected 'archive', got {source!r}")
        extra = _rest(fields, ("url", "candidate", "outcome", "from"))
        return Sample(url, candidate, outcome, "from" in fields, extra)

    def samples(self, value: Any, where: str) -> tuple[Sample, ...]:
        return self.listed(value, where, self.sample)

    def coverage(self, value: Any, where: str) -> Coverage:
        fields = self.mapping(value, where)
        counts = {
            key: self.optional(fields, key, self.count, where)
            for key in (
                "paths_tested",
                "paths_seen",
                "companions_tested",
                "companions_seen",
                "templates_seen",
            )
        }
        templates = self.optional(fields, "templates", self.template_counts, where)
        values = self.optional(fields, "values", self.companions, where)
        return Coverage(
            paths=self.optional(fields, "paths", self.texts, where),
            share=self.optional(fields, "share", self.number, where),
            templates=templates,
            values=values,
            extra=_rest(fields, ("paths", "share", "templates", "values", *counts)),
            **counts,
        )

    def template_counts(self, value: Any, where: str) -> dict[str, TemplateCounts]:
        parsed = {}
        for template, counts in self.mapping(value, where).items():
            at = f"{where}[{template!r}]"
            fields = self.mapping(counts, at)
            known = ("urls", "tested", "changed", "failed")
            found = {key: self.optional(fields, key, self.count, at) for key in known}
            parsed[template] = TemplateCounts(**found, extra=_rest(fields, known))
        return parsed

    def companions(self, value: Any, where: str) -> dict[str, CompanionCoverage]:
        parsed = {}
        for name, seen in self.mapping(value, where).items():
            at = f"{where}[{name!r}]"
            fields = self.mapping(seen, at)
            classes = self.optional(
                fields, "classes", lambda v, w: self.listed(v, w, self.value_class), at
            )
            parsed[name] = CompanionCoverage(
                share=self.optional(fields, "share", self.number, at),
                urls=self.optional(fields, "urls", self.count, at),
                numeric=self.optional(fields, "numeric", self.flag, at),
                classes_seen=self.optional(fields, "classes_seen", self.count, at),
                classes=classes,
                extra=_rest(fields, ("share", "urls", "numeric", "classes_seen", "classes")),
            )
        return parsed

    def value_class(self, value: Any, where: str) -> ValueClass:
        fields = self.mapping(value, where)
        shown = fields.get("value")
        if isinstance(shown, list):
            shown = self.texts(shown, f"{where}.value")
        elif shown is not None and not isinstance(shown, str):
            raise self.fail(
                f"{where}.value", f"expected a value, a list of values or null, got {shown!r}"
            )
        return ValueClass(
            shown,
            urls=self.optional(fields, "urls", self.count, where),
            samples=self.optional(fields, "samples", self.count, where),
            covered=self.optional(fields, "covered", self.flag, where),
            extra=_rest(fields, ("value", "urls", "samples", "covered")),
        )

    def rejected_defaults(self, value: Any, where: str) -> dict[str, RejectedDefault]:
        parsed = {}
        for key, why in self.mapping(value, where).items():
            at = f"{where}[{key!r}]"
            fields = self.mapping(why, at)
            known = ("reason", "samples", "coverage", "tested", "changed", "failed")
            parsed[key] = RejectedDefault(
                reason=self.optional(fields, "reason", self.text, at),
                samples=self.optional(fields, "samples", self.samples, at),
                coverage=self.optional(fields, "coverage", self.coverage, at),
                tested=self.optional(fields, "tested", self.count, at),
                changed=self.optional(fields, "changed", self.count, at),
                failed=self.optional(fields, "failed", self.count, at),
                extra=_rest(fields, known),
            )
        return parsed

    def rejected_joint_defaults(self, value: Any, where: str) -> RejectedJointDefaults:
        fields = self.mapping(value, where)
        return RejectedJointDefaults(
            self.texts(fields.get("names"), f"{where}.names"),
            reason=self.optional(fields, "reason", self.text, where),
            samples=self.optional(fields, "samples", self.samples, where),
            extra=_rest(fields, ("names", "reason", "samples")),
        )

    def refused_aliases(self, value: Any, where: str) -> tuple[RefusedAlias, ...]:
        return self.listed(value, where, self.refused_alias)

    def refused_alias(self, value: Any, where: str) -> RefusedAlias:
        fields = self.mapping(value, where)
        from_, to, finding, reason = (
            self.text(fields.get(key), f"{where}.{key}")
            for key in ("from", "to", "finding", "reason")
        )
        samples, controls, replaced = (
            self.optional(fields, key, self.count, where) for key in _ALIAS_COUNTS
        )
        return RefusedAlias(
            from_,
            to,
            finding,
            reason,
            samples,
            controls,
            replaced,
            extra=_rest(fields, ("from", "to", "finding", "reason", *_ALIAS_COUNTS)),
        )
