"""A tile found twice: a big tilted tile close to the camera can give the detector two peaks, one for the
whole tile and one for a part of it, and the classifier then reads both boxes as the same tile.

In the valid photos 8 of the 64 boxes that match no tile are such twins (6 on tilted close-up tiles of
one set, 2 in another photo), and no two boxes that each match a tile have the same code and overlap
that much: tiles side by side in a row tilted 30 degrees cover about 0.3 of each other's box (up to 0.57
was seen between tiles of different codes, which this rule leaves alone).
"""

from __future__ import annotations

import numpy as np

from recognizer.detector import pairwise_overlap

TWIN_COVER = 0.5
"""Two boxes of one code are one tile when their overlap is at least this share of the smaller box."""


def cover_matrix(xyxy: np.ndarray) -> np.ndarray:
    """(n, n): the overlap of boxes i and j as a share of the smaller of the two areas."""
    overlap, area, _ = pairwise_overlap(xyxy, xyxy)
    return overlap / np.maximum(np.minimum(area[:, None], area[None, :]), 1e-9)


def found_twice(
    xyxy: np.ndarray, codes: np.ndarray, confidence: np.ndarray, exempt: int, cover: float = TWIN_COVER
) -> np.ndarray:
    """Mask of boxes to drop: each has the code of a more confident kept box that covers at least `cover`
    of the smaller of the two. Boxes of code `exempt` are never twins (face-down tiles: a concealed kong's
    middle pair lies close, and the face-down rule decides them)."""
    n = len(xyxy)
    drop = np.zeros(n, bool)
    if n < 2:
        return drop
    shared = cover_matrix(xyxy.astype(np.float64)) >= cover
    for keep in np.argsort(-confidence, kind="stable"):
        if drop[keep] or codes[keep] == exempt:
            continue
        twins = shared[keep] & (codes == codes[keep]) & ~drop
        twins[keep] = False
        drop |= twins
    return drop
