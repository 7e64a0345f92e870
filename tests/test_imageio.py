"""load_image: good photos in every supported form, and every kind of bad file refused with one clear line."""

from __future__ import annotations

import io
import struct
import zlib
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from recognizer import ImageError, LoadedImage, load_image


def _jpeg(rgb: np.ndarray, **save: object) -> bytes:
    buf = io.BytesIO()
    Image.fromarray(rgb).save(buf, "JPEG", quality=95, **save)
    return buf.getvalue()


def _marked(width: int, height: int) -> np.ndarray:
    """Grey image with a red block in its top-left corner."""
    rgb = np.full((height, width, 3), 128, np.uint8)
    rgb[: height // 4, : width // 4] = (255, 0, 0)
    return rgb


def _png_header_only(width: int, height: int) -> bytes:
    """A PNG whose header claims `width` x `height` (valid CRC) followed by a tiny IDAT."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    ihdr = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", ihdr)
        + chunk(b"IDAT", zlib.compress(b"\0" * 16))
        + chunk(b"IEND", b"")
    )


def test_jpeg_from_path_and_bytes(tmp_path: Path) -> None:
    data = _jpeg(_marked(64, 48))
    path = tmp_path / "photo.jpg"
    path.write_bytes(data)
    for source in (path, str(path), data):
        image = load_image(source)
        assert isinstance(image, LoadedImage)
        assert (image.width, image.height, image.scale) == (64, 48, 1.0)
        assert image.rgb.shape == (48, 64, 3) and image.rgb.dtype == np.uint8
        assert image.rgb[2, 2, 0] > 200 and image.rgb[2, 2, 1] < 60  # red corner survives


@pytest.mark.parametrize(
    ("content", "reason"),
    [
        (b"", "empty file"),
        (b"hand: 123m 456p\nnot a photo\n", "text file"),
        (b"\x00\x01\x02\x03garbage-bytes" * 10, "not an image"),
        (b"\x00\x00\x00\x18ftypheic\x00\x00\x00\x00mif1heic", "HEIC"),
    ],
)
def test_non_images_are_refused_with_reason(tmp_path: Path, content: bytes, reason: str) -> None:
    path = tmp_path / "hand.jpg"
    path.write_bytes(content)
    with pytest.raises(ImageError) as caught:
        load_image(path)
    message = str(caught.value)
    assert str(path) in message and reason in message and "\n" not in message


def test_missing_file_and_folder(tmp_path: Path) -> None:
    with pytest.raises(ImageError, match="no such file"):
        load_image(tmp_path / "absent.jpg")
    with pytest.raises(ImageError, match="not a file"):
        load_image(tmp_path)


def test_truncated_jpeg_is_corrupt(tmp_path: Path) -> None:
    data = _jpeg(np.random.default_rng(1).integers(0, 255, (200, 300, 3), dtype=np.uint8))
    path = tmp_path / "cut.jpg"
    path.write_bytes(data[: len(data) // 2])
    with pytest.raises(ImageError, match=r"cut\.jpg: corrupt or truncated"):
        load_image(path)


def test_jpeg_with_scrambled_body_is_refused_or_decoded_cleanly(tmp_path: Path) -> None:
    data = bytearray(_jpeg(_marked(120, 90)))
    data[200:260] = b"\xff\xd9" * 30  # end-of-image markers in the middle of the scan
    path = tmp_path / "broken.jpg"
    path.write_bytes(bytes(data))
    try:
        image = load_image(path)
    except ImageError as exc:
        assert "broken.jpg" in str(exc)
    else:
        assert image.rgb.shape == (90, 120, 3)


@pytest.mark.parametrize(("width", "height"), [(11_000, 10_000), (40_000, 40_000)])
def test_decompression_bomb_is_refused_before_decoding(tmp_path: Path, width: int, height: int) -> None:
    path = tmp_path / "bomb.png"
    path.write_bytes(_png_header_only(width, height))
    with pytest.raises(ImageError, match="too large"):
        load_image(path)


def test_exif_orientation_is_applied(tmp_path: Path) -> None:
    exif = Image.Exif()
    exif[0x0112] = 6  # stored sideways: display = stored turned 90° clockwise
    path = tmp_path / "portrait.jpg"
    path.write_bytes(_jpeg(_marked(80, 60), exif=exif.tobytes()))
    image = load_image(path)
    assert (image.width, image.height) == (60, 80)
    assert image.rgb.shape == (80, 60, 3)
    assert image.rgb[3, -3, 0] > 200 and image.rgb[3, 3, 0] < 180  # top-left block moved to the top-right


def test_png_alpha_is_composited_on_white(tmp_path: Path) -> None:
    rgba = np.zeros((10, 10, 4), np.uint8)
    rgba[:5] = (0, 0, 255, 255)
    path = tmp_path / "alpha.png"
    Image.fromarray(rgba, "RGBA").save(path)
    rgb = load_image(path).rgb
    assert rgb[0, 0].tolist() == [0, 0, 255]
    assert rgb[9, 9].tolist() == [255, 255, 255]


def test_palette_with_transparency(tmp_path: Path) -> None:
    image = Image.new("P", (8, 8), 1)
    image.putpalette([0, 0, 0, 10, 200, 30] + [0] * 762)
    image.info["transparency"] = 0
    image.paste(0, (0, 0, 4, 8))
    path = tmp_path / "palette.png"
    image.save(path, transparency=0)
    rgb = load_image(path).rgb
    assert rgb[0, 0].tolist() == [255, 255, 255] and rgb[0, 7].tolist() == [10, 200, 30]


def test_greyscale_and_16_bit(tmp_path: Path) -> None:
    grey = tmp_path / "grey.png"
    Image.fromarray(np.full((4, 6), 77, np.uint8), "L").save(grey)
    assert load_image(grey).rgb[0, 0].tolist() == [77, 77, 77]
    deep = tmp_path / "deep.png"
    values = np.array([[0, 32896, 65535]], np.uint16)
    Image.fromarray(values).save(deep)
    rgb = load_image(deep).rgb
    assert rgb.shape == (1, 3, 3)
    assert rgb[0, :, 0].tolist() == [0, 128, 255]


def test_webp_and_cmyk(tmp_path: Path) -> None:
    webp = tmp_path / "tile.webp"
    Image.fromarray(_marked(40, 30)).save(webp, lossless=True)
    image = load_image(webp)
    assert (image.width, image.height) == (40, 30) and image.rgb[0, 0].tolist() == [255, 0, 0]
    cmyk = tmp_path / "print.jpg"
    Image.fromarray(_marked(40, 30)).convert("CMYK").save(cmyk)
    assert load_image(cmyk).rgb.shape == (30, 40, 3)


def test_big_photo_is_downscaled_with_scale_recorded(tmp_path: Path) -> None:
    png = tmp_path / "big.png"
    Image.fromarray(_marked(400, 300)).save(png)
    image = load_image(png, max_side=100)
    assert (image.width, image.height) == (400, 300)
    assert image.rgb.shape == (75, 100, 3) and image.scale == pytest.approx(0.25)
    jpeg = tmp_path / "big.jpg"
    exif = Image.Exif()
    exif[0x0112] = 8  # turned the other way
    jpeg.write_bytes(_jpeg(_marked(800, 600), exif=exif.tobytes()))
    image = load_image(jpeg, max_side=200)
    assert (image.width, image.height) == (600, 800)
    assert max(image.rgb.shape[:2]) == 200 and image.rgb.shape[0] > image.rgb.shape[1]
    assert image.scale == pytest.approx(image.rgb.shape[1] / 600)


def test_a_big_png_averaged_down_first_reads_as_if_shrunk_at_once(tmp_path: Path) -> None:
    """A photo decoded at twice the kept size or more is box-reduced first (less memory): the pixels kept
    are those one area-averaging shrink gives, within rounding; palette photos take the plain path."""
    import cv2

    y, x = np.mgrid[0:600, 0:900]
    rgb = np.stack([(x * 255 // 899), (y * 255 // 599), ((x + y) % 256)], axis=2).astype(np.uint8)
    png = tmp_path / "big.png"
    Image.fromarray(rgb).save(png)
    image = load_image(png, max_side=200)
    expected = cv2.resize(rgb, (200, 133), interpolation=cv2.INTER_AREA)
    assert image.rgb.shape == expected.shape and image.scale == pytest.approx(200 / 900)
    assert np.abs(image.rgb.astype(int) - expected.astype(int)).mean() < 2.0
    palette = tmp_path / "palette.png"
    Image.fromarray(rgb).convert("P").save(palette)
    assert load_image(palette, max_side=200).rgb.shape == (133, 200, 3)


def test_a_reduced_photo_keeps_its_exif_turn(tmp_path: Path) -> None:
    rgb = np.zeros((600, 900, 3), np.uint8)
    rgb[:100, :100] = (255, 0, 0)  # the stored top-left corner: top-right once turned a quarter clockwise
    exif = Image.Exif()
    exif[0x0112] = 6
    png = tmp_path / "turned.png"
    Image.fromarray(rgb).save(png, exif=exif.tobytes())
    for max_side in (200, 2000):  # reduced first, and not
        image = load_image(png, max_side=max_side)
        assert (image.width, image.height) == (600, 900)
        assert image.rgb.shape[0] > image.rgb.shape[1]
        assert tuple(image.rgb[2, -3]) == (255, 0, 0) and tuple(image.rgb[2, 2]) == (0, 0, 0)
