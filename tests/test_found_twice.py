"""A tile found twice (a big tilted tile read whole and in part) counts once; neighbours never do."""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from recognizer.detector import TileBoxes
from recognizer.found_twice import cover_matrix, found_twice
from recognizer.labels import BACK_INDEX, LABELS
from recognizer.pipeline import Settings, decide

WHOLE = [100, 100, 200, 235]  # a tile 100 x 135
PART = [140, 100, 200, 200]  # the right part of it: all of it inside WHOLE
FIVE_PIN = LABELS.index("5p")


def _codes(*codes: str) -> np.ndarray:
    return np.array([LABELS.index(c) for c in codes])


def test_cover_is_the_overlap_over_the_smaller_box() -> None:
    xyxy = np.array([WHOLE, PART, [200, 100, 300, 235]], np.float64)
    cover = cover_matrix(xyxy)
    assert cover[0, 1] == cover[1, 0] == 1.0  # PART lies inside WHOLE
    assert cover[0, 2] == 0.0  # touching side by side
    np.testing.assert_allclose(np.diag(cover), 1.0)


def test_the_less_sure_of_two_same_code_boxes_on_one_tile_goes() -> None:
    xyxy = np.array([WHOLE, PART], np.float32)
    assert found_twice(xyxy, _codes("5p", "5p"), np.array([0.9, 0.7]), BACK_INDEX).tolist() == [False, True]
    assert found_twice(xyxy, _codes("5p", "5p"), np.array([0.6, 0.7]), BACK_INDEX).tolist() == [True, False]


def test_other_codes_neighbours_and_backs_are_kept() -> None:
    xyxy = np.array([WHOLE, PART], np.float32)
    sure = np.array([0.9, 0.7])
    assert not found_twice(xyxy, _codes("5p", "6p"), sure, BACK_INDEX).any()  # two readings: both stay
    assert not found_twice(xyxy, _codes("back", "back"), sure, BACK_INDEX).any()  # a kong's middle pair
    # a pung lying diagonally at 30 degrees: each box covers about 0.3 of the next
    angle = np.deg2rad(30)
    w, h = 100.0, 135.0
    box_w = w * np.cos(angle) + h * np.sin(angle)
    box_h = w * np.sin(angle) + h * np.cos(angle)
    step = np.array([w * np.cos(angle), w * np.sin(angle)])
    centres = [np.array([300.0, 300.0]) + k * step for k in range(3)]
    diagonal = np.array([[x - box_w / 2, y - box_h / 2, x + box_w / 2, y + box_h / 2] for x, y in centres])
    assert cover_matrix(diagonal)[0, 1] < 0.5
    assert not found_twice(diagonal, _codes("5p", "5p", "5p"), np.array([0.9, 0.8, 0.7]), BACK_INDEX).any()


def test_decide_drops_twins_of_plain_passes_only() -> None:
    boxes = TileBoxes(
        np.array([WHOLE, PART], np.float32), np.array([0.9, 0.5], np.float32), np.zeros(2, bool)
    )
    probs = np.full((2, len(LABELS)), 0.001, np.float32)
    probs[:, FIVE_PIN] = [0.95, 0.8]
    found = decide(boxes, probs, 1.0, Settings())
    assert found.codes == ["5p"] and found.xyxy.tolist() == [WHOLE]
    assert len(decide(boxes, probs, 1.0, replace(Settings(), drop_twins=False))) == 2
    squeezed = TileBoxes(boxes.xyxy, boxes.score, boxes.back, ("x", 8.0))  # row_duplicates' job there
    assert len(decide(squeezed, probs, 1.0, Settings())) == 2
