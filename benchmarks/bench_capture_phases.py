"""Where a render's time goes: the learner's capture timed step by step on real applications.

Serves the test suite's applications (``tests/apps/``: Datasette, a Sphinx site, Trac) on
127.0.0.1, renders the 30 URLs ``bench_apps`` measures throughput on, one page at a time with
no politeness delay, and prints the mean time of each step of the capture
(:mod:`learner.render.capture`) and of the context around it. Needs what ``bench_apps``
needs: Chromium, ``samepage[apps]`` and ``.venv-trac``.

    python -m benchmarks.bench_capture_phases
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Awaitable, Callable, Sequence
from contextlib import ExitStack
from pathlib import Path
from typing import Any

from benchmarks.bench_apps import throughput_urls
from learner.render import capture
from learner.render.browser import find_browser
from learner.render.renderer import Renderer
from tests.apps.registry import APPS, APPS_CONFIG

Step = Callable[..., Awaitable[Any]]


def _timed(owner: type, name: str, spent: dict[str, list[float]]) -> None:
    """Replace ``owner.name`` (a coroutine method) by one that records its time."""
    original: Step = getattr(owner, name)

    async def timed(self: object, *args: Any, **kwargs: Any) -> Any:
        started = time.monotonic()
        try:
            return await original(self, *args, **kwargs)
        finally:
            label = f"{name}({args[0]})" if name == "wait_ready" else name
            if name == "probe":
                label = "probe (measure)" if args else "probe (text, marks)"
            spent[label].append(time.monotonic() - started)

    setattr(owner, name, timed)


async def run(pages: int) -> int:
    apps = list(APPS.values())
    for app in apps:
        why = app.missing()
        if why is not None:
            print(f"bench_capture_phases: {app.name}: {why}", file=sys.stderr)
            return 2
    spent: dict[str, list[float]] = defaultdict(list)
    for name in ("wait_ready", "scroll_through", "probe", "screenshot"):
        _timed(capture._Capture, name, spent)
    for name in ("_new_context", "_close"):
        _timed(Renderer, name, spent)
    choice = find_browser()
    totals: list[float] = []
    with tempfile.TemporaryDirectory() as tmp, ExitStack() as stack:
        resolve: dict[str, str] = {}
        for app in apps:
            folder = Path(tmp) / app.name
            folder.mkdir()
            resolve.update(stack.enter_context(app.serve(folder)).resolve())
        urls = throughput_urls(apps, pages)
        async with Renderer(
            APPS_CONFIG.render, executable=choice.executable, resolve=resolve, max_open_pages=1
        ) as renderer:
            await renderer.render(urls[0])  # the browser's first page is not measured
            spent.clear()
            for url in urls:
                started = time.monotonic()
                await renderer.render(url)
                totals.append(time.monotonic() - started)
    print(f"{len(totals)} renders, one at a time: mean {sum(totals) / len(totals):.3f} s\n")
    print("| step | calls | mean (s) | total (s) |\n|---|---:|---:|---:|")
    for label, times in sorted(spent.items()):
        print(f"| {label} | {len(times)} | {sum(times) / len(times):.3f} | {sum(times):.2f} |")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.bench_capture_phases")
    parser.add_argument("--pages", type=int, default=30, help="URLs rendered")
    args = parser.parse_args(argv)
    return asyncio.run(run(args.pages))


if __name__ == "__main__":
    raise SystemExit(main())
