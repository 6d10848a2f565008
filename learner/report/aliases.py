"""The report's section on a host's aliases: the spellings the learned set makes one page."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from learner.report.page import code, escape, row, table
from samepage import DomainEntry, HostAlias
from samepage.aliases import evidence_text

__all__ = ["alias_study_section", "aliases_section"]


def aliases_section(entry: DomainEntry | None) -> str:
    """A table of the host's aliases in the order the normalizer tries them (none: "")."""
    if entry is None or not entry.aliases:
        return ""
    rows = [
        row(
            str(i),
            [
                "host" if isinstance(alias, HostAlias) else "path",
                code(alias.host if isinstance(alias, HostAlias) else alias.from_),
                code(alias.to_host if isinstance(alias, HostAlias) else alias.to),
                escape(evidence_text(alias)),
            ],
        )
        for i, alias in enumerate(entry.aliases, 1)
    ]
    caption = (
        "Aliases: other spellings of one page, rewritten before the parameter filter "
        "(the first rule that matches and leaves a final spelling applies)"
    )
    return table(caption, ["#", "kind", "from", "to", "evidence"], rows)


def alias_study_section(stats: Mapping[str, Any]) -> str:
    """The host's alias study: every candidate, its finding and why ("" without a study).

    ``stats`` is the host's ``aliases`` account in ``stats.json``.
    """
    found = stats.get("candidates")
    if not isinstance(found, list) or not found:
        return ""
    rows = [
        row(
            code(c.get("from")),
            [
                code(c.get("to")),
                escape(c.get("finding")),
                f"{escape(c.get('samples'))} / {escape(c.get('controls'))}",
                escape(c.get("reason")),
            ],
        )
        for c in found
        if isinstance(c, dict)
    ]
    caption = (
        f"Alias study ({escape(stats.get('renders', 'n/a'))} renders): the spellings the log "
        "proposed; learned ones are published, apart and unproven ones stay two keys"
    )
    if stats.get("bound"):
        caption += f"; stopped: {escape(stats['bound'])}"
    return table(caption, ["from", "to", "finding", "same / controls", "reason"], rows)
