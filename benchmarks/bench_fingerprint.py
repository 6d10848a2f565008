"""What a fingerprint costs: full-page captures of two sizes, best of a few runs.

Run from the repository root::

    python -m benchmarks.bench_fingerprint

The pages are drawn with Pillow (a line of text every 40 px), saved as PNG, and wrapped in a
:class:`learner.model.Rendering`; :func:`learner.fingerprint.fingerprint` is timed on each,
with and without the per-tile perceptual hashes (the part that dominates).
"""

from __future__ import annotations

import argparse
import io
import time
from unittest import mock

import imagehash
from PIL import Image, ImageDraw

from learner import fingerprint as fingerprint_module
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


def _best(rendering: Rendering, rounds: int) -> float:
    times = []
    for _ in range(rounds):
        started = time.perf_counter()
        fingerprint_module.fingerprint(rendering)
        times.append(time.perf_counter() - started)
    return min(times)


def main(rounds: int) -> None:
    """Print a table of fingerprint times per capture size."""
    print("| capture | tiles | fingerprint (s, best) | without tile phash (s) |")
    print("|---|---:|---:|---:|")
    for width, height in SIZES:
        rendering = Rendering("u", "u", 200, _page(width, height), "", "", 0.0, True)
        full = _best(rendering, rounds)
        with mock.patch.object(imagehash, "phash", return_value="0"):
            bare = _best(rendering, rounds)
        tiles = -(-width // 64) * -(-height // 64)
        print(f"| {width} x {height} | {tiles} | {full:.3f} | {bare:.3f} |")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3, help="runs per size (default 3)")
    main(parser.parse_args().rounds)
