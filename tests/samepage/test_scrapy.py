"""samepage.scrapy: a real Scrapy crawl of a local site, with and without samepage keys."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from learner.demo.server import Request, Response, Site, SiteServer
from samepage import DomainEntry, LearnedSet, ParamVerdict, PatternEntry, dump_learned
from tests.plugins.engines import engine
from tests.plugins.properties import examples

engine("scrapy")

ROOT = Path(__file__).resolve().parents[2]
SESSION = "0123456789abcdef0123456789abcdef"
LINKS = [
    "/p?id=1",
    "/p?id=1&utm_source=news&utm_medium=email",  # tracking
    "/p?fbclid=IwAR0abc&id=1",  # tracking, another order
    f"/p?id=1&sid={SESSION}",  # a session id
    "/p?id=2&ref=home",  # ref is neutral in the learned set
    "/p?id=2&ref=footer",
    "/p?id=2&color=red",  # color is not: another page
    "/old/",  # redirected to /old, whose key is the same
]


def _scrapy_site() -> Site:
    site = Site("127.0.0.1")

    @site.route("/")
    def home(request: Request) -> Response:
        links = "".join(f'<a href="{href}">x</a>' for href in LINKS)
        return Response(body=f"<html><body>{links}</body></html>")

    @site.route("/p")
    def page(request: Request) -> Response:
        return Response(body=f"<h1>Item {request.params.get('id')}</h1>")

    @site.route("/old/")
    def old(request: Request) -> Response:
        return Response(301, "", headers={"Location": "/old"})

    @site.route("/old")
    def moved(request: Request) -> Response:
        return Response(body="<h1>Moved here</h1>")

    return site


def _learned(path: Path, host: str) -> Path:
    content = ParamVerdict("non-neutral", 5, 5, 0)
    ref = {"id": content, "ref": ParamVerdict("neutral", 5, 0, 0)}
    color = {"id": content, "color": content}
    entry = DomainEntry({"id&ref": PatternEntry(10, ref), "color&id": PatternEntry(10, color)})
    dump_learned(LearnedSet({host: entry}), path)
    return path


def _crawl(server: SiteServer, settings: Mapping[str, object], *starts: str) -> list[str]:
    before = len(server.requests)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    for name in ("http_proxy", "HTTP_PROXY", "no_proxy", "NO_PROXY"):
        env.pop(name, None)
    done = subprocess.run(
        [sys.executable, "-m", "tests.samepage.scrapy_crawl", json.dumps(dict(settings)), *starts],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return [f"{r.path}?{r.query}" if r.query else r.path for r in server.requests[before:]]


@pytest.mark.slow  # a whole Scrapy crawl of a local site
def test_a_crawl_with_samepage_keys_fetches_each_page_once(tmp_path: Path) -> None:
    with SiteServer([_scrapy_site()]) as server:
        samepage = {
            "REQUEST_FINGERPRINTER_CLASS": "samepage.scrapy.SamepageFingerprinter",
            "SAMEPAGE_LEARNED": str(_learned(tmp_path / "learned.json", server.address)),
        }
        start = f"http://{server.address}/"
        plain = _crawl(server, {}, start)
        keyed = _crawl(server, samepage, start)
    # Scrapy's own fingerprint keeps every spelling apart: each link is fetched.
    assert sorted(plain) == sorted(["/", *LINKS, "/old"])
    # samepage keys: one request per page; the redirect's target is still fetched.
    assert sorted(keyed) == sorted(
        ["/", "/p?id=1", "/p?id=2&ref=home", "/p?id=2&color=red", "/old/", "/old"]
    )


@pytest.mark.slow  # a whole Scrapy crawl of a local site
def test_the_http_cache_answers_another_spelling_of_a_cached_page(tmp_path: Path) -> None:
    cache = {"HTTPCACHE_ENABLED": True}
    samepage = {"REQUEST_FINGERPRINTER_CLASS": "samepage.scrapy.SamepageFingerprinter"}
    with SiteServer([_scrapy_site()]) as server:
        first = f"http://{server.address}/p?id=1"
        again = f"http://{server.address}/p?utm_source=x&id=1"
        for name, settings in (("plain", cache), ("keyed", {**cache, **samepage})):
            folder = {"HTTPCACHE_DIR": str(tmp_path / name)}
            assert _crawl(server, {**settings, **folder}, first) == ["/p?id=1"]
            fetched = _crawl(server, {**settings, **folder}, again)
            # Without samepage keys the cache misses; with them, no request reaches the site.
            assert fetched == ([] if name == "keyed" else ["/p?utm_source=x&id=1"])


def test_settings_name_every_option_of_the_normalizer(tmp_path: Path) -> None:
    from scrapy.settings import Settings

    from samepage.scrapy import SamepageFingerprinter, normalizer_from_settings

    learned = str(_learned(tmp_path / "learned.json", "shop.example"))
    options = {
        "SAMEPAGE_LEARNED": learned,
        "SAMEPAGE_EXTRA_BLOCKLIST": ["campaign"],
        "SAMEPAGE_DISABLE_RULES": ["fbclid"],
        "SAMEPAGE_UNWRAP_REDIRECTS": False,
        "SAMEPAGE_LEARNED_FALLBACK": "domain",
    }
    norm = normalizer_from_settings(Settings(options))
    assert norm.normalize("https://a.example/p?id=1&campaign=x") == "https://a.example/p?id=1"
    assert norm.normalize("https://a.example/p?fbclid=1") == "https://a.example/p?fbclid=1"
    assert norm.normalize("https://shop.example/p?id=1&ref=x") == "https://shop.example/p?id=1"
    wrapped = "https://www.google.com/url?q=https://a.example/"
    assert norm.normalize(wrapped).startswith("https://www.google.com/url")
    allowed = {**options, "SAMEPAGE_EXTRA_ALLOWLIST": {"shop.example": ["ref"]}}
    kept = "https://shop.example/p?id=1&ref=x"
    assert normalizer_from_settings(Settings(allowed)).normalize(kept) == kept
    assert norm.learned_fallback == "domain"
    fingerprinter = SamepageFingerprinter(norm)
    from scrapy import Request as ScrapyRequest

    a = ScrapyRequest("https://a.example/p?id=1&utm_source=x")
    b = ScrapyRequest("https://a.example/p?id=1")
    post = ScrapyRequest("https://a.example/p?id=1", method="POST", body=b"q=1")
    verbatim = ScrapyRequest("https://a.example/p?id=1&utm_source=x", meta={"verbatim_url": True})
    assert fingerprinter.fingerprint(a) == fingerprinter.fingerprint(b)
    assert fingerprinter.fingerprint(post) != fingerprinter.fingerprint(b)
    assert fingerprinter.fingerprint(verbatim) != fingerprinter.fingerprint(a)


def test_the_fingerprinter_applies_the_learned_aliases(tmp_path: Path) -> None:
    from scrapy import Request as ScrapyRequest
    from scrapy.settings import Settings

    from samepage.scrapy import SamepageFingerprinter, normalizer_from_settings
    from tests.samepage.engine_inputs import ALIASED, write_learned

    settings = Settings({"SAMEPAGE_LEARNED": str(write_learned(tmp_path))})
    fingerprinter = SamepageFingerprinter(normalizer_from_settings(settings))
    index, wiki = (fingerprinter.fingerprint(ScrapyRequest(url)) for url in ALIASED)
    assert index == wiki
    other = ScrapyRequest("https://wiki.example/w/index.php?title=U")
    assert fingerprinter.fingerprint(other) != wiki
    # Without the learned set, Scrapy would fetch both spellings.
    plain = SamepageFingerprinter(normalizer_from_settings(Settings({})))
    assert plain.fingerprint(ScrapyRequest(ALIASED[0])) != plain.fingerprint(
        ScrapyRequest(ALIASED[1])
    )


@pytest.mark.parametrize(
    ("setting", "value", "message"),
    [
        # A string where names are wanted: never the names "i" and "d".
        ("SAMEPAGE_EXTRA_ALLOWLIST", {"a.example": "id"}, "not a string"),
        ("SAMEPAGE_EXTRA_ALLOWLIST", {"a.example": ["id", 3]}, "3 is not a parameter name"),
        ("SAMEPAGE_EXTRA_ALLOWLIST", {3: ["id"]}, "3 is not a host suffix"),
        ("SAMEPAGE_EXTRA_ALLOWLIST", ["id", None], "None is not a parameter name"),
        ("SAMEPAGE_EXTRA_BLOCKLIST", [3], "3 is not a parameter name"),
        ("SAMEPAGE_DISABLE_RULES", [3], "3 is not a rule id or name"),
        ("SAMEPAGE_LEARNED_FALLBACK", "sometimes", "must be 'shared', 'keep' or 'domain'"),
        ("SAMEPAGE_EXTRA_ALLOWLIST", {"https://shop.example": ["id"]}, "shop.example'\\?"),
        ("SAMEPAGE_EXTRA_ALLOWLIST", {"Bücher.example": ["id"]}, "xn--bcher-kva.example"),
    ],
)
def test_settings_are_checked_as_the_python_api_checks_them(
    setting: str, value: object, message: str
) -> None:
    from scrapy.settings import Settings

    from samepage import MIQPSNormalizer
    from samepage.scrapy import normalizer_from_settings

    with pytest.raises(ValueError, match=f"^{setting}: .*{message}"):
        normalizer_from_settings(Settings({setting: value}))
    options: dict[str, Any] = {setting.removeprefix("SAMEPAGE_").lower(): value}
    with pytest.raises((TypeError, ValueError, AttributeError)):
        MIQPSNormalizer(**options)


def test_a_comma_separated_setting_from_the_command_line_is_a_list() -> None:
    from scrapy.settings import Settings

    from samepage.scrapy import normalizer_from_settings

    norm = normalizer_from_settings(Settings({"SAMEPAGE_EXTRA_BLOCKLIST": "campaign,ref"}))
    assert norm.normalize("https://a.example/p?id=1&campaign=x&ref=y") == (
        "https://a.example/p?id=1"
    )


def test_a_json_allowlist_from_the_command_line_is_a_dict_of_hosts(tmp_path: Path) -> None:
    from scrapy.settings import Settings

    from samepage.scrapy import normalizer_from_settings

    # Both hosts learned "ref" neutral (dropped); the allowlist protects it on one of them.
    one = LearnedSet.from_json(json.loads(_learned(tmp_path / "one.json", "a.example").read_text()))
    entry = one.domains["a.example"]
    learned = str(
        dump_learned(
            LearnedSet({"shop.example": entry, "other.example": entry}), tmp_path / "learned.json"
        )
    )
    given = {"SAMEPAGE_LEARNED": learned, "SAMEPAGE_EXTRA_ALLOWLIST": '{"shop.example": ["ref"]}'}
    norm = normalizer_from_settings(Settings(given))
    kept = "https://shop.example/p?id=1&ref=x"
    assert norm.normalize(kept) == kept
    assert norm.normalize("https://other.example/p?id=1&ref=x") == "https://other.example/p?id=1"
    listed = Settings({"SAMEPAGE_EXTRA_BLOCKLIST": '["campaign", "ref"]'})
    blocked = normalizer_from_settings(listed)
    assert blocked.normalize("https://a.example/p?id=1&campaign=x&ref=y") == (
        "https://a.example/p?id=1"
    )


@pytest.mark.parametrize(
    ("setting", "value"),
    [
        ("SAMEPAGE_LEARNED", 0),
        ("SAMEPAGE_LEARNED", False),
        ("SAMEPAGE_LEARNED", {"shop.example": ["id"]}),
        ("SAMEPAGE_LEARNED", "/nonexistent/learned.json"),
        ("SAMEPAGE_UNWRAP_REDIRECTS", 2),
        ("SAMEPAGE_UNWRAP_REDIRECTS", "no"),
        ("SAMEPAGE_UNWRAP_REDIRECTS", 0.5),
        ("SAMEPAGE_EXTRA_BLOCKLIST", {"campaign": 1}),
        ("SAMEPAGE_EXTRA_BLOCKLIST", 7),
        ("SAMEPAGE_EXTRA_BLOCKLIST", '["campaign"'),
        ("SAMEPAGE_EXTRA_ALLOWLIST", '{"shop.example": ["id"]'),
        ("SAMEPAGE_EXTRA_ALLOWLIST", '{"shop.example": "id"}'),
        ("SAMEPAGE_DISABLE_RULES", "fbclid,"),
        ("SAMEPAGE_LEARNED_FALLBACK", 3),
        ("SAMEPAGE_LEARNT", "data/learned.json"),
    ],
)
def test_a_setting_of_the_wrong_type_is_refused_naming_it(setting: str, value: object) -> None:
    from scrapy.settings import Settings

    from samepage.scrapy import normalizer_from_settings

    with pytest.raises(ValueError, match=f"^{setting}: "):
        normalizer_from_settings(Settings({setting: value}))


_SETTING_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=True)
    | st.text(max_size=10)
    | st.sampled_from(["{", "[", '{"shop.example": ["id"]}', '["id"]', "a,,b", "true", "2", ""]),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3)
    ),
    max_leaves=6,
)


@settings(max_examples=examples(200), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.sampled_from(
        [
            "SAMEPAGE_LEARNED",
            "SAMEPAGE_LEARNED_FALLBACK",
            "SAMEPAGE_EXTRA_BLOCKLIST",
            "SAMEPAGE_EXTRA_ALLOWLIST",
            "SAMEPAGE_DISABLE_RULES",
            "SAMEPAGE_UNWRAP_REDIRECTS",
            "SAMEPAGE_LEARN",
            "SAMEPAGE_",
        ]
    ),
    _SETTING_VALUES | st.text(max_size=30).map(lambda text: "{" + text),
)
def test_a_setting_of_any_value_is_taken_or_refused_naming_it(name: str, value: Any) -> None:
    from scrapy.settings import Settings

    from samepage.scrapy import normalizer_from_settings

    try:
        norm = normalizer_from_settings(Settings({name: value}))
    except ValueError as exc:
        assert str(exc).startswith(f"{name}: ")
        return
    norm.normalize("https://shop.example/p?id=1&utm_source=x")
