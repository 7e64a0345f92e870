"""`mahjong-nts recognize`: JSON lines in order, error lines for bad files, exit codes, summary, drawing."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from fake_models import code_for, draw_tile, write_fake_models
from PIL import Image

from mahjong_nts.cli.main import main
from mahjong_nts.reading.tiles import grouped_codes as group_codes


@pytest.fixture(scope="module")
def model_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_fake_models(tmp_path_factory.mktemp("fake_models"))


@pytest.fixture
def photos(tmp_path: Path) -> dict[str, Path]:
    """Two fake photos (PNG, so colours stay exact) and two bad files. The tiles are the same colour in
    their top and bottom half, so they read the same turned over or sideways (the default test-time views)."""
    first = np.zeros((192, 256, 3), np.uint8)
    draw_tile(first, (16, 16, 56, 72), 1.0, 1.0)
    draw_tile(first, (64, 16, 104, 72), 0.5, 0.5)
    draw_tile(first, (112, 16, 152, 72), back=True)
    second = np.zeros((192, 256, 3), np.uint8)
    draw_tile(second, (16, 112, 56, 168), 0.0, 0.0)
    paths = {"first": tmp_path / "first.png", "second": tmp_path / "second.png"}
    Image.fromarray(first).save(paths["first"])
    Image.fromarray(second).save(paths["second"])
    paths["text"] = tmp_path / "notes.jpg"
    paths["text"].write_text("123m 456p 789s\n")
    paths["empty"] = tmp_path / "empty.jpg"
    paths["empty"].write_bytes(b"")
    return paths


def test_json_lines_in_order_with_error_lines(
    model_dir: Path, photos: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    names = [photos["first"], photos["text"], photos["second"], photos["empty"]]
    code = main(["recognize", *map(str, names), "--json", "--models", str(model_dir)])
    out, err = capsys.readouterr()
    lines = [json.loads(line) for line in out.splitlines()]
    assert code == 1
    assert [line["image"] for line in lines] == [str(p) for p in names]
    first, text, second, empty = lines
    assert first["error"] is None and (first["width"], first["height"]) == (256, 192)
    assert [t["code"] for t in first["tiles"]] == [code_for(1, 1), code_for(0.5, 0.5), "back"]
    assert all(len(t["box"]) == 4 and 0 <= t["confidence"] <= 1 for t in first["tiles"])
    assert [t["code"] for t in second["tiles"]] == [code_for(0, 0)]
    assert "not an image" in text["error"] and text["tiles"] == []
    assert "empty file" in empty["error"] and empty["tiles"] == []
    assert "2 of 4 photos failed" in err and "Traceback" not in err


def test_all_good_exits_zero_and_min_confidence_filters(
    model_dir: Path, photos: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["recognize", str(photos["first"]), "--json", "--models", str(model_dir)]) == 0
    every = json.loads(capsys.readouterr().out)["tiles"]
    ranked = sorted(t["confidence"] for t in every)
    cut = round((ranked[0] + ranked[-1]) / 2, 4)
    args = [
        "recognize",
        str(photos["first"]),
        "--json",
        "--models",
        str(model_dir),
        "--min-confidence",
        str(cut),
    ]
    assert main(args) == 0
    kept = json.loads(capsys.readouterr().out)["tiles"]
    assert len(kept) == len([t for t in every if t["confidence"] >= cut]) < len(every)


def test_readable_summary_and_annotation(
    model_dir: Path, photos: dict[str, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out_dir = tmp_path / "drawn"
    args = ["recognize", str(photos["first"]), str(photos["second"]), "--annotate", str(out_dir)]
    assert main([*args, "--models", str(model_dir)]) == 0
    out = capsys.readouterr().out
    assert "first.png  256x192  3 tiles" in out
    assert f"row 1: {group_codes([code_for(1, 1), code_for(0.5, 0.5)])} back" in out
    drawn = Image.open(out_dir / "first-png.jpg")
    assert drawn.size == (256, 192)
    assert (out_dir / "second-png.jpg").is_file()


def test_a_photo_read_mostly_unsure_points_to_learn_set(
    model_dir: Path, photos: dict[str, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rgb = np.zeros((192, 320, 3), np.uint8)
    for i in range(6):  # four tiles halfway between the fake classifier's prototypes, two plain ones
        level = 0.25 if i < 4 else 1.0
        draw_tile(rgb, (8 + 52 * i, 64, 48 + 52 * i, 120), level, level)
    unsure = tmp_path / "unsure.png"
    Image.fromarray(rgb).save(unsure)
    assert main(["recognize", str(unsure), str(photos["first"]), "--models", str(model_dir)]) == 0
    first, second = capsys.readouterr().out.split("first.png")
    assert "uncertain:" in first and "many tiles uncertain" in first and "learn-set" in first
    assert "many tiles uncertain" not in second


def test_a_photo_without_tiles_says_so(
    model_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    table = tmp_path / "table.png"
    Image.fromarray(np.zeros((192, 256, 3), np.uint8)).save(table)
    assert main(["recognize", str(table), "--models", str(model_dir)]) == 0
    out = capsys.readouterr().out
    assert "table.png  256x192  0 tiles" in out and "no tiles found" in out


def test_missing_models_and_bad_options_exit_2(
    photos: dict[str, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["recognize", str(photos["first"]), "--json", "--models", str(tmp_path / "none")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "model files missing" in err
    with pytest.raises(SystemExit) as stop:
        main(["recognize", str(photos["first"]), "--min-confidence", "1.5"])
    assert stop.value.code == 2 and "between 0 and 1" in capsys.readouterr().err


def test_group_codes_keeps_reading_order() -> None:
    assert group_codes(["1z", "1z", "1p", "2p", "3p", "4f", "back", "5m"]) == "11z 123p 4f back 5m"
    assert group_codes([]) == ""
