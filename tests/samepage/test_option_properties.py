"""Property tests of what configures samepage: learned-set files and option values.

Whatever a learned-set file holds, and whatever value an option is given, the command line
answers with a documented exit status and one line on stderr, never a traceback; the
Python API refuses a bad value with a ``TypeError`` or a ``ValueError`` (``SamepageError``),
never another exception.
"""

from __future__ import annotations

import copy
import json
import tempfile
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from samepage import MIQPSNormalizer
from tests.plugins.properties import examples
from tests.samepage.test_cli_properties import _INPUT, _run_on_bytes

_BASE: dict[str, Any] = {
    "format": "samepage.learned",
    "version": 1,
    "created": "2026-12-02T15:04:05Z",
    "settings": {"samples": 8, "threshold": 0.0, "min_samples": 3, "top_patterns": 20},
    "domains": {
        "shop.example": {
            "patterns": {
                "id&page&sort": {
                    "urls": 30,
                    "params": {
                        "id": {"verdict": "non-neutral", "tested": 5, "changed": 5, "failed": 0},
                        "page": {
                            "verdict": "non-neutral",
                            "tested": 4,
                            "changed": 3,
                            "failed": 0,
                            "defaults": {"1": {"tested": 4, "changed": 0, "failed": 0}},
                        },
                        "sort": {
                            "verdict": "neutral",
                            "tested": 8,
                            "changed": 0,
                            "failed": 0,
                            "defaults": {"new": {"tested": 4}},
                        },
                    },
                    "templates": {
                        "/p/{id}": {
                            "urls": 3,
                            "params": {
                                "sort": {"verdict": "non-neutral", "tested": 3, "changed": 3}
                            },
                        }
                    },
                }
            },
            "shared": {
                "/p/{id}": {
                    "urls": 2,
                    "params": {
                        "ref": {"verdict": "neutral", "tested": 4, "changed": 0, "failed": 0}
                    },
                }
            },
        }
    },
}

_SCALAR = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.integers(min_value=10**300, max_value=10**400)
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.text(max_size=8)
    | st.sampled_from(["neutral", "non-neutral", "", "shop.example", "Shop.Example.", "&", "{id}"])
)
_JSON = st.recursive(
    _SCALAR,
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3)
    ),
    max_leaves=8,
)


def _places(node: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every place in a parsed JSON document: the keys and indexes that lead to it."""
    found = [path]
    if isinstance(node, dict):
        for key, value in node.items():
            found += _places(value, (*path, key))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            found += _places(value, (*path, index))
    return found


_PLACES = _places(_BASE)[1:]


@st.composite
def _learned_documents(draw: st.DrawFn) -> Any:
    """The base document with a few places given random values (or their keys renamed)."""
    doc = copy.deepcopy(_BASE)
    for place in draw(st.lists(st.sampled_from(_PLACES), min_size=1, max_size=3)):
        parent: Any = doc
        try:
            for step in place[:-1]:
                parent = parent[step]
            if draw(st.booleans()) and isinstance(parent, dict):
                parent[draw(_SCALAR.map(str))] = parent.pop(place[-1])
            else:
                parent[place[-1]] = draw(_JSON)
        except (KeyError, IndexError, TypeError):
            continue  # an earlier change took this place away
    return doc


_SETTINGS = settings(
    max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
_URLS = (
    b"https://shop.example/p/7?id=1&page=1&sort=new&ref=x\n"
    b"https://shop.example/p/7?id=2&page=2\nhttps://a.example/?utm_source=x\n"
)


def _normalize_with(text: bytes) -> None:
    """``samepage normalize --learned FILE`` and ``explain``: a documented answer, no traceback."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "learned.json"
        path.write_bytes(text)
        status, out, err = _run_on_bytes(_URLS, "normalize", "--learned", str(path))
        assert status in (0, 2), err
        if status == 2:
            assert out == b"" and err.startswith("samepage: ") and err.count("\n") == 1
        else:
            assert out.count(b"\n") == 3 and err == ""
        url = "https://shop.example/p/7?id=1&page=1&sort=new"
        explained = _run_on_bytes(b"", "explain", "--learned", str(path), url)
        assert explained[0] == status


@_SETTINGS
@given(_learned_documents())
def test_a_learned_set_of_any_content_is_read_or_refused_in_one_line(doc: Any) -> None:
    _normalize_with(json.dumps(doc, allow_nan=True).encode("utf-8", "surrogatepass"))


@_SETTINGS
@given(_INPUT)
def test_a_learned_set_of_any_bytes_is_refused_in_one_line(data: bytes) -> None:
    _normalize_with(data)


_OPTION_VALUES = _JSON | st.frozensets(_SCALAR, max_size=3) | st.binary(max_size=8).map(bytes)
_OPTIONS = [
    "extra_blocklist",
    "extra_allowlist",
    "learned",
    "disable_rules",
    "learned_fallback",
    "unwrap_redirects",
]


@_SETTINGS
@given(st.sampled_from(_OPTIONS), _OPTION_VALUES)
def test_an_option_of_any_value_is_taken_or_refused_as_a_value_error(
    option: str, value: Any
) -> None:
    try:
        norm = MIQPSNormalizer(**{option: value})
    except (TypeError, ValueError):
        return
    norm.normalize("https://shop.example/p/7?id=1&page=1&sort=new&ref=x")
    norm.explain("https://shop.example:8080/p/7?id=1&page=1")


_CLI_OPTIONS = st.sampled_from(
    [
        ["--memory-limit"],
        ["--sample"],
        ["--format"],
        ["--input-format"],
        ["--column"],
        ["--learned-fallback"],
        ["--out"],
    ]
)
_ARGUMENT = st.text(max_size=12) | st.sampled_from(
    ["1GB", "0", "-1", "99999999999999999999", "tsv"]
)


@_SETTINGS
@given(st.sampled_from(["normalize", "dedupe"]), _CLI_OPTIONS, _ARGUMENT)
def test_a_command_line_option_of_any_value_answers_0_1_or_2(
    command: str, option: list[str], value: str
) -> None:
    if value.startswith("-"):
        value = " " + value  # an option's value, not another option
    try:
        status, _, err = _run_on_bytes(_URLS, command, *option, value)
    except SystemExit as exc:  # argparse refuses it: exit status 2 and its usage line
        assert exc.code == 2
        return
    assert status in (0, 1, 2), err
    if status == 2:
        assert err.startswith("samepage: ") and err.count("\n") == 1
