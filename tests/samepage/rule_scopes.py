"""The scope each built-in block entry's sources give it, derived from the anchor lists.

A platform group's ``block`` entry applies on every host of the group unless it carries its
own ``hosts`` (host keys inside the group) and ``paths`` (regular expressions matched from the
start of the path). Where its ``source`` cites an anchor list, the list's scopes that strip the
name (``data/anchor-lists/snapshot.json``) say where it may apply: an AdGuard ``||host^`` or
``||host/path`` rule, a ClearURLs provider's ``urlPattern``, a Brave ``include`` pattern, a
Firefox ``topLevelSites`` list. :func:`source_places` is that union; :func:`wider` names what
an entry's own scope covers beyond it.

An entry whose source also gives a reason of its own for the whole platform (a written reason
that is neither a list's citation nor a link or example URL) keeps the group's scope: the
source then speaks for every host of the group. So does an entry citing only lists that the
snapshot does not hold (Zyte's rules, uBlock Origin's filters), which name whole hosts.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from functools import cache
from typing import Any
from urllib.parse import unquote

from tests.samepage import anchor_accounting as accounting

# The anchor lists a source cites, by the words that start the citation.
CITATIONS = {
    "AdGuard URL Tracking filter specific.txt": ("adguard-specific",),
    "AdGuard URL Tracking filter general_url.txt": ("adguard-general",),
    "ClearURLs data.min.json": ("clearurls",),
    "Brave clean-urls.json": ("brave-clean-urls",),
    "Brave query filter": ("brave-query-filter",),
    "Firefox strip-on-share list": ("firefox-strip-on-share",),
    "Firefox query-stripping list": ("firefox-query-stripping",),
}
# Lists a source may cite that the snapshot does not hold: their citations name whole hosts.
_UNSTORED = ("Zyte duplicate-url-discarder-rules", "uBlock Origin privacy filters")


@dataclass(frozen=True, slots=True, order=True)
class Place:
    """A host (and its subdomains) and, optionally, a path regex matched from the path start."""

    host: str
    path: str = ""  # "": every path


# --- the places of a list's scope -----------------------------------------------------------


def _glob_path(tail: str) -> str:
    """A Brave or AdGuard path glob as a regex from the path's start ("" for every path).

    ``*`` is any run of characters and ``^`` a separator; a ``?`` after the path (a query
    follows) ends the path there, and the rest (a condition on the query) is not kept.
    """
    path, query, _ = tail.partition("?")
    path = path.split("&")[0]  # "/*&srcc=": a condition on the query
    if path == "/" and query:
        return "/?$"  # "||host/?utm_source=": the home page
    if path.strip("*") in ("", "/"):
        return ""
    out = ""
    for char in path:
        if char == "*":
            out += ".*"
        elif char == "^":
            out += "(?:/|$)"
        else:
            out += re.escape(char)
    if out.endswith(".*"):
        out = out.removesuffix(".*")
    elif query:
        out += "$"
    return _slash_optional(out)


def _slash_optional(path: str) -> str:
    """``path`` with a final ``/`` optional: samepage's keys drop a path's trailing slash."""
    if path in ("/", "/$", "/.*"):
        return "" if path != "/$" else "/?$"
    if path.endswith("/$"):
        return path[:-2] + "/?$"
    if path.endswith("/"):
        return path[:-1] + "(?:/|$)"
    return path


def _clearurls_path(pattern: str) -> str:
    """The path part of a ClearURLs ``urlPattern`` as a regex from the path's start."""
    body = pattern.removeprefix("^")
    body = re.sub(r"^(?:https\?|wss\?):(?:\\/|/){2}", "", body)
    cut = re.search(r"\\/|(?<!\\)/", body)
    if cut is None:
        return ""
    tail = body[cut.start() :].replace("\\/", "/")
    query = re.search(r"\\\?", tail)
    if query is not None:
        tail = tail[: query.start()] + "$"
    condition = re.search(r"(?:\.\*\??)?(?:&\?)?[a-z_]+\??=", tail)
    if condition is not None:  # "/login.*?&?referrer=": a condition on the query
        tail = tail[: condition.start()]
    return _slash_optional(tail)


@cache
def _group_keys() -> tuple[str, ...]:
    """The host keys of the built-in platform groups."""
    return tuple(accounting._NORM.rules.domains)


@cache
def _keys_extending(host: str) -> tuple[str, ...]:
    """The group host keys that start with ``host`` and a dot (``mercadolibre.com.ar``)."""
    keys = sorted(_group_keys())
    start = bisect.bisect_left(keys, host + ".")
    end = bisect.bisect_left(keys, host + "/")  # "/" is the character after "."
    return tuple(keys[start:end])


def _in_group(host: str, group_hosts: Iterable[str]) -> bool:
    return any(host == key or host.endswith("." + key) for key in group_hosts)


def scope_places(scope: dict[str, Any]) -> tuple[Place, ...] | None:
    """The places a snapshot scope strips its names on; ``(Place(""),)`` for every host.

    None where no host can be derived (the scope applies to no host samepage can name).
    """
    list_id = scope["list"]
    if scope["scope"] == "global" or scope["match"] in (".*", "*"):
        return (Place(""),)
    if list_id == "clearurls":
        where = accounting.clearurls_where(scope["match"])
        path = _clearurls_path(scope["match"])
        hosts = list(where.hosts)
        if not path and not scope["match"].endswith("$"):
            # Nothing after the domain: "mercadolibre\.com" also matches the start of
            # mercadolibre.com.ar, so the platform's hosts that extend it are covered.
            hosts += [k for h in where.hosts for k in _keys_extending(h)]
        return tuple(Place(h, path) for h in dict.fromkeys(hosts)) or None
    if list_id.startswith("adguard"):
        return _adguard_places(scope["match"])
    if list_id == "firefox-strip-on-share":
        return tuple(Place(h) for h in scope["match"].split())
    places = []
    for pattern in scope["match"].split():
        rest = re.sub(r"^[^:]*://", "", pattern)
        host, _, tail = rest.partition("/")
        host = host.removeprefix("*.")
        if "*" not in host:
            places.append(Place(host, _glob_path("/" + tail)))
    return tuple(places) or None


def _adguard_places(match: str) -> tuple[Place, ...] | None:
    where = accounting.adguard_where(match)
    if where is None:
        return None
    if not where.hosts:
        return (Place(""),)
    target = next((p for p in match.split(" ") if not p.startswith(("domain=", "$"))), "")
    rest = target
    for lead in ("||", "://", "|"):
        rest = rest.removeprefix(lead)
    head = re.match(r"[a-z0-9.*-]+", rest)
    tail = rest[head.end() :] if head and not rest.startswith(("/", ".")) else rest
    if rest.startswith(".") and "/" in rest:
        tail = rest[rest.find("/") :]
    tail = tail.lstrip("^")
    path = _glob_path(tail) if tail.startswith(("/", "?")) or "*" in tail else ""
    return tuple(Place(h, path) for h in where.hosts)


# --- which scopes strip a name --------------------------------------------------------------


def _literal_head(pattern: str) -> str:
    """The literal characters a regular expression's matches all start with."""
    head = ""
    for char in pattern:
        if char.isalnum() or char in "_-.%":
            head += char
        else:
            break
    if head and len(head) < len(pattern) and pattern[len(head)] in "?*{":
        head = head[:-1]
    return head.lower()


@cache
def _matches(list_id: str, entry: str, name: str, prefix: bool) -> bool:
    """Whether the list ``entry`` strips ``name`` (every name starting with it, for ``prefix``)."""
    if list_id.startswith("adguard") and entry.startswith("/") and entry.endswith("/"):
        body = entry[1:-1]
        if prefix:
            return _literal_head(body.removeprefix("^")).startswith(name)
        found = _regex(body)  # matched against the whole "name=value" pair
        return found is not None and found.search(name + "=x") is not None
    if list_id == "clearurls":
        if prefix:
            return _literal_head(entry).startswith(name)
        found = _regex(entry)
        return found is not None and found.fullmatch(name) is not None
    if prefix:
        return unquote(entry).lower().startswith(unquote(name))
    return unquote(entry).lower() == unquote(name)


@cache
def _regex(pattern: str) -> re.Pattern[str] | None:
    """A list's regular expression, compiled once (``None``: Python cannot read it)."""
    try:
        return re.compile(pattern, re.I)
    except re.error:
        return None


@dataclass(frozen=True)
class _StoredScope:
    """A stored scope of one list, its places, and its entries ready to match a name."""

    scope: dict[str, Any]
    places: tuple[Place, ...] | None
    plain: frozenset[str]
    """Its entries that name one parameter, as :func:`_matches` compares them."""
    patterns: tuple[str, ...]
    """Its other entries (regular expressions)."""

    def strips(self, list_id: str, name: str, prefix: bool) -> bool:
        if prefix:
            return any(_matches(list_id, e, name, prefix) for e in self.scope["entries"])
        if unquote(name) in self.plain:
            return True
        return any(_matches(list_id, e, name, prefix) for e in self.patterns)


def _is_pattern(list_id: str, entry: str) -> bool:
    if list_id == "clearurls":
        return True
    return list_id.startswith("adguard") and entry.startswith("/") and entry.endswith("/")


@cache
def _scopes_of(list_id: str) -> tuple[_StoredScope, ...]:
    found = []
    for scope in accounting.snapshot()["scopes"]:
        if scope["list"] != list_id or scope["field"] == "redirections":
            continue
        entries = scope["entries"]
        plain = frozenset(unquote(e).lower() for e in entries if not _is_pattern(list_id, e))
        patterns = tuple(e for e in entries if _is_pattern(list_id, e))
        found.append(_StoredScope(scope, scope_places(scope), plain, patterns))
    return tuple(found)


def cited_lists(source: str) -> tuple[set[str], bool]:
    """The stored lists ``source`` cites, and whether it gives a platform-wide reason too."""
    lists: set[str] = set()
    own = False
    for part in source.split("; "):
        part = part.strip()
        found = [ids for head, ids in CITATIONS.items() if part.startswith(head)]
        if found:
            lists.update(found[0])
        elif part.startswith(_UNSTORED) or not re.match(r"https?://", part):
            own = True
    return lists, own


def source_places(entry: dict[str, Any], group_hosts: tuple[str, ...]) -> tuple[Place, ...] | None:
    """Where the lists ``entry``'s source cites strip its name on this platform.

    None: the source gives the whole group (it cites no stored list, or gives a reason of its
    own). ``(Place(""),)`` or a group host with no path: the list strips it more widely.
    """
    lists, own = cited_lists(entry["source"])
    if not lists or own:
        return None
    prefix = "prefix" in entry
    name = (entry["prefix"] if prefix else entry["name"]).lower()
    places = _places(lists, name, prefix, group_hosts)
    if not places:  # the citation names another stored list than the one that strips it
        places = _places(set(accounting.snapshot()["lists"]), name, prefix, group_hosts)
    return places


def _places(
    lists: Iterable[str], name: str, prefix: bool, group_hosts: tuple[str, ...]
) -> tuple[Place, ...]:
    return tuple(
        sorted(
            {p for _, found in _scopes_stripping(lists, name, prefix, group_hosts) for p in found}
        )
    )


def _scopes_stripping(
    lists: Iterable[str], name: str, prefix: bool, group_hosts: tuple[str, ...]
) -> Iterator[tuple[dict[str, Any], set[Place]]]:
    """Each stored scope of ``lists`` that strips ``name``, with its places on the group."""
    for list_id in lists:
        for stored in _scopes_of(list_id):
            scope, scope_place = stored.scope, stored.places
            if scope_place is None or not stored.strips(list_id, name, prefix):
                continue
            places: set[Place] = set()
            for place in scope_place:
                if place.host == "" or _in_group(place.host, group_hosts):
                    places.add(place)
                    continue
                # A list scope wider than the group's keys (a parent domain): the keys.
                for key in group_hosts:
                    if _in_group(key, (place.host,)):
                        places.add(Place(key, place.path))
            if places:
                yield scope, places


def citation(scope: dict[str, Any]) -> str:
    """How a source cites a stored scope (``ClearURLs data.min.json, provider amazon``)."""
    head = next(h for h, ids in CITATIONS.items() if scope["list"] in ids)
    if scope["list"] == "clearurls":
        return f"{head}, provider {scope['scope']}"
    return f"{head}, {scope['scope']}"


def uncited(entry: dict[str, Any], group_hosts: tuple[str, ...]) -> list[str]:
    """Citations of the stored scopes that strip ``entry``'s name where its source does not.

    The lists its source does not cite may strip the name on more of the group's hosts
    and paths than the cited ones: those places are the list's evidence too.
    """
    lists, _ = cited_lists(entry["source"])
    prefix = "prefix" in entry
    name = (entry["prefix"] if prefix else entry["name"]).lower()
    cited = _places(lists, name, prefix, group_hosts)
    others = set(accounting.snapshot()["lists"]) - lists
    out = []
    for scope, places in _scopes_stripping(sorted(others), name, prefix, group_hosts):
        if any(not any(covers(c, p) for c in cited) for p in places):
            text = citation(scope)
            if text not in out:
                out.append(text)
    return out


def entry_places(entry: dict[str, Any], group_hosts: tuple[str, ...]) -> tuple[Place, ...]:
    """Where an entry of a group's block list applies, from its ``hosts`` and ``paths``."""
    hosts = entry.get("hosts", list(group_hosts))
    paths = entry.get("paths", [""])
    return tuple(Place(h, p) for h in hosts for p in paths)


def covers(outer: Place, inner: Place) -> bool:
    """Whether ``outer`` applies on every URL ``inner`` applies on (paths compared as text)."""
    if outer.host and not _in_group(inner.host, (outer.host,)):
        return False
    return outer.path == "" or outer.path == inner.path


def wider(entry: dict[str, Any], group_hosts: tuple[str, ...]) -> list[Place]:
    """The places ``entry`` applies on that its cited lists do not strip it on."""
    allowed = source_places(entry, group_hosts)
    if allowed is None:
        return []
    return [p for p in entry_places(entry, group_hosts) if not any(covers(a, p) for a in allowed)]


def block_entries(data: dict[str, Any]) -> Iterator[tuple[tuple[str, ...], dict[str, Any]]]:
    """Each platform group's hosts with each entry of its block list."""
    for group in data["domains"]:
        hosts = tuple(group["hosts"])
        for entry in group.get("block", []):
            yield hosts, entry


def narrowest(places: Iterable[Place], group_hosts: tuple[str, ...]) -> list[dict[str, Any]]:
    """``places`` written as entry scopes: ``hosts`` and ``paths`` each, omitted when whole.

    Places another one covers are left out; the places of one path set share an entry.
    """
    found = sorted(set(places))
    kept = [p for p in found if not any(q != p and covers(q, p) for q in found)]
    if any(p.host == "" and p.path == "" for p in kept):
        return [{}]
    by_host: dict[str, set[str]] = {}
    for place in kept:
        if place.host == "":
            for key in group_hosts:
                by_host.setdefault(key, set()).add(place.path)
        else:
            by_host.setdefault(place.host, set()).add(place.path)
    by_paths: dict[tuple[str, ...], list[str]] = {}
    for host, host_paths in sorted(by_host.items()):
        by_paths.setdefault(tuple(sorted(host_paths)), []).append(host)
    out: list[dict[str, Any]] = []
    for paths, hosts in by_paths.items():
        scope: dict[str, Any] = {}
        if sorted(hosts) != sorted(group_hosts):
            scope["hosts"] = hosts
        if paths != ("",):
            scope["paths"] = list(paths)
        out.append(scope)
    return out
