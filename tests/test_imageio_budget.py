"""load_image's decoded-pixel budget counts bit depth: a small file that decodes huge is refused at once."""

from __future__ import annotations

import struct
import time
import tracemalloc
import zlib
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from recognizer import ImageError, load_image
from recognizer.imageio import MAX_DECODED_BYTES


def _png(width: int, height: int, bit_depth: int, colour_type: int, row_bytes: int) -> bytes:
    """A valid PNG of all-zero rows, compressed as it streams (a 10000x10000 16-bit one is 194 KB)."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    packer = zlib.compressobj(9)
    rows = (b"\0" * (1 + row_bytes)) * 100
    idat = b"".join(packer.compress(rows) for _ in range(height // 100)) + packer.flush()
    header = struct.pack(">IIBBBBB", width, height, bit_depth, colour_type, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", idat) + chunk(b"IEND", b"")


def test_a_small_16_bit_png_that_decodes_to_10000_squared_is_refused_quickly(tmp_path: Path) -> None:
    path = tmp_path / "deep.png"
    path.write_bytes(_png(10_000, 10_000, 16, 0, 20_000))
    assert path.stat().st_size < 250_000
    start = time.perf_counter()
    with pytest.raises(
        ImageError, match=r"deep.png: image too large to decode \(10000x10000 16-bit grey"
    ) as caught:
        load_image(path)
    assert time.perf_counter() - start < 1.0
    assert "\n" not in str(caught.value)


def test_the_budget_counts_bytes_per_pixel_not_pixels(tmp_path: Path) -> None:
    # 8000x8000 is 64 megapixels, under the 100 MP guard; as 8-bit grey it fits the budget, as RGB not.
    side = 8000
    assert side * side <= MAX_DECODED_BYTES < side * side * 4
    grey = tmp_path / "grey.png"
    grey.write_bytes(_png(side, side, 8, 0, side))
    assert load_image(grey).rgb.shape == (2048, 2048, 3)
    colour = tmp_path / "colour.png"
    colour.write_bytes(_png(side, side, 8, 2, 3 * side))
    with pytest.raises(ImageError, match="RGB"):
        load_image(colour)


def test_16_bit_grey_is_converted_without_float64(tmp_path: Path) -> None:
    side = 2000  # below MAX_SIDE, so no downscaling
    values = (np.arange(side * side, dtype=np.uint32) % 65536).astype(np.uint16).reshape(side, side)
    path = tmp_path / "deep.png"
    Image.fromarray(values).save(path)
    tracemalloc.start()
    try:
        rgb = load_image(path).rgb
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 16 * side * side  # float64 temporaries alone took 8 bytes a pixel, three at a time
    expected = np.round(values[0, :300].astype(np.float64) * 255 / 65535)
    assert np.abs(rgb[0, :300, 0].astype(int) - expected).max() <= 1
