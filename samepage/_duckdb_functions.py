"""The Python functions samepage registers in DuckDB, and the showing of URL bytes as text.

``samepage_key`` and ``samepage_key_bytes`` (:func:`register`) keep a tally of the values that
are not URLs (:class:`Outcome`); a job's grouped keys and URLs, kept as bytes, are shown as
text with each byte that is not UTF-8 percent-escaped.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field

import duckdb
import pyarrow as pa
import pyarrow.compute as pc

from samepage.arrow import normalize_array, observed_text
from samepage.normalizer import MIQPSNormalizer, default_normalizer

_EXAMPLES = 3


@dataclass
class Outcome:
    """What a file job saw: the values it read that are not URLs (their key is null).

    Attributes:
        seen: how many values ``samepage_key`` was called on.
        invalid: how many of them were not URLs (for :func:`dedupe_file`: distinct values).
        examples: the first few of them.
    """

    seen: int = 0
    invalid: int = 0
    examples: list[str] = field(default_factory=list)


class _KeyFunction:
    """The Arrow function behind ``samepage_key``: one normalizer, and a tally of bad values."""

    def __init__(self, normalizer: MIQPSNormalizer) -> None:
        self.normalizer = normalizer
        self.outcome = Outcome()
        self._lock = threading.Lock()

    def __call__(self, urls: pa.Array | pa.ChunkedArray) -> pa.Array | pa.ChunkedArray:
        keys = normalize_array(urls, self.normalizer)
        invalid = keys.null_count - urls.null_count
        with self._lock:
            self.outcome.seen += len(urls)
        if invalid:
            bad = observed_text(urls.filter(pc.and_(pc.is_valid(urls), pc.is_null(keys))))
            with self._lock:
                self.outcome.invalid += invalid
                room = _EXAMPLES - len(self.outcome.examples)
                self.outcome.examples.extend(bad.slice(0, room).to_pylist() if room > 0 else [])
        return keys


def register(
    con: duckdb.DuckDBPyConnection,
    normalizer: MIQPSNormalizer | None = None,
    name: str = "samepage_key",
) -> None:
    r"""Register ``name(url VARCHAR) -> VARCHAR`` on ``con``: the key, or NULL.

    Also ``name_bytes(url BLOB) -> VARCHAR`` for a binary column (a Parquet column without
    the UTF8 annotation): the bytes are read as UTF-8, any other byte kept as that byte, so
    the key is the one ``normalize_url`` gives the same bytes (``::VARCHAR`` would write a
    byte 0xFF as the text ``\xFF``). The functions are vectorized: DuckDB hands them Arrow
    batches, and the rules and learned set of ``normalizer`` (by default the built-in rules)
    are built once, here. A NULL, or a
    value that is not a URL, gives NULL.

    Args:
        con: the DuckDB connection.
        normalizer: the :class:`~samepage.MIQPSNormalizer` to use.
        name: the SQL name of the function.

    Example::

        register(con, MIQPSNormalizer(learned="data/learned.json"))
        con.sql("SELECT samepage_key(url), count(*) FROM 'crawl/*.parquet' GROUP BY 1")
    """
    _register(con, normalizer or default_normalizer(), name, pinned=False)


def _register(
    con: duckdb.DuckDBPyConnection, norm: MIQPSNormalizer, name: str, *, pinned: bool
) -> Outcome:
    function = _KeyFunction(norm)
    for suffix, kind in (("", "VARCHAR"), ("_bytes", "BLOB")):
        _create(con, name + suffix, function, kind, pinned=pinned)
    return function.outcome


def _create(
    con: duckdb.DuckDBPyConnection,
    name: str,
    function: object,
    kind: str,
    *,
    pinned: bool,
    returns: str = "VARCHAR",
) -> None:
    # "special": NULLs reach the function, and it may return NULL for a value that is not a
    # URL (DuckDB refuses NULL results from a function registered with default handling).
    # pinned: declared with side effects, so that the optimizer never copies the call into a
    # pushed-down filter (`WHERE key IS NOT NULL` would otherwise normalise every URL twice).
    con.create_function(  # type: ignore[call-overload]  # stubs type the options as enums
        name,
        function,
        [kind],
        returns,
        type="arrow",
        null_handling="special",
        side_effects=pinned,
    )


def observed_groups(batch: pa.RecordBatch) -> pa.RecordBatch:
    r"""A batch of ``key, count, urls`` groups whose key and URLs are bytes, as text.

    >>> batch = pa.record_batch([pa.array([b"k\xff"]), pa.array([1]), pa.array([[b"u"]])],
    ...                         names=["key", "count", "urls"])
    >>> observed_groups(batch).to_pylist()
    [{'key': 'k%FF', 'count': 1, 'urls': ['u']}]
    """
    key, count, urls = batch.columns
    return pa.record_batch(
        [observed_text(key), count, _observed_lists(urls)], names=["key", "count", "urls"]
    )


def _observed_lists(lists: pa.Array | pa.ChunkedArray) -> pa.Array | pa.ChunkedArray:
    r"""Lists of URL bytes as lists of text, each URL as :func:`observed_text` shows it.

    >>> _observed_lists(pa.array([[b"https://a.example/\xff"], None])).to_pylist()
    [['https://a.example/%FF'], None]
    """
    if isinstance(lists, pa.ChunkedArray):
        chunks = [_observed_lists(c) for c in lists.chunks]
        return pa.chunked_array(chunks, type=pa.list_(pa.string()))
    assert isinstance(lists, pa.ListArray)
    texts = observed_text(lists.values)
    return pa.ListArray.from_arrays(lists.offsets, texts, mask=lists.is_null())
