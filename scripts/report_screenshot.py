"""Regenerate ``docs/report.png``: run the demo, write its report, screenshot the top of it.

Usage (from anywhere; needs Chromium, touches no network)::

    /tmp/venv/bin/python scripts/report_screenshot.py [--height PX] [--out docs/report.png]

The demo's run folder is ``.samepage-cache/demo`` (git-ignored); the learned set and the
report go to a temporary folder that is removed afterwards.
"""

from __future__ import annotations

import argparse
import asyncio
import io
import logging
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # the script runs from a checkout, not an installed package

from PIL import Image  # noqa: E402
from playwright.async_api import async_playwright  # noqa: E402

from learner.render.browser import CHROMIUM_ARGS, find_browser  # noqa: E402
from learner.report.build import write_report  # noqa: E402

logger = logging.getLogger(__name__)

RUN = ROOT / ".samepage-cache" / "demo"
WIDTH = 1200
MAX_BYTES = 300_000
TIMEOUT_MS = 15_000


def run_demo(learned: Path) -> None:
    """Run ``python -m learner demo`` with this interpreter into :data:`RUN`."""
    command = [
        sys.executable,
        "-m",
        "learner",
        "-q",
        "demo",
        "--cache",
        str(RUN),
        "--out",
        str(learned),
    ]
    subprocess.run(command, cwd=ROOT, check=True, stdout=subprocess.DEVNULL)


async def screenshot(index: Path, *, height: int) -> bytes:
    """A PNG of the first ``height`` pixels of the report at :data:`WIDTH` pixels wide."""
    choice = find_browser()
    async with async_playwright() as playwright:
        browser = await playwright.chromium.launch(
            executable_path=choice.executable, args=list(CHROMIUM_ARGS)
        )
        try:
            page = await browser.new_page(viewport={"width": WIDTH, "height": height})
            await page.goto(index.as_uri(), wait_until="load", timeout=TIMEOUT_MS)
            await page.wait_for_function(
                "[...document.images].every((i) => i.complete)", timeout=TIMEOUT_MS
            )
            return await page.screenshot(animations="disabled")
        finally:
            await browser.close()


def shrink(png: bytes) -> bytes:
    """Quantize to a 256-colour palette: the report is flat colours, so this loses little."""
    with Image.open(io.BytesIO(png)) as image:
        small = image.convert("RGB").quantize(colors=256, method=Image.Quantize.MEDIANCUT)
    out = io.BytesIO()
    small.save(out, "PNG", optimize=True)
    return out.getvalue()


def main(argv: list[str] | None = None) -> int:
    """Run the demo, write its report and save the screenshot; 0 on success."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--height", type=int, default=1500, help="pixels of the page to capture")
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "report.png")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="samepage-report-") as temp:
        run_demo(Path(temp) / "learned.json")
        index = write_report(RUN, Path(temp) / "report")
        png = shrink(asyncio.run(screenshot(index, height=args.height)))
    if len(png) > MAX_BYTES:
        print(
            f"warning: {len(png)} bytes, over {MAX_BYTES}; try a smaller --height", file=sys.stderr
        )
    args.out.write_bytes(png)
    print(f"{args.out}: {WIDTH} x {args.height} px, {len(png)} bytes")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
