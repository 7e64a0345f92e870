"""recognizer/stretched_row.py: the tiles of a stretched row: shares, tiles found twice, gaps."""

from __future__ import annotations

import numpy as np
import pytest

from recognizer.detector import TileBoxes
from recognizer.stretched_row import row_duplicates, row_gaps, row_shares


def test_row_shares_cut_overlapping_neighbours_at_their_midpoint() -> None:
    # a row stretched along x: tiles are bars stacked along y; the middle box runs into both neighbours
    xyxy = np.array([[0, 60, 640, 130], [0, 0, 640, 70], [0, 125, 600, 180], [0, 300, 640, 350]], np.float32)
    cut = row_shares(xyxy, "x")
    assert cut[:, [0, 2]].tolist() == xyxy[:, [0, 2]].tolist()  # the stretched axis is kept
    assert cut[1, 3] == pytest.approx(65.0) and cut[0, 1] == pytest.approx(65.0)  # centres 35 and 95
    assert cut[0, 3] == pytest.approx(123.75) and cut[2, 1] == 125  # 95 and 152.5; box 2 stays in its share
    assert cut[2, 3] == 180 and cut[3].tolist() == xyxy[3].tolist()  # no overlap, nothing cut
    slivers = row_shares(xyxy[:, [1, 0, 3, 2]], "y")  # the same row turned: slivers side by side along x
    assert slivers.tolist() == cut[:, [1, 0, 3, 2]].tolist()
    assert row_shares(xyxy[:0], "x").shape == (0, 4)
    beside = np.array([700, 0, 700, 0], np.float32)
    band = np.concatenate([xyxy, xyxy + beside])  # a second row beside the first, at the same heights
    assert row_shares(band, "x").tolist() == np.concatenate([cut, cut + beside]).tolist()


def test_a_tile_found_twice_in_a_stretched_row_counts_once() -> None:
    # bars stacked along y (a row stretched along x), pitch 50; box 2 is a second, weaker find of tile 1
    xyxy = np.array(
        [[0, 0, 640, 48], [0, 50, 640, 98], [0, 58, 640, 90], [0, 100, 640, 148], [700, 58, 1300, 90]],
        np.float32,
    )
    boxes = TileBoxes(xyxy, np.array([0.9, 0.8, 0.5, 0.9, 0.4], np.float32), np.zeros(5, bool), ("x", 8.0))
    assert row_duplicates(boxes, "x").tolist() == [False, False, True, False, False]  # box 4: another line
    stronger = TileBoxes(xyxy, np.array([0.9, 0.5, 0.8, 0.9, 0.4], np.float32), boxes.back, boxes.squeeze)
    assert row_duplicates(stronger, "x").tolist() == [False, True, False, False, False]
    alone = TileBoxes(xyxy[4:], np.ones(1, np.float32), np.zeros(1, bool), ("x", 8.0))
    assert not row_duplicates(alone, "x").any()


def test_row_gaps_fill_whole_missing_pitches_between_neighbours_in_a_line() -> None:
    # a row stretched along x: bars at pitch 50 along y; the tiles at 150 and 250 were not found
    xyxy = np.array([[0, 0, 640, 48], [0, 50, 640, 98], [0, 100, 640, 148], [0, 200, 640, 248],
                     [0, 300, 640, 348], [700, 0, 1300, 48]], np.float32)  # fmt: skip
    gaps = row_gaps(xyxy, "x")
    assert gaps.tolist() == [[0, 149, 640, 199], [0, 249, 640, 299]]  # centres 174 and 274, pitch 50
    assert row_gaps(xyxy[:3], "x").shape == (0, 4)  # no gap: nothing to add
    assert row_gaps(xyxy[[0, 2]], "x").shape == (0, 4)  # two boxes: their distance is the pitch
    turned = row_gaps(xyxy[:, [1, 0, 3, 2]], "y")  # slivers side by side along x
    assert turned.tolist() == gaps[:, [1, 0, 3, 2]].tolist()


def test_boxes_on_top_of_each_other_give_no_pitch_to_work_with() -> None:
    stacked = np.array([[0, 50, 640, 98]] * 3 + [[0, 50, 640, 99]], np.float32)  # one place, four boxes
    boxes = TileBoxes(stacked, np.full(4, 0.5, np.float32), np.zeros(4, bool), ("x", 8.0))
    assert row_gaps(stacked, "x").shape == (0, 4)
    assert not row_duplicates(boxes, "x").any()
    assert row_shares(stacked, "x").shape == (4, 4)


def test_a_gap_of_many_tiles_is_a_gap_in_the_row_not_missed_tiles() -> None:
    centres = [25, 75, 125, 175, 475]  # pitch 50, then six pitches of table
    xyxy = np.array([[0, c - 24, 640, c + 24] for c in centres], np.float32)
    assert row_gaps(xyxy, "x").shape == (0, 4)
    three = np.array([[0, c - 24, 640, c + 24] for c in (25, 75, 125, 275)], np.float32)
    assert len(row_gaps(three, "x")) == 2  # two missing tiles are looked for
