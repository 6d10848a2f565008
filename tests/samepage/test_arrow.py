"""samepage.arrow: keys of Arrow string arrays, exactly those of normalize_url."""

from __future__ import annotations

from typing import Any

import pytest

from samepage import InvalidURL, MIQPSNormalizer
from tests.plugins.engines import engine
from tests.samepage.engine_inputs import ALIASED, LEARNED, expected, urls


@pytest.fixture(scope="module")
def pa() -> Any:
    return engine("pyarrow")


@pytest.mark.parametrize("learned", [False, True])
@pytest.mark.parametrize("kind", ["string", "large_string", "string_view", "chunked", "dict"])
def test_keys_match_normalize_url(pa: Any, kind: str, learned: bool) -> None:
    from samepage.arrow import normalize_array

    values = urls()
    if kind == "chunked":
        array = pa.chunked_array([pa.array(values[:100]), pa.array(values[100:])])
    elif kind == "dict":
        array = pa.array(values).dictionary_encode()
    else:
        array = pa.array(values, type=getattr(pa, kind)())
    norm = MIQPSNormalizer(learned=LEARNED) if learned else None
    keys = normalize_array(array, norm)
    assert keys.to_pylist() == expected(values, learned)
    assert keys.type == (pa.large_string() if kind == "large_string" else pa.string())
    if kind == "chunked":
        assert [len(c) for c in keys.chunks] == [100, len(values) - 100]


@pytest.mark.parametrize("kind", ["string", "binary", "dict"])
def test_learned_aliases_give_one_key_to_both_spellings(pa: Any, kind: str) -> None:
    from samepage.arrow import normalize_array

    values = [*ALIASED, None]
    if kind == "binary":
        array = pa.array([v.encode() if v else None for v in values], type=pa.binary())
    else:
        array = pa.array(values)
        array = array.dictionary_encode() if kind == "dict" else array
    keys = normalize_array(array, MIQPSNormalizer(learned=LEARNED)).to_pylist()
    assert keys == ["https://wiki.example/wiki/T", "https://wiki.example/wiki/T", None]
    # Without the learned set, the two spellings stay apart.
    assert len(set(normalize_array(array).to_pylist()[:2])) == 2


def test_errors_raise_and_unused_dictionary_values(pa: Any) -> None:
    from samepage.arrow import normalize_array

    with pytest.raises(InvalidURL, match="'nope'"):
        normalize_array(pa.array(["https://a.example/", "nope"]), errors="raise")
    # A dictionary value no row uses is not an error.
    unused = pa.DictionaryArray.from_arrays(pa.array([0, 0]), pa.array(["https://a.example", "x"]))
    assert normalize_array(unused, errors="raise").to_pylist() == ["https://a.example/"] * 2


def test_empty_null_and_non_string_arrays(pa: Any) -> None:
    from samepage.arrow import normalize_array

    assert normalize_array(pa.array([], type=pa.string())).to_pylist() == []
    assert normalize_array(pa.array([None, None])).to_pylist() == [None, None]
    with pytest.raises(TypeError, match="expected an array of strings or bytes, not int64"):
        normalize_array(pa.array([1, 2]))
