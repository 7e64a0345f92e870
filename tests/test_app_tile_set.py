"""The app's memory of the club's own tile set (mahjong_nts/app/tile_set.py) and its panel, on the fake
world of tests/fake_models.py: tiles a player corrected and remembered are read right in the next photo."""

from __future__ import annotations

import io
import json
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
import streamlit as st
from fake_models import draw_tile, tile_grid, write_fake_models
from PIL import Image
from streamlit.testing.v1 import AppTest
from test_cli_learn_set import LEARN, ODD

import recognizer
import recognizer.pipeline as pipeline
from datasets.onnx_features import add_features
from mahjong_nts.app.deps import real_photo_reader
from mahjong_nts.app.tile_set import TileSetError, TileSetMemory, row_counts, whole_set
from mahjong_nts.app.tile_set_panel import status_lines
from mahjong_nts.reading.tiles import TileRead
from scoring.tiles import TILE_CODES

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
    learn = png(LEARN)  # learning anew keeps the unreadable file beside it, as .bak
    assert memory.learn(learn, real_photo_reader(memory)(learn).tiles) > 0
    assert (tmp_path / "tile_set.json.bak").read_text() == "{ half a file"
    assert memory.load_error is None and json.loads(path.read_text())["examples"]


def app_with_photo(tiles: list[tuple[float, float]]) -> AppTest:
    """The app run with a fake photo of `tiles` uploaded."""
    at = AppTest.from_file(str(ROOT / "streamlit_app.py"), default_timeout=60)
    at.run()
    assert not at.exception
    at.file_uploader(key="photo_upload-0").set_value(("set.png", png(tiles), "image/png")).run()
    assert not at.exception
    return at


def test_the_panel_remembers_and_forgets(models: Path, tmp_path: Path) -> None:
    at = app_with_photo(LEARN)
    assert any("Nog geen stenen onthouden" in m.value for m in at.markdown)
    at.button(key="hand-tile-set-learn").click().run()
    assert not at.exception
    assert any("Stenen onthouden: 12." in s.value for s in at.success)
    assert any("De app kent 12 stenen" in m.value for m in at.markdown)
    assert (tmp_path / "tile_set.json").is_file()
    at.button(key="tile_set_forget").click().run()
    assert any("Set vergeten" in i.value for i in at.info)
    assert (tmp_path / "tile_set.json.bak").is_file() and not (tmp_path / "tile_set.json").exists()


def laid_out(count: int) -> list[TileRead]:
    """`count` tiles read in rows of 9, 9, 9, 7 and 8 (the whole set's layout; more go on the last row),
    each with a box on the 12-tile fake photo (where it falls does not matter: each is a crop to learn)."""
    sizes, tiles = (9, 9, 9, 7, 10), list[TileRead]()
    for row, size in enumerate(sizes):
        for _ in range(size):
            i = len(tiles)
            x, y = 4 + 5 * (i % 40), 4 + 40 * row
            tiles.append(TileRead("1m", 0.5, (x, y, x + 40.0, y + 56.0), (), row, read_as="1m"))
    return tiles[:count]


def test_a_photo_of_the_whole_set_is_named_in_order(models: Path, tmp_path: Path) -> None:
    """42 tiles read in reading order are named 1m..9m, 1p..9p, 1s..9s, 1z..7z, 1f..4f, 1y..4y, and
    remembered as a complete set; one tile short, nothing is named and the rows say where."""
    whole = whole_set(laid_out(42))
    assert whole is not None and [t.code for t in whole] == list(TILE_CODES)
    assert whole[9].code == "1p" and whole[9].row == 1 and whole[-1].code == "4y"
    assert whole_set(laid_out(41)) is None and whole_set(laid_out(44)) is None
    with_back = whole_set(laid_out(43))  # a face-down tile after the seasons
    assert with_back is not None and [t.code for t in with_back] == [*TILE_CODES, "back"]
    assert row_counts(laid_out(41)) == [9, 9, 9, 7, 7]
    no_box = [replace(t, box=None) if i == 3 else t for i, t in enumerate(laid_out(42))]
    assert whole_set(no_box) is None

    memory = TileSetMemory(tmp_path / "tile_set.json", recognizer)
    assert memory.learn(png(LEARN), whole) == 42
    status = memory.status()
    assert (status.examples, status.codes, status.ready) == (42, 42, True)
    assert status.in_use and status.unfamiliar  # the fake classifier misreads most of these crops
    assert "De app kende deze stenen nog niet" in " ".join(status_lines(memory, "nl"))


def test_the_panel_offers_the_whole_set(
    models: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The panel's one-click button for a layout photo remembers the tiles it names; shown here on the
    12-tile fake photo by naming its tiles as read."""
    import mahjong_nts.app.tile_set_panel as panel

    monkeypatch.setattr(panel, "whole_set", lambda tiles: list(tiles))
    at = app_with_photo(LEARN)
    assert any("hele set, één steen van elke soort" in c.value for c in at.caption)
    at.button(key="hand-tile-set-whole").click().run()
    assert not at.exception
    assert any("Stenen onthouden: 12." in s.value for s in at.success)


# A winning hand of the fake world, four to a row: 111m 222m 333m 444m 55m (green top, green bottom per tile).
WINNING_ROW = [(0.0, 0.0)] * 3 + [(0.0, 0.5)] * 3 + [(0.0, 1.0)] * 3 + [(0.5, 0.0)] * 3 + [(0.5, 0.5)] * 2


def hand_photo(tiles: list[tuple[float, float]]) -> bytes:
    """A fake photo of up to 16 tiles in tile_grid's layout (four to a row), with a fourth row."""
    rgb = np.zeros((320, 256, 3), np.uint8)
    for i, (top, bottom) in enumerate(tiles):
        x, y = 16 + 60 * (i % 4), 8 + 80 * (i // 4)
        draw_tile(rgb, (x, y, x + 40, y + 56), top, bottom)
    out = io.BytesIO()
    Image.fromarray(rgb).save(out, format="PNG")
    return out.getvalue()


def evening_with_winning_photo(tmp_path: Path) -> tuple[AppTest, Path]:
    """The page on the fake models with the club's set memory, an evening started and a photo of a winning
    hand uploaded; and where the set is kept."""
    from test_app_flow import start, start_evening

    from mahjong_nts.app.deps import AppDeps, sample_photos
    from mahjong_nts.app.scoreboard import ScoreboardStore

    path = tmp_path / "tile_set.json"
    memory = TileSetMemory(path, recognizer)
    deps = AppDeps(
        read_photo=real_photo_reader(memory),
        store=ScoreboardStore(tmp_path / "club.sqlite"),
        samples=sample_photos(),
        tile_set=memory,
    )
    at = start(deps)
    start_evening(at, ["Anna", "Bas", "Cor", "Dirk"])
    photo = hand_photo(WINNING_ROW)
    at.file_uploader(key="photo_upload-0").set_value(("hand.png", photo, "image/png")).run()
    assert not at.exception
    return at, path


def test_a_saved_winning_hand_from_a_photo_teaches_the_set(models: Path, tmp_path: Path) -> None:
    at, path = evening_with_winning_photo(tmp_path)
    assert not path.exists()
    at.button(key="record_game").click().run()
    assert not at.exception
    # the fake world's tiles of one code are the same pixels: each code is one example
    assert any("de app onthoudt 5 stenen van dit spel" in s.value for s in at.success), [
        s.value for s in at.success
    ]
    saved = json.loads(path.read_text())
    assert [e["code"] for e in saved["examples"]] == ["1m", "2m", "3m", "4m", "5m"]


def test_with_the_switch_off_a_saved_hand_teaches_nothing(models: Path, tmp_path: Path) -> None:
    at, path = evening_with_winning_photo(tmp_path)
    at.checkbox(key="tile_set_auto").uncheck().run()
    at.button(key="record_game").click().run()
    assert not at.exception
    assert any("Spel 1 staat in de avondstand." in s.value for s in at.success)
    assert not path.exists()


def test_a_winner_scored_by_typing_teaches_nothing(models: Path, tmp_path: Path) -> None:
    from test_app_flow import widget

    at, path = evening_with_winning_photo(tmp_path)
    widget(at.radio, "-source-").set_value("typed").run()
    widget(at.number_input, "-typed-score").set_value(100).run()
    at.button(key="record_game").click().run()
    assert not at.exception
    assert any("Spel 1 staat in de avondstand." in s.value for s in at.success)
    assert not path.exists()  # the photo's hand was not what was scored: it is not taken as checked


def test_losers_hands_counted_from_their_photos_teach_the_set_too(models: Path, tmp_path: Path) -> None:
    from test_app_flow import widget

    at, path = evening_with_winning_photo(tmp_path)
    widget(at.radio, "-mode-S").set_value("hand").run()
    # 666m 777m 888m 999m 1m: thirteen tiles, pungs that count
    loser = hand_photo(
        [(0.5, 1.0)] * 3 + [(1.0, 0.0)] * 3 + [(1.0, 0.5)] * 3 + [(1.0, 1.0)] * 3 + [(0.0, 0.0)]
    )
    at.file_uploader(key="settle-1-1-photo-S").set_value(("south.png", loser, "image/png")).run()
    assert not at.exception
    widget(at.radio, "-mode-W").set_value("hand").run()  # West counted from a typed hand: nothing to learn
    at.button(key="record_game").click().run()
    assert not at.exception
    codes = [e["code"] for e in json.loads(path.read_text())["examples"]]
    said = f"de app onthoudt {len(codes)} stenen van dit spel"  # every example is new: the file was empty
    assert any(said in s.value for s in at.success), [s.value for s in at.success]
    assert set(codes) == {"1m", "2m", "3m", "4m", "5m", "6m", "7m", "8m", "9m"}  # the loser's 6m-9m too
