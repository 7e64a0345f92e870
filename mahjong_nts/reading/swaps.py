"""One-tile changes worth trying on a hand read from a photo, for the app and the batch alike.

A hand read as no mahjong is often one misread tile away from one; the recognizer's alternatives for each
tile say which other codes it could be. The candidates come least certain tile first, each tile's
alternatives in the recognizer's order; the caller scores each and keeps the ones that make mahjong.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from mahjong_nts.reading.tiles import BACK, TileRead, is_bonus


def candidate_swaps(tiles: Sequence[TileRead]) -> Iterator[tuple[int, str]]:
    """(place, other code) for every alternative of every tile, least certain tiles first; face-down and
    bonus tiles, and tiles the player added or corrected, are not changed, nor into a back or bonus tile."""
    places = sorted(
        (tile.confidence, i)
        for i, tile in enumerate(tiles)
        if tile.confidence is not None and not tile.corrected
    )
    for _, i in places:
        tile = tiles[i]
        if tile.code == BACK or is_bonus(tile.code):
            continue
        for other in tile.alternatives:
            if other not in (tile.code, BACK, "") and not is_bonus(other):
                yield i, other
