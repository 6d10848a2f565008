"""Default values: learned exactly where the page without the parameter is the same page.

``defaults.test`` (``tests/site/defaults.py``) has defaults of five kinds and two traps; the
learner runs on it in real Chromium, and the learned file must make the normalizer merge
the held-out default pairs and nothing else. The parts that need no browser are tested in
``tests/learner/judge/test_default_parts.py``.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio

from learner.demo.server import SiteServer
from learner.plan.targets import parse_target
from learner.render.browser import BrowserChoice
from learner.report.build import write_report
from learner.run.crawl import CrawlResult, crawl
from learner.run.diff import diff_learned
from samepage import MIQPSNormalizer
from tests.site.checks import assert_merges_only_same_pages, learned_defaults, verdicts
from tests.site.defaults import (
    DEFAULTS,
    DEFAULTS_HOST,
    DEFAULTS_TRUTH,
    defaults_different_pairs,
    defaults_site,
    defaults_urls,
    held_out_pairs,
    page_of,
)
from tests.site.learner_settings import SUITE_CONFIG

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def defaults_server() -> Iterator[SiteServer]:
    with SiteServer([defaults_site()]) as server:
        yield server


@pytest_asyncio.fixture(loop_scope="session", scope="module")
async def defaults_run(
    defaults_server: SiteServer,
    browser_choice: BrowserChoice,
    tmp_path_factory: pytest.TempPathFactory,
) -> CrawlResult:
    folder = tmp_path_factory.mktemp("defaults")
    return await crawl(
        [parse_target(f"http://{DEFAULTS_HOST}")],
        config=SUITE_CONFIG,
        out=folder / "learned.json",
        cache=folder / "run",
        observed=defaults_urls(),
        resolve=defaults_server.resolve(),
        browser=browser_choice.executable,
    )


def test_verdicts_and_defaults_are_exactly_the_truth(defaults_run: CrawlResult) -> None:
    # from&q holds 15 of the 220 URLs, and from&page&q has both names on /search: the
    # share is covered without it, and the shared evidence decides its URLs.
    studied = {key: truth for key, truth in DEFAULTS_TRUTH.items() if key != "from&q"}
    assert verdicts(defaults_run.learned)[DEFAULTS_HOST] == studied
    assert learned_defaults(defaults_run.learned, DEFAULTS_HOST) == DEFAULTS
    left = defaults_run.stats["domains"][DEFAULTS_HOST]["coverage"]["left"]
    assert left == [["from&q", 15, "share"]]
    norm = MIQPSNormalizer(learned=defaults_run.out)
    url = f"http://{DEFAULTS_HOST}/search?q=oak&from=nav"
    assert norm.normalize(url) == f"http://{DEFAULTS_HOST}/search?q=oak"


def test_the_traps_are_rejected_on_rendered_evidence(defaults_run: CrawlResult) -> None:
    patterns = defaults_run.learned.domains[DEFAULTS_HOST].patterns
    # page=1 where page 1 is not the overview the archive shows without a page.
    # Rejected in its own test, or already by the parameter's test when a page=1 sample
    # was among its samples: either way on a rendered change.
    archive = patterns["page&year"].params["page"].rejected_defaults["1"]
    assert (archive.reason or "").startswith("the page changed without the parameter")
    assert [s.outcome for s in archive.samples or ()][-1] == "changed"
    assert (archive.failed or 0) == 0
    # view=full is the page without view on /doc only: a sample on /manual changed.
    view = patterns["chapter&view"].params["view"].rejected_defaults["full"]
    assert view.changed == 1
    assert any("/manual?" in s.url and s.outcome == "changed" for s in view.samples or ())


def test_each_default_rests_on_same_samples_in_distinct_contexts(defaults_run: CrawlResult) -> None:
    patterns = defaults_run.learned.domains[DEFAULTS_HOST].patterns
    sort = patterns["cat&sort"].params["sort"].defaults["relevance"]
    assert sort.tested >= SUITE_CONFIG.min_samples and sort.failed == 0
    assert sort.coverage is not None and sort.coverage.paths == ("/catalog", "/deals")
    for key, params in DEFAULTS.items():
        for name, values in params.items():
            for value in values:
                found = patterns[key].params[name].defaults[value]
                samples = found.samples or ()
                assert found.tested == len(samples) >= SUITE_CONFIG.min_samples
                assert all(s.outcome == "same" for s in samples)
                assert len({s.url for s in samples}) == len(samples)


def test_two_defaults_are_checked_together_before_they_leave_a_url_together(
    defaults_run: CrawlResult,
) -> None:
    patterns = defaults_run.learned.domains[DEFAULTS_HOST].patterns
    joint = patterns["cat&page&sort"].joint_defaults
    assert joint is not None and joint.names == {"page", "sort"}
    samples = joint.samples or ()
    assert joint.tested == len(samples) == SUITE_CONFIG.joint_samples
    assert all("page=1" in s.url and "sort=new" in s.url for s in samples)
    assert all("page" not in s.candidate and "sort" not in s.candidate for s in samples)
    assert all(s.outcome == "same" for s in samples)
    # Patterns with one default have nothing to check together.
    assert all(p.joint_defaults is None for k, p in patterns.items() if k != "cat&page&sort")
    norm = MIQPSNormalizer(learned=defaults_run.out)
    url = f"http://{DEFAULTS_HOST}/list?sort=new&cat=beds&page=1"
    assert norm.normalize(url) == f"http://{DEFAULTS_HOST}/list?cat=beds"


def test_the_learned_file_merges_held_out_default_pairs_and_nothing_else(
    defaults_run: CrawlResult,
) -> None:
    assert len(held_out_pairs()) == 22
    assert_merges_only_same_pages(defaults_run.out, held_out_pairs(), defaults_different_pairs())
    # Nothing else: no two URLs of the log or of the pairs share a key unless they are one page.
    norm = MIQPSNormalizer(learned=defaults_run.out)
    urls = set(defaults_urls()) | set(itertools.chain.from_iterable(held_out_pairs()))
    urls |= set(itertools.chain.from_iterable(defaults_different_pairs()))
    pages: dict[str, set[tuple[str, ...]]] = {}
    for url in urls:
        pages.setdefault(norm.normalize(url), set()).add(page_of(url))
    assert all(len(p) == 1 for p in pages.values())
    # Before: the same parameters without their defaults merge none of the pairs.
    plain = MIQPSNormalizer(learned=_without_defaults(defaults_run.out))
    assert not any(plain.same(a, b) for a, b in held_out_pairs())


def _without_defaults(path: Path) -> dict[str, Any]:
    doc: dict[str, Any] = json.loads(path.read_text())
    for pattern in doc["domains"][DEFAULTS_HOST]["patterns"].values():
        pattern.pop("joint_defaults", None)
        for param in pattern["params"].values():
            param.pop("defaults", None)
    return doc


def test_explain_names_the_learned_default(defaults_run: CrawlResult) -> None:
    norm = MIQPSNormalizer(learned=defaults_run.out)
    trace = norm.explain(f"http://{DEFAULTS_HOST}/item?tab=description&id=30")
    tab = next(p for p in trace.params if p.name == "tab")
    assert not tab.kept and tab.rule == f"learned:{DEFAULTS_HOST}:id&tab:tab:default=description"


def test_the_new_defaults_are_the_dangerous_direction_for_the_gate(
    defaults_run: CrawlResult,
) -> None:
    before = MIQPSNormalizer(learned=_without_defaults(defaults_run.out)).learned
    assert before is not None
    diff = diff_learned(before, defaults_run.learned)
    assert sorted(f.param for f in diff.dangerous) == [
        "lang=en",
        "page&sort",
        "page=1",
        "page=1",
        "size=M",
        "sort=new",
        "sort=relevance",
        "tab=description",
    ]


async def test_a_rerun_resumes_every_default_test_from_the_checkpoint(
    defaults_run: CrawlResult,
    defaults_server: SiteServer,
    browser_choice: BrowserChoice,
    tmp_path: Path,
) -> None:
    again = await crawl(
        [parse_target(f"http://{DEFAULTS_HOST}")],
        config=SUITE_CONFIG,
        out=tmp_path / "learned.json",
        cache=defaults_run.run_folder,
        observed=defaults_urls(),
        resolve=defaults_server.resolve(),
        browser=browser_choice.executable,
    )
    assert again.stats["comparisons"] == 0 and again.stats["renders"] == 0
    assert (
        again.learned.domains[DEFAULTS_HOST].patterns
        == defaults_run.learned.domains[DEFAULTS_HOST].patterns
    )


def test_the_report_shows_each_default_with_its_evidence(
    defaults_run: CrawlResult, tmp_path: Path
) -> None:
    index = write_report(defaults_run.run_folder, tmp_path / "report")
    text = index.read_text(encoding="utf-8")
    assert '<code>sort=relevance</code> <span class="badge v-default">default</span>' in text
    assert '<code>page=1</code> <span class="badge v-kept">kept</span>' in text
    assert "the page changed without the parameter" in text
    joint = "<code>page</code> <code>sort</code> dropped together"
    assert f'{joint} <span class="badge v-together">together</span>' in text
