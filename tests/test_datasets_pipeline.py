"""The training data pipeline: label parsing (incl. the export's glued records), class mapping, crops."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from datasets.tile_crops import CROP_H, CROP_W, crop_tile, random_crop
from datasets.yolo import LABELS, dataset_name_to_code, parse_label_line, read_folder


def test_dataset_classes_map_to_tile_codes() -> None:
    assert dataset_name_to_code("sc3") == "3m"
    assert dataset_name_to_code("sd9") == "9p"
    assert dataset_name_to_code("sb1") == "1s"
    assert dataset_name_to_code("hwn") == "4z"
    assert dataset_name_to_code("hdr") == "7z"
    assert dataset_name_to_code("bf2") == "2f"
    assert dataset_name_to_code("bs4") == "4y"
    assert len(LABELS) == 43 and LABELS[-1] == "back"


def test_plain_box_line() -> None:
    assert parse_label_line("33 0.2375 0.4796875 0.15625 0.1484375") == [
        (33, [0.2375, 0.4796875, 0.15625, 0.1484375])
    ]


def test_glued_records_are_split_at_the_lost_newline() -> None:
    # "0.17511" is the height 0.175 (on the 1/640 grid) followed by the next record's class 11
    line = "30 0.45625 0.40078125 0.175 0.17511 0.70205 0.76837 0.31922 0.31488"
    got = parse_label_line(line)
    assert [c for c, _ in got] == [30, 11]
    assert got[0][1] == [0.45625, 0.40078125, 0.175, 0.175]


def test_closed_polygon_becomes_its_bounding_box() -> None:
    got = parse_label_line("28 0.2 0.5 0.1 0.5 0.1 0.6 0.2 0.6 0.2 0.5")
    assert len(got) == 1
    cls, (cx, cy, w, h) = got[0]
    assert cls == 28
    assert (cx, cy, w, h) == pytest.approx((0.15, 0.55, 0.1, 0.1))


def test_read_folder_identity_classes(tmp_path: Path) -> None:
    from PIL import Image

    (tmp_path / "images").mkdir()
    (tmp_path / "labels").mkdir()
    Image.new("RGB", (200, 100)).save(tmp_path / "images" / "a.jpg")
    (tmp_path / "labels" / "a.txt").write_text("42 0.5 0.5 0.1 0.2\n")
    [s] = read_folder(tmp_path)
    assert (s.width, s.height) == (200, 100)
    assert LABELS[int(s.labels[0])] == "back"
    np.testing.assert_allclose(s.boxes[0], [90, 40, 110, 60])


def test_landscape_box_is_turned_to_portrait_crop() -> None:
    img = np.zeros((100, 200, 3), dtype=np.uint8)
    img[40:60, 50:100] = 255  # left half of a landscape box is white
    crop = crop_tile(img, np.array([50, 40, 150, 60], dtype=np.float32), pad=0.0)
    assert crop.shape == (CROP_H, CROP_W, 3)
    # turned clockwise: the box's left half ends up in the crop's top half
    assert crop[: CROP_H // 2 - 2].mean() > 200 and crop[CROP_H // 2 + 2 :].mean() < 50


def test_random_crop_shape_and_determinism() -> None:
    img = np.random.default_rng(0).integers(0, 255, (120, 160, 3), dtype=np.uint8)
    box = np.array([30, 20, 90, 100], dtype=np.float32)
    a = random_crop(img, box, np.random.default_rng(5))
    b = random_crop(img, box, np.random.default_rng(5))
    assert a.shape == (CROP_H, CROP_W, 3)
    assert np.array_equal(a, b)


def test_synthetic_scene_boxes_lie_inside_and_name_real_labels() -> None:
    pytest.importorskip("cairosvg")
    from datasets.synthetic import ARTWORK_DIR, render_faces, scene, svg_code

    if not ARTWORK_DIR.is_dir():
        pytest.skip("FluffyStuff artwork not present")
    assert svg_code("Man5-Dora") == "5m" and svg_code("Chun") == "7z" and svg_code("Back") is None
    art = render_faces(width=60, kmahjongg=False)
    assert len(art.faces) == 34 and not art.uniform  # the CC0 riichi set alone: no flowers or seasons
    img, boxes = scene(art, np.random.default_rng(1), (320, 240))
    assert img.shape == (240, 320, 3) and img.dtype == np.uint8
    assert boxes, "a scene holds tiles"
    for label, x0, y0, x1, y1 in boxes:
        assert 0 <= label < len(LABELS)
        assert 0 <= x0 < x1 <= 320 and 0 <= y0 < y1 <= 240
