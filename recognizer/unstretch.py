"""Photos stretched along one axis: find the tiles again with that axis squeezed back.

A crop around one row of tiles, stretched to a square (as some dataset exporters and apps do), turns each
tile into a tall sliver or, turned a quarter, a long bar, up to 1:15. The detector, which learned tiles of
about 3:4, finds few of them or only pieces. When the first pass finds such shapes, or almost nothing, the
detector is run again with the photo squeezed along one axis by a few factors, and the pass with the most
confident tiles wins if it clearly beats the first one.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Literal

import numpy as np

from recognizer.detector import Squeeze, TileBoxes

FACTORS = (3.0, 5.0, 6.5, 8.0, 10.0, 12.0, 16.0)
"""Squeeze factors tried along an axis (tiles in a stretched row run up to about 1:15), about 1.3 apart
from 5 to 12, where the row strips of valid are: 3-5-8-12-16 alone matched fewer of their tiles
(tiles right 331 -> 340 of 395, photos fully right 13 -> 17 of 34; on 120 strips cut from the ordinary
valid photos, datasets/row_strip.py, 1088 -> 1113 of 1838 and 16 -> 18)."""
SLIVER = 2.0
"""A first pass whose boxes have a median long/short side ratio above this looks stretched (tiles are
about 1.35; ordinary photos, even squeezed from 4:3, stay under 2)."""
DUPLICATE = 0.4
"""Two boxes of a stretched row closer than this many tile pitches are one tile found twice."""
WHOLE = 0.6
"""A box of a squeezed pass shorter than this share of the longest along the stretched axis is a piece."""
GAP = 1.6
"""Neighbours in a stretched row further apart than this many pitches have a tile's room between them."""
FEW = 3
"""A first pass with fewer boxes than this is also retried (a stretched row may give almost nothing)."""


def stretched_axes(boxes: TileBoxes, seen: float = 1.0) -> tuple[Literal["x", "y"], ...]:
    """The axes along which the photo may be stretched, judged from the first pass: none for ordinary
    tile shapes, the long side's axis for slivers, both when there are too few boxes to tell. `seen`:
    how much taller than in the photo a box looks to the detector (its input is the photo stretched to a
    square: width / height of the photo), as the shapes it learned are those of its input."""
    if len(boxes) < FEW:
        return ("x", "y")
    w = boxes.xyxy[:, 2] - boxes.xyxy[:, 0]
    h = boxes.xyxy[:, 3] - boxes.xyxy[:, 1]
    tall = float(np.median(h / np.maximum(w, 1e-6))) * seen
    if tall > SLIVER:
        return ("y",)
    if tall < 1 / SLIVER:
        return ("x",)
    return ()


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


def row_shares(xyxy: np.ndarray, stretched: Literal["x", "y"]) -> np.ndarray:
    """The boxes of a stretched row cut where they run into a neighbour in the same line, at the midpoint
    between the two centres along the row. The detector's boxes there run up to half a tile into the next
    one; a crop of the tile's own share reads it better (benchmarks/RESULTS.md)."""
    along, centre, same_line = row_lines(xyxy, stretched)
    out = xyxy.copy()
    for i in range(len(xyxy)):
        gap = centre - centre[i]
        after = np.nonzero(same_line[i] & (gap > 0))[0]
        if len(after):
            j = after[np.argmin(gap[after])]
            middle = (centre[i] + centre[j]) / 2
            out[i, along + 2] = min(out[i, along + 2], middle)
            out[j, along] = max(out[j, along], middle)
    return out


def row_pitch(centre: np.ndarray, same_line: np.ndarray) -> float | None:
    """The row's tile pitch: the median distance from each box to its nearest neighbour in its line (None
    when no box has a neighbour)."""
    steps = [
        float(np.min(np.abs(centre[same_line[i]] - centre[i])))
        for i in range(len(centre))
        if same_line[i].any()
    ]
    return float(np.median(steps)) if steps else None


def row_gaps(xyxy: np.ndarray, stretched: Literal["x", "y"], wider: float = GAP) -> np.ndarray:
    """Boxes for the places in a stretched row where the detector found nothing: between two neighbours in
    a line more than `wider` pitches apart, as many pitch-wide boxes as whole pitches fit, evenly spaced, as
    long across as the box before. The classifier decides whether a tile is there (Recognizer.recognize)."""
    along, centre, same_line = row_lines(xyxy, stretched)
    pitch = row_pitch(centre, same_line)
    gaps: list[np.ndarray] = []
    if pitch is None:
        return np.zeros((0, 4), np.float32)
    for i in range(len(xyxy)):
        after = np.nonzero(same_line[i] & (centre > centre[i]))[0]
        if not len(after):
            continue
        j = after[np.argmin(centre[after])]
        distance = float(centre[j] - centre[i])
        missing = round(distance / pitch) - 1
        if distance > wider * pitch and missing >= 1:
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
            if mass >= bar and mass > best_mass:
                best, best_mass, used = found, mass, squeeze
    return best, used
