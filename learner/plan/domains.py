"""Plans: the patterns and sample URLs of each domain, and the in-memory plan of a URL list.

A plan says what a crawl studies on each domain: the patterns that cover its URLs
(:mod:`learner.plan.coverage`) and their URLs, and a bounded sample of its distinct URLs,
with and without parameters, for its alias study (:func:`~learner.plan.sampling.alias_sample`).
It is made from an observed-URL list held in memory (:func:`plan_urls`, what ``crawl --urls``
does) or from URL logs of any size through DuckDB (:mod:`learner.plan.logs`, ``python -m learner
plan``), and kept in a plan file (:mod:`learner.plan.files`). Both makers pick patterns and
samples with the same functions (:func:`~learner.plan.coverage.choose_groups`,
:mod:`learner.plan.sampling`), so they make the same plan.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field

from learner.config import LearnerConfig
from learner.plan.coverage import Choice, choose_groups
from learner.plan.picks import Picker
from learner.plan.sampling import (
    PatternGroup,
    alias_sample,
    group_by_pattern,
    sample_seed,
    url_parts,
)
from learner.plan.targets import Target
from samepage import InvalidURL, MIQPSNormalizer, host_and_port, host_suffixes

__all__ = [
    "Covering",
    "DomainPlan",
    "PlanSettings",
    "observed_line",
    "plan_urls",
    "studied_urls",
]


@dataclass(frozen=True, slots=True)
class PlanSettings:
    """The method settings a plan is made with: the patterns' cap, samples, seed, share.

    ``cover`` is the share of a domain's URLs with parameters the chosen patterns cover
    (:mod:`learner.plan.coverage`); ``top_patterns`` caps how many are chosen.
    """

    top_patterns: int
    samples: int
    seed: int
    cover: float = 0.95

    @classmethod
    def of(cls, config: LearnerConfig) -> PlanSettings:
        """The plan settings of a learner configuration."""
        return cls(config.top_patterns, config.samples, config.seed, config.cover)

    def choose(
        self, key: str, groups: dict[str, PatternGroup]
    ) -> tuple[list[PatternGroup], Choice]:
        """The groups a domain studies with these settings, and the choice they come from."""
        return choose_groups(
            groups, cover=self.cover, cap=self.top_patterns, seed=self.seed, domain=key
        )


@dataclass(frozen=True, slots=True)
class DomainPlan:
    """What a crawl studies on one domain.

    Attributes:
        key: the domain's learned-set key.
        urls: observed URLs of the domain, duplicates included.
        patterns_seen: distinct patterns among them.
        groups: the patterns studied, in the order they are studied.
        choice: the patterns studied and left, and the share of the URLs covered.
        alias_urls: the URLs its alias study mines (:func:`~learner.plan.sampling.alias_sample`);
            ``None`` for a plan file written before plans kept them.
    """

    key: str
    urls: int
    patterns_seen: int
    groups: tuple[PatternGroup, ...]
    choice: Choice = field(default_factory=Choice)
    alias_urls: tuple[str, ...] | None = None

    def samples(self, settings: PlanSettings) -> dict[str, dict[str, list[str]]]:
        """Pattern -> parameter -> sample URLs, as the crawl will choose them."""
        return {
            g.pattern: Picker.of(g, sample_seed(settings.seed, self.key, g.pattern)).first_picks(
                g.names, settings.samples
            )
            for g in self.groups
        }


class Covering:
    """Which targets cover a blocklist-normalised URL (``Target.covers``, by host lookup).

    Args:
        targets: the domains of the plan.
    """

    def __init__(self, targets: Sequence[Target]) -> None:
        self._by_host: dict[tuple[str, str], list[str]] = {}
        for target in targets:
            self._by_host.setdefault((target.host, target.port), []).append(target.key)

    def __call__(self, static: str) -> list[str]:
        """The keys of the targets that cover ``static`` (none for an unparsable URL)."""
        try:
            host, port = host_and_port(static)
        except InvalidURL:
            return []
        keys: list[str] = []
        for suffix in host_suffixes(host):
            keys.extend(self._by_host.get((suffix, port), ()))
        return keys


def observed_line(line: str | None) -> str | None:
    """A log line as the in-memory reader takes it: stripped; blank and ``#`` lines skipped.

    A UTF-8 byte order mark (a log's first line, or a file appended to another) is not part
    of the URL.
    """
    if line is None:
        return None
    line = line.lstrip("\ufeff")
    if line.startswith("#"):
        return None
    return line.strip() or None


def _covered(
    targets: Sequence[Target], lines: Iterable[str], norm: MIQPSNormalizer
) -> Iterator[tuple[str, list[str]]]:
    """Each observed URL a target covers, with the keys of the targets that cover it."""
    covering = Covering(targets)
    for line in lines:
        url = observed_line(line)
        if url is None:
            continue
        try:
            keys = covering(norm.static_url(url))
        except ValueError:
            continue
        if keys:
            yield url, keys


def studied_urls(
    targets: Sequence[Target], lines: Iterable[str], normalizer: MIQPSNormalizer | None = None
) -> list[str]:
    """The lines of an observed-URL log that a target covers, in log order.

    What ``crawl --urls`` keeps of a log as it streams it: the lines of other domains are
    never held. :func:`plan_urls` of these is :func:`plan_urls` of the whole log.
    """
    return [url for url, _ in _covered(targets, lines, normalizer or MIQPSNormalizer())]


def plan_urls(
    targets: Sequence[Target],
    urls: Iterable[str],
    settings: PlanSettings,
    normalizer: MIQPSNormalizer | None = None,
) -> list[DomainPlan]:
    """The plan of an observed-URL list held in memory, as ``crawl --urls`` makes it.

    Domains in key order; a domain without URLs has an empty plan.
    """
    norm = normalizer or MIQPSNormalizer()
    by_domain: dict[str, list[str]] = {t.key: [] for t in targets}
    for url, keys in _covered(targets, urls, norm):
        for key in keys:
            by_domain[key].append(url)
    plans = []
    for key in sorted(by_domain):
        urls = by_domain[key]
        groups = group_by_pattern(urls, norm)
        chosen, choice = settings.choose(key, groups)
        aliased = _alias_urls(urls, norm)
        plans.append(DomainPlan(key, len(urls), len(groups), tuple(chosen), choice, aliased))
    return plans


def _alias_urls(urls: Iterable[str], norm: MIQPSNormalizer) -> tuple[str, ...]:
    """The alias study's URLs of a domain: one shown URL per static (the smallest), sampled."""
    shown: dict[str, str] = {}
    for url in urls:
        parts = url_parts(url, norm)
        if parts is not None:
            _, static, seen = parts
            shown[static] = min(shown.get(static, seen), seen)
    return alias_sample(shown.items())
