"""datasets/evaluate_external.py, external_riichi.py and external_crops.py: partial tiles ignored, failures
counted by kind, crops scored, absent folders skipped."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from datasets.evaluate_external import contact_sheet, main
from datasets.external_crops import Crop, CropTally, on_background
from datasets.external_riichi import (
    IGNORE,
    ExternalTally,
    class_names,
    photo_layout,
    read_riichi,
    riichi_code,
    shape_class,
    size_class,
)
from datasets.yolo import LABELS
from recognizer.detections import Detections

RIICHI_NAMES = ["0", "1_man", "1_pin", "1_sou", "chun", "haku", "hatsu", "nan", "pe-", "sya-", "ton"]


def found(boxes: list[list[float]], codes: list[str], confidence: list[float]) -> Detections:
    """Detections with these boxes, codes and confidences."""
    return Detections(
        np.array(boxes, np.float32),
        np.array(confidence, np.float32),
        np.array([LABELS.index(c) for c in codes]),
    )


def test_riichi_names_map_to_codes_and_partial_tiles_are_ignored(tmp_path: Path) -> None:
    yaml = tmp_path / "data.yaml"
    yaml.write_text(f"nc: {len(RIICHI_NAMES)}\nnames: {RIICHI_NAMES!r}\n\nroboflow:\n  version: 4\n")
    assert class_names(yaml) == RIICHI_NAMES
    codes = [riichi_code(n) for n in RIICHI_NAMES]
    assert codes[0] == IGNORE
    assert [LABELS[c] for c in codes[1:]] == ["1m", "1p", "1s", "7z", "5z", "6z", "2z", "4z", "3z", "1z"]
    with pytest.raises(ValueError, match="10_sou"):
        riichi_code("10_sou")


def test_one_photo_counts_each_kind_of_failure() -> None:
    truth = np.array(
        [[100, 100, 140, 160], [150, 100, 190, 160], [200, 100, 240, 160], [300, 100, 330, 160]], np.float32
    )
    labels = np.array([LABELS.index("1m"), LABELS.index("2p"), LABELS.index("3s"), IGNORE])
    tiles = found(
        [
            [101, 101, 141, 161],  # tile 0, right
            [150, 100, 190, 160],  # tile 1, misread as 4p
            [103, 100, 143, 160],  # tile 0 again, less sure: a duplicate
            [300, 100, 330, 160],  # on the partial tile: ignored
            [400, 10, 440, 70],  # above every tile (the shelf), tile-sized
            [215, 100, 255, 160],  # tile 2, but IoU 0.45: tile 2 missed, this box off a tile
        ],
        ["1m", "4p", "1m", "9m", "5z", "3s"],
        [0.9, 0.8, 0.7, 0.9, 0.6, 0.9],
    )
    tally = ExternalTally()
    score = tally.add("photo", tiles, truth, labels, height=360)
    assert (score.truth, score.found, score.right, score.misread, score.missed) == (3, 5, 1, 1, 1)
    assert (score.false_boxes, score.ignored, score.errors, score.all_right) == (3, 1, 5, False)
    assert tally.false_boxes == {
        "duplicate": 1,
        "off a tile": 1,
        "above every tile, at most 1.5x a tile's height": 1,
    }
    assert tally.misses == {"box off (IoU 0.1-0.5)": 1}
    s = tally.summary()
    assert s["detection_precision"] == pytest.approx(2 / 5, abs=1e-4)
    assert s["detection_recall"] == pytest.approx(2 / 3, abs=1e-4)
    assert s["tile_f1"] == pytest.approx(2 / 8, abs=1e-4)
    assert s["ignored_predictions_on_partial_tiles"] == 1 and s["photos_all_right"] == 0
    assert s["confusions"] == [{"truth": "2p", "read": "4p", "count": 1}]
    assert {r["code"]: r["recall"] for r in s["per_code_recall"]} == {"1m": 1.0, "2p": 0.0, "3s": 0.0}
    assert s["by_size"] == {"60-70 px": {"right": 1, "misread": 1, "missed": 1}}  # 60 px high at 360
    assert s["by_layout"] == {"one row": {"right": 1, "misread": 1, "missed": 1}}


def test_a_prediction_matched_to_a_real_tile_is_never_ignored() -> None:
    truth = np.array([[100, 100, 140, 160], [100, 100, 140, 160]], np.float32)  # a partial box on a tile
    labels = np.array([LABELS.index("5z"), IGNORE])
    tally = ExternalTally()
    score = tally.add("photo", found([[100, 100, 140, 160]], ["5z"], [0.9]), truth, labels, height=360)
    assert score.all_right and score.ignored == 0
    assert tally.summary()["photos_all_right"] == 1


def test_an_empty_photo_and_nothing_found() -> None:
    tally = ExternalTally()
    truth = np.array([[10, 10, 50, 70]], np.float32)
    score = tally.add("photo", Detections.empty(), truth, np.array([0]), height=360)
    assert score.missed == 1 and tally.misses == {"no box near": 1}
    assert tally.add(
        "blank", Detections.empty(), np.zeros((0, 4), np.float32), np.zeros(0, int), 360
    ).all_right


def test_size_shape_and_layout_classes() -> None:
    assert [size_class(h) for h in (40, 50, 65, 90)] == ["<50 px", "50-60 px", "60-70 px", ">=70 px"]
    upright = np.array([0, 0, 40, 60], np.float32)
    assert shape_class(upright, 1.0) == "upright"
    # in the stored 640x640 photo (width scale / height scale = 0.5625 of the 16:9 photo's) a 40x60 box is
    # a 71x60 box as taken: lying
    assert shape_class(upright, 0.5625) == "lying"
    assert shape_class(np.array([0, 0, 50, 52], np.float32), 1.0) == "squarish"
    row = np.array([[100 + 45 * k, 100 + 2 * k, 140 + 45 * k, 160 + 2 * k] for k in range(6)], np.float32)
    assert photo_layout(row) == "one row"
    scattered = row.copy()
    scattered[2] += [0, 80, 0, 80]  # one tile stands in front of the others
    assert photo_layout(scattered) == "scattered"


def test_crop_tally_counts_flowers_and_seasons_and_lists_misses(tmp_path: Path) -> None:
    tally = CropTally()
    f1, y2, p7 = (LABELS.index(c) for c in ("1f", "2y", "7p"))
    tally.add(Crop(tmp_path / "a.jpg", f1, "bonus-plum"), f1, 0.9)
    tally.add(Crop(tmp_path / "b.jpg", y2, "bonus-summer"), LABELS.index("3y"), 0.6)
    tally.add(Crop(tmp_path / "c.jpg", p7, "dot-7"), None, 0.0)
    s = tally.summary()
    assert (s["crops"], s["right"], s["flowers_seasons"], s["flowers_seasons_right"]) == (3, 1, 2, 1)
    assert [(m["code"], m["read_as"]) for m in s["misses"]] == [("2y", "3y"), ("7p", "nothing")]


def test_a_crop_on_its_background_keeps_its_pixels() -> None:
    crop = np.full((100, 60, 3), 200, np.uint8)
    canvas, box = on_background(crop)
    assert canvas.shape == (250, 333, 3)
    x0, y0, x1, y1 = (int(v) for v in box)
    assert (x1 - x0, y1 - y0) == (60, 100)
    assert (canvas[y0:y1, x0:x1] == 200).all() and (canvas[0, 0] == 120).all()


def _riichi_fixture(root: Path) -> None:
    """A riichi-rows-like folder: two 640x640 photos stretched from 640x360 with fake tiles (the fake
    detector's boxes are 100x160 pixels of the 640x360 photo); photo 0 has a tile labelled partial, photo 1
    an unlabelled tile (three tiles each: with two, the fake boxes look stretched and the runtime retries)."""
    from fake_models import code_for, draw_tile

    names = ["0", *(f"{n}_man" for n in range(1, 10))]
    root.mkdir(parents=True)
    (root / "data.yaml").write_text(f"nc: 10\nnames: {names!r}\n")
    for split in ("train", "valid"):
        (root / split / "images").mkdir(parents=True)
        (root / split / "labels").mkdir()
    layouts = [
        [(40, 1.0, "tile"), (200, 0.5, "tile"), (360, 0.0, "tile"), (520, 1.0, "partial")],
        [(40, 0.5, "tile"), (200, 1.0, "tile"), (360, 1.0, "unlabelled")],
    ]
    for k, (split, tiles) in enumerate(zip(("train", "valid"), layouts, strict=True)):
        rgb = np.zeros((360, 640, 3), np.uint8)
        lines = []
        for x, level, kind in tiles:
            draw_tile(rgb, (x, 100, x + 100, 260), level, level)
            cls = 0 if kind == "partial" else int(code_for(level, level)[0])
            if kind != "unlabelled":
                lines.append(f"{cls} {(x + 50) / 640} {180 / 360} {100 / 640} {160 / 360}")
        stretched = Image.fromarray(rgb).resize((640, 640), Image.Resampling.NEAREST)
        stretched.save(root / split / "images" / f"photo{k}_png.rf.x.jpg", quality=95)
        (root / split / "labels" / f"photo{k}_png.rf.x.txt").write_text("\n".join(lines) + "\n")


def test_main_runs_the_real_pipeline_on_both_sets(tmp_path: Path) -> None:
    """The whole evaluator on tiny fixtures with the hand-made ONNX models (tests/fake_models.py)."""
    from fake_models import code_for, draw_tile, write_fake_models

    models = write_fake_models(tmp_path / "models")
    riichi = tmp_path / "riichi"
    _riichi_fixture(riichi)
    assert [len(s.labels) for s in read_riichi(riichi)] == [4, 2]
    crops = tmp_path / "crops"
    (crops / "images").mkdir(parents=True)
    rows = ["file,code,source_label"]
    for k, level in enumerate((0.5, 1.0)):
        rgb = np.zeros((96, 60, 3), np.uint8)
        draw_tile(rgb, (0, 0, 60, 96), level, level)
        Image.fromarray(rgb).save(crops / "images" / f"{k}.png")
        rows.append(f"images/{k}.png,{code_for(level, level)},fake")
    rows.append(f"images/1.png,{code_for(0.5, 0.5)},wrong on purpose")
    (crops / "labels.csv").write_text("\n".join(rows) + "\n")
    out, vis = tmp_path / "external.json", tmp_path / "vis"
    argv = ["--riichi-rows", str(riichi), "--hk-crops", str(crops), "--models", str(models)]
    argv += ["--views", "640x360", "--vis", str(vis), "--json", str(out)]
    assert main(argv) == 0
    result = json.loads(out.read_text())
    view = result["riichi_rows"]["views"]["640x360"]
    assert (view["photos"], view["truth_tiles"], view["found_tiles"]) == (2, 5, 6)
    assert view["ignored_predictions_on_partial_tiles"] == 1
    assert view["tile_recall"] == 1.0 and view["tile_precision"] == pytest.approx(5 / 6, abs=1e-4)
    assert view["photos_all_right"] == 1
    assert view["false_boxes"] == {"no tile near, among or below the tiles": 1}
    crop_result = result["hk_tile_crops"]["classifier (crop = box, runtime pad)"]
    assert (crop_result["crops"], crop_result["right"], crop_result["flowers_seasons"]) == (3, 2, 0)
    assert [m["read_as"] for m in crop_result["misses"]] == [code_for(1.0, 1.0)]
    assert result["hk_tile_crops"]["single-tile photo (plain background)"]["crops"] == 3
    # the worst photos of each layout annotated (both fixture photos are one row); the misread crops' sheet
    assert sorted(p.name for p in vis.glob("*.png")) == [
        "hk_single_tile_misses.png",
        "one_row_01_photo1.png",
        "one_row_02_photo0.png",
    ]


def test_single_tile_photos_are_read_by_the_whole_pipeline(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A lone fake tile on the background, sized so the fake detector's fixed box fits it; the squeezed
    retry and the zoomed search are off (in the fake world they find a lone tile in pieces; the real run keeps
    them on)."""
    from fake_models import code_for, draw_tile, write_fake_models

    import datasets.external_crops as external
    from recognizer import Recognizer, Settings

    monkeypatch.setattr(external, "TILE_SHARE", 1 / 3)  # the tile 32 of the letterboxed 96 input rows
    recognizer = Recognizer(
        write_fake_models(tmp_path / "models"), settings=Settings(unstretch=False, zoom_small_tiles=False)
    )
    crops = []
    for k, level in enumerate((0.5, 1.0)):
        rgb = np.zeros((96, 60, 3), np.uint8)
        draw_tile(rgb, (0, 0, 60, 96), level, level)
        Image.fromarray(rgb).save(tmp_path / f"{k}.png")
        crops.append(Crop(tmp_path / f"{k}.png", LABELS.index(code_for(level, level)), "fake"))
    crops.append(Crop(tmp_path / "1.png", LABELS.index("1f"), "labelled a flower on purpose"))
    results = external.evaluate_crops(recognizer, crops)
    photo = results["single-tile photo (plain background)"]
    assert (photo.crops, photo.found, photo.exact, photo.right, photo.extra_boxes) == (3, 3, 2, 2, 0)
    assert (photo.fs_crops, photo.fs_right) == (1, 0)
    assert results["classifier (crop = box, runtime pad)"].right == 2


def test_contact_sheet_lays_out_four_to_a_row() -> None:
    views = [(f"view {k}", np.full((100, 80, 3), 10 * (k + 1), np.uint8)) for k in range(5)]
    sheet = contact_sheet(views, cell=(40, 30))
    assert sheet.shape == (60, 160, 3)
    assert (sheet[30:, 40:] == 0).all() and (sheet[30:, :40] > 0).any()  # one view on the second row


def test_absent_folders_are_skipped_with_a_reason(tmp_path: Path) -> None:
    from fake_models import write_fake_models

    models = write_fake_models(tmp_path / "models")
    out = tmp_path / "external.json"
    argv = [
        "--riichi-rows",
        str(tmp_path / "none"),
        "--hk-crops",
        str(tmp_path / "none"),
        "--models",
        str(models),
        "--json",
        str(out),
    ]
    assert main(argv) == 0
    result = json.loads(out.read_text())
    assert "no data.yaml" in result["riichi_rows"]["skipped"]
    assert "no labels.csv" in result["hk_tile_crops"]["skipped"]
