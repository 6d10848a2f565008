"""One value tested as a default on its samples: the trial, and why a value was rejected.

A trial stops at the first sample that is not "same", or once the value is proven; the
samples must cover the contexts, path templates and companion values the normalizer will
drop the default in (:func:`_gap`, :func:`_cover`, shared with the joint check).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass

from learner.config import LearnerConfig
from learner.judge.classify import Compare
from learner.judge.rate import ANY_CHANGE
from learner.judge.tally import (
    Spread,
    Tally,
    companion_gap,
    coverage,
    coverage_gap,
    missing_classes,
    share_gap,
)
from learner.plan.picks import Cover
from learner.plan.sampling import Context, PatternGroup, Value
from samepage import DefaultValue
from samepage.learned import Coverage, RejectedDefault, Sample


@dataclass(frozen=True, slots=True)
class _Trial:
    """One value tested (or rejected on the parameter test's evidence)."""

    value: str
    default: DefaultValue | None
    why: RejectedDefault | None = None
    """The evidence and reason of a rejection (``None`` for a default)."""

    @property
    def samples(self) -> tuple[Sample, ...]:
        """The samples the value was tested on (or rejected by)."""
        found = self.default if self.default is not None else self.why
        return (found.samples if found is not None else None) or ()


def _cover(spread: Spread, required: Collection[str], most: int) -> Cover:
    """What samples must cover of the ``required`` companions' values, up to ``most`` samples."""

    def missing(contexts: Sequence[Context]) -> dict[str, dict[Value, int]]:
        return missing_classes(contexts, [()] * len(contexts), spread, required)

    return Cover(missing, spread.class_of, most)


def _gap(found: Coverage, config: LearnerConfig, required: Collection[str]) -> str:
    """What the samples of a value still lack: contexts, templates or companion values.

    The normalizer drops a default from every URL of the pattern, so, as for a neutral
    verdict, the templates it was shown on must hold most of the pattern's URLs, and the
    values of the kept companions (``required``) beside it too.
    """
    return (
        coverage_gap(found, config.min_contexts)
        or share_gap(found, config.min_share)
        or companion_gap(found, required, config.min_share)
    )


async def _test_value(
    name: str,
    value: str,
    group: PatternGroup,
    samples: list[tuple[str, Context]],
    templates: int,
    candidate: Callable[[str], str],
    config: LearnerConfig,
    compare: Compare,
    required: Collection[str],
) -> _Trial:
    """Test one value on its samples; stop at the first sample that is not "same".

    Testing also ends once the value is proven: ``min_samples`` samples came out the same,
    covering the contexts the rules ask for and every path template the samples start with
    (``templates``); each further sample would cost about two renders.
    """
    tally = Tally()
    spread = Spread.of(group, name, min_share=config.min_share, most_each=config.samples)
    for n, (url, context) in enumerate(samples, 1):
        outcome = await compare(url, candidate(url))
        tally.add(outcome, context)
        if outcome.outcome != "same":
            break
        proven = tally.tested >= config.min_samples and n >= templates
        if proven and not _gap(coverage(tally, spread), config, required):
            break
    found = coverage(tally, spread)
    recorded = tuple(tally.samples)
    reason = ""
    if ANY_CHANGE.changed(tally.changed, tested=tally.tested):
        reason = "the page changed without the parameter"
    elif tally.failed:
        reason = "a sample could not be decided (" + "; ".join(tally.reasons[:3]) + ")"
    elif tally.tested < config.min_samples:
        reason = f"only {tally.tested} context(s) with this value; {config.min_samples} needed"
    else:
        reason = _gap(found, config, required)
    if reason:
        why = RejectedDefault(reason, recorded, found, tally.tested, tally.changed, tally.failed)
        return _Trial(value, None, why)
    return _Trial(value, DefaultValue(tally.tested, 0, 0, samples=recorded, coverage=found))
