"""A parameter with few values, tested value by value in contexts borrowed from its host.

Sites are pure functions from URL to page content (``tests/site/pure_sites.py``), so every
verdict can be predicted. The pattern's own URLs offer too few contexts; the host's other
URLs on the same path templates lend theirs, and the pattern's coverage rules still hold.
"""

from __future__ import annotations

from learner.config import LearnerConfig
from learner.judge.classify import classify_pattern
from learner.judge.defaults import learn_defaults
from learner.judge.verdicts import VerdictCause, cause_of
from learner.plan.picks import Picker
from learner.plan.sampling import PatternGroup, param_values, template_of
from samepage import PatternEntry
from tests.site.pure_sites import comparer, pattern_group

CONFIG = LearnerConfig(samples=8, min_samples=3)


def report(url: str) -> str | None:
    """Trac's report: ``asc=0`` reverses the order, ``asc=1`` is the order without it."""
    sort = (param_values(url, "sort") or ("id",))[0]
    order = "down" if param_values(url, "asc") == ("0",) else "up"
    return f"{url.split('?')[0]} by {sort} {order}"


REPORT = pattern_group(
    "asc&sort",
    ["https://t.example/report/1?asc=1&sort=owner", "https://t.example/report/2?asc=1&sort=time"],
)
"""Two contexts: too few for ``asc=1`` to be tested on the pattern's own URLs alone."""

HOST = [
    pattern_group(
        "sort", [f"https://t.example/report/{n}?sort={s}" for n, s in ((2, "owner"), (3, "id"))]
    ),
    pattern_group("page&sort", ["https://t.example/report/4?page=2&sort=summary"]),
    pattern_group("q", ["https://t.example/search/5?q=asc"]),  # another template
]


async def _learned(
    group: PatternGroup, site: object, host: list[PatternGroup]
) -> tuple[PatternEntry, list[tuple[str, str]]]:
    calls: list[tuple[str, str]] = []
    compare = comparer(site, calls)  # type: ignore[arg-type]
    entry = await classify_pattern(group, CONFIG, compare, seed="t")
    learned = await learn_defaults(group, entry, CONFIG, compare, seed="t", host=host)
    return learned, calls


async def test_a_value_is_decided_in_contexts_the_host_lends() -> None:
    alone, _ = await _learned(REPORT, report, [])
    assert (cause_of(alone.params["asc"]), dict(alone.params["asc"].defaults)) == (
        VerdictCause.FEW_VALUES,
        {},
    )
    learned, calls = await _learned(REPORT, report, [REPORT, *HOST])
    asc = learned.params["asc"]
    assert (asc.verdict, cause_of(asc), set(asc.defaults)) == (
        "non-neutral",
        VerdictCause.VALUES,
        {"1"},
    )
    borrowed = {url for url, _ in calls} - set(REPORT.urls)
    # Borrowed URLs become URLs of the pattern: their companion kept, the value put in, the
    # parameters the pattern lacks dropped; a URL of another template lends nothing.
    assert borrowed and borrowed <= set(LENT)


LENT = [
    "https://t.example/report/2?sort=owner&asc=1",
    "https://t.example/report/3?sort=id&asc=1",
    "https://t.example/report/4?sort=summary&asc=1",
]
"""What :data:`HOST` lends the pattern's ``asc=1``."""


def test_the_picker_borrows_only_urls_that_carry_every_other_parameter() -> None:
    lacking = pattern_group("page", ["https://t.example/report/6?page=3"])
    picker = Picker.of(REPORT, "t", [*HOST, lacking])
    samples, _ = picker.value_samples("asc", "1", 8, borrow=True)
    urls = [url for url, _ in samples]
    assert sorted(urls[:2]) == list(REPORT.urls)  # the pattern's own first
    assert sorted(urls[2:]) == LENT
    assert {template_of(url) for url in urls} == {"/report/{id}"}
    assert picker.value_samples("asc", "1", 8)[0] == samples[:2]  # no borrowing unless asked


def lister(url: str) -> str | None:
    """A list whose page size matters and whose ``format`` does nothing."""
    return f"{url.split('?')[0]} {param_values(url, 'max')}"


async def test_a_borrowed_context_never_covers_a_companion_class_it_lacks() -> None:
    # The pattern's page sizes are 10 and 5 (a count: each value must be covered); the
    # URL with max=5 spells format twice, so only borrowed contexts could stand in for it.
    # The host lends contexts enough in number, but with max=10 alone.
    group = pattern_group(
        "format&max&q",
        [
            "https://t.example/list/1?format=html&max=10&q=a",
            "https://t.example/list/2?format=html&format=html&max=5&q=b",
        ],
    )
    host = [
        pattern_group("max&q", [f"https://t.example/list/{n}?max=10&q=c{n}" for n in range(3, 9)])
    ]
    for lent in ([], host):
        learned, _ = await _learned(group, lister, lent)
        fmt = learned.params["format"]
        assert (cause_of(fmt), dict(fmt.defaults)) == (VerdictCause.FEW_VALUES, {})
        # Every sample showed the same page: the value lacks coverage, not evidence.
        why = fmt.rejected_defaults["html"]
        assert (why.changed, why.failed) == (0, 0)
    found = why.coverage
    assert found is not None and found.values is not None
    assert (found.companions_tested or 0) >= (found.companions_seen or 0)
    assert (found.values["max"].share or 0) < CONFIG.min_share
    # Lent a max=5 context too, the value is decided: the class is covered then.
    host.append(pattern_group("max&q", ["https://t.example/list/9?max=5&q=d"]))
    learned, _ = await _learned(group, lister, host)
    fmt = learned.params["format"]
    assert (cause_of(fmt), set(fmt.defaults)) == (VerdictCause.VALUES, {"html"})
