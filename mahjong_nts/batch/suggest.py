"""A photo read as no mahjong: the one-tile change among the recognizer's alternatives that makes it one.

The batch report lists it beside the verdict ("tile 11 read as 7z: mahjong, 704"), so a teacher sees at a
glance which photos are probably one misread tile away from a scored hand. Nothing is changed: the
suggestion is a hint beside the result, never the result.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from mahjong_nts.reading.hand import propose_hand
from mahjong_nts.reading.swaps import candidate_swaps
from mahjong_nts.reading.tiles import TileRead
from scoring import InputError, hand_from_dict, score_hand

NO_SHAPE = "no_winning_shape"


def completing_swap(tiles: Sequence[TileRead], given: Mapping[str, Any]) -> dict[str, Any] | None:
    """The first change of one tile to one of its alternatives (`swaps.candidate_swaps`: least certain
    tiles first, alternatives in the recognizer's order) after which the photo's hand is mahjong: {"tile":
    1-based place in reading order, "read": code, "as": code, "total": points}; None when no single change
    does it. `given` is the photo's defaults and sidecar."""
    for i, other in candidate_swaps(tiles):
        trial = [*tiles[:i], replace(tiles[i], code=other), *tiles[i + 1 :]]
        try:
            result = score_hand(hand_from_dict(propose_hand(trial, given).hand)).to_dict()
        except InputError:
            continue
        if result.get("valid"):
            return {"tile": i + 1, "read": tiles[i].code, "as": other, "total": result.get("total")}
    return None


def suggestion_text(suggestion: Mapping[str, Any] | None) -> str:
    """One line for the report: "tile 11 read as 7z instead of 6z: mahjong, 704"; empty for none."""
    if not suggestion:
        return ""
    return (
        f"tile {suggestion['tile']} read as {suggestion['as']} instead of {suggestion['read']}: "
        f"mahjong, {suggestion['total']}"
    )
