"""Archive captures as sample evidence: which pairs of captures prove "same", and which not."""

from __future__ import annotations

import logging
import random
from pathlib import Path

import pytest

from learner.demo.server import Response, Site, SiteServer
from learner.errors import ConfigError, RenderCause
from learner.judge.archive import (
    MAX_SHARED,
    ArchiveEvidence,
    ArchiveMatch,
    ArchiveRefusal,
    archive_outcome,
    load_archive,
)
from learner.model import Cause
from learner.net.fetch import fetch
from learner.net.limiter import HostLimiter
from learner.net.retries import RetryPolicy
from learner.net.robots import RobotsPolicy
from learner.plan.sampling import without_param
from learner.render.renderer import Renderer
from learner.run.progress import Progress
from learner.run.sample_runner import PatternPages, SampleRunner, SiteCounters
from learner.run.store import RunStore
from samepage.archives import Capture, cdxj_captures
from tests.archive_fixtures import Shot, sha1_digest, write_cdxj, write_warc
from tests.site.learner_settings import SUITE_CONFIG

ORIGINAL = "https://shop.example/p?id=1&ref=home"
CANDIDATE = "https://shop.example/p?id=1"
PAGE = b"<h1>Item 1</h1>"


# Another page of the path, with its own bytes: the server's answer varies with the query.
ITEM_3 = Shot("https://shop.example/p?id=3", "20240101000000", b"<h1>Item 3</h1>")


def _capture(shot: Shot, mime: str = "text/html") -> Capture:
    mime = "warc/revisit" if shot.revisit else mime
    digest = sha1_digest(shot.body)
    return Capture(shot.url, shot.timestamp, shot.status, digest, mime, shot.revisit)


def _archive(*shots: Shot, window_s: float = 86400.0, shell: bool = False) -> ArchiveEvidence:
    archive = ArchiveEvidence(window_s=window_s)
    for shot in shots if shell else (*shots, ITEM_3, _http(ITEM_3)):
        archive.add(_capture(shot))
    archive.finish()
    return archive


def test_two_2xx_captures_with_one_digest_make_the_sample_same() -> None:
    archive = _archive(
        Shot(ORIGINAL, "20240101000000", PAGE), Shot(CANDIDATE, "20240101003000", PAGE)
    )
    found = archive.match(ORIGINAL, CANDIDATE)
    assert isinstance(found, ArchiveMatch)
    outcome = archive_outcome(ORIGINAL, CANDIDATE, found)
    assert (outcome.outcome, outcome.cause) == ("same", Cause.ARCHIVE)
    evidence = outcome.evidence.archive
    assert evidence is not None
    assert (evidence["original"]["url"], evidence["candidate"]["url"]) == (ORIGINAL, CANDIDATE)
    assert (evidence["seconds_apart"], evidence["media_type"]) == (1800.0, "text/html")
    assert sha1_digest(PAGE) in outcome.reason


@pytest.mark.parametrize(
    ("shots", "why"),
    [
        (
            [Shot(ORIGINAL, "20240101000000", PAGE), Shot(CANDIDATE, "20240101000000", b"x")],
            "a differing digest is no evidence",
        ),
        (
            [Shot(ORIGINAL, "2024", PAGE), Shot(CANDIDATE, "2024", PAGE)],
            "a year is not a time: the two may be a year apart, not 0 s",
        ),
        (
            [Shot(ORIGINAL, "20240101000000", PAGE), Shot(CANDIDATE, "20240103000000", PAGE)],
            "two days apart: outside the window",
        ),
        (
            [
                Shot(ORIGINAL, "20240101000000", PAGE, status=404),
                Shot(CANDIDATE, "20240101000000", PAGE),
            ],
            "the original answered 404",
        ),
        (
            [
                Shot(ORIGINAL, "20240101000000", PAGE),
                Shot(CANDIDATE, "20240101000000", PAGE, status=301),
            ],
            "the candidate was a redirect",
        ),
        (
            [
                Shot(
                    ORIGINAL.replace("?", "?ref=home&").removesuffix("&ref=home"),
                    "20240101000000",
                    PAGE,
                ),
                Shot(CANDIDATE, "20240101000000", PAGE),
            ],
            "another spelling of the original (parameters in another order)",
        ),
        (
            [
                Shot(ORIGINAL.replace("shop.example", "SHOP.example"), "20240101000000", PAGE),
                Shot(CANDIDATE, "20240101000000", PAGE),
            ],
            "another spelling of the host",
        ),
        (
            [
                Shot(ORIGINAL, "20240101000000", PAGE),
                Shot(CANDIDATE, "20240101000000", PAGE),
                Shot("https://shop.example/consent", "20240101000000", PAGE),
            ],
            "the same bytes on another path: a page served for everything",
        ),
        (
            [
                Shot(ORIGINAL, "20240101000000", PAGE),
                Shot(CANDIDATE, "20240101000000", PAGE),
                Shot("https://shop.example/p?id=2", "20240101000000", PAGE),
            ],
            "the same bytes for another id: a login or error page served for every item",
        ),
    ],
)
def test_captures_that_prove_nothing_leave_the_sample_to_be_rendered(
    shots: list[Shot], why: str
) -> None:
    assert isinstance(_archive(*shots).match(ORIGINAL, CANDIDATE), ArchiveRefusal), why


@pytest.mark.parametrize(
    ("original", "candidate", "refusal"),
    [
        (Capture(ORIGINAL, "2024", 200, "sha1:A", "text/html"), None, ArchiveRefusal.ROUGH_TIME),
        (
            Capture(ORIGINAL, "20240101000000", 200, "sha1:A", "text/html"),
            Capture(CANDIDATE, "20240101000000", 200, "sha1:A", "text/plain"),
            ArchiveRefusal.MEDIA_TYPE,
        ),
        (
            Capture(ORIGINAL, "20240101000000", 200, "sha1:A", "text/html"),
            Capture(CANDIDATE, "20240101000000", 200, "sha1:A", "unk"),
            ArchiveRefusal.MEDIA_TYPE,
        ),
        (
            Capture(ORIGINAL, "20240101000000", 200, "sha1:A", "text/html"),
            Capture(CANDIDATE, "20240103000000", 200, "sha1:A", "text/html"),
            ArchiveRefusal.TOO_FAR_APART,
        ),
        (
            Capture(ORIGINAL, "20240101000000", 200, "sha1:A", "text/html"),
            Capture(CANDIDATE, "20240101000000", 200, "sha1:B", "text/html"),
            ArchiveRefusal.DIGESTS_DIFFER,
        ),
        (
            Capture(ORIGINAL, "20240101000000", 200, None, "text/html"),
            None,
            ArchiveRefusal.NOT_CAPTURED,
        ),
    ],
)
def test_the_refusal_says_why_the_archive_did_not_decide(
    original: Capture, candidate: Capture | None, refusal: ArchiveRefusal
) -> None:
    archive = ArchiveEvidence()
    for capture in (original, candidate, _capture(ITEM_3)):
        if capture is not None:
            archive.add(capture)
    if candidate is None:
        archive.add(Capture(CANDIDATE, "20240101000000", 200, "sha1:A", "text/html"))
    archive.finish()
    assert archive.match(ORIGINAL, CANDIDATE) is refusal


def test_empty_digests_are_no_digests() -> None:
    fields = '"status": "200", "digest": "sha1:", "mime": "text/html"'
    lines = [f'k 20240101000000 {{"url": "{url}", {fields}}}' for url in (ORIGINAL, CANDIDATE)]
    captures = list(cdxj_captures(lines, "i"))
    assert [c.digest for c in captures] == [None, None]
    archive = ArchiveEvidence()
    for capture in captures:
        archive.add(capture)
    archive.finish()
    assert archive.match(ORIGINAL, CANDIDATE) is ArchiveRefusal.NOT_CAPTURED


def _http(shot: Shot) -> Shot:
    return Shot(shot.url.replace("https:", "http:"), shot.timestamp, shot.body)


def test_a_path_that_answers_every_url_with_one_body_proves_nothing() -> None:
    # An application shell: its scripts build the page from the URL, the bytes never change.
    shots = [Shot(ORIGINAL, "20240101000000", PAGE), Shot(CANDIDATE, "20240101000000", PAGE)]
    assert _archive(*shots, shell=True).match(ORIGINAL, CANDIDATE) is ArchiveRefusal.ONE_BODY
    assert isinstance(_archive(*shots).match(ORIGINAL, CANDIDATE), ArchiveMatch)


def test_other_values_of_the_dropped_parameter_may_share_the_digest() -> None:
    archive = _archive(
        Shot(ORIGINAL, "20240101000000", PAGE),
        Shot(CANDIDATE, "20240101000000", PAGE),
        Shot(CANDIDATE + "&ref=footer", "20240101000000", PAGE),
        Shot("https://shop.example/p?ref=x&id=1&ref=y", "20240101000000", PAGE),
        # Other parameters the sample does not test, with the candidate's values of the rest.
        Shot("https://shop.example/p?id=1&sessionid=abc", "20240101000000", PAGE),
    )
    assert isinstance(archive.match(ORIGINAL, CANDIDATE), ArchiveMatch)


def test_parameters_are_compared_by_name_as_samepage_reads_them() -> None:
    # %69d is id: the digest also served for id=2 is not specific to the candidate's page.
    shots = [Shot(ORIGINAL, "20240101000000", PAGE), Shot(CANDIDATE, "20240101000000", PAGE)]
    other = Shot("https://shop.example/p?%69d=2", "20240101000000", PAGE)
    assert _archive(*shots, other).match(ORIGINAL, CANDIDATE) is ArchiveRefusal.SHARED_DIGEST
    # ... while the same id spelled with an escape agrees with it.
    same = Shot("https://shop.example/p?%69d=1&r%65f=x", "20240101000000", PAGE)
    assert isinstance(_archive(*shots, same).match(ORIGINAL, CANDIDATE), ArchiveMatch)


def test_a_digest_captured_for_too_many_urls_is_no_evidence() -> None:
    shots = [Shot(f"{CANDIDATE}&ref={n}", "20240101000000", PAGE) for n in range(MAX_SHARED)]
    shots += [Shot(ORIGINAL, "20240101000000", PAGE), Shot(CANDIDATE, "20240101000000", PAGE)]
    assert _archive(*shots).match(ORIGINAL, CANDIDATE) is ArchiveRefusal.SHARED_DIGEST
    assert len(shots[2:]) == MAX_SHARED
    assert isinstance(_archive(*shots[2:]).match(ORIGINAL, CANDIDATE), ArchiveMatch)


async def test_a_sample_robots_txt_forbids_is_not_decided_from_the_archive(
    tmp_path: Path,
) -> None:
    site = Site("shop.example")
    site.routes["/robots.txt"] = lambda request: Response(
        body="User-agent: *\nDisallow: /private\n", content_type="text/plain"
    )
    private = "http://shop.example/private?id=1&ref=home"
    shots = [Shot(ORIGINAL.replace("https", "http"), "20240101000000", PAGE)]
    shots += [Shot(CANDIDATE.replace("https", "http"), "20240101000000", PAGE)]
    shots += [
        Shot(private, "20240101000000", b"login"),
        Shot(without_param(private, "ref"), "20240101000000", b"login"),
    ]
    archive = _archive(*shots)
    with SiteServer([site]) as server:

        async def plain(url: str):  # type: ignore[no-untyped-def]
            return await fetch(url, resolve=server.resolve(), user_agent="t", timeout_s=5)

        async with RunStore(tmp_path, scope="s", evidence_budget_bytes=0) as store:
            runner = SampleRunner(
                SUITE_CONFIG,
                Renderer(SUITE_CONFIG.render, executable=None),  # never entered: no render
                store,
                HostLimiter(delay_s=0.0, jitter_s=0.0, rng=random.Random(0)),
                RobotsPolicy(plain, "t"),
                Progress(enabled=False),
                retry_policy=RetryPolicy(attempts=1),
                archive=archive,
            )
            counters = SiteCounters()
            pages = PatternPages(runner, counters)
            forbidden = await runner.compare_urls(
                pages, counters, private, without_param(private, "ref")
            )
    # The archive holds one digest for both, but robots.txt forbids them: not rendered, and
    # not taken from the archive either (an allowed sample is in test_archive_crawl.py).
    assert forbidden.outcome == "failed"
    assert forbidden.evidence.original_failure is RenderCause.ROBOTS
    assert (counters.archived, counters.renders) == (0, 0)


def test_a_revisit_counts_with_its_status_and_the_digest_it_repeats() -> None:
    archive = _archive(
        Shot(ORIGINAL, "20240101000000", PAGE),
        Shot(CANDIDATE, "20230101000000", PAGE),  # a year before: outside the window
        Shot(CANDIDATE, "20240101010000", PAGE, revisit=True),
    )
    found = archive.match(ORIGINAL, CANDIDATE)
    # The revisit's media type is that of the capture of its URL and digest it repeats.
    assert isinstance(found, ArchiveMatch) and found.candidate.revisit
    assert (found.candidate.mime, found.media_type) == ("warc/revisit", "text/html")
    # A revisit without a status (as pywb writes "server not modified" ones) is not used.
    bare = ArchiveEvidence()
    bare.add(Capture(ORIGINAL, "20240101000000", 200, sha1_digest(PAGE), "text/html"))
    bare.add(Capture(CANDIDATE, "20240101000000", None, sha1_digest(PAGE), "warc/revisit", True))
    bare.finish()
    assert bare.match(ORIGINAL, CANDIDATE) is ArchiveRefusal.NOT_CAPTURED
    # Nor is one whose media type no capture of its URL and digest says.
    alone = ArchiveEvidence()
    alone.add(_capture(Shot(ORIGINAL, "20240101000000", PAGE)))
    alone.add(_capture(Shot(CANDIDATE, "20240101000000", PAGE, revisit=True)))
    alone.add(_capture(ITEM_3))
    alone.finish()
    assert alone.match(ORIGINAL, CANDIDATE) is ArchiveRefusal.MEDIA_TYPE


def test_of_several_pairs_the_closest_in_time_is_used_whatever_the_order() -> None:
    shots = [
        Shot(ORIGINAL, "20240101000000", PAGE),
        Shot(CANDIDATE, "20240101060000", PAGE),
        Shot(ORIGINAL, "20240105000000", PAGE),
        Shot(CANDIDATE, "20240105000100", PAGE),
    ]
    forward = _archive(*shots).match(ORIGINAL, CANDIDATE)
    backward = _archive(*reversed(shots)).match(ORIGINAL, CANDIDATE)
    assert forward == backward
    assert isinstance(forward, ArchiveMatch) and forward.seconds_apart == 60.0


def test_load_archive_reads_indexes_and_warcs_and_skips_malformed_records(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    index = write_cdxj(
        tmp_path / "index.cdxj",
        [Shot(ORIGINAL, "20240101000000", PAGE), ITEM_3],
        ['bad 20240101000000 {"url": ', "no json here"],
    )
    warc = write_warc(tmp_path / "more.warc.gz", [Shot(CANDIDATE, "20240101000100", PAGE)])
    with caplog.at_level(logging.WARNING):
        archive = load_archive([str(index), str(warc)], 3600)
    assert isinstance(archive.match(ORIGINAL, CANDIDATE), ArchiveMatch)
    (warning,) = [r.getMessage() for r in caplog.records]
    assert warning.startswith(f"--archive {index}: 2 malformed records skipped, first: {index}:4:")
    with pytest.raises(ConfigError, match=r"--archive .*missing\.cdxj: No such file"):
        load_archive([str(tmp_path / "missing.cdxj")])
    with pytest.raises(ConfigError, match="--archive-window"):
        load_archive([str(index)], float("nan"))


def test_samples_from_the_archive_do_not_count_as_rendered_urls() -> None:
    from learner.judge.defaults import _rendered
    from samepage import ParamVerdict, PatternEntry
    from samepage.learned import Sample

    rendered = Sample("https://s.example/p?id=1&ref=a", "https://s.example/p?ref=a", "same")
    archived = Sample(ORIGINAL, CANDIDATE, "same", from_archive=True)
    samples = (rendered, archived)
    entry = PatternEntry(2, {"ref": ParamVerdict("neutral", 2, 0, 0, samples=samples)})
    # Default values prefer sample URLs already rendered; an archive sample rendered nothing.
    assert _rendered(entry) == {rendered.url, rendered.candidate}
