"""recognizer/face_down.py: which weak face-down boxes have a face-down neighbour."""

from __future__ import annotations

import numpy as np

from recognizer.detector import TileBoxes
from recognizer.face_down import lone_weak_backs


def boxes(xyxy: list[list[float]], scores: list[float], back: list[bool]) -> TileBoxes:
    return TileBoxes(np.array(xyxy, np.float32), np.array(scores, np.float32), np.array(back))


def test_touching_pairs_in_a_row_or_a_column_keep_each_other() -> None:
    row = boxes([[0, 0, 10, 14], [11, 1, 21, 15]], [0.4, 0.4], [True, True])
    assert not lone_weak_backs(row, np.ones(2, bool), 0.6).any()
    column = boxes([[0, 0, 14, 10], [0, 12, 14, 22]], [0.4, 0.4], [True, True])
    assert not lone_weak_backs(column, np.ones(2, bool), 0.6).any()


def test_a_tile_between_them_or_another_row_leaves_each_alone() -> None:
    apart = boxes([[0, 0, 10, 14], [21, 0, 31, 14]], [0.4, 0.4], [True, True])  # one tile's width apart
    assert lone_weak_backs(apart, np.ones(2, bool), 0.6).tolist() == [True, True]
    rows = boxes([[0, 0, 10, 14], [0, 30, 10, 44]], [0.4, 0.4], [True, True])  # above each other, far
    assert lone_weak_backs(rows, np.ones(2, bool), 0.6).tolist() == [True, True]


def test_strong_face_up_or_face_down_read_as_faces_are_never_dropped() -> None:
    found = boxes([[0, 0, 10, 14], [30, 0, 40, 14], [60, 0, 70, 14]], [0.9, 0.4, 0.4], [True, True, False])
    read_back = np.array([True, False, True])
    assert not lone_weak_backs(found, read_back, 0.6).any()
