"""The report's section on a host's aliases: the spellings the learned set makes one page."""

from __future__ import annotations

from learner.report.page import code, escape, row, table
from samepage import DomainEntry, HostAlias
from samepage.aliases import evidence_text

__all__ = ["aliases_section"]


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
