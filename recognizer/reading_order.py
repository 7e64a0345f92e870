"""Reading order: group tiles into rows (top to bottom), left to right within a row."""

from __future__ import annotations

import numpy as np

MIN_OVERLAP = 0.5
"""Two neighbouring tiles share a row when their vertical extents overlap by half the smaller height."""
MAX_GAP = 4.0
"""...and their centres are at most this many tile widths apart (so a tilted row is chained, not merged)."""


def _find(parent: list[int], i: int) -> int:
    while parent[i] != i:
        parent[i] = parent[parent[i]]
        i = parent[i]
    return i


def _merge_side_by_side(boxes: np.ndarray, parent: list[int]) -> None:
    """Join groups at the same height that sit apart (a flower laid beside the hand): their typical
    vertical extents overlap by MIN_OVERLAP and their horizontal spans do not overlap."""
    while True:
        roots = np.array([_find(parent, i) for i in range(len(boxes))])
        groups = [int(g) for g in np.unique(roots)]
        band = {g: np.median(boxes[roots == g][:, [1, 3]], axis=0) for g in groups}
        width = {g: float(np.median(boxes[roots == g][:, 2] - boxes[roots == g][:, 0])) for g in groups}
        span = {g: (boxes[roots == g, 0].min(), boxes[roots == g, 2].max()) for g in groups}
        pair = next(
            (
                (a, b)
                for k, a in enumerate(groups)
                for b in groups[k + 1 :]
                if _same_height(band[a], band[b])
                and min(span[a][1], span[b][1]) - max(span[a][0], span[b][0])
                <= 0.25 * min(width[a], width[b])
            ),
            None,
        )
        if pair is None:
            return
        parent[_find(parent, pair[0])] = _find(parent, pair[1])


def _same_height(a: np.ndarray, b: np.ndarray) -> bool:
    """Vertical extents (y0, y1) overlapping by at least MIN_OVERLAP of the smaller one."""
    overlap = min(a[1], b[1]) - max(a[0], b[0])
    return bool(overlap >= MIN_OVERLAP * max(min(a[1] - a[0], b[1] - b[0]), 1e-9))


def assign_rows(xyxy: np.ndarray) -> np.ndarray:
    """Row index per box: rows numbered top to bottom by their mean centre height."""
    n = len(xyxy)
    if n == 0:
        return np.zeros(0, np.int64)
    boxes = np.asarray(xyxy, dtype=np.float64)
    x0, y0, x1, y1 = boxes.T
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    widths, heights = x1 - x0, y1 - y0
    overlap = np.minimum(y1[:, None], y1[None, :]) - np.maximum(y0[:, None], y0[None, :])
    share = overlap / np.maximum(np.minimum(heights[:, None], heights[None, :]), 1e-9)
    near = np.abs(cx[:, None] - cx[None, :]) <= MAX_GAP * np.maximum(widths[:, None], widths[None, :])
    parent = list(range(n))
    for i, j in zip(*np.nonzero(np.triu((share >= MIN_OVERLAP) & near, 1)), strict=True):
        parent[_find(parent, int(i))] = _find(parent, int(j))
    _merge_side_by_side(boxes, parent)
    roots = np.array([_find(parent, i) for i in range(n)])
    groups = np.unique(roots)
    heights_of = {root: float(cy[roots == root].mean()) for root in groups}
    order = sorted(groups, key=lambda root: (heights_of[root], float(cx[roots == root].min())))
    rank = {root: k for k, root in enumerate(order)}
    return np.array([rank[root] for root in roots], dtype=np.int64)


def reading_order(xyxy: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Permutation putting boxes in reading order, and the row of each box in that new order."""
    rows = assign_rows(xyxy)
    if len(rows) == 0:
        return np.zeros(0, np.int64), rows
    cx = (np.asarray(xyxy)[:, 0] + np.asarray(xyxy)[:, 2]) / 2
    order = np.lexsort((cx, rows))
    return order.astype(np.int64), rows[order]
