"""MediaWiki 1.39 (Debian's package), on a generated wiki of articles, histories and talk pages.

The wiki is installed into a temporary folder with an SQLite database by MediaWiki's own
``maintenance/install.php``, its pages imported by ``maintenance/importDump.php`` from a
generated XML dump (each article with three revisions over the last three weeks, a talk
page, categories, and the redirect page ``Old_Mill`` to ``Riverside_Mill``), and served by
PHP's built-in server with short article URLs (``/wiki/Title``; ``/w/index.php`` for the
rest), as Wikipedia spells them.

Every studied parameter of every pattern has its expected verdict in ``TRUTH``, with the
reason taken from MediaWiki's code (``includes/MediaWiki.php``, ``includes/page/Article.php``,
``includes/actions/*.php``, ``includes/specials/*.php``, ``includes/context/RequestContext.php``)
or its documentation (mediawiki.org, "Manual:Parameters to index.php").
"""

from __future__ import annotations

import os
import random
import shutil
import subprocess
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from xml.sax.saxutils import escape

from tests.apps.content import WORDS, sentence
from tests.apps.server import AppServer
from tests.apps.truth import Expected, neutral, non_neutral

__all__ = [
    "ARTICLES",
    "HOST",
    "TRUTH",
    "build_wiki",
    "mediawiki_missing",
    "observed_urls",
    "serve",
]

HOST = "mediawiki.test"
ENV_MEDIAWIKI = "SAMEPAGE_MEDIAWIKI"
"""Environment variable naming MediaWiki's folder, if not Debian's ``/usr/share/mediawiki``."""
_DEBIAN = Path("/usr/share/mediawiki")
_WORKERS = "4"
"""PHP server processes: the learner opens two pages at once, each loading scripts and styles."""

# fmt: off
ARTICLES = (
    "Riverside_Mill", "Glass_Harbour", "Winter_Orchard", "Signal_Tower", "Copper_Quarry",
    "Lantern_Meadow", "Falcon_Ridge", "Ember_Valley", "Thistle_Bridge", "Velvet_Lake",
    "Willow_Creek", "Atlas_Station",
)
# fmt: on
REVISIONS = 3
"""Revisions of each article; each article also has a talk page of one revision."""
REDIRECT = ("Old_Mill", "Riverside_Mill")
"""A redirect page and its target: MediaWiki shows the target under the redirect's URL."""
_CATEGORIES = ("Mills", "Rivers", "Landmarks")


def mediawiki_dir() -> Path | None:
    """MediaWiki's folder (``index.php``, ``maintenance/``), or ``None`` when there is none."""
    named = os.environ.get(ENV_MEDIAWIKI)
    path = Path(named) if named else _DEBIAN
    return path if (path / "maintenance" / "install.php").is_file() else None


def mediawiki_missing() -> str | None:
    """Why MediaWiki cannot run here, or ``None``."""
    if mediawiki_dir() is None:
        return f"no MediaWiki: run scripts/setup.sh (Debian's mediawiki) or set {ENV_MEDIAWIKI}"
    if shutil.which("php") is None:
        return "no php: run scripts/setup.sh (Debian's php-cli)"
    return None


def _mediawiki() -> Path:
    path = mediawiki_dir()
    if path is None:
        raise FileNotFoundError(mediawiki_missing())
    return path


@dataclass(frozen=True, slots=True)
class _Revision:
    title: str
    text: str
    user: str
    comment: str
    age: timedelta
    """How long before the import the revision was made."""


def _revision_ids() -> dict[str, list[int]]:
    """Title -> its revision ids, oldest first, as the import assigns them.

    The installer's Main Page is revision 1; the dump's revisions follow in its order.
    """
    ids: dict[str, list[int]] = {}
    number = 1
    for revision in _revisions(random.Random(0)):
        number += 1
        ids.setdefault(revision.title, []).append(number)
    return ids


def _revisions(rng: random.Random) -> list[_Revision]:
    """Every revision of the dump, in import order (a page's revisions oldest first)."""
    users = ("Ada", "Brook", "Corin", "Dale")
    out: list[_Revision] = []
    for index, title in enumerate(ARTICLES):
        name = title.replace("_", " ")
        categories = [_CATEGORIES[index % len(_CATEGORIES)]]
        if index % 4 == 0:
            categories.append(_CATEGORIES[(index + 1) % len(_CATEGORIES)])
        sections: list[str] = []
        for number in range(REVISIONS):
            heading = f"{rng.choice(WORDS).title()} {rng.choice(WORDS)}"
            sections.append(f"== {heading} ==\n{sentence(rng, 60)}.\n\n{sentence(rng, 45)}.\n")
            links = ", ".join(f"[[{other}]]" for other in ARTICLES[index + 1 : index + 3])
            text = (
                f"'''{name}''' is a {rng.choice(WORDS)} {sentence(rng, 20)}.\n\n"
                + "\n".join(sections)
                + f"\nSee also: {links or '[[Main Page]]'}.\n\n"
                + "\n".join(f"[[Category:{c}]]" for c in categories)
            )
            days = (index * 5) % 17 + 2 * (REVISIONS - 1 - number)
            out.append(
                _Revision(
                    title,
                    text,
                    users[(index + number) % len(users)],
                    f"{('Created', 'Expanded', 'Copy edit')[number]}: {sentence(rng, 3)}",
                    timedelta(days=days, hours=index + 1, minutes=number * 7),
                )
            )
        out.append(
            _Revision(
                f"Talk:{title}",
                f"== {rng.choice(WORDS).title()} ==\n{sentence(rng, 30)}. ~~~~\n",
                users[index % len(users)],
                "New section",
                timedelta(days=(index * 3) % 20, hours=2),
            )
        )
    out.append(
        _Revision(REDIRECT[0], f"#REDIRECT [[{REDIRECT[1]}]]", "Ada", "Moved", timedelta(days=9))
    )
    for category in _CATEGORIES:
        out.append(
            _Revision(
                f"Category:{category}",
                f"Places of the {category.lower()} kind. {sentence(rng, 12)}.",
                "Brook",
                "New category",
                timedelta(days=12),
            )
        )
    return out


def _dump(now: datetime) -> str:
    """The XML dump (export format 0.11) of every page, timed relative to ``now``."""
    pages: dict[str, list[_Revision]] = {}
    for revision in _revisions(random.Random(0)):
        pages.setdefault(revision.title, []).append(revision)
    parts = ['<mediawiki xmlns="http://www.mediawiki.org/xml/export-0.11/" version="0.11">']
    for title, revisions in pages.items():
        parts.append(f"<page><title>{escape(title.replace('_', ' '))}</title>")
        for revision in revisions:  # oldest first: the ids follow the order of the dump
            stamp = (now - revision.age).strftime("%Y-%m-%dT%H:%M:%SZ")
            parts.append(
                f"<revision><timestamp>{stamp}</timestamp>"
                f"<contributor><username>{revision.user}</username></contributor>"
                f"<comment>{escape(revision.comment)}</comment>"
                "<model>wikitext</model><format>text/x-wiki</format>"
                f'<text xml:space="preserve">{escape(revision.text)}</text></revision>'
            )
        parts.append("</page>")
    parts.append("</mediawiki>")
    return "\n".join(parts)


_SETTINGS = """
# Added by the samepage test suite: short article URLs, no mail, no jobs run by page views
# (a page renders the same every time), caches in the wiki's own folder.
$wgArticlePath = "/wiki/$1";
$wgUsePathInfo = true;
$wgEnableEmail = false;
$wgEnableUserEmail = false;
$wgJobRunRate = 0;
$wgMainCacheType = CACHE_DB;
$wgCacheDirectory = "{cache}";
$wgRCMaxAge = 180 * 24 * 3600;
$wgDefaultSkin = "vector";
# Recent changes do not poll for new ones every three seconds (the "live update" button), and
# scripts are not copied into the browser's local storage when it is idle (each page is
# rendered in a new browser context: the copy would be thrown away).
$wgStructuredChangeFiltersLiveUpdatePollingRate = 0;
$wgResourceLoaderStorageEnabled = false;
# The wiki is thrown away after the run: no waiting on the disk for each write.
$wgDBservers = [ [
    'host' => '', 'dbname' => 'wiki', 'user' => '', 'password' => '', 'type' => 'sqlite',
    'load' => 1, 'flags' => DBO_DEFAULT, 'variables' => [ 'synchronous' => 'OFF' ],
] ];
"""

_ROUTER = """<?php
// Short article URLs (/wiki/Title) are index.php's; everything else is served as it is.
$path = parse_url($_SERVER['REQUEST_URI'], PHP_URL_PATH);
if ($path === '/wiki' || str_starts_with($path, '/wiki/')) {
    $_SERVER['SCRIPT_NAME'] = '/w/index.php';
    $_SERVER['SCRIPT_FILENAME'] = __DIR__ . '/root/w/index.php';
    chdir(__DIR__ . '/root/w');
    require __DIR__ . '/root/w/index.php';
    return true;
}
return false;
"""

_LANGUAGES = ("de", "fr", "nl", "es")
"""The interface languages the log asks for (``uselang``): their messages are cached at build."""


def build_wiki(folder: Path) -> Path:
    """Install a new wiki in ``folder/wiki`` (replacing one there) and import its pages.

    Returns the wiki's ``LocalSettings.php``.
    """
    home = _mediawiki()
    wiki = folder / "wiki"
    shutil.rmtree(wiki, ignore_errors=True)
    (wiki / "data").mkdir(parents=True)
    (wiki / "cache").mkdir()
    (wiki / "root").mkdir()
    (wiki / "root" / "w").symlink_to(home)
    (wiki / "router.php").write_text(_ROUTER, encoding="utf-8")
    _php(
        home,
        None,
        "maintenance/install.php",
        "--dbtype=sqlite",
        f"--dbpath={wiki / 'data'}",
        "--dbname=wiki",
        f"--server=http://{HOST}",
        "--scriptpath=/w",
        f"--confpath={wiki}",
        "--skins=Vector,MonoBook,Timeless",
        "--pass=Harbour-admin-2026",
        "Harbour Wiki",
        "Admin",
    )
    settings = wiki / "LocalSettings.php"
    installed = settings.read_text(encoding="utf-8")
    settings.write_text(
        installed.replace("'synchronous' => 'NORMAL'", "'synchronous' => 'OFF'")
        + _SETTINGS.replace("{cache}", str(wiki / "cache")),
        encoding="utf-8",
    )
    dump = wiki / "pages.xml"
    dump.write_text(_dump(datetime.now(UTC)), encoding="utf-8")
    _php(home, settings, "maintenance/importDump.php", "--username-prefix=", str(dump))
    _php(home, settings, "maintenance/rebuildrecentchanges.php")
    _php(home, settings, "maintenance/initSiteStats.php", "--update")
    _php(
        home,
        settings,
        "maintenance/rebuildLocalisationCache.php",
        f"--lang=en,{','.join(_LANGUAGES)}",
    )
    return settings


def _php(home: Path, settings: Path | None, *argv: str) -> None:
    env = {**os.environ, **({"MW_CONFIG_FILE": str(settings)} if settings else {})}
    done = subprocess.run(
        ["php", *argv], capture_output=True, text=True, timeout=300, cwd=home, env=env
    )
    if done.returncode:
        raise RuntimeError(
            f"{argv[0]}: exit {done.returncode}: {(done.stdout + done.stderr)[-2000:]}"
        )


def serve(folder: Path) -> AppServer:
    """PHP's built-in server on a new wiki, anonymous reading and editing (MediaWiki's default)."""
    settings = build_wiki(folder)
    wiki = settings.parent
    return AppServer(
        HOST,
        lambda port: [
            "env",
            f"MW_CONFIG_FILE={settings}",
            f"PHP_CLI_SERVER_WORKERS={_WORKERS}",
            "php",
            "-d",
            "opcache.enable_cli=1",
            "-S",
            f"127.0.0.1:{port}",
            "-t",
            str(wiki / "root"),
            str(wiki / "router.php"),
        ],
        log=folder / "php.log",
        ready_path="/wiki/Main_Page",
        cwd=wiki,
    )


_HOT = ARTICLES[:4]
"""The most read articles: most tracking and interface parameters land on them."""
_REFS = ("dashboard", "newsletter", "sidebar", "footer", "email", "homepage")
_SOURCES = ("mastodon", "forum", "chat", "slides", "blog", "podcast")
_SEARCHES = (
    "orchard quarry", "copper lantern", "river glass", "winter ember",
    "falcon thistle", "velvet signal", "meadow atlas", "harbour willow",
)  # fmt: skip
_FROM = ("Copper", "Ember", "Falcon", "Glass", "Lantern", "Signal", "Thistle", "Velvet")
_INDEX = "/w/index.php"
# fmt: off
_WPROV = ("sfla1", "srpw1", "rarw1", "sfti1", "sfla3", "rarw2", "srpw4", "sfti2")
"""Share-button provenance markers (Wikipedia's ``wprov``), on links to the redirect page."""
# fmt: on


def _rev(title: str, number: int) -> int:
    """The id of revision ``number`` (0: the first) of ``title``."""
    return _revision_ids()[title][number]


def observed_urls() -> list[str]:
    """The observed-URL log of the wiki: readers, editors and crawlers, as a wiki sees them.

    More than twenty patterns hold real traffic, several with the same number of URLs, and
    a long tail of patterns seen once or twice follows.
    """
    base = f"http://{HOST}"
    rc = "/wiki/Special:RecentChanges"
    urls = [
        # Tracking parameters on shared links (neutral), on the most read articles.
        *(f"/wiki/{_HOT[i % 4]}?ref={_REFS[i % 6]}" for i in range(12)),
        *(f"/wiki/{ARTICLES[4 + i % 4]}?source={_SOURCES[i % 6]}" for i in range(12)),
        # The page's tabs: history, edit and information, through the script.
        *(
            f"{_INDEX}?title={t}&action={a}"
            for t in ARTICLES[:4]
            for a in ("history", "edit", "info")
        ),
        # Old revisions, with and without the title, and differences between revisions.
        *(f"{_INDEX}?title={t}&oldid={_rev(t, n)}" for t in ARTICLES[:5] for n in (0, 1)),
        *(f"{_INDEX}?oldid={_rev(t, n)}" for t in ARTICLES[5:10] for n in (0, 1)),
        *(f"{_INDEX}?title={t}&diff={_rev(t, 2)}&oldid={_rev(t, 0)}" for t in ARTICLES[:8]),
        # A difference with the revision before (as a history's "prev" links spell it: the
        # same page without oldid) or with the first (as its "cur" links do).
        *(
            f"{_INDEX}?diff={_rev(t, 1 + i % 2)}&oldid={_rev(t, 0)}"
            for i, t in enumerate(ARTICLES[4:12])
        ),
        # Printable versions, the interface language and the skin, on the most read articles.
        *(f"/wiki/{t}?printable=yes" for t in ARTICLES[:8]),
        *(f"/wiki/{_HOT[i // 2]}?uselang={lang}" for i, lang in enumerate(_LANGUAGES * 2)),
        *(
            f"/wiki/{_HOT[i % 4]}?useskin={skin}"
            for i, skin in enumerate(
                ("monobook", "timeless", "vector-2022") * 2 + ("monobook", "timeless")
            )
        ),
        *(
            f"/wiki/{_HOT[i % 4]}?action={a}"
            for i, a in enumerate(("history", "info", "edit") * 2 + ("history", "info"))
        ),
        # Special pages: recent changes, all pages, search.
        *(
            f"{rc}?days={d}&limit={n}"
            for d, n in zip(
                (14, 30, 10, 21, 14, 30, 10, 21), (5, 10, 15, 20, 10, 15, 20, 5), strict=True
            )
        ),
        *(
            f"{rc}?namespace={ns}&days={d}"
            for ns, d in zip((0, 1, 14, 0, 1, 14), (14, 14, 30, 30, 21, 21), strict=True)
        ),
        *(f"/wiki/Special:AllPages?from={f}" for f in _FROM),
        *(
            f"/wiki/Special:Search?search={s.replace(' ', '+')}&fulltext={f}"
            for s, f in zip(
                _SEARCHES[:5] + tuple(t.replace("_", " ") for t in ARTICLES[5:8]),
                ("1", "Search", "1", "yes", "Search", "1", "yes", "Search"),
                strict=True,
            )
        ),
        *(f"/wiki/Special:Search?search={s.replace(' ', '+')}" for s in reversed(_SEARCHES)),
        # The same through the script, and the history a page at a time.
        *(
            f"{_INDEX}?title={t}&action=history&limit={n}"
            for t, n in zip(ARTICLES[:6], (1, 2, 1, 2, 1, 2), strict=True)
        ),
        *(f"{_INDEX}?title=Special:AllPages&from={f}" for f in _FROM[:6]),
        *(f"{_INDEX}?title=Special:RecentChanges&days={d}" for d in (10, 14, 21, 30, 12, 16)),
        # A tracking parameter beside the interface language.
        *(f"/wiki/{_HOT[i % 3]}?uselang={_LANGUAGES[i % 3]}&ref={_REFS[i]}" for i in range(6)),
        # Category pages, a page of them at a time.
        *(f"/wiki/Category:{c}?from={f}" for c in _CATEGORIES for f in ("E", "S")),
        # Shares of a redirect page: MediaWiki keeps the query on the target it shows.
        *(f"/wiki/{REDIRECT[0]}?wprov={w}" for w in _WPROV),
    ]
    # Seen once or twice: a section's edit form, a redirect page itself, a namespace of all
    # pages, a page by its id, a page's information in French, a search through the script.
    tail = [
        f"{_INDEX}?title={ARTICLES[0]}&action=edit&section=1",
        f"{_INDEX}?title={ARTICLES[1]}&action=edit&section=2",
        f"/wiki/{REDIRECT[0]}?redirect=no",
        "/wiki/Special:AllPages?from=Glass&namespace=1",
        "/wiki/Special:AllPages?namespace=14",
        f"/wiki/{ARTICLES[3]}?curid=5",
        f"{_INDEX}?title={ARTICLES[4]}&action=info&uselang=fr",
        f"/wiki/{ARTICLES[2]}?action=history&uselang=de",
        f"{_INDEX}?title=Special:Search&search=meadow+quarry",
    ]
    return [f"{base}{path}" for path in urls + tail]


_IGNORED = (
    "MediaWiki reads no such parameter (Manual:Parameters to index.php): it is only carried"
    " into the returnto query of the 'Log in' and 'Create account' links"
    " (includes/skins/SkinTemplate.php, getReturnToParam), which no reader sees"
)
_TITLE = "includes/MediaWiki.php, MediaWiki::parseTitle: title names the page"
_OVERRIDDEN = (
    "includes/MediaWiki.php, MediaWiki::parseTitle: 'Allow oldid to override a changed or"
    " missing title': with oldid (or diff) naming a revision, the page is that revision's,"
    " whatever the title says"
)
_ACTION = (
    "includes/actions/ActionFactory.php: action picks what is shown of the page (history,"
    " edit form, information) instead of the page itself"
)
_OLDID = "includes/page/Article.php, Article::getOldIDFromRequest: shows that old revision"
_DIFF = (
    "includes/diff/DifferenceEngine.php: diff is the newer revision of the difference shown"
    " instead of the page"
)
_DIFF_OLDID = (
    "includes/diff/DifferenceEngine.php: oldid is the older revision of the difference;"
    " without it the difference is with the revision before diff, which half of the log's"
    " differences are not (their oldid is the page's first revision)"
)
_USELANG = (
    "includes/context/RequestContext.php, RequestContext::getLanguage: uselang is the"
    " interface language (menus, tabs, footer)"
)
_DAYS = (
    "includes/specialpage/ChangesListSpecialPage.php: days is the window of the changes"
    " listed (default $wgDefaultUserOptions['rcdays'], 7); every value of the log is"
    " longer, and the wiki has changes between"
)
_LIMIT_RC = (
    "includes/specialpage/ChangesListSpecialPage.php: limit is the number of changes listed"
    " (default 50); every value of the log is below the changes of its window"
)
_LISTED_FROM = (
    "includes/specials/SpecialAllPages.php (and CategoryViewer on category pages): from is"
    " the first title listed"
)
_SEARCH = "includes/specials/SpecialSearch.php: search is the query whose results are listed"
_NAMESPACE = (
    "includes/specials/SpecialRecentChanges.php, SpecialAllPages.php: namespace restricts the"
    " list to that namespace (0 articles, 1 talk pages, 14 categories)"
)
_SECTION = "includes/EditPage.php: section opens the edit form on that section only"

TRUTH: dict[str, dict[str, Expected]] = {
    "from": {"from": non_neutral(_LISTED_FROM)},
    "ref": {"ref": neutral(_IGNORED)},
    "source": {"source": neutral(_IGNORED)},
    "action&title": {"action": non_neutral(_ACTION), "title": non_neutral(_TITLE)},
    "oldid&title": {"oldid": non_neutral(_OLDID), "title": neutral(_OVERRIDDEN)},
    "oldid": {"oldid": non_neutral(_OLDID)},
    "diff&oldid&title": {
        "diff": non_neutral(_DIFF),
        "oldid": non_neutral(_DIFF_OLDID),
        "title": neutral(_OVERRIDDEN),
    },
    "diff&oldid": {"diff": non_neutral(_DIFF), "oldid": non_neutral(_DIFF_OLDID)},
    "printable": {
        "printable": non_neutral(
            "includes/OutputPage.php: printable=yes (its one value) renders the printable"
            " version, without the sidebar and the tabs"
        ),
    },
    "uselang": {"uselang": non_neutral(_USELANG)},
    "useskin": {
        "useskin": non_neutral(
            "includes/context/RequestContext.php, RequestContext::getSkin: useskin is the skin"
            " of the page (MonoBook, Timeless, Vector 2022 against the default Vector)"
        ),
    },
    "action": {"action": non_neutral(_ACTION)},
    "days&limit": {"days": non_neutral(_DAYS), "limit": non_neutral(_LIMIT_RC)},
    "fulltext&search": {
        "search": non_neutral(_SEARCH),
        "fulltext": non_neutral(
            "includes/specials/SpecialSearch.php, SpecialSearch::execute: without fulltext a"
            " query naming an existing page goes to that page (goResult); three of the log's"
            " queries are titles"
        ),
    },
    "search": {"search": non_neutral(_SEARCH)},
    "days&namespace": {"days": non_neutral(_DAYS), "namespace": non_neutral(_NAMESPACE)},
    "action&limit&title": {
        "action": non_neutral(_ACTION),
        "limit": non_neutral(
            "includes/actions/HistoryAction.php (HistoryPager): limit is the number of"
            " revisions listed (default 50); every page has three"
        ),
        "title": non_neutral(_TITLE),
    },
    "from&title": {"from": non_neutral(_LISTED_FROM), "title": non_neutral(_TITLE)},
    "days&title": {"days": non_neutral(_DAYS), "title": non_neutral(_TITLE)},
    "ref&uselang": {"ref": neutral(_IGNORED), "uselang": non_neutral(_USELANG)},
    "wprov": {
        "wprov": neutral(
            f"{_IGNORED}. The log's wprov URLs are of a redirect page: the target is shown under"
            " the redirect's URL, and mediawiki.action.view.redirect.js puts the target's URL"
            " in the address bar with the query kept (Article::showRedirectedFromHeader,"
            " wgInternalRedirectTargetUrl): the final URLs differ by wprov alone"
        ),
    },
    # The long tail.
    "action&section&title": {
        "action": non_neutral(_ACTION),
        "section": non_neutral(_SECTION),
        "title": non_neutral(_TITLE),
    },
    "redirect": {
        "redirect": non_neutral(
            "includes/page/Article.php, Article::followRedirect: redirect=no shows the redirect"
            " page itself instead of its target"
        ),
    },
    "from&namespace": {"from": non_neutral(_LISTED_FROM), "namespace": non_neutral(_NAMESPACE)},
    "namespace": {"namespace": non_neutral(_NAMESPACE)},
    "curid": {
        "curid": non_neutral(
            "includes/MediaWiki.php, MediaWiki::parseTitle: curid names the page by its id,"
            " over the path's title (page 5 is Talk:Glass Harbour)"
        ),
    },
    "action&title&uselang": {
        "action": non_neutral(_ACTION),
        "title": non_neutral(_TITLE),
        "uselang": non_neutral(_USELANG),
    },
    "action&uselang": {"action": non_neutral(_ACTION), "uselang": non_neutral(_USELANG)},
    "search&title": {"search": non_neutral(_SEARCH), "title": non_neutral(_TITLE)},
}

_LAKE = ARTICLES[9]


def _on_host(*pairs: tuple[str, str]) -> tuple[tuple[str, str], ...]:
    """Pairs of paths as pairs of the wiki's URLs."""
    return tuple((f"http://{HOST}{a}", f"http://{HOST}{b}") for a, b in pairs)


SAME_PAGES = _on_host(
    (f"/wiki/{ARTICLES[1]}?ref=weekly-digest", f"/wiki/{ARTICLES[1]}"),
    (f"/wiki/{ARTICLES[0]}?ref=sidebar", f"/wiki/{ARTICLES[0]}?ref=newsletter"),
    (f"/wiki/{ARTICLES[5]}?source=matrix", f"/wiki/{ARTICLES[5]}"),
    (
        f"{_INDEX}?title={ARTICLES[6]}&oldid={_rev(ARTICLES[6], 1)}",
        f"{_INDEX}?oldid={_rev(ARTICLES[6], 1)}",
    ),
    (
        f"{_INDEX}?title={_LAKE}&diff={_rev(_LAKE, 2)}&oldid={_rev(_LAKE, 0)}",
        f"{_INDEX}?title=Main_Page&diff={_rev(_LAKE, 2)}&oldid={_rev(_LAKE, 0)}",
    ),
)
"""Held-out URL pairs (not in the log) that MediaWiki answers with the same page."""
BESIDE_SAME_PAGES = _on_host(
    (f"/wiki/{ARTICLES[2]}?uselang=fr&ref=mastodon", f"/wiki/{ARTICLES[2]}?uselang=fr"),
)
"""Held-out pairs of one page on ``ref&uselang``, which twenty patterns of its size or more
push out of a study of the first twenty."""
REDIRECT_PAGES = _on_host((f"/wiki/{REDIRECT[0]}?wprov=sfla2", f"/wiki/{REDIRECT[0]}"))
"""Held-out shares of the redirect page, the same page as the redirect page without them."""
DIFFERENT_PAGES = _on_host(
    (f"/wiki/{ARTICLES[1]}?uselang=nl", f"/wiki/{ARTICLES[1]}"),
    (f"/wiki/{ARTICLES[1]}?useskin=monobook", f"/wiki/{ARTICLES[1]}?useskin=timeless"),
    (f"/wiki/{ARTICLES[6]}?printable=yes", f"/wiki/{ARTICLES[6]}"),
    (f"{_INDEX}?oldid={_rev(ARTICLES[11], 0)}", f"{_INDEX}?oldid={_rev(ARTICLES[11], 1)}"),
    (
        f"{_INDEX}?diff={_rev(ARTICLES[10], 2)}&oldid={_rev(ARTICLES[10], 0)}",
        f"{_INDEX}?diff={_rev(ARTICLES[10], 2)}",
    ),
    (
        f"{_INDEX}?title={ARTICLES[9]}&action=history",
        f"{_INDEX}?title={ARTICLES[9]}&action=edit",
    ),
    (f"{_INDEX}?title={ARTICLES[9]}&action=info", f"{_INDEX}?title={ARTICLES[8]}&action=info"),
    (
        "/wiki/Special:RecentChanges?days=14&limit=10",
        "/wiki/Special:RecentChanges?days=30&limit=10",
    ),
    ("/wiki/Special:AllPages?from=Willow", "/wiki/Special:AllPages"),
    (
        f"/wiki/Special:Search?search={ARTICLES[8].replace('_', '+')}&fulltext=1",
        f"/wiki/Special:Search?search={ARTICLES[8].replace('_', '+')}",
    ),
    ("/wiki/Special:Search?search=ember+glass", "/wiki/Special:Search?search=atlas"),
    (f"/wiki/{REDIRECT[0]}?redirect=no", f"/wiki/{REDIRECT[0]}"),
)
"""Held-out URL pairs that MediaWiki answers with different pages."""
ALIAS_PAIRS = _on_host(
    (f"{_INDEX}?title={ARTICLES[0]}", f"/wiki/{ARTICLES[0]}"),
    (f"{_INDEX}?title={ARTICLES[10]}", f"/wiki/{ARTICLES[10]}?ref=mastodon"),
    (f"{_INDEX}?title={ARTICLES[1]}&action=history", f"/wiki/{ARTICLES[1]}?action=history"),
    (f"{_INDEX}?title={ARTICLES[8]}&action=info", f"/wiki/{ARTICLES[8]}?action=info"),
    (f"{_INDEX}?title=Special:AllPages&from=Willow", "/wiki/Special:AllPages?from=Willow"),
)
"""Held-out pairs of two spellings of one page: an article through the script
(``/w/index.php?title=``) and by its short URL (``/wiki/``). The log holds both spellings of
the most read articles."""
ALIAS_APART = _on_host(
    (f"{_INDEX}?title={ARTICLES[0]}", f"/wiki/{ARTICLES[1]}"),
    (f"{_INDEX}?title={ARTICLES[8]}&action=info", f"/wiki/{ARTICLES[9]}?action=info"),
    (f"{_INDEX}?title={ARTICLES[2]}&action=history", f"/wiki/{ARTICLES[2]}?action=info"),
    (f"{_INDEX}?title=Special:AllPages&from=Willow", "/wiki/Special:AllPages?from=Copper"),
)
"""Held-out pairs of the two spellings that name two pages: another title, another action or
another value of a parameter carried across."""
