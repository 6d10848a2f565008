"""Fingerprints and verdicts: pinned hashes, synthetic cases, and real renders."""

from __future__ import annotations

import io
import json
from typing import Any

import imagehash
import pytest
from PIL import Image, ImageDraw

from learner.config import RenderSettings
from learner.judge.compare import MAX_NOISE, compare
from learner.judge.fingerprint import TILE, Fingerprint, fingerprint
from learner.render.renderer import Renderer, Rendering
from tests.site import render_sites

SHOP = f"http://{render_sites.SHOP}"


def _fixture_png() -> bytes:
    image = Image.new("RGB", (128, 64), "#f4f1ea")
    draw = ImageDraw.Draw(image)
    draw.rectangle((8, 8, 56, 56), fill="#2e5aac")
    draw.ellipse((72, 8, 120, 56), fill="#c0392b")
    draw.line((0, 63, 127, 0), fill="#222222", width=3)
    buffer = io.BytesIO()
    image.save(buffer, "PNG")
    return buffer.getvalue()


def _png(height: int = 256, boxes: tuple[tuple[int, int, int, int], ...] = ()) -> bytes:
    image = Image.new("RGB", (320, height), "white")
    draw = ImageDraw.Draw(image)
    for box in boxes:
        draw.rectangle(box, fill="black")
    buffer = io.BytesIO()
    image.save(buffer, "PNG")
    return buffer.getvalue()


def _fp(
    url: str = "http://a.test/p?x=1",
    *,
    final: str | None = None,
    status: int | None = 200,
    text: str = "Shop\nLamp\n$5",
    title: str = "Lamp",
    png: bytes | None = None,
) -> Fingerprint:
    rendering = Rendering(
        url=url,
        final_url=final or url,
        status=status,
        screenshot=png or _png(),
        text=text,
        title=title,
        elapsed_s=0.1,
        settled=True,
        redirects=(),
    )
    return fingerprint(rendering)


# --- pinned values: a Pillow or imagehash upgrade must not change results silently ---


def test_imagehash_of_fixture_image_is_pinned() -> None:
    with Image.open(io.BytesIO(_fixture_png())) as image:
        assert str(imagehash.phash(image)) == "9bd691d5c475c419"
        assert str(imagehash.dhash(image)) == "78737375513373db"


def test_fingerprint_tiles_of_fixture_image_are_pinned() -> None:
    fp = _fp(png=_fixture_png())
    assert (fp.width, fp.height, fp.columns, fp.rows) == (128, 64, 2, 1)
    hashes = fp.tile_hashes([(0, 0), (1, 0), (2, 0)])  # (2, 0) is outside the screenshot
    assert {cell: format(h, "016x") for cell, h in hashes.items()} == {
        (0, 0): "faf081f085be807e",
        (1, 0): "ea40d55a9e14dcf4",
    }
    assert [d.hex() for d in fp.tiles] == ["3054d99f67fa98dc", "a323be05d9a187c4"]


def test_fingerprint_keeps_lines_and_grid() -> None:
    fp = _fp(text="  Lamp \n\n  $19.99\t now \n", title=" A  lamp ", png=_png(300))
    assert fp.lines == ("Lamp", "$19.99 now")
    assert fp.title == "A lamp"
    assert (fp.columns, fp.rows) == (5, 5)  # 320 / 64 and 300 / 64, rounded up
    assert len(fp.tiles) == 25


# --- synthetic verdicts ---


def test_identical_renders_are_same() -> None:
    ref = _fp()
    result = compare(ref, _fp(), _fp(url="http://a.test/p"))
    assert result.verdict == "same"
    assert result.reasons == ("no difference outside the page's own noise",)
    assert result.noise == {"tiles": 0.0, "text_lines": 0.0, "tile_hash_bits": 0.0, "title": 0.0}


def test_text_noise_is_masked_where_it_is() -> None:
    ref = _fp(text="Shop\nTime 10:01\nLamp\n$5")
    rep = _fp(text="Shop\nTime 10:02\nLamp\n$5")
    same = compare(ref, rep, _fp(url="http://a.test/p", text="Shop\nTime 10:03\nLamp\n$5"))
    assert same.verdict == "same"
    assert same.noise["text_lines"] == 0.25
    changed = compare(ref, rep, _fp(url="http://a.test/p", text="Shop\nTime 10:03\nLamp\n$6"))
    assert changed.verdict == "changed"
    assert changed.reasons == ("text differs: '$5' became '$6'",)
    # Noise does not excuse extra lines where the repeat varied by one line only.
    extra = _fp(url="http://a.test/p", text="Shop\nTime 10:03\nSale!\nLamp\n$5")
    assert compare(ref, rep, extra).verdict == "changed"


def test_screen_noise_is_masked_but_a_change_elsewhere_is_not() -> None:
    ref = _fp(png=_png(boxes=((10, 10, 40, 20),)))
    rep = _fp(png=_png(boxes=((10, 10, 50, 20),)))
    cand_noise = _fp(url="http://a.test/p", png=_png(boxes=((10, 10, 60, 20),)))
    assert compare(ref, rep, cand_noise).verdict == "same"
    moved = _fp(url="http://a.test/p", png=_png(boxes=((10, 10, 40, 20), (250, 200, 252, 202))))
    result = compare(ref, rep, moved)
    assert result.verdict == "changed"
    assert result.reasons == (f"1 screen tiles differ outside the noise, from y={3 * TILE}",)
    assert result.distances["tiles"] == pytest.approx(1 / 20)


def test_only_tiles_that_differ_are_hashed(monkeypatch: pytest.MonkeyPatch) -> None:
    hashed: list[tuple[int, int]] = []
    phash = imagehash.phash

    def counting(image: Image.Image) -> imagehash.ImageHash:
        hashed.append(image.size)
        return phash(image)

    monkeypatch.setattr(imagehash, "phash", counting)
    ref = _fp()
    same = compare(ref, _fp(), _fp(url="http://a.test/p"))
    assert same.verdict == "same" and hashed == []
    moved = _fp(url="http://a.test/p", png=_png(boxes=((250, 200, 252, 202),)))
    result = compare(ref, _fp(), moved)
    assert result.changes == {"tiles"}
    assert result.distances["tile_hash_bits"] > 0
    assert hashed == [(TILE, TILE), (TILE, TILE)]  # the one changed tile, in each render


def test_each_screenshot_is_decoded_once_per_comparison(monkeypatch: pytest.MonkeyPatch) -> None:
    # Noise in one tile and a change in another: the reference is measured on both.
    ref = _fp(png=_png(boxes=((10, 10, 12, 12),)))
    repeat = _fp(png=_png(boxes=((10, 10, 12, 12), (300, 10, 302, 12))))
    moved = _fp(url="http://a.test/p", png=_png(boxes=((10, 10, 12, 12), (250, 200, 252, 202))))
    opened: list[int] = []
    real_open = Image.open

    def counting(fp: Any, *args: Any, **kwargs: Any) -> Image.Image:
        opened.append(1)
        return real_open(fp, *args, **kwargs)

    monkeypatch.setattr(Image, "open", counting)
    result = compare(ref, repeat, moved)
    assert result.changes == {"tiles"} and result.noise["tiles"] > 0
    assert len(opened) == 3  # the reference, the repeat and the candidate, once each


def test_content_only_below_the_first_screen_is_a_change() -> None:
    ref = _fp(png=_png(1600))
    cand = _fp(url="http://a.test/p", png=_png(1600, boxes=((100, 1500, 140, 1510),)))
    result = compare(ref, _fp(png=_png(1600)), cand)
    assert result.verdict == "changed"
    assert "from y=1472" in result.reasons[0]


def test_taller_candidate_is_a_change() -> None:
    result = compare(_fp(), _fp(), _fp(url="http://a.test/p", png=_png(320)))
    assert result.verdict == "changed"
    assert result.distances["height_px"] == 64.0


def test_status_change_is_a_change() -> None:
    result = compare(_fp(), _fp(), _fp(url="http://a.test/p", status=404))
    assert result.verdict == "changed"
    assert result.reasons[0] == "status 200 became 404"


def test_originals_that_disagree_are_undecided() -> None:
    status = compare(_fp(), _fp(status=503), _fp(url="http://a.test/p"))
    assert status.verdict == "undecided"
    assert status.reasons == ("the original gave status 200 then 503",)
    place = compare(_fp(), _fp(final="http://a.test/login"), _fp(url="http://a.test/p"))
    assert place.verdict == "undecided"
    assert place.reasons == ("the original led to http://a.test/p?x=1 then http://a.test/login",)


def test_redirects_compare_destinations_without_the_removed_parameter() -> None:
    ref = _fp("http://a.test/old?c=red&utm=1", final="http://a.test/new?c=red&utm=1")
    cand = _fp("http://a.test/old?c=red", final="http://a.test/new?c=red")
    assert compare(ref, ref, cand).verdict == "same"
    away = _fp("http://a.test/old?c=red", final="http://a.test/home")
    result = compare(ref, ref, away)
    assert result.verdict == "changed"
    assert result.reasons[0] == (
        "led to http://a.test/home instead of http://a.test/new?c=red&utm=1"
    )


def test_page_that_is_mostly_noise_is_undecided() -> None:
    ref = _fp(png=_png(boxes=((0, 0, 319, 200),)))
    rep = _fp(png=_png())
    result = compare(ref, rep, _fp(url="http://a.test/p"))
    assert result.verdict == "undecided"
    assert result.noise["tiles"] > MAX_NOISE


def test_comparison_measures_are_named_plain_floats() -> None:
    result = compare(_fp(), _fp(), _fp(url="http://a.test/p", text="Other"))
    assert result.verdict == "changed"
    assert set(result.distances) == {"tiles", "text_lines", "tile_hash_bits", "height_px"}
    for measures in (result.distances, result.noise):
        assert json.loads(json.dumps(dict(measures))) == measures


# --- real renders of the render sites ---

_renders: dict[tuple[str, int], Rendering] = {}


async def _render(renderer: Renderer, path: str, nth: int = 0) -> Rendering:
    key = (path, nth)
    if key not in _renders:
        _renders[key] = await renderer.render(SHOP + path)
    return _renders[key]


async def _verdict(
    renderer: Renderer, original: str, candidate: str
) -> tuple[str, tuple[str, ...]]:
    ref = fingerprint(await _render(renderer, original, 0))
    rep = fingerprint(await _render(renderer, original, 1))
    cand = fingerprint(await _render(renderer, candidate, 0))
    result = compare(ref, rep, cand)
    return result.verdict, result.reasons


REVIEW = "/tpl?review=Too+dim+for+reading,+two+stars."


@pytest.mark.browser
@pytest.mark.parametrize(
    "original, candidate, verdict, first_reason",
    [
        ("/tpl?ref=mail", "/tpl", "same", "no difference outside the page's own noise"),
        ("/tpl?name=Quiet+Cedar+Lamp", "/tpl", "changed", "text differs: 'Quiet Cedar Lamp'"),
        ("/tpl?price=24.99", "/tpl", "changed", "text differs: '$24.99' became '$19.99'"),
        ("/tpl?img=2", "/tpl", "changed", "2 screen tiles differ outside the noise, from y=64"),
        (REVIEW, "/tpl", "changed", "text differs: 'Too dim for reading, two stars.'"),
        ("/noisy?sid=7", "/noisy", "same", "no difference outside the page's own noise"),
        ("/noisy?price=24.99", "/noisy", "changed", "text differs: '$24.99' became '$19.99'"),
        ("/chaos?sid=7", "/chaos", "undecided", "noise covers 100% of the screen"),
        ("/item?id=1", "/item", "changed", "status 200 became 404"),
        ("/go?to=Other", "/go", "changed", f"led to {SHOP}/tpl instead of"),
    ],
)
async def test_verdicts_on_rendered_pages(
    renderer: Renderer, original: str, candidate: str, verdict: str, first_reason: str
) -> None:
    got, reasons = await _verdict(renderer, original, candidate)
    assert got == verdict, reasons
    assert reasons[0].startswith(first_reason)


def _viewport_phash(rendering: Rendering, settings: RenderSettings) -> imagehash.ImageHash:
    with Image.open(io.BytesIO(rendering.screenshot)) as image:
        return imagehash.phash(
            image.crop((0, 0, settings.viewport_width, settings.viewport_height))
        )


@pytest.mark.browser
async def test_one_viewport_phash_cannot_tell_template_pages_apart(
    renderer: Renderer, render_settings: RenderSettings
) -> None:
    """Measured in docs/fingerprint.md: 0-2 bits of 64 for real changes, as for noise."""
    base = _viewport_phash(await _render(renderer, "/tpl"), render_settings)
    bits = {
        name: int(base - _viewport_phash(await _render(renderer, path), render_settings))
        for name, path in [
            ("name", "/tpl?name=Quiet+Cedar+Lamp"),
            ("price", "/tpl?price=24.99"),
            ("image", "/tpl?img=2"),
            ("below", REVIEW),
        ]
    }
    # A different price or a different review leaves the 64-bit hash unchanged: no
    # threshold can separate those pages from the very same page.
    assert bits["price"] == 0
    assert bits["below"] == 0
    # Name and picture move it by a couple of bits, as a rotating banner does on its own.
    assert bits["name"] <= 4 and bits["image"] <= 4
    noisy = [_viewport_phash(await _render(renderer, "/noisy", n), render_settings) for n in (0, 1)]
    assert int(noisy[0] - noisy[1]) <= 4


def test_noise_seen_in_any_repeat_is_masked() -> None:
    ref = _fp(text="Shop\nBanner A\nLamp\n$5")
    rep = _fp(text="Shop\nBanner A\nLamp\n$5")
    third = _fp(text="Shop\nBanner B\nLamp\n$5")
    candidate = _fp(text="Shop\nBanner C\nLamp\n$5", url="http://a.test/p")
    assert compare(ref, rep, candidate).verdict == "changed"
    assert compare(ref, [rep, third], candidate).verdict == "same"
    moved = _fp(text="Shop\nBanner C\nLamp\n$6", url="http://a.test/p")
    assert compare(ref, [rep, third], moved).verdict == "changed"
