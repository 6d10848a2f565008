"""Public suffixes: host keys under which every tenant's site would fall.

A host key covers the host and its subdomains, so a key such as ``co.uk``, ``github.io`` or
``blogspot.com`` would apply one site's rule to the sites of everyone who registers under
it. The Public Suffix List (https://publicsuffix.org/list/, Mozilla Public License 2.0)
names these suffixes, its private section the multi-tenant platforms. samepage ships a
dated snapshot of it, unmodified, in ``samepage/data/public_suffix_list.dat`` (its
``VERSION`` line gives the date; taken from the ``publicsuffixlist`` package, version
1.1.2.20261023). It is read only when a host key is checked, never on the way of a URL.
"""

from __future__ import annotations

import pkgutil
from functools import cache

from samepage import _url
from samepage.errors import SamepageError

__all__ = ["is_public_suffix", "list_version"]

_FILE = "data/public_suffix_list.dat"


@cache
def _list_text() -> str:
    data = pkgutil.get_data("samepage", _FILE)
    if data is None:
        raise SamepageError(f"samepage/{_FILE} cannot be read")
    return data.decode("utf-8")


@cache
def _rules() -> tuple[frozenset[str], frozenset[str], frozenset[str]]:
    """The list's rules in IDNA form: exact suffixes, wildcard parents, exceptions."""
    exact: set[str] = set()
    wildcard: set[str] = set()
    exceptions: set[str] = set()
    for line in _list_text().splitlines():
        rule = line.strip()
        if not rule or rule.startswith("//"):
            continue
        table = exact
        if rule.startswith("!"):
            table, rule = exceptions, rule[1:]
        elif rule.startswith("*."):
            table, rule = wildcard, rule[2:]
        try:
            # The list spells IDN suffixes in Unicode; host keys are written in punycode.
            table.add(rule if rule.isascii() else _url._decode_host(rule))
        except ValueError:
            continue  # no host key is spelled so: it can match none
    return frozenset(exact), frozenset(wildcard), frozenset(exceptions)


def is_public_suffix(host: str) -> bool:
    """Whether ``host`` (lower case, IDNA) is a suffix the Public Suffix List names.

    The list's implicit rule ``*`` (every unlisted top-level label) is not applied: a
    one-label key such as ``localhost`` names one machine, not a registry.

    >>> [is_public_suffix(h) for h in ("co.uk", "github.io", "bbc.co.uk", "localhost")]
    [True, True, False, False]
    """
    exact, wildcard, exceptions = _rules()
    if host in exact:
        return True
    if host in exceptions:
        return False
    parent = host.partition(".")[2]
    return bool(parent) and parent in wildcard


def list_version() -> str:
    """The snapshot's ``VERSION`` line (the date the list was published), for messages."""
    for line in _list_text().splitlines():
        if line.startswith("// VERSION:"):
            return line.partition(":")[2].strip()
    return "unknown"
