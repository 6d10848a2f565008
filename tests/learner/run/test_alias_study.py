"""The alias study in real Chromium, on ``spell.test`` (:mod:`tests.site.alias_site`).

The study runs on the session's renderer, as :func:`learner.run.domain.learn_domain` runs it
after a domain's patterns, whose samples are rendered first (one of ``/page.php``'s ``id``,
two of ``/doc.php``'s ``ref``): a sample whose render failed is replaced by another URL of
its context and never counts; a pair of spellings that name two pages stays apart; the
spellings the samples' pages pointed to propose a rule the log does not and choose the key.
A plan of the log (DuckDB's, through its file) learns the same rules; a domain of a plan
file written before plans kept alias URLs says its study was skipped. Later studies resume
the first one's renders from the module's run folder.
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import random
from collections.abc import AsyncIterator, Callable, Sequence
from pathlib import Path

import pytest
import pytest_asyncio

from learner.demo.server import SiteServer
from learner.judge.aliases import AliasFinding, AliasVerdict
from learner.net.fetch import FetchResult, fetch
from learner.net.limiter import HostLimiter
from learner.net.retries import RetryPolicy
from learner.net.robots import RobotsPolicy
from learner.plan.alias_hints import spelling_hints
from learner.plan.aliases import alias_candidates
from learner.plan.domains import DomainPlan, PlanSettings
from learner.plan.files import read_plan, write_plan
from learner.plan.logs import plan_files
from learner.plan.sampling import MAX_ALIAS_URLS
from learner.plan.targets import parse_target
from learner.render.renderer import Renderer
from learner.run.alias_study import (
    NO_ALIAS_URLS,
    PARTIAL_ALIAS_URLS,
    AliasStudy,
    study_aliases,
)
from learner.run.domain import DomainRun, DomainStats, learn_domain
from learner.run.progress import Progress
from learner.run.sample_runner import PatternPages, SampleRunner, SiteCounters
from learner.run.store import RunStore
from samepage import MIQPSNormalizer
from samepage.learned import DomainEntry, LearnedSet
from tests.plugins.engines import engine
from tests.site.alias_site import ALIAS_LOG, HOST, WWW_HOST
from tests.site.learner_settings import SUITE_CONFIG

pytestmark = pytest.mark.browser

_H = f"http://{HOST}"
_PATTERN_SAMPLES = (
    (f"{_H}/page.php?id=Alder", f"{_H}/page.php"),
    (f"{_H}/doc.php?name=Elm&ref=mail", f"{_H}/doc.php?name=Elm"),
    (f"{_H}/doc.php?name=Fir&ref=mail", f"{_H}/doc.php?name=Fir"),
)
"""Samples of the domain's patterns, rendered before its alias study."""


@contextlib.asynccontextmanager
async def _domain_run(
    renderer: Renderer, server: SiteServer, folder: Path
) -> AsyncIterator[DomainRun]:
    """What a crawl's domains share, its checkpoint in ``folder`` (resumed, if it has one)."""

    async def plain(url: str) -> FetchResult:
        return await fetch(url, resolve=server.resolve(), user_agent="t", timeout_s=5)

    limiter = HostLimiter(delay_s=0.0, jitter_s=0.0, rng=random.Random(0))
    robots = RobotsPolicy(plain, "t")
    progress = Progress(enabled=False)
    async with RunStore(folder, scope="s", evidence_budget_bytes=0) as store:
        runner = SampleRunner(
            SUITE_CONFIG, renderer, store, limiter, robots, progress, retry_policy=RetryPolicy()
        )
        yield DomainRun(SUITE_CONFIG, runner, robots, limiter, MIQPSNormalizer(), progress)


async def _study(run: DomainRun, urls: Sequence[str]) -> tuple[AliasStudy, SiteCounters]:
    counters = SiteCounters()
    pages = PatternPages(run.runner, counters)
    for original, candidate in _PATTERN_SAMPLES:
        await run.runner.compare_urls(pages, counters, original, candidate)
    covers = parse_target(_H).covers
    study = await study_aliases(
        urls, SUITE_CONFIG, run.runner, run.normalizer, counters, 200, covers=covers
    )
    return study, counters


@pytest.fixture(scope="module")
def study_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The run folder of the module's studies: a later study resumes the renders it holds."""
    return tmp_path_factory.mktemp("alias-study")


@pytest_asyncio.fixture(loop_scope="session", scope="module")
async def studied(
    renderer: Renderer, render_server: SiteServer, study_folder: Path
) -> tuple[AliasStudy, SiteCounters]:
    async with _domain_run(renderer, render_server, study_folder) as run:
        return await _study(run, ALIAS_LOG)


_RunOpener = Callable[[], contextlib.AbstractAsyncContextManager[DomainRun]]


@pytest.fixture(scope="module")
def after_study(
    studied: tuple[AliasStudy, SiteCounters],
    renderer: Renderer,
    render_server: SiteServer,
    study_folder: Path,
) -> _RunOpener:
    """Opens a run on the run folder of the log's study, whose renders it resumes."""
    return functools.partial(_domain_run, renderer, render_server, study_folder)


@pytest.fixture(scope="module")
def alias_plan(tmp_path_factory: pytest.TempPathFactory) -> DomainPlan:
    """The plan of ``ALIAS_LOG`` made by DuckDB (``python -m learner plan``), read back."""
    engine("duckdb")
    folder = tmp_path_factory.mktemp("alias-plan")
    log = folder / "urls.txt"
    log.write_text("\n".join(ALIAS_LOG) + "\n")
    settings = PlanSettings.of(SUITE_CONFIG)
    out = str(folder / "plan.jsonl")
    write_plan(plan_files([parse_target(_H)], [str(log)], settings), out, settings)
    return read_plan(out)[1][HOST]


def _verdicts(study: AliasStudy) -> dict[str, AliasVerdict]:
    return {v.candidate.rule.describe(): v for v in study.account.verdicts}


def _learned(study: AliasStudy, rule: str) -> AliasVerdict:
    verdict = _verdicts(study)[rule]
    assert verdict.finding is AliasFinding.LEARNED, verdict.reason
    return verdict


def _one_key(study: AliasStudy, *pairs: tuple[str, str]) -> list[bool]:
    """Per pair of paths on the host, whether the learned rules give them one key."""
    normalizer = MIQPSNormalizer(learned=LearnedSet({HOST: DomainEntry(aliases=study.rules)}))
    return [normalizer.same(f"{_H}{a}", f"{_H}{b}") for a, b in pairs]


def test_a_failed_sample_is_replaced_and_two_pages_stay_apart(
    studied: tuple[AliasStudy, SiteCounters],
) -> None:
    study, _ = studied
    # The log's first URL redirects to itself: its sample failed, a spare of the context
    # replaced it, and only the samples that rendered "same" count. Each control was tried
    # first against /wiki/Loop, which the site does not serve: a 404 differs from any page
    # by its status alone, so another title replaced it.
    article = _learned(study, "/index.php?title={value} -> /wiki/{value}")
    assert article.replaced == 1 + article.controls == 4
    assert article.same == len(article.candidate.samples) == SUITE_CONFIG.min_samples
    assert f"{_H}/index.php?title=Loop" in {s.url for s in article.candidate.samples}
    # A search shares its values with the topics but lists results: another page.
    search = _verdicts(study)["/find?q={value} -> /topic/{value}"]
    assert search.finding is AliasFinding.APART and ": changed" in search.reason
    assert _one_key(
        study,
        ("/index.php?title=Lake", "/wiki/Lake"),
        ("/index.php?title=Lake", "/wiki/Mill"),
        ("/find?q=Mill", "/topic/Mill"),
    ) == [True, False, False]


def test_where_pages_point_proposes_rules_and_chooses_the_key(
    studied: tuple[AliasStudy, SiteCounters],
) -> None:
    study, counters = studied
    hints = spelling_hints(counters.outcomes, MIQPSNormalizer())
    pointed = {(h.url, h.target, h.how) for h in hints}
    assert (f"{_H}/page.php?id=Alder", f"{_H}/pages/Alder", "canonical") in pointed
    assert (f"{_H}/doc.php?name=Elm&ref=mail", f"{_H}/docs/Elm", "redirect") in pointed
    # The log alone keys the pages by /page.php (its commonest spelling) and never pairs
    # /doc.php with /docs, which it does not hold.
    logged = {c.rule.describe() for c in alias_candidates(ALIAS_LOG, MIQPSNormalizer())}
    assert "/pages/{value} -> /page.php?id={value}" in logged
    assert not any(rule.startswith("/doc.php") for rule in logged)
    # The pages' canonical links and the documents' redirects choose the key; renders proved
    # both rules, with controls.
    for rule, kind in (
        ("/page.php?id={value} -> /pages/{value}", "canonical link"),
        ("/doc.php?name={value} -> /docs/{value}", "redirect"),
    ):
        verdict = _learned(study, rule)
        assert kind in verdict.candidate.hint and verdict.controls >= 1
    assert _one_key(
        study,
        ("/page.php?id=Cedar", "/pages/Cedar"),
        ("/doc.php?name=Hazel&ref=mail", "/docs/Hazel?ref=mail"),
        ("/page.php?id=Cedar", "/pages/Alder"),
        ("/doc.php?name=Hazel", "/docs/Elm"),
    ) == [True, True, False, False]


def test_a_default_document_is_its_folder_and_another_folder_differs(
    studied: tuple[AliasStudy, SiteCounters],
) -> None:
    study, _ = studied
    folder = _learned(study, "/{value}/index.html -> /{value}")
    assert folder.candidate.hint == "index.html is the default document of its folder"
    assert folder.same >= SUITE_CONFIG.min_samples and folder.controls >= 1
    assert _one_key(
        study,
        ("/tour/index.html", "/tour/"),
        ("/faq/index.html?from=menu", "/faq/?from=menu"),
        ("/tour/index.html", "/faq/"),
    ) == [True, True, False]


def test_a_www_host_sent_to_the_bare_host_is_learned_as_one_site(
    studied: tuple[AliasStudy, SiteCounters],
) -> None:
    # Every page of www.spell.test redirects to spell.test: the renders follow the redirect
    # (both hosts are the studied domain's), and the pages prove the host alias.
    study, _ = studied
    verdict = _learned(study, f"{WWW_HOST} -> {HOST}")
    assert verdict.same >= 3 and verdict.controls >= 1
    normalizer = MIQPSNormalizer(learned=LearnedSet({HOST: DomainEntry(aliases=study.rules)}))
    assert normalizer.same(f"http://{WWW_HOST}/wiki/Mill", f"{_H}/wiki/Mill")
    assert normalizer.same(f"http://{WWW_HOST}/index.php?title=Mill", f"{_H}/wiki/Mill")
    assert not normalizer.same(f"http://{WWW_HOST}/wiki/Mill", f"{_H}/wiki/Tower")


def test_the_root_and_its_default_document_are_one_page_and_not_every_page(
    studied: tuple[AliasStudy, SiteCounters],
) -> None:
    # The root is served as /index.html: learned, its control another page of the host.
    study, _ = studied
    _learned(study, "/index.html -> /")
    assert _one_key(study, ("/index.html", "/"), ("/index.html", "/wiki/Mill")) == [True, False]
    # /index.php is the articles' page, not the root: its samples keep the two apart.
    assert _verdicts(study)["/index.php -> /"].finding is AliasFinding.APART


@pytest.mark.asyncio(loop_scope="session")
async def test_a_study_resumed_from_its_checkpoint_finds_the_same_without_rendering_it_again(
    studied: tuple[AliasStudy, SiteCounters], after_study: _RunOpener
) -> None:
    first, before = studied
    async with after_study() as run:
        again, counters = await _study(run, ALIAS_LOG)
    found = [(v.candidate.ends, v.finding, v.same, v.controls) for v in again.account.verdicts]
    assert found == [
        (v.candidate.ends, v.finding, v.same, v.controls) for v in first.account.verdicts
    ]
    assert again.rules == first.rules
    assert counters.resumed >= before.comparisons - 2, (counters.resumed, before.comparisons)
    assert counters.renders <= before.renders // 4


async def test_a_plan_of_the_log_learns_the_same_aliases(
    studied: tuple[AliasStudy, SiteCounters], after_study: _RunOpener, alias_plan: DomainPlan
) -> None:
    # The plan, read as crawl --plan and the Ray actors read it, carries the log's distinct
    # URLs: its study learns what the log's does, though it samples the URLs in another
    # order (the plan's, by static URL).
    urls = alias_plan.alias_urls
    assert urls is not None and set(urls) == set(ALIAS_LOG) and list(urls) != list(ALIAS_LOG)
    async with after_study() as run:
        planned, counters = await _study(run, urls)
    study, _ = studied
    assert _findings(planned) == _findings(study)
    rules = sorted(rule.describe() for rule in planned.rules)  # their evidence is their samples'
    assert rules == sorted(rule.describe() for rule in study.rules) and len(rules) == 6
    assert counters.resumed > 0  # the pages the log's study rendered were not rendered again


def _findings(study: AliasStudy) -> dict[str, AliasFinding]:
    return {rule: verdict.finding for rule, verdict in _verdicts(study).items()}


async def test_a_domain_of_a_plan_studies_its_alias_urls_and_one_without_says_so(
    after_study: _RunOpener, alias_plan: DomainPlan
) -> None:
    # learn_domain, as crawl --plan and the Ray actors run it (here without patterns).
    plan = dataclasses.replace(alias_plan, groups=())
    accounts = {}
    async with after_study() as run:
        kept = plan.alias_urls or ()
        sample = (*kept, *(f"{_H}/topic/T{n}" for n in range(MAX_ALIAS_URLS + 1 - len(kept))))
        cases = (("kept", kept), ("written before", None), ("a sample", sample))
        for name, urls in cases:
            stats = DomainStats(HOST)
            aliased = dataclasses.replace(plan, alias_urls=urls)
            assert await learn_domain(run, parse_target(_H), aliased, None, stats) is None
            accounts[name] = stats.aliases
    assert {v.candidate.rule.describe() for v in accounts["kept"].verdicts} >= {
        "/index.php?title={value} -> /wiki/{value}",
        f"{WWW_HOST} -> {HOST}",
    }
    old = accounts["written before"]
    assert (old.verdicts, old.renders, old.bound) == ((), 0, NO_ALIAS_URLS)
    assert "the plan file holds no alias URLs" in old.describe()
    # A domain with more distinct URLs than a plan holds: contexts may lie outside the sample.
    partial = accounts["a sample"]
    assert (partial.verdicts, partial.renders, partial.bound) == ((), 0, PARTIAL_ALIAS_URLS)
