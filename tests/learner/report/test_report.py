"""The HTML report of a run folder, opened from disk in real headless Chromium."""

from __future__ import annotations

import json
import shutil
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
import pytest_asyncio
from playwright.async_api import Browser, BrowserContext, Page, async_playwright

from learner.config import LearnerConfig
from learner.errors import ConfigError
from learner.judge.verdicts import Account
from learner.plan.coverage import PatternWeight, choose_patterns
from learner.render.browser import CHROMIUM_ARGS, BrowserChoice
from learner.report.build import write_report
from learner.run.crawl import CrawlResult
from learner.run.folder import read_run_folder
from learner.run.store import comparison_scope
from samepage import (
    DomainEntry,
    HostAlias,
    LearnedSet,
    ParamVerdict,
    PathAlias,
    PatternEntry,
    dump_learned,
)
from samepage.learned import Sample, VerdictCause

ARTIFACTS = Path(__file__).resolve().parents[3] / "test-artifacts"
TIMEOUT_MS = 10_000

# Every parameter row as the reader sees it: domain heading, pattern heading, name, verdict.
ROWS_JS = """() => [...document.querySelectorAll("tr[data-verdict]")].map((tr) => {
  const pattern = tr.closest("section");
  const domain = pattern.parentElement.closest("section");
  return {
    domain: domain.querySelector(":scope > h2").innerText,
    pattern: pattern.querySelector(":scope > h3 code").innerText,
    param: tr.querySelector("th").innerText,
    verdict: tr.querySelector("td .badge").innerText,
    data: tr.dataset.verdict,
    visible: tr.getClientRects().length > 0,
  };
})"""


def _expected(learned_json: Path) -> list[dict[str, str]]:
    """Domain, pattern, parameter and verdict class of every parameter, from the file."""
    data = json.loads(learned_json.read_text(encoding="utf-8"))
    rows = []
    for domain, entry in data["domains"].items():
        for pattern, found in entry["patterns"].items():
            for name, v in found["params"].items():
                reason = v.get("reason") or ""
                # Kept without a change seen, except by the joint check (a change seen jointly).
                unproven = (
                    v["verdict"] == "non-neutral"
                    and reason
                    and v["changed"] == 0
                    and not reason.startswith("joint check:")
                )
                kind = "unproven" if unproven else v["verdict"]
                rows.append({"domain": domain, "pattern": pattern, "param": name, "verdict": kind})
    return sorted(rows, key=lambda r: (r["domain"], r["pattern"], r["param"]))


@pytest.fixture(scope="module")
def report(fixture_run: CrawlResult, tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_report(fixture_run.run_folder, tmp_path_factory.mktemp("report"))


@pytest_asyncio.fixture(loop_scope="session", scope="module")
async def chromium(browser_choice: BrowserChoice) -> AsyncIterator[Browser]:
    async with async_playwright() as playwright:
        browser = await playwright.chromium.launch(
            executable_path=browser_choice.executable, args=list(CHROMIUM_ARGS)
        )
        try:
            yield browser
        finally:
            await browser.close()


async def _open(
    browser: Browser, index: Path, requests: list[str], errors: list[str], *, script: bool = True
) -> tuple[BrowserContext, Page]:
    context = await browser.new_context(
        viewport={"width": 1200, "height": 900}, java_script_enabled=script
    )
    context.on("request", lambda request: requests.append(request.url))
    page = await context.new_page()
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    await page.goto(index.as_uri(), wait_until="load", timeout=TIMEOUT_MS)
    return context, page


@pytest.mark.browser
async def test_report_shows_every_verdict_with_its_evidence_offline(
    report: Path, fixture_run: CrawlResult, chromium: Browser
) -> None:
    requests: list[str] = []
    errors: list[str] = []
    context, page = await _open(chromium, report, requests, errors)
    try:
        rows: list[dict[str, Any]] = await page.evaluate(ROWS_JS)
        shown = sorted(
            ({k: r[k] for k in ("domain", "pattern", "param", "verdict")} for r in rows),
            key=lambda r: (r["domain"], r["pattern"], r["param"]),
        )
        expected = _expected(fixture_run.run_folder / "learned.json")
        assert shown == expected
        assert all(r["data"] == r["verdict"] and r["visible"] for r in rows)
        kinds = {r["verdict"] for r in expected}
        assert {"neutral", "non-neutral"} <= kinds

        # Within each pattern, kept parameters come before neutral ones.
        order = {"non-neutral": 0, "unproven": 1, "neutral": 2}
        for key in {(r["domain"], r["pattern"]) for r in rows}:
            ranks = [order[r["verdict"]] for r in rows if (r["domain"], r["pattern"]) == key]
            assert ranks == sorted(ranks), key

        await page.wait_for_function(
            "[...document.images].every((i) => i.complete)", timeout=TIMEOUT_MS
        )
        images: list[dict[str, Any]] = await page.evaluate(
            "[...document.images].map((i) => ({src: i.getAttribute('src'), w: i.naturalWidth,"
            " alt: i.alt}))"
        )
        assert len(images) >= 2 * len(expected)
        assert all(i["w"] > 0 and i["alt"] for i in images), [i for i in images if not i["w"]]
        assert all(i["src"].startswith("evidence/") for i in images)
        assert all((report.parent / i["src"]).is_file() for i in images)

        assert requests, "the page itself is a request"
        assert all(url.startswith("file://") for url in requests), requests
        assert errors == []

        ARTIFACTS.mkdir(exist_ok=True)
        await page.screenshot(path=str(ARTIFACTS / "report-overview.png"))
        assert (ARTIFACTS / "report-overview.png").stat().st_size > 10_000
    finally:
        await context.close()


@pytest.mark.browser
async def test_filter_hides_and_shows_parameters_by_verdict(
    report: Path, chromium: Browser
) -> None:
    requests: list[str] = []
    errors: list[str] = []
    context, page = await _open(chromium, report, requests, errors)
    try:
        rows: list[dict[str, Any]] = await page.evaluate(ROWS_JS)
        total = len(rows)
        neutral = sum(r["verdict"] == "neutral" for r in rows)
        status = page.locator("#filter-status")
        assert await status.inner_text() == f"Showing {total} of {total} parameters."

        box = page.get_by_role("checkbox", name="neutral", exact=True)
        await box.uncheck(timeout=TIMEOUT_MS)
        after = await page.evaluate(ROWS_JS)
        assert all(r["visible"] == (r["verdict"] != "neutral") for r in after)
        assert await page.locator("article.param[data-verdict=neutral]:visible").count() == 0
        assert await page.locator("article.param[data-verdict=non-neutral]:visible").count() > 0
        assert await status.inner_text() == f"Showing {total - neutral} of {total} parameters."

        await page.get_by_role("checkbox", name="non-neutral", exact=True).uncheck()
        await page.get_by_role("checkbox", name="unproven", exact=True).uncheck()
        assert not any(r["visible"] for r in await page.evaluate(ROWS_JS))
        assert await status.inner_text() == f"Showing 0 of {total} parameters."

        await box.check()
        after = await page.evaluate(ROWS_JS)
        assert all(r["visible"] == (r["verdict"] == "neutral") for r in after)
        assert await status.inner_text() == f"Showing {neutral} of {total} parameters."
        assert errors == []
    finally:
        await context.close()


@pytest.mark.browser
async def test_without_javascript_everything_shows_and_no_filter(
    report: Path, chromium: Browser
) -> None:
    requests: list[str] = []
    errors: list[str] = []
    context, page = await _open(chromium, report, requests, errors, script=False)
    try:
        rows = await page.evaluate_handle("document.querySelectorAll('tr[data-verdict]').length")
        assert await rows.json_value() > 0
        assert await page.locator("tr[data-verdict]:visible").count() == await rows.json_value()
        assert await page.locator("#filter").is_hidden()
        assert all(url.startswith("file://") for url in requests)
    finally:
        await context.close()


def test_not_a_run_folder_is_a_config_error(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match=r"no learned\.json"):
        write_report(tmp_path, tmp_path / "out")
    with pytest.raises(ConfigError, match="no such directory"):
        write_report(tmp_path / "missing", tmp_path / "out")
    (tmp_path / "learned.json").write_text('{"format": "other"}', encoding="utf-8")
    with pytest.raises(ConfigError, match="format"):
        write_report(tmp_path, tmp_path / "out")
    assert not (tmp_path / "out" / "index.html").exists()


def _hostile_run(folder: Path) -> None:
    """A run folder whose URLs, reasons and image paths try to break out of the report."""
    url = 'http://x.test/p?a=1&b="><script>alert(1)</script>'
    candidate = "http://x.test/p?a=1"
    sample = Sample(url, candidate, "failed")
    params = {
        "a": ParamVerdict("neutral", 3, 0, 0, samples=()),
        "b": ParamVerdict(
            "non-neutral",
            0,
            0,
            1,
            reason="<img src=x onerror=alert(2)>",
            samples=(sample,),
        ),
    }
    learned = LearnedSet({"x.test": DomainEntry({"a&b": PatternEntry(5, params)})})
    dump_learned(learned, folder / "learned.json")
    (folder / "evidence").mkdir()
    (folder / "evidence" / "good.jpg").write_bytes(b"\xff\xd8\xff\xd9")
    (folder / "secret.jpg").write_bytes(b"secret")
    evidence = {"original_thumb": "evidence/../secret.jpg", "candidate_thumb": "evidence/good.jpg"}
    pair = {
        "original": url,
        "candidate": candidate,
        "outcome": "failed",
        "reason": "candidate: </code><b>bold</b>",
        "evidence": evidence,
    }
    lines = [json.dumps({"scope": "s", "pair": pair}), '{"torn": ']
    (folder / "checkpoint.jsonl").write_text("\n".join(lines), encoding="utf-8")


def test_the_report_reads_the_comparisons_made_with_the_runs_settings_only(
    tmp_path: Path,
) -> None:
    # A run folder reused with other render settings keeps the older run's lines.
    settings = LearnerConfig().to_json()
    dump_learned(LearnedSet({"x.test": DomainEntry({})}), tmp_path / "learned.json")
    (tmp_path / "stats.json").write_text(json.dumps({"settings": settings}), encoding="utf-8")
    url, candidate = "http://x.test/p?a=1&b=2", "http://x.test/p?a=1"
    pair = {"original": url, "candidate": candidate, "outcome": "changed"}
    lines = [
        json.dumps({"scope": comparison_scope(settings), "pair": {**pair, "reason": "this run"}}),
        json.dumps({"scope": "0123456789abcdef", "pair": {**pair, "reason": "other settings"}}),
        "[1]",
    ]
    (tmp_path / "checkpoint.jsonl").write_text("\n".join(lines), encoding="utf-8")
    assert read_run_folder(tmp_path).pairs[(url, candidate)].reason == "this run"
    # A folder whose stats.json does not give the settings shows every line; a later one wins.
    (tmp_path / "stats.json").unlink()
    assert read_run_folder(tmp_path).pairs[(url, candidate)].reason == "other settings"


def test_untrusted_text_is_escaped_and_paths_stay_in_evidence(tmp_path: Path) -> None:
    run = tmp_path / "run"
    run.mkdir()
    _hostile_run(run)
    index = write_report(run, tmp_path / "out")
    page = index.read_text(encoding="utf-8")
    assert "<script>alert(1)" not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert "<img src=x" not in page and "&lt;img src=x onerror=alert(2)&gt;" in page
    assert "<b>bold</b>" not in page and "&lt;/code&gt;&lt;b&gt;bold&lt;/b&gt;" in page
    assert page.count("<script>") == 1  # only the report's own filter script
    # The traversal path is refused; the good image is copied next to the report.
    assert sorted(p.name for p in (tmp_path / "out" / "evidence").iterdir()) == ["good.jpg"]
    assert 'src="evidence/good.jpg"' in page and "secret" not in page
    # Without stats.json the report still renders, and the kept parameter comes first.
    assert page.index('<code>b</code> <span class="badge v-unproven">') < page.index(
        '<code>a</code> <span class="badge v-neutral">'
    )


def test_the_report_shows_conflicts_between_patterns(tmp_path: Path) -> None:
    run = tmp_path / "run"
    run.mkdir()
    params = {
        "a": ParamVerdict("neutral", 3, 0, 0),
        "b": ParamVerdict("non-neutral", 3, 3, 0),
    }
    alone = {"b": ParamVerdict("neutral", 3, 0, 0)}
    entry = DomainEntry({"a&b": PatternEntry(5, params), "b": PatternEntry(4, alone)})
    dump_learned(LearnedSet({"x.test": entry}), run / "learned.json")
    (run / "checkpoint.jsonl").write_text("", encoding="utf-8")
    page = write_report(run, tmp_path / "out").read_text(encoding="utf-8")
    section = page[page.index("<code>a&amp;b</code> (5 URLs)") :]
    assert "Conflicts with other patterns" in section.split("</section>")[0]
    assert "pattern <code>b</code>, whose verdicts drop <code>b</code>, kept here" in section


def test_the_report_names_the_step_a_failed_samples_render_ran_out_in(tmp_path: Path) -> None:
    run = tmp_path / "run"
    run.mkdir()
    kept = {"ref": ParamVerdict("non-neutral", 0, 0, 3, cause=VerdictCause.FAILED_SAMPLES)}
    entry = DomainEntry({"id&ref": PatternEntry(5, kept)})
    dump_learned(LearnedSet({"x.test": entry}), run / "learned.json")
    (run / "checkpoint.jsonl").write_text("", encoding="utf-8")
    said = {"failed-samples": {"original-failed: timeout at screenshot": 3}}
    decided = Account(1, 0, {"failed-samples": 1}, said).to_json()
    stats = {"domains": {"x.test": {"decided": decided}}}
    (run / "stats.json").write_text(json.dumps(stats), encoding="utf-8")
    page = write_report(run, tmp_path / "out").read_text(encoding="utf-8")
    assert "1 kept for failed-samples: original-failed: timeout at screenshot" in page
    assert "not loaded" not in page


def _as_ray_run(single: Path, ray_run: Path) -> int:
    """Lay out a single-process run folder as a Ray run does; how many domain folders."""
    from learner.cluster.worker import domain_folder

    for name in ("learned.json", "stats.json"):
        shutil.copyfile(single / name, ray_run / name)
    by_domain: dict[str, list[str]] = {}
    for line in (single / "checkpoint.jsonl").read_text(encoding="utf-8").splitlines():
        host = urlsplit(json.loads(line)["pair"]["original"]).hostname or ""
        by_domain.setdefault(host, []).append(line)
    for host, lines in by_domain.items():
        folder = domain_folder(ray_run, host)
        (folder / "evidence").mkdir(parents=True)
        (folder / "checkpoint.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
        for line in lines:
            for path in json.loads(line)["pair"].get("evidence", {}).values():
                if isinstance(path, str) and (single / path).is_file():
                    shutil.copyfile(single / path, folder / path)
    return len(by_domain)


@pytest.mark.browser
def test_a_ray_run_folder_reports_the_comparisons_and_images_of_its_domains(
    report: Path, fixture_run: CrawlResult, tmp_path: Path
) -> None:
    ray_run = tmp_path / "ray-run"
    ray_run.mkdir()
    assert _as_ray_run(fixture_run.run_folder, ray_run) >= 2
    index = write_report(ray_run, tmp_path / "out")
    single_page = report.read_text(encoding="utf-8")
    assert index.read_text(encoding="utf-8") == single_page
    copied = sorted(p.name for p in (tmp_path / "out" / "evidence").iterdir())
    assert copied and copied == sorted(p.name for p in (report.parent / "evidence").iterdir())


def test_a_symbolic_link_in_evidence_is_never_copied_into_the_report(tmp_path: Path) -> None:
    run = tmp_path / "run"
    run.mkdir()
    _hostile_run(run)
    secret = tmp_path / "outside.txt"
    secret.write_text("a file the report must not publish")
    (run / "evidence" / "good.jpg").unlink()
    (run / "evidence" / "good.jpg").symlink_to(secret)
    index = write_report(run, tmp_path / "out")
    assert 'src="evidence/good.jpg"' not in index.read_text(encoding="utf-8")
    copied = tmp_path / "out" / "evidence"
    assert not copied.exists() or list(copied.iterdir()) == []


def test_a_linked_evidence_folder_is_never_read(tmp_path: Path) -> None:
    run = tmp_path / "run"
    run.mkdir()
    _hostile_run(run)
    elsewhere = tmp_path / "elsewhere"
    (run / "evidence").rename(elsewhere)
    (run / "evidence").symlink_to(elsewhere)
    index = write_report(run, tmp_path / "out")
    assert 'src="evidence/good.jpg"' not in index.read_text(encoding="utf-8")


def test_the_report_shows_the_share_covered_and_the_patterns_left(tmp_path: Path) -> None:
    run = tmp_path / "run"
    run.mkdir()
    kept = {"id": ParamVerdict("non-neutral", 3, 1, 0, cause=VerdictCause.CHANGED)}
    entry = DomainEntry({"id": PatternEntry(50, kept)})
    dump_learned(LearnedSet({"x.test": entry}), run / "learned.json")
    (run / "checkpoint.jsonl").write_text("", encoding="utf-8")
    choice = choose_patterns(
        [PatternWeight("id", 50, {"/p": 50}), PatternWeight("q", 30, {"/s": 30})],
        cover=0.95,
        cap=1,
    )
    stats = {"domains": {"x.test": {"coverage": choice.to_json()}}}
    (run / "stats.json").write_text(json.dumps(stats), encoding="utf-8")
    page = write_report(run, tmp_path / "out").read_text(encoding="utf-8")
    assert "62.5% of 80" in page
    assert "1 pattern(s) left (30 URLs; 1 cap): q (30)" in page


def test_the_report_lists_a_hosts_aliases(tmp_path: Path) -> None:
    run = tmp_path / "run"
    run.mkdir()
    params = {"id": ParamVerdict("non-neutral", 3, 3, 0)}
    aliases = (
        HostAlias("www.x.test", "x.test"),
        PathAlias("/w/index.php?title={t}", "/wiki/{t}", {"renders": "<b>4</b>"}),
    )
    entry = DomainEntry({"id": PatternEntry(5, params)}, aliases=aliases)
    dump_learned(LearnedSet({"x.test": entry}), run / "learned.json")
    (run / "checkpoint.jsonl").write_text("", encoding="utf-8")
    page = write_report(run, tmp_path / "out").read_text(encoding="utf-8")
    section = page[page.index("Aliases: other spellings of one page") :].split("</table>")[0]
    assert "<td>host</td><td><code>www.x.test</code></td><td><code>x.test</code></td>" in section
    assert "<code>/w/index.php?title={t}</code></td><td><code>/wiki/{t}</code>" in section
    assert "&lt;b&gt;4&lt;/b&gt;" in section and "<b>4</b>" not in section
