"""datasets/compare_runs.py: each photo's counts are kept in order, and a paired bootstrap tells a change
that the photos of the set cannot explain from one they can."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from datasets.compare_runs import compare, compare_reports, f1_of, main
from datasets.evaluate import Tally

TRUTH = np.array([[10, 10, 50, 66], [60, 10, 100, 66], [110, 10, 150, 66]], np.float32)
CODES = np.array([0, 1, 2])


def test_the_tally_keeps_one_row_per_photo_in_order() -> None:
    tally = Tally()
    tally.add(TRUTH, CODES, np.ones(3), TRUTH, CODES)
    tally.add(TRUTH[:2], np.array([0, 5]), np.ones(2), TRUTH, CODES)
    assert tally.per_photo == [(3, 3, 3, True), (1, 2, 3, False)]
    rows = np.asarray(tally.per_photo, np.float64)
    assert f1_of(rows) == pytest.approx(tally.summary()["tile_f1"], abs=1e-4)


def photos(right: list[int], tiles: int = 14) -> list[list[float]]:
    """Per-photo rows of hands of `tiles` tiles, each found, `right[i]` of them named right."""
    return [[r, tiles, tiles, float(r == tiles)] for r in right]


def test_one_photo_better_in_two_hundred_is_within_noise() -> None:
    old = photos([14] * 150 + [12] * 50)
    new = photos([14] * 151 + [12] * 49)
    change = compare("valid", np.asarray(old), np.asarray(new))
    assert change.f1[1] > change.f1[0] and change.verdict == "within noise"
    assert change.f1_interval[0] <= 0 <= change.f1_interval[1]


def test_a_tile_lost_on_every_other_photo_falls_and_the_reverse_gains() -> None:
    old = np.asarray(photos([14] * 200))
    new = np.asarray(photos([14, 13] * 100))
    assert compare("far0.3", old, new).verdict == "falls"
    assert compare("far0.3", new, old).verdict == "gains"


def test_reports_are_paired_by_place_and_other_photos_are_refused() -> None:
    old = {
        "turned90": {"tile_f1": 1.0, "per_photo": photos([14] * 30)},
        "all": {"per_photo": photos([14] * 9)},
    }
    new = {"turned90": {"per_photo": photos([13] * 30)}}
    (change,) = compare_reports(old, new)
    assert change.place == "turned90" and change.photos == 30 and change.verdict == "falls"
    with pytest.raises(ValueError, match="30 photos in one report and 29"):
        compare_reports(old, {"turned90": {"per_photo": photos([14] * 29)}})


def test_the_command_prints_each_set_and_refuses_unreadable_reports(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    a, b = tmp_path / "v11.json", tmp_path / "cand.json"
    a.write_text(json.dumps({"far0.4": {"per_photo": photos([14] * 40)}}))
    b.write_text(json.dumps({"far0.4": {"per_photo": photos([14] * 40)}}))
    assert main([str(a), str(b)]) == 0
    assert "far0.4: 40 photos, tile F1 1.0000 -> 1.0000" in capsys.readouterr().out
    (tmp_path / "broken.json").write_text("{not json")
    assert main([str(a), str(tmp_path / "broken.json")]) == 2
    assert "cannot read" in capsys.readouterr().err
    assert main([str(a), str(tmp_path / "missing.json")]) == 2
