"""mahjong_nts/batch/suggest.py: a photo one misread tile away from mahjong gets that tile named."""

from __future__ import annotations

from typing import Any

from mahjong_nts.batch.outputs import csv_row
from mahjong_nts.batch.suggest import completing_swap, suggestion_text
from mahjong_nts.reading.hand import propose_hand
from mahjong_nts.reading.tiles import TileRead, tiles_from_records
from scoring import hand_from_dict, parse_tiles, score_hand


def tiles_of(text: str, unsure: dict[int, tuple[float, list[str]]]) -> list[dict[str, Any]]:
    """CONTRACT tile objects in one row; confident with no other reading unless listed in `unsure`."""
    out = []
    for i, code in enumerate(parse_tiles(text)):
        confidence, others = unsure.get(i, (0.95, []))
        alternatives = [{"code": c, "confidence": 0.1} for c in [code, *others]]
        out.append({"code": code, "confidence": confidence, "box": [40 * i, 0, 40 * i + 36, 50],
                    "alternatives": alternatives, "row": 0})  # fmt: skip
    return out


def total_of(text: str) -> int:
    codes = parse_tiles(text)
    hand = propose_hand([TileRead(c) for c in codes], {}).hand
    return int(score_hand(hand_from_dict(hand)).to_dict()["total"])


def test_the_least_certain_tile_with_a_completing_alternative_is_named() -> None:
    # 11z 123p 444p 77z 6z 444z: the third red dragon read as green (index 10)
    tiles = tiles_of("11z123p444p77z6z444z", {10: (0.4, ["5z", "7z"]), 3: (0.3, ["7z"])})
    found = completing_swap(tiles_from_records(tiles), {})
    assert found == {"tile": 11, "read": "6z", "as": "7z", "total": total_of("11z123p444p777z444z")}
    assert suggestion_text(found) == f"tile 11 read as 7z instead of 6z: mahjong, {found['total']}"


def test_no_suggestion_when_no_single_alternative_completes_the_hand() -> None:
    tiles = tiles_of("1357m2468p13579s1z", {0: (0.3, ["2m", "3m"])})
    assert completing_swap(tiles_from_records(tiles), {}) is None
    assert suggestion_text(None) == ""


def test_the_suggestion_reaches_the_csv_row() -> None:
    record = {"file": "a.jpg", "result": {"valid": False, "reason": "no mahjong shape"},
              "suggestion": {"tile": 2, "read": "6z", "as": "7z", "total": 64}}  # fmt: skip
    assert csv_row(record)["suggestion"] == "tile 2 read as 7z instead of 6z: mahjong, 64"
