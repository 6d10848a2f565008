"""A Sphinx documentation project, generated and built with the default theme, served statically.

Every studied parameter of every pattern has its expected verdict in ``TRUTH``, with the
reason taken from Sphinx's own scripts (``sphinx/themes/basic/static/*.js``, Sphinx 7.3 and
later) or from the static server (Python's ``http.server``).
"""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

from tests.apps.content import WORDS, sentence
from tests.apps.server import AppServer
from tests.apps.truth import Expected, neutral, non_neutral

__all__ = ["HOST", "PAGES", "TRUTH", "build_docs", "observed_urls", "serve"]

HOST = "docs.test"
# fmt: off
PAGES = (
    "install", "configure", "tutorial", "queries", "storage", "network",
    "plugins", "security", "deploy", "testing", "upgrade", "faq",
)
# fmt: on

_CONF = """\
project = "Harbour"
author = "The Harbour authors"
copyright = "2026, The Harbour authors"
release = "1.0"
html_theme = "alabaster"
html_last_updated_fmt = None
html_show_sourcelink = False
"""


def _page(rng: random.Random, topic: str) -> str:
    title = topic.title()
    lines = [title, "=" * len(title), ""]
    for number in range(1, 4):
        heading = f"{rng.choice(WORDS).title()} {rng.choice(WORDS)} {number}"
        lines += [heading, "-" * len(heading), ""]
        for _ in range(2):
            lines += [sentence(rng, 40) + ".", ""]
    return "\n".join(lines)


def build_docs(folder: Path, seed: int = 11) -> Path:
    """Write a seeded reStructuredText project in ``folder/src`` and build it to ``folder/html``."""
    rng = random.Random(seed)
    source = folder / "src"
    source.mkdir(parents=True, exist_ok=True)
    (source / "conf.py").write_text(_CONF, encoding="utf-8")
    toctree = "\n".join(f"   {topic}" for topic in PAGES)
    (source / "index.rst").write_text(
        f"Harbour\n=======\n\nThe Harbour manual.\n\n.. toctree::\n   :maxdepth: 2\n\n{toctree}\n",
        encoding="utf-8",
    )
    for topic in PAGES:
        (source / f"{topic}.rst").write_text(_page(rng, topic), encoding="utf-8")
    html = folder / "html"
    subprocess.run(
        [sys.executable, "-m", "sphinx", "-b", "html", "-q", "-E", str(source), str(html)],
        check=True,
        capture_output=True,
        timeout=120,
    )
    return html


def serve(folder: Path) -> AppServer:
    """The built HTML of a generated project, served by Python's static file server."""
    html = build_docs(folder)
    return AppServer(
        HOST,
        lambda port: [
            sys.executable,
            "-m",
            "http.server",
            str(port),
            "--bind",
            "127.0.0.1",
            "--directory",
            str(html),
        ],
        log=folder / "http.log",
        ready_path="/index.html",
        cwd=folder,
    )


_REFS = ("newsletter", "forum", "chat", "blog", "mastodon", "slides")


def observed_urls() -> list[str]:
    """The observed-URL log of the documentation host."""
    base = f"http://{HOST}"
    return [
        *(f"{base}/{t}.html?highlight={w}" for t, w in zip(PAGES, WORDS[:8], strict=False)),
        *(f"{base}/search.html?q={w}" for w in WORDS[8:14]),
        *(f"{base}/{t}.html?ref={r}" for t, r in zip(PAGES[3:], _REFS[:5], strict=False)),
        f"{base}/?ref={_REFS[5]}",
        *(
            f"{base}/{t}.html?highlight={w}&ref={r}"
            for t, w, r in zip(PAGES[6:11], WORDS[2:], _REFS, strict=False)
        ),
    ]


_HIGHLIGHT = (
    "sphinx/themes/basic/static/sphinx_highlight.js, SphinxHighlight.highlightSearchWords:"
    " reads ?highlight=, wraps each term in span.highlighted and adds a 'Hide Search Matches'"
    " link to the sidebar's search box"
)
_STATIC = (
    "Python's http.server (SimpleHTTPRequestHandler.translate_path) drops the query; of"
    " Sphinx's scripts only sphinx_highlight.js (highlight) and searchtools.js (q) read one"
)
TRUTH: dict[str, dict[str, Expected]] = {
    "highlight": {"highlight": non_neutral(_HIGHLIGHT)},
    "q": {
        "q": non_neutral(
            "sphinx/themes/basic/static/searchtools.js, Search.init: reads ?q= and runs the"
            " search in the page, listing the matching documents"
        ),
    },
    "ref": {"ref": neutral(_STATIC)},
    "highlight&ref": {"highlight": non_neutral(_HIGHLIGHT), "ref": neutral(_STATIC)},
}
