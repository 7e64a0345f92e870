"""The app on the real recognizer package: with the hand-made ONNX models of tests/fake_models.py (always),
and with the trained models in models/ on the bundled sample photo (when they exist)."""

from __future__ import annotations

import io
from collections.abc import Iterator, Sequence
from pathlib import Path

import numpy as np
import pytest
import streamlit as st
from fake_models import code_for, draw_tile, write_fake_models
from PIL import Image
from streamlit.testing.v1 import AppTest
from test_app_flow import widget

import recognizer.pipeline as pipeline
from mahjong_nts.app.deps import real_photo_reader
from mahjong_nts.app.photo import photo_key
from scoring import parse_tiles

ROOT = Path(__file__).resolve().parent.parent
TILE_W, TILE_H = 40, 56  # a tile of the fake world in a 256 px wide photo
TRAINED = (ROOT / "models" / "detector.onnx").exists() and (ROOT / "models" / "classifier.onnx").exists()


def fake_world_photo(tiles: Sequence[tuple[float, float] | None]) -> bytes:
    """A PNG with one row of fake tiles: (green top, green bottom) for a face-up tile, None face down."""
    rgb = np.zeros((192, 8 + 48 * len(tiles), 3), np.uint8)
    for i, levels in enumerate(tiles):
        box = (8 + 48 * i, 64, 8 + 48 * i + TILE_W, 64 + TILE_H)
        draw_tile(rgb, box, *(levels or (1.0, 1.0)), back=levels is None)
    out = io.BytesIO()
    Image.fromarray(rgb).save(out, format="PNG")
    return out.getvalue()


@pytest.fixture
def fake_models(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    folder = write_fake_models(tmp_path / "models")
    monkeypatch.setenv("MAHJONG_NTS_MODELS", str(folder))
    monkeypatch.setenv("MAHJONG_NTS_DB", str(tmp_path / "evening.sqlite"))
    monkeypatch.setattr(pipeline, "_shared", None)
    st.cache_resource.clear()
    yield folder
    st.cache_resource.clear()


def test_real_reader_reads_tiles_and_face_down_ones(fake_models: Path) -> None:
    photo = fake_world_photo([(0, 0), None, None, (0, 0), (1, 0.5)])
    reading = real_photo_reader()(photo)
    assert reading.error is None and reading.warning is None
    one = code_for(0, 0)
    assert [t.code for t in reading.tiles] == [one, "back", "back", one, code_for(1, 0.5)]
    assert all(t.box is not None for t in reading.tiles)
    assert reading.image is not None


def test_real_reader_explains_a_non_image(fake_models: Path) -> None:
    reading = real_photo_reader()(b"just some text, no photo")
    assert reading.error and "\n" not in reading.error and not reading.tiles


def test_streamlit_app_reads_an_upload_and_reads_face_down_tiles_as_a_concealed_kong(
    fake_models: Path,
) -> None:
    at = AppTest.from_file(str(ROOT / "streamlit_app.py"), default_timeout=60)
    at.run()
    assert not at.exception
    one = code_for(0, 0)
    photo = fake_world_photo([(0, 0), None, None, (0, 0)])
    at.file_uploader(key="photo_upload-0").set_value(("kong.png", photo, "image/png")).run()
    assert not at.exception
    prefix = f"hand-{photo_key(photo)}"
    [notation] = [w for w in at.text_input if w.key and w.key.startswith(f"{prefix}-notation")]
    assert notation.value is not None
    assert parse_tiles(notation.value) == [one, one]  # the face-up tiles; the face-down ones have no code
    kong = f"gesloten kong {one[0] * 4}{one[1]} ({one} omgekeerd omgekeerd {one})"  # the page speaks Dutch
    assert any(kong in c.value for c in at.caption), [e.value for e in at.error]
    # A photo of an empty table: no tiles, said in the page.
    at.file_uploader(key="photo_upload-0").set_value(("table.png", fake_world_photo([]), "image/png")).run()
    assert not at.exception
    assert any("Geen stenen gevonden" in w.value for w in at.warning)


def test_a_photo_read_mostly_unsure_suggests_teaching_the_set(fake_models: Path) -> None:
    at = AppTest.from_file(str(ROOT / "streamlit_app.py"), default_timeout=60)
    at.run()
    sure = fake_world_photo([(0, 0), (0, 1), (1, 0), (1, 1), (0, 0), (0, 1)])
    at.file_uploader(key="photo_upload-0").set_value(("sure.png", sure, "image/png")).run()
    assert not at.exception
    assert not any("de app kent deze set waarschijnlijk nog niet" in i.value for i in at.info)
    # green levels halfway between the fake classifier's prototypes: read, but unsure of each
    unsure = fake_world_photo([(0.25, 0.25)] * 4 + [(0, 0), (1, 1), (0, 1), (1, 0)])
    at.file_uploader(key="photo_upload-0").set_value(("unsure.png", unsure, "image/png")).run()
    assert not at.exception
    [hint] = [i.value for i in at.info if "de app kent deze set waarschijnlijk nog niet" in i.value]
    assert "Onze stenen leren" in hint  # names the panel that teaches it, as the page titles it


@pytest.mark.skipif(
    not TRAINED, reason="trained models (models/detector.onnx, classifier.onnx) not present yet"
)
def test_first_run_reads_the_sample_photo_with_the_trained_models(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("MAHJONG_NTS_MODELS", raising=False)
    monkeypatch.setenv("MAHJONG_NTS_DB", str(tmp_path / "evening.sqlite"))
    monkeypatch.setattr(pipeline, "_shared", None)
    st.cache_resource.clear()
    at = AppTest.from_file(str(ROOT / "streamlit_app.py"), default_timeout=120)
    at.run()
    assert not at.exception
    hand1 = (ROOT / "samples" / "hand1.jpg").read_bytes()
    prefix = f"hand-{photo_key(hand1)}"
    [notation] = [w for w in at.text_input if w.key and w.key.startswith(f"{prefix}-notation")]
    truth = parse_tiles("11z 123p 444p 777z 444z 4f")
    assert notation.value is not None
    read = parse_tiles(notation.value)
    common = sum(min(read.count(c), truth.count(c)) for c in set(truth))
    assert common >= len(truth) - 3, (notation.value, "reads too little of hand1")
    assert len(at.image) == 1 and not at.error
    # Whatever was misread is corrected in the notation box; then the situation of the hand-counted 704.
    notation.set_value("11z 123p 444p 777z 444z 4f").run()

    widget(at.radio, f"{prefix}-seat").set_value("N").run()
    widget(at.selectbox, f"{prefix}-win-").set_value("1z").run()
    widget(at.toggle, f"{prefix}-open-pung:7z7z7z").set_value(True).run()
    assert not at.exception
    assert int(at.metric[0].value) == 704
    st.cache_resource.clear()


def test_without_models_the_photo_still_shows_as_loaded(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Models that will not load: the photo (an iPhone's HEIC here) is shown, loaded as for reading, and the
    page says why no tiles were read; the player types the hand."""
    monkeypatch.setenv("MAHJONG_NTS_MODELS", str(tmp_path / "no-models"))
    monkeypatch.setattr(pipeline, "_shared", None)
    reading = real_photo_reader()((ROOT / "tests" / "data" / "hand1.heic").read_bytes())
    assert reading.error is None and reading.tiles == ()
    assert reading.warning and "no-models" in reading.warning
    assert reading.image is not None and reading.image.shape == (640, 640, 3) and reading.scale == 1.0
