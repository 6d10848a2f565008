"""A pattern's section of the report: its parameters, each with its reason, samples and defaults.

Also the verdicts per path template, the conflicts with other patterns and the joint checks.
"""

from __future__ import annotations

from collections.abc import Mapping

from learner.judge.verdicts import cause_of
from learner.report.coverage import _coverage
from learner.report.page import badge, code, escape, row, table
from learner.report.samples import _samples
from learner.run.folder import ReportImages, RunFolder
from samepage import ParamVerdict, PatternConflict, PatternEntry, TemplateScope
from samepage.learned import DefaultValue, RejectedDefault, Sample

__all__ = ["CLASS_ORDER", "verdict_class"]

CLASS_ORDER = {"non-neutral": 0, "unproven": 1, "neutral": 2}
"""The report's groups of parameters, in the order it lists them."""


def verdict_class(verdict: ParamVerdict) -> str:
    """How the report groups a parameter: ``neutral``, ``non-neutral`` or ``unproven``.

    Unproven is non-neutral without a cause that rests on evidence (a set written without
    causes reads so): kept because it could not be proven neutral, not because a change
    was seen (a comparison's "undecided", too noisy to judge, is one such cause). A
    parameter the joint check kept is non-neutral: dropping it together with others changed
    the page.

    >>> verdict_class(ParamVerdict("non-neutral", 1, 0, 3, reason="only 1 successful sample"))
    'unproven'
    >>> from samepage.learned import VerdictCause
    >>> verdict_class(ParamVerdict("non-neutral", 3, 2, 0, cause=VerdictCause.CHANGED))
    'non-neutral'
    >>> joint = ParamVerdict("non-neutral", 4, 0, 0, cause=VerdictCause.JOINT_CHECK)
    >>> verdict_class(joint)
    'non-neutral'
    """
    if verdict.neutral or cause_of(verdict).decided:
        return verdict.verdict
    return "unproven"


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


def _default_values(run: RunFolder, images: ReportImages, name: str, verdict: ParamVerdict) -> str:
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
    ordered = sorted(
        found.params.items(), key=lambda nv: (CLASS_ORDER[verdict_class(nv[1])], nv[0])
    )
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
