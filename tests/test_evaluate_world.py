"""The world-scene report's breakdowns: by artwork from per-photo rows, and flowers and seasons by code."""

from __future__ import annotations

import pytest

from datasets.evaluate_world import bonus_per_class, by_artwork


def test_by_artwork_sums_each_artworks_photos() -> None:
    rows = [(3, 4, 4, False), (2, 2, 2, True), (0, 1, 3, False)]
    out = by_artwork(["a", "b", "a"], rows)
    assert list(out) == ["a", "b"]
    assert out["a"]["scenes"] == 2
    assert out["a"]["tile_precision"] == pytest.approx(3 / 5, abs=1e-4)
    assert out["a"]["tile_recall"] == pytest.approx(3 / 7, abs=1e-4)
    assert out["a"]["tile_f1"] == pytest.approx(6 / 12, abs=1e-4)
    assert out["a"]["photos_all_right"] == 0.0
    assert out["b"] == {
        "scenes": 1,
        "tile_precision": 1.0,
        "tile_recall": 1.0,
        "tile_f1": 1.0,
        "photos_all_right": 1.0,
    }


def test_by_artwork_refuses_rows_that_do_not_line_up() -> None:
    with pytest.raises(ValueError):
        by_artwork(["a"], [(1, 1, 1, True), (0, 1, 1, False)])


def test_bonus_per_class_lists_only_flowers_and_seasons_in_code_order() -> None:
    table = [
        {"code": "2y", "boxes": 4, "accuracy": 0.25},
        {"code": "5p", "boxes": 10, "accuracy": 0.5},
        {"code": "1f", "boxes": 3, "accuracy": 1.0},
    ]
    assert bonus_per_class(table) == "1f 3/3, 2y 1/4"
