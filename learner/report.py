"""A static HTML report of one run folder: every verdict next to the evidence behind it.

The report is one ``index.html`` plus the evidence images it shows, copied into
``OUT/evidence/``. It opens from disk in any browser: styles and the small filter script are
inline, links are relative, and a Content-Security-Policy forbids fetching anything else.
Everything read from the run folder (URLs, parameter names, page text quoted in reasons)
is escaped; image paths are reduced to a bare file name under ``evidence/``.
"""

from __future__ import annotations

import base64
import hashlib
import html
import json
import logging
import re
import shutil
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from learner.errors import ConfigError
from samepage import LearnedFormatError, LearnedSet, ParamVerdict, PatternEntry, load_learned

logger = logging.getLogger(__name__)

__all__ = ["verdict_class", "write_report"]

_ORDER = {"non-neutral": 0, "undecided": 1, "neutral": 2}
_SAFE_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,127}")
# Measure -> (label, unit of the distance, unit of the noise); see docs/fingerprint.md.
_MEASURES = {
    "tiles": ("screen tiles", "share", "share"),
    "text_lines": ("text lines", "lines", "share"),
    "tile_hash_bits": ("largest tile phash distance", "bits", "bits"),
    "height_px": ("page height difference", "px", "px"),
    "title": ("title changed", "flag", "flag"),
}

_CSS = """
:root{color-scheme:light;--ink:#1b1b1b;--muted:#4a4a4a;--line:#c8c8c8;--link:#0a4fb8}
*{box-sizing:border-box}a{color:var(--link)}h4{font-size:1rem;margin:0 0 4px}
body{margin:0;font:15px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--ink)}
body{background:#fff}main{max-width:1180px;margin:0 auto;padding:0 16px 48px}
header{background:#f2f4f7;border-bottom:1px solid var(--line);padding:12px 16px}
header h1{max-width:1180px;margin:0 auto;font-size:1.4rem}
h2{font-size:1.25rem;margin:28px 0 8px;border-bottom:2px solid var(--line)}
h3{font-size:1.1rem;margin:22px 0 6px}h5{font-size:.95rem;margin:10px 0 4px}
:focus-visible{outline:3px solid #0a4fb8;outline-offset:2px}
.skip{position:absolute;left:-999px}.skip:focus{left:8px;top:8px;background:#fff;padding:4px 8px}
table{border-collapse:collapse;margin:6px 0 12px}caption{text-align:left;font-weight:600}
th,td{border:1px solid var(--line);padding:4px 8px;text-align:left;vertical-align:top}
thead th{background:#f2f4f7}
code{font:13px/1.35 ui-monospace,Menlo,Consolas,monospace;overflow-wrap:anywhere}
dl.totals{display:grid;grid-template-columns:max-content 1fr;gap:2px 16px;margin:8px 0}
dl.totals dt{font-weight:600}dl.totals dd{margin:0}
.badge{display:inline-block;padding:0 8px;border-radius:10px;font-weight:600;border:1px solid}
.v-non-neutral,.v-changed{background:#fde8e8;color:#8a1212;border-color:#d99}
.v-neutral,.v-same,.v-default{background:#e4f3e8;color:#155724;border-color:#8c8}
.v-undecided{background:#fff2cc;color:#5c4000;border-color:#d8b860}
.v-failed,.v-unknown{background:#eee;color:#333;border-color:#aaa}
fieldset{border:1px solid var(--line);margin:12px 0;padding:6px 12px}
fieldset label{margin-right:16px;cursor:pointer}
article.param{border:1px solid var(--line);border-radius:6px;padding:10px 12px;margin:10px 0}
.sample{border-top:1px solid var(--line);margin-top:8px}.shots{display:flex;flex-wrap:wrap;gap:12px}
figure{margin:0;width:324px}figcaption{font-size:.85rem;color:var(--muted)}
figure img{width:320px;max-width:100%;height:auto;border:2px solid var(--line)}
.missing{width:320px;padding:24px 8px;border:2px dashed var(--line);color:var(--muted)}
.facts{display:flex;flex-wrap:wrap;gap:0 24px}
.reason{color:var(--muted);margin:2px 0;overflow-wrap:anywhere}[hidden]{display:none!important}
"""

_SCRIPT = """
(() => {
  const box = document.getElementById("filter");
  const status = document.getElementById("filter-status");
  const items = document.querySelectorAll("[data-verdict]");
  box.hidden = false;
  const update = () => {
    const shown = new Set([...box.querySelectorAll("input:checked")].map((i) => i.value));
    let rows = 0, total = 0;
    for (const item of items) {
      const on = shown.has(item.dataset.verdict);
      item.hidden = !on;
      if (item.tagName === "TR") { total += 1; rows += on ? 1 : 0; }
    }
    status.textContent = `Showing ${rows} of ${total} parameters.`;
  };
  box.addEventListener("change", update);
  update();
})();
"""


def _e(value: object) -> str:
    return html.escape(str(value), quote=True)


def _digest(text: str) -> str:
    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode()).digest()).decode() + "'"


def verdict_class(verdict: ParamVerdict) -> str:
    """How the report groups a parameter: ``neutral``, ``non-neutral`` or ``undecided``.

    Undecided is non-neutral with a recorded reason and no sample that showed a change:
    kept because it could not be proven neutral, not because a change was seen. A parameter
    the joint check kept is non-neutral: dropping it together with others changed the page.

    >>> verdict_class(ParamVerdict("non-neutral", 1, 0, 3, reason="only 1 successful sample"))
    'undecided'
    >>> verdict_class(ParamVerdict("non-neutral", 3, 2, 0))
    'non-neutral'
    >>> verdict_class(ParamVerdict("non-neutral", 4, 0, 0, reason="joint check: needed once x"))
    'non-neutral'
    """
    if (
        verdict.verdict == "non-neutral"
        and verdict.reason
        and verdict.changed == 0
        and not verdict.reason.startswith("joint check:")
    ):
        return "undecided"
    return verdict.verdict


@dataclass(frozen=True, slots=True)
class _Run:
    folder: Path
    learned: LearnedSet
    stats: Mapping[str, Any]
    pairs: Mapping[tuple[str, str], Mapping[str, Any]]


def _read_run(folder: Path) -> _Run:
    if not folder.is_dir():
        raise ConfigError(f"{folder}: not a run folder (no such directory)")
    learned_path = folder / "learned.json"
    if not learned_path.is_file():
        hint = (
            " (only learned.refused.json: the gate refused it)"
            if (folder / "learned.refused.json").exists()
            else ""
        )
        raise ConfigError(f"{folder}: not a run folder: it has no learned.json{hint}")
    try:
        learned = load_learned(learned_path)
    except LearnedFormatError as exc:
        raise ConfigError(str(exc)) from exc
    stats: Mapping[str, Any] = {}
    try:
        loaded = json.loads((folder / "stats.json").read_text(encoding="utf-8"))
        stats = loaded if isinstance(loaded, dict) else {}
    except (OSError, ValueError, RecursionError):
        logger.warning("%s: no readable stats.json; totals are left out", folder)
    return _Run(folder, learned, stats, _read_pairs(folder / "checkpoint.jsonl"))


def _read_pairs(path: Path) -> dict[tuple[str, str], Mapping[str, Any]]:
    """The checkpoint's comparisons by (original, candidate); a later line wins."""
    pairs: dict[tuple[str, str], Mapping[str, Any]] = {}
    try:
        with open(path, encoding="utf-8") as handle:
            for line in handle:
                try:
                    pair = json.loads(line)["pair"]
                    pairs[(str(pair["original"]), str(pair["candidate"]))] = pair
                except (ValueError, KeyError, TypeError, RecursionError):
                    continue  # a torn last line of an interrupted run, or a hostile one
    except OSError:
        logger.warning("%s: no checkpoint; the report shows verdicts without evidence", path)
    return pairs


class _Images:
    """Copies the evidence images the report shows into ``OUT/evidence/``."""

    def __init__(self, run: Path, out: Path) -> None:
        self.source = run / "evidence"
        self.target = out / "evidence"
        self.copied: set[str] = set()

    def link(self, relative: object) -> str | None:
        """The report-relative path of an evidence image, or ``None`` if it was not kept."""
        if not isinstance(relative, str):
            return None
        folder, _, name = relative.partition("/")
        if folder != "evidence" or not _SAFE_NAME.fullmatch(name):
            return None  # never follow a path out of the evidence folder
        src = self.source / name
        if not src.is_file():
            return None
        if name not in self.copied:
            self.target.mkdir(parents=True, exist_ok=True)
            dst = self.target / name
            if src.resolve() != dst.resolve():
                shutil.copyfile(src, dst)
            self.copied.add(name)
        return f"evidence/{name}"


def _badge(kind: str) -> str:
    return f'<span class="badge v-{_e(kind)}">{_e(kind)}</span>'


def _table(caption: str, heads: Iterable[str], rows: Iterable[str]) -> str:
    """A table whose first column heads its rows; ``caption`` is HTML, the rest is text."""
    cols = "".join(f'<th scope="col">{_e(h)}</th>' for h in heads)
    body = "".join(rows)
    head = f"<caption>{caption}</caption><thead><tr>{cols}</tr></thead>"
    return f"<table>{head}<tbody>{body}</tbody></table>"


def _row(head: str, cells: Iterable[str], verdict: str | None = None) -> str:
    """A table row: ``head`` and ``cells`` are HTML already escaped."""
    tag = f'<tr data-verdict="{verdict}">' if verdict else "<tr>"
    return f'{tag}<th scope="row">{head}</th>' + "".join(f"<td>{c}</td>" for c in cells) + "</tr>"


def _code(value: object) -> str:
    return f"<code>{_e(value)}</code>"


def _number(unit: str, value: object) -> str:
    if not isinstance(value, (int, float)):
        return "n/a"
    if unit == "flag":
        return "yes" if value else "no"
    if unit == "share":
        return f"{value:.1%}"
    shown = str(int(value)) if float(value).is_integer() else f"{value:.3g}"
    return f"{shown} {unit}"


def _figure(images: _Images, path: object, caption: str, alt: str) -> str:
    link = images.link(path)
    body = (
        '<div class="missing">not kept (no image, or over the evidence budget)</div>'
        if link is None
        else f'<img src="{_e(link)}" alt="{_e(alt)}" width="320">'
    )
    return f"<figure>{body}<figcaption>{_e(caption)}</figcaption></figure>"


def _measures(evidence: Mapping[str, Any]) -> str:
    distances, noise = evidence.get("distances") or {}, evidence.get("noise") or {}
    if not isinstance(distances, dict) or not isinstance(noise, dict) or not (distances or noise):
        return ""
    names = [n for n in _MEASURES if n in distances or n in noise]
    names += sorted(str(n) for n in {*distances, *noise} if n not in _MEASURES)
    rows = []
    for name in names:
        label, unit, noise_unit = _MEASURES.get(name, (name, "", ""))
        cells = [_number(unit, distances.get(name)), _number(noise_unit, noise.get(name))]
        rows.append(_row(_e(label), cells))
    heads = ["measure", "distance (outside the noise)", "noise (original vs itself)"]
    return _table("Measurements", heads, rows)


def _two(values: object) -> tuple[object, object]:
    if isinstance(values, list) and len(values) == 2:
        return values[0], values[1]
    return "n/a", "n/a"


def _urls(url: str, candidate: str, evidence: Mapping[str, Any]) -> str:
    finals, statuses = _two(evidence.get("final_url")), _two(evidence.get("status"))
    rows = (
        _row(label, [_code(asked), _code(finals[i]), _e(statuses[i])])
        for i, (label, asked) in enumerate((("original", url), ("candidate", candidate)))
    )
    return _table("Requested and final URLs", ["page", "requested", "final URL", "status"], rows)


def _sample(
    run: _Run, images: _Images, number: int, sample: Mapping[str, Any], without: str
) -> str:
    url, candidate = str(sample.get("url", "")), str(sample.get("candidate", ""))
    pair = run.pairs.get((url, candidate), {})
    outcome = str(pair.get("outcome", sample.get("outcome", "unknown")))
    evidence = _dict(pair.get("evidence"))
    reason = str(pair.get("reason") or ("" if pair else "no comparison in the checkpoint"))
    label = "error" if outcome == "failed" else "why"
    parts = [f'<div class="sample"><h5>Sample {number}: {_badge(outcome)}</h5>']
    if reason:
        parts.append(f'<p class="reason"><strong>{label}:</strong> {_e(reason)}</p>')
    if evidence:
        shots = [
            _figure(images, evidence.get("original_thumb"), "original", f"Original page {url}"),
            _figure(
                images, evidence.get("candidate_thumb"), without, f"Page {without}: {candidate}"
            ),
        ]
        if outcome != "same":
            alt = f"Difference overlay of {url} against {candidate}; differing regions in red"
            shots.append(_figure(images, evidence.get("difference"), "difference (red)", alt))
        parts.append(f'<div class="shots">{"".join(shots)}</div>')
    parts.append(f'<div class="facts">{_urls(url, candidate, evidence)}{_measures(evidence)}</div>')
    return "".join(parts) + "</div>"


def _param(run: _Run, images: _Images, anchor: str, name: str, verdict: ParamVerdict) -> str:
    kind = verdict_class(verdict)
    found = verdict.extra.get("samples")
    samples = [s for s in found if isinstance(s, dict)] if isinstance(found, list) else []
    parts = [
        f'<article class="param" id="{anchor}" data-verdict="{kind}">',
        f"<h4>{_code(name)} {_badge(kind)}</h4>",
        f"<p>tested {verdict.tested}, changed {verdict.changed}, failed {verdict.failed}</p>",
    ]
    if verdict.reason:
        parts.append(f'<p class="reason"><strong>reason:</strong> {_e(verdict.reason)}</p>')
    parts.append(_coverage(verdict.extra.get("coverage")))
    parts += [_sample(run, images, i, s, f"without {name}") for i, s in enumerate(samples, 1)]
    if not samples:
        parts.append("<p>No samples recorded.</p>")
    parts.append(_default_values(run, images, name, verdict))
    return "".join(parts) + "</article>"


def _default_values(run: _Run, images: _Images, name: str, verdict: ParamVerdict) -> str:
    """Each value tested as a default: learned ones, then rejected ones, with their samples."""
    tested: list[tuple[str, str, Mapping[str, Any]]] = [
        (value, "default", {**found.extra, **found.to_json()})
        for value, found in sorted(verdict.defaults.items())
    ]
    rejected = _dict(verdict.extra.get("rejected_defaults"))
    tested += [(value, "kept", _dict(why)) for value, why in sorted(rejected.items())]
    parts = []
    for value, kind, found in tested:
        pair = _code(f"{name}={value}")
        parts.append(f'<div class="default"><h5>{pair} {_badge(kind)}</h5>')
        if "tested" in found:
            parts.append(
                f"<p>tested {_e(found.get('tested'))}, changed {_e(found.get('changed'))}, "
                f"failed {_e(found.get('failed'))}</p>"
            )
        if found.get("reason"):
            parts.append(f'<p class="reason"><strong>reason:</strong> {_e(found["reason"])}</p>')
        parts.append(_coverage(found.get("coverage")))
        samples = found.get("samples")
        listed = [s for s in samples if isinstance(s, dict)] if isinstance(samples, list) else []
        without = f"as normalised, without {name}"
        parts += [_sample(run, images, i, s, without) for i, s in enumerate(listed, 1)]
        parts.append("</div>")
    return "".join(parts)


def _coverage(found: object) -> str:
    """Which paths and companion values the successful samples covered."""
    if not isinstance(found, dict):
        return ""
    paths = found.get("paths")
    listed = ", ".join(_code(p) for p in paths) if isinstance(paths, list) and paths else "none"
    return (
        f'<p class="coverage">samples covered {_e(found.get("paths_tested"))} of '
        f"{_e(found.get('paths_seen'))} paths ({listed}) and "
        f"{_e(found.get('companions_tested'))} of {_e(found.get('companions_seen'))} "
        "combinations of the other parameters' values</p>"
    )


def _joint(run: _Run, checks: object) -> str:
    if not isinstance(checks, list) or not checks:
        return ""
    rows = []
    for check in (c for c in checks if isinstance(c, dict)):
        url, candidate = str(check.get("url", "")), str(check.get("candidate", ""))
        why = run.pairs.get((url, candidate), {}).get("reason", "")
        rows.append(
            _row(_code(candidate), [_code(url), _badge(str(check.get("outcome"))), _e(why)])
        )
    caption = "Joint checks: the sample URL reduced to the parameters kept"
    return _table(caption, ["reduced URL", "sample URL", "outcome", "why"], rows)


def _pattern(run: _Run, images: _Images, anchor: str, key: str, found: PatternEntry) -> str:
    ordered = sorted(found.params.items(), key=lambda nv: (_ORDER[verdict_class(nv[1])], nv[0]))
    rows = (
        _row(
            f'<a href="#{anchor}-{i}">{_code(n)}</a>',
            [
                _badge(verdict_class(v)),
                str(v.tested),
                str(v.changed),
                str(v.failed),
                _e(v.reason or ""),
            ],
            verdict_class(v),
        )
        for i, (n, v) in enumerate(ordered)
    )
    heads = ["parameter", "verdict", "tested", "changed", "failed", "reason"]
    parts = [
        f'<section id="{anchor}"><h3>Pattern {_code(key or "(none)")} ({found.urls} URLs)</h3>',
        _table(f"Parameters of {_code(key or '(none)')}", heads, rows),
        _joint(run, found.extra.get("joint_checks")),
        *(_param(run, images, f"{anchor}-{i}", n, v) for i, (n, v) in enumerate(ordered)),
    ]
    return "".join(parts) + "</section>"


def _dict(value: object) -> Mapping[str, Any]:
    return value if isinstance(value, dict) else {}


def _domain_keys(run: _Run) -> list[str]:
    return sorted({*run.learned.domains, *_dict(run.stats.get("domains"))})


def _overview(run: _Run, keys: list[str]) -> str:
    stats = _dict(run.stats.get("domains"))
    rows = []
    for i, key in enumerate(keys):
        entry, own = run.learned.domains.get(key), _dict(stats.get(key))
        patterns = entry.patterns.values() if entry else []
        kinds = [verdict_class(v) for p in patterns for v in p.params.values()]
        extra = entry.extra if entry else {}
        cells = [len(patterns), *(kinds.count(k) for k in _ORDER)]
        cells += [
            extra.get("renders", own.get("renders", "n/a")),
            own.get("render_failures", "n/a"),
        ]
        cells.append(extra.get("urls", own.get("urls", "n/a")))
        note = f'<br><span class="reason">{_e(own["error"])}</span>' if own.get("error") else ""
        rows.append(_row(f'<a href="#d{i}">{_e(key)}</a>{note}', [_e(c) for c in cells]))
    heads = ["domain", "patterns", *_ORDER, "renders", "render failures", "URLs"]
    return _totals(run) + _table("Domains", heads, rows)


def _totals(run: _Run) -> str:
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
    pairs = "".join(f"<dt>{_e(k)}</dt><dd>{_e(v)}</dd>" for k, v in items)
    return f'<dl class="totals">{pairs}</dl>'


def _filter() -> str:
    # Hidden until the script runs: without JavaScript everything shows and no dead controls do.
    boxes = "".join(
        f'<label><input type="checkbox" value="{k}" checked> {_badge(k)}</label>' for k in _ORDER
    )
    return (
        f'<fieldset id="filter" hidden><legend>Show parameters that are</legend>{boxes}'
        '<span id="filter-status" role="status" aria-live="polite"></span></fieldset>'
    )


def _body(run: _Run, images: _Images) -> str:
    keys = _domain_keys(run)
    parts = [f'<h2 id="overview">Overview</h2>{_overview(run, keys)}{_filter()}']
    for i, key in enumerate(keys):
        entry = run.learned.domains.get(key)
        patterns = sorted(entry.patterns.items(), key=lambda p: (-p[1].urls, p[0])) if entry else []
        parts.append(f'<section id="d{i}"><h2>{_e(key)}</h2>')
        parts += [_pattern(run, images, f"d{i}-p{j}", k, p) for j, (k, p) in enumerate(patterns)]
        parts.append("</section>" if patterns else "<p>No pattern was learned here.</p></section>")
    return "".join(parts)


def _page(title: str, body: str) -> str:
    policy = (
        f"default-src 'none'; img-src 'self' file:; style-src {_digest(_CSS)}; "
        f"script-src {_digest(_SCRIPT)}; base-uri 'none'; form-action 'none'"
    )
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        f'<meta http-equiv="Content-Security-Policy" content="{_e(policy)}">'
        '<meta name="referrer" content="no-referrer">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{_e(title)}</title><style>{_CSS}</style></head><body>"
        '<a class="skip" href="#overview">Skip to the overview</a>'
        f"<header><h1>{_e(title)}</h1></header><main>{body}</main>"
        f"<script>{_SCRIPT}</script></body></html>\n"
    )


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
    found = _read_run(Path(run))
    out = Path(out)
    title = "samepage learner report: " + (", ".join(sorted(found.learned.domains)) or "no domains")
    try:
        out.mkdir(parents=True, exist_ok=True)
        images = _Images(found.folder, out)
        index = out / "index.html"
        index.write_text(_page(title, _body(found, images)), encoding="utf-8")
    except OSError as exc:
        raise ConfigError(f"report folder {out}: {exc}") from exc
    logger.info("report: %s (%d evidence images)", index, len(images.copied))
    return index
