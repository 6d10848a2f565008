"""The shape of a rules document, checked entry by entry before it is compiled."""

from __future__ import annotations

from collections.abc import Mapping
from itertools import repeat
from typing import Any

from samepage.errors import SamepageError


def _check_entries(data: Mapping[str, Any]) -> None:
    """Name the first entry of a rules document that cannot be compiled, and why."""
    # A place is only formatted for a bad entry, and a parsed document's dicts pass the
    # cheap type() test before the generic Mapping one: a file has thousands of entries.

    def problem(entry: object) -> str:
        if type(entry) is not dict and not isinstance(entry, Mapping):
            return "an entry must be an object"
        key = entry.get("name")
        if key is None:
            key = entry.get("prefix")
        elif "prefix" in entry:
            key = None
        if not isinstance(key, str) or not key:
            return "needs exactly one of 'name' or 'prefix'"
        return ""

    def listed(value: object, where: str, *place: object) -> list[Any]:
        if not isinstance(value, list):
            raise SamepageError(f"rules: {where.format(*place)}: must be a list")
        return value

    for section in ("tracking", "ambiguous", "session"):
        for index, entry in enumerate(listed(data.get(section, []), section)):
            if found := problem(entry):
                raise SamepageError(f"rules: {section}[{index}]: {found}")
    for index, group in enumerate(listed(data.get("domains", []), "domains")):
        is_mapping = type(group) is dict or isinstance(group, Mapping)
        hosts = group.get("hosts") if is_mapping else None
        if not isinstance(hosts, list) or not hosts or not all(map(isinstance, hosts, repeat(str))):
            message = "'hosts' must be a non-empty list of names"
            raise SamepageError(f"rules: domains[{index}]: {message}")
        for kind in ("allow", "block"):
            entries = listed(group.get(kind, []), "domains[{}].{}", index, kind)
            for number, entry in enumerate(entries):
                if found := problem(entry):
                    where = f"domains[{index}] ({hosts[0]}).{kind}[{number}]"
                    raise SamepageError(f"rules: {where}: {found}")
    for section in ("redirects", "aliases", "path_sessions", "exceptions"):
        for index, entry in enumerate(listed(data.get(section, []), section)):
            if not isinstance(entry, Mapping) or not isinstance(entry.get("id"), str):
                raise SamepageError(f"rules: {section}[{index}]: needs a string 'id'")
    for index, entry in enumerate(data.get("exceptions", [])):
        hosts = entry.get("hosts")
        if not isinstance(hosts, list) or not hosts or not all(map(isinstance, hosts, repeat(str))):
            message = "'hosts' must be a non-empty list of names"
            raise SamepageError(f"rules: exceptions[{index}] ({entry['id']}): {message}")
