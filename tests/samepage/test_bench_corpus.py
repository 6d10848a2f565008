from __future__ import annotations

from collections import Counter, defaultdict
from urllib.parse import urlsplit

import pytest

from benchmarks.bench_normalize import score
from benchmarks.corpus import KINDS, LabelledURL, generate


@pytest.fixture(scope="module")
def corpus() -> list[LabelledURL]:
    return generate(3000, seed=11)


def test_same_seed_gives_the_same_corpus(corpus: list[LabelledURL]) -> None:
    assert generate(3000, seed=11) == corpus


def test_another_seed_gives_another_corpus(corpus: list[LabelledURL]) -> None:
    assert generate(3000, seed=12) != corpus


def test_size_is_exact() -> None:
    assert len(generate(1234, seed=3)) == 1234


def test_has_duplicates_and_distinct_pages(corpus: list[LabelledURL]) -> None:
    per_page = Counter(item.page for item in corpus)
    assert len(corpus) / len(per_page) > 2
    assert sum(1 for count in per_page.values() if count > 1) > len(per_page) / 2
    assert len(per_page) > 500


def test_every_url_is_unique(corpus: list[LabelledURL]) -> None:
    assert len({item.url for item in corpus}) == len(corpus)


def test_every_kind_appears(corpus: list[LabelledURL]) -> None:
    assert {item.kind for item in corpus} == set(KINDS)


def test_every_url_parses(corpus: list[LabelledURL]) -> None:
    for item in corpus:
        parts = urlsplit(item.url)
        assert parts.scheme.lower() in {"http", "https"}, item.url
        assert parts.hostname, item.url


def test_page_ids_are_canonical_spellings(corpus: list[LabelledURL]) -> None:
    for page in {item.page for item in corpus}:
        parts = urlsplit(page)
        assert parts.netloc == parts.netloc.lower(), page
        assert parts.netloc.isascii(), page


def test_siblings_differ_in_content(corpus: list[LabelledURL]) -> None:
    # Pages that share scheme, host and path must differ in a query or fragment.
    by_resource: defaultdict[str, set[str]] = defaultdict(set)
    for item in corpus:
        parts = urlsplit(item.page)
        by_resource[f"{parts.scheme}://{parts.netloc}{parts.path}"].add(item.page)
    assert sum(1 for pages in by_resource.values() if len(pages) > 1) > 100


@pytest.mark.parametrize(
    "kind, needle",
    [
        ("spa", "#!/"),
        ("video", "watch?"),
        ("search", "q="),
        ("marketplace", "/dp/"),
        ("ipv6", "["),
    ],
)
def test_kinds_carry_their_shapes(corpus: list[LabelledURL], kind: str, needle: str) -> None:
    assert any(needle in item.url for item in corpus if item.kind == kind)


def test_score_counts_merges_false_merges_and_errors() -> None:
    items = [
        LabelledURL("http://a/x?utm_source=t", "http://a/x", "t"),
        LabelledURL("http://a/x", "http://a/x", "t"),
        LabelledURL("http://a/x?id=2", "http://a/x?id=2", "t"),
        LabelledURL("bad", "bad", "t"),
    ]

    def drop_query(url: str) -> str:
        if "//" not in url:
            raise ValueError(url)
        return url.partition("?")[0]

    quality = score(drop_query, items)
    assert (quality.keys, quality.merged_pairs, quality.pages_collapsed) == (1, 1, 1)
    assert (quality.false_pairs, quality.false_keys, quality.errors) == (2, 1, 1)
