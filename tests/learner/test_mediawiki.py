"""The learner on MediaWiki: a wiki's share of URLs, its long tail, and a redirect page.

The wiki's log (``tests/apps/mediawiki_app.py``) holds more than twenty patterns of real
weight, several with the same number of URLs, and a long tail: a run must study the patterns
that hold the URLs, not the first twenty, and decide them. The run is the session's one
crawl of the wiki (``tests/plugins/apps.py``), shared with ``test_apps.py``.
"""

from __future__ import annotations

from collections import Counter

import pytest

from learner.judge.verdicts import cause_of
from learner.plan.aliases import alias_candidates
from samepage import MIQPSNormalizer, pattern_key
from tests.apps import mediawiki_app
from tests.apps.truth import studied
from tests.plugins.apps import AppRun

pytestmark = pytest.mark.apps
_ON_MEDIAWIKI = pytest.mark.parametrize("served_app", ["mediawiki"], indirect=True)
"""The session's MediaWiki server (and so its one crawl), among the applications."""

_SHARE = 0.95
"""The share of the log's URLs (with parameters) whose patterns a run must study."""


def _merged(app_run: AppRun, pairs: tuple[tuple[str, str], ...]) -> dict[tuple[str, str], bool]:
    normalizer = MIQPSNormalizer(learned=app_run.result.learned)
    return {(a, b): normalizer.same(a, b) for a, b in pairs}


def _nothing_left_to_try(reason: str) -> bool:
    """Whether the sample or control whose render failed had no replacement left to try."""
    (planned,) = alias_candidates(mediawiki_app.observed_urls(), MIQPSNormalizer())
    if reason.startswith("control "):
        url, _, rest = reason.removeprefix("control ").partition(" against ")
        other = rest.partition(": ")[0]
        sample = next(s for s in (*planned.samples, *planned.spares) if s.url == url)
        return other == sample.others[-1]
    url = reason.partition(" and ")[0]
    # A planned sample fails the study only where its context has no spare; a spare is a
    # replacement already (at most REPLACEMENTS of them per sample).
    context = next((s.context for s in planned.samples if s.url == url), None)
    return context is None or not planned.spares_of(context)


def test_the_log_has_more_than_twenty_weighty_patterns_and_a_long_tail() -> None:
    counts = Counter(pattern_key(url) for url in mediawiki_app.observed_urls())
    weighty = {pattern: n for pattern, n in counts.items() if n >= 4}
    assert len(weighty) > 20
    # Patterns of the same size, which no rule may tell apart by their names.
    assert sorted(Counter(weighty.values()).values())[-1] >= 5
    tail = sum(n for n in counts.values() if n < 4)
    assert 0 < tail / counts.total() < 1 - _SHARE + 0.02
    assert set(counts) == set(mediawiki_app.TRUTH)


@pytest.mark.browser
@_ON_MEDIAWIKI
def test_held_out_pairs_of_one_page_merge_and_of_two_pages_never_do(app_run: AppRun) -> None:
    assert _merged(app_run, mediawiki_app.DIFFERENT_PAGES) == dict.fromkeys(
        mediawiki_app.DIFFERENT_PAGES, False
    )
    assert _merged(app_run, mediawiki_app.SAME_PAGES) == dict.fromkeys(
        mediawiki_app.SAME_PAGES, True
    )


@pytest.mark.browser
@_ON_MEDIAWIKI
def test_the_learner_learns_the_short_urls_of_articles_and_never_merges_two_titles(
    app_run: AppRun,
) -> None:
    """The log's two spellings of an article become one key; two titles stay two."""
    # Two pages never get one key, whatever the study found.
    assert _merged(app_run, mediawiki_app.ALIAS_APART) == dict.fromkeys(
        mediawiki_app.ALIAS_APART, False
    )
    # Without the learned aliases, the spellings of one page stay apart.
    assert not any(MIQPSNormalizer().same(a, b) for a, b in mediawiki_app.ALIAS_PAIRS)
    found = app_run.result.stats["domains"][mediawiki_app.HOST]["aliases"]
    candidate = found["candidates"][0]
    assert found["renders"] > 0
    if candidate["finding"] != "learned":
        # A sample or control whose render failed is replaced by another URL of its context;
        # only one with none left keeps the spellings apart for the run (by design, and
        # nothing else may): reported, never passed over.
        assert ": failed" in candidate["reason"], candidate
        assert _nothing_left_to_try(candidate["reason"]), candidate
        pytest.xfail(f"a render of the alias study failed: {candidate['reason']}")
    entry = app_run.result.learned.domains[mediawiki_app.HOST]
    rules = [rule.describe() for rule in entry.aliases]
    assert rules == ["/w/index.php?title={value} -> /wiki/{value}"]
    assert _merged(app_run, mediawiki_app.ALIAS_PAIRS) == dict.fromkeys(
        mediawiki_app.ALIAS_PAIRS, True
    )


@pytest.mark.browser
@_ON_MEDIAWIKI
def test_the_learner_studies_the_share_of_urls_and_decides_the_long_tail(
    app_run: AppRun,
) -> None:
    verdicts = studied(app_run.result.learned, mediawiki_app.HOST)
    counts = Counter(pattern_key(url) for url in mediawiki_app.observed_urls())
    covered = sum(counts[pattern] for pattern in verdicts) / counts.total()
    assert covered >= _SHARE
    assert len(verdicts) > 20
    got = {
        (pattern, name): (verdict.verdict, cause_of(verdict).decided)
        for pattern, params in verdicts.items()
        for name, verdict in params.items()
    }
    assert got == {
        (pattern, name): (mediawiki_app.TRUTH[pattern][name].verdict, True)
        for pattern, params in verdicts.items()
        for name in params
    }
    assert _merged(app_run, mediawiki_app.BESIDE_SAME_PAGES) == dict.fromkeys(
        mediawiki_app.BESIDE_SAME_PAGES, True
    )


@pytest.mark.browser
@_ON_MEDIAWIKI
def test_a_parameter_a_redirect_page_carries_to_its_target_is_neutral(app_run: AppRun) -> None:
    verdict = studied(app_run.result.learned, mediawiki_app.HOST)["wprov"]["wprov"]
    assert (verdict.verdict, cause_of(verdict).decided) == ("neutral", True)
    assert _merged(app_run, mediawiki_app.REDIRECT_PAGES) == dict.fromkeys(
        mediawiki_app.REDIRECT_PAGES, True
    )
