"""Web archives as input: ``samepage normalize`` and ``dedupe`` over CDXJ indexes and WARCs."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from samepage.archives import cdxj_captures, warc_captures
from tests.archive_fixtures import Shot, cdxj_line, sha1_digest, write_cdxj, write_warc
from tests.cli_process import samepage_process as run
from tests.plugins.engines import engine

engine("warcio")

PAGE, OTHER = b"<h1>Item 1</h1>", b"<h1>Item 1, now on sale</h1>"
SHOTS = [
    Shot("https://shop.example/p?id=1&utm_source=news", "20240101000000", PAGE),
    Shot("https://shop.example/p?id=1", "20240101000500", PAGE),
    Shot("https://shop.example/p?id=1", "20240301000000", PAGE, revisit=True),
    Shot("https://shop.example/p?fbclid=x&id=1", "20240401000000", OTHER),
    Shot("https://shop.example/p?id=2", "20240101000000", b"<h1>Item 2</h1>"),
]


def _groups(stdout: str) -> dict[str, dict[str, object]]:
    return {g["key"]: g for g in map(json.loads, stdout.splitlines())}


def test_dedupe_of_an_index_counts_captures_and_distinct_digests(tmp_path: Path) -> None:
    index = write_cdxj(tmp_path / "index.cdxj", SHOTS)
    result = run("dedupe", str(index))
    assert result.returncode == 0, result.stderr
    groups = _groups(result.stdout)
    one = groups["https://shop.example/p?id=1"]
    # Four captures, three spellings; the revisit repeats the first digest: two digests.
    assert (one["count"], one["digests"], one["no_digest"]) == (4, 2, 0)
    assert one["urls"] == [
        "https://shop.example/p?id=1&utm_source=news",
        "https://shop.example/p?id=1",
        "https://shop.example/p?fbclid=x&id=1",
    ]
    captures = one["captures"]
    assert isinstance(captures, list)
    assert [c["revisit"] for c in captures] == [False, False, True, False]
    assert captures[2]["digest"] == sha1_digest(PAGE)
    assert (groups["https://shop.example/p?id=2"]["count"], len(groups)) == (1, 2)
    tsv = run("dedupe", "--format", "tsv", str(index)).stdout.splitlines()
    assert tsv[0] == (
        "4\t2\thttps://shop.example/p?id=1\thttps://shop.example/p?id=1&utm_source=news"
    )


def test_a_warc_with_revisits_gives_the_same_groups_as_its_index(tmp_path: Path) -> None:
    warc = write_warc(tmp_path / "crawl.warc.gz", SHOTS)
    index = write_cdxj(tmp_path / "index.cdxj", SHOTS)
    from_warc, from_index = run("dedupe", str(warc)), run("dedupe", str(index))
    assert from_warc.returncode == 0, from_warc.stderr
    strip = [
        {k: v for k, v in g.items() if k != "captures"}
        for g in map(json.loads, from_warc.stdout.splitlines())
    ]
    assert strip == [
        {k: v for k, v in g.items() if k != "captures"}
        for g in map(json.loads, from_index.stdout.splitlines())
    ]
    keys = run("normalize", str(warc)).stdout.splitlines()
    assert keys == ["https://shop.example/p?id=1"] * 4 + ["https://shop.example/p?id=2"]


def test_malformed_index_lines_are_one_line_errors_and_the_rest_is_read(tmp_path: Path) -> None:
    good = cdxj_line(SHOTS[1])
    index = write_cdxj(
        tmp_path / "index.cdxj",
        SHOTS[:1],
        [
            good.replace('"url"', '"url" 1'),  # bad JSON
            "example,com)/ 20240101000000",  # no JSON
            'example,com)/ 2024x {"url": "https://example.com/"}',  # bad timestamp
            'example,com)/ 20241340000000 {"url": "https://example.com/"}',  # no such date
            'example,com)/ 20240101000000 {"status": "200"}',  # no url
            'example,com)/ 20240101000000 ["https://example.com/"]',
            'example,com)/ 20240101000000 {"url": "not a url"}',
            good,
        ],
    )
    result = run("normalize", str(index))
    assert result.returncode == 1
    assert result.stdout.splitlines() == ["https://shop.example/p?id=1"] * 2
    errors = result.stderr.splitlines()
    assert len(errors) == 7
    assert errors[0].startswith(f"samepage: {index}:3: bad JSON: ")
    assert errors[1] == f"samepage: {index}:4: not a CDXJ line (SURT TIMESTAMP {{JSON}})"
    assert errors[2] == f"samepage: {index}:5: bad timestamp '2024x' (4 to 14 digits)"
    assert errors[3] == f"samepage: {index}:6: bad timestamp '20241340000000' (not a date)"
    assert errors[4] == f"samepage: {index}:7: no url in the JSON"
    assert errors[5] == f"samepage: {index}:8: not a CDXJ line (SURT TIMESTAMP {{JSON}})"
    assert errors[6].startswith(f"samepage: {index}:9: invalid URL 'not a url'")
    assert "Traceback" not in result.stderr


@pytest.mark.parametrize("gzip", [True, False])
def test_a_truncated_warc_reports_the_cut_record_and_keeps_the_whole_ones(
    tmp_path: Path, gzip: bool
) -> None:
    name = "crawl.warc.gz" if gzip else "crawl.warc"
    whole = write_warc(tmp_path / name, SHOTS[:3], gzip=gzip).read_bytes()
    cut = tmp_path / f"cut-{name}"
    cut.write_bytes(whole[:-40])
    result = run("normalize", str(cut))
    assert result.returncode == 1
    assert result.stdout.splitlines() == ["https://shop.example/p?id=1"] * 2
    (error,) = result.stderr.splitlines()
    assert error.startswith(f"samepage: {cut}@") and "truncated" in error
    # A record cut in its headers, further up, is reported too.
    cut.write_bytes(whole[: len(whole) // 2])
    result = run("normalize", str(cut))
    assert result.returncode == 1 and "truncated" in result.stderr
    assert len(result.stdout.splitlines()) < 2


def test_a_file_that_is_not_a_warc_is_one_line(tmp_path: Path) -> None:
    bad = tmp_path / "bad.warc"
    bad.write_text("hello\r\n\r\nworld\r\n", encoding="utf-8")
    result = run("dedupe", str(bad))
    assert result.returncode == 1
    assert result.stderr.startswith(f"samepage: {bad}@0: not a WARC record (no WARC/1.x line)")
    assert len(result.stderr.splitlines()) == 1


def test_archive_inputs_are_refused_with_text_files_stdin_or_out(tmp_path: Path) -> None:
    index = write_cdxj(tmp_path / "index.cdxj", SHOTS)
    text = tmp_path / "urls.txt"
    text.write_text("https://a.example/\n", encoding="utf-8")
    mixed = run("normalize", str(index), str(text))
    assert (mixed.returncode, mixed.stderr.strip()) == (
        2,
        "samepage: mixed inputs: give archives and other files in separate runs",
    )
    stdin = run("normalize", "--input-format", "cdxj")
    assert stdin.stderr.strip() == "samepage: cdxj input is read from files, not stdin"
    out = run("dedupe", str(index), "--out", str(tmp_path / "x.parquet"))
    assert out.returncode == 2 and "--out is for Parquet or CSV input" in out.stderr
    # --input-format reads any name as an index.
    other = tmp_path / "index.txt"
    other.write_bytes(index.read_bytes())
    assert run("normalize", "--input-format", "cdxj", str(other)).stdout.count("\n") == 5


def test_pywb_bare_sha1_digests_equal_prefixed_ones_and_other_digests_are_kept_exact() -> None:
    lines = [
        cdxj_line(SHOTS[0], bare_digest=True),
        cdxj_line(SHOTS[1]),
        'k 20240101000000 {"url": "https://a.example/", "digest": "SHA256:abcDEF"}',
        'k 20240101000000 {"url": "https://a.example/", "digest": "-", "status": "-"}',
    ]
    digests = [c.digest for c in cdxj_captures(lines, "i")]
    assert digests[0] == digests[1] == sha1_digest(PAGE)
    assert digests[2:] == ["sha256:abcDEF", None]


def test_warc_reader_skips_records_that_are_not_captures(tmp_path: Path) -> None:
    from warcio.warcwriter import WARCWriter

    path = write_warc(tmp_path / "a.warc", SHOTS[:1], gzip=False)
    with open(path, "ab") as handle:
        writer = WARCWriter(handle, gzip=False)
        writer.write_record(writer.create_warcinfo_record("a.warc", {"software": "test"}))
    assert [c.url for c in warc_captures(str(path))] == [SHOTS[0].url]
