"""The report's section on a host's listed names: what the renders kept, what they confirmed."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from learner.judge.listed import ListedFinding
from learner.report.page import code, escape, row, table
from samepage import DomainEntry

__all__ = ["listed_section"]


def listed_section(entry: DomainEntry | None, stats: Mapping[str, Any]) -> str:
    """Every static rule the host's learned set overrules, and the spot-checks' account.

    ``stats`` is the host's ``listed`` account in ``stats.json`` (absent for a run made
    before listed names were spot-checked).
    """
    parts = []
    kept = entry.keep_listed if entry is not None else {}
    if kept:
        rows = [
            row(
                code(name),
                [
                    ", ".join(code(r) for r in keep.overrules) or "n/a",
                    f"{keep.changed} of {keep.tested}",
                    str(keep.failed),
                    ", ".join(code(t) for t in keep.templates),
                ],
                "non-neutral",
            )
            for name, keep in sorted(kept.items())
        ]
        caption = (
            "Listed names kept on this host: the page changed without them, so the learned "
            "set overrules these built-in rules here"
        )
        heads = ["name", "overrules", "changed", "failed", "templates where it changed"]
        parts.append(table(caption, heads, rows))
    if stats.get("samples"):
        found = [
            f"{finding.value}: {', '.join(code(n) for n in names)}"
            for finding in ListedFinding
            if isinstance(names := stats.get(finding.value), list) and names
        ]
        spent = f"{escape(stats['samples'])} samples, {escape(stats.get('renders', 'n/a'))} renders"
        parts.append(
            f'<p class="listed">Listed names spot-checked: {spent}; {"; ".join(found)}</p>'
        )
    return "".join(parts)
