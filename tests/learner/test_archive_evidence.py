"""Archive captures as sample evidence: which pairs of captures prove "same", and which not."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from learner.archive_evidence import ArchiveEvidence, load_archive
from learner.decision import Cause
from learner.errors import ConfigError
from samepage.archives import Capture
from tests.archive_fixtures import Shot, sha1_digest, write_cdxj, write_warc

ORIGINAL = "https://shop.example/p?id=1&ref=home"
CANDIDATE = "https://shop.example/p?id=1"
PAGE = b"<h1>Item 1</h1>"


def _archive(*shots: Shot, window_s: float = 86400.0) -> ArchiveEvidence:
    archive = ArchiveEvidence(window_s=window_s)
    for shot in shots:
        digest = sha1_digest(shot.body)
        archive.add(Capture(shot.url, shot.timestamp, shot.status, digest, "", shot.revisit))
    archive.finish()
    return archive


def test_two_2xx_captures_with_one_digest_make_the_sample_same() -> None:
    archive = _archive(
        Shot(ORIGINAL, "20240101000000", PAGE), Shot(CANDIDATE, "20240101003000", PAGE)
    )
    outcome = archive.outcome(ORIGINAL, CANDIDATE)
    assert outcome is not None
    assert (outcome.outcome, outcome.cause) == ("same", Cause.ARCHIVE.value)
    found = outcome.evidence["archive"]
    assert (found["original"]["url"], found["candidate"]["url"]) == (ORIGINAL, CANDIDATE)
    assert found["seconds_apart"] == 1800.0
    assert outcome.evidence["renders"] == {"original": 0, "candidate": 0}
    assert sha1_digest(PAGE) in outcome.reason


@pytest.mark.parametrize(
    ("shots", "why"),
    [
        (
            [Shot(ORIGINAL, "20240101000000", PAGE), Shot(CANDIDATE, "20240101000000", b"x")],
            "a differing digest is no evidence",
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
    ],
)
def test_captures_that_prove_nothing_leave_the_sample_to_be_rendered(
    shots: list[Shot], why: str
) -> None:
    assert _archive(*shots).outcome(ORIGINAL, CANDIDATE) is None, why


def test_a_revisit_counts_with_its_status_and_the_digest_it_repeats() -> None:
    archive = _archive(
        Shot(ORIGINAL, "20240101000000", PAGE),
        Shot(CANDIDATE, "20230101000000", PAGE),  # a year before: outside the window
        Shot(CANDIDATE, "20240101010000", PAGE, revisit=True),
    )
    found = archive.same(ORIGINAL, CANDIDATE)
    assert found is not None and found["candidate"]["revisit"] is True
    # A revisit without a status (as pywb writes "server not modified" ones) is not used.
    bare = ArchiveEvidence()
    bare.add(Capture(ORIGINAL, "20240101000000", 200, sha1_digest(PAGE)))
    bare.add(Capture(CANDIDATE, "20240101000000", None, sha1_digest(PAGE), "warc/revisit", True))
    bare.finish()
    assert bare.same(ORIGINAL, CANDIDATE) is None


def test_of_several_pairs_the_closest_in_time_is_used_whatever_the_order() -> None:
    shots = [
        Shot(ORIGINAL, "20240101000000", PAGE),
        Shot(CANDIDATE, "20240101060000", PAGE),
        Shot(ORIGINAL, "20240105000000", PAGE),
        Shot(CANDIDATE, "20240105000100", PAGE),
    ]
    forward = _archive(*shots).same(ORIGINAL, CANDIDATE)
    backward = _archive(*reversed(shots)).same(ORIGINAL, CANDIDATE)
    assert forward == backward
    assert forward is not None and forward["seconds_apart"] == 60.0


def test_load_archive_reads_indexes_and_warcs_and_skips_malformed_records(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    index = write_cdxj(
        tmp_path / "index.cdxj",
        [Shot(ORIGINAL, "20240101000000", PAGE)],
        ['bad 20240101000000 {"url": ', "no json here"],
    )
    warc = write_warc(tmp_path / "more.warc.gz", [Shot(CANDIDATE, "20240101000100", PAGE)])
    with caplog.at_level(logging.WARNING):
        archive = load_archive([str(index), str(warc)], 3600)
    assert archive.same(ORIGINAL, CANDIDATE) is not None
    (warning,) = [r.getMessage() for r in caplog.records]
    assert warning.startswith(f"--archive {index}: 2 malformed records skipped, first: {index}:3:")
    with pytest.raises(ConfigError, match=r"--archive .*missing\.cdxj: No such file"):
        load_archive([str(tmp_path / "missing.cdxj")])
    with pytest.raises(ConfigError, match="--archive-window"):
        load_archive([str(index)], float("nan"))
