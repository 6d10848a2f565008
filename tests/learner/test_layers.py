"""The learner's subpackages follow its pipeline: no module imports a later stage."""

from __future__ import annotations

import ast
from pathlib import Path

import learner

STAGES = ("plan", "net", "render", "judge", "run", "report", "cluster")
"""In pipeline order; ``config``, ``errors`` and ``model`` come before them all."""
BASE = ("config", "errors", "model")
ROOT = Path(learner.__file__).parent


def _stage(module: str) -> int | None:
    """The place of a ``learner.`` module in the pipeline (-1: the base; None: on top)."""
    parts = module.split(".")
    if len(parts) < 2:
        return None
    if parts[1] in BASE:
        return -1
    return STAGES.index(parts[1]) if parts[1] in STAGES else None


def _imports(path: Path, package: str = "learner") -> list[str]:
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found += [node.module] + [f"{node.module}.{a.name}" for a in node.names]
        elif isinstance(node, ast.Import):
            found += [a.name for a in node.names]
    return [name for name in found if name.split(".")[0] == package]


def test_no_module_imports_a_later_stage() -> None:
    backwards = []
    for path in sorted(ROOT.rglob("*.py")):
        module = ".".join(path.relative_to(ROOT.parent).with_suffix("").parts)
        mine = _stage(module)
        if mine is None:
            continue
        for imported in _imports(path):
            theirs = _stage(imported)
            if theirs is not None and theirs > mine:
                backwards.append(f"{module} imports {imported}")
    assert backwards == []


def test_every_stage_says_what_it_holds() -> None:
    for stage in STAGES:
        doc = ast.get_docstring(ast.parse((ROOT / stage / "__init__.py").read_text()))
        assert doc and len(doc) > 20, stage
    assert sorted(p.name for p in ROOT.glob("*.py")) == sorted(
        [f"{name}.py" for name in (*BASE, "__init__", "__main__", "cli", "cli_options")]
    )


_ON_TOP = ("learner.cli", "learner.cli_options", "learner.__main__", "learner.demo")


def test_no_stage_imports_the_command_line_or_the_demo() -> None:
    found = []
    for path in sorted(ROOT.rglob("*.py")):
        module = ".".join(path.relative_to(ROOT.parent).with_suffix("").parts)
        if _stage(module) is None or module.startswith(_ON_TOP):
            continue
        found += [f"{module} imports {i}" for i in _imports(path) if i.startswith(_ON_TOP)]
    assert found == []


def test_the_learner_and_the_benchmarks_use_samepage_public_modules_only() -> None:
    # They build on samepage's public functions, never on its private modules or copies.
    benchmarks = ROOT.parent / "benchmarks"
    private = [
        f"{path.relative_to(ROOT.parent)} imports {name}"
        for path in sorted([*ROOT.rglob("*.py"), *benchmarks.rglob("*.py")])
        for name in _imports(path, "samepage")
        if any(part.startswith("_") for part in name.split(".")[1:2])
    ]
    assert private == []
