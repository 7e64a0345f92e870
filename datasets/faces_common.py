"""Helpers every face renderer shares (datasets.faces and its faces_* siblings): the rendered-faces type, the
print inks, alpha compositing, scaling to a height, PNG decoding and SVG rendering; a module of its own so
that the siblings can use them without importing datasets.faces, which imports them (no import cycle)."""

from __future__ import annotations

import subprocess

import cv2
import numpy as np

Rendered = list[tuple[str, np.ndarray]]
"""An artwork's faces as rendered: (code, RGBA at the asked height), in a fixed order."""

INKS = {
    "black": (25, 25, 30),
    "blue": (25, 60, 165),
    "red": (190, 30, 35),
    "green": (15, 120, 55),
    "darkgreen": (10, 85, 45),
}


def over(top: np.ndarray, bottom: np.ndarray) -> np.ndarray:
    """Alpha-composite RGBA `top` over RGBA `bottom` (same size)."""
    ta = top[:, :, 3:].astype(np.float32) / 255
    ba = bottom[:, :, 3:].astype(np.float32) / 255
    a = ta + ba * (1 - ta)
    rgb = top[:, :, :3] * ta + bottom[:, :, :3] * ba * (1 - ta)
    rgb = np.divide(rgb, a, out=np.zeros_like(rgb), where=a > 0)
    return np.dstack([rgb, a * 255]).round().clip(0, 255).astype(np.uint8)


def to_height(rgba: np.ndarray, height: int) -> np.ndarray:
    """Scale a face to `height` rows, aspect kept (area filter when shrinking)."""
    h, w = rgba.shape[:2]
    width = max(1, round(w * height / h))
    interp = cv2.INTER_AREA if h > height else cv2.INTER_CUBIC
    return np.ascontiguousarray(cv2.resize(rgba, (width, height), interpolation=interp))


def decode_png(data: bytes) -> np.ndarray | None:
    """PNG bytes -> RGBA uint8 (None when undecodable)."""
    img = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_UNCHANGED)
    if img is None or img.ndim != 3:
        return None
    if img.shape[2] == 3:
        img = cv2.cvtColor(img, cv2.COLOR_BGR2BGRA)
    return cv2.cvtColor(img, cv2.COLOR_BGRA2RGBA)


def render_svg_text(svg: str, zoom: float) -> np.ndarray | None:
    """Render SVG text with rsvg-convert at a zoom factor -> RGBA (None on failure)."""
    try:
        done = subprocess.run(
            ["rsvg-convert", "--zoom", f"{zoom:.4f}"],
            input=svg.encode(),
            capture_output=True,
            check=True,
            timeout=120,
        )
    except (OSError, subprocess.SubprocessError):
        return None
    return decode_png(done.stdout)
