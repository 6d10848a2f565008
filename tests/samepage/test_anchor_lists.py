"""Every name of every anchor list is covered by the built-in rules or kept for a written reason.

The lists are read from the snapshot in data/anchor-lists/ (see anchor_accounting.py); a
name the snapshot holds and samepage neither covers nor explains fails here.
"""

from __future__ import annotations

import functools
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from tests.samepage import anchor_accounting as accounting


@functools.cache
def _items() -> list[accounting.Item]:
    """Every entry of every list with its status: worked out once, when a test first asks."""
    return list(accounting.items())


def test_the_snapshot_names_its_sources() -> None:
    lists = accounting.snapshot()["lists"]
    assert set(lists) == {item.list for item in _items()}
    for source in lists.values():
        assert {"title", "repository", "path", "commit", "date", "license"} <= set(source)
    # The sizes of the stored lists: a refreshed snapshot changes them on purpose.
    counts = Counter(item.list for item in _items())
    assert counts["clearurls"] == 886  # 807 names, patterns and redirections, 79 exceptions
    assert counts["brave-clean-urls"] == 414
    assert counts["adguard-specific"] == 2150  # every $removeparam rule of specific.txt
    assert counts["adguard-allowlist"] == 49  # the @@ rules of allowlist.txt and whitelist.txt


def test_every_entry_is_covered_or_kept_with_a_reason() -> None:
    missing = [(i.list, i.scope, i.entry) for i in _items() if not i.status]
    assert missing == []
    for item in _items():
        assert item.status in accounting.COVERED or item.status in accounting.REASONS, item
        if item.status in accounting.REASONS:
            assert len(item.why) > 10, item


def test_no_reason_is_written_for_a_name_the_rules_cover() -> None:
    # A reason that no entry needs any more (the rules took the name) must go.
    needed = {(i.list, i.scope, i.entry) for i in _items() if i.status in accounting.REASONS}
    for record in accounting.accounting()["kept"]:
        for entry in record["entries"]:
            assert (record["list"], record["scope"], entry) in needed, (record["scope"], entry)
        assert record["reason"] in accounting.REASONS, record


@pytest.mark.parametrize("record", accounting.accounting()["redirects"], ids=lambda r: r["scope"])
def test_each_unwrapped_redirector_has_a_working_example(record: dict[str, str]) -> None:
    assert accounting.unwrapped(record["example"]), record["example"]


@pytest.mark.parametrize(
    "record", accounting.accounting()["exceptions"], ids=lambda r: f"{r['list']}:{r['scope']}"
)
def test_each_honoured_exception_keeps_the_names_there(record: dict[str, Any]) -> None:
    assert record["keeps"] or "adsystem" in record["example"]
    assert accounting.honoured(record["example"], record["keeps"]), record["example"]


def test_kept_names_are_not_dropped_where_the_list_strips_them() -> None:
    # "Kept" must be true: the rules leave the name on the scope's hosts.
    for item in _items():
        if item.status not in ("content", "selects", "generic") or item.list == "zyte":
            continue
        names = accounting.entry_names(item.list, item.entry)
        scope = next(
            s
            for s in accounting.snapshot()["scopes"]
            if s["list"] == item.list and s["scope"] == item.scope
        )
        place = accounting.where(scope)
        if names is None or not names.names or place is None:
            continue
        hosts = place.hosts or ("www.anchor-check.example",)
        # A pattern may be covered in part (Flipkart's cid and iid of [cilp]id), never whole.
        dropped = [accounting.dropped(n, h, place.path) for n in names.names for h in hosts]
        assert not all(dropped), item


def test_docs_show_the_accounting_per_list() -> None:
    docs = (Path(__file__).parents[2] / "docs" / "rules.md").read_text(encoding="utf-8")
    assert accounting.table() in docs, "docs/rules.md needs this table:\n" + accounting.table()
