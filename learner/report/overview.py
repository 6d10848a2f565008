"""The report's overview: the run's totals, the table of domains, and the verdict filter."""

from __future__ import annotations

from learner.judge.verdicts import Account
from learner.plan.coverage import left_line
from learner.report.coverage import _percent
from learner.report.page import badge, escape, row, table
from learner.report.patterns import CLASS_ORDER, verdict_class
from learner.report.run_stats import _dict
from learner.run.folder import RunFolder


def _overview(run: RunFolder, keys: list[str]) -> str:
    stats = _dict(run.stats.get("domains"))
    rows = []
    for i, key in enumerate(keys):
        entry, own = run.learned.domains.get(key), _dict(stats.get(key))
        patterns = entry.patterns.values() if entry else []
        kinds = [verdict_class(v) for p in patterns for v in p.params.values()]
        renders = entry.renders if entry else None
        urls = entry.urls if entry else None
        cells = [len(patterns), *(kinds.count(k) for k in CLASS_ORDER)]
        cells += [
            own.get("renders", "n/a") if renders is None else renders,
            own.get("render_failures", "n/a"),
        ]
        cells.append(own.get("urls", "n/a") if urls is None else urls)
        note = f'<br><span class="reason">{escape(own["error"])}</span>' if own.get("error") else ""
        decided = _decided(own.get("decided"))
        covered = _covered(own.get("coverage"))
        rows.append(
            row(
                f'<a href="#d{i}">{escape(key)}</a>{note}',
                [*(escape(c) for c in cells), decided, covered],
            )
        )
    heads = ["domain", "patterns", *CLASS_ORDER, "renders", "render failures", "URLs", "decided"]
    heads.append("URLs covered")
    return _totals(run) + table("Domains", heads, rows)


def _decided(data: object) -> str:
    """The share of studied parameters decided by evidence, and what kept the rest."""
    if not isinstance(data, dict):
        return "n/a"
    found = Account.from_json(data)
    parts = [f"{found.decided} of {found.studied} ({found.decided_share:.0%})"]
    for cause, count in found.kept.items():
        top = found.commonest_failure(cause)
        top = f": {top}" if top else ""
        parts.append(f'<span class="reason">{count} kept for {escape(cause)}{escape(top)}</span>')
    return "<br>".join(parts)


def _covered(data: object) -> str:
    """The share of the URLs with parameters covered, and the patterns left with their URLs."""
    if not isinstance(data, dict) or "share" not in data:
        return "n/a"
    share = f"{_percent(data['share']) or 'n/a'} of {data.get('urls', 'n/a')}"
    return f'{escape(share)}<br><span class="reason">{escape(left_line(data, 10))}</span>'


def _totals(run: RunFolder) -> str:
    s = run.stats
    items = [
        ("created", run.learned.created or "n/a"),
        ("renders", s.get("renders", "n/a")),
        ("render failures", s.get("render_failures", "n/a")),
        (
            "comparisons",
            f"{s.get('comparisons', 'n/a')} (resumed {s.get('resumed_comparisons', 0)})",
        ),
        ("time", f"{s.get('seconds', 'n/a')} s, {s.get('pages_per_second', 'n/a')} pages/s"),
        (
            "evidence",
            f"{s.get('evidence_bytes', 'n/a')} bytes, {s.get('evidence_skipped', 0)} not kept",
        ),
        ("browser", _dict(s.get("browser")).get("executable") or "n/a"),
        ("method", ", ".join(f"{k} {v}" for k, v in sorted(run.learned.settings.items())) or "n/a"),
    ]
    pairs = "".join(f"<dt>{escape(k)}</dt><dd>{escape(v)}</dd>" for k, v in items)
    return f'<dl class="totals">{pairs}</dl>'


def _filter() -> str:
    # Hidden until the script runs: without JavaScript everything shows and no dead controls do.
    boxes = "".join(
        f'<label><input type="checkbox" value="{k}" checked> {badge(k)}</label>'
        for k in CLASS_ORDER
    )
    return (
        f'<fieldset id="filter" hidden><legend>Show parameters that are</legend>{boxes}'
        '<span id="filter-status" role="status" aria-live="polite"></span></fieldset>'
    )
