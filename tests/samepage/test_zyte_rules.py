"""docs/zyte-rules.md stays true: each of Zyte's rules is covered or left out as it says."""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import quote

import pytest

from samepage import MIQPSNormalizer

DOC = Path(__file__).parents[2] / "docs" / "zyte-rules.md"
_NAME = re.compile(r"`([^`]+)`")
_NORM = MIQPSNormalizer()


def _rows() -> list[tuple[str, list[list[str]]]]:
    rows = []
    for line in DOC.read_text(encoding="utf-8").splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) != 6 or cells[0] not in ("article", "product", "utm"):
            continue
        host = "example.com" if cells[1] == "(every host)" else cells[1]
        rows.append((host, [_NAME.findall(c) for c in cells[2:]]))
    return rows


ROWS = _rows()


def _dropped(host: str, name: str, value: str) -> bool:
    key = _NORM.normalize(f"https://www.{host}/p/x?{quote(name, safe='[]:')}={value}&zz=1")
    return key.endswith("/p/x?zz=1")


def test_the_table_lists_every_rule() -> None:
    # 159 article rules and 219 product rules (one host each), and the utm rule.
    assert len(ROWS) == 379
    names = sum(len(n) for _, cells in ROWS for n in cells)
    assert names > 1000


@pytest.mark.parametrize("host, cells", ROWS, ids=[host for host, _ in ROWS])
def test_each_rule_is_covered_or_left_out_as_documented(host: str, cells: list[list[str]]) -> None:
    covered, conditioned, content, undocumented = cells
    for name in covered:
        assert _dropped(host, name, "twitter") and _dropped(host, name, "A1b2C3d4"), name
    for name in content + undocumented:
        if name != "(empty name)":
            assert not _dropped(host, name, "twitter"), name
            assert not _dropped(host, name, "A1b2C3d4"), name
    rules = _NORM.rules
    for name in conditioned:
        lower = name.lower()
        assert lower in rules.ambiguous or any(
            lower.startswith(p) for p, _ in rules.ambiguous_prefixes
        ), name
