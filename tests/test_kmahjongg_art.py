"""datasets/kmahjongg_art.py: element names map to the 42 codes; faces cut out of renders, specks dropped."""

from __future__ import annotations

import shutil

import numpy as np
import pytest

from datasets.kmahjongg_art import FACE_ASPECT, TILESET_DIR, element_codes, face_of, render_kmahjongg_faces
from recognizer.labels import LABELS


def test_every_tile_code_has_one_element() -> None:
    codes = element_codes()
    assert sorted(codes.values()) == sorted(c for c in LABELS if c != "back")
    assert codes["WIND_3"] == "1z" and codes["DRAGON_1"] == "5z" and codes["ROD_5"] == "5p"
    assert codes["FLOWER_2"] == "2f" and codes["SEASON_4"] == "4y"


def test_face_is_cut_from_the_render_to_the_face_shape() -> None:
    render = np.zeros((400, 170, 4), np.uint8)
    render[250:390, 30:140] = (200, 30, 30, 255)  # the drawing sits low in a tall element box
    face = face_of(render)
    assert face is not None
    h, w = face.shape[:2]
    assert w / h == pytest.approx(FACE_ASPECT, abs=0.02)
    assert (face[:, :, 3] > 0).mean() > 0.5  # mostly the drawing now


def test_empty_render_and_speck_are_dropped() -> None:
    assert face_of(np.zeros((400, 170, 4), np.uint8)) is None
    speck = np.zeros((400, 170, 4), np.uint8)
    speck[10:30, 10:20] = 255  # a small part of an element drawn in a large frame
    assert face_of(speck) is None


@pytest.mark.skipif(
    not (TILESET_DIR / "default.svgz").is_file() or shutil.which("rsvg-convert") is None,
    reason="kdegames-mahjongg-data-kf5 and librsvg2-bin are training-time Debian packages",
)
def test_installed_tilesets_give_faces_for_flowers_and_seasons() -> None:
    faces = render_kmahjongg_faces(tilesets=("default",), height=200)
    assert {"1f", "4f", "1y", "4y", "5m", "9s"} <= set(faces)
