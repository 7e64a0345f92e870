"""HEIC (an iPhone's own format) and AVIF photos: read like a JPEG, turned as the phone was held, and refused
with a clear reason when broken or when no HEIC reader is installed."""

from __future__ import annotations

import io
import shutil
from pathlib import Path

import numpy as np
import pytest
from PIL import Image, features

from mahjong_nts.batch.runner import find_photos
from recognizer import ImageError, get_recognizer, imageio, load_image

DATA = Path(__file__).parent / "data"
SAMPLES = Path(__file__).resolve().parents[1] / "samples"


def test_heic_photo_decodes_to_the_jpeg_pixels() -> None:
    jpeg = load_image(SAMPLES / "hand1.jpg")
    heic = load_image(DATA / "hand1.heic")
    assert (heic.width, heic.height, heic.scale) == (jpeg.width, jpeg.height, 1.0)
    assert heic.rgb.shape == jpeg.rgb.shape and heic.rgb.dtype == np.uint8
    assert np.abs(heic.rgb.astype(int) - jpeg.rgb.astype(int)).mean() < 2.0


def test_heic_photo_reads_the_same_tiles_as_its_jpeg() -> None:
    recognizer = get_recognizer()
    from_jpeg = recognizer.recognize(load_image(SAMPLES / "hand1.jpg"))
    from_heic = recognizer.recognize(load_image((DATA / "hand1.heic").read_bytes()))
    assert len(from_jpeg.codes) >= 14
    assert sorted(from_heic.codes) == sorted(from_jpeg.codes)


def test_heic_stored_turned_is_shown_upright_once() -> None:
    """Stored lying on its side with orientation 6: decoded upright (portrait), not turned twice."""
    image = load_image(DATA / "turned.heic")
    assert (image.width, image.height) == (640, 800)
    hand = load_image(SAMPLES / "hand1.jpg").rgb.astype(int)
    assert np.abs(image.rgb[:640].astype(int) - hand).mean() < 3.0
    assert np.abs(image.rgb[660:].astype(int) - 128).max() <= 4  # the grey band is at the bottom


def test_truncated_heic_is_corrupt(tmp_path: Path) -> None:
    path = tmp_path / "IMG_0001.HEIC"
    path.write_bytes((DATA / "hand1.heic").read_bytes()[:3000])
    with pytest.raises(ImageError, match="corrupt") as caught:
        load_image(path)
    assert str(path) in str(caught.value) and "\n" not in str(caught.value)


def test_heic_header_without_a_picture() -> None:
    with pytest.raises(ImageError, match="corrupt HEIC/HEIF photo"):
        load_image(b"\x00\x00\x00\x18ftypheic\x00\x00\x00\x00mif1heic")


def test_heic_without_a_reader_says_what_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(imageio, "heif_decoder", lambda: None)
    with pytest.raises(ImageError, match=r"need the pi-heif package .*export the photo as JPEG"):
        load_image(DATA / "hand1.heic")
    assert load_image(SAMPLES / "hand1.jpg").width == 640  # other formats are unaffected


@pytest.mark.skipif(not features.check("avif"), reason="this Pillow was built without AVIF")
def test_avif_photo_decodes() -> None:
    buffer = io.BytesIO()
    Image.open(SAMPLES / "hand1.jpg").save(buffer, format="AVIF", quality=90)
    assert not imageio.is_heif(buffer.getvalue())
    image = load_image(buffer.getvalue())
    jpeg = load_image(SAMPLES / "hand1.jpg")
    assert image.rgb.shape == jpeg.rgb.shape
    assert np.abs(image.rgb.astype(int) - jpeg.rgb.astype(int)).mean() < 4.0


def test_a_48_megapixel_heic_fits_the_pixel_budget() -> None:
    """An iPhone Pro's "HEIF Max" photo, 8064x6048 (one plain colour, so the file is small): decoded
    straight into one array, within the pixel budget, and shrunk to the kept size."""
    image = load_image(DATA / "heif-max-48mp.heic")
    assert (image.width, image.height) == (8064, 6048)
    assert image.rgb.shape == (1536, 2048, 3) and image.scale == pytest.approx(2048 / 8064)
    assert np.abs(image.rgb.astype(int) - (90, 120, 60)).max() <= 3


def test_batch_finds_heic_and_avif_photos(tmp_path: Path) -> None:
    for name in ("IMG_0001.HEIC", "b.heif", "c.avif", "d.jpg", "notes.txt"):
        shutil.copy(DATA / "hand1.heic", tmp_path / name)
    found = sorted(path.name for path in find_photos(tmp_path, False, tmp_path / "out"))
    assert found == ["IMG_0001.HEIC", "b.heif", "c.avif", "d.jpg"]
