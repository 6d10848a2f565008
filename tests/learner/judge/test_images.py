"""Thumbnails and difference overlays, on images drawn here with Pillow."""

from __future__ import annotations

import io

import pytest
from PIL import Image, ImageDraw

from learner.judge.images import difference_overlay, thumbnail


def _png(size: tuple[int, int], boxes: tuple[tuple[int, int, int, int], ...] = ()) -> bytes:
    image = Image.new("RGB", size, "#f0f0f0")
    draw = ImageDraw.Draw(image)
    for box in boxes:
        draw.rectangle(box, fill="#203040")
    buffer = io.BytesIO()
    image.save(buffer, "PNG")
    return buffer.getvalue()


def _open(data: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(data))
    assert image.format == "JPEG"
    return image.convert("RGB")


def _pixels(image: Image.Image) -> list[tuple[int, int, int]]:
    data = image.tobytes()
    return [(data[i], data[i + 1], data[i + 2]) for i in range(0, len(data), 3)]


def _at(image: Image.Image, xy: tuple[int, int]) -> tuple[int, int, int]:
    r, g, b = image.convert("RGB").getpixel(xy)  # type: ignore[misc]
    return int(r), int(g), int(b)


def _is_red(pixel: tuple[int, int, int]) -> bool:
    r, g, b = pixel
    return r > 150 and g < 110 and b < 110


def _is_grey(pixel: tuple[int, int, int]) -> bool:
    return max(pixel) - min(pixel) < 12


def test_thumbnail_keeps_proportions_and_is_small() -> None:
    png = _png((1280, 4000), ((100, 100, 600, 300),))
    thumb = thumbnail(png)
    image = _open(thumb)
    assert image.size == (320, 1000)
    assert len(thumb) < len(png) and len(thumb) < 20_000


def test_thumbnail_width_is_validated() -> None:
    with pytest.raises(ValueError, match="at least 16"):
        thumbnail(_png((100, 100)), width=4)


def test_overlay_marks_only_the_difference_in_red() -> None:
    a = _png((800, 1200), ((40, 40, 200, 100),))
    b = _png((800, 1200), ((40, 40, 200, 100), (500, 900, 520, 910)))
    image = _open(difference_overlay(a, b, width=400))
    assert image.size == (400, 600)
    assert _is_red(_at(image, (255, 452)))
    assert _is_grey(_at(image, (60, 35)))  # the shared dark box: dimmed, not red
    assert _is_grey(_at(image, (300, 200)))
    reds = sum(_is_red(p) for p in _pixels(image))
    assert 0 < reds < 400 * 600 // 100


def test_overlay_of_identical_images_has_no_red() -> None:
    a = _png((640, 480), ((10, 10, 300, 200),))
    image = _open(difference_overlay(a, a))
    assert not any(_is_red(p) for p in _pixels(image))


def test_overlay_of_different_heights_marks_the_extra_part() -> None:
    short = _png((800, 600))
    tall = _png((800, 1000))
    image = _open(difference_overlay(short, tall, width=200))
    assert image.size == (200, 250)
    assert _is_grey(_at(image, (100, 100)))
    assert _is_red(_at(image, (100, 220)))
