"""What a parameter's samples showed: their outcomes, and the contexts they covered.

A verdict (neutral, or a default value) needs successful samples spread over the pattern's
contexts: its kinds of page (path templates, weighed by their share of the pattern's URLs),
its paths and the values of its other parameters. :func:`coverage` measures that spread,
:func:`coverage_gap` and :func:`share_gap` say what is missing.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from learner.judge.decision import HOPELESS_ORIGINAL, Cause
from learner.model import PairOutcome
from learner.plan.sampling import Context, PatternGroup, context_of, template_of, template_urls
from samepage import path_template

__all__ = ["Spread", "Tally", "coverage", "coverage_gap", "covered_share", "share_gap"]


@dataclass(slots=True)
class Tally:
    """The outcomes of one parameter's (or value's) samples so far."""

    tested: int = 0
    changed: int = 0
    failed: int = 0
    hopeless: int = 0
    """Samples so far whose original could not be used, before any success."""
    reasons: list[str] = field(default_factory=list)
    samples: list[dict[str, Any]] = field(default_factory=list)
    contexts: list[Context] = field(default_factory=list)
    """The contexts of the successful samples."""
    templates: dict[str, dict[str, int]] = field(default_factory=dict)
    """Per path template of the samples: how many were tested, changed and failed."""

    def add(self, outcome: PairOutcome, context: Context) -> None:
        """Count one sample's outcome, tested in ``context``."""
        counts = self.templates.setdefault(
            path_template(context[0]), {"tested": 0, "changed": 0, "failed": 0}
        )
        counts["failed" if outcome.outcome == "failed" else "tested"] += 1
        counts["changed"] += outcome.outcome == "changed"
        if outcome.outcome == "failed":
            self.failed += 1
            if outcome.cause in HOPELESS_ORIGINAL and self.tested == 0:
                self.hopeless += 1
            if outcome.reason and outcome.reason not in self.reasons:
                self.reasons.append(outcome.reason)
        else:
            self.tested += 1
            self.changed += outcome.outcome == "changed"
            self.contexts.append(context)
        sample = {"url": outcome.original, "candidate": outcome.candidate}
        sample["outcome"] = outcome.outcome
        if outcome.cause == Cause.ARCHIVE:
            sample["from"] = "archive"
        self.samples.append(sample)


@dataclass(frozen=True, slots=True)
class Spread:
    """How many paths and companion values a pattern offers for one parameter.

    ``templates`` counts the pattern's distinct URLs per path template, most first.
    """

    paths: int
    companions: int
    templates: Mapping[str, int] = field(default_factory=dict)

    @classmethod
    def of(cls, group: PatternGroup, name: str, template: str | None = None) -> Spread:
        """The spread of ``group`` for the parameter ``name`` (on one ``template`` only)."""
        statics = [s for s in group.statics if template is None or template_of(s) == template]
        contexts = [context_of(static, name) for static in statics]
        urls = template_urls(group)
        if template is not None:
            urls = {template: urls.get(template, 0)}
        return cls(len({p for p, _ in contexts}), len({c for _, c in contexts}), urls)


def covered_share(templates: Mapping[str, int], tested: Sequence[str]) -> float:
    """The share of the URLs held by the templates in ``tested``.

    >>> covered_share({"/t": 49, "/t/{id}": 4}, ["/t/{id}"])
    0.075
    """
    total = sum(templates.values())
    covered = sum(templates.get(t, 0) for t in set(tested))
    # Rounded down: a share shown as 0.9 is never below 0.9.
    return math.floor(covered / total * 1000) / 1000 if total else 0.0


def coverage(tally: Tally, spread: Spread) -> dict[str, Any]:
    """The contexts the successful samples covered, against those the pattern offers.

    ``share`` is the share of the pattern's URLs whose template has a successful sample;
    ``templates`` gives, for each template sampled, its URLs and its samples' outcomes.
    """
    paths = sorted({path for path, _ in tally.contexts})
    tested = [t for t, counts in tally.templates.items() if counts["tested"]]
    return {
        "paths": paths[:5],
        "paths_tested": len(paths),
        "paths_seen": spread.paths,
        "companions_tested": len({c for _, c in tally.contexts}),
        "companions_seen": spread.companions,
        "share": covered_share(spread.templates, tested),
        "templates_seen": len(spread.templates),
        "templates": {
            t: {"urls": spread.templates.get(t, 0), **counts}
            for t, counts in sorted(tally.templates.items())
        },
    }


def share_gap(coverage: Mapping[str, Any], min_share: float) -> str:
    """Why the successful samples did not reach ``min_share`` of the pattern's URLs, if so."""
    share = float(coverage.get("share", 0.0))
    if share >= min_share:
        return ""
    return (
        f"successful samples were on templates holding {share:.1%} of the pattern's URLs; "
        f"{min_share:.0%} needed"
    )


def coverage_gap(
    coverage: Mapping[str, Any], least: int, kinds: Sequence[str] = ("paths", "companions")
) -> str:
    """Why the successful samples did not cover enough of the pattern's contexts, if so.

    ``kinds`` names what is checked: ``paths`` and ``companions`` (the values of the other
    parameters).
    """
    described = {"paths": "paths", "companions": "values of the other parameters"}
    for kind, what in ((k, described[k]) for k in kinds):
        need = min(least, coverage[f"{kind}_seen"])
        if coverage[f"{kind}_tested"] < need:
            return (
                f"successful samples covered {coverage[f'{kind}_tested']} of "
                f"{coverage[f'{kind}_seen']} {what}; {need} needed"
            )
    return ""
