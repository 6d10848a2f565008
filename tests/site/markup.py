"""The HTML document every fixture site wraps its pages in; each site brings its own look."""

from __future__ import annotations

import html


def document(title: str, body: str, *, head: str = "", lang: str = "en") -> str:
    """A whole HTML document: ``title`` (escaped), then ``head`` (styles, links), then ``body``.

    >>> page = document("Tea & cake", "<p>Hi</p>", head="<style>p{margin:0}</style>", lang="fr")
    >>> page[: page.index("<title>")]
    '<!doctype html><html lang=fr><head><meta charset=utf-8>'
    >>> page[page.index("<title>") :]
    '<title>Tea &amp; cake</title><style>p{margin:0}</style></head><body><p>Hi</p></body></html>'
    """
    return (
        f"<!doctype html><html lang={lang}><head><meta charset=utf-8>"
        f"<title>{html.escape(title)}</title>{head}</head><body>{body}</body></html>"
    )
