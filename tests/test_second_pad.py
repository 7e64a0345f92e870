"""Every tile read from two crops, grown by the classifier's pad and by Settings.second_pad, the two
readings averaged: on the fake models, a tile whose wide crop takes in the tile above it."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
from fake_models import code_for, draw_tile, write_fake_models

from recognizer import Recognizer
from recognizer.detector import TileBoxes
from recognizer.imageio import LoadedImage
from recognizer.labels import LABELS
from recognizer.pipeline import Settings

TARGET = (40, 60, 80, 116)  # x0, y0, x1, y1: a 1m (green 0 in both halves)
ABOVE = (40, 0, 80, 58)  # a tile right above it, green 1 in both halves: 9m


@pytest.fixture(scope="module")
def models(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_fake_models(tmp_path_factory.mktemp("second_pad"))


def photo() -> LoadedImage:
    rgb = np.zeros((160, 120, 3), np.uint8)
    draw_tile(rgb, TARGET, 0.0, 0.0)
    draw_tile(rgb, ABOVE, 1.0, 1.0)
    return LoadedImage(rgb=rgb, width=120, height=160)


def reading(models: Path, pad: float, second_pad: float | None) -> np.ndarray:
    settings = Settings(crop_pad=pad, second_pad=second_pad, turns="none", not_a_tile_min=1.0)
    return Recognizer(models, settings=settings).classify(photo(), boxes())


def boxes() -> TileBoxes:
    return TileBoxes(np.array([TARGET], np.float32), np.ones(1, np.float32), np.zeros(1, bool))


def test_a_wide_crop_alone_reads_the_tile_above(models: Path) -> None:
    tight = reading(models, 0.1, None)[0]
    wide = reading(models, 0.4, None)[0]
    assert LABELS[int(tight.argmax())] == code_for(0.0, 0.0) == "1m"
    assert LABELS[int(wide.argmax())] != "1m"  # the top half's middle lies on the tile above


def test_the_two_readings_are_averaged(models: Path) -> None:
    tight = reading(models, 0.1, None)[0]
    wide = reading(models, 0.4, None)[0]
    both = reading(models, 0.1, 0.4)[0]
    assert np.allclose(both, (tight + wide) / 2, atol=1e-6)
    assert np.allclose(reading(models, 0.4, 0.1)[0], both, atol=1e-6)  # the order does not matter
    assert LABELS[int(both.argmax())] in {"1m", LABELS[int(wide.argmax())]}


def test_settings_default_reads_twice_and_none_once(models: Path) -> None:
    assert Settings().second_pad is not None
    once = replace(Settings(), second_pad=None)
    assert once.second_pad is None
    assert not np.allclose(reading(models, 0.1, 0.4)[0], reading(models, 0.1, None)[0])
