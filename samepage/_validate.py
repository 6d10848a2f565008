"""The learned-set validator: reads a parsed document, naming the first problem.

It builds the data model's records (``_learned_model.py``) and checks host keys; the set
itself is built from its :class:`Document` by :meth:`samepage.LearnedSet.from_json`.

See ``docs/learned-format.md`` for the format it checks.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from typing import Any, NamedTuple

from samepage import _suffixes, _url
from samepage._alias_check import check_host_aliases, read_aliases
from samepage._encoding import QUERY, normalize_escapes
from samepage._evidence_check import MAX_COUNT, EvidenceReader
from samepage._learned_model import (
    _COUNTS,
    ALIAS_VERSION,
    FORMAT,
    VERSIONS,
    DefaultValue,
    DomainEntry,
    JointDefaults,
    ListedKeep,
    ParamVerdict,
    PatternEntry,
    TemplateScope,
    changed_too_often,
    pattern_names,
)
from samepage.errors import LearnedFormatError
from samepage.templates import is_template, path_template

__all__ = ["MAX_COUNT", "Document", "Reader", "checked_host_key"]


_DEFAULT_EVIDENCE = ("samples", "coverage", "patterns")
_VERDICT_EVIDENCE = ("cause", "rejected_defaults", *_DEFAULT_EVIDENCE)
_PATTERN_EVIDENCE = ("joint_checks", "rejected_joint_defaults")
_DOMAIN_EVIDENCE = ("renders", "urls", "aliases_refused")


class Document(NamedTuple):
    """A checked document's parts, from which :class:`samepage.LearnedSet` is built."""

    domains: dict[str, DomainEntry]
    created: str
    settings: dict[str, Any]
    extra: dict[str, Any]


_INT_DIGITS = 10**4300
"""An integer anywhere in a document must have fewer digits than this has: the parser's own
limit (``sys.int_info.default_max_str_digits``), so every integer read can be written and
printed again."""


def checked_host_key(key: str, where: str) -> str:
    """Check that ``key`` (``host`` or ``host:port``) is written as URLs carry it.

    A key in any other spelling (upper case, Unicode, a trailing dot, ``0x7f.1``, a port
    with leading zeros) could never match a normalised URL: it is refused, not ignored.
    """
    if key.startswith("["):
        end = key.find("]") + 1
        host, rest = (key[:end], key[end:]) if end else (key, "")
        sep, port = rest[:1], rest[1:]
        bad_tail = bool(rest) and sep != ":"
    else:
        host, sep, port = key.partition(":")
        bad_tail = False
    try:
        canonical = _url._normalize_host(host) if host and not bad_tail else None
    except ValueError:
        canonical = None
    port_ok = not sep or (
        port.isascii()
        and port.isdigit()
        and len(port) <= 5
        and str(int(port)) == port
        and int(port) <= 65535
    )
    if canonical is None or not port_ok:
        raise LearnedFormatError(
            f"{where}: domain key {key!r} must be a lower-case IDNA host name, optionally "
            "host:port (a port from 0 to 65535, no leading zeros)" + _hint(key)
        )
    if canonical != host:
        raise LearnedFormatError(
            f"{where}: domain key {key!r} can never match: URLs carry this host as {canonical!r}"
        )
    _refuse_public_suffix(host, key, where)
    return key


def _refuse_public_suffix(host: str, key: str, where: str) -> None:
    """Refuse a key that is a public suffix: it would cover every tenant's site under it."""
    if _suffixes.is_public_suffix(host):
        raise LearnedFormatError(
            f"{where}: domain key {key!r} is a public suffix (Public Suffix List, "
            f"{_suffixes.list_version()}): it would apply to every site registered under it; "
            "name the site's own host instead"
        )


def _hint(key: str) -> str:
    """``; did you mean HOST?`` for a key that is a URL, or holds a path or a user."""
    if not any(mark in key for mark in "/@?#"):
        return ""
    try:
        found = _url.split_url(key if "://" in key else f"http://{key}")
    except ValueError:
        return ""
    if found is None:
        return ""
    host, port = found[2], found[3]
    return f"; did you mean {host + (':' + port if port else '')!r}?"


_PLACEHOLDER_SEGMENT = re.compile(r"(\{id\}|\{slug\})((?:\.[A-Za-z]{1,5})?)")


def _normalised_template(template: str) -> str:
    """``template`` as a normalised path would spell it (its placeholders kept).

    The normalizer reads the template of a URL's normalised path (upper-case escapes,
    non-ASCII escaped, no ``//``, dot segments or trailing ``/``), so a key spelled
    otherwise (``/items/``, ``/a//b``, ``/%ce%bb``, ``/items?x``, ``/été``) never matches.
    A placeholder counts only as a whole segment (with its extension), as templates have it.
    """
    n = 0
    while f"~{n}" in template:
        n += 1
    tokens: dict[str, str] = {}

    def token(found: re.Match[str]) -> str:
        name = f"~{n}{'i' if found.group(1) == '{id}' else 's'}~"
        tokens[name] = found.group(1)
        return name + found.group(2)

    segments = [
        _PLACEHOLDER_SEGMENT.sub(token, s) if _PLACEHOLDER_SEGMENT.fullmatch(s) else s
        for s in template.split("/")
    ]
    text = _url.normalize_path("/".join(segments))
    for name, placeholder in tokens.items():
        text = text.replace(name, placeholder)
    return text


class Reader(EvidenceReader):
    """Validates a format-1 document, naming the path of the first problem."""

    def __init__(self, origin: str) -> None:
        super().__init__(origin)
        self.threshold = 0.0  # the run's change-rate threshold, from settings

    def writable(self, doc: Mapping[str, Any]) -> None:
        """Refuse values a JSON file cannot hold: non-finite numbers, unencodable strings."""
        stack: list[tuple[str, Any]] = []
        for key, item in doc.items():
            if not isinstance(key, str):
                raise self.fail("document", f"key {key!r} is not a string")
            self.encodable(key, "document")
            stack.append((key, item))
        while stack:
            where, value = stack.pop()
            if isinstance(value, float) and not math.isfinite(value):
                raise self.fail(where, f"{value!r} is not a JSON number")
            if isinstance(value, int) and not -_INT_DIGITS < value < _INT_DIGITS:
                raise self.fail(where, "an integer of thousands of digits is not a JSON number")
            if isinstance(value, str):
                self.encodable(value, where)
            elif isinstance(value, Mapping):
                for key, item in value.items():
                    if not isinstance(key, str):
                        raise self.fail(where, f"key {key!r} is not a string")
                    self.encodable(key, where)
                    stack.append((f"{where}[{key!r}]", item))
            elif isinstance(value, (list, tuple)):
                stack.extend((f"{where}[{i}]", item) for i, item in enumerate(value))

    def encodable(self, text: str, where: str) -> None:
        try:
            text.encode("utf-8")
        except UnicodeEncodeError:
            raise self.fail(
                where, f"{text!r} has a lone surrogate: no UTF-8 file can hold it"
            ) from None

    def document(self, data: Any) -> Document:
        doc = self.mapping(data, "document")
        self.writable(doc)
        if doc.get("format") != FORMAT:
            raise self.fail("format", f"unknown format {doc.get('format')!r} (expected {FORMAT!r})")
        version = doc.get("version")
        if type(version) is not int or version not in VERSIONS:
            known = ", ".join(map(str, VERSIONS))
            raise self.fail(
                "version", f"unknown version {doc.get('version')!r} (this reader knows {known})"
            )
        created = doc.get("created", "")
        if not isinstance(created, str):
            raise self.fail("created", "expected a string")
        settings = self.mapping(doc.get("settings", {}), "settings")
        threshold = settings.get("threshold", 0.0)
        if (
            not isinstance(threshold, (int, float))
            or isinstance(threshold, bool)
            or not 0.0 <= threshold < 1.0
        ):
            raise self.fail("settings.threshold", f"expected a number in [0, 1), got {threshold!r}")
        self.threshold = float(threshold)
        domains = self.mapping(doc.get("domains"), "domains")
        if version < ALIAS_VERSION:
            self.no_aliases(domains)
        parsed = {
            checked_host_key(host, f"{self.origin}: domains"): self.domain(
                entry, f"domains[{host!r}]"
            )
            for host, entry in domains.items()
        }
        check_host_aliases(parsed, "domains", self.fail)
        extra = {
            k: v
            for k, v in doc.items()
            if k not in ("format", "version", "created", "settings", "domains")
        }
        return Document(parsed, created, dict(settings), extra)

    def domain(self, value: Any, where: str) -> DomainEntry:
        entry = self.mapping(value, where)
        patterns = self.mapping(entry.get("patterns"), f"{where}.patterns")
        parsed = {
            key: self.pattern(key, p, f"{where}.patterns[{key!r}]") for key, p in patterns.items()
        }
        shared = self.scopes(entry.get("shared", {}), None, f"{where}.shared")
        keep = self.keep_listed(entry.get("keep_listed", {}), f"{where}.keep_listed")
        aliases = read_aliases(entry.get("aliases", []), f"{where}.aliases", self.fail)
        at = f"{where}.aliases_refused"
        refused = self.refused_aliases(entry.get("aliases_refused", []), at)
        known = ("patterns", "shared", "keep_listed", "aliases", *_DOMAIN_EVIDENCE)
        extra = {k: v for k, v in entry.items() if k not in known}
        return DomainEntry(
            parsed,
            extra=extra,
            shared=shared,
            keep_listed=keep,
            aliases=aliases,
            renders=self.optional(entry, "renders", self.count, where),
            urls=self.optional(entry, "urls", self.count, where),
            aliases_refused=refused,
        )

    def no_aliases(self, domains: Mapping[str, Any]) -> None:
        """Refuse aliases in a version-1 file: a reader of version 1 would ignore them."""
        for host, entry in domains.items():
            if isinstance(entry, Mapping) and "aliases" in entry:
                raise self.fail(
                    f"domains[{host!r}].aliases",
                    f"aliases need version {ALIAS_VERSION}: a reader of version 1 would "
                    "ignore them (write the file with samepage.dump_learned)",
                )

    def keep_listed(self, value: Any, where: str) -> dict[str, ListedKeep]:
        """Listed names a host keeps: each on renders that showed a change the rule counts."""
        parsed = {}
        for name, fields in self.mapping(value, where).items():
            at = f"{where}[{name!r}]"
            if not name or any(c in name for c in "&=#"):
                raise self.fail(at, "not a parameter name (non-empty, without '&', '=', '#')")
            entry = self.mapping(fields, at)
            tested, changed, failed = (self.count(entry.get(n, 0), f"{at}.{n}") for n in _COUNTS)
            if tested == 0 or not changed_too_often(changed, tested, self.threshold):
                raise self.fail(
                    at,
                    "a listed name is kept only on renders that showed the page change more "
                    f"often than the settings' threshold {self.threshold} allows "
                    f"(tested {tested}, changed {changed})",
                )
            lists = {}
            for key in ("overrules", "templates"):
                items = entry.get(key, [])
                if not isinstance(items, list) or not all(isinstance(i, str) for i in items):
                    raise self.fail(f"{at}.{key}", f"expected a list of strings, got {items!r}")
                lists[key] = tuple(items)
            bad = [t for t in lists["templates"] if not is_template(t)]
            if bad:
                raise self.fail(f"{at}.templates", f"{bad[0]!r} is not a path template")
            extra = {k: v for k, v in entry.items() if k not in (*_COUNTS, *lists)}
            parsed[name] = ListedKeep(
                tested, changed, failed, lists["overrules"], lists["templates"], extra
            )
        return parsed

    def scopes(self, value: Any, names: list[str] | None, where: str) -> dict[str, TemplateScope]:
        """Template scopes; ``names``, if given, are the only parameters they may name."""
        parsed = {}
        for template, scope in self.mapping(value, where).items():
            at = f"{where}[{template!r}]"
            if not is_template(template):
                raise self.fail(
                    at,
                    "a template is a path starting with '/' in which ids and slugs are "
                    f"placeholders (samepage.path_template gives {path_template(template)!r})",
                )
            spelled = _normalised_template(template)
            if spelled != template:
                raise self.fail(
                    at,
                    "this template can never match: templates are of normalised paths, "
                    f"which spell it {spelled!r}",
                )
            fields = self.mapping(scope, at)
            params = self.mapping(fields.get("params"), f"{at}.params")
            if names is not None:
                unknown = sorted(set(params) - set(names))
                if unknown:
                    raise self.fail(
                        f"{at}.params", f"parameter {unknown[0]!r} is not in the pattern"
                    )
            else:
                bad = sorted(n for n in params if not n or any(c in n for c in "&=#"))
                if bad:
                    raise self.fail(
                        f"{at}.params",
                        f"{bad[0]!r} is not a parameter name (non-empty, without '&', '=', '#')",
                    )
            verdicts = {n: self.verdict(v, f"{at}.params[{n!r}]") for n, v in params.items()}
            known = ("urls", "params", "joint_checks", "patterns")
            extra = {k: v for k, v in fields.items() if k not in known}
            urls = self.count(fields.get("urls", 0), f"{at}.urls")
            parsed[template] = TemplateScope(
                urls,
                verdicts,
                extra,
                joint_checks=self.samples(fields.get("joint_checks", []), f"{at}.joint_checks"),
                patterns=self.optional(fields, "patterns", self.texts, at),
            )
        return parsed

    def pattern(self, key: str, value: Any, where: str) -> PatternEntry:
        names = pattern_names(key)
        if names != sorted(set(names)) or any(not n for n in names):
            raise self.fail(
                where, "a pattern key is the sorted, de-duplicated parameter names joined by '&'"
            )
        entry = self.mapping(value, where)
        params = self.mapping(entry.get("params"), f"{where}.params")
        unknown = sorted(set(params) - set(names))
        if unknown:
            raise self.fail(f"{where}.params", f"parameter {unknown[0]!r} is not in the pattern")
        parsed = {name: self.verdict(v, f"{where}.params[{name!r}]") for name, v in params.items()}
        joint = None
        if "joint_defaults" in entry:
            joint = self.joint_defaults(entry["joint_defaults"], parsed, f"{where}.joint_defaults")
        templates = self.scopes(entry.get("templates", {}), names, f"{where}.templates")
        known = ("urls", "params", "joint_defaults", "templates", *_PATTERN_EVIDENCE)
        extra = {k: v for k, v in entry.items() if k not in known}
        urls = self.count(entry.get("urls", 0), f"{where}.urls")
        checks = self.samples(entry.get("joint_checks", []), f"{where}.joint_checks")
        rejected = self.optional(
            entry, "rejected_joint_defaults", self.rejected_joint_defaults, where
        )
        return PatternEntry(urls, parsed, extra, joint, templates, checks, rejected)

    def joint_defaults(
        self, value: Any, params: Mapping[str, ParamVerdict], where: str
    ) -> JointDefaults:
        fields = self.mapping(value, where)
        names = fields.get("names")
        if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
            raise self.fail(f"{where}.names", f"expected a list of parameter names, got {names!r}")
        if len(set(names)) < 2:
            raise self.fail(f"{where}.names", "defaults are dropped together from two names up")
        without = sorted(n for n in names if n not in params or not params[n].defaults)
        if without:
            raise self.fail(f"{where}.names", f"parameter {without[0]!r} has no learned default")
        tested, changed, failed = (self.count(fields.get(n, 0), f"{where}.{n}") for n in _COUNTS)
        if tested == 0 or changed or failed:
            raise self.fail(
                where,
                "defaults are dropped together only on samples that all showed the same page "
                f"(tested {tested}, changed {changed}, failed {failed})",
            )
        extra = {k: v for k, v in fields.items() if k not in ("names", "samples", *_COUNTS)}
        samples = self.optional(fields, "samples", self.samples, where)
        return JointDefaults(frozenset(names), tested, changed, failed, extra, samples)

    def verdict(self, value: Any, where: str) -> ParamVerdict:
        entry = self.mapping(value, where)
        verdict = entry.get("verdict")
        if verdict not in ("neutral", "non-neutral"):
            raise self.fail(
                f"{where}.verdict", f"expected 'neutral' or 'non-neutral', got {verdict!r}"
            )
        tested, changed, failed = (self.count(entry.get(n, 0), f"{where}.{n}") for n in _COUNTS)
        too_often = changed_too_often(changed, tested, self.threshold)
        if verdict == "neutral" and (tested == 0 or too_often):
            raise self.fail(
                where,
                "a neutral verdict needs a tested sample and no more changes than the "
                f"settings' threshold {self.threshold} allows (tested {tested}, "
                f"changed {changed})",
            )
        reason = entry.get("reason")
        if reason is not None and not isinstance(reason, str):
            raise self.fail(f"{where}.reason", "expected a string")
        defaults = self.defaults(entry.get("defaults", {}), verdict, f"{where}.defaults")
        known = ("verdict", "reason", "defaults", *_COUNTS, *_VERDICT_EVIDENCE)
        extra = {k: v for k, v in entry.items() if k not in known}
        return ParamVerdict(
            verdict,
            tested,
            changed,
            failed,
            reason=reason,
            extra=extra,
            defaults=defaults,
            cause=self.optional(entry, "cause", self.cause, where),
            samples=self.optional(entry, "samples", self.samples, where),
            coverage=self.optional(entry, "coverage", self.coverage, where),
            patterns=self.optional(entry, "patterns", self.texts, where),
            rejected_defaults=self.rejected_defaults(
                entry.get("rejected_defaults", {}), f"{where}.rejected_defaults"
            ),
        )

    def defaults(self, value: Any, verdict: str, where: str) -> dict[str, DefaultValue]:
        """A verdict's defaults, keyed by the value after ``name=`` (``""``: ``name=``).

        No key names a bare ``name``: the normalizer keeps it, in files old and new.
        """
        entries = self.mapping(value, where)
        if entries and verdict == "neutral":
            raise self.fail(where, "a neutral parameter is dropped whatever its value")
        parsed = {}
        for key, entry in entries.items():
            at = f"{where}[{key!r}]"
            if "&" in key or "#" in key or normalize_escapes(key, QUERY) != key:
                raise self.fail(
                    at,
                    "a default value is written as normalised URLs carry it "
                    f"({normalize_escapes(key.replace('&', '%26').replace('#', '%23'), QUERY)!r})",
                )
            fields = self.mapping(entry, at)
            tested, changed, failed = (self.count(fields.get(n, 0), f"{at}.{n}") for n in _COUNTS)
            if changed:
                raise self.fail(f"{at}.changed", f"a default never changed the page, got {changed}")
            if tested == 0 or failed:
                raise self.fail(
                    at,
                    "a default is learned on tested samples none of which failed "
                    f"(tested {tested}, failed {failed})",
                )
            extra = {k: v for k, v in fields.items() if k not in (*_COUNTS, *_DEFAULT_EVIDENCE)}
            parsed[key] = DefaultValue(
                tested,
                changed,
                failed,
                extra,
                samples=self.optional(fields, "samples", self.samples, at),
                coverage=self.optional(fields, "coverage", self.coverage, at),
                patterns=self.optional(fields, "patterns", self.texts, at),
            )
        return parsed
