"""One-tile changes worth trying on a hand read from a photo, for the app and the batch alike.

A hand read as no mahjong is often one misread tile away from one; the recognizer's alternatives for each
tile say which other codes it could be. The candidates come least certain tile first, each tile's
alternatives in the recognizer's order; the caller scores each with its own hand planner and keeps the
ones that make mahjong.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from mahjong_nts.batch.hand import BACK, is_bonus

Reading = tuple[str, float, Sequence[str]]
"""A tile as read: its code, the recognizer's confidence, its alternative codes."""


def candidate_swaps(readings: Sequence[Reading | None]) -> Iterator[tuple[int, str]]:
    """(place, other code) for every alternative of every tile, least certain tiles first; face-down and
    bonus tiles, and `None` places (tiles the player set), are not changed, nor into a back or bonus tile."""
    places = sorted((reading[1], i, reading) for i, reading in enumerate(readings) if reading is not None)
    for _, i, (code, _, alternatives) in places:  # places differ, so readings are never compared
        if code == BACK or is_bonus(code):
            continue
        for other in alternatives:
            if other not in (code, BACK, "") and not is_bonus(other):
                yield i, other
