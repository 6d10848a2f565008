"""The public surface: everything in __all__ exists, is sorted, and nothing else leaks."""

from __future__ import annotations

import samepage
import samepage.files
import samepage.urls


def test_all_is_sorted_and_complete() -> None:
    assert samepage.__all__ == sorted(samepage.__all__)
    for name in samepage.__all__:
        assert hasattr(samepage, name), name
    public = {n for n in dir(samepage) if not n.startswith("_")}
    # Engine and crawler adapters become attributes once another test imports them.
    engines = {"arrow", "duckdb", "spark", "archives", "scrapy"}
    modules = {"aliases", "annotations", "cli", "errors", "learned", "normalizer", "rules"}
    modules |= {"templates"}
    modules |= engines | {"files", "formats", "urls"}
    # Older import paths kept working: the URL helpers (now in samepage.urls) and the file
    # writers (now in samepage.files), importable from samepage but not part of its API.
    kept = set(samepage.urls.__all__) | set(samepage.files.__all__)
    assert public - set(samepage.__all__) - modules - kept == set()


def test_the_url_helpers_have_one_public_home() -> None:
    assert samepage.urls.__all__ == sorted(samepage.urls.__all__)
    for name in samepage.urls.__all__:
        assert getattr(samepage.urls, name) is getattr(samepage, name, None) or name in {
            "pattern_names"
        }, name
    assert samepage.urls.pattern_key("https://s.example/p?b=1&utm_source=x&a=2") == "a&b"


def test_the_file_writers_have_one_public_home() -> None:
    assert samepage.files.__all__ == sorted(samepage.files.__all__)
    for name in samepage.files.__all__:
        assert getattr(samepage.files, name) is getattr(samepage, name), name


def test_errors_are_value_errors() -> None:
    assert issubclass(samepage.InvalidURL, ValueError)
    assert issubclass(samepage.LearnedFormatError, ValueError)
    assert issubclass(samepage.InvalidURL, samepage.SamepageError)
