"""A made-up tile set's way of drawing, applied to faces of any artwork: the strokes thicker or thinner,
hollow or brushed, bent by a smooth warp, the elements nudged apart, the inks swapped, the design blocky.

A real set nobody trained on draws the same glyphs in its own hand. `datasets.world_scenes --restyle P`
draws one `Restyle` for a share P of the scenes and passes every face of that scene through it, so that
the tiles of one scene share a look (as one set's tiles do) while the classifier sees each code in many
hands it has never seen. Faces are RGBA, ink on a transparent ground (about 128 px tall); a face with an
opaque ground (a dark face such as FluffyStuff Black) is only warped, its strokes are left as drawn.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from datasets.faces_common import over
from datasets.faces_western import swap_inks

REFERENCE_HEIGHT = 128
"""The face height the stroke and warp sizes below are given for; other heights scale them."""
OPAQUE_SHARE = 0.9
"""A face whose alpha covers more than this share is a dark face with its own ground: warped only."""
MAX_ELEMENTS = 24
"""Elements (connected pieces of ink) are nudged apart only on faces with at most this many."""
INK_KEPT = (0.55, 1.7)
"""Stroke changes that leave less or more than this share of the ink (a thin stroke gone, a dense glyph
grown into a blot), that empty a piece of the design or fill its holes are not made: the face must still
say its code."""
PIECE_KEPT = 0.5
"""... a piece of ink (a numeral, a stick) keeping less than this share of itself counts as emptied ..."""
HOLES_KEPT = 0.75
"""... and the design keeping less than this share of its holes (a 9's loop, the gaps in 萬) as filled."""


@dataclass(frozen=True)
class Restyle:
    """One set's drawing habits, drawn once per scene (`draw_restyle`); `apply` gives a face in them."""

    weight: int  # strokes grown (> 0) or thinned (< 0) by this many pixels at REFERENCE_HEIGHT
    hollow: bool  # strokes drawn as their outline
    brush: float  # > 0: alpha blurred by this sigma (px) and cut again: rounded, blobby strokes
    cut: float  # the level the brushed alpha is cut at (0.3 thick ... 0.7 thin)
    warp: float  # smooth displacement of the design, px at REFERENCE_HEIGHT
    shear: float  # horizontal shear of the design (italic), -0.15 .. 0.15
    squash: float  # height of the design against its width, 0.88 .. 1.12
    nudge: float  # elements moved apart by up to this share of the face width
    inks: tuple[tuple[str, str], ...]  # ink swaps (source, target) as `faces_western.swap_inks` takes
    pixel: int  # > 0: the design shown at this many pixels tall (a blocky bitmap set)
    seed: int  # the per-face warps and nudges are drawn from [seed, face number]

    def apply(self, face: np.ndarray, number: int) -> np.ndarray:
        """`face` (RGBA uint8) drawn in this style; `number` tells the faces of a scene apart (the same face
        and number give the same drawing)."""
        if face.ndim != 3 or face.shape[2] != 4 or min(face.shape[:2]) < 8:
            return face
        alpha = face[:, :, 3]
        if not alpha.any():
            return face  # a blank face (a blank white dragon) stays blank
        rng = np.random.default_rng([self.seed, number])
        scale = face.shape[0] / REFERENCE_HEIGHT
        opaque = float((alpha > 128).mean()) > OPAQUE_SHARE
        out = face
        if not opaque:
            if self.nudge > 0:
                out = nudge_elements(out, self.nudge, rng)
            if self.inks:
                out = swap_inks(out, dict(self.inks))
            out = self._strokes(out, scale)
        out = warp_face(out, self.warp * scale, self.shear, self.squash, rng)
        if self.pixel > 0 and not opaque:
            out = pixelate(out, self.pixel)
        return out

    def _strokes(self, face: np.ndarray, scale: float) -> np.ndarray:
        """Weight, brush and hollow applied to the ink's alpha (the colours grown with it); left out when
        they would leave the design unreadable (`still_reads`)."""
        out = face
        grow = round(self.weight * scale)
        if grow:
            out = grow_ink(out, grow)
        if self.brush > 0:
            out = brush_ink(out, self.brush * scale, self.cut)
        if not still_reads(face, out):
            out = face
        if self.hollow:
            out = hollow_ink(out, max(1, round(2 * scale)))
        return out


def still_reads(before: np.ndarray, after: np.ndarray) -> bool:
    """Whether a stroke change kept the design: the ink's area within INK_KEPT of what it was, every piece
    of ink (of 6 px or more) keeping PIECE_KEPT of itself and HOLES_KEPT of the holes left open."""
    old, new = before[:, :, 3] > 96, after[:, :, 3] > 96
    area = int(old.sum())
    if area == 0:
        return True
    if not INK_KEPT[0] <= new.sum() / area <= INK_KEPT[1]:
        return False
    count, labels, stats, _ = cv2.connectedComponentsWithStats(old.astype(np.uint8), connectivity=8)
    for label in range(1, count):
        size = int(stats[label, cv2.CC_STAT_AREA])
        if size >= 6 and np.count_nonzero(new[labels == label]) < PIECE_KEPT * size:
            return False
    return holes(new) >= int(HOLES_KEPT * holes(old))


def holes(ink: np.ndarray) -> int:
    """The number of ground regions the ink encloses (the ground around the design not counted)."""
    count, _ = cv2.connectedComponents(np.pad(~ink, 1, constant_values=True).astype(np.uint8), connectivity=4)
    return count - 2


def draw_restyle(rng: np.random.Generator) -> Restyle:
    """One made-up set's habits; each change comes by its own chance, so most sets have two or three."""
    inks: tuple[tuple[str, str], ...] = ()
    if rng.random() < 0.3:
        names = ("black", "red", "green", "blue")  # the inks `swap_inks` tells apart
        targets = list(rng.permutation(names))
        inks = tuple((s, str(t)) for s, t in zip(names, targets, strict=True) if s != t)
    return Restyle(
        weight=int(rng.choice([-2, -1, 1, 2])) if rng.random() < 0.5 else 0,
        hollow=bool(rng.random() < 0.12),
        brush=float(rng.uniform(1.5, 3.0)) if rng.random() < 0.3 else 0.0,
        cut=float(rng.uniform(0.35, 0.65)),
        warp=float(rng.uniform(1.0, 5.0)) if rng.random() < 0.7 else 0.0,
        shear=float(rng.uniform(-0.15, 0.15)) if rng.random() < 0.3 else 0.0,
        squash=float(rng.uniform(0.88, 1.12)) if rng.random() < 0.4 else 1.0,
        nudge=float(rng.uniform(0.01, 0.05)) if rng.random() < 0.4 else 0.0,
        inks=inks,
        pixel=int(rng.integers(28, 48)) if rng.random() < 0.1 else 0,
        seed=int(rng.integers(2**31)),
    )


def _disk(radius: int) -> np.ndarray:
    return cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * radius + 1, 2 * radius + 1))


def grow_ink(face: np.ndarray, pixels: int) -> np.ndarray:
    """Strokes grown (pixels > 0) or thinned (< 0); grown pixels take the colour of the ink beside them."""
    if pixels < 0:
        out = face.copy()
        out[:, :, 3] = cv2.erode(face[:, :, 3], _disk(-pixels))
        return out
    return _spread(face, cv2.dilate(face[:, :, 3], _disk(pixels)), pixels)


def _spread(face: np.ndarray, alpha: np.ndarray, pixels: int) -> np.ndarray:
    """`face` with the alpha `alpha`; where ink is new its colour is the alpha-weighted mean of the ink
    within `pixels` (a box blur of premultiplied colour)."""
    a = face[:, :, 3:].astype(np.float32) / 255
    size = (2 * pixels + 3, 2 * pixels + 3)
    premul = cv2.blur(face[:, :, :3].astype(np.float32) * a, size)
    weight = cv2.blur(a, size)[:, :, None]
    spread = premul / np.maximum(weight, 1e-3)
    rgb = np.where(a > 0.5, face[:, :, :3].astype(np.float32), spread)
    return np.dstack([np.clip(rgb, 0, 255), alpha]).astype(np.uint8)


def brush_ink(face: np.ndarray, sigma: float, cut: float) -> np.ndarray:
    """The ink's alpha blurred and cut again at `cut`: corners round, thin strokes fade or thicken."""
    a = cv2.GaussianBlur(face[:, :, 3].astype(np.float32) / 255, (0, 0), sigma)
    soft = np.clip((a - cut) / 0.12 + 0.5, 0, 1)
    alpha = (soft * 255).astype(np.uint8)
    return _spread(face, alpha, max(1, round(sigma)))


def hollow_ink(face: np.ndarray, width: int) -> np.ndarray:
    """Strokes drawn as outlines `width` pixels wide (thin strokes stay whole)."""
    alpha = face[:, :, 3]
    inner = cv2.erode(alpha, _disk(width))
    out = face.copy()
    out[:, :, 3] = cv2.subtract(alpha, inner)
    return out


def nudge_elements(face: np.ndarray, share: float, rng: np.random.Generator) -> np.ndarray:
    """Each connected piece of ink moved by up to `share` of the face width (a layout drawn by another
    hand); faces of one piece or of very many are left as they are."""
    mask = (face[:, :, 3] > 32).astype(np.uint8)
    count, labels = cv2.connectedComponents(mask, connectivity=8)
    if count <= 2 or count - 1 > MAX_ELEMENTS:
        return face
    h, w = mask.shape
    reach = share * w
    out = np.zeros_like(face)
    taken = np.zeros((h, w), bool)
    near = cv2.dilate(labels.astype(np.float32), _disk(1)).astype(np.int32)  # anti-aliased rims go along
    for label in range(1, count):
        piece = (near == label) & (face[:, :, 3] > 0) & ~taken
        taken |= piece
        dx, dy = rng.uniform(-reach, reach, 2)
        shift = np.array([[1, 0, dx], [0, 1, dy]], np.float32)
        layer = np.where(piece[:, :, None], face, 0).astype(np.uint8)
        moved = cv2.warpAffine(layer, shift, (w, h), flags=cv2.INTER_LINEAR, borderValue=(0, 0, 0, 0))
        out = over(moved, out)
    rest = (face[:, :, 3] > 0) & ~taken
    out[rest] = face[rest]
    return out


def warp_face(
    face: np.ndarray, warp: float, shear: float, squash: float, rng: np.random.Generator
) -> np.ndarray:
    """The design sheared, squashed about its middle and bent by a smooth random displacement of about
    `warp` pixels (cells of a sixth of the face); the face keeps its size."""
    h, w = face.shape[:2]
    ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
    cy = (h - 1) / 2
    map_y = cy + (ys - cy) / squash
    map_x = xs + shear * (ys - cy)
    if warp > 0:
        cells = (max(2, round(h / 6)), max(2, round(w / 6)))
        for grid in (map_x, map_y):
            noise = rng.normal(0, 1, (h // cells[0] + 2, w // cells[1] + 2)).astype(np.float32)
            field = cv2.resize(noise, (w, h), interpolation=cv2.INTER_CUBIC)
            grid += warp * field / max(float(np.abs(field).max()), 1e-3)
    border = (0, 0, 0, 0) if face[:, :, 3].min() == 0 else tuple(int(v) for v in face[0, 0])
    return cv2.remap(face, map_x, map_y, cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT, borderValue=border)


def pixelate(face: np.ndarray, height: int) -> np.ndarray:
    """The design shown `height` pixels tall and blown up again: a blocky bitmap look."""
    h, w = face.shape[:2]
    small = cv2.resize(face, (max(2, round(w * height / h)), height), interpolation=cv2.INTER_AREA)
    return cv2.resize(small, (w, h), interpolation=cv2.INTER_NEAREST)
