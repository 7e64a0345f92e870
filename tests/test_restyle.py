"""A made-up set's drawing (datasets/restyle.py): faces keep their size and say their code, one face drawn
the same way every time within a scene, blank and dark faces are left their kind, and the scene flag
`--restyle` changes nothing at 0."""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np
import pytest

from datasets import world_scenes
from datasets.restyle import Restyle, draw_restyle, grow_ink, holes, pixelate, still_reads, warp_face
from datasets.world_scenes import render_scene

PLAIN = Restyle(
    weight=0, hollow=False, brush=0.0, cut=0.5, warp=0.0, shear=0.0, squash=1.0, nudge=0.0, inks=(),
    pixel=0, seed=1,
)  # fmt: skip


def ring_face(thickness: int = 12) -> np.ndarray:
    """A 128x96 face: a dark ring (one hole) and a dot beside it."""
    face = np.zeros((128, 96, 4), np.uint8)
    cv2.circle(face, (48, 56), 28, (20, 20, 20, 255), thickness)
    cv2.circle(face, (48, 108), 9, (180, 30, 30, 255), -1)
    return face


def ink(face: np.ndarray) -> int:
    return int((face[:, :, 3] > 96).sum())


def test_a_plain_style_leaves_the_face_as_it_is() -> None:
    face = ring_face()
    assert np.array_equal(PLAIN.apply(face, 0), face)


def test_heavier_and_lighter_strokes_change_the_ink_but_keep_its_colour() -> None:
    face = ring_face()
    heavy = replace(PLAIN, weight=2).apply(face, 0)
    light = replace(PLAIN, weight=-2).apply(face, 0)
    assert ink(light) < ink(face) < ink(heavy)
    grown = (heavy[:, :, 3] > 96) & (face[:, :, 3] == 0)
    assert grown.any() and heavy[:, :, :3][grown].mean(axis=1).max() < 130  # the ink's colour, not white


def test_a_change_that_would_erase_thin_strokes_is_not_made() -> None:
    thin = ring_face(thickness=2)
    assert np.array_equal(replace(PLAIN, weight=-2).apply(thin, 0), thin)
    assert not still_reads(thin, grow_ink(thin, -2))  # thinned, the ring would be gone


def test_a_blot_that_fills_the_holes_is_not_made() -> None:
    face = np.zeros((128, 96, 4), np.uint8)
    for x in range(20, 80, 8):  # a grid of thin bars: the ink grown by 4 px would close every gap
        face[20:100, x : x + 3] = (20, 20, 20, 255)
    face[20:23, 20:80] = face[97:100, 20:80] = (20, 20, 20, 255)
    assert holes(face[:, :, 3] > 96) >= 6
    blot = face.copy()
    blot[20:100, 20:80] = (20, 20, 20, 255)
    assert not still_reads(face, blot)
    assert still_reads(face, face)


def test_hollow_strokes_keep_the_outline_only() -> None:
    face = ring_face(thickness=14)
    hollow = replace(PLAIN, hollow=True).apply(face, 0)
    assert 0 < ink(hollow) < 0.8 * ink(face)
    assert hollow[56, 48 - 28, 3] < 96  # the middle of the thick stroke is open now


def test_a_face_is_drawn_the_same_way_for_the_same_number_and_otherwise_for_another() -> None:
    style = replace(PLAIN, warp=4.0, nudge=0.04, seed=7)
    face = ring_face()
    assert np.array_equal(style.apply(face, 3), style.apply(face, 3))
    assert not np.array_equal(style.apply(face, 3), style.apply(face, 4))
    assert style.apply(face, 3).shape == face.shape


def test_blank_and_dark_faces_keep_their_kind() -> None:
    style = replace(PLAIN, weight=2, hollow=True, warp=3.0, pixel=30)
    blank = np.zeros((128, 96, 4), np.uint8)
    assert not style.apply(blank, 0)[:, :, 3].any()  # a blank white dragon stays blank
    ground = np.full((128, 96, 3), 30, np.uint8)
    cv2.putText(ground, "5", (30, 90), cv2.FONT_HERSHEY_SIMPLEX, 2, (240, 240, 240), 5)
    dark = np.dstack([ground, np.full((128, 96), 255, np.uint8)])
    out = style.apply(dark, 0)
    assert (out[:, :, 3] == 255).all()  # its own ground, no hole torn in it
    light = int((dark[:, :, 0] > 128).sum())
    assert abs(int((out[:, :, 0] > 128).sum()) - light) < 0.3 * light  # strokes as drawn, only moved


def test_warp_and_pixelate_keep_the_size() -> None:
    face = ring_face()
    rng = np.random.default_rng(0)
    assert warp_face(face, 4.0, 0.1, 1.1, rng).shape == face.shape
    blocky = pixelate(face, 32)
    assert blocky.shape == face.shape
    assert len(np.unique(blocky[:, :, 3])) < len(np.unique(cv2.GaussianBlur(face, (5, 5), 0)[:, :, 3]))


def test_drawn_styles_vary_and_each_one_keeps_a_real_face_readable() -> None:
    rng = np.random.default_rng(0)
    styles = [draw_restyle(rng) for _ in range(40)]
    assert len({(s.weight, s.hollow, s.brush > 0, s.pixel > 0, bool(s.inks)) for s in styles}) > 8
    face = ring_face()
    for k, style in enumerate(styles):
        out = style.apply(face, k)
        assert out.shape == face.shape and ink(out) > 0.3 * ink(face)


def test_a_restyled_scene_draws_one_look_per_face_and_share_zero_renders_the_scenes_of_before() -> None:
    bank = {"ring": {code: [ring_face()] for code in ("1m", "2m", "3m")}}
    scene = world_scenes.Scene((64, 64), np.random.default_rng(0), bank["ring"], bank)
    scene.restyle = replace(PLAIN, weight=2, warp=3.0)
    first, again = scene.face("1m"), scene.face("1m")
    assert first is again and first is not bank["ring"]["1m"][0]
    plain = render_scene(bank, np.random.default_rng([7, 2]), "hand_row", (640, 480))
    zero = render_scene(bank, np.random.default_rng([7, 2]), "hand_row", (640, 480), restyle=0.0)
    drawn = render_scene(bank, np.random.default_rng([7, 2]), "hand_row", (640, 480), restyle=1.0)
    assert np.array_equal(plain[0], zero[0]) and plain[1] == zero[1]
    assert not np.array_equal(plain[0], drawn[0])


@pytest.mark.parametrize("share", ["-0.1", "1.5"])
def test_restyle_must_be_a_share(share: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert world_scenes.main(["--out", "unused", "--count", "1", "--restyle", share]) == 2
    assert "--restyle" in capsys.readouterr().err
