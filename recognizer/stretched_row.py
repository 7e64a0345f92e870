"""The tiles of a stretched row (a squeezed pass of recognizer/unstretch.py): lines, pitch, shares, tiles
found twice and gaps.

A row stretched to a square leaves its tiles as wide bars or tall slivers side by side. The detector's boxes
there run into their neighbours, find some tiles twice and miss some; these helpers work along the row (the
axis that is not stretched) within a line of boxes.
"""

from __future__ import annotations

from typing import Literal

import numpy as np

from recognizer.detector import TileBoxes

DUPLICATE = 0.4
"""Two boxes of a stretched row closer than this many tile pitches are one tile found twice."""
GAP = 1.6
"""Neighbours in a stretched row further apart than this many pitches have a tile's room between them."""
MOST_MISSING = 2
"""... and up to this many tiles are looked for in one gap (a wider one is a gap in the row itself)."""


def row_lines(xyxy: np.ndarray, stretched: Literal["x", "y"]) -> tuple[int, np.ndarray, np.ndarray]:
    """For the boxes of a stretched photo: the index of the axis the rows run along (the one not stretched:
    1 for y when the photo is stretched along x), each box's centre along it, and which pairs of boxes lie
    in the same line (spanning mostly the same stretch of the other axis; a band of two rows is two rows)."""
    along = 1 if stretched == "x" else 0
    across = 1 - along
    centre = (xyxy[:, along] + xyxy[:, along + 2]) / 2
    lo, hi = xyxy[:, across], xyxy[:, across + 2]
    shared = np.minimum(hi[:, None], hi[None, :]) - np.maximum(lo[:, None], lo[None, :])
    shorter = np.minimum((hi - lo)[:, None], (hi - lo)[None, :])
    same_line = shared > 0.5 * np.maximum(shorter, 1e-6)
    np.fill_diagonal(same_line, False)
    return along, centre, same_line


def next_in_line(centre: np.ndarray, same_line: np.ndarray) -> list[tuple[int, int]]:
    """Each box paired with its nearest neighbour further along the row in the same line (boxes with none
    left out), in box order."""
    pairs = []
    for i in range(len(centre)):
        after = np.nonzero(same_line[i] & (centre > centre[i]))[0]
        if len(after):
            pairs.append((i, int(after[np.argmin(centre[after])])))
    return pairs


def row_shares(xyxy: np.ndarray, stretched: Literal["x", "y"]) -> np.ndarray:
    """The boxes of a stretched row cut where they run into a neighbour in the same line, at the midpoint
    between the two centres along the row. The detector's boxes there run up to half a tile into the next
    one; a crop of the tile's own share reads it better (benchmarks/RESULTS.md)."""
    along, centre, same_line = row_lines(xyxy, stretched)
    out = xyxy.copy()
    for i, j in next_in_line(centre, same_line):
        middle = (centre[i] + centre[j]) / 2
        out[i, along + 2] = min(out[i, along + 2], middle)
        out[j, along] = max(out[j, along], middle)
    return out


def row_pitch(centre: np.ndarray, same_line: np.ndarray) -> float | None:
    """The row's tile pitch: the median distance from each box to its nearest neighbour in its line (None
    when no box has a neighbour, or when the boxes sit on top of each other)."""
    steps = [
        float(np.min(np.abs(centre[same_line[i]] - centre[i])))
        for i in range(len(centre))
        if same_line[i].any()
    ]
    pitch = float(np.median(steps)) if steps else 0.0
    return pitch if pitch >= 1.0 else None


def row_gaps(xyxy: np.ndarray, stretched: Literal["x", "y"], wider: float = GAP) -> np.ndarray:
    """Boxes for the places in a stretched row where the detector found nothing: between two neighbours in
    a line more than `wider` pitches apart, as many pitch-wide boxes as whole pitches fit (at most
    MOST_MISSING), evenly spaced, as long across as the box before. The classifier decides whether a tile
    is there (Recognizer.recognize)."""
    along, centre, same_line = row_lines(xyxy, stretched)
    pitch = row_pitch(centre, same_line)
    gaps: list[np.ndarray] = []
    if pitch is None:
        return np.zeros((0, 4), np.float32)
    for i, j in next_in_line(centre, same_line):
        distance = float(centre[j] - centre[i])
        missing = round(distance / pitch) - 1
        if distance > wider * pitch and 1 <= missing <= MOST_MISSING:
            for k in range(1, missing + 1):
                box = xyxy[i].copy()
                middle = centre[i] + distance * k / (missing + 1)
                box[along], box[along + 2] = middle - pitch / 2, middle + pitch / 2
                gaps.append(box)
    return np.asarray(gaps, np.float32).reshape(-1, 4)


def row_duplicates(boxes: TileBoxes, stretched: Literal["x", "y"], closer: float = DUPLICATE) -> np.ndarray:
    """Mask of boxes to drop from a stretched row: a box whose centre lies within `closer` times the row's
    tile pitch (the median distance between neighbours in a line) of a better-scored box in its line is a
    second find of that tile (their IoU can stay under the NMS bar when one is cut short)."""
    _, centre, same_line = row_lines(boxes.xyxy, stretched)
    pitch = row_pitch(centre, same_line)
    drop = np.zeros(len(centre), bool)
    if pitch is None:
        return drop
    for i in np.argsort(-boxes.score, kind="stable"):
        if not drop[i]:
            drop |= (
                same_line[i] & (np.abs(centre - centre[i]) < closer * pitch) & (boxes.score <= boxes.score[i])
            )
    return drop
