"""Site-wide judgements from outcomes alone: one page served for everything, a hopeless site."""

from __future__ import annotations

from typing import Any

from learner.errors import RenderCause
from learner.judge.site import hopeless, serves_one_page
from learner.judge.verdicts import VerdictCause
from learner.model import PairOutcome, SampleEvidence
from samepage import ParamVerdict, PatternEntry


def _outcome(original: str, **evidence: Any) -> PairOutcome:
    return PairOutcome(
        original, original.split("?")[0], "same", evidence=SampleEvidence(**evidence)
    )


def test_one_text_on_two_paths_is_one_page_served_for_everything() -> None:
    block = [
        _outcome("http://s.test/a?x=1", original_path="/a", original_text="d1"),
        _outcome("http://s.test/b?x=2", original_path="/b", original_text="d1"),
    ]
    assert serves_one_page(block)
    # One path only proves nothing; two texts are two pages; unreadable evidence is ignored.
    assert not serves_one_page([*block[:1], _outcome("http://s.test/a?x=3")])
    other = _outcome("http://s.test/c?x=1", original_path="/c", original_text="d2")
    assert not serves_one_page([*block, other])
    assert not serves_one_page([*block[:1], _outcome("http://s.test/b", original_path=3)])
    assert not serves_one_page([])


def _given_up() -> PatternEntry:
    cause = VerdictCause.ORIGINALS_UNUSABLE
    return PatternEntry(4, {"x": ParamVerdict("non-neutral", 0, 0, 2, cause=cause)})


def test_a_site_is_hopeless_when_every_pattern_gave_up_on_slow_failures_only() -> None:
    patterns = {"x": _given_up()}
    slow = [
        _outcome("http://s.test/a?x=1", original_failure=RenderCause.TIMEOUT),
        _outcome("http://s.test/b?x=1", original_settled=False),
        _outcome("http://s.test/c?x=1", original_failure=RenderCause.BUSY),
    ]
    assert hopeless(patterns, slow, give_up_after=3)
    # Fewer slow originals than give_up_after: studied on.
    assert not hopeless(patterns, slow, give_up_after=4)
    # One original that failed fast (a redirect away) or rendered: the site is studied on.
    fast = _outcome("http://s.test/d?x=1", original_failure=RenderCause.OTHER_HOST)
    assert not hopeless(patterns, [*slow, fast], give_up_after=3)
    # A pattern that was not given up, or none studied yet: studied on.
    decided = PatternEntry(4, {"y": ParamVerdict("neutral", 3, 0, 0, cause=VerdictCause.NO_CHANGE)})
    assert not hopeless({**patterns, "y": decided}, slow, give_up_after=3)
    assert not hopeless({}, slow, give_up_after=3)
