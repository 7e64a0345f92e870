"""`mahjong-nts recognize` on hostile names and folders (issue 16): --annotate never writes over a photo,
every output line is valid UTF-8 whatever the file name, and a name too long is said to be one."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from fake_models import draw_tile, write_fake_models
from PIL import Image

from mahjong_nts.cli.main import main

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def model_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_fake_models(tmp_path_factory.mktemp("fake_models"))


def photo(path: Path) -> Path:
    rgb = np.zeros((192, 256, 3), np.uint8)
    draw_tile(rgb, (16, 16, 56, 72), 1.0, 1.0)
    Image.fromarray(rgb).save(path, format="PNG" if path.suffix == ".png" else "JPEG", quality=95)
    return path


def test_annotate_into_the_photos_own_folder_keeps_every_photo(
    model_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    names = ["hand1.jpg", "hand1.png", "hand1-png.jpg"]  # the last is what hand1.png's drawing is called
    inputs = [photo(tmp_path / name) for name in names]
    before = {path.name: path.read_bytes() for path in inputs}
    argv = ["recognize", *map(str, inputs), "--json", "--annotate", str(tmp_path), "--models", str(model_dir)]
    assert main(argv) == 0
    assert {path.name: path.read_bytes() for path in inputs} == before
    written = [Path(json.loads(line)["annotated"]).name for line in capsys.readouterr().out.splitlines()]
    assert written == ["hand1-jpg.jpg", "hand1-png-2.jpg", "hand1-png-jpg.jpg"]
    assert len(set(written) | set(names)) == 6


def test_an_unrelated_photo_in_the_annotate_folder_is_not_overwritten(
    model_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    drawn = tmp_path / "drawn"
    drawn.mkdir()
    keep = photo(drawn / "hand1.jpg")
    kept = keep.read_bytes()
    source = photo(tmp_path / "hand1.png")
    assert main(["recognize", str(source), "--annotate", str(drawn), "--models", str(model_dir)]) == 0
    assert keep.read_bytes() == kept and (drawn / "hand1-png.jpg").is_file()


def test_a_name_that_is_not_utf8_gives_valid_utf8_lines(model_dir: Path, tmp_path: Path) -> None:
    name = os.fsdecode(tmp_path / os.fsdecode(b"bad\xffname.jpg"))
    photo(Path(name))
    env = {**os.environ, "MAHJONG_NTS_MODELS": str(model_dir), "PYTHONPATH": str(ROOT)}
    for extra in (["--json"], []):
        done = subprocess.run(
            [sys.executable, "-m", "mahjong_nts", "recognize", os.fsencode(name), *extra],
            capture_output=True,
            env=env,
            cwd=ROOT,
            timeout=120,
        )
        assert done.returncode == 0, done.stderr
        text = done.stdout.decode("utf-8")  # strict: every byte written is UTF-8
        if extra:
            assert json.loads(text)["image"] == name  # the exact name, as \udcff escapes
        else:
            assert "bad\\xffname.jpg" in text


def test_a_name_too_long_is_said_to_be_one(
    model_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    name = str(tmp_path / ("a" * 300 + ".jpg"))
    assert main(["recognize", name, "--json", "--models", str(model_dir)]) == 1
    error = json.loads(capsys.readouterr().out)["error"]
    assert "name too long" in error.lower() and "recognition failed" not in error


def test_annotate_a_photo_whose_name_is_near_the_limit(
    model_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = photo(tmp_path / ("h" * 250 + ".jpg"))  # 254 bytes; "<stem>-jpg.jpg" would be 258
    drawn = tmp_path / "drawn"
    argv = ["recognize", str(source), "--json", "--annotate", str(drawn), "--models", str(model_dir)]
    assert main(argv) == 0
    record = json.loads(capsys.readouterr().out)
    written = Path(record["annotated"])
    assert record["error"] is None and written.is_file() and written.parent == drawn
    assert len(os.fsencode(written.name)) <= 255 and written.name.startswith("h" * 200)


def test_a_folder_stands_for_the_photos_in_it(
    model_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`recognize photos/` reads the photos in it in batch's order (hand2 before hand10), not its subfolders
    nor files that are no photos; a folder without photos gets its own error line."""
    folder = tmp_path / "photos"
    (folder / "inner").mkdir(parents=True)
    for name in ("hand10.jpg", "hand2.png", "inner/hand3.jpg"):
        photo(folder / name)
    (folder / "notes.txt").write_text("no photo", encoding="utf-8")
    empty = tmp_path / "empty"
    empty.mkdir()
    code = main(["recognize", str(folder), str(empty), "--json", "--models", str(model_dir)])
    assert code == 1
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [Path(line["image"]).name for line in lines] == ["hand2.png", "hand10.jpg", "empty"]
    assert [line["error"] is None and len(line["tiles"]) == 1 for line in lines[:2]] == [True, True]
    assert "a folder with no photos in it" in lines[2]["error"]
