"""explain()'s per-parameter decisions account for normalize()'s key on every table URL."""

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
        kept = [p for p in trace.params if p.kept]
        if not expected.startswith("http"):
            continue
        # The key's query holds exactly the parameters explain() says were kept, and none
        # of those it says were dropped (computed from normalize(), not from the trace).
        query = expected.split("?", 1)[1].split("#", 1)[0] if "?" in expected else ""
        names = sorted(q.partition("=")[0] for q in query.split("&") if q)
        assert names == sorted(p.name for p in kept), url
        dropped = {p.name for p in trace.params if not p.kept} - {p.name for p in kept}
        assert not dropped & set(names), url
