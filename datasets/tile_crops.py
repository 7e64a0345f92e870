"""Cut classifier crops the way the runtime does (contract: box + pad, portrait, 48x64 unless a run
chooses another size), and the randomised variant used in training (pad 10 % -4/+6 %; the runtime reads
at labels.json's pad and crop_size)."""

from __future__ import annotations

import cv2
import numpy as np

from recognizer.classifier import shrink_region

CROP_W, CROP_H = 48, 64
CROP_SIZE = (CROP_H, CROP_W)  # height, width: what every shipped classifier reads
PAD = 0.1


def parse_crop_size(text: str) -> tuple[int, int]:
    """ "64x48" -> (64, 48): a crop's height and width, each 16 to 256 pixels, taller than wide."""
    parts = text.lower().split("x")
    if len(parts) != 2 or not all(p.strip().isdigit() for p in parts):
        raise ValueError(f"a crop size is HEIGHTxWIDTH, e.g. 64x48, not {text!r}")
    h, w = int(parts[0]), int(parts[1])
    if not (16 <= w <= h <= 256):
        raise ValueError(f"a crop size is 16 to 256 pixels a side and taller than wide, not {text!r}")
    return h, w


def crop_tile(
    img: np.ndarray, box: np.ndarray, pad: float = PAD, size: tuple[int, int] = CROP_SIZE
) -> np.ndarray:
    """Contract crop: grow `box` (xyxy) by `pad` each side, rotate landscape to portrait, resize to `size`
    (height, width)."""
    x0, y0, x1, y1 = (float(v) for v in box)
    w, h = x1 - x0, y1 - y0
    gx0, gy0, gx1, gy1 = x0 - pad * w, y0 - pad * h, x1 + pad * w, y1 + pad * h
    if gx1 - gx0 > gy1 - gy0:  # landscape: map so that the crop is the box turned clockwise
        src = np.array([[gx0, gy1], [gx0, gy0], [gx1, gy1]], dtype=np.float32)
    else:
        src = np.array([[gx0, gy0], [gx1, gy0], [gx0, gy1]], dtype=np.float32)
    return _warp(img, src, np.random.default_rng(0), size, antialias=True, border_random=False)


def _warp(
    img: np.ndarray,
    src: np.ndarray,
    rng: np.random.Generator,
    size: tuple[int, int],
    antialias: bool,
    border_random: bool,
) -> np.ndarray:
    """Map the three source points (crop top-left, top-right, bottom-left) onto a crop of `size`."""
    crop_h, crop_w = size
    dst = np.array([[0, 0], [crop_w, 0], [0, crop_h]], dtype=np.float32)
    if antialias:  # area-downscale the region first, as the runtime does, so big boxes are not aliased
        img, shift, stretch = shrink_region(img, src, size)
        src = (src - shift) * stretch
    m = cv2.getAffineTransform(src.astype(np.float32), dst)
    border = cv2.BORDER_REFLECT101 if border_random and rng.random() < 0.5 else cv2.BORDER_CONSTANT
    value = (127, 127, 127)
    return cv2.warpAffine(
        img, m, (crop_w, crop_h), flags=cv2.INTER_LINEAR, borderMode=border, borderValue=value
    )


def random_crop(
    img: np.ndarray,
    box: np.ndarray,
    rng: np.random.Generator,
    pad: float = PAD,
    size: tuple[int, int] = CROP_SIZE,
) -> np.ndarray:
    """Training crop: jittered box (detector error), `pad` -0.04/+0.06, random ±90° turn for landscape,
    random 180° turn, small rotation and shear."""
    x0, y0, x1, y1 = (float(v) for v in box)
    w, h = x1 - x0, y1 - y0
    cx = (x0 + x1) / 2 + rng.normal(0, 0.04) * w
    cy = (y0 + y1) / 2 + rng.normal(0, 0.04) * h
    w *= np.exp(rng.normal(0, 0.06))
    h *= np.exp(rng.normal(0, 0.06))
    pad = pad + rng.uniform(-0.04, 0.06)
    hw, hh = w * (0.5 + pad), h * (0.5 + pad)
    # corners in crop order (top-left, top-right, bottom-left) relative to the centre
    if w > h:
        if rng.random() < 0.5:  # clockwise: crop top = box left
            pts = np.array([[-hw, hh], [-hw, -hh], [hw, hh]], dtype=np.float32)
        else:
            pts = np.array([[hw, -hh], [hw, hh], [-hw, -hh]], dtype=np.float32)
    else:
        pts = np.array([[-hw, -hh], [hw, -hh], [-hw, hh]], dtype=np.float32)
    if rng.random() < 0.5:
        pts = -pts  # 180° turn
    a = np.deg2rad(rng.normal(0, 5))
    shear = rng.normal(0, 0.05)
    rot = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]], dtype=np.float32) @ np.array(
        [[1, shear], [0, 1]], dtype=np.float32
    )
    src = pts @ rot.T + np.array([cx, cy], dtype=np.float32)
    return _warp(img, src, rng, size, antialias=True, border_random=True)
