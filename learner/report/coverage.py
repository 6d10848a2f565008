"""What a verdict's samples covered, as the report says it: paths, templates, companion values."""

from __future__ import annotations

from collections.abc import Mapping

from learner.report.page import code, escape
from samepage.learned import CompanionCoverage, Coverage


def _coverage(found: Coverage | None) -> str:
    """Which share of the URLs, paths and companion values the successful samples covered."""
    if found is None:
        return ""
    paths = found.paths
    listed = ", ".join(code(p) for p in paths) if paths else "none"
    share = _percent(found.share)
    covered = f"templates holding {share} of the URLs, " if share else ""
    listed_templates = ", ".join(
        f"{code(t)} ({escape(c.tested)} of {escape(c.urls)} URLs tested, {escape(c.failed)} failed)"
        for t, c in sorted((found.templates or {}).items())
    )
    per_template = f"; per template: {listed_templates}" if listed_templates else ""
    return (
        f'<p class="coverage">samples covered {covered}{escape(found.paths_tested)} of '
        f"{escape(found.paths_seen)} paths ({listed}) and "
        f"{escape(found.companions_tested)} of {escape(found.companions_seen)} "
        f"combinations of the other parameters' values{per_template}</p>"
        + _companion_values(found.values or {})
    )


def _companion_values(found: Mapping[str, CompanionCoverage]) -> str:
    """How the samples covered each other parameter's values: share, and URLs per class."""
    rows = []
    for name, seen in sorted(found.items()):
        share = _percent(seen.share)
        if not share:
            continue
        classes = ", ".join(
            f"{'rare values' if c.value is None else code(_spelled(c.value))}"
            f" ({escape(c.urls)} URLs, {escape(c.samples)} samples"
            f"{'' if c.covered else ', not covered'})"
            for c in seen.classes or ()
        )
        rows.append(
            f"<li>{code(name)}: values holding {share} of {escape(seen.urls)} URLs "
            f"covered; {classes}</li>"
        )
    if not rows:
        return ""
    return f'<ul class="coverage">{"".join(rows)}</ul>'


def _percent(share: object) -> str:
    """A share from 0 to 1 as a percentage; "" for anything else (a file says what it likes).

    >>> _percent(0.25), _percent(10**400), _percent(True), _percent("1")
    ('25.0%', '', '', '')
    """
    if isinstance(share, bool) or not isinstance(share, (int, float)) or not 0 <= share <= 1:
        return ""
    return f"{share:.1%}"


def _spelled(value: str | tuple[str, ...]) -> str:
    """A class's value: one value, or repeated ones."""
    return "&".join(value) if isinstance(value, tuple) else value
