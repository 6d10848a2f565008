"""Datasette, the SQLite data browser, serving a generated library database.

The books table has 240 rows, more than Datasette's page of 100, with a full-text index and
facets: its pages are as long and as heavy as a real data site's table pages.

Every studied parameter of every pattern has its expected verdict in ``TRUTH``, with the
reason taken from Datasette's code (version 0.65, ``datasette/views/*.py``) or its
documentation (docs.datasette.io, "JSON API" and "Settings").
"""

from __future__ import annotations

import random
import sqlite3
import sys
from pathlib import Path

from tests.apps.content import WORDS, sentence
from tests.apps.server import AppServer
from tests.apps.truth import Expected, neutral, non_neutral

__all__ = ["HOST", "TRUTH", "build_database", "observed_urls", "serve"]

HOST = "data.test"
_GENRES = ("fiction", "poetry", "history", "science", "travel")
_COUNTRIES = ("Chile", "Japan", "Kenya", "Norway", "Peru", "Spain")
BOOKS = 240
AUTHORS = 12


def build_database(path: Path, seed: int = 7) -> Path:
    """Write ``library.db``: ``books`` (with a full-text index) and ``authors``, seeded."""
    rng = random.Random(seed)
    path.unlink(missing_ok=True)
    with sqlite3.connect(path) as db:
        db.execute("create table authors (id integer primary key, name text, country text)")
        db.execute(
            "create table books (id integer primary key, title text, blurb text, genre text,"
            " year integer, pages integer, author_id integer references authors(id))"
        )
        for number in range(1, AUTHORS + 1):
            name = f"{rng.choice(WORDS).title()} {rng.choice(WORDS).title()}son"
            db.execute(
                "insert into authors values (?, ?, ?)", (number, name, rng.choice(_COUNTRIES))
            )
        for number in range(1, BOOKS + 1):
            title = f"The {rng.choice(WORDS).title()} of {rng.choice(WORDS).title()}"
            blurb = sentence(rng, 12)
            db.execute(
                "insert into books values (?, ?, ?, ?, ?, ?, ?)",
                (
                    number,
                    title,
                    blurb,
                    rng.choice(_GENRES),
                    rng.randint(1900, 2020),
                    rng.randint(90, 900),
                    rng.randint(1, AUTHORS),
                ),
            )
        db.execute("create virtual table books_fts using fts5(title, blurb, content=[books])")
        db.execute("insert into books_fts (rowid, title, blurb) select id, title, blurb from books")
    return path


def serve(folder: Path) -> AppServer:
    """Datasette on the database in ``folder`` (built there), immutable, no plug-ins."""
    database = build_database(folder / "library.db")
    return AppServer(
        HOST,
        lambda port: [
            sys.executable,
            "-m",
            "datasette",
            "serve",
            "--immutable",
            str(database),
            *f"--host 127.0.0.1 --port {port} --setting trace_debug 0".split(),
        ],
        log=folder / "datasette.log",
        ready_path="/-/versions.json",
        cwd=folder,
    )


def observed_urls() -> list[str]:
    """The observed-URL log of the Datasette host: its tables' pages and some row pages."""
    base = f"http://{HOST}/library"
    rows = [f"{base}/books/{n}" for n in (3, 8, 15, 22, 31)]
    urls = [
        *(f"{base}/books?_sort={c}" for c in ("title", "year", "pages", "genre")),
        *(f"{base}/authors?_sort={c}" for c in ("name", "country")),
        *(f"{row}?_sort=title" for row in rows[:2]),
        *(f"{base}/books?_size={n}" for n in (5, 10, 15, 20)),
        *(f"{base}/authors?_size={n}" for n in (3, 5, 8)),
        *(f"{base}/books?_facet={c}" for c in ("genre", "year", "author_id")),
        f"{base}/authors?_facet=country",
        *(f"{base}/books?_search={w}" for w in WORDS[:6]),
        *(f"{base}/books?genre={g}&_sort=year" for g in _GENRES),
        *(f"{base}/books?genre={g}&_sort=title" for g in _GENRES[:2]),
        *(
            f"{page}?_ttl={ttl}"
            for page in (f"{base}/books", f"{base}/authors")
            for ttl in (60, 3600)
        ),
        *(f"{row}?_ttl={ttl}" for row, ttl in zip(rows, (10, 300, 600, 86400, 120), strict=True)),
        *(f"{base}/authors/{n}?_ttl=60" for n in (2, 5)),
    ]
    return urls


_TABLE = "datasette/views/table.py, TableView.data"
TRUTH: dict[str, dict[str, Expected]] = {
    "_sort": {
        "_sort": non_neutral(
            f'{_TABLE}: sort = request.args.get("_sort") becomes the ORDER BY of the rows'
            " shown; row pages (views/row.py) ignore it, but a pattern keeps a parameter that"
            " changes any of its pages"
        ),
    },
    "_size": {
        "_size": non_neutral(
            f"{_TABLE}: _size sets the page size (docs: JSON API, Special table arguments);"
            " every observed value is below the table's row count, so fewer rows show"
        ),
    },
    "_facet": {
        "_facet": non_neutral(
            f"{_TABLE} / datasette/facets.py: each _facet adds a facet panel with value counts"
        ),
    },
    "_search": {
        "_search": non_neutral(
            f"{_TABLE}: _search runs a full-text query against the table's FTS index"
            " (books_fts, found by utils.detect_fts) and shows only the matches"
        ),
    },
    "_sort&genre": {
        "genre": non_neutral(
            f"{_TABLE}: arguments without a leading underscore are column filters"
            " (datasette/filters.py, Filters); genre=poetry shows only that genre"
        ),
        "_sort": non_neutral(f"{_TABLE}: _sort orders the filtered rows"),
    },
    "_ttl": {
        "_ttl": neutral(
            "datasette/views/base.py, DataView.view: _ttl only sets the Cache-Control header"
            " (set_response_headers); docs: JSON API, Special table arguments, ?_ttl="
        ),
    },
}
