"""Reading order: rows top to bottom, left to right within a row, robust to tilt and gaps."""

from __future__ import annotations

import numpy as np

from recognizer.reading_order import assign_rows, reading_order


def _row(y: float, xs: list[float], w: float = 40, h: float = 56, tilt: float = 0.0) -> list[list[float]]:
    return [[x, y + tilt * k, x + w, y + h + tilt * k] for k, x in enumerate(xs)]


def test_two_rows_shuffled() -> None:
    boxes = np.array(_row(200, [10, 55, 100, 145]) + _row(20, [10, 55, 100]), np.float32)
    shuffled = np.random.default_rng(3).permutation(len(boxes))
    order, rows = reading_order(boxes[shuffled])
    placed = boxes[shuffled][order]
    assert rows.tolist() == [0, 0, 0, 1, 1, 1, 1]
    assert placed[:, 1].tolist() == [20] * 3 + [200] * 4
    assert placed[:3, 0].tolist() == [10, 55, 100] and placed[3:, 0].tolist() == [10, 55, 100, 145]


def test_tilted_row_stays_one_row() -> None:
    boxes = np.array(_row(100, [float(45 * k) for k in range(14)], tilt=6.0), np.float32)  # 78 px drop
    assert set(assign_rows(boxes).tolist()) == {0}


def test_touching_rows_stay_apart_and_tilted_rows_do_not_merge() -> None:
    boxes = np.array(_row(0, [0, 42, 84, 126], tilt=4) + _row(58, [0, 42, 84, 126], tilt=4), np.float32)
    assert assign_rows(boxes).tolist() == [0, 0, 0, 0, 1, 1, 1, 1]


def test_flower_laid_far_beside_the_hand_joins_its_row() -> None:
    hand = _row(100, [0, 42, 84, 126, 168])
    flower = [[500, 104, 540, 160]]
    upper = _row(0, [0, 42])
    boxes = np.array(hand + flower + upper, np.float32)
    order, rows = reading_order(boxes)
    assert rows.tolist() == [0, 0, 1, 1, 1, 1, 1, 1]
    assert order.tolist() == [6, 7, 0, 1, 2, 3, 4, 5]


def test_sideways_tile_in_a_row() -> None:
    boxes = np.array([[0, 100, 40, 156], [42, 116, 98, 156], [100, 100, 140, 156]], np.float32)
    assert assign_rows(boxes).tolist() == [0, 0, 0]


def test_empty() -> None:
    order, rows = reading_order(np.zeros((0, 4), np.float32))
    assert order.size == 0 and rows.size == 0
