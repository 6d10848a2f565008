"""The public surface: everything in __all__ exists, is sorted, and nothing else leaks."""

from __future__ import annotations

import samepage


def test_all_is_sorted_and_complete() -> None:
    assert samepage.__all__ == sorted(samepage.__all__)
    for name in samepage.__all__:
        assert hasattr(samepage, name), name
    public = {n for n in dir(samepage) if not n.startswith("_")}
    # Engine and crawler adapters become attributes once another test imports them.
    engines = {"arrow", "duckdb", "spark", "archives", "scrapy"}
    modules = {"annotations", "cli", "errors", "learned", "normalizer", "rules", "templates"}
    modules |= engines
    assert public - set(samepage.__all__) - modules == set()


def test_errors_are_value_errors() -> None:
    assert issubclass(samepage.InvalidURL, ValueError)
    assert issubclass(samepage.LearnedFormatError, ValueError)
    assert issubclass(samepage.InvalidURL, samepage.SamepageError)
