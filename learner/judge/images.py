"""Small pictures of renderings for people: thumbnails and difference overlays (JPEG)."""

from __future__ import annotations

import io
import logging

from PIL import Image, ImageChops, ImageFilter, ImageOps

logger = logging.getLogger(__name__)

__all__ = ["MEDIA_TYPE", "SUFFIX", "difference_overlay", "thumbnail"]

SUFFIX = ".jpg"
"""File name suffix of the pictures made here."""
MEDIA_TYPE = "image/jpeg"
"""Media type of the pictures made here."""

_QUALITY = 70
_RED = (230, 30, 30)


def _open(png: bytes) -> Image.Image:
    with Image.open(io.BytesIO(png)) as image:
        return image.convert("RGB")


def _scaled(image: Image.Image, width: int) -> Image.Image:
    height = max(1, round(image.height * width / image.width))
    return image.resize((width, height), Image.Resampling.LANCZOS)


def _encode(image: Image.Image) -> bytes:
    # JPEG: every browser and image viewer shows it; 320 px wide pages stay ~10-40 kB.
    buffer = io.BytesIO()
    image.save(buffer, "JPEG", quality=_QUALITY, optimize=True, progressive=True)
    return buffer.getvalue()


def _check_width(width: int) -> None:
    if width < 16:
        raise ValueError(f"width must be at least 16, not {width}")


def thumbnail(png: bytes, *, width: int = 320) -> bytes:
    """Shrink a screenshot to ``width`` pixels wide, keeping its proportions, as JPEG.

    Args:
        png: the screenshot (any format Pillow reads).
        width: the thumbnail's width in pixels.
    """
    _check_width(width)
    return _encode(_scaled(_open(png), width))


def difference_overlay(a_png: bytes, b_png: bytes, *, width: int = 320) -> bytes:
    """Show ``a`` dimmed in grey with the regions that differ from ``b`` in red, as JPEG.

    Args:
        a_png: the screenshot drawn (the reference).
        b_png: the screenshot it is compared with; where one image is taller than the
            other, the part only one of them has counts as different.
        width: the overlay's width in pixels.
    """
    _check_width(width)
    a, b = _open(a_png), _open(b_png)
    size = (max(a.width, b.width), max(a.height, b.height))
    canvas_a = Image.new("RGB", size, "white")
    canvas_a.paste(a)
    canvas_b = Image.new("RGB", size, "white")
    canvas_b.paste(b)
    changed = ImageChops.difference(canvas_a, canvas_b).convert("L").point(_any)
    outside = Image.new("L", size, 255)
    outside.paste(0, (0, 0, min(a.width, b.width), min(a.height, b.height)))
    changed = ImageChops.lighter(changed, outside)

    small = _scaled(canvas_a, width)
    # Any changed pixel in a block lights the block; one more pixel around keeps a single
    # changed character visible at thumbnail scale.
    mask = changed.resize(small.size, Image.Resampling.BOX).point(_any)
    mask = mask.filter(ImageFilter.MaxFilter(3))
    grey = ImageOps.grayscale(small).point(lambda v: 96 + v * 3 // 8)
    base = Image.merge("RGB", (grey, grey, grey))
    red = Image.blend(base, Image.new("RGB", small.size, _RED), 0.75)
    return _encode(Image.composite(red, base, mask))


def _any(value: int) -> int:
    return 255 if value else 0
