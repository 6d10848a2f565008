"""What the address gate costs: the same pages rendered with and without it, side by side.

Every render's connections go through a SOCKS5 gate of its own (:mod:`learner.render.guard`)
that checks each address before it connects. This serves the test suite's applications
(``tests/apps/``: Datasette, a Sphinx site, Trac) on 127.0.0.1 and renders the 30 URLs
``bench_apps`` measures throughput on with two renderers in turn, round after round: the
learner's, and the same renderer with its contexts opened without the gate. No politeness
delay: the pages are rendered as fast as ``--concurrency`` pages open at once allow. It also
checks that both capture the same pages (text and screenshot of every URL). Needs what
``bench_apps`` needs: Chromium, ``samepage[apps]`` and ``.venv-trac``.

    python -m benchmarks.bench_gate --rounds 3 --concurrency 4
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import sys
import tempfile
import time
from collections.abc import Sequence
from contextlib import ExitStack
from pathlib import Path

from playwright.async_api import Browser, BrowserContext

from benchmarks.bench_apps import throughput_urls
from benchmarks.bench_differential import _serve_apps
from learner.errors import RenderError
from learner.render.browser import find_browser
from learner.render.renderer import Renderer
from tests.apps.registry import APPS, APPS_CONFIG


class _Ungated(Renderer):
    """The learner's renderer with its contexts opened without the gate: the baseline."""

    async def _new_context(self, browser: Browser, proxy: str | None) -> BrowserContext:
        return await super()._new_context(browser, None)


async def _round(renderer: Renderer, urls: Sequence[str]) -> tuple[float, dict[str, str]]:
    """Render ``urls`` at once (the renderer caps the pages open): seconds and page digests."""

    async def one(url: str) -> tuple[str, str]:
        try:
            rendering = await renderer.render(url)
        except RenderError as exc:
            return url, f"failed: {exc.cause}"
        digest = hashlib.sha256(rendering.text.encode() + rendering.screenshot).hexdigest()
        return url, digest[:16]

    started = time.monotonic()
    done = await asyncio.gather(*(one(url) for url in urls))
    return time.monotonic() - started, dict(done)


async def run(pages: int, rounds: int, concurrency: int) -> int:
    apps = list(APPS.values())
    for app in apps:
        why = app.missing()
        if why is not None:
            print(f"bench_gate: {app.name}: {why}", file=sys.stderr)
            return 2
    choice = find_browser()
    with tempfile.TemporaryDirectory() as tmp, ExitStack() as stack:
        resolve = _serve_apps(stack, Path(tmp))
        urls = throughput_urls(apps, pages)
        settings, browser = APPS_CONFIG.render, choice.executable
        async with (
            Renderer(
                settings, executable=browser, resolve=resolve, max_open_pages=concurrency
            ) as gated,
            _Ungated(
                settings, executable=browser, resolve=resolve, max_open_pages=concurrency
            ) as plain,
        ):
            for renderer in (gated, plain):  # each browser's first pages are not measured
                await _round(renderer, urls[:concurrency])
            seconds: dict[str, list[float]] = {"gate": [], "no gate": []}
            pages_seen: dict[str, list[dict[str, str]]] = {"gate": [], "no gate": []}
            for number in range(rounds):
                order = [("gate", gated), ("no gate", plain)]
                for name, renderer in order if number % 2 == 0 else order[::-1]:
                    took, found = await _round(renderer, urls)
                    seconds[name].append(took)
                    pages_seen[name].append(found)
    print(f"{len(urls)} URLs, {concurrency} pages open at once, {rounds} rounds, alternated\n")
    print("| renderer | pages/s (all rounds) | pages/s per round | failed |\n|---|---:|---|---:|")
    rates = {}
    for name, spent in seconds.items():
        rates[name] = len(urls) * len(spent) / sum(spent)
        per_round = ", ".join(f"{len(urls) / s:.2f}" for s in spent)
        failed = sum(d.startswith("failed") for run in pages_seen[name] for d in run.values())
        print(f"| {name} | {rates[name]:.2f} | {per_round} | {failed} |")
    print(f"\ngate / no gate throughput: {rates['gate'] / rates['no gate']:.3f}")
    # A page whose own renders differ round to round (a clock, a query time) says nothing.
    digests = {
        url: {n: {seen[url] for seen in runs} for n, runs in pages_seen.items()} for url in urls
    }
    steady = [url for url in urls if all(len(d) == 1 for d in digests[url].values())]
    alike = [url for url in steady if len(set.union(*digests[url].values())) == 1]
    print(
        f"URLs captured the same in every round by each renderer: {len(steady)} of {len(urls)};"
        f" of those, the same with and without the gate: {len(alike)}"
    )
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.bench_gate")
    parser.add_argument("--pages", type=int, default=30, help="URLs rendered per round")
    parser.add_argument("--rounds", type=int, default=3, help="rounds of each renderer")
    parser.add_argument("--concurrency", type=int, default=4, help="pages open at once")
    args = parser.parse_args(argv)
    return asyncio.run(run(args.pages, args.rounds, args.concurrency))


if __name__ == "__main__":
    raise SystemExit(main())
