"""The scan of a document's bytes: every way to run script or load more is a doubt."""

from __future__ import annotations

import pytest

from learner.judge.static_html import Doubt, doubt

HTML = "text/html; charset=utf-8"
PAGE = (
    '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Item 1</title>'
    '<meta name="viewport" content="width=device-width"><link rel="canonical" href="/p?id=1">'
    "<style>h1{color:#333;font:24px/1.2 sans-serif}</style></head><body><h1>Item 1</h1>"
    '<p>In stock. <a href="/p?id=2">Next</a></p><img src="data:image/gif;base64,R0lGOD" alt="">'
    "<!-- a comment --><form action=/search><input name=q></form></body></html>"
)


def test_a_static_page_is_no_doubt() -> None:
    assert doubt(PAGE.encode(), HTML) is None
    assert doubt(b"\xef\xbb\xbf" + PAGE.encode(), "text/html") is None
    assert doubt("<h1>Caf\u00e9 \u043c\u0438\u0440</h1>".encode(), HTML) is None


@pytest.mark.parametrize(
    ("body", "found"),
    [
        # Scripts, in any namespace or spelling, wherever a parser could start one.
        ("<script>document.write(location.search)</script>", Doubt.SCRIPT),
        ("<SCRIPT SRC=/a.js></SCRIPT>", Doubt.SCRIPT),
        ("<svg><script>alert(1)</script></svg>", Doubt.SCRIPT),
        ("<svg:script>x</svg:script>", Doubt.SCRIPT),
        ("<!--><script>x</script>-->", Doubt.SCRIPT),  # <!--> ends the comment at once
        ("<style></style x><script>x</script>", Doubt.SCRIPT),
        ("<title><script>x</script></title>", Doubt.SCRIPT),
        ("<noscript><script>x</script></noscript>", Doubt.SCRIPT),
        # Event handlers in any case and spelling, on any element.
        ("<body onload=x()>", Doubt.HANDLER),
        ("<body/onload=x()>", Doubt.HANDLER),
        ('<a href="/x"onclick="x()">a</a>', Doubt.HANDLER),
        ("<img alt=x OnError=x()>", Doubt.HANDLER),
        ("<p\fonmouseover=x()>", Doubt.HANDLER),
        ("<svg><animate onbegin=x() attributeName=x dur=1s /></svg>", Doubt.LOADS),
        ("<math><mi onfocus=x()>x</mi></math>", Doubt.HANDLER),
        ("<details open ontoggle=x()>", Doubt.HANDLER),
        # Template contents and declarative shadow roots.
        ("<div><template shadowrootmode=open><img onerror=x()></template></div>", Doubt.TEMPLATE),
        ("<template><p>x</p></template>", Doubt.TEMPLATE),
        ('<div shadowrootmode="open">', Doubt.TEMPLATE),
        # javascript: URLs, however written.
        ('<a href="javascript:x()">a</a>', Doubt.JAVASCRIPT_URL),
        ('<a href=" JaVaScRiPt:x()">a</a>', Doubt.JAVASCRIPT_URL),
        ('<a href="java\tscr\nipt:x()">a</a>', Doubt.JAVASCRIPT_URL),
        ('<a href="&#106;avascript:x()">a</a>', Doubt.JAVASCRIPT_URL),
        ('<a href="javascript&colon;x()">a</a>', Doubt.JAVASCRIPT_URL),
        ('<form action="javascript:x()"><button>b</button></form>', Doubt.JAVASCRIPT_URL),
        # Frames, plugins, refresh, base.
        ("<iframe src=/x></iframe>", Doubt.FRAME),
        ('<iframe srcdoc="&lt;p&gt;x"></iframe>', Doubt.FRAME),
        ("<frameset><frame src=/x></frameset>", Doubt.FRAME),
        ("<object data=/x.swf></object>", Doubt.PLUGIN),
        ("<embed src=/x.swf>", Doubt.PLUGIN),
        ('<meta http-equiv="refresh" content="0; url=/x">', Doubt.META),
        ('<meta http-equiv="Set-Cookie" content="a=b">', Doubt.META),
        ("<base href=/other/>", Doubt.BASE),
        # Anything fetched carries the page's URL in its Referer.
        ("<img src=/label.png>", Doubt.LOADS),
        ('<img srcset="/a.png 1x">', Doubt.LOADS),
        ('<link rel="stylesheet" href="/s.css">', Doubt.LOADS),
        ('<link rel="alternate stylesheet" href="/s.css">', Doubt.LOADS),
        ('<link rel="icon" href="/favicon.ico">', Doubt.LOADS),
        ('<link href="/s.css">', Doubt.LOADS),
        ("<video poster=/p.jpg></video>", Doubt.LOADS),
        ("<body background=/bg.png>", Doubt.LOADS),
        ("<style>@import 'x.css';</style>", Doubt.LOADS),
        ("<style>p{background:URL(/x.png)}</style>", Doubt.LOADS),
        ("<style>p{background:\\75 rl(/x.png)}</style>", Doubt.LOADS),
        ('<style>p{background:image-set("/x.png" 1x)}</style>', Doubt.LOADS),
        ('<p style="background:url&#40;/x.png)">', Doubt.LOADS),
        ('<svg><image href="/x.png"/></svg>', Doubt.LOADS),
        ('<svg><use xlink:href="/s.svg#i"/></svg>', Doubt.LOADS),
        ('<svg><rect fill="url(/p.svg#p)"/></svg>', Doubt.LOADS),
        ("<svg><a><set attributeName=href to=/x /></a></svg>", Doubt.LOADS),
        # Bytes the scan cannot be sure of.
        ("<h1>x\0</h1>", Doubt.PARSE),
        ('<meta charset="windows-1251"><h1>\u043c\u0438\u0440</h1>', Doubt.ENCODING),
        ('<meta http-equiv=content-type content="text/html; charset=utf-16">', Doubt.ENCODING),
    ],
)
def test_every_way_to_run_script_or_load_more_is_a_doubt(body: str, found: Doubt) -> None:
    assert doubt(f"<!DOCTYPE html><h1>Item</h1>{body}".encode(), HTML) is found


def test_bytes_that_are_not_surely_utf8_html_are_a_doubt() -> None:
    page = PAGE.encode()
    assert doubt(page, "text/plain") is Doubt.MEDIA_TYPE
    assert doubt(page, "application/xhtml+xml") is Doubt.MEDIA_TYPE
    assert doubt(PAGE.encode("utf-16"), HTML) is Doubt.ENCODING
    assert doubt("<h1>caf\u00e9</h1>".encode("latin-1"), "text/html") is Doubt.ENCODING
    assert doubt("<h1>caf\u00e9</h1>".encode(), "text/html; charset=windows-1252") is (
        Doubt.ENCODING
    )
    # ASCII bytes read the same in every ASCII-compatible encoding.
    assert doubt(page, "text/html; charset=ISO-8859-1") is None


def test_the_scan_of_hostile_markup_is_bounded() -> None:
    # Tags that never end: each is read to the end of the document, within a budget.
    body = ("<a " * 5_000).encode()
    assert doubt(body, HTML) in (None, Doubt.PARSE)
    assert doubt(b'<a title="' + b"<b " * 5_000 + b'" onclick=x>', HTML) is Doubt.HANDLER
