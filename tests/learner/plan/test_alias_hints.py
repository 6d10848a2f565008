"""Where a site's pages point: the hints its samples record, and the aliases they propose.

The outcomes are built as the sample runner records them (the renders behind them are in
``tests/learner/run/test_alias_study.py``).
"""

from __future__ import annotations

from learner.model import Cause, PairOutcome, SampleEvidence
from learner.plan.alias_hints import SpellingHint, spelling_hints
from learner.plan.aliases import alias_candidates
from samepage import MIQPSNormalizer

_W = "http://w.test"


def _outcome(
    original: str,
    candidate: str,
    ended: tuple[str, str] | None = None,
    canonical: tuple[str, str] | None = None,
) -> PairOutcome:
    evidence = SampleEvidence(final_url=ended, canonical=canonical)
    return PairOutcome(original, candidate, "same", "", evidence, Cause.NO_DIFFERENCE)


def test_a_page_points_where_it_ended_and_to_its_canonical_link_on_its_own_host() -> None:
    outcomes = [
        # Redirected (the server dropped ref): both renders end at the short spelling.
        _outcome(
            f"{_W}/doc.php?name=Elm&ref=mail",
            f"{_W}/doc.php?name=Elm",
            (f"{_W}/docs/Elm", f"{_W}/docs/Elm"),
        ),
        # A canonical link of the original only; the candidate has none.
        _outcome(f"{_W}/p.php?id=A&ref=x", f"{_W}/p.php?id=A", canonical=(f"{_W}/pages/A", "")),
        # Where a page ends as asked, or points to itself (spelled otherwise), nothing.
        _outcome(f"{_W}/a?b=1", f"{_W}/a", (f"{_W}/a?b=1", f"{_W}/a#top"), (f"{_W}/a?b=1", "")),
        # Another host is no path alias.
        _outcome(f"{_W}/x?id=1", f"{_W}/x", canonical=("http://other.test/x/1", "")),
    ]
    hints = [
        SpellingHint(f"{_W}/doc.php?name=Elm&ref=mail", f"{_W}/docs/Elm", "redirect"),
        SpellingHint(f"{_W}/doc.php?name=Elm", f"{_W}/docs/Elm", "redirect"),
        SpellingHint(f"{_W}/p.php?id=A&ref=x", f"{_W}/pages/A", "canonical"),
    ]
    assert spelling_hints(outcomes, MIQPSNormalizer()) == hints
    # Read back from the checkpoint, a resumed run has the same hints.
    resumed = [PairOutcome.from_json(o.to_json()) for o in outcomes]
    assert spelling_hints(resumed, MIQPSNormalizer()) == hints


_LOG = (
    *(f"{_W}/index.php?title={t}" for t in ("Mill", "Harbour", "Tower", "Lake")),
    *(f"{_W}/wiki/{t}" for t in ("Mill", "Harbour")),
    *(f"{_W}/doc.php?name={n}" for n in ("Elm", "Fir", "Gorse")),
)


def _rules(hints: list[SpellingHint]) -> dict[str, str]:
    return {c.rule.describe(): c.hint for c in alias_candidates(_LOG, MIQPSNormalizer(), hints)}


def test_where_pages_point_proposes_a_rule_and_chooses_its_key() -> None:
    # The log alone: the key is its commonest spelling; /docs is not in it.
    assert set(_rules([])) == {"/wiki/{value} -> /index.php?title={value}"}
    hints = [
        SpellingHint(f"{_W}/index.php?title=Tower", f"{_W}/wiki/Tower", "canonical"),
        SpellingHint(f"{_W}/doc.php?name=Elm", f"{_W}/docs/Elm", "redirect"),
        SpellingHint(f"{_W}/doc.php?name=Fir", f"{_W}/docs/Fir", "redirect"),
    ]
    assert _rules(hints) == {
        "/index.php?title={value} -> /wiki/{value}": "values of 'title' are path segments; "
        "1 canonical link led to /wiki/{value}",
        "/doc.php?name={value} -> /docs/{value}": "values of 'name' are path segments; "
        "2 redirects led to /docs/{value}",
    }


def test_hints_that_point_both_ways_leave_the_key_to_the_log() -> None:
    hints = [
        SpellingHint(f"{_W}/index.php?title=Tower", f"{_W}/wiki/Tower", "canonical"),
        SpellingHint(f"{_W}/wiki/Mill", f"{_W}/index.php?title=Mill", "redirect"),
    ]
    assert set(_rules(hints)) == {"/wiki/{value} -> /index.php?title={value}"}


def test_a_hint_of_one_value_alone_proposes_nothing() -> None:
    # One value shared is no pattern: a page that points to another page is not an alias.
    hints = [SpellingHint(f"{_W}/doc.php?name=Elm", f"{_W}/docs/Elm", "redirect")]
    assert not any(rule.startswith("/doc.php") for rule in _rules(hints))


def test_a_folder_and_its_default_document_propose_a_rule() -> None:
    log = [f"{_W}/{f}/" for f in ("guide", "tour", "faq")]
    log += [f"{_W}/{f}/index.php?lang=en" for f in ("guide", "tour")]
    (found,) = alias_candidates(log, MIQPSNormalizer())
    assert found.rule.describe() == "/{value}/index.php -> /{value}"
    assert found.hint == "index.php is the default document of its folder"
    # Its controls are other folders, spelled as folders, with the sample's other parameters.
    for sample in found.samples:
        assert sample.others and all(
            o.startswith(f"{_W}/") and sample.value not in o and "index" not in o
            for o in sample.others
        )
        assert all(("lang=en" in o) == ("lang=en" in sample.url) for o in sample.others)
    # One folder of both spellings is no pattern; nor is a page that is not a document.
    assert alias_candidates(log[:3] + log[3:4], MIQPSNormalizer()) == []
    assert (
        alias_candidates(
            [*log[:3], f"{_W}/guide/about.html", f"{_W}/tour/about.html"], MIQPSNormalizer()
        )
        == []
    )
