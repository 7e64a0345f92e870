"""Tiles as solid bodies for synthetic photos: an ivory face with its artwork, rounded corners, a thickness
made of an ivory layer and a coloured back layer, seen lying face-up, standing (the top visible), or
face-down; returned as RGBA sprites so a scene can turn, warp and shade them.

A sprite's alpha marks the whole visible tile; the training box is the box of that alpha, as the real
datasets box the whole tile a viewer sees.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

BODY_BACKS: tuple[tuple[int, int, int], ...] = (
    (232, 226, 205),  # ivory all through
    (214, 178, 40),  # yellow
    (30, 115, 60),  # green
    (35, 75, 150),  # blue
    (25, 25, 28),  # black
    (215, 120, 30),  # orange
    (170, 50, 45),  # red
)
"""Colours (RGB) of the back layer of real sets; the face layer is ivory or white."""

IVORY_BACK_SHARE = 0.08
"""Sets that are ivory all through are rare; their face-down tiles look like blank white dragons, so a scene
of such a set shows none (`has_plain_back`)."""


def has_plain_back(style: TileStyle) -> bool:
    """Whether the set's back is as pale as a face: a face-down tile of it would be a blank tile."""
    return float(style.back.mean()) > 170


@dataclass(frozen=True)
class TileStyle:
    """What one set's tiles look like: every tile of a scene shares it."""

    ivory: np.ndarray  # face colour, float32 RGB
    back: np.ndarray  # back-layer colour
    back_share: float  # share of the thickness in the back colour (0.3-0.7)
    aspect: float  # face height / width (1.25-1.45)
    depth: float  # thickness / width (0.45-0.8)
    corner: float  # corner radius / width
    margin: float  # blank border around the artwork / width
    ink_gain: float  # > 1 paler, < 1 darker artwork


def random_style(rng: np.random.Generator) -> TileStyle:
    """A plausible set: ivory or white faces, a coloured (sometimes ivory) back layer."""
    ivory = np.array([246, 241, 226], np.float32) * rng.uniform(0.86, 1.03) + rng.normal(0, 6, 3)
    pick = 0 if rng.random() < IVORY_BACK_SHARE else int(rng.integers(1, len(BODY_BACKS)))
    back = np.array(BODY_BACKS[pick], np.float32) * rng.uniform(0.8, 1.15)
    return TileStyle(
        ivory=np.clip(ivory, 150, 255).astype(np.float32),
        back=np.clip(back + rng.normal(0, 10, 3), 0, 255).astype(np.float32),
        back_share=float(rng.uniform(0.3, 0.7)),
        aspect=float(rng.uniform(1.25, 1.45)),
        depth=float(rng.uniform(0.45, 0.8)),
        corner=float(rng.uniform(0.04, 0.16)),
        margin=float(rng.uniform(0.03, 0.12)),
        ink_gain=float(rng.uniform(0.8, 1.1)),
    )


def _rounded_mask(h: int, w: int, radius: float) -> np.ndarray:
    """A float mask (h, w) of a rectangle with rounded corners, anti-aliased."""
    r = max(round(radius), 0)
    mask = np.zeros((h * 4, w * 4), np.uint8)
    rr = r * 4
    cv2.rectangle(mask, (rr, 0), (w * 4 - 1 - rr, h * 4 - 1), 255, -1)
    cv2.rectangle(mask, (0, rr), (w * 4 - 1, h * 4 - 1 - rr), 255, -1)
    for cx, cy in ((rr, rr), (w * 4 - 1 - rr, rr), (rr, h * 4 - 1 - rr), (w * 4 - 1 - rr, h * 4 - 1 - rr)):
        cv2.circle(mask, (cx, cy), rr, 255, -1)
    return cv2.resize(mask, (w, h), interpolation=cv2.INTER_AREA).astype(np.float32) / 255.0


def face_surface(
    face: np.ndarray | None, w: int, h: int, style: TileStyle, rng: np.random.Generator
) -> np.ndarray:
    """The face of a tile, w x h RGB float32: ivory, the artwork inside a margin (None: blank), shading."""
    surf = np.empty((h, w, 3), np.float32)
    surf[:] = style.ivory
    if face is not None:
        m = style.margin * w
        fw, fh = max(int(w - 2 * m), 2), max(int(h - 2 * m * style.aspect), 2)
        art = cv2.resize(face, (fw, fh), interpolation=cv2.INTER_AREA).astype(np.float32)
        alpha = art[:, :, 3:] / 255.0
        ink = art[:, :, :3]
        # artwork drawn on an opaque ivory ground (some sources): make the ground the tile's ivory
        ground = (ink.min(axis=2, keepdims=True) > 215).astype(np.float32) * alpha
        alpha = alpha - ground
        ink = 255 - (255 - ink) * style.ink_gain
        y0, x0 = (h - fh) // 2, (w - fw) // 2
        region = surf[y0 : y0 + fh, x0 : x0 + fw]
        surf[y0 : y0 + fh, x0 : x0 + fw] = region * (1 - alpha) + ink * alpha
    # a little curvature / light falloff across the face
    gy = np.linspace(-1, 1, h, dtype=np.float32)[:, None, None]
    gx = np.linspace(-1, 1, w, dtype=np.float32)[None, :, None]
    surf *= 1 + rng.uniform(-0.06, 0.06) * gy + rng.uniform(-0.05, 0.05) * gx - 0.04 * (gx**2 + gy**2)
    return surf


def back_surface(w: int, h: int, style: TileStyle, rng: np.random.Generator) -> np.ndarray:
    """A face-down tile's back: the back colour, sometimes with an embossed frame."""
    surf = np.empty((h, w, 3), np.float32)
    surf[:] = style.back
    if rng.random() < 0.35:
        t = max(1, int(0.08 * w))
        cv2.rectangle(surf, (t, t), (w - 1 - t, h - 1 - t), (style.back * 0.82).tolist(), max(1, t // 2))
    gy = np.linspace(-1, 1, h, dtype=np.float32)[:, None, None]
    surf *= 1 + rng.uniform(-0.08, 0.08) * gy
    return surf


def _layers(w: int, thick: int, style: TileStyle) -> np.ndarray:
    """The tile's side as seen edge-on: ivory layer, then back layer, thick rows of w."""
    side = np.empty((thick, w, 3), np.float32)
    split = round(thick * (1 - style.back_share))
    side[:split] = style.ivory * 0.86
    side[split:] = style.back * 0.9
    return side


def tile_sprite(
    face: np.ndarray | None,
    width: int,
    style: TileStyle,
    rng: np.random.Generator,
    view: str = "lying",
    elevation: float = 0.8,
) -> np.ndarray:
    """One tile, `width` px wide, as RGBA uint8. `view`: "lying" (face-up, its near side visible below
    the face by cos(elevation)), "standing" (the face toward the camera, the top visible above it by
    cos(elevation)), "down" (face-down: the back up, ivory side below). `elevation` is the camera's angle
    over the table in radians (pi/2: straight down). `face` None with "lying"/"standing" is a blank tile."""
    w = max(int(width), 4)
    h = max(round(w * style.aspect), 5)
    if view == "standing":  # a face toward the camera shrinks by cos(elevation), the top shows by sin
        thick = round(w * style.depth * np.sin(elevation))
        front = face_surface(face, w, max(round(h * max(np.cos(elevation), 0.35)), 5), style, rng)
        top = np.empty((thick, w, 3), np.float32)
        split = round(thick * (1 - style.back_share))
        top[split:] = style.ivory * 0.95  # the top: back layer far from the viewer, face layer near
        top[:split] = style.back * 1.02
        top = top[::-1]  # the face layer is nearest, drawn lowest
        body = np.concatenate([top, front], axis=0)
    else:  # a tile lying: its face shrinks by sin(elevation), its near side shows by cos
        thick = round(w * style.depth * max(np.cos(elevation), 0.0))
        surf = back_surface(w, h, style, rng) if view == "down" else face_surface(face, w, h, style, rng)
        if view == "lying" and elevation < 1.45:
            surf = cv2.resize(surf, (w, max(int(h * np.sin(elevation)), 4)), interpolation=cv2.INTER_AREA)
        if view == "down":
            side = np.empty((thick, w, 3), np.float32)
            side[:] = style.ivory * 0.85
            split = round(thick * style.back_share)
            side[:split] = style.back * 0.85
        else:
            side = _layers(w, thick, style)
        body = np.concatenate([surf, side], axis=0) if thick > 0 else surf
    bh = body.shape[0]
    alpha = _rounded_mask(bh, w, style.corner * w)
    if thick > 1:  # a dark seam between face and side
        edge = bh - thick if view != "standing" else thick
        body[max(edge - 1, 0) : edge + 1] *= 0.8
    body = np.clip(body + rng.normal(0, 2.5, body.shape), 0, 255)
    return np.dstack([body, alpha * 255]).astype(np.uint8)


def turned(sprite: np.ndarray, angle: float) -> np.ndarray:
    """The sprite turned by `angle` degrees (counter-clockwise) on a canvas that holds it whole."""
    h, w = sprite.shape[:2]
    m = cv2.getRotationMatrix2D((w / 2, h / 2), angle, 1.0)
    cos, sin = abs(m[0, 0]), abs(m[0, 1])
    nw, nh = int(h * sin + w * cos) + 2, int(h * cos + w * sin) + 2
    m[0, 2] += nw / 2 - w / 2
    m[1, 2] += nh / 2 - h / 2
    return cv2.warpAffine(sprite, m, (nw, nh), flags=cv2.INTER_LINEAR, borderValue=(0, 0, 0, 0))


def paste(
    canvas: np.ndarray, sprite: np.ndarray, x: int, y: int, shadow: float = 0.0
) -> tuple[int, int, int, int] | None:
    """Alpha-blend `sprite` onto the float RGB `canvas` at (x, y), with a soft shadow down-right when
    `shadow` > 0; returns the box of the sprite's visible pixels (clipped), None when nothing shows."""
    H, W = canvas.shape[:2]
    h, w = sprite.shape[:2]
    alpha = sprite[:, :, 3].astype(np.float32) / 255.0
    if shadow > 0:
        off = max(1, int(0.08 * max(h, w)))
        sh = cv2.GaussianBlur(alpha, (0, 0), max(1.0, off * 0.6)) * shadow
        _blend(canvas, np.zeros((h, w, 3), np.float32), sh, x + off, y + off)
    _blend(canvas, sprite[:, :, :3].astype(np.float32), alpha, x, y)
    ys, xs = np.nonzero(alpha > 0.5)
    if len(xs) == 0:
        return None
    x0, y0 = max(x + int(xs.min()), 0), max(y + int(ys.min()), 0)
    x1, y1 = min(x + int(xs.max()) + 1, W), min(y + int(ys.max()) + 1, H)
    if x1 - x0 < 3 or y1 - y0 < 3:
        return None
    return x0, y0, x1, y1


def _blend(canvas: np.ndarray, rgb: np.ndarray, alpha: np.ndarray, x: int, y: int) -> None:
    """canvas[y:, x:] = canvas * (1 - alpha) + rgb * alpha, clipped to the canvas."""
    H, W = canvas.shape[:2]
    h, w = alpha.shape
    cx0, cy0, cx1, cy1 = max(x, 0), max(y, 0), min(x + w, W), min(y + h, H)
    if cx1 <= cx0 or cy1 <= cy0:
        return
    sx0, sy0 = cx0 - x, cy0 - y
    a = alpha[sy0 : sy0 + cy1 - cy0, sx0 : sx0 + cx1 - cx0, None]
    region = canvas[cy0:cy1, cx0:cx1]
    canvas[cy0:cy1, cx0:cx1] = region * (1 - a) + rgb[sy0 : sy0 + cy1 - cy0, sx0 : sx0 + cx1 - cx0] * a
