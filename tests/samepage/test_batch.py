"""normalize_many: the batch form of normalize, in the core and without dependencies."""

from __future__ import annotations

import subprocess
import sys

import pytest

import samepage
from samepage import InvalidURL, MIQPSNormalizer, normalize_many, normalize_url
from tests.samepage.engine_inputs import LEARNED, expected, urls


@pytest.mark.parametrize("learned", [False, True])
def test_same_keys_as_a_loop_over_normalize(learned: bool) -> None:
    values = urls()
    norm = MIQPSNormalizer(learned=LEARNED) if learned else MIQPSNormalizer()
    assert norm.normalize_many(values) == expected(values, learned)


def test_module_function_uses_the_built_in_rules() -> None:
    first = "https://A.example/p/?utm_source=x&id=1"
    values = [first, None, "nope", "mailto:a@b.example"]
    assert normalize_many(values) == [normalize_url(first), None, None, values[3]]
    assert normalize_many(iter(values[:1])) == ["https://a.example/p?id=1"]
    assert normalize_many([]) == []


def test_errors_raise() -> None:
    with pytest.raises(InvalidURL, match="'nope'"):
        normalize_many(["https://a.example/", "nope"], errors="raise")
    # A missing value is not an error: None stays None.
    assert normalize_many([None, "https://a.example"], errors="raise") == [
        None,
        "https://a.example/",
    ]
    with pytest.raises(ValueError, match="errors must be"):
        normalize_many([], errors="ignore")  # type: ignore[arg-type]


def test_non_strings_are_type_errors() -> None:
    with pytest.raises(TypeError, match="url must be a str"):
        normalize_many([42])  # type: ignore[list-item]


def test_import_samepage_imports_no_engine() -> None:
    code = (
        "import sys, samepage, samepage.cli\n"
        "heavy = {'pyarrow', 'duckdb', 'pyspark', 'pandas', 'numpy', 'samepage.arrow',\n"
        "         'samepage.duckdb', 'samepage.spark', 'learner', 'warcio', 'scrapy',\n"
        "         'twisted', 'samepage.archives', 'samepage.scrapy', 'samepage._archive_cli'}\n"
        "print(sorted(heavy & set(sys.modules)))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
    assert "normalize_many" in samepage.__all__


def test_readme_example() -> None:
    assert normalize_many(["https://A.example/?utm_source=x&id=1", None, "not a url"]) == [
        "https://a.example/?id=1",
        None,
        None,
    ]
