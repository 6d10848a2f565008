"""Every example in README.md and docs/*.md runs, and shows what it really returns.

Python blocks run in this process. A line ``# 'value'`` (a Python literal as a comment)
right after an expression states the expression's result: it is checked as an assertion.
Shell blocks (``bash``, ``sh``) run in ``bash -euo pipefail`` with this environment's
``python`` and ``samepage`` first on ``PATH``, and must exit 0. JSON blocks must parse, and
a learned set must load. Examples run in a folder that holds the files they name
(``urls.txt``, ``learned.json``, ``data/learned.json``, ``crawl.parquet``, ``crawl.csv``,
``crawl/*.parquet``). A block preceded by an HTML comment ``<!-- not run: REASON -->`` is
skipped (it needs a cluster, a network or a set-up the suite lacks).
"""

from __future__ import annotations

import ast
import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from samepage import DomainEntry, LearnedSet, dump_learned, load_learned
from tests.plugins.engines import missing, need_spark
from tests.plugins.extras import missing_extra

ROOT = Path(__file__).resolve().parent.parent
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
_BLOCK = re.compile(r"(?P<before>[^\n]*)\n```(?P<lang>[a-z]*)\n(?P<code>.*?)\n```", re.S)
_SHELLS = ("bash", "sh")
_NO_MODULE = re.compile(r"No module named '([\w.]+)'")


def _blocks(*languages: str) -> list[tuple[str, str]]:
    """(``file#n``, code) of each block in one of ``languages`` that is meant to run."""
    found = []
    for path in DOCS:
        text = path.read_text(encoding="utf-8")
        for number, match in enumerate(_BLOCK.finditer(text), start=1):
            if match.group("lang") not in languages:
                continue
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


BLOCKS = _blocks("python")
SHELL_BLOCKS = _blocks(*_SHELLS)
JSON_BLOCKS = _blocks("json")


def test_the_docs_have_examples_of_each_kind() -> None:
    assert len(BLOCKS) >= 2
    assert len(SHELL_BLOCKS) >= 2
    assert len(JSON_BLOCKS) >= 1


def test_every_block_is_run_or_says_why_not() -> None:
    """A block in a language the suite cannot run must be marked, so none is left untested."""
    unmarked = []
    for path in DOCS:
        for match in _BLOCK.finditer(path.read_text(encoding="utf-8")):
            known = match.group("lang") in ("python", "json", "", *_SHELLS)
            if not known and not match.group("before").strip().startswith("<!-- not run"):
                unmarked.append(f"{path.name}: {match.group('lang')}")
    assert unmarked == []


def _example_files(folder: Path) -> None:
    """The files the examples name: a learned set, and a crawl index in Parquet."""
    (folder / "data").mkdir()
    learned = LearnedSet({"shop.example": DomainEntry({})}, settings={})
    dump_learned(learned, folder / "data" / "learned.json")
    dump_learned(learned, folder / "learned.json")
    urls = ["https://shop.example/item?id=7&utm_source=mail", "https://shop.example/item?id=7"]
    (folder / "crawl.csv").write_text("url\n" + "\n".join(urls) + "\n", encoding="utf-8")
    (folder / "urls.txt").write_text("\n".join(urls) + "\n", encoding="utf-8")
    try:
        import pyarrow as pa
        import pyarrow.parquet as pq
    except ModuleNotFoundError:
        return  # the examples that read Parquet need pyarrow themselves, and say so
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
    try:
        exec(compile(checked, name, "exec"), {"__name__": "__doc_example__"})
    except ModuleNotFoundError as exc:
        reason = missing_extra(exc)
        if reason is None:
            raise
        missing(f"{name}: {reason}")


def test_shown_results_become_assertions() -> None:
    checked = _with_checks("x = 1\nx + 1\n# 2\n")
    assert checked.splitlines()[1] == "assert (x + 1) == 2, 'x + 1'"
    with pytest.raises(AssertionError):
        exec(compile(_with_checks("1 + 1\n# 3\n"), "wrong", "exec"), {})


def _shell_case(name: str, code: str) -> Any:
    """A shell example as a test case, marked with the engine it starts."""
    marks = [pytest.mark.spark] if "samepage.spark" in code else []
    return pytest.param(name, code, id=name, marks=marks)


@pytest.mark.parametrize("name, code", [_shell_case(name, code) for name, code in SHELL_BLOCKS])
def test_shell_example_runs(name: str, code: str, tmp_path: Path) -> None:
    if "samepage.spark" in code:
        need_spark()
    _example_files(tmp_path)
    env = dict(os.environ, PATH=f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}")
    done = subprocess.run(
        ["bash", "-euo", "pipefail", "-c", code],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    absent = _NO_MODULE.search(done.stderr)
    reason = absent and missing_extra(ModuleNotFoundError(name=absent.group(1)))
    if done.returncode != 0 and reason:
        missing(f"{name}: {reason}")
    assert done.returncode == 0, f"{name} exited {done.returncode}:\n{done.stderr[-3000:]}"


@pytest.mark.parametrize("name, code", JSON_BLOCKS, ids=[name for name, _ in JSON_BLOCKS])
def test_json_example_is_valid(name: str, code: str, tmp_path: Path) -> None:
    data = json.loads(code)
    if data.get("format") == "samepage.learned":
        path = tmp_path / "learned.json"
        path.write_text(code, encoding="utf-8")
        assert load_learned(path).domains


def _tree(module: Path) -> set[str]:
    """The class names of the hierarchy drawn in a module's docstring."""
    doc = ast.get_docstring(ast.parse(module.read_text(encoding="utf-8"))) or ""
    drawing = doc.partition("::")[2].split("\n\n")[1]
    return {line.strip(" │├└─").split()[0] for line in drawing.splitlines() if line.strip()}


def _subclasses(base: str) -> set[str]:
    """The classes of ``samepage`` and ``learner`` derived from ``base``, read from the source."""
    classes = {
        node.name: {b.id for b in node.bases if isinstance(b, ast.Name)}
        for package in ("samepage", "learner")
        for path in (ROOT / package).rglob("*.py")
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.ClassDef)
    }
    found = {base}
    while grown := {name for name, bases in classes.items() if bases & found} - found:
        found |= grown
    return found


def _raised(name: str) -> bool:
    """Whether any module of the project raises ``name`` (or builds one to raise later)."""
    sources = [p for package in ("samepage", "learner") for p in (ROOT / package).rglob("*.py")]
    return any(
        f"{name}(" in p.read_text(encoding="utf-8").replace(f"class {name}(", "") for p in sources
    )


@pytest.mark.parametrize(
    "module, base", [("samepage/errors.py", "SamepageError"), ("learner/errors.py", "LearnerError")]
)
def test_the_errors_tree_is_every_error_class_and_each_is_raised(module: str, base: str) -> None:
    drawn = _tree(ROOT / module)
    assert drawn == _subclasses(base)
    assert [name for name in sorted(drawn - {base}) if not _raised(name)] == []
