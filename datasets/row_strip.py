"""Row-strip photos: a run of tiles from one row, cut out tightly and stretched to a square.

About one valid photo in nine (34 of 296) is made this way: a crop around one row of a hand, stretched to
640x640, so each tile is a tall sliver (median side ratio above 3, up to 1:15), sometimes turned a quarter so
the tiles lie as horizontal bars. The train split holds only three such photos, so the detector never saw
them and missed all 395 tiles in them. This augmentation makes them from ordinary train photos.
"""

from __future__ import annotations

import cv2
import numpy as np


def is_row_strip(boxes: np.ndarray, ratio: float = 3.0) -> bool:
    """A photo made this way: its tiles' median long/short side ratio is above `ratio` (ordinary photos,
    even squeezed from 4:3, stay under 2)."""
    if len(boxes) == 0:
        return False
    w, h = boxes[:, 2] - boxes[:, 0], boxes[:, 3] - boxes[:, 1]
    return bool(np.median(np.maximum(w, h) / np.maximum(np.minimum(w, h), 1e-6)) > ratio)


def row_members(boxes: np.ndarray, anchor: int) -> np.ndarray:
    """Indices of the boxes lying in a straight horizontal row with the anchor (centre within a third of
    its height, similar height), left to right."""
    a = boxes[anchor]
    ah = a[3] - a[1]
    cy = (boxes[:, 1] + boxes[:, 3]) / 2
    heights = boxes[:, 3] - boxes[:, 1]
    level = np.abs(cy - (a[1] + a[3]) / 2) < ah / 3
    same = np.flatnonzero(level & (heights > 0.6 * ah) & (heights < 1.6 * ah))
    return same[np.argsort(boxes[same, 0])]


def longest_row(boxes: np.ndarray, rng: np.random.Generator, tries: int = 5) -> np.ndarray:
    """The longest row found from a few random anchors (long rows make the tall slivers of the valid
    photos)."""
    return max((row_members(boxes, int(rng.integers(len(boxes)))) for _ in range(tries)), key=len)


Photo = tuple[np.ndarray, np.ndarray, np.ndarray]
"""An image (RGB uint8), its boxes (xyxy float32) and their label indices."""


def cut_row(
    img: np.ndarray, boxes: np.ndarray, labels: np.ndarray, rng: np.random.Generator, band: bool = True
) -> Photo | None:
    """Cut a run of tiles of one row (or of a column, turned into a row) tightly, with a little table
    around it; without a clean row, a band through one tile across much of the photo (if `band`). Returns
    the cut, its boxes (those mostly inside, clipped) and their labels; None for a photo with under three
    tiles, or without a clean row when `band` is False."""
    if len(boxes) < 3:
        return None
    turned = turned_boxes(boxes, img.shape[:2], clockwise=True)  # a column of the photo is a row of this
    options = [boxes, turned] if rng.random() < 0.5 else [turned, boxes]
    rows = [longest_row(b, rng) for b in options]
    pick = 0 if len(rows[0]) >= 3 or len(rows[1]) < 3 else 1
    if options[pick] is turned:  # the image is only turned when its column is the row used
        img = cv2.rotate(img, cv2.ROTATE_90_CLOCKWISE)
    boxes, row = options[pick], rows[pick]
    h, w = img.shape[:2]
    if len(row) >= 3:  # a run of that row, with a little table at the ends
        n = int(rng.integers(min(3, len(row)), len(row) + 1))
        first = int(rng.integers(0, len(row) - n + 1))
        run = boxes[row[first : first + n]]
        tw = float(np.median(run[:, 2] - run[:, 0]))
        x0 = run[:, 0].min() - rng.uniform(0.0, 0.4) * tw
        x1 = run[:, 2].max() + rng.uniform(0.0, 0.4) * tw
    elif not band:
        return None
    else:  # no clean row (turned or scattered tiles): a band through one tile, across much of the photo
        run = boxes[row[:1]] if len(row) else boxes[int(rng.integers(len(boxes)))][None]
        span = rng.uniform(0.4, 1.0) * w
        lo, hi = sorted((max(run[0, 2] - span, 0.0), max(min(run[0, 0], w - span), 0.0)))
        x0 = rng.uniform(lo, hi + 1e-3)  # the band holds the tile when it can (a big tile may not fit)
        x1 = x0 + span
    th = float(np.median(run[:, 3] - run[:, 1]))
    y0 = run[:, 1].min() - rng.uniform(-0.1, 0.8) * th  # often table above, sometimes the tops cut
    y1 = run[:, 3].max() + rng.uniform(-0.3, 0.3) * th
    x0, y0 = int(max(x0, 0)), int(max(y0, 0))
    x1, y1 = int(min(np.ceil(x1), w)), int(min(np.ceil(y1), h))
    if x1 - x0 < 4 or y1 - y0 < 4:
        return None
    cb = boxes.copy().astype(np.float32)
    cb[:, [0, 2]] = np.clip(cb[:, [0, 2]], x0, x1)
    cb[:, [1, 3]] = np.clip(cb[:, [1, 3]], y0, y1)
    area = (boxes[:, 2] - boxes[:, 0]) * (boxes[:, 3] - boxes[:, 1])
    inside = (cb[:, 2] - cb[:, 0]) * (cb[:, 3] - cb[:, 1])
    keep = inside >= 0.5 * np.maximum(area, 1e-6)
    cb = cb[keep] - np.array([x0, y0, x0, y0], dtype=np.float32)
    return img[y0:y1, x0:x1], cb, labels[keep]


def join_cuts(cuts: list[Photo]) -> Photo:
    """Cuts side by side at the height of the first (so runs from several photos make one long row)."""
    height = cuts[0][0].shape[0]
    images, all_boxes, all_labels, x = [], [], [], 0.0
    for img, boxes, labels in cuts:
        f = height / img.shape[0]
        width = max(round(img.shape[1] * f), 1)
        images.append(
            cv2.resize(img, (width, height), interpolation=cv2.INTER_AREA if f < 1 else cv2.INTER_LINEAR)
        )
        all_boxes.append(
            boxes * np.array([f, f, f, f], dtype=np.float32) + np.array([x, 0, x, 0], np.float32)
        )
        all_labels.append(labels)
        x += width
    return np.hstack(images), np.concatenate(all_boxes), np.concatenate(all_labels)


def stretch_to_square(photo: Photo, size: int, rng: np.random.Generator) -> Photo:
    """Stretch to `size` x `size` (as the dataset's exporter did), turned a quarter half of the time."""
    img, boxes, labels = photo
    sx, sy = size / img.shape[1], size / img.shape[0]
    out = cv2.resize(img, (size, size), interpolation=cv2.INTER_AREA if sx < 1 else cv2.INTER_LINEAR)
    b = boxes * np.array([sx, sy, sx, sy], dtype=np.float32)
    if rng.random() < 0.5:
        out, b = quarter_turn(out, b, clockwise=bool(rng.random() < 0.5))
    return out, b, labels


def row_strip(
    img: np.ndarray, boxes: np.ndarray, labels: np.ndarray, rng: np.random.Generator, size: int = 640
) -> Photo | None:
    """One photo's run of a row, stretched to `size` x `size` and turned a quarter half of the time:
    the image, its boxes (xyxy, clipped to the strip) and their labels, or None for under three tiles."""
    cut = cut_row(img, boxes, labels, rng)
    return None if cut is None else stretch_to_square(cut, size, rng)


def long_strip(
    photos: list[Photo], rng: np.random.Generator, size: int = 640, tiles: tuple[int, int] = (4, 20)
) -> Photo | None:
    """Like `row_strip`, but clean runs from the photos in turn are joined until the row holds a random
    number of tiles in `tiles` (train photos have short rows; the valid strips hold 9 to 19 tiles). None
    when no photo has a clean row."""
    want = int(rng.integers(tiles[0], tiles[1] + 1))
    cuts: list[Photo] = []
    for photo in photos:
        cut = cut_row(*photo, rng, band=False)
        if cut is not None and len(cut[1]):
            cuts.append(cut)
            if sum(len(c[1]) for c in cuts) >= want:
                break
    return stretch_to_square(join_cuts(cuts), size, rng) if cuts else None


def turned_boxes(boxes: np.ndarray, size: tuple[int, int], clockwise: bool) -> np.ndarray:
    """xyxy boxes of an image of `size` (h, w) turned by 90 degrees, as in the turned image."""
    h, w = size
    if clockwise:  # (x, y) -> (h - y, x)
        b = np.stack([h - boxes[:, 3], boxes[:, 0], h - boxes[:, 1], boxes[:, 2]], 1)
    else:  # (x, y) -> (y, w - x)
        b = np.stack([boxes[:, 1], w - boxes[:, 2], boxes[:, 3], w - boxes[:, 0]], 1)
    return b.astype(np.float32)


def quarter_turn(img: np.ndarray, boxes: np.ndarray, clockwise: bool) -> tuple[np.ndarray, np.ndarray]:
    """Turn an image and its xyxy boxes by 90 degrees."""
    turn = cv2.ROTATE_90_CLOCKWISE if clockwise else cv2.ROTATE_90_COUNTERCLOCKWISE
    return cv2.rotate(img, turn), turned_boxes(boxes, img.shape[:2], clockwise)
