"""Default values the log rarely spells: found from the parameter test's own evidence.

``hidden.test`` (``tests/site/hidden_defaults_site.py``) links to ``lang=en``,
``tab=overview``, ``size=20`` and ``offset=0`` once or never, but each page without the
parameter marks its value as current. The fast tests check the parts (marks read as the
normaliser reads them, candidates from samples and marks, samples built from observed URLs);
the browser tests run the learner on the site in real Chromium.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
import pytest_asyncio

from learner.config import LearnerConfig
from learner.demo.server import SiteServer
from learner.judge import defaults
from learner.judge.classify import Compare
from learner.judge.defaults import (
    candidate_values,
    learn_defaults,
    marked_values,
    same_values,
)
from learner.model import PairOutcome, SampleEvidence
from learner.plan.picks import Picker
from learner.plan.sampling import PatternGroup, group_by_pattern, with_value
from learner.plan.targets import parse_target
from learner.render.browser import BrowserChoice
from learner.render.marks import MAX_MARKS, page_marks
from learner.run.crawl import CrawlResult, crawl
from samepage import MIQPSNormalizer, ParamVerdict, PatternEntry, path_template
from samepage.learned import Sample
from tests.site.checks import assert_merges_only_same_pages, learned_defaults
from tests.site.hidden_defaults_site import (
    HIDDEN_DEFAULTS,
    HIDDEN_HOST,
    hidden_different_pairs,
    hidden_held_out_pairs,
    hidden_site,
    hidden_urls,
    page_of,
)
from tests.site.learner_settings import SUITE_CONFIG


def _group(pattern: str) -> PatternGroup:
    return group_by_pattern(hidden_urls(), MIQPSNormalizer())[pattern]


def test_marks_are_read_as_the_normaliser_reads_them() -> None:
    page = "https://s.example/guide/3?topic=a"
    marks = page_marks(
        page,
        [
            "https://s.example/guide/3?topic=a&%6Cang=en",  # an escaped name
            "https://s.example/guide/3?topic=a",  # a value the page carries already
            "https://s.example/guide/4?lang=fr",  # another path
            "https://other.example/guide/3?lang=de",  # another host
            "https://s.example/guide/3?tab=a&tab=b",  # a parameter spelled twice
            "https://s.example/guide/3?utm_source=mail&size=%32%30",  # blocklist, escapes
            "not a URL",
        ],
    )
    assert marks == {"lang": ["en"], "size": ["20"]}
    many = [f"https://s.example/guide/3?v{n}=1" for n in range(MAX_MARKS + 10)]
    assert sum(map(len, page_marks(page, many).values())) == MAX_MARKS


def test_candidates_come_from_same_samples_then_marks_then_frequency() -> None:
    group = _group("lang")
    en = next(u for u in group.urls if "lang=en" in u)
    fr = next(u for u in group.urls if "lang=fr" in u)
    samples = (Sample(en, "", "same"), Sample(fr, "", "changed"))
    verdict = ParamVerdict("non-neutral", 2, 1, samples=samples)
    assert same_values(group, "lang", verdict) == ["en"]
    marks = [{"lang": ["en"]}, {"lang": ["es", "en"]}, {"tab": ["x"]}]
    assert marked_values(marks, "lang") == ["en", "es"]
    config = LearnerConfig(default_values=2)
    # The log spells en once: the frequent values alone never offer it.
    assert "en" not in candidate_values(group, "lang", config)
    found = candidate_values(group, "lang", config, ["en", "en", "es", "it"])
    assert found[:2] == ["en", "es"] and "it" not in found
    # A value never spelled in the log is offered when the evidence names it.
    assert candidate_values(_group("size"), "size", config, ["20"])[0] == "20"
    assert "20" not in candidate_values(_group("size"), "size", config)


def test_a_url_with_the_value_keeps_everything_else() -> None:
    url = "http://s.test/l/2?b=%62&SIZE=1&size=10&c#top"
    assert with_value(url, "size", "20") == "http://s.test/l/2?b=%62&SIZE=1&size=20&c#top"
    assert with_value("http://s.test/l?%73ize=10&q=a", "size", "20") == (
        "http://s.test/l?%73ize=20&q=a"
    )


def test_samples_of_a_rare_value_are_observed_urls_with_it_over_the_templates() -> None:
    group = _group("tab")
    picker = Picker.of(group, "seed")
    picks = [url for url, _ in picker.value_samples("tab", "overview", 4)[0]]
    assert len(picks) == 4 and all(u.endswith("?tab=overview") for u in picks)
    assert len({u.split("?")[0] for u in picks}) == 4
    observed = {u.split("?")[0] for u in group.urls}
    assert {u.split("?")[0] for u in picks} <= observed
    # The larger template first, then the other, whatever the seed.
    templates = [
        path_template(u.split("?")[0].removeprefix(f"http://{HIDDEN_HOST}")) for u in picks
    ]
    assert templates[:2] == ["/item/{id}", "/gift/{id}"]
    # Where the page without the parameter was rendered already, that context comes first.
    item = next(u for u in group.urls if "/item/" in u and "tab=overview" not in u)
    cheap, _ = picker.value_samples(
        "tab", "overview", 4, lambda u: int(not u.startswith(item.split("?")[0]))
    )
    assert cheap[0][0] == with_value(item, "tab", "overview")


def _site_compare(calls: list[tuple[str, str]]) -> Compare:
    """Outcomes from the site's truth; each page without a parameter marks the value it shows."""

    async def compare(original: str, candidate: str) -> PairOutcome:
        calls.append((original, candidate))
        same = page_of(original) == page_of(candidate)
        kind, _, shown = page_of(candidate)
        name = {"guide": "lang", "item": "tab", "gift": "tab", "list": "size"}.get(kind, "sort")
        marks = {name: ("new" if name == "sort" else shown,)}
        evidence = SampleEvidence(candidate_marks=marks)
        return PairOutcome(original, candidate, "same" if same else "changed", "", evidence)

    return compare


async def test_a_marked_value_is_learned_on_built_samples_and_a_wrong_mark_is_not() -> None:
    config = LearnerConfig(samples=4, min_samples=3)
    for pattern, value, default in (("size", "20", True), ("sort", "new", False)):
        group = _group(pattern)
        sample = group.urls[0]
        first = Sample(sample, sample.split("?")[0], "changed")
        verdict = ParamVerdict("non-neutral", 1, 1, samples=(first,))
        entry = PatternEntry(group.count, {pattern: verdict})
        calls: list[tuple[str, str]] = []
        learned = await learn_defaults(group, entry, config, _site_compare(calls), seed="s")
        found = learned.params[pattern]
        if default:
            assert set(found.defaults) == {value}
            proof = found.defaults[value]
            assert proof.samples is not None
            assert proof.tested == 3 and all(s.outcome == "same" for s in proof.samples)
            # The rendered page without the parameter is the first sample's candidate.
            assert proof.samples[0].candidate == first.candidate
        else:
            assert found.defaults == {}
            why = found.rejected_defaults[value]
            assert why.reason == "the page changed without the parameter"
            assert [s.outcome for s in why.samples or ()] == ["changed"]


async def test_without_evidence_the_rare_value_is_not_tested(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(defaults, "FROM_EVIDENCE", False)
    group = _group("size")
    sample = group.urls[0]
    first = Sample(sample, sample.split("?")[0], "changed")
    entry = PatternEntry(group.count, {"size": ParamVerdict("non-neutral", 1, 1, samples=(first,))})
    learned = await learn_defaults(group, entry, LearnerConfig(), _site_compare([]), seed="s")
    assert learned.params["size"].defaults == {}


@pytest.fixture(scope="module")
def hidden_server() -> Iterator[SiteServer]:
    with SiteServer([hidden_site()]) as server:
        yield server


async def _learn(server: SiteServer, browser: BrowserChoice, out: Path, cache: Path) -> CrawlResult:
    return await crawl(
        [parse_target(f"http://{HIDDEN_HOST}")],
        config=SUITE_CONFIG,
        out=out,
        cache=cache,
        observed=hidden_urls(),
        resolve=server.resolve(),
        browser=browser.executable,
    )


@pytest_asyncio.fixture(loop_scope="session", scope="module")
async def hidden_run(
    hidden_server: SiteServer,
    browser_choice: BrowserChoice,
    tmp_path_factory: pytest.TempPathFactory,
) -> CrawlResult:
    folder = tmp_path_factory.mktemp("hidden")
    return await _learn(hidden_server, browser_choice, folder / "learned.json", folder / "run")


@pytest.mark.browser
def test_the_hidden_defaults_are_learned_and_the_wrong_mark_is_not(
    hidden_run: CrawlResult,
) -> None:
    assert learned_defaults(hidden_run.learned, HIDDEN_HOST) == HIDDEN_DEFAULTS
    patterns = hidden_run.learned.domains[HIDDEN_HOST].patterns
    assert all(not v.neutral for p in patterns.values() for v in p.params.values())
    # sort=new: marked selected on the page without sort, but another page: rejected on a
    # rendered change, never spelled in the log.
    new = patterns["sort"].params["sort"].rejected_defaults["new"]
    assert new.reason == "the page changed without the parameter"
    assert [s.outcome for s in new.samples or ()] == ["changed"]
    assert not any("sort=new" in u for u in hidden_urls())
    # tab=overview spans both path templates of its pattern.
    tab = patterns["tab"].params["tab"].defaults["overview"]
    assert tab.coverage is not None
    assert {path_template(p) for p in tab.coverage.paths or ()} == {
        "/item/{id}",
        "/gift/{id}",
    }
    assert_merges_only_same_pages(hidden_run.out, hidden_held_out_pairs(), hidden_different_pairs())


@pytest.mark.browser
async def test_a_resumed_run_finds_the_same_hidden_defaults(
    hidden_run: CrawlResult,
    hidden_server: SiteServer,
    browser_choice: BrowserChoice,
    tmp_path: Path,
) -> None:
    again = await _learn(
        hidden_server, browser_choice, tmp_path / "learned.json", hidden_run.run_folder
    )
    assert again.stats["comparisons"] == 0 and again.stats["renders"] == 0
    # The marks come from the checkpoint's evidence: the same candidates, the same defaults.
    assert learned_defaults(again.learned, HIDDEN_HOST) == HIDDEN_DEFAULTS
    assert (
        again.learned.domains[HIDDEN_HOST].patterns
        == hidden_run.learned.domains[HIDDEN_HOST].patterns
    )
