"""samepage's modules are in layers that import one way, from the URL parts up.

Every import counts: at the top of a module, inside a function, or for type checking only.
"""

from __future__ import annotations

import ast
from pathlib import Path

import samepage

LAYERS: tuple[tuple[str, frozenset[str]], ...] = tuple(
    (name, frozenset(modules.split()))
    for name, modules in (
        (
            "URL parts",
            "errors _encoding _url _hosts _query _json _files _suffixes templates formats "
            "_archive_io _warc",
        ),
        (
            "rules",
            "rules _name_rules _domain_rules _rule_scopes _rule_checks _rewrite aliases "
            "_explanation",
        ),
        ("learned-set model", "_evidence _learned_model"),
        ("reader and validator", "_alias_check _evidence_check _validate"),
        ("learned layer and host policy", "_learned_layer _policy"),
        ("conflict analysis", "_conflicts"),
        ("learned set", "learned"),
        ("normalizer", "_options _alias_runtime _miqps_normalizer normalizer"),
        (
            "public modules",
            "__init__ __main__ urls files arrow duckdb _duckdb_functions _duckdb_sql spark scrapy "
            "archives _archive_cli _cli_parser _cli_io cli",
        ),
    )
)
"""From the bottom up; a module imports modules of its own layer or of the layers below."""
ROOT = Path(samepage.__file__).parent


def _layer(module: str) -> int:
    for place, (_, modules) in enumerate(LAYERS):
        if module in modules:
            return place
    raise AssertionError(f"samepage/{module}.py is in no layer: add it to LAYERS")


def _imported(path: Path) -> set[str]:
    """The samepage modules ``path`` imports (by name, without ``samepage.``), anywhere in it."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            if node.module == "samepage":  # from samepage import _url: a module, or the package
                modules = {a.name for a in node.names if (ROOT / f"{a.name}.py").exists()}
                found |= modules or {"__init__"}
            elif node.module.startswith("samepage."):
                found.add(node.module.split(".")[1])
        elif isinstance(node, ast.Import):
            found |= {a.name.split(".")[1] for a in node.names if a.name.startswith("samepage.")}
        assert not (isinstance(node, ast.ImportFrom) and node.level), f"{path.name}: relative"
    return found - {path.stem}


def _modules() -> dict[str, set[str]]:
    return {path.stem: _imported(path) for path in sorted(ROOT.glob("*.py"))}


def test_every_module_has_a_layer() -> None:
    for module in _modules():
        _layer(module)


def test_no_module_imports_a_layer_above_its_own() -> None:
    backwards = [
        f"{module} ({LAYERS[_layer(module)][0]}) imports {other} ({LAYERS[_layer(other)][0]})"
        for module, imports in _modules().items()
        for other in sorted(imports)
        if _layer(other) > _layer(module)
    ]
    assert backwards == []


def test_no_circle_of_imports_within_a_layer() -> None:
    graph = _modules()
    done: set[str] = set()

    def visit(module: str, path: tuple[str, ...]) -> None:
        assert module not in path, " -> ".join((*path, module))
        if module not in done:
            for other in sorted(graph[module]):
                visit(other, (*path, module))
            done.add(module)

    for module in graph:
        visit(module, ())


def test_the_check_sees_an_import_inside_a_function_and_for_type_checking(
    tmp_path: Path,
) -> None:
    source = tmp_path / "learned.py"
    source.write_text(
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n    from samepage.normalizer import MIQPSNormalizer\n"
        "def f():\n    from samepage import _conflicts\n    import samepage.cli\n"
    )
    assert _imported(source) == {"normalizer", "_conflicts", "cli"}
