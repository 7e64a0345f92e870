"""recognizer/unstretch.py: which photos look stretched, and when a squeezed pass replaces the first."""

from __future__ import annotations

import numpy as np
import pytest

from recognizer.detector import Squeeze, TileBoxes
from recognizer.unstretch import (
    FACTORS,
    confidence_mass,
    parts_of_tiles,
    stretched_axes,
    unstretch,
)


def boxes(w: float, h: float, n: int, score: float = 0.8) -> TileBoxes:
    xyxy = np.array([[k * (w + 2), 0, k * (w + 2) + w, h] for k in range(n)], np.float32)
    return TileBoxes(xyxy, np.full(n, score, np.float32), np.zeros(n, bool))


def test_ordinary_tiles_are_not_retried() -> None:
    assert stretched_axes(boxes(30, 40, 14)) == ()
    assert stretched_axes(boxes(40, 30, 14)) == ()  # sideways tiles
    assert stretched_axes(boxes(30, 55, 14)) == ()  # a 4:3 photo squeezed to a square


def test_slivers_name_their_axis_and_few_boxes_try_both() -> None:
    assert stretched_axes(boxes(20, 400, 12)) == ("y",)
    assert stretched_axes(boxes(400, 20, 12)) == ("x",)
    assert stretched_axes(boxes(30, 40, 2)) == ("x", "y")


def test_a_few_weak_boxes_of_ordinary_shape_try_both_axes() -> None:
    # a row strip's first pass may find only weak pieces that look like tiles: not enough to tell
    assert stretched_axes(boxes(30, 40, 5, score=0.45)) == ("x", "y")
    assert stretched_axes(boxes(30, 40, 3, score=0.5)) == ()
    mixed = boxes(30, 40, 6, score=0.45)
    mixed.score[:2] = 0.9
    assert stretched_axes(mixed) == ("x", "y")
    mixed.score[2] = 0.6
    assert stretched_axes(mixed) == ()


def test_shapes_are_judged_as_the_detector_sees_them() -> None:
    # pieces of slivers, 1.7 times as tall as wide in a 4:3 photo: 2.27 in the square input the photo is
    # stretched to (the shape the detector learned), so a sliver; a 4:3 photo's ordinary tiles (1.35)
    # become 1.8 there and stay tiles
    assert stretched_axes(boxes(30, 51, 6)) == ()
    assert stretched_axes(boxes(30, 51, 6), seen=4 / 3) == ("y",)
    assert stretched_axes(boxes(30, 40.5, 14), seen=4 / 3) == ()
    assert stretched_axes(boxes(50, 30, 6)) == ()
    assert stretched_axes(boxes(50, 30, 6), seen=3 / 4) == ("x",)  # a portrait photo: bars along x


def test_a_clearly_better_squeezed_pass_wins() -> None:
    asked: list[Squeeze] = []

    def detect(squeeze: Squeeze) -> TileBoxes:
        asked.append(squeeze)
        return boxes(20, 400, 12 if squeeze == ("y", 8.0) else 3, score=0.9)

    first = boxes(20, 400, 4, score=0.5)
    found, used = unstretch(first, detect)
    assert used == ("y", 8.0) and len(found) == 12
    assert asked == [("y", f) for f in FACTORS]  # only the slivers' axis is tried


def test_first_pass_kept_unless_clearly_beaten() -> None:
    first = boxes(20, 400, 5, score=0.6)  # mass 3.0; a squeezed pass needs 6.0

    def detect(squeeze: Squeeze) -> TileBoxes:
        return boxes(30, 40, 8, score=0.7)  # mass 5.6

    found, used = unstretch(first, detect)
    assert used is None and found is first


def lone_tile_and_its_parts() -> tuple[TileBoxes, TileBoxes]:
    """One big tile found weakly (200 x 250), and four slivers on its circles and edges."""
    tile = TileBoxes(
        np.array([[100, 100, 300, 350]], np.float32), np.array([0.45], np.float32), np.zeros(1, bool)
    )
    parts = np.array([[110 + k * 48, 105, 140 + k * 48, 345] for k in range(4)], np.float32)
    return tile, TileBoxes(parts, np.full(4, 0.55, np.float32), np.zeros(4, bool), ("y", 6.5))


def test_the_parts_of_a_lone_tile_do_not_win_a_squeezed_retry() -> None:
    tile, parts = lone_tile_and_its_parts()
    assert parts_of_tiles(parts, tile)
    found, used = unstretch(tile, lambda squeeze: parts)  # few sure boxes: both axes are tried
    assert used is None and found is tile
    # slivers of a stretched row over the first pass's weak pieces (none holding a sliver) still win
    pieces = TileBoxes(
        parts.xyxy[:, [0, 1, 2, 1]] + np.array([0, 0, 0, 60], np.float32),
        np.full(4, 0.1, np.float32),  # weak pieces of the slivers
        np.zeros(4, bool),
    )
    assert not parts_of_tiles(parts, pieces)
    found, used = unstretch(pieces, lambda squeeze: parts)
    assert used is not None and found is parts
    assert not parts_of_tiles(
        parts, TileBoxes(np.zeros((0, 4), np.float32), np.zeros(0, np.float32), np.zeros(0, bool))
    )


def test_ordinary_photo_costs_no_extra_pass() -> None:
    def detect(squeeze: Squeeze) -> TileBoxes:
        raise AssertionError("no squeezed pass for ordinary tiles")

    first = boxes(30, 40, 14)
    assert unstretch(first, detect) == (first, None)


def test_input_layout_of_plain_and_squeezed_passes() -> None:
    from recognizer.detector import SQUARE, input_layout

    # plain passes: the S x S input, the photo stretched to it or fitted keeping its aspect
    assert input_layout(640, 480, 384, SQUARE, None, True) == (384, 384, 384, 384)
    assert input_layout(640, 480, 384, 1.0, None, False) == (384, 288, 384, 384)
    # ... or its long side squeezed by at most a factor: a 16:9 photo keeps the rest of its aspect
    assert input_layout(640, 480, 384, 4 / 3, None, False) == (384, 384, 384, 384)
    assert input_layout(640, 360, 384, 4 / 3, None, False) == (384, 288, 384, 384)
    assert input_layout(360, 640, 384, 4 / 3, None, False) == (288, 384, 384, 384)
    assert input_layout(640, 360, 384, 1.2, None, False) == (384, 259, 384, 384)
    # squeezed 8x in height: a fixed-size detector keeps the grey S x S input ...
    assert input_layout(640, 640, 384, SQUARE, ("y", 8.0), False) == (384, 48, 384, 384)
    # ... one that takes any size gets an input cut to the photo, a multiple of 32
    assert input_layout(640, 640, 384, SQUARE, ("y", 8.0), True) == (384, 48, 384, 64)
    assert input_layout(640, 640, 384, SQUARE, ("x", 5.0), True) == (77, 384, 96, 384)


def test_seen_taller_is_the_stretch_the_detector_sees() -> None:
    from recognizer.detector import SQUARE, seen_taller

    assert seen_taller(640, 480, 1.0) == pytest.approx(1.0)
    assert seen_taller(640, 480, SQUARE) == pytest.approx(640 / 480, rel=0.01)
    assert seen_taller(480, 640, SQUARE) == pytest.approx(480 / 640, rel=0.01)
    assert seen_taller(640, 360, 4 / 3) == pytest.approx(4 / 3, rel=0.01)


def test_weak_face_down_boxes_do_not_count_when_passes_are_judged() -> None:
    """Two weak face-down boxes beside a stretched row's one face-up box must not hide the row: the
    retry for too few boxes still runs, and their scores do not raise the bar."""
    first = boxes(20, 40, 3, score=0.5)
    first.back[1:] = True  # face-down boxes scored 0.5, below the lock of 0.6

    def detect(squeeze: Squeeze) -> TileBoxes:
        return boxes(30, 40, 9 if squeeze == ("x", 5.0) else 1, score=0.9)

    assert unstretch(first, detect)[1] is None  # all three counted: ordinary shapes, no retry
    found, used = unstretch(first, detect, back_lock=0.6)
    assert used == ("x", 5.0) and len(found) == 9


def test_pieces_of_stretched_tiles_do_not_add_to_a_pass_s_confidence() -> None:
    # a squeezed pass along x: two whole bars, and one bar split into two pieces by too small a factor
    xyxy = np.array([[0, 0, 640, 48], [0, 50, 640, 98], [0, 100, 300, 148], [340, 100, 640, 148]], np.float32)
    squeezed = TileBoxes(xyxy, np.full(4, 0.5, np.float32), np.zeros(4, bool), ("x", 5.0))
    assert confidence_mass(squeezed) == pytest.approx(1.0)
    plain = TileBoxes(xyxy, squeezed.score, squeezed.back)  # the first pass: every box counts
    assert confidence_mass(plain) == pytest.approx(2.0)
    assert confidence_mass(TileBoxes(xyxy[:0], np.zeros(0, np.float32), np.zeros(0, bool), ("y", 5.0))) == 0


def test_only_square_photos_may_be_stretched() -> None:
    from recognizer.unstretch import may_be_stretched

    assert may_be_stretched(640, 640) and may_be_stretched(1000, 985) and may_be_stretched(985, 1000)
    assert not may_be_stretched(640, 480) and not may_be_stretched(480, 640)
    assert not may_be_stretched(4032, 3024) and not may_be_stretched(1000, 970)
    assert may_be_stretched(0, 0)  # nothing to tell: as before the check
