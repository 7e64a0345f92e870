"""The real models on one tile alone: each tile of two sample photos (valid split, CC BY 4.0) cut out at its
true 4:3 shape and shown large on plain felt, as a player photographs a single flower
(datasets/lone_tiles.py). Skipped, with the reason, only while models/detector.onnx is absent."""

from __future__ import annotations

from pathlib import Path

import pytest

from datasets.lone_tiles import PHOTO, lone_photos, main, sample_tiles
from recognizer import LoadedImage, get_recognizer
from recognizer.models import DETECTOR_FILE, model_folder

pytestmark = pytest.mark.skipif(
    not model_folder().joinpath(DETECTOR_FILE).is_file(),
    reason=f"{DETECTOR_FILE} absent in {model_folder()}: train first",
)


@pytest.mark.parametrize("name", ["hand1", "hand3"])
def test_a_tile_alone_and_large_reads_as_that_one_tile(name: str) -> None:
    """hand1: winds, circles, dragons and a flower; hand3: bamboo, whose sticks, read as slivers, once
    won a squeezed retry (recognizer/unstretch.parts_of_tiles). Measured 15 of 15 each (v7)."""
    recognizer = get_recognizer()
    wrong = []
    for code, photo in lone_photos(name, 0.2):
        found = recognizer.recognize(LoadedImage(photo, *PHOTO)).codes
        if found != [code]:
            wrong.append(f"{code} read as {found}")
    assert len(wrong) <= 1, wrong


def test_the_cut_tiles_are_the_labelled_ones_at_their_true_shape() -> None:
    tiles = sample_tiles("hand1")
    assert [code for code, _ in tiles].count("4f") == 1 and len(tiles) == 15
    for _, crop in tiles:  # upright tiles at the phone's 4:3: taller than wide, not the squeezed slivers
        assert 1.0 < crop.shape[0] / crop.shape[1] < 1.8


def test_the_measuring_tool_writes_its_counts(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import datasets.lone_tiles as tool

    monkeypatch.setattr(tool, "HANDS", ("hand1",))
    monkeypatch.setattr(tool, "SHARES", (0.2,))
    assert main(["--json", str(tmp_path / "lone.json")]) == 0
    assert "of 15 read as that one tile" in capsys.readouterr().out
    assert '"photos": 15' in (tmp_path / "lone.json").read_text()
