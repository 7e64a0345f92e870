"""Photos stretched along one axis: find the tiles again with that axis squeezed back.

A crop around one row of tiles, stretched to a square (as some dataset exporters and apps do), turns each
tile into a tall sliver or, turned a quarter, a long bar, up to 1:15. The detector, which learned tiles of
about 3:4, finds few of them or only pieces. When the first pass finds such shapes, or almost nothing, the
detector is run again with the photo squeezed along one axis by a few factors, and the pass with the most
confident tiles wins if it clearly beats the first one, unless its boxes are the parts of tiles the first
pass already holds (`parts_of_tiles`: the circles, sticks and edges of a big lone tile read as slivers).
Only square photos are retried (`may_be_stretched`): stretching to a square is the exporters' habit.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Literal

import numpy as np

from recognizer.detector import Squeeze, TileBoxes, pairwise_overlap

FACTORS = (3.0, 5.0, 6.5, 8.0, 10.0, 12.0, 16.0)
"""Squeeze factors tried along an axis (tiles in a stretched row run up to about 1:15), about 1.3 apart
from 5 to 12, where the row strips of valid are: 3-5-8-12-16 alone matched fewer of their tiles
(tiles right 331 -> 340 of 395, photos fully right 13 -> 17 of 34; on 120 strips cut from the ordinary
valid photos, datasets/row_strip.py, 1088 -> 1113 of 1838 and 16 -> 18)."""
SLIVER = 2.0
"""A first pass whose boxes have a median long/short side ratio above this looks stretched (tiles are
about 1.35; ordinary photos, even squeezed from 4:3, stay under 2)."""
WHOLE = 0.6
"""A box of a squeezed pass shorter than this share of the longest along the stretched axis is a piece."""
FEW = 3
"""A first pass with fewer boxes than this scored at least CONFIDENT is also retried (a stretched row may
give almost nothing, or a few weak pieces of tiles)."""
CONFIDENT = 0.5
"""A first-pass box scored this high counts towards FEW. Counting every box, a row strip whose first pass
found three weak pieces of ordinary shape was never retried; counting only these, 120 strips cut from the
ordinary valid photos (datasets/row_strip.py, seed 11) have 1236 -> 1363 of 1838 tiles right, 29 -> 32
fully right; the valid split 6488 -> 6504 tiles right, the same photos fully right."""
PART_INSIDE = 0.8
"""A squeezed pass's box at least this share inside a first-pass box lies in that tile (parts_of_tiles)."""
SQUARE_TOLERANCE = 0.02
"""A photo whose sides differ by at most this share is square (may_be_stretched)."""


def may_be_stretched(width: int, height: int) -> bool:
    """Whether a photo can be a crop stretched to a square: only a square photo can. A phone photo (4:3,
    16:9) never takes the squeezed retry, whose false wins cost close-ups and clutter dearly (world tune
    scenes with the retry off: close-up tile F1 0.724 -> 0.841, clutter 0.878 -> 0.890; benchmarks/
    RESULTS.md, session 10), while valid's stretched row strips, all square exports, need it."""
    return abs(width - height) <= SQUARE_TOLERANCE * max(width, height, 1)


def stretched_axes(boxes: TileBoxes, seen: float = 1.0) -> tuple[Literal["x", "y"], ...]:
    """The axes along which the photo may be stretched, judged from the first pass: none for ordinary
    tile shapes, the long side's axis for slivers, both when there are too few sure boxes to tell. `seen`:
    how much taller than in the photo a box looks to the detector (its input is the photo stretched to a
    square: width / height of the photo), as the shapes it learned are those of its input."""
    if int((boxes.score >= CONFIDENT).sum()) < FEW:
        return ("x", "y")
    w = boxes.xyxy[:, 2] - boxes.xyxy[:, 0]
    h = boxes.xyxy[:, 3] - boxes.xyxy[:, 1]
    tall = float(np.median(h / np.maximum(w, 1e-6))) * seen
    if tall > SLIVER:
        return ("y",)
    if tall < 1 / SLIVER:
        return ("x",)
    return ()


def confidence_mass(boxes: TileBoxes) -> float:
    """How much a pass found: the sum of its peak scores. In a squeezed pass only boxes at least WHOLE of
    the longest along the stretched axis count: the tiles of a stretched row all span it, and a factor
    too small splits them into pieces whose scores would add up (row strips of valid: tiles right 345 ->
    349 of 394; 120 strips cut from ordinary photos: fully right 24 -> 27)."""
    if boxes.squeeze is None or len(boxes) == 0:
        return float(boxes.score.sum())
    stretched = 0 if boxes.squeeze[0] == "x" else 1
    length = boxes.xyxy[:, stretched + 2] - boxes.xyxy[:, stretched]
    return float(boxes.score[length >= WHOLE * length.max()].sum())


def sure(boxes: TileBoxes, back_lock: float) -> TileBoxes:
    """The boxes that count when passes are judged: face-up ones, and face-down ones scored at least
    `back_lock` (weaker face-down boxes wait for the classifier; a stretched row gives a few of them)."""
    return boxes.select(np.nonzero(~boxes.back | (boxes.score >= back_lock))[0])


def parts_of_tiles(squeezed: TileBoxes, first: TileBoxes) -> bool:
    """Whether most boxes of a squeezed pass lie inside first-pass boxes (any score) that each hold two or
    more of them: the parts of one tile, not the tiles of a stretched row. A lone tile on a plain table,
    found weakly by the first pass, gave slivers on its circles and edges when squeezed, and they won (real
    lone tiles cut from the sample photos: 131 -> 139 of 148 read right with this check)."""
    if len(squeezed) == 0 or len(first) == 0:
        return False
    overlap, area, _ = pairwise_overlap(squeezed.xyxy, first.xyxy)
    inside = overlap / np.maximum(area[:, None], 1e-9) >= PART_INSIDE  # (squeezed, first)
    holds_parts = inside.sum(axis=0) >= 2
    return bool(inside[:, holds_parts].any(axis=1).mean() >= 0.5)


def unstretch(
    first: TileBoxes, detect: Callable[[Squeeze], TileBoxes], back_lock: float = 0.0, seen: float = 1.0
) -> tuple[TileBoxes, Squeeze | None]:
    """The first pass, or a squeezed pass (`detect(squeeze)`, boxes in the photo's pixels) that finds
    clearly more: at least twice the first pass's confidence mass and 1.5 more, counting only `sure`
    boxes. Returns the boxes and the squeeze used (None for the first pass). `seen`: see stretched_axes."""
    judged = sure(first, back_lock)
    axes = stretched_axes(judged, seen)
    best, best_mass, used = first, confidence_mass(judged), None
    bar = max(2 * best_mass, best_mass + 1.5)
    for axis in axes:
        for factor in FACTORS:
            squeeze: Squeeze = (axis, factor)
            found = detect(squeeze)
            mass = confidence_mass(sure(found, back_lock))
            if mass >= bar and mass > best_mass and not parts_of_tiles(found, first):
                best, best_mass, used = found, mass, squeeze
    return best, used
