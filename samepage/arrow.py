"""Keys for Apache Arrow string arrays: the batch path that DuckDB and Spark both go through.

Needs ``pyarrow`` (``pip install 'samepage[duckdb]'`` or ``'samepage[spark]'``); ``import
samepage`` never imports this module.

>>> import pyarrow as pa
>>> normalize_array(pa.array(["https://A.example/?utm_source=x&id=1", None, "nope"])).to_pylist()
['https://a.example/?id=1', None, None]
"""

from __future__ import annotations

import pyarrow as pa

from samepage._encoding import escape_undecodable
from samepage.normalizer import Errors, MIQPSNormalizer, default_normalizer

__all__ = ["normalize_array", "observed_text"]


def normalize_array(
    array: pa.Array | pa.ChunkedArray,
    normalizer: MIQPSNormalizer | None = None,
    *,
    errors: Errors = "none",
) -> pa.Array | pa.ChunkedArray:
    """Return the deduplication key of every URL in ``array``, null where there is none.

    A null, or a string that is not a URL, gives a null key (or, with ``errors="raise"``, a
    string that is not a URL raises :class:`~samepage.InvalidURL`). The rules and the learned
    set are those of ``normalizer``, built once by the caller; by default the built-in rules.

    Args:
        array: a ``string``, ``large_string`` or ``string_view`` array, a binary array (its
            bytes read as UTF-8, any other byte kept as that byte, so a value is keyed exactly
            as ``normalize_url`` keys the same bytes read with ``surrogateescape``; a byte
            that a non-http value keeps is written as its percent-escape), a
            dictionary array of these (each distinct value is normalised once), or a chunked
            array of these.
        normalizer: the :class:`~samepage.MIQPSNormalizer` to use.
        errors: ``"none"`` (default) or ``"raise"``, for strings that are not URLs.

    Returns:
        An array of the same length: ``large_string`` for a ``large_string`` input, ``string``
        otherwise; a chunked array, chunk for chunk, for a chunked input.

    Raises:
        TypeError: for an array that holds neither strings nor bytes.
    """
    norm = normalizer or default_normalizer()
    if isinstance(array, pa.ChunkedArray):
        out_type = _key_type(array.type)
        chunks = [_normalize_chunk(chunk, norm, errors) for chunk in array.chunks]
        return pa.chunked_array(chunks, type=out_type)
    return _normalize_chunk(array, norm, errors)


def observed_text(array: pa.Array | pa.ChunkedArray) -> pa.Array | pa.ChunkedArray:
    r"""A binary array of URLs as text: UTF-8, each other byte as its percent-escape.

    The text shows the bytes as observed and has the same key; a string array is returned as
    it is.

    >>> observed_text(pa.array([b"https://a.example/\xff", None])).to_pylist()
    ['https://a.example/%FF', None]
    """
    if isinstance(array, pa.ChunkedArray):
        return pa.chunked_array([observed_text(c) for c in array.chunks], type=pa.string())
    if not _is_binary(array.type):
        return array
    return pa.array([escape_undecodable(t) if t is not None else None for t in _decoded(array)])


def _is_binary(type_: pa.DataType) -> bool:
    if pa.types.is_dictionary(type_):
        type_ = type_.value_type
    return bool(
        pa.types.is_binary(type_)
        or pa.types.is_large_binary(type_)
        or pa.types.is_binary_view(type_)
        or pa.types.is_fixed_size_binary(type_)
    )


def _decoded(array: pa.Array) -> list[str | None]:
    """The values of a binary array read as the CLI reads files: UTF-8, ``surrogateescape``."""
    return [
        None if value is None else value.decode("utf-8", "surrogateescape")
        for value in array.to_pylist()
    ]


def _key_type(type_: pa.DataType) -> pa.DataType:
    if pa.types.is_dictionary(type_):
        type_ = type_.value_type
    if pa.types.is_large_string(type_) or pa.types.is_large_binary(type_):
        return pa.large_string()
    if pa.types.is_string(type_) or pa.types.is_string_view(type_) or pa.types.is_null(type_):
        return pa.string()
    if _is_binary(type_):
        return pa.string()
    raise TypeError(f"expected an array of strings or bytes, not {type_}")


def _normalize_chunk(array: pa.Array, norm: MIQPSNormalizer, errors: Errors) -> pa.Array:
    out_type = _key_type(array.type)
    if isinstance(array, pa.DictionaryArray) and errors == "raise":
        # An unused dictionary value that is not a URL must not raise.
        array = array.dictionary_decode()
    if isinstance(array, pa.DictionaryArray):
        # Parquet readers hand out dictionary arrays for repetitive columns: one call per
        # distinct value, then the keys are gathered by index.
        keys = _normalize_chunk(array.dictionary, norm, errors)
        return keys.take(array.indices)
    if not _is_binary(array.type):
        return pa.array(norm.normalize_many(array.to_pylist(), errors=errors), type=out_type)
    # A value that is not http(s) comes back as it is: a byte that is not UTF-8 is then
    # written as its percent-escape, the only way a text key can hold it.
    keys = norm.normalize_many(_decoded(array), errors=errors)
    return pa.array([None if k is None else escape_undecodable(k) for k in keys], type=out_type)
