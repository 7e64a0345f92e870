"""Row strips (a run of one row stretched to a square) and crops of the tall slivers they make."""

from __future__ import annotations

from argparse import Namespace
from pathlib import Path

import numpy as np
import pytest

from datasets.row_strip import long_strip, quarter_turn, row_members, row_strip
from datasets.tile_crops import crop_tile


def row_photo() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A 640x640 grey photo with one row of 12 tiles (each a different shade) and a tile below it."""
    img = np.full((640, 640, 3), 40, dtype=np.uint8)
    boxes = []
    for k in range(12):
        x0 = 20 + 50 * k
        img[300:364, x0 : x0 + 46] = 100 + 12 * k
        boxes.append([x0, 300, x0 + 46, 364])
    img[500:564, 100:146] = 250
    boxes.append([100, 500, 146, 564])
    return img, np.array(boxes, dtype=np.float32), np.arange(13, dtype=np.int64)


def test_row_members_are_the_tiles_of_the_anchors_row_left_to_right() -> None:
    _, boxes, _ = row_photo()
    assert row_members(boxes, 5).tolist() == list(range(12))
    assert row_members(boxes, 12).tolist() == [12]


@pytest.mark.parametrize("seed", range(8))
def test_strip_boxes_still_cover_their_own_tiles(seed: int) -> None:
    img, boxes, labels = row_photo()
    made = row_strip(img, boxes, labels, np.random.default_rng(seed))
    assert made is not None
    out, out_boxes, out_labels = made
    assert out.shape == (640, 640, 3)
    assert len(out_boxes) == len(out_labels) > 0
    assert (out_boxes >= -1e-3).all() and (out_boxes <= 640 + 1e-3).all()
    for box, lab in zip(out_boxes, out_labels, strict=True):
        x0, y0, x1, y1 = box.round().astype(int)
        centre = out[(y0 + y1) // 2, (x0 + x1) // 2].astype(int)
        expected = 250 if lab == 12 else 100 + 12 * lab
        assert abs(int(centre[0]) - expected) <= 3  # the box still sits on its own tile


def test_row_strips_make_tall_slivers() -> None:
    img, boxes, labels = row_photo()
    ratios = []
    for seed in range(30):
        made = row_strip(img, boxes, labels, np.random.default_rng(seed))
        assert made is not None
        b = made[1]
        w, h = b[:, 2] - b[:, 0], b[:, 3] - b[:, 1]
        ratios.append(float(np.median(np.maximum(w, h) / np.minimum(w, h))))
    assert max(ratios) > 5  # like the stretched valid photos (tiles up to 1:15)


def test_photo_with_too_few_tiles_gives_no_strip() -> None:
    img, boxes, labels = row_photo()
    assert row_strip(img, boxes[:2], labels[:2], np.random.default_rng(0)) is None


@pytest.mark.parametrize("clockwise", [True, False])
def test_quarter_turn_moves_boxes_with_the_pixels(clockwise: bool) -> None:
    img = np.zeros((100, 160, 3), dtype=np.uint8)
    img[10:30, 120:150] = 255
    turned, [box] = quarter_turn(img, np.array([[120, 10, 150, 30]], dtype=np.float32), clockwise)
    assert turned.shape == (160, 100, 3)
    x0, y0, x1, y1 = box.astype(int)
    assert (turned[y0:y1, x0:x1] == 255).all()
    assert turned.sum() == img.sum()


def test_crop_of_a_tall_sliver_keeps_its_width_detail() -> None:
    # a 40x600 tile with 4 px vertical stripes: the crop shrinks its height 10x but must not blur its width
    img = np.full((640, 100, 3), 128, dtype=np.uint8)
    stripes = (np.arange(40) // 4 % 2 * 255).astype(np.uint8)
    img[20:620, 30:70] = stripes[None, :, None]
    crop = crop_tile(img, np.array([30, 20, 70, 620], dtype=np.float32))
    middle = crop[20:44, 8:40, 0].astype(int)
    assert middle.max() - middle.min() > 150


@pytest.mark.parametrize("seed", range(40))
def test_any_layout_gives_a_strip_with_boxes_inside(seed: int) -> None:
    # scattered tiles of any size, big ones included (a close-up): never an error, boxes inside the strip
    rng = np.random.default_rng(seed)
    w, h = int(rng.integers(200, 900)), int(rng.integers(200, 900))
    img = rng.integers(0, 255, (h, w, 3), dtype=np.uint8)
    n = int(rng.integers(3, 20))
    x0, y0 = rng.uniform(0, w - 20, n), rng.uniform(0, h - 20, n)
    bw, bh = rng.uniform(10, w, n), rng.uniform(10, h, n)
    boxes = np.stack([x0, y0, np.minimum(x0 + bw, w), np.minimum(y0 + bh, h)], 1).astype(np.float32)
    made = row_strip(img, boxes, np.arange(n), rng, size=320)
    assert made is not None
    out, out_boxes, out_labels = made
    assert out.shape == (320, 320, 3) and len(out_boxes) == len(out_labels)
    assert (out_boxes >= -1e-3).all() and (out_boxes <= 320 + 1e-3).all()


def test_long_strip_joins_rows_of_several_photos_into_one_row() -> None:
    img, boxes, labels = row_photo()
    photos = [(img, boxes[k : k + 4], labels[k : k + 4]) for k in (0, 4, 8)]  # three 4-tile rows
    made = long_strip(photos, np.random.default_rng(1), size=640, tiles=(12, 12))
    assert made is not None
    out, out_boxes, out_labels = made
    assert len(out_labels) >= 9  # runs of at least three tiles from each photo, in one image
    for box, lab in zip(out_boxes, out_labels, strict=True):
        x0, y0, x1, y1 = box.round().astype(int)
        assert abs(int(out[(y0 + y1) // 2, (x0 + x1) // 2, 0]) - (100 + 12 * lab)) <= 3


def test_long_strip_needs_a_clean_row() -> None:
    img, boxes, labels = row_photo()
    scattered = boxes[[0, 12]]  # one tile of the row and the one below it: no row of three
    assert long_strip([(img, scattered, labels[[0, 12]])], np.random.default_rng(0)) is None


def test_detector_batches_hold_targets_for_a_window_and_for_a_strip() -> None:
    pytest.importorskip("torch", reason="torch is a training extra ('.[train]')")
    from datasets.train_detector import detector_batch
    from datasets.yolo import Sample

    img = np.full((640, 640, 3), 60, np.uint8)
    boxes = np.array([[100 + 60 * k, 300, 150 + 60 * k, 370] for k in range(6)], np.float32)
    for x0, y0, x1, y1 in boxes.astype(int):
        img[y0:y1, x0:x1] = 235
    sample = Sample(image=Path("unused.jpg"), boxes=boxes, labels=np.arange(6), width=640, height=640)
    args = Namespace(size=384, window=256, back_prob=0.0, turn_prob=0.0)
    for strip, side in ((False, 256), (True, 384)):
        x, heat, batch_index, centres, sizes, offsets = detector_batch(
            [img, img], [sample, sample], (strip, [0, 1]), np.random.default_rng(2), args
        )
        assert tuple(x.shape) == (2, 3, side, side) and heat.shape[0] == 2
        assert len(batch_index) == len(centres) == len(sizes) == len(offsets) > 0
        assert set(batch_index.tolist()) <= {0, 1}
