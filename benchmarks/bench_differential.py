"""The learner against a plain browser on every page the suite serves: outcomes, times, pictures.

Run from the repository root (needs Chromium, ``samepage[apps]`` and ``.venv-trac``, all
installed by ``scripts/setup.sh``)::

    python -m benchmarks.bench_differential
    python -m benchmarks.bench_differential \
        --browsers /usr/bin/chromium,/usr/bin/chromium-headless-shell

Three groups of pages, each with the render settings its tests use:

- ``apps``: every URL of the logs of Datasette, the Sphinx site and Trac (``tests/apps``),
  with the application tests' settings (``tests/apps/registry.APPS_CONFIG``);
- ``render``: every page of the renderer's sites, its traps and the readiness audit
  included (``tests/site/render_sites.PAGES``), with the renderer tests' settings;
- ``fixture``: one URL per path of the crawl fixture's log (``tests/site``), with the
  suite's settings.

Each page is captured by bare Playwright (``goto`` until ``load``, one full-page screenshot,
within ``--plain-limit``) and by the learner's ``Renderer``, one page at a time, plain first
(``tests/learner/render/differential.py``). With several browsers, each page is captured with
every browser before the next page, the order of the browsers turning from page to page,
so that all meet the same machine. Prints one table per group and browser, the rows that
break the rule (a page captured plainly within 5 s that the learner fails, leaves unsettled
without naming why, or shows differently), and the totals side by side: pages, outcomes,
and the mean seconds per page of each.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import dataclasses
import functools
import sys
import tempfile
from collections.abc import Callable, Iterator, Sequence
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

from playwright.async_api import async_playwright

from learner.config import RenderSettings
from learner.demo.server import SiteServer
from learner.render.browser import find_browser
from learner.render.renderer import Renderer
from tests.apps.registry import APPS, APPS_CONFIG
from tests.learner.render.differential import Row, capture_row, launch_plain, table
from tests.plugins.browser import TEST_SETTINGS
from tests.site.fixture import fixture_sites, observed_urls
from tests.site.learner_settings import SUITE_CONFIG
from tests.site.render_sites import PAGES, SHOWN_OTHERWISE, render_sites


@dataclass(frozen=True, slots=True)
class Group:
    """Pages served together, and the settings they are rendered with."""

    name: str
    settings: RenderSettings
    urls: list[str]
    serve: Callable[[ExitStack, Path], dict[str, str]]
    """Start the servers on the stack; return the ``--resolve`` mapping."""
    documented: dict[str, str] = dataclasses.field(default_factory=dict)
    """Pages shown otherwise than a plain browser shows them, each for a documented reason."""


def _serve_apps(stack: ExitStack, folder: Path) -> dict[str, str]:
    resolve: dict[str, str] = {}
    for app in APPS.values():
        where = folder / app.name
        where.mkdir()
        resolve.update(stack.enter_context(app.serve(where)).resolve())
    return resolve


def _fixture_pages() -> list[str]:
    """One URL per (host, path) of the crawl fixture's log, in log order."""
    seen: dict[tuple[str, str], str] = {}
    for url in observed_urls():
        parts = urlsplit(url)
        seen.setdefault((parts.netloc, parts.path), url)
    return list(seen.values())


def groups() -> dict[str, Group]:
    """The groups of pages, by name."""
    return {
        "apps": Group(
            "apps",
            APPS_CONFIG.render,
            [url for app in APPS.values() for url in app.observed_urls()],
            _serve_apps,
        ),
        "render": Group(
            "render",
            TEST_SETTINGS,
            list(PAGES),
            lambda stack, _: stack.enter_context(SiteServer(render_sites())).resolve(),
            SHOWN_OTHERWISE,
        ),
        "fixture": Group(
            "fixture",
            SUITE_CONFIG.render,
            _fixture_pages(),
            lambda stack, _: stack.enter_context(SiteServer(fixture_sites())).resolve(),
        ),
    }


async def run_group(
    group: Group, browsers: Sequence[str], resolve: dict[str, str], plain_limit_s: float
) -> dict[str, list[Row]]:
    """The group's rows with each browser, page by page.

    Every browser gets its own learner ``Renderer`` and plain Chromium, all open at once;
    each page is captured with every browser before the next page, the order of the
    browsers turning by one from page to page, so that all meet the same machine. The
    first page is captured once untimed by each (warm-up).
    """
    rows: dict[str, list[Row]] = {name: [] for name in browsers}
    async with contextlib.AsyncExitStack() as stack:
        playwright = await stack.enter_async_context(async_playwright())
        tools = {}
        for name in browsers:
            executable = None if name == "playwright" else name
            renderer = await stack.enter_async_context(
                Renderer(group.settings, executable=executable, resolve=resolve)
            )
            plain = await launch_plain(playwright, executable, resolve)
            stack.push_async_callback(plain.close)
            tools[name] = (renderer, plain)
        for renderer, plain in tools.values():
            await capture_row(group.urls[0], renderer, plain, plain_limit_s=plain_limit_s)
        for number, url in enumerate(group.urls):
            turn = number % len(browsers)
            for name in [*browsers[turn:], *browsers[:turn]]:
                renderer, plain = tools[name]
                row = await capture_row(url, renderer, plain, plain_limit_s=plain_limit_s)
                rows[name].append(row)
                print(
                    f"{group.name} {number + 1}/{len(group.urls)} {name}: plain "
                    f"{row.plain.seconds:.2f} s, learner {row.learner.outcome} "
                    f"{row.learner.seconds:.2f} s  {url}",
                    file=sys.stderr,
                    flush=True,
                )
    return rows


@contextmanager
def _served(chosen: Sequence[Group]) -> Iterator[dict[str, dict[str, str]]]:
    with tempfile.TemporaryDirectory() as tmp, ExitStack() as stack:
        resolves = {}
        for group in chosen:
            folder = Path(tmp) / group.name
            folder.mkdir()
            resolves[group.name] = group.serve(stack, folder)
        yield resolves


def summary(
    results: dict[tuple[str, str], list[Row]],
    browsers: Sequence[str],
    every: dict[str, Group],
) -> str:
    """The totals of each browser, side by side."""
    heads = ["", *browsers]
    names = sorted({group for group, _ in results})
    lines = []

    def cells(label: str, value: Callable[[list[Row]], str]) -> None:
        for name in names:
            lines.append([f"{name}: {label}", *(value(results[name, b]) for b in browsers)])

    cells("pages", lambda rows: str(len(rows)))
    cells("plain captured in 5 s", lambda rows: str(sum(r.plain.captured for r in rows)))
    for outcome in ("settled", "unsettled", "failed"):
        cells(f"learner {outcome}", functools.partial(_count, outcome=outcome))
    cells("learner failed, plain not", lambda rows: str(sum(_broken(r) for r in rows)))
    cells("pictures same / compared", _pictures)
    cells("plain s per page", lambda rows: f"{_mean(r.plain.seconds for r in rows):.3f}")
    cells("learner s per page", lambda rows: f"{_mean(r.learner.seconds for r in rows):.3f}")
    for name in names:
        known = every[name].documented
        broken = (sum(bool(r.problems(known)) for r in results[name, b]) for b in browsers)
        lines.append([f"{name}: rows breaking the rule", *map(str, broken)])
    widths = [max(len(str(line[i])) for line in [heads, *lines]) for i in range(len(heads))]
    return "\n".join(
        "  ".join(str(c).ljust(w) for c, w in zip(line, widths, strict=True))
        for line in [heads, *lines]
    )


def _count(rows: list[Row], outcome: str) -> str:
    return str(sum(r.learner.outcome == outcome for r in rows))


def _broken(row: Row) -> bool:
    return row.plain.rendering is not None and row.learner.outcome == "failed"


def _pictures(rows: list[Row]) -> str:
    compared = [r for r in rows if r.equal is not None]
    return f"{sum(bool(r.equal) for r in compared)} / {len(compared)}"


def _mean(values: Iterator[float] | Sequence[float]) -> float:
    got = list(values)
    return sum(got) / len(got) if got else 0.0


async def run(args: argparse.Namespace) -> int:
    every = groups()
    names = [n.strip() for n in args.groups.split(",") if n.strip()]
    unknown = [n for n in names if n not in every]
    if unknown:
        print(f"bench_differential: unknown group(s): {', '.join(unknown)}", file=sys.stderr)
        return 2
    if "apps" in names:
        for app in APPS.values():
            why = app.missing()
            if why is not None:
                print(f"bench_differential: {app.name}: {why}", file=sys.stderr)
                return 2
    browsers = [b.strip() for b in args.browsers.split(",") if b.strip()] or [
        find_browser().executable or "playwright"
    ]
    results: dict[tuple[str, str], list[Row]] = {}
    with _served([every[n] for n in names]) as resolves:
        for name in names:
            got = await run_group(every[name], browsers, resolves[name], args.plain_limit)
            documented = every[name].documented
            for browser, rows in got.items():
                results[name, browser] = rows
                print(f"\n## {name} with {browser}\n\n{table(rows, documented)}", flush=True)
                for row in rows:
                    for problem in row.problems(documented):
                        print(f"BREAKS THE RULE {row.url}: {problem}", flush=True)
    print("\n## Totals\n")
    print(summary(results, browsers, every))
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--groups", default="apps,render,fixture", help="groups of pages (default: all)"
    )
    parser.add_argument(
        "--browsers",
        default="",
        help="comma-separated Chromium executables, run side by side (default: the one the "
        "learner finds)",
    )
    parser.add_argument(
        "--plain-limit",
        type=float,
        default=10.0,
        help="seconds bare Playwright gets for the load and the screenshot (default 10)",
    )
    return asyncio.run(run(parser.parse_args(argv)))


if __name__ == "__main__":
    raise SystemExit(main())
