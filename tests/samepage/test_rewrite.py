"""Whole-URL rewrites: session ids in query and path, redirect wrappers, host and path aliases.

Every rewrite comes with the pairs that must stay apart: a content parameter that shares a
session id's name, a wrapper-shaped URL on a site that is not a redirector.
"""

from __future__ import annotations

import pytest

from samepage import MIQPSNormalizer, normalize_url, same_page

SESSION_ROWS = [
    # Query: the value shapes of Heritrix's StripSessionIDs and the surt package.
    (
        "https://shop.example/item?id=7&PHPSESSID=2f6c1e7fd0a9b8c3d4e5f6a7b8",
        "https://shop.example/item?id=7",
    ),
    (
        "https://forum.example/viewtopic.php?t=5&sid=0123456789abcdef0123456789abcdef",
        "https://forum.example/viewtopic.php?t=5",
    ),
    (
        "https://shop.example/p?jsessionid=0A1B2C3D4E5F60718293A4B5C6D7E8F9.node1&id=3",
        "https://shop.example/p?id=3",
    ),
    (
        "https://app.example/p.asp?ASPSESSIONIDQSTSRDBC=ABCDEFGHIJKLMNOPQRSTUVWX&id=1",
        "https://app.example/p.asp?id=1",
    ),
    (
        "https://app.example/p.cfm?CFID=12345&CFTOKEN=87654321&id=1",
        "https://app.example/p.cfm?id=1",
    ),
    (
        "https://shop.example/index.php?main_page=product&osCsid=a1b2c3d4e5f6a7b8c9d0e1f2a3",
        "https://shop.example/index.php?main_page=product",
    ),
    # Path: Java URL rewriting and ASP.NET cookieless session state.
    (
        "https://shop.example/cart;jsessionid=0A1B2C3D4E5F60718293A4B5C6D7E8F9?id=3",
        "https://shop.example/cart?id=3",
    ),
    (
        "https://shop.example/a/b;jsessionid=0A1B2C3D4E5F60718293A4B5C6D7E8F9.n1/c",
        "https://shop.example/a/b/c",
    ),
    (
        "https://shop.example/(S(lit3py55t21z5v55vlm25s55))/default.aspx?id=1",
        "https://shop.example/default.aspx?id=1",
    ),
    (
        "https://shop.example/app/(X(1)S(lit3py55t21z5v55vlm25s55))/list.aspx",
        "https://shop.example/app/list.aspx",
    ),
    ("https://shop.example/(lit3py55t21z5v55vlm25s55)/old.aspx", "https://shop.example/old.aspx"),
    # Kept: a content parameter or path that merely shares the name or the brackets.
    ("https://news.example/story.php?sid=42", "https://news.example/story.php?sid=42"),
    ("https://shop.example/p.cfm?CFID=12345&id=1", "https://shop.example/p.cfm?CFID=12345&id=1"),
    ("https://shop.example/p?jsessionid=short", "https://shop.example/p?jsessionid=short"),
    (
        "https://wiki.example/wiki/Mercury_(planet)",
        "https://wiki.example/wiki/Mercury_(planet)",
    ),
    ("https://api.example/v1;version=2/items", "https://api.example/v1;version=2/items"),
]

REDIRECT_ROWS = [
    (
        "https://www.google.com/url?sa=t&url=https%3A%2F%2Fnews.example%2Fa%3Fid%3D1%26utm_source%3Dx&ved=2a",
        "https://news.example/a?id=1",
    ),
    (
        "https://www.google.co.uk/url?q=https://news.example/a&sa=D&source=docs",
        "https://news.example/a",
    ),
    (
        "https://l.facebook.com/l.php?u=https%3A%2F%2Fshop.example%2Fp%3Ffbclid%3Dabc&h=AT0x",
        "https://shop.example/p",
    ),
    (
        "https://www.youtube.com/redirect?event=video_description&q=https%3A%2F%2Fshop.example%2Fp",
        "https://shop.example/p",
    ),
    (
        "https://eur01.safelinks.protection.outlook.com/?url=https%3A%2F%2Fnews.example%2Fa&data=05",
        "https://news.example/a",
    ),
    ("https://vk.com/away.php?to=https%3A%2F%2Fnews.example%2Fa", "https://news.example/a"),
    ("https://duckduckgo.com/l/?uddg=https%3A%2F%2Fnews.example%2Fa", "https://news.example/a"),
    # A wrapper of a wrapper: the target is normalised, wrappers included.
    (
        "https://www.google.com/url?q="
        "https%3A%2F%2Fl.facebook.com%2Fl.php%3Fu%3Dhttps%253A%252F%252Fnews.example%252Fa",
        "https://news.example/a",
    ),
    # The target may itself be an alias.
    (
        "https://www.google.com/url?q=https%3A%2F%2Fyoutu.be%2FdQw4w9WgXcQ",
        "https://www.youtube.com/watch?v=dQw4w9WgXcQ",
    ),
    # Kept: the target is not an absolute http(s) URL.
    (
        "https://www.google.com/url?q=%2Fsearch%3Fq%3Dx&sa=U",
        "https://www.google.com/url?q=%2Fsearch%3Fq%3Dx&sa=U",
    ),
    (
        "https://www.google.com/url?q=javascript%3Aalert(1)",
        "https://www.google.com/url?q=javascript%3Aalert(1)",
    ),
    ("https://www.google.com/url?q=https%3A%2F%2F", "https://www.google.com/url?q=https%3A%2F%2F"),
    (
        "https://www.google.com/url?q=https%3A%2F%2Fbad%20host%2Fx",
        "https://www.google.com/url?q=https%3A%2F%2Fbad%20host%2Fx",
    ),
    # Kept: a wrapper-shaped URL on a host that is no redirector, or on another path or port.
    (
        "https://example.com/url?q=https%3A%2F%2Fnews.example%2Fa",
        "https://example.com/url?q=https%3A%2F%2Fnews.example%2Fa",
    ),
    (
        "https://notgoogle.com/url?q=https%3A%2F%2Fnews.example%2Fa",
        "https://notgoogle.com/url?q=https%3A%2F%2Fnews.example%2Fa",
    ),
    (
        "https://www.google.com/search?q=https%3A%2F%2Fnews.example%2Fa",
        "https://www.google.com/search?q=https%3A%2F%2Fnews.example%2Fa",
    ),
    (
        "https://www.google.com:8443/url?q=https%3A%2F%2Fnews.example%2Fa",
        "https://www.google.com:8443/url?q=https%3A%2F%2Fnews.example%2Fa",
    ),
    (
        "https://www.facebook.com/l.php?u=https%3A%2F%2Fnews.example%2Fa",
        "https://www.facebook.com/l.php?u=https%3A%2F%2Fnews.example%2Fa",
    ),
]

ALIAS_ROWS = [
    ("https://youtu.be/dQw4w9WgXcQ", "https://www.youtube.com/watch?v=dQw4w9WgXcQ"),
    (
        "https://youtu.be/dQw4w9WgXcQ?t=42&si=AbC",
        "https://www.youtube.com/watch?t=42&v=dQw4w9WgXcQ",
    ),
    (
        "https://m.youtube.com/watch?v=dQw4w9WgXcQ&feature=share",
        "https://www.youtube.com/watch?v=dQw4w9WgXcQ",
    ),
    ("https://youtube.com/watch?v=dQw4w9WgXcQ", "https://www.youtube.com/watch?v=dQw4w9WgXcQ"),
    ("https://www.amazon.com/dp/B08N5WRWNW", "https://www.amazon.com/dp/B08N5WRWNW"),
    (
        "https://www.amazon.com/Echo-Dot-5th-Gen/dp/B08N5WRWNW/ref=sr_1_1?crid=2M&th=1",
        "https://www.amazon.com/dp/B08N5WRWNW",
    ),
    ("https://www.amazon.com/gp/product/B08N5WRWNW", "https://www.amazon.com/dp/B08N5WRWNW"),
    ("https://www.amazon.co.uk/gp/aw/d/0262033844", "https://www.amazon.co.uk/dp/0262033844"),
    ("https://amazon.de/Some-Book/dp/3442151473/", "https://amazon.de/dp/3442151473"),
    ("https://mobile.twitter.com/jack/status/20?s=20", "https://x.com/jack/status/20"),
    (
        "https://old.reddit.com/r/python/comments/abc/title",
        "https://www.reddit.com/r/python/comments/abc/title",
    ),
    (
        "https://m.facebook.com/story.php?story_fbid=1&id=2",
        "https://www.facebook.com/story.php?id=2&story_fbid=1",
    ),
    # Kept: other pages, other hosts, and shapes the rules do not know.
    ("https://youtu.be/dQw4w9WgXc", "https://youtu.be/dQw4w9WgXc"),
    (
        "https://music.youtube.com/watch?v=dQw4w9WgXcQ",
        "https://music.youtube.com/watch?v=dQw4w9WgXcQ",
    ),
    (
        "https://www.amazon.com/product-reviews/B08N5WRWNW",
        "https://www.amazon.com/product-reviews/B08N5WRWNW",
    ),
    (
        "https://www.amazon.com/dp/B08N5WRWNW/other-page",
        "https://www.amazon.com/dp/B08N5WRWNW/other-page",
    ),
    ("https://notamazon.com/gp/product/B08N5WRWNW", "https://notamazon.com/gp/product/B08N5WRWNW"),
]


@pytest.mark.parametrize("url, expected", SESSION_ROWS + REDIRECT_ROWS + ALIAS_ROWS)
def test_normalize_url(url: str, expected: str) -> None:
    key = normalize_url(url)
    assert key == expected
    assert normalize_url(key) == key


@pytest.mark.parametrize(
    "a, b",
    [
        ("https://news.example/story.php?sid=42", "https://news.example/story.php?sid=43"),
        (
            "https://forum.example/viewtopic.php?t=1&sid=0123456789abcdef0123456789abcdef",
            "https://forum.example/viewtopic.php?t=2&sid=0123456789abcdef0123456789abcdef",
        ),
        (
            "https://example.com/url?q=https%3A%2F%2Fnews.example%2Fa",
            "https://news.example/a",
        ),
        (
            "https://www.google.com/url?q=https%3A%2F%2Fnews.example%2Fa",
            "https://www.google.com/url?q=https%3A%2F%2Fnews.example%2Fb",
        ),
        ("https://youtu.be/dQw4w9WgXcQ", "https://youtu.be/dQw4w9WgXcq"),
        ("https://www.amazon.com/dp/B08N5WRWNW", "https://www.amazon.com/dp/B08N5WRWNX"),
    ],
)
def test_pairs_that_must_stay_apart(a: str, b: str) -> None:
    assert not same_page(a, b)


def test_unwrap_redirects_false_keeps_the_wrapper() -> None:
    url = "https://www.google.com/url?q=https%3A%2F%2Fnews.example%2Fa&sa=D"
    norm = MIQPSNormalizer(unwrap_redirects=False)
    assert norm.normalize(url) == "https://www.google.com/url?q=https%3A%2F%2Fnews.example%2Fa&sa=D"
    assert MIQPSNormalizer().normalize(url) == "https://news.example/a"


@pytest.mark.parametrize(
    "disabled, url, expected",
    [
        (
            "redirect:google",
            "https://www.google.com/url?q=https%3A%2F%2Fnews.example%2Fa",
            "https://www.google.com/url?q=https%3A%2F%2Fnews.example%2Fa",
        ),
        (
            "alias:youtube-short-link",
            "https://youtu.be/dQw4w9WgXcQ",
            "https://youtu.be/dQw4w9WgXcQ",
        ),
        (
            "alias:amazon-product-path",
            "https://www.amazon.com/gp/product/B08N5WRWNW",
            "https://www.amazon.com/gp/product/B08N5WRWNW",
        ),
        (
            "session-path:jsessionid",
            "https://shop.example/cart;jsessionid=0A1B2C3D4E5F60718293A4B5C6D7E8F9",
            "https://shop.example/cart;jsessionid=0A1B2C3D4E5F60718293A4B5C6D7E8F9",
        ),
        (
            "session:phpsessid",
            "https://shop.example/p?PHPSESSID=2f6c1e7fd0a9b8c3d4e5f6a7b8",
            "https://shop.example/p?PHPSESSID=2f6c1e7fd0a9b8c3d4e5f6a7b8",
        ),
        (
            "aspsessionid*",
            "https://a.example/p?ASPSESSIONIDQSTSRDBC=ABCDEFGHIJKLMNOPQRSTUVWX",
            "https://a.example/p?ASPSESSIONIDQSTSRDBC=ABCDEFGHIJKLMNOPQRSTUVWX",
        ),
    ],
)
def test_disable_rules_switches_a_rewrite_off(disabled: str, url: str, expected: str) -> None:
    assert MIQPSNormalizer(disable_rules={disabled}).normalize(url) == expected
    assert MIQPSNormalizer().normalize(url) != expected


def test_explain_shows_each_rewrite_step() -> None:
    url = "https://www.google.com/url?q=https%3A%2F%2Fyoutu.be%2FdQw4w9WgXcQ%3Fsi%3Dx&sa=D"
    trace = MIQPSNormalizer().explain(url)
    assert [step.rule for step in trace.rewrites] == [
        "redirect:google",
        "alias:youtube-short-link",
    ]
    assert trace.rewrites[0].before == url
    assert trace.rewrites[0].after == "https://youtu.be/dQw4w9WgXcQ?si=x"
    assert trace.rewrites[1].after == "https://www.youtube.com/watch?v=dQw4w9WgXcQ&si=x"
    assert "ClearURLs" in trace.rewrites[0].source
    assert trace.result == "https://www.youtube.com/watch?v=dQw4w9WgXcQ"
    # The parameters explained are the target's, after the rewrites.
    assert [(p.name, p.kept, p.rule) for p in trace.params] == [
        ("v", True, "youtube.com:allow:v"),
        ("si", False, "youtube.com:block:si"),
    ]
    assert trace.to_json()["rewrites"][0]["rule"] == "redirect:google"


def test_explain_shows_session_rules() -> None:
    trace = MIQPSNormalizer().explain(
        "https://shop.example/cart;jsessionid=0A1B2C3D4E5F60718293A4B5C6D7E8F9"
        "?CFID=1&CFTOKEN=87654321&sid=42"
    )
    assert [step.rule for step in trace.rewrites] == ["session-path:jsessionid"]
    assert [(p.name, p.kept, p.rule) for p in trace.params] == [
        ("CFID", False, "session:cfid"),
        ("CFTOKEN", False, "session:cftoken"),
        ("sid", True, "default:keep"),
    ]


def test_learner_helpers_see_the_rewritten_url() -> None:
    norm = MIQPSNormalizer()
    url = "https://www.google.com/url?q=https%3A%2F%2Fshop.example%2Fp%3Fid%3D1%26utm_source%3Dx"
    assert norm.static_url(url) == "https://shop.example/p?id=1"
    assert norm.pattern_key(url) == "id"
