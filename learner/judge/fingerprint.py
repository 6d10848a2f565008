"""What a comparison needs from one render: a fingerprint.

A :class:`Fingerprint` summarises a :class:`~learner.model.Rendering`: where it ended up, its
status, its visible text as lines, and for each 64 px tile of the full-page screenshot an
exact pixel digest; a tile's 64-bit perceptual hash is computed only for tiles that differ,
where :mod:`learner.judge.compare` measures a distance. The design and the measurements
behind it are in ``docs/fingerprint.md``.
"""

from __future__ import annotations

import hashlib
import io
import logging
from collections.abc import Iterable
from dataclasses import dataclass, field

import imagehash
from PIL import Image

from learner.model import Rendering

logger = logging.getLogger(__name__)

__all__ = ["TILE", "Cell", "Fingerprint", "fingerprint", "text_lines"]

TILE = 64
"""Side of a screenshot tile in CSS pixels (device scale 1)."""

Cell = tuple[int, int]
"""A tile's (column, row)."""


@dataclass(frozen=True, slots=True)
class Fingerprint:
    """What :func:`~learner.judge.compare.compare` needs from one rendering.

    ``tiles`` run row by row over a grid of ``columns`` x ``rows`` tiles of :data:`TILE`
    pixels: 8-byte BLAKE2 digests of the RGB pixels. :meth:`tile_hashes` gives the 64-bit
    ``imagehash.phash`` of a tile, computed from ``screenshot`` on first use.
    """

    url: str
    final_url: str
    status: int | None
    title: str
    lines: tuple[str, ...]
    width: int
    height: int
    columns: int
    rows: int
    tiles: tuple[bytes, ...]
    screenshot: bytes = field(default=b"", repr=False, compare=False)
    """The PNG the tiles were cut from (the rendering's own bytes, not a copy)."""
    _hashes: dict[Cell, int] = field(default_factory=dict, init=False, repr=False, compare=False)

    def tile(self, column: int, row: int) -> bytes | None:
        """Return the digest of one tile, or None outside the screenshot."""
        if not (0 <= column < self.columns and 0 <= row < self.rows):
            return None
        return self.tiles[row * self.columns + column]

    def tile_hashes(self, cells: Iterable[Cell]) -> dict[Cell, int]:
        """The perceptual hash of each of ``cells`` inside the screenshot.

        Hashes are computed once per tile, on first use: only tiles where a distance is
        measured (those that differ from another render) ever cost a hash. A fingerprint
        built without a screenshot has none.
        """
        if not self.screenshot:
            return {}
        wanted = [c for c in cells if self.tile(*c) is not None]
        missing = [c for c in wanted if c not in self._hashes]
        if missing:
            with Image.open(io.BytesIO(self.screenshot)) as opened:
                image = opened.convert("RGB")
            for cell in missing:
                self._hashes[cell] = int(str(imagehash.phash(image.crop(_box(image, *cell)))), 16)
        return {cell: self._hashes[cell] for cell in wanted}


def text_lines(text: str) -> tuple[str, ...]:
    r"""Split visible text into non-empty lines with runs of whitespace collapsed.

    Args:
        text: ``innerText`` of a page.

    >>> text_lines("  Lamp \n\n $19.99\tnow ")
    ('Lamp', '$19.99 now')
    """
    return tuple(" ".join(line.split()) for line in text.splitlines() if line.strip())


def fingerprint(rendering: Rendering) -> Fingerprint:
    """Summarise a rendering for :func:`~learner.judge.compare.compare`.

    Args:
        rendering: a full-page capture from :class:`~learner.render.renderer.Renderer`.
    """
    with Image.open(io.BytesIO(rendering.screenshot)) as opened:
        image = opened.convert("RGB")
    width, height = image.size
    columns, rows = -(-width // TILE), -(-height // TILE)
    digests = [
        hashlib.blake2b(image.crop(_box(image, column, row)).tobytes(), digest_size=8).digest()
        for row in range(rows)
        for column in range(columns)
    ]
    return Fingerprint(
        url=rendering.url,
        final_url=rendering.final_url,
        status=rendering.status,
        title=" ".join(rendering.title.split()),
        lines=text_lines(rendering.text),
        width=width,
        height=height,
        columns=columns,
        rows=rows,
        tiles=tuple(digests),
        screenshot=rendering.screenshot,
    )


def _box(image: Image.Image, column: int, row: int) -> tuple[int, int, int, int]:
    width, height = image.size
    return (
        column * TILE,
        row * TILE,
        min(width, (column + 1) * TILE),
        min(height, (row + 1) * TILE),
    )
