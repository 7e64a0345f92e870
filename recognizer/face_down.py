"""Face-down tiles the detector is unsure of: kept only beside another face-down tile.

NTS lays a concealed kong with its two middle tiles face down, so face-down tiles come in touching pairs.
The detector's face-down channel also fires, weakly, on the table between spaced tiles (felt between two
upright tiles looks like a green tile back). A weak face-down box (below `Settings.back_lock`) that the
classifier also reads as a back is therefore kept only when another face-down box touches it in its row
or column; a strong one is kept alone.
"""

from __future__ import annotations

import numpy as np

from recognizer.detector import TileBoxes

TOUCH = 0.5
"""Two boxes touch when the gap between them is under this share of the narrower one's width."""
ROW_OVERLAP = 0.5
"""... and they overlap across the row by at least this share of the shorter one's height."""


def _touching(a: np.ndarray, b: np.ndarray) -> bool:
    """Side by side in a row (or, turned, in a column), with at most a small gap."""
    for x0, x1, y0, y1 in ((0, 2, 1, 3), (1, 3, 0, 2)):  # a row, then a column
        across = min(a[y1], b[y1]) - max(a[y0], b[y0])
        shorter = min(a[y1] - a[y0], b[y1] - b[y0])
        gap = max(b[x0] - a[x1], a[x0] - b[x1])
        narrower = min(a[x1] - a[x0], b[x1] - b[x0])
        if across >= ROW_OVERLAP * shorter and gap <= TOUCH * narrower:
            return True
    return False


def lone_weak_backs(boxes: TileBoxes, read_back: np.ndarray, back_lock: float) -> np.ndarray:
    """Mask of boxes to drop: found by the face-down channel below `back_lock`, read as a back
    (`read_back`), and touching no other face-down box."""
    backs = np.nonzero(boxes.back)[0]
    drop = np.zeros(len(boxes), bool)
    for i in backs:
        if boxes.score[i] >= back_lock or not read_back[i]:
            continue
        drop[i] = not any(_touching(boxes.xyxy[i], boxes.xyxy[j]) for j in backs if j != i)
    return drop
