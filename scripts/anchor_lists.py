"""Write data/anchor-lists/snapshot.json: the names and patterns of the public strip lists.

The snapshot keeps only what the accounting in tests/samepage/test_anchor_lists.py needs:
each list's provenance (repository, path, commit, date, licence) and, per scope (the whole
web, a ClearURLs provider, a site), the parameter names or patterns it strips and the URLs
it applies to. No list file is copied whole.

Usage (each argument a local copy of the list, read at the commit named in SOURCES)::

    python scripts/anchor_lists.py --clearurls data.min.json \
        --brave-query-filter query-filter.json --brave-clean-urls clean-urls.json \
        --adguard-general general_url.txt --adguard-specific specific.txt \
        --adguard-allowlist allowlist.txt whitelist.txt \
        --firefox-query-stripping strip_list.txt --firefox-allow-list allow_list.txt \
        --firefox-strip-on-share StripOnShare.json StripOnShareLGPL.json

Each list's exceptions are kept with its scopes: ClearURLs' ``exceptions``, Brave's
``exclude``, AdGuard's ``@@`` rules and Firefox's ``privacy.query_stripping.allow_list`` (the
sites where it strips nothing).

A list left off the command line keeps its scopes from the snapshot already written, so one
list can be refreshed alone (``--adguard-specific specific.txt``).
"""

from __future__ import annotations

import argparse
import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

OUT = Path(__file__).parents[1] / "data" / "anchor-lists" / "snapshot.json"

SOURCES: dict[str, dict[str, str]] = {
    "clearurls": {
        "title": "ClearURLs rules",
        "repository": "https://github.com/ClearURLs/Rules",
        "path": "data.min.json",
        "commit": "cfda1a0c54e3de15ec51de5216ec11298a30e60d",
        "date": "2025-07-27",
        "license": "LGPL-3.0",
    },
    "brave-query-filter": {
        "title": "Brave query filter",
        "repository": "https://github.com/brave/adblock-lists",
        "path": "brave-lists/query-filter.json",
        "commit": "e538c55fdf0846ac4763639399bf7a95967fd764",
        "date": "2026-04-07",
        "license": "MPL-2.0",
    },
    "brave-clean-urls": {
        "title": "Brave clean-urls",
        "repository": "https://github.com/brave/adblock-lists",
        "path": "brave-lists/clean-urls.json",
        "commit": "97db06c90e7df8c372947399d5fe410a2688cdf6",
        "date": "2026-08-17",
        "license": "MPL-2.0",
    },
    "adguard-general": {
        "title": "AdGuard URL Tracking filter, general part",
        "repository": "https://github.com/AdguardTeam/AdguardFilters",
        "path": "TrackParamFilter/sections/general_url.txt",
        "commit": "002b06615b38c64b27fadafad6cf5323e752090f",
        "date": "not recorded by the stored copy (it cites AdguardFilters issue 158662)",
        "license": "GPL-3.0",
    },
    "adguard-specific": {
        "title": "AdGuard URL Tracking filter, site part",
        "repository": "https://github.com/AdguardTeam/AdguardFilters",
        "path": "TrackParamFilter/sections/specific.txt",
        "commit": "00096a40fb0586f1de6b450e3fc160ee2a94f8ce",
        "date": "not recorded by the stored copy (its newest cited issue is AdguardFilters 237405)",
        "license": "GPL-3.0",
    },
    "adguard-allowlist": {
        "title": "AdGuard URL Tracking filter, exceptions",
        "repository": "https://github.com/AdguardTeam/AdguardFilters",
        "path": "TrackParamFilter/sections/allowlist.txt (commit"
        " 002b06615b38c64b27fadafad6cf5323e752090f) and TrackParamFilter/sections/whitelist.txt"
        " (commit 0a6f44f248f647739c34cc9b9aefa16bd7460ed4)",
        "commit": "002b06615b38c64b27fadafad6cf5323e752090f",
        "date": "not recorded by the stored copies",
        "license": "GPL-3.0",
    },
    "firefox-query-stripping": {
        "title": "Firefox query-stripping list",
        "repository": "https://groups.google.com/a/mozilla.org/g/dev-platform/c/1vOSas0ptVQ",
        "path": "privacy.query_stripping.strip_list and privacy.query_stripping.allow_list"
        " (remote settings collection query-stripping)",
        "commit": "the list as Mozilla announced it, copied in user preference files",
        "date": "2022",
        "license": "MPL-2.0",
    },
    "firefox-strip-on-share": {
        "title": "Firefox strip-on-share lists",
        "repository": "https://github.com/mozilla-firefox/firefox",
        "path": "toolkit/components/antitracking/StripOnShareLists/LGPL/StripOnShareLGPL.json"
        " (commit ed1fd0e26ffebb8928232b4abbc15fe56fdf31b3) and"
        " toolkit/components/antitracking/data/StripOnShare.json"
        " (Floorp-Projects/Floorp commit 083bbb916b1c33258cb6218cca65b4f48e9217bc)",
        "commit": "ed1fd0e26ffebb8928232b4abbc15fe56fdf31b3",
        "date": "not recorded by the stored copy",
        "license": "LGPL-3.0 and MPL-2.0",
    },
}

# A ClearURLs rule may start with "(?:%3F)?": an escaped "?" before the name, not a name.
_CLEAR_PREFIX = "(?:%3F)?"


def _scope(
    list_id: str, scope: str, match: str, field: str, entries: list[str], **extra: Any
) -> dict[str, Any]:
    item: dict[str, Any] = {
        "list": list_id,
        "scope": scope,
        "match": match,
        "field": field,
        "entries": entries,
    }
    item.update({k: v for k, v in extra.items() if v})
    return item


def clearurls(path: Path) -> list[dict[str, Any]]:
    """Each provider's rules, referralMarketing, rawRules and redirections, with exceptions."""
    providers = json.loads(path.read_text(encoding="utf-8"))["providers"]
    out = []
    for name, provider in providers.items():
        exceptions = provider.get("exceptions", [])
        for field in ("rules", "referralMarketing", "rawRules", "redirections"):
            entries = [e.removeprefix(_CLEAR_PREFIX) for e in provider.get(field, [])]
            if entries:
                out.append(
                    _scope(
                        "clearurls",
                        name,
                        provider["urlPattern"],
                        field,
                        entries,
                        exceptions=exceptions,
                    )
                )
    return out


def brave(path: Path, list_id: str) -> list[dict[str, Any]]:
    """Each entry's params, with its include and exclude URL patterns."""
    out = []
    for index, entry in enumerate(json.loads(path.read_text(encoding="utf-8"))):
        include = entry.get("include", [])
        is_global = include == ["*://*/*"]
        scope = "global" if is_global else _brave_scope(include, index)
        out.append(
            _scope(
                list_id,
                scope,
                " ".join(include),
                "params",
                entry["params"],
                exceptions=entry.get("exclude", []),
            )
        )
    return out


def _brave_scope(include: list[str], index: int) -> str:
    host = re.sub(r"^[^:]*://(\*\.)?", "", include[0]).split("/")[0]
    return f"{host} (entry {index})"


# One AdGuard rule: an optional "||host/path" or query condition, then its options.
_ADGUARD = re.compile(r"^(?P<target>[^$]*)\$(?P<options>.*)$")
# Request types other than a page: a rule limited to them never touches a page's URL.
_RESOURCE_TYPES = frozenset(
    {"xmlhttprequest", "script", "image", "font", "stylesheet", "media", "subdocument"}
)


def _adguard_rule(line: str) -> tuple[str, str] | None:
    """The scope (target, domain and request types) and the removeparam value of one rule."""
    found = _ADGUARD.match(line)
    if found is None:
        return None
    target = found["target"]
    value: str | None = None
    domains = ""
    types: list[str] = []
    for option in re.split(r",(?![^/]*/)", found["options"]):
        key, _, arg = option.partition("=")
        if key == "removeparam":
            value = arg or "(every parameter)"
        elif key == "domain":
            domains = arg
        elif key in _RESOURCE_TYPES:
            types.append(key)
    if value is None:
        return None  # a cosmetic or header rule, not a parameter rule
    parts = (
        target.strip("*"),
        f"domain={domains}" if domains else "",
        "$" + ",".join(types) if types else "",
    )
    return " ".join(part for part in parts if part), value


def adguard(path: Path, list_id: str) -> list[dict[str, Any]]:
    """Each $removeparam rule, grouped by its target, domain option and request types."""
    groups: dict[str, list[str]] = {}
    for raw in path.read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        if not line or line.startswith("!"):
            continue
        rule = _adguard_rule(line)
        if rule is not None:
            match, value = rule
            entries = groups.setdefault(match, [])
            if value not in entries:
                entries.append(value)
    return [
        _scope(list_id, match or "global", match, "removeparam", entries)
        for match, entries in groups.items()
    ]


def adguard_exceptions(paths: list[Path], list_id: str) -> list[dict[str, Any]]:
    """The @@ rules of AdGuard's exception files, one scope holding them all."""
    rules: list[str] = []
    for path in paths:
        for raw in path.read_text(encoding="utf-8").splitlines():
            line = raw.strip()
            if line.startswith("@@") and "removeparam" in line and line not in rules:
                rules.append(line)
    return [_scope(list_id, "exceptions", "", "removeparam", [], exceptions=rules)]


def firefox_query_stripping(path: Path, allow: Path | None = None) -> list[dict[str, Any]]:
    """The strip list: one global scope, with the allow list's sites as its exceptions."""
    names = path.read_text(encoding="utf-8").split()
    sites = allow.read_text(encoding="utf-8").replace(",", " ").split() if allow else []
    return [_scope("firefox-query-stripping", "global", "*", "strip_list", names, exceptions=sites)]


def firefox_strip_on_share(paths: list[Path]) -> list[dict[str, Any]]:
    """Each site's queryParams of every strip-on-share file, global first."""
    out = []
    for path in paths:
        label = "LGPL" if "lgpl" in path.name.lower() else "MPL"
        for site, entry in json.loads(path.read_text(encoding="utf-8")).items():
            sites = entry["topLevelSites"]
            names = list(dict.fromkeys(entry["queryParams"]))
            scope = "global" if sites == ["*"] else f"{site} ({label})"
            out.append(
                _scope("firefox-strip-on-share", scope, " ".join(sites), "queryParams", names)
            )
    return out


def main(argv: list[str] | None = None) -> int:
    """Read the local copies named on the command line and write the snapshot."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--clearurls", type=Path)
    parser.add_argument("--brave-query-filter", type=Path)
    parser.add_argument("--brave-clean-urls", type=Path)
    parser.add_argument("--adguard-general", type=Path)
    parser.add_argument("--adguard-specific", type=Path)
    parser.add_argument("--adguard-allowlist", type=Path, nargs="+")
    parser.add_argument("--firefox-query-stripping", type=Path)
    parser.add_argument("--firefox-allow-list", type=Path)
    parser.add_argument("--firefox-strip-on-share", type=Path, nargs="+")
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args(argv)
    readers: dict[str, Callable[[Any], list[dict[str, Any]]]] = {
        "clearurls": lambda p: clearurls(p),
        "brave-query-filter": lambda p: brave(p, "brave-query-filter"),
        "brave-clean-urls": lambda p: brave(p, "brave-clean-urls"),
        "adguard-general": lambda p: adguard(p, "adguard-general"),
        "adguard-specific": lambda p: adguard(p, "adguard-specific"),
        "adguard-allowlist": lambda p: adguard_exceptions(p, "adguard-allowlist"),
        "firefox-query-stripping": lambda p: firefox_query_stripping(p, args.firefox_allow_list),
        "firefox-strip-on-share": lambda p: firefox_strip_on_share(p),
    }
    old = json.loads(args.out.read_text(encoding="utf-8")) if args.out.exists() else {}
    scopes: list[dict[str, Any]] = []
    for list_id, read in readers.items():
        given = getattr(args, list_id.replace("-", "_"))
        if given is not None:
            scopes += read(given)
        else:
            scopes += [s for s in old.get("scopes", []) if s["list"] == list_id]
    document = {
        "format": "samepage.anchor-lists",
        "version": 1,
        "lists": {k: v for k, v in SOURCES.items() if any(s["list"] == k for s in scopes)},
        "scopes": scopes,
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    text = json.dumps(document, indent=1, ensure_ascii=False, sort_keys=True)
    args.out.write_text(text + "\n", encoding="utf-8")
    print(f"{args.out}: {sum(len(s['entries']) for s in scopes)} entries in {len(scopes)} scopes")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
