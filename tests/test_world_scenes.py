"""Synthetic world scenes (datasets/world_scenes.py): every kind renders, its boxes hold the tiles drawn,
the same seed gives the same scene, and the YOLO folder reads back with its kinds."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from datasets import world_scenes
from datasets.tile_bodies import random_style, tile_sprite, turned
from datasets.world_scenes import KINDS, ON_REQUEST, render_scene, write_scenes
from datasets.yolo import BACK, LABELS, read_folder


def drawn_bank() -> world_scenes.Bank:
    """One artwork whose faces are a dark bar whose length is the label index (no artwork files needed)."""
    faces = {}
    for k, code in enumerate(LABELS[:-1]):
        face = np.zeros((64, 48, 4), np.uint8)
        face[8 : 8 + 1 + k, 10:38] = (20, 20, 20, 255)
        faces[code] = [face]
    return {"bars": faces}


@pytest.mark.parametrize("kind", KINDS + ON_REQUEST)
def test_every_kind_renders_boxes_inside_the_photo(kind: str) -> None:
    img, boxes, artwork = render_scene(
        drawn_bank(), np.random.default_rng([3, (KINDS + ON_REQUEST).index(kind)]), kind, (640, 480)
    )
    h, w = img.shape[:2]
    assert img.dtype == np.uint8 and artwork == "bars"
    assert (w, h) == ((1280, 960) if kind == "distance" else (640, 480))
    for label, x0, y0, x1, y1 in boxes:
        assert 0 <= label < len(LABELS)
        assert 0 <= x0 < x1 <= w and 0 <= y0 < y1 <= h
    if kind in ("hand_row", "flat_rows", "scatter", "closeup", "standing"):
        assert len(boxes) >= 2


def test_lone_tiles_stand_apart() -> None:
    """A `lone` scene's one to three tiles never touch: each has table all round it."""
    counts = []
    for k in range(12):
        _, boxes, _ = render_scene(drawn_bank(), np.random.default_rng([5, k]), "lone", (640, 480))
        counts.append(len(boxes))
        for i, (_, *a) in enumerate(boxes):
            for _, *b in boxes[i + 1 :]:
                assert a[2] < b[0] or b[2] < a[0] or a[3] < b[1] or b[3] < a[1]
    assert 1 <= max(counts) <= 3 and counts.count(1) >= 4


def test_a_hand_row_box_covers_a_tile_not_the_table() -> None:
    img, boxes, _ = render_scene(drawn_bank(), np.random.default_rng([11, 0]), "hand_row", (640, 480))
    inside = [
        img[int(y0) : int(y1), int(x0) : int(x1)].mean() for lab, x0, y0, x1, y1 in boxes if lab != BACK
    ]
    assert inside and float(np.median(inside)) > img.mean()  # ivory tiles are brighter than the table


def test_the_same_seed_draws_the_same_scene() -> None:
    a = render_scene(drawn_bank(), np.random.default_rng([5, 1]), "scatter", (640, 480))
    b = render_scene(drawn_bank(), np.random.default_rng([5, 1]), "scatter", (640, 480))
    assert np.array_equal(a[0], b[0]) and a[1] == b[1]


def test_standing_tiles_show_their_top_and_lying_ones_their_side() -> None:
    rng = np.random.default_rng(0)
    style = replace(random_style(rng), depth=0.45, aspect=1.35)
    face = drawn_bank()["bars"]["5m"][0]
    steep = tile_sprite(face, 40, style, rng, "lying", 1.5)
    low = tile_sprite(face, 40, style, rng, "lying", 0.6)
    assert low.shape[0] < steep.shape[0] * 0.9  # seen low, a lying face is foreshortened
    assert turned(low, 90).shape[1] >= low.shape[0]


def test_scenes_are_written_as_yolo_with_their_kinds(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(world_scenes, "face_bank", lambda split: drawn_bank())
    total = write_scenes(tmp_path, 6, 0, "train")
    kinds = json.loads((tmp_path / "kinds.json").read_text())
    scenes = read_folder(tmp_path)
    assert len(scenes) == len(kinds) == 6 and total == sum(len(s.labels) for s in scenes)
    assert {v["kind"] for v in kinds.values()} <= set(KINDS)
    assert write_scenes(tmp_path, 6, 0, "train") == 0  # a rerun keeps what is there


def test_faces_and_sets_that_would_look_face_down_are_left_out() -> None:
    dark_blank = np.zeros((64, 48, 4), np.uint8)
    dark_blank[:, :] = (30, 30, 32, 255)
    assert world_scenes.looks_like_a_back(dark_blank)
    assert not world_scenes.looks_like_a_back(drawn_bank()["bars"]["5m"][0])  # transparent ground
    rng = np.random.default_rng(1)
    scene = world_scenes.Scene((320, 240), rng, drawn_bank()["bars"], drawn_bank())
    scene.style = replace(scene.style, back=np.array([232, 226, 205], np.float32))  # ivory all through
    assert scene.tile("back", 40, 50, 50, "down", 1.2) is None and not scene.boxes
    scene.style = replace(scene.style, back=np.array([30, 115, 60], np.float32))
    assert scene.tile("back", 40, 50, 50, "down", 1.2) is not None and scene.boxes[0][0] == BACK


def test_a_tile_painted_over_by_a_hard_negative_loses_its_box(monkeypatch: pytest.MonkeyPatch) -> None:
    scene = world_scenes.Scene((640, 480), np.random.default_rng(4), drawn_bank()["bars"], drawn_bank())
    for k in range(8):
        scene.tile(LABELS[k], 50, 20 + 60 * k, 100, "lying", 1.3)
    assert len(scene.boxes) == 8
    kept_before = list(scene.boxes)

    def slab(canvas: np.ndarray, x: int, y: int, size: int, rng: np.random.Generator) -> None:
        canvas[90:200, 0:260] = (5, 5, 5)  # a dark slab over the first four tiles

    monkeypatch.setattr(world_scenes, "NEGATIVES", (slab,))
    scene.negatives(1, 50)
    assert scene.boxes == [b for b in kept_before if b[1] >= 260]
    assert len(scene.boxes) == 4


def test_bonus_printed_lends_the_printed_flowers_and_seasons_to_any_set() -> None:
    bank = drawn_bank()
    printed = {code: [np.full((64, 48, 4), 200, np.uint8)] for code in ("1f", "3y")}
    bank[world_scenes.PRINTED_BONUS] = printed
    always = world_scenes.Scene((64, 64), np.random.default_rng(0), bank["bars"], bank, bonus_printed=1.0)
    never = world_scenes.Scene((64, 64), np.random.default_rng(0), bank["bars"], bank)
    assert always.face("1f") is printed["1f"][0] and always.face("3y") is printed["3y"][0]
    assert always.face("2f") is bank["bars"]["2f"][0]  # the printed artwork lacks it: the set's own
    assert always.face("5m") is bank["bars"]["5m"][0]  # only flowers and seasons are lent
    assert never.face("1f") is bank["bars"]["1f"][0]


def test_bonus_printed_must_be_a_share(capsys: pytest.CaptureFixture[str]) -> None:
    assert world_scenes.main(["--out", "unused", "--count", "1", "--bonus-printed", "1.5"]) == 2
    assert "--bonus-printed" in capsys.readouterr().err


def test_a_set_with_blank_white_dragons_draws_them_blank_and_labels_them() -> None:
    bank = drawn_bank()
    blank = world_scenes.Scene((64, 64), np.random.default_rng(0), bank["bars"], bank, blank_white=True)
    framed = world_scenes.Scene((64, 64), np.random.default_rng(0), bank["bars"], bank)
    blank_face = blank.face("5z")
    assert blank_face is not None
    assert not blank_face[:, :, 3].any()  # no artwork: the tile's own ivory
    assert framed.face("5z") is bank["bars"]["5z"][0]
    assert blank.face("6z") is bank["bars"]["6z"][0]  # only the white dragon is blank
    assert blank.tile("5z", 40, 10, 10, "lying", 1.3) is not None
    assert blank.boxes[0][0] == LABELS.index("5z")


def test_blank_white_share_zero_renders_the_scenes_of_before() -> None:
    a = render_scene(drawn_bank(), np.random.default_rng([7, 2]), "hand_row", (640, 480))
    b = render_scene(drawn_bank(), np.random.default_rng([7, 2]), "hand_row", (640, 480), blank_white=0.0)
    assert np.array_equal(a[0], b[0]) and a[1] == b[1]
    assert world_scenes.main(["--out", "unused", "--count", "1", "--blank-white", "-0.1"]) == 2


def test_a_cluster_tile_hidden_for_the_most_part_by_nearer_ones_loses_its_box() -> None:
    far = (0, 10.0, 10.0, 50.0, 70.0)
    half = (1, 10.0, 40.0, 50.0, 100.0)  # drawn later (nearer): covers half of `far`
    most = (2, 0.0, 20.0, 60.0, 110.0)  # nearer still: now `far` and `half` are hidden for the most part
    assert world_scenes.hidden_dropped([far, half], (120, 80)) == [far, half]
    assert world_scenes.hidden_dropped([far, half, most], (120, 80)) == [most]


def test_a_bank_without_some_artworks_says_which_are_left_out(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from datasets import faces

    bar = drawn_bank()["bars"]["1m"][0]
    monkeypatch.setattr(
        faces, "ARTWORKS", {"one-installed": "train", "one-missing": "train", "held": "heldout"}
    )
    monkeypatch.setattr(faces, "load_faces", lambda split: {"1m": [faces.Face("1m", bar, "one-installed")]})
    bank = world_scenes.face_bank("train")
    assert list(bank) == ["one-installed"]
    assert "left out: one-missing\n" in capsys.readouterr().err


def test_a_whole_set_is_laid_out_in_code_order() -> None:
    """datasets.evaluate_layout's photo: the 42 faces once each, in five rows read in the order of the
    tile codes, as `learn-set --tiles "123456789m ..."` pairs them."""
    from datasets.evaluate_layout import ROWS, render_layout

    img, boxes = render_layout(drawn_bank(), "bars", seed=5, size=(1600, 1200))
    assert img.shape == (1200, 1600, 3) and len(boxes) == 42
    rows: list[list[tuple[float, str]]] = []
    row_y = -1e9
    for label, x0, y0, _x1, y1 in sorted(boxes, key=lambda b: b[2] + b[4]):
        centre = (y0 + y1) / 2
        if centre > row_y + (y1 - y0) / 2:  # below the row so far: a new row
            rows.append([])
            row_y = centre
        rows[-1].append((x0, LABELS[label]))
    assert [[code for _, code in sorted(row)] for row in rows] == [list(r) for r in ROWS]


def test_a_club_set_looks_the_same_in_every_photo(monkeypatch: pytest.MonkeyPatch) -> None:
    """`render_scene(club=...)`: every photo shows the one artwork and tile body given (a club's own set),
    where without it each photo draws its own; and the layout can end with a face-down tile."""
    from datasets.evaluate_layout import ROWS, render_layout
    from datasets.tile_bodies import BODY_BACKS

    style = replace(random_style(np.random.default_rng(1)), back=np.array(BODY_BACKS[1], np.float32))
    bank = {**drawn_bank(), "other": drawn_bank()["bars"]}
    bodies: list[object] = []
    draw = world_scenes.tile_sprite

    def spy(*a: Any) -> np.ndarray:
        bodies.append(a[2])
        return draw(*a)

    monkeypatch.setattr(world_scenes, "tile_sprite", spy)
    for k in range(6):
        _img, boxes, artwork = render_scene(
            bank, np.random.default_rng([8, k]), "hand_row", (640, 480), club=("other", style)
        )
        assert artwork == "other" and boxes
    assert bodies and all(body is style for body in bodies)
    drawn = {render_scene(bank, np.random.default_rng([8, k]), "hand_row", (640, 480))[2] for k in range(12)}
    assert drawn == {"bars", "other"}
    rows = (*ROWS[:-1], (*ROWS[-1], "back"))
    _, boxes = render_layout(bank, "other", seed=2, style=style, rows=rows)
    assert len(boxes) == 43 and LABELS[boxes[-1][0]] == "back"
