"""One reading of --resolve: the plain fetcher and the browser both honour every form."""

from __future__ import annotations

import pytest

from learner.config import RenderSettings
from learner.demo.server import Response, Site, SiteServer
from learner.errors import ConfigError
from learner.net.fetch import fetch
from learner.net.resolve import endpoint_for, parse_resolve, resolve_entries
from learner.render.browser import BrowserChoice, resolver_rules
from learner.render.renderer import Renderer


def _wild_site() -> Site:
    site = Site("www.wild.test")
    site.routes["/"] = lambda request: Response(body="<h1>Reached through the rule</h1>")
    return site


@pytest.mark.browser
async def test_a_host_name_target_and_a_wildcard_reach_the_server_for_fetch_and_browser(
    browser_choice: BrowserChoice, render_settings: RenderSettings
) -> None:
    with SiteServer([_wild_site()]) as server:
        port = server.address.rpartition(":")[2]
        # A host name as the address, and a rule for every subdomain.
        resolve = resolve_entries([f"*.wild.test=localhost:{port}"])
        plain = await fetch("http://www.wild.test/", resolve=resolve, user_agent="t", timeout_s=10)
        async with Renderer(
            render_settings, executable=browser_choice.executable, resolve=resolve
        ) as renderer:
            rendering = await renderer.render("http://www.wild.test/")
    assert plain.status == 200 and b"Reached through the rule" in plain.body
    assert rendering.status == 200 and rendering.text == "Reached through the rule"


@pytest.mark.parametrize(
    "entry",
    ["shop.test=127.0.0.1", "shop.test=127.0.0.1:99999", "shop test=127.0.0.1:80", "=1.2.3.4:5"],
)
def test_an_entry_refused_by_one_is_refused_by_all(entry: str) -> None:
    host, _, target = entry.partition("=")
    with pytest.raises(ConfigError):
        resolve_entries([entry])
    with pytest.raises(ConfigError):
        parse_resolve({host: target})
    with pytest.raises(ConfigError):
        resolver_rules({host: target})


def test_exact_entries_win_over_wildcards() -> None:
    targets = parse_resolve({"*.shop.test": "10.0.0.1:80", "api.shop.test": "10.0.0.2:80"})
    assert endpoint_for(targets, "API.shop.test.") == ("10.0.0.2", 80)
    assert endpoint_for(targets, "img.cdn.shop.test") == ("10.0.0.1", 80)
    assert endpoint_for(targets, "shop.test") is None
