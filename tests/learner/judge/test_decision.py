"""Every branch of the sample decision, without a browser: fingerprints are built by hand."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from urllib.parse import parse_qsl, urlsplit

import pytest

from learner.errors import RenderCause
from learner.judge.decision import Decision, Need, Shot, decide
from learner.judge.fingerprint import Fingerprint
from learner.model import Cause

ORIGINAL = "http://s.test/p?id=1&ref=a"
CANDIDATE = "http://s.test/p?id=1"
COLUMNS, ROWS = 4, 6
BLANK = b"\0" * 8


def fp(
    lines: Sequence[str] = ("Walnut shelf", "$19.99", "Made by hand"),
    *,
    url: str = ORIGINAL,
    status: int = 200,
    title: str = "Shelf",
    tiles: Mapping[tuple[int, int], bytes] | None = None,
    final_url: str | None = None,
) -> Fingerprint:
    """A fingerprint of a COLUMNS x ROWS tile page; ``tiles`` overrides single tiles."""
    grid = [BLANK] * (COLUMNS * ROWS)
    for (column, row), digest in (tiles or {}).items():
        grid[row * COLUMNS + column] = digest
    return Fingerprint(
        url=url,
        final_url=final_url or url,
        status=status,
        title=title,
        lines=tuple(lines),
        width=COLUMNS * 64,
        height=ROWS * 64,
        columns=COLUMNS,
        rows=ROWS,
        tiles=tuple(grid),
    )


def shot(print_: Fingerprint | None, *, settled: bool = True, error: str = "") -> Shot:
    if print_ is None:
        return Shot(None, error=error or "timed out", failure=RenderCause.TIMEOUT)
    return Shot(print_, settled, "" if settled else "1 request(s) in flight")


def cand(
    lines: Sequence[str] = ("Walnut shelf", "$19.99", "Made by hand"), **kw: object
) -> Fingerprint:
    return fp(lines, url=CANDIDATE, **kw)  # type: ignore[arg-type]


def _decide(
    originals: list[Shot], candidates: list[Shot], destinations: Sequence[Shot] = ()
) -> Decision:
    step = decide(originals, candidates, destinations)
    assert isinstance(step, Decision), step
    return step


def test_the_first_render_asked_for_is_the_original() -> None:
    assert decide([], []) == Need("original", 0)


@pytest.mark.parametrize(
    "original, cause",
    [
        (shot(None), Cause.ORIGINAL_FAILED),
        (shot(fp(status=404)), Cause.ORIGINAL_STATUS),
        (shot(fp(), settled=False), Cause.ORIGINAL_UNSETTLED),
    ],
)
def test_an_unusable_original_fails_the_sample_before_any_candidate(
    original: Shot, cause: Cause
) -> None:
    decision = _decide([original], [])
    assert (decision.outcome, decision.cause) == ("failed", cause)


def test_a_usable_original_asks_for_the_candidate() -> None:
    assert decide([shot(fp())], []) == Need("candidate", 0)


def test_a_failed_candidate_fails_the_sample() -> None:
    decision = _decide([shot(fp())], [shot(None, error="download")])
    assert (decision.outcome, decision.cause) == ("failed", Cause.CANDIDATE_FAILED)
    assert "download" in decision.reason


def test_an_identical_settled_candidate_is_the_same_page_at_once() -> None:
    decision = _decide([shot(fp())], [shot(cand())])
    assert (decision.outcome, decision.cause) == ("same", Cause.IDENTICAL)


def test_identical_but_unsettled_proves_nothing() -> None:
    decision = _decide([shot(fp())], [shot(cand(), settled=False)])
    assert (decision.outcome, decision.cause) == ("failed", Cause.UNSETTLED)
    assert "not settled" in decision.reason


def test_a_different_status_is_a_change_without_a_repeat() -> None:
    decision = _decide([shot(fp())], [shot(cand(status=404))])
    assert (decision.outcome, decision.cause) == ("changed", Cause.STATUS_CHANGED)
    assert decision.comparison is not None and "status" in decision.comparison.changes


def test_any_other_difference_asks_for_a_repeat_of_the_original() -> None:
    assert decide([shot(fp())], [shot(cand(("Oak shelf", "$19.99")))]) == Need("original", 1)


def test_a_failed_repeat_fails_the_sample() -> None:
    decision = _decide([shot(fp()), shot(None)], [shot(cand(("Oak shelf", "$19.99")))])
    assert (decision.outcome, decision.cause) == ("failed", Cause.REPEAT_FAILED)


def test_a_change_on_a_quiet_page_is_a_change() -> None:
    decision = _decide(
        [shot(fp()), shot(fp())], [shot(cand(("Oak shelf", "$19.99", "Made by hand")))]
    )
    assert (decision.outcome, decision.cause) == ("changed", Cause.CHANGED)
    assert decision.comparison is not None and "text" in decision.comparison.changes


def test_a_difference_the_noise_explains_is_the_same_page() -> None:
    # The clock line differs between the two originals and again in the candidate.
    originals = [shot(fp(("Shelf", "12:00", "$19.99"))), shot(fp(("Shelf", "12:01", "$19.99")))]
    decision = _decide(originals, [shot(cand(("Shelf", "12:02", "$19.99")))])
    assert (decision.outcome, decision.cause) == ("same", Cause.NO_DIFFERENCE)


def test_same_through_noise_needs_every_render_settled() -> None:
    originals = [
        shot(fp(("Shelf", "12:00", "$19.99"))),
        shot(fp(("Shelf", "12:01", "$19.99")), settled=False),
    ]
    decision = _decide(originals, [shot(cand(("Shelf", "12:02", "$19.99")))])
    assert (decision.outcome, decision.cause) == ("failed", Cause.UNSETTLED)


def test_originals_that_disagree_on_status_leave_the_sample_undecided() -> None:
    decision = _decide([shot(fp()), shot(fp(status=500))], [shot(cand(("Oak shelf",)))])
    assert (decision.outcome, decision.cause) == ("failed", Cause.UNDECIDED)


def _noisy_originals() -> list[Shot]:
    # A banner tile (0, 0) and a text line vary between the two originals.
    return [
        shot(fp(("Shelf", "Deal A", "$19.99"), tiles={(0, 0): b"banner-a"})),
        shot(fp(("Shelf", "Deal B", "$19.99"), tiles={(0, 0): b"banner-b"})),
    ]


def test_a_change_on_a_noisy_page_needs_a_third_original() -> None:
    candidate = [shot(cand(("Shelf", "Deal C", "$24.99"), tiles={(0, 0): b"banner-c"}))]
    assert decide(_noisy_originals(), candidate) == Need("original", 2)
    third = shot(fp(("Shelf", "Deal C", "$19.99"), tiles={(0, 0): b"banner-c"}))
    decision = _decide([*_noisy_originals(), third], candidate)
    assert (decision.outcome, decision.cause) == ("changed", Cause.CHANGED)


def test_a_failed_third_original_fails_the_sample() -> None:
    candidate = [shot(cand(("Shelf", "Deal C", "$24.99")))]
    decision = _decide([*_noisy_originals(), shot(None)], candidate)
    assert (decision.outcome, decision.cause) == ("failed", Cause.REPEAT_FAILED)


def test_a_pixels_only_change_on_a_noisy_page_must_show_in_a_second_candidate() -> None:
    # A tile far from the noise differs once, then not again: unconfirmed, not "same".
    originals = [*_noisy_originals(), shot(fp(("Shelf", "Deal A", "$19.99")))]
    flicker = shot(cand(("Shelf", "Deal A", "$19.99"), tiles={(3, 5): b"clock-a"}))
    assert decide(originals, [flicker]) == Need("candidate", 1)
    calm = shot(cand(("Shelf", "Deal A", "$19.99")))
    decision = _decide(originals, [flicker, calm])
    assert (decision.outcome, decision.cause) == ("failed", Cause.UNCONFIRMED)
    again = shot(cand(("Shelf", "Deal A", "$19.99"), tiles={(3, 5): b"clock-a"}))
    decision = _decide(originals, [flicker, again])
    assert (decision.outcome, decision.cause) == ("changed", Cause.CHANGED)
    decision = _decide(originals, [flicker, shot(None)])
    assert (decision.outcome, decision.cause) == ("failed", Cause.UNCONFIRMED)


QUIET = [shot(fp()), shot(fp())]
"""Two renders of the original, pixel for pixel the same: a page without noise."""
SPOT = {(3, 5): b"spot"}
"""A 4x4-px spot at a box's corner: one tile differs, the text, title and height do not."""


def test_a_pixels_only_change_on_a_quiet_page_must_show_in_a_second_candidate() -> None:
    spotted = shot(cand(tiles=SPOT))
    assert decide(QUIET, [spotted]) == Need("candidate", 1)
    # A spot that a second render does not show again is not a change, nor proof of none.
    decision = _decide(QUIET, [spotted, shot(cand())])
    assert (decision.outcome, decision.cause) == ("failed", Cause.UNCONFIRMED)
    decision = _decide(QUIET, [spotted, shot(None)])
    assert (decision.outcome, decision.cause) == ("failed", Cause.UNCONFIRMED)
    # A stable small change (in both candidate renders) is a change, however small.
    decision = _decide(QUIET, [spotted, shot(cand(tiles=SPOT))])
    assert (decision.outcome, decision.cause) == ("changed", Cause.CHANGED)
    assert decision.comparison is not None and decision.comparison.pixels_only


@pytest.mark.parametrize(
    "candidate",
    [
        cand(("Walnut shelf", "$24.99", "Made by hand"), tiles=SPOT),
        cand(title="Oak shelf", tiles=SPOT),
    ],
)
def test_a_change_in_text_or_title_needs_no_second_candidate(candidate: Fingerprint) -> None:
    decision = _decide(QUIET, [shot(candidate)])
    assert (decision.outcome, decision.cause) == ("changed", Cause.CHANGED)


OLD = "http://w.test/wiki/Old_Mill?ref=dashboard"
OLD_BARE = "http://w.test/wiki/Old_Mill"
NEW_LONG = "http://w.test/w/index.php?title=Riverside_Mill"
NEW = "http://w.test/wiki/Riverside_Mill"


def _moved(final_url: str) -> list[Shot]:
    return [shot(fp(url=OLD, final_url=final_url)) for _ in range(2)]


def test_a_destination_that_carries_the_parameter_is_compared_without_it() -> None:
    originals = _moved(NEW_LONG + "&ref=dashboard")
    candidate = [shot(fp(url=OLD_BARE, final_url=NEW))]
    assert decide(originals, candidate) == Need("destination", 0, NEW_LONG)
    landed = shot(fp(url=NEW_LONG, final_url=NEW))
    decision = _decide(originals, candidate, [landed])
    assert (decision.outcome, decision.cause) == ("same", Cause.CARRIED_DESTINATION)
    decision = _decide(originals, candidate, [shot(None)])
    assert (decision.outcome, decision.cause) == ("changed", Cause.CHANGED)
    unsettled = shot(fp(url=NEW_LONG, final_url=NEW), settled=False)
    decision = _decide(originals, candidate, [unsettled])
    assert (decision.outcome, decision.cause) == ("failed", Cause.UNSETTLED)


def test_a_destination_served_where_it_is_is_rendered_beside_the_candidates() -> None:
    # MediaWiki serves /w/index.php?title=T as it is; /wiki/T is the same article.
    originals = _moved(NEW_LONG + "&ref=dashboard")
    candidate = [shot(fp(url=OLD_BARE, final_url=NEW))]
    in_place = shot(fp(url=NEW_LONG))
    assert decide(originals, candidate, [in_place]) == Need("destination", 0, NEW)
    decision = _decide(originals, candidate, [in_place, shot(fp(url=NEW))])
    assert (decision.outcome, decision.cause) == ("same", Cause.CARRIED_DESTINATION)
    # Two spellings are one destination only if they render exactly alike, settled.
    for spelling, outcome in [
        (shot(fp(("Riverside Mill", "Closed"), url=NEW)), "changed"),
        (shot(fp(url=NEW, tiles={(0, 0): b"spot"})), "changed"),
        (shot(fp(url=NEW, status=203)), "changed"),
        (shot(None), "changed"),
        (shot(fp(url=NEW), settled=False), "failed"),
    ]:
        assert _decide(originals, candidate, [in_place, spelling]).outcome == outcome


def test_a_destination_that_spells_the_parameters_value_is_a_change() -> None:
    # /go?to=mill ends at /page/mill?to=mill, /go at /page/riverside-mill: the parameter chose
    # the destination, however alike the two pages look.
    go, go_bare = "http://w.test/go?to=Mill", "http://w.test/go"
    originals = [shot(fp(url=go, final_url="http://w.test/page/mill?to=Mill")) for _ in range(2)]
    candidate = [shot(fp(url=go_bare, final_url="http://w.test/page/riverside-mill"))]
    step = decide(originals, candidate)
    assert step == Need("destination", 0, "http://w.test/page/mill")
    decision = _decide(originals, candidate, [shot(fp(url="http://w.test/page/mill"))])
    assert (decision.outcome, decision.cause) == ("changed", Cause.CHANGED)


def _wiki_page(url: str) -> Fingerprint:
    """A render of ``url`` on a MediaWiki: the article its title names, in its language."""
    params = dict(parse_qsl(urlsplit(url).query))
    title = params.get("title") or urlsplit(url).path.rsplit("/", 1)[-1]
    lines = (title.replace("_", " "), "Stands by the river" if "lang" not in params else "Au bord")
    return fp(lines, url=url)


@pytest.mark.parametrize(
    "final_url",
    [
        NEW_LONG + "&ref=other",  # the parameter carried with another value
        NEW_LONG + "&ref=dashboard&lang=fr",  # another parameter beside it
        "http://w.test/w/index.php?title=Mill_Lane&ref=dashboard",  # another page
        NEW_LONG,  # the parameter not carried at all
    ],
)
def test_any_other_difference_of_destination_is_a_change(final_url: str) -> None:
    originals = _moved(final_url)
    candidate = [shot(fp(url=OLD_BARE, final_url=NEW))]
    destinations: list[Shot] = []
    step = decide(originals, candidate)
    while isinstance(step, Need):
        assert step.role == "destination"
        destinations.append(shot(_wiki_page(step.url)))
        step = decide(originals, candidate, destinations)
    assert (step.outcome, step.cause) == ("changed", Cause.CHANGED)


def test_a_carried_destination_with_a_changed_page_is_a_change() -> None:
    originals = _moved(NEW_LONG + "&ref=dashboard")
    candidate = [shot(fp(("Riverside Mill", "Closed"), url=OLD_BARE, final_url=NEW))]
    decision = _decide(originals, candidate)
    assert (decision.outcome, decision.cause) == ("changed", Cause.CHANGED)


def test_a_page_too_noisy_to_judge_fails() -> None:
    every = {(c, r): bytes([c, r, 1]) for c in range(COLUMNS) for r in range(ROWS)}
    other = {(c, r): bytes([c, r, 2]) for c in range(COLUMNS) for r in range(ROWS)}
    originals = [shot(fp(tiles=every)), shot(fp(tiles=other))]
    candidate = [shot(cand(tiles={(0, 0): b"x"}))]
    decision = _decide(originals, candidate)
    assert (decision.outcome, decision.cause) == ("failed", Cause.UNDECIDED)
