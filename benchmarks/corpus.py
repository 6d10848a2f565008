"""A deterministic, labelled URL corpus: several spellings of each page, and near-miss pages.

Every URL carries the id of the page it names (the page's canonical spelling). Spellings of
one page differ only in ways that leave the page unchanged: scheme and host case, a default
port, tracking parameters, parameter order, plain anchors, ``.``/``..`` segments, ``//``
runs, a trailing slash on a directory, escapes of unreserved characters (``%7e`` for ``~``,
RFC 3986 section 6.2.2.2), lower-case hex, raw UTF-8, ``+`` or ``%20`` for a space in a
query value, IDNA and IPv6 forms of the host, session ids in the query or the path, markers
of e-mail platforms, recommendation networks and news syndication, a marketplace's own click
parameters, a redirect
wrapper around the URL (``google.com/url?q=...``), and a platform's other host or path for the
same page (``youtu.be/ID``, Amazon's ``/Title/dp/ASIN``).

Sibling pages share a site and differ in one thing that changes content: a content parameter
(``id``, ``color``, ``v``, ``q``, ``ref=main``, ``source=KB123``, ``sid=42``), an SPA route
in the fragment (``#!/inbox``), a repeated key, a non-default port, path case or an escaped
``/``; a wrapper-shaped URL on a site that is not a redirector is a page of its own.
Those siblings are what a too-eager normalizer merges by mistake.

>>> a, b = generate(2, seed=1), generate(2, seed=1)
>>> a == b
True
"""

from __future__ import annotations

import ipaddress
import random
import re
import string
from collections.abc import Callable
from dataclasses import dataclass, replace
from urllib.parse import quote, unquote

__all__ = ["KINDS", "LabelledURL", "generate"]

Value = Callable[[random.Random], str]
Pool = tuple[tuple[str, Value], ...]


@dataclass(frozen=True, slots=True)
class LabelledURL:
    """One URL and the page it names; equal ``page`` means the same page."""

    url: str
    page: str
    kind: str


@dataclass(frozen=True, slots=True)
class _Page:
    kind: str
    host: str  # canonical: lower case, punycode, IPv6 compressed in brackets
    path: str  # canonical: no dot segments, upper-case escapes, no trailing "/" on a directory
    params: tuple[tuple[str, str], ...] = ()  # content parameters, encoded, in page order
    fragment: str = ""  # a content fragment (an SPA route), without "#"
    tracking: Pool = ()
    hosts: tuple[str, ...] = ()  # other spellings of the host
    paths: tuple[str, ...] = ()  # other spellings of the path
    port: str = ""  # a non-default port
    directory: bool = False  # "/path/" names the same page as "/path"
    scheme: str = "https"
    wrap: bool = False  # spellings may come inside a redirect wrapper
    short: str = ""  # another URL of the page with no query (youtu.be/ID)

    @property
    def id(self) -> str:
        port = f":{self.port}" if self.port else ""
        # Parameter order is not content; the order of a repeated key's values is kept.
        params = sorted(self.params, key=lambda item: item[0])
        query = "?" + "&".join(f"{k}={v}" for k, v in params) if params else ""
        fragment = f"#{self.fragment}" if self.fragment else ""
        return f"{self.scheme}://{self.host}{port}{self.path}{query}{fragment}"


def _token(alphabet: str, size: int) -> Value:
    return lambda rng: "".join(rng.choices(alphabet, k=size))


def _one_of(*values: str) -> Value:
    return lambda rng: rng.choice(values)


_ALNUM = string.ascii_letters + string.digits
_B64 = _ALNUM + "-_"
_HEX = "0123456789abcdef"
_UTM: Pool = (
    ("utm_source", _one_of("newsletter", "twitter", "facebook", "linkedin", "google")),
    ("utm_medium", _one_of("email", "social", "cpc", "referral")),
    ("utm_campaign", _one_of("spring_sale", "launch-2024", "weekly%20digest", "bf24")),
    ("utm_content", _token(_ALNUM, 6)),
    ("utm_term", _one_of("running+shoes", "python", "crm%20tool")),
)
_CLICK_IDS: Pool = (
    ("fbclid", _token(_B64, 40)),
    ("gclid", _token(_B64, 32)),
    ("msclkid", _token(_HEX, 32)),
    ("mc_eid", _token(_HEX, 10)),
    ("mc_cid", _token(_HEX, 10)),
    ("_hsenc", lambda rng: "p2ANqtz-" + _token(_B64, 24)(rng)),
    ("_hsmi", _token(string.digits, 9)),
    ("igshid", _token(_ALNUM, 12)),
    ("yclid", _token(string.digits, 16)),
    ("syclid", _token(_ALNUM, 24)),
    ("WT.mc_id", _one_of("twitter", "AZ-MVP-5003", "email_newsletter")),
    ("yadclid", _token(string.digits, 10)),
    ("et_rid", _token(string.digits, 9)),
)
# "ref" is tracking on a blog with these values, and content in the ambiguous families below.
_REF_TRACKING: Pool = (("ref", _one_of("twitter", "producthunt", "hackernews", "newsletter")),)
_GENERIC = _UTM + _CLICK_IDS + _REF_TRACKING
_AMAZON: Pool = (
    ("ref_", _one_of("nav_signin", "ast_sto_dp", "cm_sw_r_cp_api")),
    ("pf_rd_p", lambda rng: "-".join(_token(_HEX, n)(rng) for n in (8, 4, 4, 4, 12))),
    ("pf_rd_r", _token(string.ascii_uppercase + string.digits, 20)),
    ("pf_rd_s", _one_of("merchandised-search-3", "desktop-hero")),
    ("pf_rd_t", _token(string.digits, 5)),
    ("pd_rd_w", _token(_ALNUM, 5)),
    ("pd_rd_wg", _token(_ALNUM, 5)),
    ("qid", _token(string.digits, 10)),
    ("sr", lambda rng: f"8-{rng.randint(1, 48)}"),
)
_AMAZON_SEARCH: Pool = (
    ("ref", lambda rng: f"sr_pg_{rng.randint(1, 9)}"),
    ("qid", _token(string.digits, 10)),
    ("crid", _token(string.ascii_uppercase + string.digits, 13)),
    ("sprefix", _one_of("head%2Caps%2C210", "usb%2Caps%2C95")),
)
_YOUTUBE: Pool = (
    ("si", _token(_B64, 16)),
    ("feature", _one_of("share", "youtu.be", "emb_logo")),
    ("pp", lambda rng: "ygU" + _token(_ALNUM, 8)(rng) + "%3D%3D"),
    ("ab_channel", _one_of("LinusTechTips", "Veritasium", "3Blue1Brown")),
)
_GOOGLE: Pool = (
    ("ei", _token(_B64, 22)),
    ("ved", lambda rng: "0ahUKEw" + _token(_B64, 40)(rng)),
    ("oq", _one_of("pyth", "best+", "how+to")),
    ("gs_lcp", _token(_B64, 60)),
    ("sclient", _one_of("gws-wiz", "gws-wiz-serp")),
    (
        "sxsrf",
        lambda rng: "AB5stB" + _token(_B64, 30)(rng) + "%3A" + _token(string.digits, 13)(rng),
    ),
    ("sourceid", _one_of("chrome")),
    ("ie", _one_of("UTF-8")),
    ("biw", _one_of("1280", "1536", "1920")),
    ("bih", _one_of("649", "739", "969")),
    ("dpr", _one_of("1", "1.25", "2")),
    ("fbs", lambda rng: "AEQNm0" + _token(_B64, 40)(rng)),
)
_BING: Pool = (
    ("form", _one_of("QBLH", "QBRE")),
    ("cvid", _token(_HEX.upper(), 32)),
    ("sp", _one_of("-1")),
    ("sc", _one_of("10-7", "8-5")),
    ("qs", _one_of("n")),
    ("pc", _one_of("U531", "MOZI")),
    ("ghc", _one_of("1")),
)
_SHOP: Pool = (
    *_UTM,
    ("gclid", _token(_B64, 32)),
    ("fbclid", _token(_B64, 40)),
    ("srsltid", lambda rng: "AfmBOo" + _token(_B64, 40)(rng)),
    # A Shopify search-result link carries all three together.
    ("_pos", lambda rng: f"{rng.randint(1, 30)}&_sid={_token(_HEX, 9)(rng)}&_ss=r"),
)
_MEDIUM: Pool = (
    ("source", lambda rng: "rss----" + _token(_HEX, 12)(rng) + "---4"),
    ("source", _one_of("friends_link", "post_page-----")),
    *_UTM,
)

# Names one anchor list strips and a vendor documents (docs/rules.md, "How an entry is chosen").
_EMAIL: Pool = (
    ("ea_src", _one_of("newsletter", "frontpage")),
    ("ea_med", _one_of("email", "social")),
    ("pm_source", _one_of("nl", "fb")),
    ("ns_campaign", _one_of("rss", "daily")),
    ("ns_mchannel", _one_of("email", "rss")),
    ("cjdata", _token(_B64, 24)),
    ("snrai_campaign", _token(_ALNUM, 8)),
    ("snrai_id", _token(_HEX, 12)),
    ("intcmp", _one_of("hp-promo-1", "nav_sale")),
)
_RECOMMENDATION: Pool = (
    ("obOrigUrl", _one_of("true")),
    ("taboola_click_id", lambda rng: "GiA" + _token(_B64, 30)(rng)),
    ("tblci", lambda rng: "GiA" + _token(_B64, 30)(rng)),
    ("nosto_source", _one_of("slot", "email")),
    ("yottly_online", _one_of("1")),
    ("yottly_recommender", _token(_HEX, 8)),
)
_SEZNAM: Pool = (
    ("sznclid", _token(_B64, 40)),
    ("dop_ab_variant", _one_of("0", "1", "2")),
    ("dop_req_id", _token(_B64, 12)),
    ("dop_source_zone_name", _one_of("hpfeed.sznhp.box", "zpravy.web.article")),
)
_NEWS: Pool = (
    ("ICID", _one_of("ref_fark", "hp-top-news")),
    ("ocid", _one_of("socialshare", "msedgntp")),
    ("ito", _one_of("social-twitter_mailonline", "native_share_article-top")),
    ("ico", _one_of("related", "top")),
    *_UTM[:2],
)
_TECHCRUNCH: Pool = (("ncid", _one_of("rss", "tcdaily")), ("sr_share", _one_of("twitter")))
_YAHOO: Pool = ((".tsrc", _one_of("rss", "fp_deeplink")), ("guccounter", _one_of("1", "2")))
_MERCADO: Pool = (
    ("tracking_id", lambda rng: "-".join(_token(_HEX, n)(rng) for n in (8, 4, 4, 4, 12))),
    ("position", lambda rng: str(rng.randint(1, 48))),
    ("search_layout", _one_of("grid", "stack")),
    ("reco_item_pos", lambda rng: str(rng.randint(0, 9))),
    ("pdp_filters", _one_of("category:MLA1055", "deal:MLA779357-1")),
)
_FLIPKART: Pool = (
    ("otracker", _one_of("search", "nmenu_sub_Electronics_0")),
    ("srno", lambda rng: f"s_1_{rng.randint(1, 40)}"),
    ("iid", lambda rng: "en_" + _token(_B64, 20)(rng)),
    ("ssid", _token(_ALNUM, 16)),
    ("qH", _token(_HEX, 16)),
)
_LAZADA: Pool = (
    ("spm", lambda rng: "a2o42.searchlist.list." + str(rng.randint(1, 40))),
    ("clickTrackInfo", _token(_B64, 30)),
    ("abid", _token(string.digits, 6)),
    ("pvid", _token(_HEX, 32)),
)
_INDEED: Pool = (
    ("tk", _token(_ALNUM, 20)),
    ("from", _one_of("serp", "mobRdr")),
    ("alid", _token(_HEX, 24)),
    ("advn", _token(string.digits, 16)),
)
_AIRBNB: Pool = (
    ("federated_search_id", lambda rng: "-".join(_token(_HEX, n)(rng) for n in (8, 4, 4))),
    ("source_impression_id", lambda rng: "p3_" + _token(string.digits, 10)(rng)),
    ("search_type", _one_of("filter_change", "pagination")),
)

_WORDS = (  # noqa: SIM905
    "alpine bright cedar delta ember falcon garden harbor indigo juniper kestrel lumen maple "
    "nimbus orbit pixel quartz river summit timber umbra velvet willow xenon yonder zephyr "
    "atlas beacon copper drift echo fable grove haven iris jade karma lotus meadow nova "
    "oasis"
).split()
_TLDS = (".com", ".org", ".net", ".io", ".co.uk", ".de", ".dev")
_IDNA_HOSTS = ("bücher.de", "münchen.de", "café.fr", "пример.испытание", "例え.テスト", "ñandú.es")
_ANCHORS = ("top", "reviews", "section-2", "comments", "main", "", "introduction")
_SCHEME_PORT = {"http": "80", "https": "443"}
_UNRESERVED = frozenset(string.ascii_letters + string.digits + "-._~")
_ESCAPE = re.compile(r"%[0-9A-Fa-f]{2}")
_HIGH_ESCAPES = re.compile(r"(?:%[89A-Fa-f][0-9A-Fa-f])+")


def _slug(rng: random.Random, words: int = 3) -> str:
    return "-".join(rng.sample(_WORDS, words))


def _blog(rng: random.Random, hosts: list[str]) -> list[_Page]:
    host, slug = rng.choice(hosts), _slug(rng)
    style = rng.randrange(4)
    if style == 0:
        path, directory = f"/{rng.randint(2015, 2025)}/{rng.randint(1, 12):02d}/{slug}", True
    elif style == 1:
        path, directory = f"/blog/{slug}", True
    elif style == 2:
        path, directory = f"/news/{slug}.html", False
    else:
        path, directory = f"/~{rng.choice(_WORDS)}/notes/{slug}", True
    page = _Page("tracking", host, path, tracking=_GENERIC, directory=directory)
    pages = [page]
    if rng.random() < 0.3:  # the second page of comments is another page
        pages.append(
            _Page("tracking", host, path, (("page", "2"),), "", _GENERIC, directory=directory)
        )
    return pages


def _plain(rng: random.Random, hosts: list[str]) -> list[_Page]:
    host = rng.choice(hosts)
    path = rng.choice(
        ("/", "/about", "/pricing", f"/docs/{_slug(rng, 2)}", f"/team/{rng.choice(_WORDS)}")
    )
    pages = [_Page("plain", host, path, tracking=_UTM, directory=path != "/")]
    if rng.random() < 0.2:  # the same path on another port is another server
        pages.append(_Page("plain", host, path, tracking=_UTM, port="8443", directory=path != "/"))
    return pages


def _marketplace(rng: random.Random, hosts: list[str]) -> list[_Page]:
    host = rng.choice(("www.amazon.com", "www.amazon.de", "www.amazon.co.uk"))
    if rng.random() < 0.25:
        query = "+".join(
            rng.sample(("wireless", "headphones", "usb", "c", "hub", "desk", "lamp"), 2)
        )
        pages = [("k", query)], [("k", query), ("page", "2")], [("k", query), ("page", "3")]
        return [_Page("marketplace", host, "/s", tuple(p), tracking=_AMAZON_SEARCH) for p in pages]
    result = []
    for _ in range(rng.randint(1, 3)):
        asin = "B0" + "".join(rng.choices(string.ascii_uppercase + string.digits, k=8))
        # The "/ref=..." path segment is Amazon's tracking too, but inside the path; the title
        # slug and the older /gp/product/ form name the same product.
        title = "-".join(w.capitalize() for w in rng.sample(_WORDS, 3))
        alts = (
            f"/dp/{asin}/ref=sr_1_{rng.randint(1, 20)}",
            f"/{title}/dp/{asin}",
            f"/gp/product/{asin}",
        )
        result.append(_Page("marketplace", host, f"/dp/{asin}", tracking=_AMAZON, paths=alts))
    return result


def _video(rng: random.Random, hosts: list[str]) -> list[_Page]:
    vid = "".join(rng.choices(_B64, k=11))
    alias = ("m.youtube.com", "youtube.com", "www.youtube.com")
    pages = [
        _Page(
            "video",
            "www.youtube.com",
            "/watch",
            (("v", vid),),
            tracking=_YOUTUBE,
            hosts=alias,
            short=f"https://youtu.be/{vid}",
        )
    ]
    if rng.random() < 0.3:  # video ids are case-sensitive: one flipped letter is another video
        i = next((i for i, c in enumerate(vid) if c.isalpha()), None)
        if i is not None:
            other = vid[:i] + vid[i].swapcase() + vid[i + 1 :]
            pages.append(
                _Page("video", "www.youtube.com", "/watch", (("v", other),), tracking=_YOUTUBE)
            )
    if rng.random() < 0.2:  # the same video inside a playlist shows the playlist
        playlist = ("list", "PL" + "".join(rng.choices(_B64, k=32)))
        pages.append(
            _Page("video", "www.youtube.com", "/watch", (("v", vid), playlist), tracking=_YOUTUBE)
        )
    return pages


def _search(rng: random.Random, hosts: list[str]) -> list[_Page]:
    terms = ["python", "asyncio", "best", "hiking", "boots", "c%2B%2B", "caf%C3%A9", "near", "me"]
    q = ("q", "+".join(rng.sample(terms, rng.randint(1, 3))))
    engine = rng.randrange(3)
    if engine == 0:
        host, path, pool = "www.google.com", "/search", _GOOGLE
        variants = [(q,), (q, ("start", "10")), (q, ("tbm", "isch"))]
    elif engine == 1:
        host, path, pool = "www.bing.com", "/search", _BING
        variants = [(q,), (q, ("first", "11"))]
    else:
        host, path, pool = (
            "duckduckgo.com",
            "/",
            (("t", _one_of("h_", "ffab")),),
        )
        variants = [(q,)]
    count = rng.randint(1, len(variants))
    return [_Page("search", host, path, params, tracking=pool) for params in variants[:count]]


def _shop(rng: random.Random, hosts: list[str]) -> list[_Page]:
    host = rng.choice(hosts[:40])
    style = rng.randrange(3)
    if style == 0:
        base = (("id", str(rng.randint(1000, 99999))),)
        options = [(), (("color", "red"),), (("color", "blue"),), (("color", "red"), ("size", "m"))]
        chosen = rng.sample(options, rng.randint(1, 3))
        return [_Page("shop", host, "/product", base + extra, tracking=_SHOP) for extra in chosen]
    if style == 1:
        path = f"/products/{_slug(rng, 2)}"
        variants = [(), *((("variant", str(rng.randint(10**10, 10**11))),) for _ in range(2))]
        chosen = variants[: rng.randint(1, 3)]
        return [_Page("shop", host, path, v, tracking=_SHOP) for v in chosen]
    path = f"/collections/{rng.choice(_WORDS)}"
    options = [
        (),
        (("page", "2"),),
        (("sort", "price-ascending"),),
        (("page", "2"), ("sort", "price-ascending")),
    ]
    chosen = rng.sample(options, rng.randint(1, 4))
    return [_Page("shop", host, path, extra, tracking=_SHOP, directory=True) for extra in chosen]


def _ambiguous(rng: random.Random, hosts: list[str]) -> list[_Page]:
    style = rng.randrange(4)
    owner, repo = rng.sample(_WORDS, 2)
    if style == 0:  # a branch name in "ref" selects what is shown
        refs = rng.sample(("main", "dev", "v1.2.0", "gh-pages"), 2)
        if rng.random() < 0.5:
            host, path = "api.github.com", f"/repos/{owner}/{repo}/contents/README.md"
        else:
            host, path = (
                "gitlab.com",
                f"/api/v4/projects/{owner}%2F{repo}/repository/files/README.md/raw",
            )
        return [_Page("ambiguous", host, path, (("ref", r),), tracking=_UTM) for r in refs]
    if style == 1:  # an order reference
        host = rng.choice(hosts[:40])
        orders = [f"ORD-{rng.randint(10000, 99999)}" for _ in range(2)]
        return [
            _Page("ambiguous", host, "/orders/track", (("ref", o),), tracking=_UTM) for o in orders
        ]
    if style == 2:  # a knowledge-base article id in "source"
        host = f"support.{rng.choice(_WORDS)}.com"
        articles = [f"KB{rng.randint(100000, 999999)}" for _ in range(2)]
        return [
            _Page("ambiguous", host, "/article", (("source", a),), tracking=_UTM) for a in articles
        ]
    path = f"/@{owner}/{_slug(rng)}-{''.join(rng.choices(_HEX, k=12))}"
    return [_Page("ambiguous", "medium.com", path, tracking=_MEDIUM)]


def _spa(rng: random.Random, hosts: list[str]) -> list[_Page]:
    if rng.random() < 0.7:
        host, path = f"app.{rng.choice(_WORDS)}{rng.choice(_TLDS)}", "/"
        routes = ["!/inbox", "!/settings/profile", f"!/item/{rng.randint(1, 999)}", ""]
    else:  # docsify-style hash routing
        host, path = rng.choice(hosts), "/docs/"
        routes = ["/guide/install", "/guide/config", "/api", ""]
    chosen = rng.sample(routes, rng.randint(2, 3))
    return [_Page("spa", host, path, (), route, _GENERIC) for route in chosen]


def _idna(rng: random.Random, hosts: list[str]) -> list[_Page]:
    name = rng.choice(_IDNA_HOSTS)
    ascii_name = name.encode("idna").decode("ascii")
    spellings = (name, name.upper(), ascii_name.upper(), name.title())
    paths = rng.sample(("/", "/kontakt", f"/produkte/{_slug(rng, 2)}"), rng.randint(1, 2))
    return [
        _Page("idna", ascii_name, p, tracking=_UTM, hosts=spellings, directory=p != "/")
        for p in paths
    ]


def _ipv6(rng: random.Random, hosts: list[str]) -> list[_Page]:
    address = ipaddress.IPv6Address(
        f"2001:db8:{rng.randint(0, 0xFFFF):x}::{rng.randint(1, 0xFFFF):x}"
    )
    spellings = tuple(
        f"[{s}]" for s in (address.exploded, address.exploded.upper(), address.compressed.upper())
    )
    host = f"[{address.compressed}]"
    path = rng.choice(("/", "/status", "/api/health"))
    pages = [_Page("ipv6", host, path, tracking=_UTM, hosts=spellings, scheme="http")]
    if rng.random() < 0.5:  # another port is another server
        pages.append(
            _Page("ipv6", host, path, tracking=_UTM, hosts=spellings, port="8080", scheme="http")
        )
    return pages


def _repeated(rng: random.Random, hosts: list[str]) -> list[_Page]:
    host = rng.choice(hosts[:40])
    key = rng.choice(("tag", "filter", "brand"))
    a, b = rng.sample(_WORDS, 2)
    options = [((key, a),), ((key, b),), ((key, a), (key, b))]
    return [_Page("repeated", host, "/search", p, tracking=_SHOP) for p in rng.sample(options, 2)]


def _encoding(rng: random.Random, hosts: list[str]) -> list[_Page]:
    host = rng.choice(hosts)
    style = rng.randrange(3)
    if style == 0:  # an escaped "/" is data, not a path separator (RFC 3986 section 2.2)
        group, name = rng.sample(_WORDS, 2)
        paths = [f"/api/v4/projects/{group}%2F{name}", f"/api/v4/projects/{group}/{name}"]
    elif style == 1:  # path case matters (RFC 3986 section 6.2.2.1 lowers only scheme and host)
        title = rng.choice(_WORDS)
        paths = [f"/wiki/{title.capitalize()}", f"/wiki/{title}"]
    else:
        word = rng.choice(("Caf%C3%A9", "Stra%C3%9Fe", "%E6%97%A5%E6%9C%AC", "Se%C3%B1or"))
        paths = [f"/wiki/{word}"]
    return [_Page("encoding", host, p, tracking=_UTM) for p in paths]


_SESSION_QUERY: Pool = (
    ("PHPSESSID", _token(string.ascii_lowercase + string.digits, 26)),
    ("sid", _token(_HEX, 32)),
    ("ASPSESSIONIDQSTSRDBC", _token(string.ascii_uppercase, 24)),
    ("CFID", lambda rng: f"{rng.randint(1000, 99999)}&CFTOKEN={rng.randint(10**7, 10**8 - 1)}"),
    ("jsessionid", _token(_HEX.upper(), 32)),
)


def _session(rng: random.Random, hosts: list[str]) -> list[_Page]:
    host = rng.choice(hosts)
    style = rng.randrange(4)
    if style == 0:  # a session id in the query, next to content parameters
        path, key = rng.choice((("/viewtopic.php", "t"), ("/catalog/item.php", "id")))
        numbers = rng.sample(range(100, 99999), rng.randint(1, 2))
        return [
            _Page("session", host, path, ((key, str(i)),), tracking=_SESSION_QUERY) for i in numbers
        ]
    if style == 1:  # Java URL rewriting: ";jsessionid=" in the last path segment
        path = f"/shop/{rng.choice(_WORDS)}/item"
        ids = [_token(_HEX.upper(), 32)(rng) for _ in range(2)]
        alts = (*(f"{path};jsessionid={i}" for i in ids), f"{path};jsessionid={ids[0]}.n1")
        return [_Page("session", host, path, (("id", str(rng.randint(1, 999))),), paths=alts)]
    if style == 2:  # ASP.NET cookieless session state: "/(S(...))/" before the page
        path = f"/products/{rng.choice(_WORDS)}.aspx"
        alts = tuple(
            f"/(S({_token(string.ascii_lowercase + '012345', 24)(rng)})){path}" for _ in range(2)
        )
        return [_Page("session", host, path, tracking=_UTM, paths=alts)]
    # "sid" as content: a story id; another story is another page.
    stories = rng.sample(range(1, 500), 2)
    return [
        _Page("session", host, "/story.php", (("sid", str(n)),), tracking=_UTM) for n in stories
    ]


def _redirect(rng: random.Random, hosts: list[str]) -> list[_Page]:
    host, slug = rng.choice(hosts), _slug(rng)
    page = _Page("redirect", host, f"/posts/{slug}", tracking=_GENERIC, wrap=True)
    if rng.random() > 0.3:
        return [page]
    # The same shape on a site that is no redirector is a page of its own.
    target = quote(f"https://{host}/posts/{slug}", safe="")
    return [page, _Page("redirect", rng.choice(hosts), "/url", (("q", target),))]


def _wrapper(url: str, rng: random.Random) -> str:
    target = quote(url, safe="")
    token = _token(_B64, 20)(rng)
    style = rng.randrange(5)
    if style == 0:
        return f"https://www.google.com/url?sa=t&url={target}&ved=2ahUKEw{token}"
    if style == 1:
        return f"https://www.google.com/url?q={target}&sa=D&source=docs&usg=AOvVaw{token}"
    if style == 2:
        return f"https://l.facebook.com/l.php?u={target}&h=AT{token}"
    if style == 3:
        return f"https://www.youtube.com/redirect?event=video_description&q={target}&v={token[:11]}"
    return (
        f"https://eur01.safelinks.protection.outlook.com/?url={target}&data=05%7C02%7C&reserved=0"
    )


def _campaigns(rng: random.Random, hosts: list[str]) -> list[_Page]:
    """E-mail platforms, recommendation networks, comScore and affiliate markers on any site.

    Siblings: another article id; and on a shop, ``dop_id``, ``ns`` and ``icid`` with other
    values are other pages (a lone ``dop_id``, and ``icid`` off news sites, are kept).
    """
    host = rng.choice(hosts)
    if rng.random() < 0.7:
        path = f"/{rng.choice(('blog', 'news', 'stories'))}/{_slug(rng)}"
        pool = _EMAIL + _RECOMMENDATION if rng.random() < 0.5 else _RECOMMENDATION + _UTM
        pages = [_Page("campaign", host, path, tracking=pool)]
        if rng.random() < 0.3:
            pages.append(_Page("campaign", host, path, (("id", "2"),), tracking=pool))
        return pages
    name = rng.choice(("dop_id", "ns", "icid", "ito"))
    values = rng.sample(("1", "2", "7", "42"), 2)
    return [_Page("campaign", host, "/item", ((name, v),), tracking=_EMAIL) for v in values]


def _syndication(rng: random.Random, hosts: list[str]) -> list[_Page]:
    """News sites' own campaign and syndication ids, and a regional recommendation network."""
    style = rng.randrange(4)
    if style == 0:
        host = rng.choice(
            ("edition.cnn.com", "www.dailymail.co.uk", "www.bbc.com", "www.cbsnews.com")
        )
        path, pool = f"/news/article-{rng.randint(10**6, 10**7)}/{_slug(rng)}.html", _NEWS
    elif style == 1:
        host, path, pool = (
            "techcrunch.com",
            f"/2026/01/{rng.randint(10, 28)}/{_slug(rng)}",
            _TECHCRUNCH,
        )
    elif style == 2:
        host, path, pool = "finance.yahoo.com", f"/news/{_slug(rng)}.html", _YAHOO
    else:
        host = rng.choice(("www.novinky.cz", "www.seznamzpravy.cz", "www.respekt.cz"))
        path, pool = f"/clanek/{_slug(rng, 2)}-{rng.randint(10**7, 10**8)}", _SEZNAM
    return [_Page("syndication", host, path, tracking=pool)]


def _platform(rng: random.Random, hosts: list[str]) -> list[_Page]:
    """Marketplace, job and travel hosts' own click parameters; siblings differ in an id."""
    style = rng.randrange(5)
    if style == 0:
        host = rng.choice(("articulo.mercadolibre.com.ar", "produto.mercadolivre.com.br"))
        items = [f"/ML{rng.choice('AB')}-{rng.randint(10**8, 10**9)}-{_slug(rng, 2)}-_JM"]
        return [_Page("platform", host, path, tracking=_MERCADO) for path in items]
    if style == 1:
        path = f"/{_slug(rng, 2)}/p/itm{''.join(rng.choices(_HEX, k=13))}"
        pids = [
            ("pid", "MOB" + "".join(rng.choices(string.ascii_uppercase, k=12))) for _ in range(2)
        ]
        chosen = pids[: rng.randint(1, 2)]
        return [
            _Page("platform", "www.flipkart.com", path, (p,), tracking=_FLIPKART) for p in chosen
        ]
    if style == 2:
        host = rng.choice(("www.lazada.sg", "www.lazada.co.th", "www.lazada.vn"))
        path = f"/products/{_slug(rng, 2)}-i{rng.randint(10**8, 10**9)}.html"
        return [_Page("platform", host, path, tracking=_LAZADA)]
    if style == 3:
        jobs = [("jk", "".join(rng.choices(_HEX, k=16))) for _ in range(2)]
        chosen = jobs[: rng.randint(1, 2)]
        return [
            _Page("platform", "www.indeed.com", "/viewjob", (j,), tracking=_INDEED) for j in chosen
        ]
    path = f"/rooms/{rng.randint(10**6, 10**8)}"
    return [_Page("platform", "www.airbnb.com", path, tracking=_AIRBNB)]


_FAMILIES: dict[str, tuple[int, Callable[[random.Random, list[str]], list[_Page]]]] = {
    "tracking": (20, _blog),
    "plain": (12, _plain),
    "marketplace": (10, _marketplace),
    "video": (10, _video),
    "search": (10, _search),
    "shop": (14, _shop),
    "ambiguous": (8, _ambiguous),
    "spa": (6, _spa),
    "idna": (3, _idna),
    "ipv6": (2, _ipv6),
    "repeated": (3, _repeated),
    "encoding": (4, _encoding),
    "session": (5, _session),
    "redirect": (5, _redirect),
    "campaign": (6, _campaigns),
    "syndication": (5, _syndication),
    "platform": (6, _platform),
}
KINDS = tuple(_FAMILIES)


def _escape_one(text: str, rng: random.Random) -> str:
    """Percent-encode one unreserved character (``~`` first): an equivalent spelling."""
    inside = {i for m in _ESCAPE.finditer(text) for i in range(m.start(), m.end())}
    positions = [i for i, c in enumerate(text) if c in _UNRESERVED and i not in inside]
    if not positions:
        return text
    tildes = [i for i in positions if text[i] == "~"]
    i = rng.choice(tildes or positions)
    escape = f"%{ord(text[i]):02X}"
    return text[:i] + (escape.lower() if rng.random() < 0.5 else escape) + text[i + 1 :]


def _respell(text: str, rng: random.Random) -> str:
    """Apply equivalent escape spellings: lower-case hex, raw UTF-8, an escaped unreserved char."""
    if "%" in text and rng.random() < 0.2:
        # Whole runs only, so that every UTF-8 sequence is decoded complete.
        text = _HIGH_ESCAPES.sub(lambda m: unquote(m.group(), errors="strict"), text)
    if "%" in text and rng.random() < 0.2:
        text = _ESCAPE.sub(lambda m: m.group().lower(), text)
    if rng.random() < 0.08:
        text = _escape_one(text, rng)
    return text


def _spell_path(path: str, directory: bool, rng: random.Random) -> str:
    if directory and path != "/" and rng.random() < 0.3:
        path += "/"
    if "~" in path and rng.random() < 0.4:
        path = _escape_one(path, rng)
    path = _respell(path, rng)
    # Double a slash before adding dot segments: "/a//../" resolves to "/a/", not "/".
    if rng.random() < 0.06:
        i = rng.choice([i for i, c in enumerate(path) if c == "/"])
        path = path[:i] + "/" + path[i:]
    if rng.random() < 0.08:
        i = rng.choice([i for i, c in enumerate(path) if c == "/"]) + 1
        path = path[:i] + rng.choice(("./", f"{rng.choice(_WORDS)}/../")) + path[i:]
    if path == "/" and rng.random() < 0.25:
        path = ""
    return path


def _spell_query(page: _Page, rng: random.Random) -> str:
    items = list(page.params)
    if page.tracking and rng.random() < 0.65:
        for _ in range(rng.randint(1, 3)):
            name, draw = rng.choice(page.tracking)
            items.append((name, draw(rng)))
    if rng.random() < 0.5:
        shuffled = rng.sample(items, len(items))
        # Keep each name's values in their first order: "tag=a&tag=b" may differ from "tag=b&tag=a".
        by_name: dict[str, list[tuple[str, str]]] = {}
        for item in items:
            by_name.setdefault(item[0], []).append(item)
        items = [by_name[name].pop(0) for name, _ in shuffled]
    parts = []
    for name, value in items:
        if "+" in value and rng.random() < 0.3:
            value = value.replace("+", "%20")
        parts.append(f"{name}={_respell(value, rng)}")
    if not parts:
        return "?" if rng.random() < 0.03 else ""
    return "?" + "&".join(parts)


def _spell(page: _Page, rng: random.Random) -> str:
    if page.short and rng.random() < 0.2:
        return page.short + _spell_query(replace(page, params=()), rng)
    url = _spell_direct(page, rng)
    if page.wrap and rng.random() < 0.5:
        return _wrapper(url, rng)
    return url


def _spell_direct(page: _Page, rng: random.Random) -> str:
    scheme = page.scheme.upper() if rng.random() < 0.04 else page.scheme
    host = rng.choice(page.hosts) if page.hosts and rng.random() < 0.6 else page.host
    if not host.startswith("[") and rng.random() < 0.2:
        host = "".join(c.upper() if rng.random() < 0.5 else c for c in host)
    if page.port:
        port = f":{page.port}"
    else:
        port = f":{_SCHEME_PORT[page.scheme]}" if rng.random() < 0.1 else ""
    path = rng.choice(page.paths) if page.paths and rng.random() < 0.3 else page.path
    path = _spell_path(path, page.directory, rng)
    query = _spell_query(page, rng)
    if page.fragment:
        fragment = f"#{page.fragment}"
    else:
        fragment = f"#{rng.choice(_ANCHORS)}" if rng.random() < 0.25 else ""
    return f"{scheme}://{host}{port}{path}{query}{fragment}"


def _tail_hosts(rng: random.Random, count: int) -> list[str]:
    hosts: set[str] = set()
    while len(hosts) < count:
        prefix = rng.choice(("www.", "", "blog.", "shop.", "news."))
        hosts.add(f"{prefix}{rng.choice(_WORDS)}{rng.choice(_WORDS)}{rng.choice(_TLDS)}")
    return sorted(hosts)


def generate(n: int, *, seed: int = 0) -> list[LabelledURL]:
    """Return ``n`` labelled URLs, the same list for the same ``seed``.

    Args:
        n: how many URLs; each page appears in one to six spellings.
        seed: seeds the ``random.Random`` that draws everything.

    >>> corpus = generate(500, seed=7)
    >>> len(corpus), len({u.page for u in corpus}) < len(corpus)
    (500, True)
    """
    rng = random.Random(seed)
    hosts = _tail_hosts(rng, 400)
    kinds = list(_FAMILIES)
    weights = [weight for weight, _ in _FAMILIES.values()]
    seen: dict[str, str] = {}
    pages: set[str] = set()
    corpus: list[LabelledURL] = []
    while len(corpus) < n:
        build = _FAMILIES[rng.choices(kinds, weights)[0]][1]
        for page in build(rng, hosts):
            page_id = page.id
            if page_id in pages:
                continue
            pages.add(page_id)
            count = rng.choices((1, 2, 3, 4, 5, 6), (10, 20, 25, 20, 15, 10))[0]
            spellings = {page_id} if rng.random() < 0.3 else set()
            for _ in range(3 * count):
                if len(spellings) >= count:
                    break
                spellings.add(_spell(page, rng))
            for url in sorted(spellings):
                if seen.setdefault(url, page_id) != page_id:
                    raise AssertionError(f"{url} spells two pages: {seen[url]} and {page_id}")
                corpus.append(LabelledURL(url, page_id, page.kind))
    del corpus[n:]
    rng.shuffle(corpus)
    return corpus
