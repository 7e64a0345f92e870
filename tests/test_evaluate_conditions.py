"""The photo conditions of datasets/evaluate_conditions.py move each truth box with the tile's pixels."""

from __future__ import annotations

import io

import numpy as np
import pytest
from PIL import Image

from datasets.evaluate_conditions import CONDITIONS, far, main, tilted, turned


def photo() -> tuple[np.ndarray, np.ndarray]:
    """A 300x400 grey photo with one white tile, and its box."""
    rgb = np.full((300, 400, 3), 60, np.uint8)
    rgb[40:100, 250:290] = 255
    return rgb, np.array([[250, 40, 290, 100]], np.float32)


def white_box(data: bytes) -> tuple[float, float, float, float]:
    rgb = np.asarray(Image.open(io.BytesIO(data)).convert("RGB"))  # full size (load_image shrinks 12 MP)
    ys, xs = np.nonzero(rgb[:, :, 0] > 180)
    return float(xs.min()), float(ys.min()), float(xs.max() + 1), float(ys.max() + 1)


@pytest.mark.parametrize("variant", [turned(1), turned(2), turned(3), far(0.3), far(1.0)])
def test_the_truth_box_follows_the_tile(variant) -> None:  # type: ignore[no-untyped-def]
    rgb, boxes = photo()
    data, moved = variant(rgb, boxes)
    np.testing.assert_allclose(moved[0], white_box(data), atol=3)


def test_a_tilted_tile_keeps_its_centre_and_a_box_between_tight_and_upright() -> None:
    rgb, boxes = photo()
    data, moved = tilted(30)(rgb, boxes)
    x0, y0, x1, y1 = white_box(data)
    assert abs((moved[0, 0] + moved[0, 2]) / 2 - (x0 + x1) / 2) < 3
    assert abs((moved[0, 1] + moved[0, 3]) / 2 - (y0 + y1) / 2) < 3
    assert 40 < moved[0, 2] - moved[0, 0] < x1 - x0 + 1


def test_every_condition_keeps_the_box_count() -> None:
    rgb, boxes = photo()
    for name, variant in CONDITIONS.items():
        if variant is not None:
            assert len(variant(rgb, boxes)[1]) == 1, name


def test_an_unknown_condition_is_a_clear_message(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["sideways"]) == 2
    assert "unknown condition sideways" in capsys.readouterr().err
