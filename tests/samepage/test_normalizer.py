"""MIQPSNormalizer options, layer order, immutability and the decision trace."""

from __future__ import annotations

import pytest

from samepage import MIQPSNormalizer, normalize_url
from samepage.normalizer import default_normalizer


def test_extra_blocklist_prefix_and_case() -> None:
    norm = MIQPSNormalizer(extra_blocklist=["trk_*", "SessionID"])
    assert (
        norm.normalize("https://a.example/?TRK_a=1&sessionid=2&id=3") == "https://a.example/?id=3"
    )


def test_extra_allowlist_global_and_per_host() -> None:
    url = "https://a.example/?ref=twitter"
    assert normalize_url(url) == "https://a.example/"
    assert MIQPSNormalizer(extra_allowlist=["ref"]).normalize(url) == url
    per_host = MIQPSNormalizer(extra_allowlist={"a.example": ["ref"]})
    assert per_host.normalize(url) == url
    assert per_host.normalize("https://b.example/?ref=twitter") == "https://b.example/"


def test_disable_rules_by_name_and_by_id() -> None:
    url = "https://a.example/?utm_source=x&fbclid=y"
    assert MIQPSNormalizer(disable_rules=["fbclid"]).normalize(url) == "https://a.example/?fbclid=y"
    assert (
        MIQPSNormalizer(disable_rules=["tracking:utm_*"]).normalize(url)
        == "https://a.example/?utm_source=x"
    )


def test_disable_rules_refuses_a_bare_string_and_unknown_ids() -> None:
    # Before: "ref" was read as the three names r, e and f, and unknown ids were ignored.
    with pytest.raises(TypeError, match=r"not the string 'ref' \(write \{'ref'\}\)"):
        MIQPSNormalizer(disable_rules="ref")
    with pytest.raises(
        ValueError, match="'redirect:gogle'; the closest known one is 'redirect:google'"
    ):
        MIQPSNormalizer(disable_rules={"redirect:gogle"})
    with pytest.raises(ValueError, match="'utm_source'; the closest known one is 'utm_\\*'"):
        MIQPSNormalizer(disable_rules={"utm_source"})
    with pytest.raises(TypeError, match="3 is not a rule id"):
        MIQPSNormalizer(disable_rules=[3])  # type: ignore[list-item]


def test_normalize_many_refuses_a_bare_string() -> None:
    with pytest.raises(TypeError, match="not a string"):
        MIQPSNormalizer().normalize_many("https://a.example/")


def test_options_are_validated() -> None:
    with pytest.raises(TypeError, match="not a string"):
        MIQPSNormalizer(extra_blocklist="sessionid")
    with pytest.raises(ValueError, match="not a parameter name"):
        MIQPSNormalizer(extra_blocklist=["*"])
    with pytest.raises(ValueError, match="learned_fallback"):
        MIQPSNormalizer(learned_fallback="drop")  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        MIQPSNormalizer({"a": 1})  # type: ignore[call-arg]


def test_normalizer_is_immutable() -> None:
    norm = MIQPSNormalizer()
    with pytest.raises(AttributeError, match="immutable"):
        norm.learned = None


def test_explain_reports_every_parameter_in_order() -> None:
    trace = MIQPSNormalizer().explain("https://www.youtube.com/watch?v=abc&utm_source=x&zz=1")
    assert [(p.name, p.kept, p.layer) for p in trace.params] == [
        ("v", True, "allowlist"),
        ("utm_source", False, "blocklist"),
        ("zz", True, "default"),
    ]
    assert trace.result == "https://www.youtube.com/watch?v=abc&zz=1"
    assert all(p.source for p in trace.params)
    assert trace.to_json()["params"][1]["rule"] == "tracking:utm_*"


def test_explain_of_non_http_url_has_no_parameters() -> None:
    trace = MIQPSNormalizer().explain("mailto:a@b.example?subject=x")
    assert trace.params == () and trace.result == "mailto:a@b.example?subject=x"


def test_static_url_keeps_everything_but_the_blocklist() -> None:
    norm = MIQPSNormalizer()
    assert (
        norm.static_url("https://A.example/p/?ref=twitter&utm_source=x&b=1")
        == "https://a.example/p?b=1&ref=twitter"
    )


def test_default_normalizer_is_shared() -> None:
    assert default_normalizer() is default_normalizer()


def test_import_is_cheap() -> None:
    import subprocess
    import sys

    code = "import sys, samepage; print('learner' in sys.modules, 'json' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split()[0] == "False"


@pytest.mark.parametrize(
    ("key", "suggested"),
    [
        ("Bücher.example", "xn--bcher-kva.example"),
        ("shop.example.", "shop.example"),
        ("https://shop.example", "shop.example"),
        ("shop.example/p", "shop.example"),
        ("shop.example:080", None),
        ("", None),
    ],
)
def test_extra_allowlist_host_keys_that_never_match_are_refused(
    key: str, suggested: str | None
) -> None:
    with pytest.raises(ValueError, match="extra_allowlist") as caught:
        MIQPSNormalizer(extra_allowlist={key: ["id"]})
    assert repr(key.lower()) in str(caught.value)
    if suggested is not None:
        assert repr(suggested) in str(caught.value)
    with pytest.raises(TypeError, match="host key 7"):
        MIQPSNormalizer(extra_allowlist={7: ["id"]})  # type: ignore[dict-item]


def test_extra_allowlist_protects_a_name_from_a_learned_set_by_host_and_by_port() -> None:
    # The simple form: the learned set drops every parameter of shop.example.
    learned: dict[str, set[str]] = {"shop.example": set()}
    for key in ("Shop.Example", "shop.example"):
        norm = MIQPSNormalizer(learned=learned, extra_allowlist={key: ["id"]})
        assert norm.normalize("https://shop.example/p?id=7") != norm.normalize(
            "https://shop.example/p?id=8"
        )
    both: dict[str, set[str]] = {"shop.example": set(), "shop.example:8080": set()}
    on_port = MIQPSNormalizer(learned=both, extra_allowlist={"shop.example:8080": ["id"]})
    assert on_port.normalize("https://shop.example:8080/p?id=7") == (
        "https://shop.example:8080/p?id=7"
    )
    assert on_port.normalize("https://shop.example/p?id=7") == "https://shop.example/p"
    every_port = MIQPSNormalizer(learned=both, extra_allowlist={"shop.example": ["id"]})
    assert every_port.normalize("https://shop.example:8080/p?id=7").endswith("?id=7")
