"""A static HTML report of one run folder: every verdict next to the evidence behind it.

The report is one ``index.html`` plus the evidence images it shows, copied into
``OUT/evidence/``. It opens from disk in any browser: styles and the small filter script are
inline, links are relative, and a Content-Security-Policy forbids fetching anything else.
Everything read from the run folder (URLs, parameter names, page text quoted in reasons)
is escaped; image paths are reduced to a bare file name under ``evidence/``.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from learner.errors import ConfigError
from learner.judge.verdicts import Account, cause_of
from learner.model import SampleEvidence
from learner.plan.coverage import left_line
from learner.report.aliases import alias_study_section, aliases_section
from learner.report.listed import listed_section
from learner.report.page import badge, code, escape, number, page, row, table
from learner.run.folder import ReportImages, RunFolder, read_run_folder
from samepage import ParamVerdict, PatternConflict, PatternEntry, TemplateScope, write_text_atomic
from samepage.learned import (
    CompanionCoverage,
    Coverage,
    DefaultValue,
    RejectedDefault,
    Sample,
    pattern_conflicts,
)

logger = logging.getLogger(__name__)

__all__ = ["verdict_class", "write_report"]

_ORDER = {"non-neutral": 0, "undecided": 1, "neutral": 2}
# Measure -> (label, unit of the distance, unit of the noise); see docs/fingerprint.md.
_MEASURES = {
    "tiles": ("screen tiles", "share", "share"),
    "text_lines": ("text lines", "lines", "share"),
    "tile_hash_bits": ("largest tile phash distance", "bits", "bits"),
    "height_px": ("page height difference", "px", "px"),
    "title": ("title changed", "flag", "flag"),
}


def verdict_class(verdict: ParamVerdict) -> str:
    """How the report groups a parameter: ``neutral``, ``non-neutral`` or ``undecided``.

    Undecided is non-neutral without a cause that rests on evidence (a set written without
    causes reads so): kept because it could not be proven neutral, not because a change
    was seen. A parameter
    the joint check kept is non-neutral: dropping it together with others changed the page.

    >>> verdict_class(ParamVerdict("non-neutral", 1, 0, 3, reason="only 1 successful sample"))
    'undecided'
    >>> from samepage.learned import VerdictCause
    >>> verdict_class(ParamVerdict("non-neutral", 3, 2, 0, cause=VerdictCause.CHANGED))
    'non-neutral'
    >>> joint = ParamVerdict("non-neutral", 4, 0, 0, cause=VerdictCause.JOINT_CHECK)
    >>> verdict_class(joint)
    'non-neutral'
    """
    if verdict.neutral or cause_of(verdict).decided:
        return verdict.verdict
    return "undecided"


def _figure(images: ReportImages, path: object, caption: str, alt: str) -> str:
    link = images.link(path)
    body = (
        '<div class="missing">not kept (no image, or over the evidence budget)</div>'
        if link is None
        else f'<img src="{escape(link)}" alt="{escape(alt)}" width="320">'
    )
    return f"<figure>{body}<figcaption>{escape(caption)}</figcaption></figure>"


def _measures(evidence: SampleEvidence) -> str:
    distances, noise = evidence.distances, evidence.noise
    if not (distances or noise):
        return ""
    names = [n for n in _MEASURES if n in distances or n in noise]
    names += sorted(str(n) for n in {*distances, *noise} if n not in _MEASURES)
    rows = []
    for name in names:
        label, unit, noise_unit = _MEASURES.get(name, (name, "", ""))
        cells = [number(unit, distances.get(name)), number(noise_unit, noise.get(name))]
        rows.append(row(escape(label), cells))
    heads = ["measure", "distance (outside the noise)", "noise (original vs itself)"]
    return table("Measurements", heads, rows)


def _urls(url: str, candidate: str, evidence: SampleEvidence) -> str:
    finals: tuple[object, object] = evidence.final_url or ("n/a", "n/a")
    statuses: tuple[object, object] = evidence.status or ("n/a", "n/a")
    rows = (
        row(label, [code(asked), code(finals[i]), escape(statuses[i])])
        for i, (label, asked) in enumerate((("original", url), ("candidate", candidate)))
    )
    return table("Requested and final URLs", ["page", "requested", "final URL", "status"], rows)


def _archived(url: str, candidate: str, archived: Mapping[str, Any]) -> str:
    """The two archive captures that decided a sample without rendering it."""
    rows = []
    for label, asked in (("original", url), ("candidate", candidate)):
        found = _dict(archived.get(label))
        cells = [code(asked), escape(found.get("timestamp", "n/a")), escape(found.get("status"))]
        cells += [code(found.get("digest")), escape("revisit" if found.get("revisit") else "")]
        rows.append(row(label, [*cells, code(found.get("where"))]))
    heads = ["page", "URL", "captured", "status", "payload digest", "record", "index"]
    note = (
        '<p class="archive"><strong>from the archive:</strong> not rendered; both URLs were '
        "captured answering 2xx with the same payload digest.</p>"
    )
    return note + table("Archive captures", heads, rows)


def _sample(run: RunFolder, images: ReportImages, number: int, sample: Sample, without: str) -> str:
    url, candidate = sample.url, sample.candidate
    pair = run.pairs.get((url, candidate))
    outcome = sample.outcome if pair is None else pair.outcome
    evidence = SampleEvidence() if pair is None else pair.evidence
    reason = "no comparison in the checkpoint" if pair is None else pair.reason
    label = "error" if outcome == "failed" else "why"
    parts = [f'<div class="sample"><h5>Sample {number}: {badge(outcome)}</h5>']
    if reason:
        parts.append(f'<p class="reason"><strong>{label}:</strong> {escape(reason)}</p>')
    archived = evidence.archive
    if archived:
        parts.append(_archived(url, candidate, archived))
        return "".join(parts) + "</div>"
    if pair is not None:
        shots = [
            _figure(images, evidence.original_thumb, "original", f"Original page {url}"),
            _figure(images, evidence.candidate_thumb, without, f"Page {without}: {candidate}"),
        ]
        if outcome != "same":
            alt = f"Difference overlay of {url} against {candidate}; differing regions in red"
            shots.append(_figure(images, evidence.difference, "difference (red)", alt))
        parts.append(f'<div class="shots">{"".join(shots)}</div>')
    parts.append(f'<div class="facts">{_urls(url, candidate, evidence)}{_measures(evidence)}</div>')
    return "".join(parts) + "</div>"


def _param(
    run: RunFolder, images: ReportImages, anchor: str, name: str, verdict: ParamVerdict
) -> str:
    kind = verdict_class(verdict)
    samples = _samples(run, images, verdict.samples, f"without {name}")
    parts = [
        f'<article class="param" id="{anchor}" data-verdict="{kind}">',
        f"<h4>{code(name)} {badge(kind)}</h4>",
        f"<p>tested {verdict.tested}, changed {verdict.changed}, failed {verdict.failed}</p>",
    ]
    parts.append(_reason(verdict.reason))
    parts.append(_coverage(verdict.coverage))
    parts += samples
    if not samples:
        parts.append("<p>No samples recorded.</p>")
    parts.append(_default_values(run, images, name, verdict))
    return "".join(parts) + "</article>"


def _default_values(
    run: RunFolder, images: ReportImages, name: str, verdict: ParamVerdict
) -> str:
    """Each value tested as a default: learned ones, then rejected ones, with their samples."""
    tested: list[tuple[str, str, DefaultValue | RejectedDefault]] = [
        (value, "default", found) for value, found in sorted(verdict.defaults.items())
    ]
    rejected = verdict.rejected_defaults
    tested += [(value, "kept", why) for value, why in sorted(rejected.items())]
    parts = []
    for value, kind, found in tested:
        pair = code(f"{name}={value}")
        parts.append(f'<div class="default"><h5>{pair} {badge(kind)}</h5>')
        if found.tested is not None:
            parts.append(
                f"<p>tested {escape(found.tested)}, changed {escape(found.changed)}, "
                f"failed {escape(found.failed)}</p>"
            )
        if isinstance(found, RejectedDefault):
            parts.append(_reason(found.reason))
        parts.append(_coverage(found.coverage))
        parts += _samples(run, images, found.samples, f"as normalised, without {name}")
        parts.append("</div>")
    return "".join(parts)


def _reason(reason: object) -> str:
    """The reason of a verdict, if it has one."""
    return f'<p class="reason"><strong>reason:</strong> {escape(reason)}</p>' if reason else ""


def _samples(
    run: RunFolder, images: ReportImages, found: tuple[Sample, ...] | None, without: str
) -> list[str]:
    """Each recorded sample, in order, as :func:`_sample` shows it."""
    return [_sample(run, images, i, s, without) for i, s in enumerate(found or (), 1)]


def _coverage(found: Coverage | None) -> str:
    """Which share of the URLs, paths and companion values the successful samples covered."""
    if found is None:
        return ""
    paths = found.paths
    listed = ", ".join(code(p) for p in paths) if paths else "none"
    share = _percent(found.share)
    covered = f"templates holding {share} of the URLs, " if share else ""
    listed_templates = ", ".join(
        f"{code(t)} ({escape(c.tested)} of {escape(c.urls)} URLs tested, "
        f"{escape(c.failed)} failed)"
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


def _scopes(caption: str, scopes: Mapping[str, TemplateScope]) -> str:
    """Verdicts per path template: a pattern's scopes, or a domain's shared evidence."""
    rows = []
    for template, scope in sorted(scopes.items()):
        for name, v in sorted(scope.params.items()):
            defaults = ", ".join(code(f"{name}={value}") for value in sorted(v.defaults))
            rests = ", ".join(code(p) for p in v.patterns or ())
            cells = [code(name), badge(verdict_class(v)), str(v.tested), str(v.changed)]
            cells += [str(v.failed), escape(v.reason or ""), defaults, rests]
            # No data-verdict: the filter and its count are of the patterns' parameters.
            rows.append(row(code(template), cells))
    if not rows:
        return ""
    heads = ["template", "parameter", "verdict", "tested", "changed", "failed", "reason"]
    return table(caption, [*heads, "defaults", "patterns"], rows)


def _joint(run: RunFolder, checks: tuple[Sample, ...]) -> str:
    if not checks:
        return ""
    rows = []
    for check in checks:
        url, candidate = check.url, check.candidate
        pair = run.pairs.get((url, candidate))
        why = "" if pair is None else pair.reason
        rows.append(row(code(candidate), [code(url), badge(check.outcome), escape(why)]))
    caption = "Joint checks: the sample URL reduced to the parameters kept"
    return table(caption, ["reduced URL", "sample URL", "outcome", "why"], rows)


def _conflicts(conflicts: list[PatternConflict]) -> str:
    if not conflicts:
        return ""
    items = "".join(
        f"<li>without its dropped parameters a URL has pattern {code(c.into or '(none)')}, "
        f"whose verdicts drop {', '.join(code(n) for n in c.names)}, kept here: the "
        "normalizer keeps this pattern's dropped parameters on such URLs</li>"
        for c in conflicts
    )
    return f'<div class="conflicts"><h4>Conflicts with other patterns</h4><ul>{items}</ul></div>'


def _pattern(
    run: RunFolder,
    images: ReportImages,
    anchor: str,
    key: str,
    found: PatternEntry,
    conflicts: list[PatternConflict],
) -> str:
    ordered = sorted(found.params.items(), key=lambda nv: (_ORDER[verdict_class(nv[1])], nv[0]))
    rows = (
        row(
            f'<a href="#{anchor}-{i}">{code(n)}</a>',
            [
                badge(verdict_class(v)),
                str(v.tested),
                str(v.changed),
                str(v.failed),
                escape(v.reason or ""),
            ],
            verdict_class(v),
        )
        for i, (n, v) in enumerate(ordered)
    )
    heads = ["parameter", "verdict", "tested", "changed", "failed", "reason"]
    parts = [
        f'<section id="{anchor}"><h3>Pattern {code(key or "(none)")} ({found.urls} URLs)</h3>',
        table(f"Parameters of {code(key or '(none)')}", heads, rows),
        _scopes(
            f"Verdicts per path template of {code(key or '(none)')}: on URLs of a template, "
            "they replace the pattern's",
            found.templates,
        ),
        _conflicts([c for c in conflicts if c.pattern == key]),
        _joint(run, found.joint_checks),
        _joint_defaults(run, images, found),
        *(_param(run, images, f"{anchor}-{i}", n, v) for i, (n, v) in enumerate(ordered)),
    ]
    return "".join(parts) + "</section>"


def _joint_defaults(run: RunFolder, images: ReportImages, found: PatternEntry) -> str:
    """The joint check of the pattern's defaults, if it had two or more, with its samples."""
    joint, rejected = found.joint_defaults, found.rejected_joint_defaults
    if joint is not None:
        names, kind, reason, samples = sorted(joint.names), "together", None, joint.samples
    elif rejected is not None:
        names, kind = list(rejected.names), "apart"
        reason, samples = rejected.reason, rejected.samples
    else:
        return ""
    if not names:
        return ""
    title = " ".join(f"{code(n)}" for n in names)
    parts = [f'<div class="default"><h4>Defaults of {title} dropped together {badge(kind)}</h4>']
    parts.append(_reason(reason))
    without = "as normalised, without these defaults"
    parts += _samples(run, images, samples, without)
    return "".join(parts) + "</div>"


def _dict(value: object) -> Mapping[str, Any]:
    return value if isinstance(value, dict) else {}


def _domain_keys(run: RunFolder) -> list[str]:
    return sorted({*run.learned.domains, *_dict(run.stats.get("domains"))})


def _overview(run: RunFolder, keys: list[str]) -> str:
    stats = _dict(run.stats.get("domains"))
    rows = []
    for i, key in enumerate(keys):
        entry, own = run.learned.domains.get(key), _dict(stats.get(key))
        patterns = entry.patterns.values() if entry else []
        kinds = [verdict_class(v) for p in patterns for v in p.params.values()]
        renders = entry.renders if entry else None
        urls = entry.urls if entry else None
        cells = [len(patterns), *(kinds.count(k) for k in _ORDER)]
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
    heads = ["domain", "patterns", *_ORDER, "renders", "render failures", "URLs", "decided"]
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
        f'<label><input type="checkbox" value="{k}" checked> {badge(k)}</label>' for k in _ORDER
    )
    return (
        f'<fieldset id="filter" hidden><legend>Show parameters that are</legend>{boxes}'
        '<span id="filter-status" role="status" aria-live="polite"></span></fieldset>'
    )


def _body(run: RunFolder, images: ReportImages) -> str:
    keys = _domain_keys(run)
    stats = _dict(run.stats.get("domains"))
    parts = [f'<h2 id="overview">Overview</h2>{_overview(run, keys)}{_filter()}']
    for i, key in enumerate(keys):
        entry = run.learned.domains.get(key)
        patterns = sorted(entry.patterns.items(), key=lambda p: (-p[1].urls, p[0])) if entry else []
        conflicts = pattern_conflicts(key, entry) if entry else []
        parts.append(f'<section id="d{i}"><h2>{escape(key)}</h2>')
        parts += [
            _pattern(run, images, f"d{i}-p{j}", k, p, conflicts)
            for j, (k, p) in enumerate(patterns)
        ]
        if entry is not None:
            caption = (
                "Shared evidence per path template: for URLs of a pattern not studied here "
                "(combined from the patterns listed)"
            )
            parts.append(_scopes(caption, entry.shared))
            parts.append(aliases_section(entry))
        parts.append(alias_study_section(_dict(_dict(stats.get(key)).get("aliases"))))
        parts.append(listed_section(entry, _dict(_dict(stats.get(key)).get("listed"))))
        parts.append("</section>" if patterns else "<p>No pattern was learned here.</p></section>")
    return "".join(parts)


def write_report(run: Path, out: Path) -> Path:
    """Write the static HTML report of the run folder ``run`` into ``out``.

    Args:
        run: a run folder (``--cache DIR`` of a crawl): learned.json, checkpoint.jsonl,
            stats.json and evidence/.
        out: the report folder, created if needed; gets ``index.html`` and ``evidence/``.

    Returns:
        The path of ``index.html``.

    Raises:
        ConfigError: ``run`` is not a run folder, its learned.json cannot be read, or
            ``out`` cannot be written.

    Example::

        index = write_report(Path(".samepage-cache/demo"), Path("report"))
    """
    found = read_run_folder(Path(run))
    out = Path(out)
    title = "samepage learner report: " + (", ".join(sorted(found.learned.domains)) or "no domains")
    try:
        out.mkdir(parents=True, exist_ok=True)
        images = ReportImages(found, out)
        index = out / "index.html"
        write_text_atomic(index, page(title, _body(found, images)))
    except OSError as exc:
        raise ConfigError(f"report folder {out}: {exc}") from exc
    logger.info("report: %s (%d evidence images)", index, len(images.copied))
    return index
