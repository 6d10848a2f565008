"""Reading and editing observed URLs: a bare name and a name with ``=`` are two values."""

from __future__ import annotations

from learner.config import LearnerConfig
from learner.judge.defaults import candidate_values, learn_defaults, observed_values
from learner.model import PairOutcome
from learner.plan.sampling import (
    BARE,
    PatternGroup,
    context_of,
    edit_observed,
    param_values,
    read_piece,
    with_value,
)
from samepage import ParamVerdict, PatternEntry
from samepage.learned import VerdictCause


def test_a_bare_name_and_an_empty_value_are_read_apart() -> None:
    # The normalizer keeps ?a and ?a= apart, so samples of one are no evidence about the
    # other. Before, both read as ("a", "").
    assert read_piece("a") == ("a", BARE) and read_piece("a=") == ("a", "")
    assert read_piece("%61") == ("a", BARE)
    url = "https://s.example/l?flag&flag=&q"
    assert param_values(url, "flag") == (BARE, "")
    assert context_of("https://s.example/l?flag&q=", "q") == ("/l", (("flag", BARE),))
    assert context_of("https://s.example/l?flag=&q=", "q") == ("/l", (("flag", ""),))


def test_editing_writes_each_spelling_as_asked() -> None:
    assert with_value("https://s.example/l?flag&q=1", "flag", "") == "https://s.example/l?flag=&q=1"
    assert with_value("https://s.example/l?flag=1", "flag", BARE) == "https://s.example/l?flag"
    assert edit_observed("https://s.example/l?%66lag=&q=1", values={"flag": BARE}) == (
        "https://s.example/l?%66lag&q=1"
    )


def _bare_group() -> PatternGroup:
    """``flag`` bare on ten URLs of ``flag&q`` and ``flag=`` on one."""
    urls = [f"https://s.example/l?flag&q={q}" for q in "abcdefghij"]
    urls.append("https://s.example/l?flag=&q=k")
    return PatternGroup("flag&q", tuple(urls), len(urls))


def test_a_bare_name_is_never_a_default_candidate() -> None:
    group = _bare_group()
    config = LearnerConfig(default_values=3)
    assert "" not in candidate_values(group, "flag", config)
    assert BARE not in candidate_values(group, "flag", config, [BARE, ""])
    assert observed_values(group, "flag") == [BARE, ""]


async def test_samples_of_a_bare_name_never_prove_the_empty_value() -> None:
    # The site shows the same page for ?flag as without it, and another page for ?flag=.
    # Before, the bare URLs were samples of "" and proved it a default: the normalizer then
    # dropped flag= (and, reading "" for both, the bare flag too).
    group = _bare_group()

    async def compare(original: str, candidate: str) -> PairOutcome:
        same = "flag=" not in original
        return PairOutcome(original, candidate, "same" if same else "changed")

    verdict = ParamVerdict("non-neutral", 3, 3, cause=VerdictCause.CHANGED)
    entry = PatternEntry(11, {"flag": verdict, "q": ParamVerdict("non-neutral", 3, 3)})
    config = LearnerConfig(default_values=3)
    learned = await learn_defaults(group, entry, config, compare, seed="s")
    assert learned.params["flag"].defaults == {}
