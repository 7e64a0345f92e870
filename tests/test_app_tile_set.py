"""The app's memory of the club's own tile set (mahjong_nts/app/tile_set.py) and its panel, on the fake
world of tests/fake_models.py: tiles a player corrected and remembered are read right in the next photo."""

from __future__ import annotations

import io
import json
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest
import streamlit as st
from fake_models import tile_grid, write_fake_models
from PIL import Image
from streamlit.testing.v1 import AppTest
from test_cli_learn_set import LEARN, ODD

import recognizer
import recognizer.pipeline as pipeline
from datasets.onnx_features import add_features
from mahjong_nts.app.deps import real_photo_reader
from mahjong_nts.app.tile_set import TileSetError, TileSetMemory

ROOT = Path(__file__).resolve().parent.parent


def png(tiles: list[tuple[float, float]]) -> bytes:
    """A fake photo of tiles (green top, green bottom), four to a row."""
    out = io.BytesIO()
    Image.fromarray(tile_grid(tiles)).save(out, format="PNG")
    return out.getvalue()


@pytest.fixture
def models(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    folder = write_fake_models(tmp_path / "models")
    add_features(folder / "classifier.onnx")
    monkeypatch.setenv("MAHJONG_NTS_MODELS", str(folder))
    monkeypatch.setenv("MAHJONG_NTS_DB", str(tmp_path / "evening.sqlite"))
    monkeypatch.setattr(pipeline, "_shared", None)
    st.cache_resource.clear()
    yield folder
    st.cache_resource.clear()


def test_remembered_corrections_read_the_next_photo_right(models: Path, tmp_path: Path) -> None:
    path = tmp_path / "tile_set.json"
    memory = TileSetMemory(path, recognizer)
    read = real_photo_reader(memory)
    learn, hand = png(LEARN), png([(0.0, 0.0), (ODD, ODD)])
    assert [t.code for t in read(hand).tiles] == ["1m", "1m"]

    tiles = read(learn).tiles
    assert [t.code for t in tiles[1:4]] == ["1m", "2m", "4m"] and tiles[0].code != "5m"  # this set's 5m
    corrected = [replace(t, code="5m") if i % 4 == 0 else t for i, t in enumerate(tiles)]
    assert memory.learn(learn, corrected) == 12
    assert memory.status().in_use and path.is_file()
    assert [t.code for t in read(hand).tiles] == ["1m", "5m"]
    assert memory.learn(learn, corrected) == 0  # the same photo twice teaches nothing new

    again = TileSetMemory(path, recognizer)  # the app started again: the set is still there
    assert again.status().examples == 12 and again.load_error is None

    memory.forget()
    assert not path.exists() and (tmp_path / "tile_set.json.bak").is_file()
    assert [t.code for t in read(hand).tiles] == ["1m", "1m"]
    assert memory.replace_with((tmp_path / "tile_set.json.bak").read_bytes()).examples == 12
    assert [t.code for t in read(hand).tiles] == ["1m", "5m"]


def test_bad_set_files_are_named_and_kept(models: Path, tmp_path: Path) -> None:
    path = tmp_path / "tile_set.json"
    path.write_text("{ half a file")
    memory = TileSetMemory(path, recognizer)
    assert memory.load_error == "tile_set_not_a_set" and memory.profile is None
    assert path.read_text() == "{ half a file"  # never overwritten by just starting
    assert [t.code for t in real_photo_reader(memory)(png([(0.0, 0.0)])).tiles] == ["1m"]
    with pytest.raises(TileSetError) as bad:
        memory.replace_with(b"\x89PNG not a set")
    assert bad.value.key == "tile_set_not_a_set"
    other = {"format": "mahjong-nts set profile", "version": 1, "name": "x", "classifier": "0" * 16}
    with pytest.raises(TileSetError) as mismatch:
        memory.replace_with(json.dumps({**other, "examples": []}).encode())
    assert mismatch.value.key == "tile_set_other_model"


def test_the_panel_remembers_and_forgets(models: Path, tmp_path: Path) -> None:
    at = AppTest.from_file(str(ROOT / "streamlit_app.py"), default_timeout=60)
    at.run()
    assert not at.exception
    at.file_uploader(key="photo_upload-0").set_value(("set.png", png(LEARN), "image/png")).run()
    assert not at.exception
    assert any("Nog geen stenen onthouden" in m.value for m in at.markdown)
    at.button(key="hand-tile-set-learn").click().run()
    assert not at.exception
    assert any("Stenen onthouden: 12." in s.value for s in at.success)
    assert any("De app kent 12 stenen" in m.value for m in at.markdown)
    assert (tmp_path / "tile_set.json").is_file()
    at.button(key="tile_set_forget").click().run()
    assert any("Set vergeten" in i.value for i in at.info)
    assert (tmp_path / "tile_set.json.bak").is_file() and not (tmp_path / "tile_set.json").exists()
