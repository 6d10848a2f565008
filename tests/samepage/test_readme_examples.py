"""Every example of samepage 0.1.1's README, as a test: the API it promised still holds."""

from __future__ import annotations

from samepage import MIQPSNormalizer, normalize_url


def test_quick_start_strips_utm() -> None:
    assert (
        normalize_url("https://www.example.com/p?utm_source=fb&id=42")
        == "https://www.example.com/p?id=42"
    )


def test_quick_start_youtube_keeps_video_id() -> None:
    url = "https://www.youtube.com/watch?v=abc123&utm_source=share&fbclid=x"
    assert normalize_url(url) == "https://www.youtube.com/watch?v=abc123"


def test_quick_start_equal_urls_hash_identically() -> None:
    a = normalize_url("https://EXAMPLE.com/article?b=2&a=1#anchor")
    b = normalize_url("https://example.com/article?a=1&b=2")
    assert a == b == "https://example.com/article?a=1&b=2"


def test_custom_extra_blocklist() -> None:
    norm = MIQPSNormalizer(extra_blocklist=frozenset({"sessionid"}))
    assert (
        norm.normalize("https://example.com/p?id=1&sessionid=abc") == "https://example.com/p?id=1"
    )


def test_custom_learned_simple_form() -> None:
    norm = MIQPSNormalizer(learned={"weirdsite.com": frozenset({"page_id"})})
    assert (
        norm.normalize("https://weirdsite.com/x?page_id=42&utm_source=fb")
        == "https://weirdsite.com/x?page_id=42"
    )


def test_learned_host_suffix_covers_subdomains() -> None:
    norm = MIQPSNormalizer(learned={"example.com": frozenset({"id"})})
    assert (
        norm.normalize("https://api.foo.example.com/x?id=1&junk=2")
        == "https://api.foo.example.com/x?id=1"
    )


def test_blocklist_runs_before_allowlist() -> None:
    norm = MIQPSNormalizer(extra_allowlist={"example.com": ["fbclid", "id"]})
    assert norm.normalize("https://example.com/p?fbclid=1&id=2") == "https://example.com/p?id=2"


def test_unknown_parameter_on_unknown_domain_is_kept() -> None:
    assert normalize_url("https://unknown.example/p?zz=1") == "https://unknown.example/p?zz=1"


def test_hygiene_list() -> None:
    assert normalize_url("HTTP://Example.COM:80/a//b/?x=1#frag") == "http://example.com/a/b?x=1"
    assert normalize_url("https://example.com:443/") == "https://example.com/"
