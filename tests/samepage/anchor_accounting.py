"""The accounting of the anchor lists: each name or pattern they strip, and what samepage does.

``data/anchor-lists/snapshot.json`` holds the lists' names and patterns per scope (written by
``scripts/anchor_lists.py``); ``data/anchor-lists/accounting.json`` holds samepage's side:
the written reason of every entry samepage does not cover, and an example URL for every
redirector it unwraps. An entry is *covered* when the shipped rules drop it where the list
does: on every site (``global``), for tracking-like values (``value-conditioned``) or on the
hosts of the list's scope (``host``). docs/rules.md shows the totals; docs/anchor-lists.md
explains how a scope's hosts are derived.
"""

from __future__ import annotations

import json
import re
import warnings
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, quote, unquote, urlsplit

from samepage import MIQPSNormalizer

with warnings.catch_warnings():  # the regex parser is the one re uses; no public name has it
    warnings.simplefilter("ignore", DeprecationWarning)
    import sre_constants
    import sre_parse

ROOT = Path(__file__).parents[2]
SNAPSHOT = ROOT / "data" / "anchor-lists" / "snapshot.json"
ACCOUNTING = ROOT / "data" / "anchor-lists" / "accounting.json"
ZYTE_DOC = ROOT / "docs" / "zyte-rules.md"

# The written reasons an entry may be kept for (accounting.json "reason").
REASONS = {
    "content": "content on a named site",
    "generic": "too generic to strip there",
    "selects": "the platform's own URLs show it selects what the page shows",
    "scope": "the list's scope is narrower than a host (a path or a query condition)",
    "not-a-name": "not a parameter name (every parameter, a path or fragment rule)",
    "not-a-page": "an endpoint that serves no page (a beacon, an API, a download, a player frame)",
    "redirector": "a redirector samepage does not unwrap",
    "test": "a test entry of the list itself, on no real site",
    "exception": "an exception of the list that samepage does not apply",
}
COVERED = ("global", "value-conditioned", "host", "redirect", "honoured")
_NORM = MIQPSNormalizer()
_NEUTRAL_HOST = "www.anchor-check.example"
# Values that carry no content: a channel word and an opaque token.
_VALUES = ("twitter", "A1b2C3d4e5F6")


@dataclass(frozen=True, slots=True)
class Where:
    """The URLs a scope applies to, as samepage can test them."""

    hosts: tuple[str, ...]  # empty: every host
    path: str = "/p/x"
    note: str = ""  # how the hosts were derived, or why they could not be
    value: str = ""  # the one value the list strips the name for, on any host


@dataclass(frozen=True, slots=True)
class Item:
    """One name or pattern of one list's scope, and what samepage does with it."""

    list: str
    scope: str
    field: str
    entry: str
    status: str  # one of COVERED, or a key of REASONS, or "" (unaccounted)
    why: str = ""


@cache
def snapshot() -> dict[str, Any]:
    """The stored lists."""
    data: dict[str, Any] = json.loads(SNAPSHOT.read_text(encoding="utf-8"))
    return data


@cache
def accounting() -> dict[str, Any]:
    """samepage's side of the accounting: reasons and redirect examples."""
    data: dict[str, Any] = json.loads(ACCOUNTING.read_text(encoding="utf-8"))
    return data


# --- names a list entry stands for ---------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Names:
    """What an entry matches: exact names, or names that start with one of ``prefixes``."""

    names: tuple[str, ...] = ()
    prefixes: tuple[str, ...] = ()

    def probes(self) -> list[str]:
        """Names to test: each exact name, and two names of each prefix."""
        return [*self.names, *(p + tail for p in self.prefixes for tail in ("x", "abc"))]


def _expand(parsed: Any) -> list[str] | None:
    """Every string a parsed regex matches, or None when that is not a small finite set."""
    out = [""]
    for op, arg in parsed:
        if op is sre_constants.LITERAL:
            options = [chr(arg)]
        elif op is sre_constants.IN:
            options = []
            for kind, value in arg:
                if kind is sre_constants.LITERAL:
                    options.append(chr(value))
                elif kind is sre_constants.RANGE and value[1] - value[0] < 3:
                    options.extend(chr(c) for c in range(value[0], value[1] + 1))
                else:
                    return None
        elif op is sre_constants.SUBPATTERN:
            options = _expand(arg[3])  # type: ignore[assignment]
        elif op is sre_constants.BRANCH:
            options = []
            for branch in arg[1]:
                got = _expand(branch)
                if got is None:
                    return None
                options.extend(got)
        elif op is sre_constants.MAX_REPEAT or op is sre_constants.MIN_REPEAT:
            low, high, inner = arg
            body = _expand(inner)
            if body is None or high > 2:
                return None
            options = [""] if low == 0 else []
            options += body + ([a + b for a in body for b in body] if high == 2 else [])
        else:
            return None
        if options is None:
            return None
        out = [a + b for a in out for b in options]
        if len(out) > 64:
            return None
    return out


def entry_names(list_id: str, entry: str) -> Names | None:
    """The names of a list entry; None for a pattern that is neither a name set nor a prefix.

    ClearURLs entries are regular expressions matched against the whole name; AdGuard
    writes a regular expression between slashes; the others are plain names.

    >>> entry_names("clearurls", "p[fd]_rd_[a-z]*")
    Names(names=(), prefixes=('pf_rd_', 'pd_rd_'))
    >>> entry_names("clearurls", "colii?d")
    Names(names=('colid', 'coliid'), prefixes=())
    >>> entry_names("clearurls", "cv_ct_[a-z]+") is None
    False
    """
    if list_id == "adguard-general" or list_id.startswith("adguard"):
        if entry.startswith("/") and entry.endswith("/"):
            body = entry[1:-1]
            if body.startswith("^") and re.fullmatch(r"\^[a-z0-9_]+", body):
                return Names(prefixes=(body[1:].lower(),))
            return None
        return Names(names=(entry.lower(),))
    if list_id != "clearurls":
        return Names(names=(entry.lower(),))
    try:
        parsed = sre_parse.parse(entry)
    except re.error:
        return None
    items = list(parsed.data)
    found = _expand(items)
    if found is not None:
        return Names(names=tuple(dict.fromkeys(n.lower() for n in found)))
    # A fixed head, then a repeated class: prefixes (each at least three characters, as
    # for samepage's own prefixes).
    if items and items[-1][0] is sre_constants.MAX_REPEAT:
        head = _expand(items[:-1])
        if head and all(len(h) >= 3 for h in head):
            return Names(prefixes=tuple(dict.fromkeys(h.lower() for h in head)))
    return None


# --- where a scope applies ------------------------------------------------------------------

# A ClearURLs host pattern with any top-level domain: samepage tests the platform's own
# group hosts (its country domains), and ".com" where it has none.
_ANY_TLD = "(?:\\.[a-z]{2,}){1,}"


def _platform_hosts(name: str) -> tuple[str, ...]:
    """The host keys of samepage's group whose keys start with ``name.``, else ``name.com``."""
    hosts = sorted(
        host
        for host, group in _NORM.rules.domains.items()
        if host.startswith(name + ".") and group is not None
    )
    return tuple(hosts) or (f"{name}.com",)


def clearurls_where(pattern: str) -> Where:
    """The hosts (and path) of a ClearURLs ``urlPattern``.

    The pattern is read as scheme, an optional any-subdomain group, a domain written as a
    regular expression, and an optional path. The domain's alternatives are expanded
    (``(youtube\\.com|youtu\\.be)``); a wildcard top-level domain stands for the platform's
    domains in samepage's rules (or ``.com``). A pattern of another shape has no hosts.
    """
    body = pattern.removeprefix("^")
    body = re.sub(r"^(?:https\?|wss\?):(?:\\/|/){2}", "", body)
    for lead in ("(?:[a-z0-9-]+\\.)*?", "([a-z0-9-.]*\\.)", ".*?"):
        body = body.removeprefix(lead)
    path = ""
    cut = re.search(r"\\/|/", body)
    if cut:
        body, path = body[: cut.start()], body[cut.start() :]
    wildcard = _ANY_TLD in body
    body = body.replace(_ANY_TLD, "\\.ANYTLD")
    body = re.sub(r"(?<!\\)\.", r"\\.", body)  # unescaped dots are dots
    try:
        found = _expand(list(sre_parse.parse(body).data))
    except re.error:
        found = None
    if not found:
        return Where((), note=f"no host can be derived from {pattern!r}")
    hosts: list[str] = []
    for domain in found:
        if domain.endswith(".ANYTLD"):
            hosts.extend(_platform_hosts(domain.removesuffix(".ANYTLD")))
        else:
            hosts.append(domain)
    note = "any top-level domain: the platform's domains in samepage's rules" if wildcard else ""
    test_path = "/p/x"
    if path:
        plain = re.sub(r"\\(.)", r"\1", path).split("?")[0].rstrip("?")
        test_path = plain if re.fullmatch(r"[/a-z0-9_.-]+", plain) else "/p/x"
        note = (note + "; " if note else "") + f"path {plain}"
    return Where(tuple(dict.fromkeys(hosts)), test_path, note)


def glob_where(patterns: list[str]) -> Where:
    """The hosts and path of Brave's ``*://*.host/path*`` or Firefox's bare host patterns."""
    hosts: list[str] = []
    path = "/p/x"
    for pattern in patterns:
        rest = re.sub(r"^[^:]*://", "", pattern)
        host, _, tail = rest.partition("/")
        host = host.removeprefix("*.")
        if "*" in host:
            continue
        hosts.append(host.removeprefix("www."))
        tail = tail.split("?")[0].replace("*", "x")
        if tail and tail != "x":
            path = "/" + tail
    return Where(tuple(dict.fromkeys(hosts)), path)


def _wild_hosts(name: str) -> tuple[str, ...]:
    """The hosts of ``name`` on any top-level domain (``google``, ``market.yandex``)."""
    head, _, base = name.rpartition(".")
    return tuple(f"{head}.{h}" if head else h for h in _platform_hosts(base))


def _adguard_hosts(names: list[str]) -> tuple[str, ...]:
    hosts: list[str] = []
    for name in names:
        if name.endswith((".*", ".")):
            hosts.extend(_wild_hosts(name.rstrip("*").rstrip(".")))
        else:
            hosts.append(name)
    return tuple(dict.fromkeys(hosts))


# A rule that strips a name only for one value, on any site: "?ref=upstract.com^".
_ADGUARD_VALUE = re.compile(r"\??([A-Za-z_]+)=([^*&?^/]+)\^?")


def adguard_where(match: str) -> Where | None:
    """The hosts and path of an AdGuard rule's target; None where samepage cannot test them.

    ``||host^``, ``://host`` and a bare ``host^`` name the host and its subdomains, and
    ``domain=`` the pages' hosts; a host ending in ``.*`` or ``.`` stands for the platform's
    domains, as a ClearURLs wildcard does. A path is tested as written (``*`` as one
    segment); a condition on the query (``?t=``, ``&linkId=``) is noted, not tested. A value
    condition (``?ref=upstract.com``) is tested with that value. A rule limited to scripts,
    images or XHR (``$script``) and one that needs another parameter on any site
    (``rtkcid=*&clickid=``) have no place samepage can test.
    """
    parts = match.split(" ")
    if any(part.startswith("$") for part in parts):
        return None  # only requests for scripts, images, fonts or XHR: never a page's URL
    domains = [part[7:] for part in parts if part.startswith("domain=")]
    target = next((part for part in parts if not part.startswith("domain=")), "")
    if domains and domains[0].startswith("~"):
        return Where(())
    domain_hosts = _adguard_hosts(domains[0].split("|")) if domains else ()
    if not target:
        return Where(domain_hosts)
    found = _ADGUARD_VALUE.fullmatch(target)
    if found and not domain_hosts:
        return Where((), value=found[2], note=f"only {found[1]}={found[2]}")
    rest = target
    anchored = rest.startswith(("||", "://", "|"))
    for lead in ("||", "://", "|"):
        rest = rest.removeprefix(lead)
    host = ""
    if rest.startswith("."):
        rest = rest[rest.find("/") :] if "/" in rest else ""  # ".com/*/status/": a path
    elif not rest.startswith("/"):
        head = re.match(r"[a-z0-9.*-]+", rest)
        after = rest[head.end() : head.end() + 1] if head else "="
        if head is None or not (anchored or ("." in head.group() and after in "^/$")):
            return None  # a query shape on any site ("rtkcid=*&clickid=")
        host = head.group()
        rest = rest[len(host) :]
        if host.startswith("www.") and host.endswith("."):
            host = host[4:]  # www.ebay. stands for the platform's own hosts
    tail = rest.lstrip("^")
    path = re.split(r"[?&]", tail, maxsplit=1)[0]
    condition = re.search(r"[?&].", tail)
    path = path.replace("^", "").replace("*", "x")
    note = f"path {path}" if path else ""
    if condition:
        note = (note + "; " if note else "") + "a query condition, not tested"
    hosts = _adguard_hosts([host]) if host else domain_hosts
    if not hosts and (condition or not path.startswith("/")):
        return None  # a query shape on any site: samepage's rules are per name and host
    return Where(hosts, path if path.startswith("/") else "/p/x", note)


def where(scope: dict[str, Any]) -> Where | None:
    """The URLs a snapshot scope applies to; None when samepage cannot express them."""
    if scope["scope"] == "global":
        return Where(())
    list_id = scope["list"]
    if list_id == "clearurls":
        if scope["match"] == ".*":
            return Where(())
        found = clearurls_where(scope["match"])
        return found if found.hosts else None
    if list_id.startswith("adguard"):
        return adguard_where(scope["match"])
    return glob_where(scope["match"].split())


# --- the check ------------------------------------------------------------------------------


def _query_name(name: str) -> str:
    return quote(name, safe="[]%$:.-_~!*'()")


def dropped(name: str, host: str, path: str = "/p/x") -> bool:
    """Whether the shipped rules drop ``name`` on ``host`` whatever its value."""
    for value in _VALUES:
        key = _NORM.normalize(f"https://{host}{path}?{_query_name(name)}={value}&zz=1")
        left = {k.lower() for k, _ in parse_qsl(urlsplit(key).query, keep_blank_values=True)}
        if "zz" not in left or unquote(name).lower() in left:
            return False
    return True


def value_conditioned(name: str) -> bool:
    """Whether ``name`` is in the value-conditioned layer (ambiguous or session rules)."""
    rules = _NORM.rules
    lower = name.lower()
    return lower in rules.ambiguous or any(lower.startswith(p) for p, _ in rules.ambiguous_prefixes)


def dropped_value(name: str, value: str, host: str = _NEUTRAL_HOST) -> bool:
    """Whether the shipped rules drop ``name=value`` on ``host``."""
    key = _NORM.normalize(f"https://{host}/p/x?{_query_name(name)}={quote(value)}&zz=1")
    left = {k.lower() for k, _ in parse_qsl(urlsplit(key).query, keep_blank_values=True)}
    return "zz" in left and unquote(name).lower() not in left


def scope_hosts(scope: dict[str, Any], place: Where) -> list[str]:
    """The hosts to test a scope on: the hosts its list names (rule_scopes' places).

    A list that names ``www.example.co.uk`` strips nothing on ``example.co.uk``, and the
    built-in rules keep each entry at its list's scope; a bare two-label host is tested
    with ``www.``, as samepage's keys cover subdomains.
    """
    from tests.samepage import rule_scopes  # it reads the lists through this module

    places = rule_scopes.scope_places(scope) or ()
    named = [p.host for p in places if p.host]
    hosts = named if named and len(named) == len(places) else list(place.hosts)
    return list(dict.fromkeys(f"www.{h}" if h.count(".") == 1 else h for h in hosts))


def _covered(probes: list[str], place: Where, scope: dict[str, Any], *, global_scope: bool) -> str:
    if place.value:
        return "value-conditioned" if all(dropped_value(n, place.value) for n in probes) else ""
    if all(dropped(n, _NEUTRAL_HOST) for n in probes):
        return "global"
    if not global_scope and place.hosts:
        hosts = scope_hosts(scope, place)
        if all(dropped(n, h, place.path) for n in probes for h in hosts):
            return "host"
    if all(value_conditioned(n) for n in probes):
        return "value-conditioned"
    return ""


def _kept() -> dict[tuple[str, str, str], tuple[str, str]]:
    out: dict[tuple[str, str, str], tuple[str, str]] = {}
    for record in accounting()["kept"]:
        for entry in record["entries"]:
            out[(record["list"], record["scope"], entry)] = (record["reason"], record["why"])
    return out


def _redirect_examples() -> dict[tuple[str, str], str]:
    return {(r["scope"], r["entry"]): r["example"] for r in accounting()["redirects"]}


def _pattern_probes() -> dict[tuple[str, str, str], list[str]]:
    """Names that stand for a pattern samepage covers by other names or prefixes."""
    return {(r["list"], r["scope"], r["entry"]): r["probes"] for r in accounting()["patterns"]}


def _exception_examples() -> dict[tuple[str, str, str], tuple[str, list[str]]]:
    return {
        (r["list"], r["scope"], r["entry"]): (r["example"], r["keeps"])
        for r in accounting()["exceptions"]
    }


def honoured(example: str, keeps: list[str]) -> bool:
    """Whether the normalizer keeps every name of ``keeps`` on the excepted URL ``example``."""
    key = _NORM.normalize(example)
    left = {k.lower() for k, _ in parse_qsl(urlsplit(key).query, keep_blank_values=True)}
    return all(name.lower() in left for name in keeps)


def unwrapped(example: str) -> bool:
    """Whether the normalizer replaces the wrapper ``example`` by its target."""
    return _NORM.normalize(example).startswith("https://example.org/")


def items() -> Iterator[Item]:
    """Every entry of every stored list, with samepage's status."""
    kept = _kept()
    examples = _redirect_examples()
    patterns = _pattern_probes()
    excepted = _exception_examples()
    seen: set[tuple[str, str, str]] = set()
    for scope in snapshot()["scopes"]:
        # A list's exceptions: the URLs where its names of that scope are not stripped.
        for entry in scope.get("exceptions", []):
            key = (scope["list"], scope["scope"], entry)
            if key in seen:
                continue  # a ClearURLs provider repeats them for each of its fields
            seen.add(key)
            status, why = "", ""
            found = excepted.get(key)
            if found is not None and honoured(*found):
                status, why = "honoured", found[0]
            elif (hit := kept.get(key)) is not None:
                status, why = hit
            yield Item(scope["list"], scope["scope"], "exceptions", entry, status, why)
        place = where(scope)
        for entry in scope["entries"]:
            status, why = "", ""
            global_scope = scope["scope"] == "global" or (place is not None and not place.hosts)
            if scope["field"] == "redirections":
                example = examples.get((scope["scope"], entry))
                if example is not None and unwrapped(example):
                    status, why = "redirect", example
            elif scope["field"] != "rawRules" and place is not None:
                probes = patterns.get((scope["list"], scope["scope"], entry))
                if probes is None:
                    names = entry_names(scope["list"], entry)
                    probes = names.probes() if names is not None else []
                if probes:
                    status = _covered(probes, place, scope, global_scope=global_scope)
            if not status:
                reason = kept.get((scope["list"], scope["scope"], entry))
                if reason is not None:
                    status, why = reason
            yield Item(scope["list"], scope["scope"], scope["field"], entry, status, why)


# --- the tables of docs/rules.md -------------------------------------------------------------

_COLUMNS = [
    ("global", "global"),
    ("value-conditioned", "value-conditioned"),
    ("host", "on the platform's hosts"),
    ("redirect", "unwrapped"),
    ("content", "kept: content"),
    ("generic", "kept: too generic"),
    ("selects", "kept: selects content"),
    ("scope", "kept: narrower scope"),
    ("not-a-name", "kept: not a name"),
    ("not-a-page", "kept: not a page"),
    ("redirector", "kept: redirector"),
    ("test", "kept: the list's test"),
    ("honoured", "exceptions honoured"),
    ("exception", "exceptions not applied"),
]


def zyte_counts() -> Counter[str]:
    """Zyte's rules as docs/zyte-rules.md accounts them (covered, conditioned, left out)."""
    counts: Counter[str] = Counter()
    name = re.compile(r"`([^`]+)`")
    for line in ZYTE_DOC.read_text(encoding="utf-8").splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) != 6 or cells[0] not in ("article", "product", "utm"):
            continue
        covered, conditioned, content, undocumented = (len(name.findall(c)) for c in cells[2:])
        counts["host" if cells[1] != "(every host)" else "global"] += covered
        counts["value-conditioned"] += conditioned
        counts["content"] += content
        counts["generic"] += undocumented
    return counts


def table() -> str:
    """The per-list accounting table of docs/rules.md."""
    counts: dict[str, Counter[str]] = {}
    for item in items():
        counts.setdefault(item.list, Counter())[item.status or "unaccounted"] += 1
    counts["zyte"] = zyte_counts()
    titles = {k: v["title"] for k, v in snapshot()["lists"].items()}
    titles["zyte"] = "Zyte duplicate-url-discarder-rules (see zyte-rules.md)"
    head = "| list | entries | " + " | ".join(label for _, label in _COLUMNS) + " |"
    rows = [head, "|---|---:|" + "---:|" * len(_COLUMNS)]
    total: Counter[str] = Counter()
    for list_id, counter in counts.items():
        cells = [counter[key] for key, _ in _COLUMNS]
        total.update(counter)
        rows.append(
            f"| {titles[list_id]} | {sum(counter.values())} | " + " | ".join(map(str, cells)) + " |"
        )
    cells = [total[key] for key, _ in _COLUMNS]
    rows.append(f"| all | {sum(total.values())} | " + " | ".join(map(str, cells)) + " |")
    return "\n".join(rows)
