"""A module importing an absent optional dependency is skipped, naming its extra; not under CI."""

from __future__ import annotations

import os
import subprocess
import sys
import tomllib
from pathlib import Path

from tests.plugins.extras import OPTIONAL_MODULES, missing_extra

ROOT = Path(__file__).resolve().parent.parent


def _pytest(folder: Path, *, ci: bool) -> subprocess.CompletedProcess[str]:
    """Run pytest with doctest collection over ``folder``, with the repository's plugin."""
    (folder / "conftest.py").write_text('pytest_plugins = ("tests.plugins.extras",)\n')
    # Not the real warcio: a module of it that no release has, so the import always fails.
    (folder / "engine_adapter.py").write_text(
        '"""Needs warc.\n\n>>> 1\n1\n"""\nimport warcio.absent\n'
    )
    (folder / "test_engine.py").write_text("import warcio.absent\n\ndef test_x():\n    pass\n")
    (folder / "fine.py").write_text('"""A doctest.\n\n>>> 1 + 1\n2\n"""\n')
    env = {k: v for k, v in os.environ.items() if k != "CI"}
    env["PYTHONPATH"] = str(ROOT)
    env["PYTEST_DISABLE_PLUGIN_AUTOLOAD"] = "1"  # only what the plugin needs: quicker
    if ci:
        env["CI"] = "1"
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "--doctest-modules", "-rs"],
        cwd=folder,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_a_module_needing_an_absent_extra_is_skipped_with_the_extra_to_install(
    tmp_path: Path,
) -> None:
    done = _pytest(tmp_path, ci=False)
    assert done.returncode == 0, done.stdout
    assert "1 passed, 2 skipped" in done.stdout
    assert done.stdout.count("warcio is not installed: pip install 'samepage[warc]'") == 1


def test_under_ci_a_module_needing_an_absent_extra_fails_the_collection(tmp_path: Path) -> None:
    done = _pytest(tmp_path, ci=True)
    assert done.returncode != 0
    # The doctests of both modules, and the tests of one, each fail to collect.
    assert "3 errors" in done.stdout
    # "'warcio.absent'" where warcio is installed, "'warcio'" where it is not.
    assert "ModuleNotFoundError: No module named 'warcio" in done.stdout


def test_a_missing_module_of_the_project_itself_is_never_skipped() -> None:
    assert missing_extra(ModuleNotFoundError(name="samepage.gone")) is None
    assert missing_extra(ModuleNotFoundError(name="duckdb")) == (
        "duckdb is not installed: pip install 'samepage[duckdb]'"
    )
    wrapped = ImportError("while importing")
    wrapped.__cause__ = ModuleNotFoundError(name="PIL.Image")
    assert missing_extra(wrapped) == "PIL is not installed: pip install 'samepage[learner]'"


def test_each_optional_module_is_named_with_an_extra_that_exists() -> None:
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"][
        "optional-dependencies"
    ]
    assert set(OPTIONAL_MODULES.values()) <= set(extras)
