"""datasets/evaluate.py: the metrics count what they claim, and the 12 MP variants keep truth aligned."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from datasets.evaluate import VARIANTS, Tally, main, match
from datasets.yolo import BACK, LABELS
from recognizer import load_image

TRUTH = np.array([[10, 10, 50, 66], [60, 10, 100, 66], [110, 10, 150, 66]], np.float32)
CODES = np.array([0, 1, 2])


def test_perfect_photo_counts_everything_right() -> None:
    tally = Tally()
    assert tally.add(TRUTH + 2, CODES, np.ones(3), TRUTH, CODES)
    s = tally.summary()
    assert (
        s["tile_precision"] == s["tile_recall"] == s["photos_all_right"] == s["photos_le_18_all_right"] == 1.0
    )


def test_wrong_code_extra_box_and_miss() -> None:
    tally = Tally()
    found = np.array([[10, 10, 50, 66], [60, 10, 100, 66], [300, 300, 340, 356]], np.float32)
    assert not tally.add(found, np.array([0, 5, 2]), np.array([0.9, 0.8, 0.7]), TRUTH, CODES)
    s = tally.summary()
    assert s["detection_precision"] == pytest.approx(2 / 3, abs=1e-3) and s[
        "detection_recall"
    ] == pytest.approx(2 / 3, abs=1e-3)
    assert s["tile_precision"] == pytest.approx(1 / 3, abs=1e-3) and s["tile_recall"] == pytest.approx(
        1 / 3, abs=1e-3
    )
    assert s["classification_accuracy"] == 0.5 and s["photos_all_right"] == 0.0
    assert tally.confusions == {(1, 5): 1}
    assert tally.per_class_table()[0]["code"] == "2m"


def test_flag_curve_counts_misreads_and_false_boxes_below_each_mark() -> None:
    tally = Tally()
    found = np.array(
        [[10, 10, 50, 66], [60, 10, 100, 66], [110, 10, 150, 66], [300, 300, 340, 356]], np.float32
    )
    # right and sure, misread and unsure, misread but sure, a false box fairly unsure
    tally.add(found, np.array([0, 5, 7, 2]), np.array([0.97, 0.4, 0.85, 0.65]), TRUTH, CODES)
    curve = {row["below"]: row for row in tally.flag_curve((0.5, 0.7, 0.9, 0.99))}
    assert curve[0.5] == {
        "below": 0.5,
        "flagged": 0.25,
        "flagged_wrong": 1.0,
        "misreads_flagged": pytest.approx(1 / 3, abs=1e-3),
    }
    assert curve[0.7]["flagged"] == 0.5 and curve[0.7]["misreads_flagged"] == pytest.approx(2 / 3, abs=1e-3)
    assert curve[0.9]["misreads_flagged"] == 1.0 and curve[0.9]["flagged_wrong"] == 1.0
    assert curve[0.99]["flagged"] == 1.0 and curve[0.99]["flagged_wrong"] == 0.75
    assert Tally().flag_curve((0.6,)) == [
        {"below": 0.6, "flagged": 0.0, "flagged_wrong": 0.0, "misreads_flagged": 0.0}
    ]


def test_a_hand_with_its_codes_right_but_a_box_off_counts_only_as_codes_right() -> None:
    tally = Tally()
    off = TRUTH.copy()
    off[2] += [25, 0, 25, 0]  # the third box slid over half a tile: IoU under 0.5
    assert not tally.add(off, CODES, np.ones(3), TRUTH, CODES)
    tally.add(TRUTH, np.array([0, 1, 1]), np.ones(3), TRUTH, CODES)  # a code wrong: neither
    s = tally.summary()
    assert s["photos_le_18_all_right"] == 0.0
    assert s["photos_le_18_codes_right"] == s["photos_codes_right"] == 0.5


def test_face_down_tiles_are_counted_on_their_own() -> None:
    tally = Tally()
    truth_codes = np.array([0, BACK, BACK])
    found_codes = np.array([BACK, BACK, 3])  # a face-up tile called back, one back right, one back missed
    tally.add(TRUTH, found_codes, np.ones(3), TRUTH, truth_codes)
    s = tally.summary()
    assert (s["truth_backs"], s["found_backs"]) == (2, 2)
    assert s["back_precision"] == 0.5 and s["back_recall"] == 0.5


def test_match_is_one_to_one() -> None:
    twice = np.array([[10, 10, 50, 66], [11, 10, 51, 66]], np.float32)
    assert match(twice, np.array([0.5, 0.9]), TRUTH[:1]) == [(1, 0)]


def test_variants_keep_boxes_on_the_same_content() -> None:
    rgb = np.zeros((64, 64, 3), np.uint8)
    rgb[16:32, 8:24] = (255, 0, 0)
    box = np.array([[8, 16, 24, 32]], np.float32)
    sizes = {}
    for name, variant in VARIANTS.items():
        data, truth = variant(rgb, box)
        image = load_image(data)
        sizes[name] = (image.width, image.height)
        x0, y0, x1, y1 = (round(float(v) * image.scale) for v in truth[0])  # truth is in original pixels
        qx, qy = (x1 - x0) // 4, (y1 - y0) // 4
        inside = image.rgb[y0 + qy : y1 - qy, x0 + qx : x1 - qx]  # the middle of the red block
        assert inside[..., 0].min() > 200 and inside[..., 1].max() < 60, name
    assert sizes == {"12mp-4032x3024": (4032, 3024), "12mp-3024x4032-exif6": (4032, 3024),
                     "wide-4032x2268": (4032, 2268), "square-3464x3464": (3464, 3464)}  # fmt: skip


def test_subsets_separate_row_strips_and_placeholder_labels() -> None:
    from pathlib import Path

    from datasets.evaluate import SUBSETS
    from datasets.yolo import Sample

    slivers = np.array([[20 + 40 * k, 0, 55 + 40 * k, 640] for k in range(12)], np.float32)
    row_strip = Sample(Path("strip.jpg"), slivers, np.arange(12), 640, 640)
    placeholder = Sample(Path("all1p.jpg"), np.repeat(TRUTH, 4, axis=0), np.full(12, 9), 640, 640)
    ordinary = Sample(Path("hand.jpg"), TRUTH, CODES, 640, 640)
    clean, strips, plain = SUBSETS.values()
    assert [clean(s) for s in (row_strip, placeholder, ordinary)] == [True, False, True]
    assert [strips(s) for s in (row_strip, placeholder, ordinary)] == [True, False, False]
    assert [plain(s) for s in (row_strip, placeholder, ordinary)] == [False, False, True]


def test_synthetic_scenes_are_scored_with_face_down_tiles(tmp_path: Path) -> None:
    """`evaluate --skip-valid --scenes DIR`: the real pipeline (hand-made ONNX models, tests/fake_models.py)
    on a YOLO folder of scenes with face-up and face-down tiles; no valid split needed."""
    from fake_models import code_for, draw_tile, write_fake_models

    models = write_fake_models(tmp_path / "models")
    scenes = tmp_path / "scenes"
    (scenes / "images").mkdir(parents=True)
    (scenes / "labels").mkdir()
    tiles = [(16, 40, 1.0, False), (64, 40, 0.5, False), (112, 40, 0.0, True), (160, 40, 0.0, True)]
    for k in range(2):
        rgb = np.zeros((192, 256, 3), np.uint8)
        lines = []
        for x, y, level, back in tiles[: 3 + k]:  # scene 1 holds a pair of face-down tiles
            draw_tile(rgb, (x, y, x + 40, y + 56), level, level, back)  # the fake models' tile size
            code = BACK if back else LABELS.index(code_for(level, level))
            lines.append(f"{code} {(x + 20) / 256} {(y + 28) / 192} {40 / 256} {56 / 192}")
        Image.fromarray(rgb).save(scenes / "images" / f"scene_{k}.jpg", quality=95)
        (scenes / "labels" / f"scene_{k}.txt").write_text("\n".join(lines) + "\n")
    out = tmp_path / "eval.json"
    argv = ["--data", str(tmp_path / "none"), "--models", str(models), "--skip-valid",
            "--scenes", str(scenes), "--scenes-from", "0", "--json", str(out)]  # fmt: skip
    assert main(argv) == 0
    result = json.loads(out.read_text())["scenes"]["as generated"]
    assert result["photos"] == 2 and result["truth_backs"] == 3
    assert result["tile_precision"] == result["tile_recall"] == 1.0
    assert result["back_precision"] == result["back_recall"] == 1.0
    assert main([*argv[:-2], "--scenes-from", "5"]) == 2  # nothing left after skipping: a clear error
