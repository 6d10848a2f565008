"""Every Python example in README.md and docs/*.md runs, and shows what it really returns.

A line ``# 'value'`` (a Python literal as a comment) right after an expression states the
expression's result: it is checked as an assertion. Examples run in a folder that holds the
files they name (``data/learned.json``, ``crawl.parquet``, ``crawl/*.parquet``). A block
preceded by an HTML comment ``<!-- not run: REASON -->`` is skipped (it needs a cluster or
a network the suite lacks).
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from samepage import DomainEntry, LearnedSet, dump_learned

ROOT = Path(__file__).resolve().parent.parent
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
_BLOCK = re.compile(r"(?P<before>[^\n]*)\n```python\n(?P<code>.*?)\n```", re.S)


def _blocks() -> list[tuple[str, str]]:
    found = []
    for path in DOCS:
        text = path.read_text(encoding="utf-8")
        for number, match in enumerate(_BLOCK.finditer(text), start=1):
            if match.group("before").strip().startswith("<!-- not run"):
                continue
            found.append((f"{path.name}#{number}", match.group("code")))
    return found


def _with_checks(code: str) -> str:
    """The block with each shown result turned into an assertion."""
    lines = code.splitlines()
    out: list[str] = []
    for line in lines:
        shown = line.strip()
        if out and shown.startswith("# ") and _is_literal(shown[2:]) and _is_expression(out[-1]):
            out[-1] = f"assert ({out[-1]}) == {shown[2:]}, {out[-1]!r}"
            continue
        out.append(line)
    return "\n".join(out)


def _is_literal(text: str) -> bool:
    try:
        ast.literal_eval(text)
    except (ValueError, SyntaxError):
        return False
    return True


def _is_expression(line: str) -> bool:
    if not line.strip() or line.startswith((" ", "\t")):
        return False
    try:
        tree = ast.parse(line)
    except SyntaxError:
        return False
    return len(tree.body) == 1 and isinstance(tree.body[0], ast.Expr)


BLOCKS = _blocks()


def test_the_docs_have_python_examples() -> None:
    assert len(BLOCKS) >= 2


def _example_files(folder: Path) -> None:
    """The files the examples name: a learned set, and a crawl index in Parquet."""
    (folder / "data").mkdir()
    learned = LearnedSet({"shop.example": DomainEntry({})}, settings={})
    dump_learned(learned, folder / "data" / "learned.json")
    import pyarrow as pa
    import pyarrow.parquet as pq

    urls = ["https://shop.example/item?id=7&utm_source=mail", "https://shop.example/item?id=7"]
    table = pa.table({"url": urls, "url_host_name": ["shop.example"] * 2})
    pq.write_table(table, folder / "crawl.parquet")
    (folder / "crawl").mkdir()
    pq.write_table(table, folder / "crawl" / "part-0.parquet")


@pytest.mark.parametrize("name, code", BLOCKS, ids=[name for name, _ in BLOCKS])
def test_example_runs_and_shows_its_results(
    name: str, code: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _example_files(tmp_path)
    monkeypatch.chdir(tmp_path)
    checked = _with_checks(code)
    exec(compile(checked, name, "exec"), {"__name__": "__doc_example__"})


def test_shown_results_become_assertions() -> None:
    checked = _with_checks("x = 1\nx + 1\n# 2\n")
    assert checked.splitlines()[1] == "assert (x + 1) == 2, 'x + 1'"
    with pytest.raises(AssertionError):
        exec(compile(_with_checks("1 + 1\n# 3\n"), "wrong", "exec"), {})
