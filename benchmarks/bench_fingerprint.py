"""What a fingerprint costs: full-page captures of two sizes, best of a few runs.

Run from the repository root::

    python -m benchmarks.bench_fingerprint

The pages are drawn with Pillow (a line of text every 40 px), saved as PNG, and wrapped in a
:class:`learner.model.Rendering`. Timed on each: :func:`learner.judge.fingerprint.fingerprint`, and
the perceptual hashes of every tile (``Fingerprint.tile_hashes``), which a comparison computes
only for the tiles that differ: this column is the cost when every tile differs.
"""

from __future__ import annotations

import argparse
import io
import time
from collections.abc import Callable

from PIL import Image, ImageDraw

from learner.judge import fingerprint as fingerprint_module
from learner.model import Rendering

SIZES = ((800, 2000), (1280, 6000))


def _page(width: int, height: int) -> bytes:
    image = Image.new("RGB", (width, height), "white")
    draw = ImageDraw.Draw(image)
    for y in range(0, height, 40):
        draw.text((20, y), f"Line {y} of a long page, with some words on it", fill="black")
    buffer = io.BytesIO()
    image.save(buffer, "PNG")
    return buffer.getvalue()


def _best(timed: Callable[[Rendering], float], rendering: Rendering, rounds: int) -> float:
    return min(timed(rendering) for _ in range(rounds))


def _fingerprint_time(rendering: Rendering) -> float:
    started = time.perf_counter()
    fingerprint_module.fingerprint(rendering)
    return time.perf_counter() - started


def _every_hash_time(rendering: Rendering) -> float:
    fp = fingerprint_module.fingerprint(rendering)  # a fresh one: no hash is cached yet
    started = time.perf_counter()
    fp.tile_hashes((c, r) for r in range(fp.rows) for c in range(fp.columns))
    return time.perf_counter() - started


def main(rounds: int) -> None:
    """Print a table of fingerprint times per capture size."""
    print("| capture | tiles | fingerprint (s, best) | phash of every tile (s, best) |")
    print("|---|---:|---:|---:|")
    for width, height in SIZES:
        rendering = Rendering("u", "u", 200, _page(width, height), "", "", 0.0, True)
        made = _best(_fingerprint_time, rendering, rounds)
        hashed = _best(_every_hash_time, rendering, rounds)
        tiles = -(-width // 64) * -(-height // 64)
        print(f"| {width} x {height} | {tiles} | {made:.3f} | {hashed:.3f} |")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3, help="runs per size (default 3)")
    main(parser.parse_args().rounds)
