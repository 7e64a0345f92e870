"""Hard negatives for the "not a tile" output (datasets/mine_negatives.py): a found box counts as a negative
only when it lies off every labelled tile, and the mined boxes read back per scene."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from datasets.mine_negatives import NEGATIVES_FILE, far_from_tiles, read_negatives

TILES = np.array([[100, 100, 140, 150], [140, 100, 180, 150]], np.float32)


def test_a_box_on_a_tile_or_on_part_of_one_is_not_a_negative() -> None:
    found = np.array(
        [
            [101, 99, 141, 151],  # the first tile itself
            [120, 100, 160, 150],  # across two tiles
            [160, 110, 200, 160],  # 40 % of it on the second tile
        ],
        np.float32,
    )
    assert far_from_tiles(found, TILES).tolist() == [False, False, False]


def test_a_box_off_every_tile_is_a_negative() -> None:
    found = np.array([[300, 300, 340, 350], [181, 100, 220, 150]], np.float32)
    assert far_from_tiles(found, TILES).tolist() == [True, True]
    assert far_from_tiles(found, np.zeros((0, 4), np.float32)).tolist() == [True, True]
    assert far_from_tiles(np.zeros((0, 4), np.float32), TILES).shape == (0,)


def test_negatives_read_back_by_scene(tmp_path: Path) -> None:
    assert read_negatives(tmp_path) == {}
    (tmp_path / NEGATIVES_FILE).write_text(json.dumps({"boxes": {"scene_1": [[1, 2, 30, 40]]}}))
    read = read_negatives(tmp_path)
    assert list(read) == ["scene_1"]
    assert read["scene_1"].shape == (1, 4) and read["scene_1"][0, 2] == 30
