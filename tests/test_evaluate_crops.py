"""The classifier alone on the truth boxes of a scene folder (datasets/evaluate_crops.py), with the fake
models of tests/fake_models.py: shares right by artwork, family and size, confusions, and with the
not-a-tile output the tiles and mined negatives it rejects."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np

from datasets.evaluate_crops import main, report, size_band
from datasets.evaluate_world import scene_kinds
from datasets.mine_negatives import NEGATIVES_FILE
from datasets.yolo import LABELS
from recognizer.pipeline import Recognizer
from tests.fake_models import code_for, draw_tile, write_fake_models


def scene_folder(root: Path) -> Path:
    """Two scenes of fake tiles: one of artwork "a" (2 tiles, both labelled right), one of artwork "b"
    (2 tiles, one labelled as another code than it shows); a red-and-blue patch in b is no tile."""
    (root / "images").mkdir(parents=True)
    (root / "labels").mkdir()
    kinds = {}
    left, right = (40, 40, 80, 104), (120, 40, 160, 104)
    scenes = (
        ("s0", "a", [(left, 1.0, 1.0, code_for(1.0, 1.0)), (right, 0.0, 0.5, code_for(0.0, 0.5))]),
        ("s1", "b", [(left, 0.5, 0.0, code_for(0.5, 0.0)), (right, 1.0, 0.0, "9p")]),
    )
    for name, artwork, tiles in scenes:
        rgb = np.zeros((160, 240, 3), np.uint8)  # black: the fake not-a-tile reads blue in a crop
        lines = []
        for (x0, y0, x1, y1), top, bottom, label in tiles:
            draw_tile(rgb, (x0, y0, x1, y1), top, bottom)
            cx, cy, w, h = (x0 + x1) / 480, (y0 + y1) / 320, (x1 - x0) / 240, (y1 - y0) / 160
            lines.append(f"{LABELS.index(label)} {cx} {cy} {w} {h}")
        if name == "s1":
            rgb[40:104, 180:220] = (255, 0, 128)
        cv2.imwrite(str(root / "images" / f"{name}.jpg"), cv2.cvtColor(rgb, cv2.COLOR_RGB2BGR))
        (root / "labels" / f"{name}.txt").write_text("\n".join(lines) + "\n")
        kinds[name] = {"kind": "flat_rows", "artwork": artwork}
    (root / "kinds.json").write_text(json.dumps(kinds))
    (root / NEGATIVES_FILE).write_text(json.dumps({"boxes": {"s1": [[180, 40, 220, 104]]}}))
    return root


def kinds_of(folder: Path) -> dict[str, dict[str, str]]:
    kinds = scene_kinds(folder, "test")
    assert kinds is not None
    return kinds


def test_shares_by_artwork_family_and_size(tmp_path: Path) -> None:
    folder = scene_folder(tmp_path / "scenes")
    out = report(folder, kinds_of(folder), Recognizer(write_fake_models(tmp_path / "models"), 1), None)
    assert out["all"] == {"crops": 4, "right": 0.75}
    assert out["artwork a"]["right"] == 1.0 and out["artwork b"]["right"] == 0.5
    assert out["family characters"] == {"crops": 3, "right": 1.0}
    assert out["family circles"] == {"crops": 1, "right": 0.0}
    assert out[f"size {size_band(40)}"]["crops"] == 4
    assert out["confusions"] == [f"9p->{code_for(1.0, 0.0)} x1"]
    assert out["mined negatives read as no tile"] == {"crops": 1, "right": 0.0}  # no such output: kept
    assert out["tiles read as no tile"] == {"crops": 4, "right": 0.0}


def test_the_not_a_tile_output_rejects_the_mined_negative(tmp_path: Path) -> None:
    folder = scene_folder(tmp_path / "scenes")
    fake = write_fake_models(tmp_path / "models", not_a_tile=True)
    out = report(folder, kinds_of(folder), Recognizer(fake, 1), None)
    assert out["mined negatives read as no tile"] == {"crops": 1, "right": 1.0}
    assert out["tiles read as no tile"]["right"] == 0.0
    assert out["all"]["right"] == 0.75


def test_a_folder_without_kinds_is_refused(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    assert main([str(tmp_path)]) == 2
    assert "no kinds.json" in capsys.readouterr().err


def test_size_bands() -> None:
    assert [size_band(v) for v in (12, 16, 30, 40)] == ["a <16 px", "b 16-24 px", "c 24-40 px", "d >=40 px"]


def test_flowers_and_seasons_are_also_reported_by_artwork(tmp_path: Path) -> None:
    folder = scene_folder(tmp_path / "scenes")
    labels = folder / "labels" / "s1.txt"
    labels.write_text(labels.read_text().replace(f"{LABELS.index('9p')} ", f"{LABELS.index('1f')} ", 1))
    out = report(folder, kinds_of(folder), Recognizer(write_fake_models(tmp_path / "models"), 1), None)
    assert out["bonus, artwork b"] == {"crops": 1, "right": 0.0}  # the fake tile shows no flower
    assert "bonus, artwork a" not in out and out["family bonus"] == {"crops": 1, "right": 0.0}
