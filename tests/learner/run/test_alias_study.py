"""The alias study in real Chromium, on ``spell.test`` (:mod:`tests.site.alias_site`).

The study runs on the session's renderer, as :func:`learner.run.domain.learn_domain` runs it
after a domain's patterns: a sample whose render failed is replaced by another URL of its
context and never counts, and a pair of spellings that name two pages stays apart.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from learner.demo.server import SiteServer
from learner.judge.aliases import AliasFinding
from learner.net.fetch import FetchResult, fetch
from learner.net.limiter import HostLimiter
from learner.net.retries import RetryPolicy
from learner.net.robots import RobotsPolicy
from learner.render.renderer import Renderer
from learner.run.alias_study import AliasStudy, study_aliases
from learner.run.progress import Progress
from learner.run.sample_runner import SampleRunner, SiteCounters
from learner.run.store import RunStore
from samepage import MIQPSNormalizer
from samepage.learned import DomainEntry, LearnedSet
from tests.site.alias_site import ALIAS_LOG, HOST
from tests.site.learner_settings import SUITE_CONFIG

pytestmark = pytest.mark.browser


async def _study(renderer: Renderer, server: SiteServer, folder: Path) -> AliasStudy:
    async def plain(url: str) -> FetchResult:
        return await fetch(url, resolve=server.resolve(), user_agent="t", timeout_s=5)

    limiter = HostLimiter(delay_s=0.0, jitter_s=0.0, rng=random.Random(0))
    async with RunStore(folder, scope="s", evidence_budget_bytes=0) as store:
        runner = SampleRunner(
            SUITE_CONFIG,
            renderer,
            store,
            limiter,
            RobotsPolicy(plain, "t"),
            Progress(enabled=False),
            retry_policy=RetryPolicy(),
        )
        normalizer = MIQPSNormalizer()
        return await study_aliases(ALIAS_LOG, SUITE_CONFIG, runner, normalizer, SiteCounters(), 100)


async def test_a_failed_sample_is_replaced_and_two_pages_stay_apart(
    renderer: Renderer, render_server: SiteServer, tmp_path: Path
) -> None:
    study = await _study(renderer, render_server, tmp_path)
    found = {v.candidate.rule.describe(): v for v in study.account.verdicts}
    article = found["/index.php?title={value} -> /wiki/{value}"]
    # The log's first URL redirects to itself: its sample failed, a spare of the context
    # replaced it, and only the samples that rendered "same" count. Each control was tried
    # first against /wiki/Loop, which the site does not serve: a 404 differs from any page
    # by its status alone, so another title replaced it.
    assert article.finding is AliasFinding.LEARNED, article.reason
    assert article.replaced == 1 + article.controls == 4
    assert article.same == len(article.candidate.samples) == SUITE_CONFIG.min_samples
    assert f"http://{HOST}/index.php?title=Loop" in {s.url for s in article.candidate.samples}
    assert article.controls >= 1
    # A search shares its values with the topics but lists results: another page.
    search = found["/find?q={value} -> /topic/{value}"]
    assert search.finding is AliasFinding.APART and ": changed" in search.reason
    assert [rule.describe() for rule in study.rules] == [article.candidate.rule.describe()]
    learned = LearnedSet({HOST: DomainEntry(aliases=study.rules)})
    normalizer = MIQPSNormalizer(learned=learned)
    assert normalizer.same(f"http://{HOST}/index.php?title=Lake", f"http://{HOST}/wiki/Lake")
    assert not normalizer.same(f"http://{HOST}/index.php?title=Lake", f"http://{HOST}/wiki/Mill")
