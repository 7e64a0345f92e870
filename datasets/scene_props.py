"""What surrounds the tiles in a synthetic photo: table surfaces (felt, wood, stone, cloth, mats) and hard
negatives that look like tiles but are not (keyboard keys, window panes, dominoes, playing cards, a rack).

All drawn procedurally from a seeded generator, so nothing outside the project is needed.
"""

from __future__ import annotations

import cv2
import numpy as np

FELT = ((40, 110, 60), (25, 80, 50), (30, 60, 110), (20, 100, 110), (120, 40, 50), (200, 120, 150))
WOOD = ((150, 105, 65), (110, 75, 45), (190, 150, 105), (80, 50, 30))
STONE = ((70, 70, 72), (190, 188, 182), (40, 38, 40), (150, 140, 125))
CLOTH = ((220, 220, 215), (180, 40, 40), (40, 40, 120), (230, 200, 150), (30, 30, 30))


def _noise(h: int, w: int, rng: np.random.Generator, sigma: float) -> np.ndarray:
    """Smooth unit noise (h, w)."""
    n = cv2.GaussianBlur(rng.normal(0, 1, (h, w)).astype(np.float32), (0, 0), sigma)
    return n / max(float(n.std()), 1e-6)


def surface(width: int, height: int, rng: np.random.Generator) -> np.ndarray:
    """A table surface, float32 RGB: felt, wood grain, speckled stone, patterned cloth or a plain mat."""
    kind = rng.choice(["felt", "wood", "stone", "cloth", "mat"], p=[0.3, 0.25, 0.15, 0.1, 0.2])
    h, w = height, width
    if kind == "felt":
        base = np.array(FELT[int(rng.integers(len(FELT)))], np.float32) * rng.uniform(0.7, 1.25)
        img = base * (1 + 0.08 * _noise(h, w, rng, rng.uniform(1, 4))[:, :, None])
    elif kind == "wood":
        base = np.array(WOOD[int(rng.integers(len(WOOD)))], np.float32) * rng.uniform(0.8, 1.2)
        yy = np.linspace(0, 1, h, dtype=np.float32)[:, None]
        warp = _noise(h, w, rng, 30) * rng.uniform(0.5, 3)
        grain = np.sin((yy * rng.uniform(30, 120) + warp) * np.pi) * 0.5 + 0.5
        img = base * (0.85 + 0.25 * grain[:, :, None]) * (1 + 0.04 * _noise(h, w, rng, 1)[:, :, None])
        if rng.random() < 0.5:
            img = np.ascontiguousarray(np.transpose(cv2.resize(img, (h, w)), (1, 0, 2)))
    elif kind == "stone":  # granite: speckles of light and dark
        base = np.array(STONE[int(rng.integers(len(STONE)))], np.float32)
        img = np.empty((h, w, 3), np.float32)
        img[:] = base
        for tone, share in ((0.5, 0.08), (1.5, 0.06), (0.8, 0.2)):
            spots = (_noise(h, w, rng, rng.uniform(0.6, 2.0)) > 2.2 - share * 5).astype(np.float32)
            img *= 1 + (tone - 1) * spots[:, :, None]
    elif kind == "cloth":  # checks or stripes
        a = np.array(CLOTH[int(rng.integers(len(CLOTH)))], np.float32)
        b = np.array(CLOTH[int(rng.integers(len(CLOTH)))], np.float32)
        period = rng.uniform(10, 80)
        xx, yy = np.meshgrid(np.arange(w, dtype=np.float32), np.arange(h, dtype=np.float32))
        pattern = (
            ((np.floor(xx / period) + np.floor(yy / period)) % 2)
            if rng.random() < 0.5
            else (np.floor(xx / period) % 2)
        )
        b = a + (b - a) * rng.uniform(0.15, 1.0)  # most cloths are not high-contrast checks
        img = a * (1 - pattern[:, :, None]) + b * pattern[:, :, None]
        img *= 1 + 0.05 * _noise(h, w, rng, 1.5)[:, :, None]
    else:  # a smooth mat in any colour
        base = rng.uniform(20, 230, 3).astype(np.float32)
        img = base * (1 + 0.05 * _noise(h, w, rng, 8)[:, :, None]) * np.ones((h, w, 1), np.float32)
    return np.clip(img.astype(np.float32), 0, 255)


def _rounded_rect(img: np.ndarray, x0: int, y0: int, x1: int, y1: int, colour: tuple, radius: int) -> None:
    """A filled rounded rectangle drawn in place."""
    r = max(0, min(radius, (x1 - x0) // 2, (y1 - y0) // 2))
    cv2.rectangle(img, (x0 + r, y0), (x1 - r, y1), colour, -1)
    cv2.rectangle(img, (x0, y0 + r), (x1, y1 - r), colour, -1)
    for cx, cy in ((x0 + r, y0 + r), (x1 - r, y0 + r), (x0 + r, y1 - r), (x1 - r, y1 - r)):
        cv2.circle(img, (cx, cy), r, colour, -1)


def keyboard(canvas: np.ndarray, x: int, y: int, key: int, rng: np.random.Generator) -> None:
    """A keyboard: rows of rounded keys with letters (keys are about the size of a tile)."""
    light = rng.random() < 0.5
    body = (225, 225, 228) if light else (35, 35, 38)
    keyc = (245, 245, 245) if light else (55, 55, 60)
    ink = (40, 40, 40) if light else (230, 230, 230)
    cols, rows = int(rng.integers(8, 15)), int(rng.integers(3, 6))
    gap = max(2, key // 6)
    cv2.rectangle(
        canvas, (x - gap, y - gap), (x + cols * (key + gap) + gap, y + rows * (key + gap) + gap), body, -1
    )
    letters = "QWERTYUIOPASDFGHJKLZXCVBNM1234567890"
    for r in range(rows):
        for c in range(cols):
            kx, ky = x + c * (key + gap) + (r * key // 3), y + r * (key + gap)
            _rounded_rect(canvas, kx, ky, kx + key, ky + key, keyc, key // 6)
            ch = letters[int(rng.integers(len(letters)))]
            cv2.putText(
                canvas,
                ch,
                (kx + key // 5, ky + key * 2 // 3),
                cv2.FONT_HERSHEY_SIMPLEX,
                key / 50,
                ink,
                max(1, key // 25),
            )


def window_grid(canvas: np.ndarray, x: int, y: int, pane: int, rng: np.random.Generator) -> None:
    """A window or glass cabinet: light panes in a dark or white frame, taller than wide."""
    frame = (240, 240, 240) if rng.random() < 0.5 else (60, 45, 35)
    cols, rows = int(rng.integers(2, 6)), int(rng.integers(2, 5))
    ph = int(pane * rng.uniform(1.1, 1.6))
    t = max(2, pane // 8)
    cv2.rectangle(canvas, (x, y), (x + cols * (pane + t) + t, y + rows * (ph + t) + t), frame, -1)
    for r in range(rows):
        for c in range(cols):
            sky = np.array([200, 215, 235]) * rng.uniform(0.6, 1.1)
            px, py = x + t + c * (pane + t), y + t + r * (ph + t)
            cv2.rectangle(canvas, (px, py), (px + pane, py + ph), np.clip(sky, 0, 255).tolist(), -1)


def domino(canvas: np.ndarray, x: int, y: int, w: int, rng: np.random.Generator) -> None:
    """A domino standing or lying: ivory or black, a dividing line, pips."""
    dark = rng.random() < 0.4
    body, pip = ((25, 25, 25), (235, 235, 235)) if dark else ((240, 235, 220), (20, 20, 20))
    h = 2 * w
    _rounded_rect(canvas, x, y, x + w, y + h, body, w // 8)
    cv2.line(canvas, (x + w // 8, y + h // 2), (x + w - w // 8, y + h // 2), pip, max(1, w // 20))
    for half in (0, 1):
        for _ in range(int(rng.integers(0, 7))):
            px = x + int(rng.uniform(0.2, 0.8) * w)
            py = y + half * h // 2 + int(rng.uniform(0.2, 0.8) * h / 2)
            cv2.circle(canvas, (px, py), max(1, w // 10), pip, -1)


def playing_card(canvas: np.ndarray, x: int, y: int, w: int, rng: np.random.Generator) -> None:
    """A playing card: white, a corner index and a few suit marks in red or black."""
    h = int(w * 1.4)
    _rounded_rect(canvas, x, y, x + w, y + h, (245, 245, 242), w // 10)
    ink = (200, 30, 30) if rng.random() < 0.5 else (20, 20, 20)
    cv2.putText(
        canvas,
        str(rng.choice(list("A23456789JQK"))),
        (x + w // 12, y + h // 6),
        cv2.FONT_HERSHEY_SIMPLEX,
        w / 90,
        ink,
        max(1, w // 40),
    )
    for _ in range(int(rng.integers(1, 8))):
        cv2.circle(
            canvas,
            (x + int(rng.uniform(0.25, 0.75) * w), y + int(rng.uniform(0.25, 0.8) * h)),
            max(1, w // 12),
            ink,
            -1,
        )


def rack(canvas: np.ndarray, x0: int, x1: int, y: int, height: int, rng: np.random.Generator) -> None:
    """A wooden or plastic rack (a bar the hand leans on)."""
    colour = np.array(WOOD[int(rng.integers(len(WOOD)))] if rng.random() < 0.6 else rng.uniform(20, 200, 3))
    cv2.rectangle(canvas, (x0, y), (x1, y + height), colour.tolist(), -1)
    cv2.line(canvas, (x0, y), (x1, y), (colour * 1.25).clip(0, 255).tolist(), max(1, height // 6))


NEGATIVES = (keyboard, window_grid, domino, playing_card)
"""Things drawn at tile size that are not tiles."""


def backdrop(canvas: np.ndarray, horizon: int, rng: np.random.Generator) -> None:
    """What stands behind a table seen from a low angle, above `horizon` (in place, 8-bit canvas): a
    bookshelf of spines with titles, a plain wall, or a cupboard of panes."""
    w = canvas.shape[1]
    kind = rng.choice(["books", "wall", "panes"], p=[0.45, 0.35, 0.2])
    if kind == "wall":
        tone = rng.uniform(120, 240, 3)
        canvas[:horizon] = np.clip(tone * (1 + 0.05 * _noise(horizon, w, rng, 10)[:, :, None]), 0, 255)
        return
    if kind == "panes":
        canvas[:horizon] = rng.uniform(40, 200, 3)
        window_grid(
            canvas, int(rng.uniform(-0.1, 0.3) * w), 0, max(int(horizon * rng.uniform(0.2, 0.45)), 8), rng
        )
        return
    canvas[:horizon] = rng.uniform(20, 90, 3)
    x = int(rng.uniform(-20, 0))
    shelf = int(horizon * rng.uniform(0.05, 0.2))
    while x < w:
        spine = int(rng.uniform(0.015, 0.05) * w) + 2
        top = int(rng.uniform(0.0, 0.35) * horizon)
        colour = rng.uniform(20, 240, 3)
        cv2.rectangle(canvas, (x, top), (x + spine, horizon - shelf), colour.tolist(), -1)
        ink = (255 - colour).tolist() if rng.random() < 0.5 else (20, 20, 20)
        for k in range(int(rng.integers(1, 5))):
            ty = top + int((k + 1) * (horizon - shelf - top) / 6)
            cv2.putText(canvas, str(rng.choice(list("ABCDEFGHKMNPRSTXZ0123456789"))), (x + 1, ty),
                        cv2.FONT_HERSHEY_SIMPLEX, max(spine / 40, 0.25), ink, 1)  # fmt: skip
        x += spine + int(rng.integers(0, 3))
    cv2.rectangle(canvas, (0, horizon - shelf), (w, horizon), rng.uniform(60, 200, 3).tolist(), -1)
