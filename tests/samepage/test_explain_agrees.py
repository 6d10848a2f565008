"""explain() reaches the same result as normalize() on every URL of the normalizer's tables."""

from __future__ import annotations

import pytest

from samepage import InvalidURL, MIQPSNormalizer
from tests.samepage import test_query, test_rewrite, test_rules_table, test_url
from tests.samepage.test_learned import DOC


def _table_urls() -> list[str]:
    urls: list[str] = []
    for module in (test_url, test_query, test_rules_table, test_rewrite):
        for name in dir(module):
            if not name.startswith("test_"):
                continue
            for mark in getattr(getattr(module, name), "pytestmark", []):
                if mark.name != "parametrize":
                    continue
                for row in mark.args[1]:
                    values = row.values if hasattr(row, "values") else row
                    first = values[0] if isinstance(values, (tuple, list)) else values
                    if isinstance(first, str):
                        urls.append(first)
    return urls


URLS = _table_urls()


def test_the_tables_were_found() -> None:
    assert len(URLS) > 150


@pytest.mark.parametrize(
    "norm", [MIQPSNormalizer(), MIQPSNormalizer(learned=DOC, learned_fallback="domain")]
)
def test_explain_agrees_with_normalize(norm: MIQPSNormalizer) -> None:
    for url in URLS:
        try:
            expected = norm.normalize(url)
        except InvalidURL:
            with pytest.raises(InvalidURL):
                norm.explain(url)
            continue
        trace = norm.explain(url)
        assert trace.result == expected, url
        kept = [p for p in trace.params if p.kept]
        if expected.startswith("http") and "?" in expected:
            query = expected.split("?", 1)[1].split("#", 1)[0]
            assert sorted(q.partition("=")[0] for q in query.split("&")) == sorted(
                p.name for p in kept
            ), url
