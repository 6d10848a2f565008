"""One recorded sample as the report shows it: screenshots, measurements, URLs, archive captures."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from learner.model import SampleEvidence
from learner.report.page import badge, code, escape, number, row, table
from learner.report.run_stats import _dict
from learner.run.folder import ReportImages, RunFolder
from samepage.learned import Sample

# Measure -> (label, unit of the distance, unit of the noise); see docs/fingerprint.md.
_MEASURES = {
    "tiles": ("screen tiles", "share", "share"),
    "text_lines": ("text lines", "lines", "share"),
    "tile_hash_bits": ("largest tile phash distance", "bits", "bits"),
    "height_px": ("page height difference", "px", "px"),
    "title": ("title changed", "flag", "flag"),
}


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


def _samples(
    run: RunFolder, images: ReportImages, found: tuple[Sample, ...] | None, without: str
) -> list[str]:
    """Each recorded sample, in order, as :func:`_sample` shows it."""
    return [_sample(run, images, i, s, without) for i, s in enumerate(found or (), 1)]
