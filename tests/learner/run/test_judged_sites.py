"""Changes seen in one way only, in real Chromium: a carried destination and pixel spots.

``wiki.test`` and ``spots.test`` (:mod:`tests.site.judged_sites`): a MediaWiki-like redirect
that keeps ``ref`` in the final URL is the same page without it; a 4x4-px spot that one
render catches at random is no change (nor proof of none); a spot whose colour a parameter
sets is a change, however small.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
import pytest_asyncio

from learner.demo.server import SiteServer
from learner.judge.verdicts import VerdictCause, cause_of
from learner.model import Cause
from learner.plan.targets import parse_target
from learner.render.browser import BrowserChoice
from learner.run.crawl import CrawlResult, crawl
from tests.site.judged_sites import SPOTS_HOST, WIKI_HOST, judged_sites, judged_urls
from tests.site.learner_settings import SUITE_CONFIG


@pytest.fixture(scope="module")
def judged_server() -> Iterator[SiteServer]:
    with SiteServer(judged_sites()) as server:
        yield server


@pytest_asyncio.fixture(loop_scope="session", scope="module")
async def judged_run(
    judged_server: SiteServer,
    browser_choice: BrowserChoice,
    tmp_path_factory: pytest.TempPathFactory,
) -> CrawlResult:
    folder = tmp_path_factory.mktemp("judged")
    return await crawl(
        [parse_target(f"http://{WIKI_HOST}"), parse_target(f"http://{SPOTS_HOST}")],
        config=SUITE_CONFIG,
        out=folder / "learned.json",
        cache=folder / "run",
        observed=judged_urls(),
        resolve=judged_server.resolve(),
        browser=browser_choice.executable,
    )


def _causes(run: CrawlResult, host: str) -> list[Cause | None]:
    (stats,) = [d for d in run.domains if d.key == host]
    return [o.cause for o in stats.counters.outcomes]


@pytest.mark.browser
def test_a_destination_that_only_carries_the_parameter_is_the_same_page(
    judged_run: CrawlResult,
) -> None:
    ref = judged_run.learned.domains[WIKI_HOST].patterns["ref"].params["ref"]
    assert (ref.verdict, cause_of(ref)) == ("neutral", VerdictCause.NO_CHANGE)
    assert Cause.CARRIED_DESTINATION in _causes(judged_run, WIKI_HOST)


@pytest.mark.browser
def test_a_pixel_spot_is_confirmed_before_it_counts(judged_run: CrawlResult) -> None:
    patterns = judged_run.learned.domains[SPOTS_HOST].patterns
    # The spot one render caught fails its sample; the other samples decide ref.
    ref = patterns["ref"].params["ref"]
    assert (ref.verdict, cause_of(ref)) == ("neutral", VerdictCause.NO_CHANGE)
    assert [s.outcome for s in ref.samples or ()].count("failed") == 1
    assert Cause.UNCONFIRMED in _causes(judged_run, SPOTS_HOST)
    # A spot a parameter sets, in both renders of the candidate, is a change.
    tone = patterns["tone"].params["tone"]
    assert (tone.verdict, cause_of(tone)) == ("non-neutral", VerdictCause.CHANGED)
