"""Verdicts per path template, in real Chromium: a data browser's table and row pages.

Three small sites served on 127.0.0.1 and learned in one crawl:

- ``split.test``: the table ``/data/products`` sorts by ``sort``; a row
  ``/data/products/N`` ignores it. ``sort`` is kept on the table and dropped on rows.
- ``failing.test``: the same, but the table answers 500 with ``sort`` and holds 40 of the
  44 URLs. Four row pages that ignore ``sort`` must not make it neutral for the table.
- ``rare.test``: ``/shop/item?color&id&size`` is common, ``/shop/item?id&size`` appears
  once and is not studied; it gets verdicts from the shared evidence of its template.

The learned set is then applied by the normalizer to URLs of each template (more cases, on
learned sets built without a browser, in ``test_template_evidence.py``).
"""

from __future__ import annotations

import html
from pathlib import Path

import pytest
import pytest_asyncio

from learner.config import LearnerConfig
from learner.demo.server import Request, Response, Site, SiteServer
from learner.judge.verdicts import cause_of
from learner.plan.targets import parse_target
from learner.render.browser import BrowserChoice
from learner.report.build import write_report
from learner.run.crawl import CrawlResult, crawl
from samepage import MIQPSNormalizer, same_page
from tests.site.learner_settings import SUITE_CONFIG

pytestmark = pytest.mark.browser

TABLE, ROW = "/data/products", "/data/products/{id}"


def _titled_page(title: str, body: str) -> Response:
    return Response(body=f"<!doctype html><title>{title}</title><h1>{title}</h1>{body}")


def _data_browser(host: str, *, table_fails: bool) -> Site:
    site = Site(host)

    def table(request: Request) -> Response:
        sort = request.params.get("sort")
        if sort and table_fails:
            return Response(500, "<h1>Server error</h1>")
        rows = sorted(["lamp", "desk", "chair", "stool"], reverse=(sort or "").startswith("-"))
        listed = "".join(f"<li>{name}</li>" for name in rows)
        return _titled_page(
            "Products", f"<p>sorted by {html.escape(sort or 'id')}</p><ul>{listed}</ul>"
        )

    def row(request: Request) -> Response:
        return _titled_page(f"Product {request.path.rsplit('/', 1)[1]}", "<p>One product.</p>")

    site.routes[TABLE] = table
    for n in range(1, 7):
        site.routes[f"{TABLE}/{n}"] = row
    return site


def _rare_shop() -> Site:
    site = Site("rare.test")

    def item(request: Request) -> Response:
        p = request.params
        return _titled_page(
            f"Item {p.get('id', '?')}", f"<p>colour {html.escape(p.get('color', 'any'))}</p>"
        )

    site.routes["/shop/item"] = item
    return site


def _observed() -> list[str]:
    split = [f"http://split.test{TABLE}?sort={s}{n}" for n in range(5) for s in ("", "-")]
    split += [f"http://split.test{TABLE}/{n}?sort=r{n}" for n in range(1, 6)]
    failing = [f"http://failing.test{TABLE}?sort=c{n}" for n in range(40)]
    failing += [f"http://failing.test{TABLE}/{n}?sort=r{n}" for n in range(1, 5)]
    colors = ("red", "blue", "green", "black")
    rare = [
        f"http://rare.test/shop/item?color={colors[n % 4]}&id={n}&size={n % 3}" for n in range(8)
    ]
    rare.append("http://rare.test/shop/item?id=3&size=9")
    return split + failing + rare


@pytest_asyncio.fixture(loop_scope="session", scope="module")
async def template_run(
    browser_choice: BrowserChoice, tmp_path_factory: pytest.TempPathFactory
) -> CrawlResult:
    folder = tmp_path_factory.mktemp("templates")
    config = LearnerConfig(
        samples=4,
        min_samples=3,
        top_patterns=1,
        default_values=0,
        delay_s=0.0,
        jitter_s=0.0,
        render=SUITE_CONFIG.render,
    )
    sites = [
        _data_browser("split.test", table_fails=False),
        _data_browser("failing.test", table_fails=True),
        _rare_shop(),
    ]
    with SiteServer(sites) as server:
        return await crawl(
            [parse_target(f"http://{site.host}") for site in sites],
            config=config,
            out=folder / "learned.json",
            cache=folder / "run",
            observed=_observed(),
            resolve=server.resolve(),
            browser=browser_choice.executable,
        )


def test_failed_table_pages_keep_sort_whatever_the_row_pages_show(
    template_run: CrawlResult, tmp_path: Path
) -> None:
    entry = template_run.learned.domains["failing.test"].patterns["sort"]
    sort = entry.params["sort"]
    assert sort.verdict == "non-neutral"
    assert cause_of(sort).value in ("coverage", "failed-samples")
    found = sort.coverage
    assert found is not None and found.templates is not None
    assert found.share == 0.09  # the four row URLs of 44
    table_counts = found.templates[TABLE]
    assert table_counts.urls == 40 and table_counts.tested == 0
    assert (table_counts.failed or 0) >= 1
    row = entry.templates.get(ROW)
    assert row is None or (row.params["sort"].neutral and row.params["sort"].tested >= 3)
    assert TABLE not in entry.templates or not entry.templates[TABLE].params["sort"].neutral
    index = write_report(template_run.run_folder, tmp_path / "report")
    assert "templates holding 9.0% of the URLs" in index.read_text(encoding="utf-8")


def test_opposite_verdicts_on_two_templates_are_learned_as_scopes(
    template_run: CrawlResult,
) -> None:
    entry = template_run.learned.domains["split.test"].patterns["sort"]
    assert (entry.params["sort"].verdict, cause_of(entry.params["sort"]).value) == (
        "non-neutral",
        "changed",
    )
    table, row = entry.templates[TABLE].params["sort"], entry.templates[ROW].params["sort"]
    assert (table.verdict, table.changed) == ("non-neutral", 1)
    assert (row.verdict, row.changed, row.tested) == ("neutral", 0, 3)
    assert (entry.templates[TABLE].urls, entry.templates[ROW].urls) == (10, 5)
    # Applied by the normalizer, each template's verdict holds on its own URLs only.
    normalizer = MIQPSNormalizer(learned=template_run.learned)
    table_url = "http://split.test/data/products?sort=-name"
    assert normalizer.normalize(table_url) == table_url
    assert normalizer.normalize("http://split.test/data/products/3?sort=-name") == (
        "http://split.test/data/products/3"
    )
    assert not same_page(
        table_url, "http://split.test/data/products?sort=name", normalizer=normalizer
    )


def test_a_rare_pattern_gets_verdicts_from_the_shared_evidence_of_its_template(
    template_run: CrawlResult,
) -> None:
    domain = template_run.learned.domains["rare.test"]
    assert set(domain.patterns) == {"color&id&size"}
    shared = domain.shared["/shop/item"]
    assert {n: v.verdict for n, v in shared.params.items()} == {
        "color": "non-neutral",
        "id": "non-neutral",
        "size": "neutral",
    }
    assert all(v.patterns == ("color&id&size",) for v in shared.params.values())
    assert shared.params["size"].tested >= 3
    # The pattern nobody studied is normalised on that evidence: size dropped, the rest kept.
    normalizer = MIQPSNormalizer(learned=template_run.learned)
    assert normalizer.normalize("http://rare.test/shop/item?id=3&size=L") == (
        "http://rare.test/shop/item?id=3"
    )
    assert MIQPSNormalizer(learned=template_run.learned, learned_fallback="keep").normalize(
        "http://rare.test/shop/item?id=3&size=L"
    ) == ("http://rare.test/shop/item?id=3&size=L")
