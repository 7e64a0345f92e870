"""Blank white dragons: a tile read as a back whose face is plain and the colour of the photo's other faces.

Riichi sets and many Chinese sets print nothing on the white dragon. To a classifier that has seen few of
them such a tile looks like a face-down tile (no ink), yet a back is coloured (green, blue, yellow, black)
and darker than the faces, while a blank white dragon is the faces' own ivory. So a tile read as a back
whose middle is plain and matches the ground of the photo's face-up tiles is given that reading's share as
a white dragon. A set ivory all through (backs as pale as faces) shows its face-down tiles by the
detector's face-down channel (locked backs), which this leaves alone.
"""

from __future__ import annotations

import cv2
import numpy as np

from recognizer.labels import BACK_INDEX, LABELS

WHITE_DRAGON = LABELS.index("5z")

CHROMA_MAX = 8.0
"""Most a blank face's colour (Lab a*, b*) may lie from the faces' ground. Synthetic scenes of the train
artworks: no face-down tile within it (0 of 696), blank white dragons 73 % (benchmarks/RESULTS.md)."""
DARKER_MAX = 15.0
"""Most a blank face's lightness (Lab L, 0-100) may lie under the faces' ground (backs: 35 under)."""
PLAIN_MAX = 10.0
"""Most spread of lightness in a blank face's middle (ink on a face spreads it to 12 and more)."""
INNER = 0.2
"""Share of the box cut from each side before its colour is read: the face's middle, not its edges."""
REFERENCE_MIN = 3
"""Face-up tiles a photo needs before their ground counts as the faces' colour."""
SURE_FACE = 0.5
"""Probability at which a face-up reading counts as a face for the reference."""


def middle_colour(rgb: np.ndarray, box: np.ndarray) -> tuple[np.ndarray, float, np.ndarray] | None:
    """The middle of `box` (xyxy in `rgb` pixels) as (median Lab, spread of L, median Lab of its
    brightest 40 %: a face's ground under its ink); None for a box too small to read."""
    h, w = rgb.shape[:2]
    x0, y0, x1, y1 = (float(v) for v in box)
    dx, dy = INNER * (x1 - x0), INNER * (y1 - y0)
    xa, xb = max(int(x0 + dx), 0), min(int(x1 - dx), w)
    ya, yb = max(int(y0 + dy), 0), min(int(y1 - dy), h)
    if xb - xa < 2 or yb - ya < 2:
        return None
    patch = rgb[ya:yb, xa:xb].astype(np.float32) / np.float32(255)
    lab = cv2.cvtColor(patch, cv2.COLOR_RGB2Lab).reshape(-1, 3)
    light = lab[:, 0]
    ground = lab[light >= np.percentile(light, 60)]
    return np.median(lab, axis=0), float(light.std()), np.median(ground, axis=0)


def blank_faces(rgb: np.ndarray, xyxy: np.ndarray, probs: np.ndarray, locked: np.ndarray) -> np.ndarray:
    """Mask of boxes read as backs (not `locked` by the detector) whose middle is plain and the colour of
    the ground of the photo's sure face-up tiles; all False when fewer than REFERENCE_MIN of those."""
    choice = probs.argmax(axis=1)
    candidates = np.nonzero((choice == BACK_INDEX) & ~locked)[0]
    out = np.zeros(len(probs), bool)
    if len(candidates) == 0:
        return out
    faces = np.nonzero((choice != BACK_INDEX) & (probs.max(axis=1) >= SURE_FACE))[0]
    grounds = [m[2] for m in (middle_colour(rgb, xyxy[i]) for i in faces) if m is not None]
    if len(grounds) < REFERENCE_MIN:
        return out
    ground = np.median(np.array(grounds), axis=0)
    for i in candidates:
        seen = middle_colour(rgb, xyxy[i])
        if seen is None:
            continue
        colour, spread, _ = seen
        chroma = float(np.hypot(colour[1] - ground[1], colour[2] - ground[2]))
        darker = float(ground[0] - colour[0])
        out[i] = chroma <= CHROMA_MAX and darker <= DARKER_MAX and spread <= PLAIN_MAX
    return out


def as_white_dragons(probs: np.ndarray, blank: np.ndarray) -> np.ndarray:
    """`probs` with the back probability of the `blank` rows moved to the white dragon."""
    if not blank.any():
        return probs
    out = probs.copy()
    out[blank, WHITE_DRAGON] += out[blank, BACK_INDEX]
    out[blank, BACK_INDEX] = 0.0
    return out
