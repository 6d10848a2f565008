"""A static HTML report of one run folder: every verdict next to the evidence behind it.

The report is one ``index.html`` plus the evidence images it shows, copied into
``OUT/evidence/``. It opens from disk in any browser: styles and the small filter script are
inline, links are relative, and a Content-Security-Policy forbids fetching anything else.
Everything read from the run folder (URLs, parameter names, page text quoted in reasons)
is escaped; image paths are reduced to a bare file name under ``evidence/``.

This module puts the page together (:func:`write_report`): the overview
(:mod:`learner.report.overview`), then each domain's patterns (:mod:`learner.report.patterns`),
its shared evidence, aliases and listed names.
"""

from __future__ import annotations

import logging
from pathlib import Path

from learner.errors import ConfigError
from learner.report.aliases import alias_study_section, aliases_section
from learner.report.listed import listed_section
from learner.report.overview import _filter, _overview
from learner.report.page import escape, page
from learner.report.patterns import _pattern, _scopes, verdict_class
from learner.report.run_stats import _dict, _domain_keys
from learner.run.folder import ReportImages, RunFolder, read_run_folder
from samepage.files import write_text_atomic
from samepage.learned import pattern_conflicts

logger = logging.getLogger(__name__)

__all__ = ["verdict_class", "write_report"]


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
