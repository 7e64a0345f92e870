"""Quarter turns for detector training (datasets/augment.py: quarter_turn): the boxes follow the pixels."""

from __future__ import annotations

import numpy as np
import pytest

from datasets.augment import quarter_turn


def _white_box(img: np.ndarray) -> list[int]:
    ys, xs = np.nonzero(img[:, :, 0])
    return [int(xs.min()), int(ys.min()), int(xs.max()) + 1, int(ys.max()) + 1]


@pytest.mark.parametrize("turns", [0, 1, 2, 3, 4, 5])
def test_a_turned_tile_keeps_its_box(turns: int) -> None:
    img = np.zeros((60, 100, 3), np.uint8)
    img[10:40, 70:90] = 255  # a portrait tile near the right edge of a landscape photo
    turned, boxes = quarter_turn(img, np.array([[70, 10, 90, 40]]), turns)
    assert turned.shape[:2] == ((60, 100) if turns % 2 == 0 else (100, 60))
    assert turned.flags.c_contiguous
    assert boxes.round().astype(int).tolist() == [_white_box(turned)]


def test_one_quarter_turn_is_anticlockwise() -> None:
    img = np.zeros((60, 100, 3), np.uint8)
    img[0:10, 90:100] = 255  # top right corner
    turned, boxes = quarter_turn(img, np.array([[90, 0, 100, 10]]), 1)
    assert _white_box(turned) == [0, 0, 10, 10]  # turned left, the top right corner is at the top left
    assert boxes.tolist() == [[0, 0, 10, 10]]
