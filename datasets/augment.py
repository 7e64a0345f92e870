"""Shared augmentations: image cache, colour jitter, ink and pen changes, blur/JPEG noise, part of a face
hidden or washed out, and synthetic face-down tiles."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import cv2
import numpy as np

# Colours (RGB) of tile backs seen on real sets: green, blue, yellow, orange, pink/red, white-ish.
BACK_COLOURS: tuple[tuple[int, int, int], ...] = (
    (30, 120, 60),
    (20, 90, 50),
    (40, 80, 160),
    (25, 50, 120),
    (210, 180, 40),
    (220, 130, 30),
    (190, 60, 50),
    (225, 220, 200),
)
# the white-ish back (last entry) is never painted (weight 0): a pale blank tile is a white dragon, as in most
# riichi and many Chinese sets; the rare set ivory all through shows its face-down tiles by the detector's
# face-down channel and their neighbours (recognizer/face_down.py), not by a crop
BACK_WEIGHTS = np.array([2, 2, 2, 1.5, 1.5, 1.5, 1, 0.0], dtype=np.float64)
BACK_WEIGHTS /= BACK_WEIGHTS.sum()


def load_images(paths: Sequence[Path]) -> list[np.ndarray]:
    """Decode every image as RGB uint8 (kept in memory; 1,350 x 640² ≈ 1.7 GB)."""
    out = []
    for p in paths:
        bgr = cv2.imread(str(p), cv2.IMREAD_COLOR)
        if bgr is None:
            raise SystemExit(f"unreadable image: {p}")
        out.append(cv2.cvtColor(bgr, cv2.COLOR_BGR2RGB))
    return out


def paint_back(img: np.ndarray, box: np.ndarray, rng: np.random.Generator) -> None:
    """Draw a face-down tile over `box` (xyxy) in place: coloured back, ivory edge, shading, noise."""
    h, w = img.shape[:2]
    x0, y0, x1, y1 = (round(float(v)) for v in box)
    x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, w), min(y1, h)
    bw, bh = x1 - x0, y1 - y0
    if bw < 4 or bh < 4:
        return
    colour = np.array(BACK_COLOURS[rng.choice(len(BACK_COLOURS), p=BACK_WEIGHTS)], dtype=np.float32)
    colour = np.clip(colour * rng.uniform(0.75, 1.2) + rng.normal(0, 12, 3), 0, 255)
    ivory = np.array([235, 228, 205], dtype=np.float32) * rng.uniform(0.7, 1.05)
    patch = np.empty((bh, bw, 3), dtype=np.float32)
    patch[:] = ivory
    # the back face covers most of the box; an ivory side is visible on one or two edges
    inset = rng.uniform(0.0, 0.22, size=4) * np.array([bw, bh, bw, bh])
    inset *= rng.random(4) < 0.5
    fx0, fy0 = int(inset[0]), int(inset[1])
    fx1, fy1 = bw - int(inset[2]), bh - int(inset[3])
    if fx1 - fx0 < 3 or fy1 - fy0 < 3:
        fx0, fy0, fx1, fy1 = 0, 0, bw, bh
    patch[fy0:fy1, fx0:fx1] = colour
    if rng.random() < 0.3:  # embossed frame or pattern on some backs
        t = max(1, int(min(bw, bh) * 0.05))
        m = int(min(bw, bh) * rng.uniform(0.12, 0.25))
        cv2.rectangle(patch, (fx0 + m, fy0 + m), (fx1 - m, fy1 - m), tuple(float(c) for c in colour * 0.8), t)
    # lighting gradient, gloss and sensor noise
    gx = np.linspace(-1, 1, bw, dtype=np.float32)[None, :, None]
    gy = np.linspace(-1, 1, bh, dtype=np.float32)[:, None, None]
    patch *= 1 + rng.uniform(-0.15, 0.15) * gx + rng.uniform(-0.15, 0.15) * gy
    if rng.random() < 0.3:
        cx, cy = rng.uniform(0, bw), rng.uniform(0, bh)
        r2 = ((np.arange(bw)[None, :] - cx) ** 2 + (np.arange(bh)[:, None] - cy) ** 2) / (0.1 * bw * bh + 1)
        patch += (rng.uniform(20, 60) * np.exp(-r2))[:, :, None]
    patch += rng.normal(0, rng.uniform(2, 8), patch.shape)
    # rounded corners: keep the underlying image outside a rounded rectangle
    mask = np.zeros((bh, bw), dtype=np.uint8)
    r = int(min(bw, bh) * rng.uniform(0.05, 0.15))
    cv2.rectangle(mask, (r, 0), (bw - 1 - r, bh - 1), 255, -1)
    cv2.rectangle(mask, (0, r), (bw - 1, bh - 1 - r), 255, -1)
    for cx, cy in ((r, r), (bw - 1 - r, r), (r, bh - 1 - r), (bw - 1 - r, bh - 1 - r)):
        cv2.circle(mask, (cx, cy), r, 255, -1)
    mask = cv2.GaussianBlur(mask, (3, 3), 0).astype(np.float32)[:, :, None] / 255.0
    region = img[y0:y1, x0:x1].astype(np.float32)
    img[y0:y1, x0:x1] = np.clip(region * (1 - mask) + patch * mask, 0, 255).astype(np.uint8)


def paint_blank(img: np.ndarray, box: np.ndarray, rng: np.random.Generator) -> bool:
    """Turn the tile in `box` (xyxy) into a blank white dragon in place: the ink its pale face encloses,
    near the box's middle, painted out with the face's own ivory and light (cv2.inpaint); the body,
    edges, neighbours and table kept. False (image untouched) when no enclosed artwork on a pale face is
    found there (a tilted tile whose box holds others, a face-down or dark tile, a tiny box)."""
    h, w = img.shape[:2]
    x0, y0, x1, y1 = (round(float(v)) for v in box)
    x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, w), min(y1, h)
    bw, bh = x1 - x0, y1 - y0
    if bw < 10 or bh < 10:
        return False
    region = img[y0:y1, x0:x1]
    hsv = cv2.cvtColor(region, cv2.COLOR_RGB2HSV).astype(np.int16)
    value, sat = hsv[:, :, 2], hsv[:, :, 1]
    bright = sat < 60
    if bright.sum() < 0.3 * bw * bh:
        return False
    ivory = float(np.percentile(value[bright], 70))
    pale = (bright & (value > ivory - 30)).astype(np.uint8)
    # ink = what the pale face encloses: not pale and not reachable from the box's border
    outside = np.pad(1 - pale, 1, constant_values=1)
    flood = outside.copy()
    cv2.floodFill(flood, None, (0, 0), 2)
    enclosed = (flood[1:-1, 1:-1] == 1).astype(np.uint8)
    count, parts, _, centres = cv2.connectedComponentsWithStats(enclosed, connectivity=8)
    ink = np.zeros((bh, bw), bool)
    for k in range(1, count):
        cx, cy = centres[k]
        if 0.12 * bw < cx < 0.88 * bw and 0.12 * bh < cy < 0.88 * bh:
            ink |= parts == k
    if ink.sum() < 0.02 * bw * bh:
        return False  # nothing drawn in the middle of a face: not a tile this can blank
    grown = cv2.dilate(ink.astype(np.uint8), np.ones((3, 3), np.uint8), iterations=int(rng.integers(1, 3)))
    painted = cv2.inpaint(region.copy(), grown * 255, 3, cv2.INPAINT_TELEA)
    middle = cv2.cvtColor(painted, cv2.COLOR_RGB2HSV)[bh // 4 : bh - bh // 4, bw // 4 : bw - bw // 4]
    left = (middle[:, :, 2].astype(np.int16) < ivory - 30) | (middle[:, :, 1] > 70)
    if left.mean() > 0.03:
        return False  # artwork the face did not enclose is still there: not a blank tile
    img[y0:y1, x0:x1] = painted
    return True


def colour_jitter(batch: np.ndarray, rng: np.random.Generator, strength: float = 1.0) -> np.ndarray:
    """Per-image brightness, contrast, saturation and white-balance jitter on float RGB 0..1 (N,H,W,3)."""
    n = batch.shape[0]
    s = strength
    gain = rng.uniform(1 - 0.35 * s, 1 + 0.3 * s, (n, 1, 1, 1))
    wb = rng.uniform(1 - 0.12 * s, 1 + 0.12 * s, (n, 1, 1, 3))
    out = batch * gain * wb
    mean = out.mean(axis=(1, 2, 3), keepdims=True)
    out = (out - mean) * rng.uniform(1 - 0.3 * s, 1 + 0.3 * s, (n, 1, 1, 1)) + mean
    grey = out.mean(axis=3, keepdims=True)
    out = (out - grey) * rng.uniform(1 - 0.5 * s, 1 + 0.4 * s, (n, 1, 1, 1)) + grey
    return np.clip(out, 0.0, 1.0).astype(np.float32)


def degrade(img: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Random blur, noise and JPEG re-compression of one uint8 RGB image."""
    if rng.random() < 0.3:
        k = int(rng.choice([3, 5]))
        img = cv2.GaussianBlur(img, (k, k), rng.uniform(0.3, 1.2))
    if rng.random() < 0.3:
        img = np.clip(img + rng.normal(0, rng.uniform(2, 7), img.shape), 0, 255).astype(np.uint8)
    if rng.random() < 0.3:
        q = int(rng.integers(30, 90))
        ok, enc = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, q])
        if ok:
            img = np.asarray(cv2.imdecode(enc, cv2.IMREAD_UNCHANGED), dtype=np.uint8)
    return img


def ink_jitter(img: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Sets print the same faces in other inks and pen widths: now and then turn the hue of the coloured
    ink (not the ivory ground), thicken or thin the strokes by a pixel, or drop colour. uint8 RGB crop."""
    r = rng.random()
    if r < 0.15:
        hsv = cv2.cvtColor(img, cv2.COLOR_RGB2HSV)
        inked = hsv[:, :, 1] > 60
        hue = hsv[:, :, 0].astype(np.int16) + int(rng.integers(20, 160))
        hsv[:, :, 0] = np.where(inked, hue % 180, hsv[:, :, 0]).astype(np.uint8)
        img = cv2.cvtColor(hsv, cv2.COLOR_HSV2RGB)
    elif r < 0.25:
        kernel = np.ones((2, 2), np.uint8)
        img = cv2.erode(img, kernel) if rng.random() < 0.6 else cv2.dilate(img, kernel)
    elif r < 0.3:
        grey = cv2.cvtColor(img, cv2.COLOR_RGB2GRAY)
        img = cv2.cvtColor(grey, cv2.COLOR_GRAY2RGB)
    return img


def occlude(img: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Part of a tile's face unseen, as at a real table: a band along one edge covered (the tile in front,
    a rack, a finger, the face running out of the frame), a lamp's glare washing out a patch, or a small
    patch erased. The label stays: the rest of the face must name the tile. uint8 RGB crop, a new array."""
    out = img.copy()
    h, w = out.shape[:2]
    kind = rng.random()
    if kind < 0.45:  # a band along one edge, in a colour from the crop's own border or a body/table tone
        side = int(rng.integers(4))
        frac = rng.uniform(0.1, 0.25)
        border = np.concatenate([out[0], out[-1], out[:, 0], out[:, -1]]).reshape(-1, 3)
        colour = border[int(rng.integers(len(border)))] if rng.random() < 0.6 else rng.integers(0, 256, 3)
        band_h, band_w = max(1, round(frac * h)), max(1, round(frac * w))
        region = {
            0: (slice(0, band_h), slice(None)),
            1: (slice(h - band_h, h), slice(None)),
            2: (slice(None), slice(0, band_w)),
            3: (slice(None), slice(w - band_w, w)),
        }[side]
        out[region] = np.asarray(colour, np.uint8)
    elif kind < 0.8:  # glare: a soft bright ellipse, never so strong that the face goes blank (a blank
        # face is a white dragon in many sets)
        cy, cx = rng.uniform(0.1, 0.9) * h, rng.uniform(0.1, 0.9) * w
        ry, rx = rng.uniform(0.1, 0.3) * h, rng.uniform(0.1, 0.35) * w
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        fall = np.exp(-(((yy - cy) / ry) ** 2 + ((xx - cx) / rx) ** 2))
        strength = rng.uniform(0.25, 0.55)
        lit = out.astype(np.float32) + (255.0 - out) * (strength * fall)[..., None]
        out = np.clip(lit, 0, 255).astype(np.uint8)
    else:  # a small patch erased with noise (random erasing, Zhong et al. 2020)
        ph, pw = max(1, round(rng.uniform(0.1, 0.3) * h)), max(1, round(rng.uniform(0.1, 0.3) * w))
        y0, x0 = int(rng.integers(0, h - ph + 1)), int(rng.integers(0, w - pw + 1))
        out[y0 : y0 + ph, x0 : x0 + pw] = rng.integers(0, 256, (ph, pw, 3), dtype=np.uint8)
    return out


def quarter_turn(img: np.ndarray, boxes: np.ndarray, turns: int) -> tuple[np.ndarray, np.ndarray]:
    """The image turned `turns` quarter turns anticlockwise (as np.rot90) and its xyxy boxes with it: the
    rows of a photo taken from beside the hand run up the frame, which the training photos never show."""
    out, b = img, np.asarray(boxes, np.float32).reshape(-1, 4).copy()
    for _ in range(turns % 4):
        width = out.shape[1]
        b = np.stack([b[:, 1], width - b[:, 2], b[:, 3], width - b[:, 0]], axis=1)
        out = np.rot90(out)
    return np.ascontiguousarray(out), b
