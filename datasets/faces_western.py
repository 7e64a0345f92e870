"""procedural-western: faces of train artworks without indices of their own given a Western corner index
(numerals, E S W N or Dutch O Z W N, C F P), some with an ink change; also the text and ink helpers the
other procedural artworks use."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from datasets.faces_common import INKS, Rendered, to_height

DEJAVU = Path("/usr/share/fonts/truetype/dejavu")
INDEX_FONTS = (
    "DejaVuSans-Bold.ttf",
    "DejaVuSans.ttf",
    "DejaVuSerif-Bold.ttf",
    "DejaVuSerif.ttf",
    "DejaVuSansCondensed-Bold.ttf",
    "DejaVuSansMono-Bold.ttf",
)
HERSHEY = (
    cv2.FONT_HERSHEY_SIMPLEX,
    cv2.FONT_HERSHEY_DUPLEX,
    cv2.FONT_HERSHEY_COMPLEX,
    cv2.FONT_HERSHEY_TRIPLEX,
    cv2.FONT_HERSHEY_SIMPLEX | cv2.FONT_ITALIC,
)
WESTERN_BASES = ("fluffystuff-regular", "font-symbola", "gnome-smooth", "xmahjongg-real")
"""Train artworks without corner indices of their own, to which procedural-western adds them."""
WIND_LETTERS = {"1z": ("E", "O"), "2z": ("S", "Z"), "3z": ("W", "W"), "4z": ("N", "N")}
"""Wind -> (English, Dutch) corner letter: East/Oost, South/Zuid, West, North/Noord."""
DRAGON_LETTERS = {"5z": "P", "6z": "F", "7z": "C"}
"""Dragon -> corner letter as Western sets print it: P(o) white, F(a) green, C(hung) red."""
INK_SWAPS = (
    {"blue": "black"},
    {"black": "blue"},
    {"green": "blue"},
    {"blue": "green"},
    {"green": "black"},
    {"black": "darkgreen"},
    {"blue": "black", "green": "black"},
)
"""Ink changes as other sets print the same design (red stays red: red dragons and 萬 are red in all)."""
GROUND = (240, 235, 222)
"""The ivory that procedural faces are drawn on before it is keyed out."""


def text_mask(text: str, size: int, rng: np.random.Generator) -> np.ndarray:
    """Text as a tight 0-255 mask about `size` pixels tall: a DejaVu face when Pillow and the fonts are
    there (most of the time), else or sometimes a Hershey font of OpenCV."""
    path = DEJAVU / INDEX_FONTS[int(rng.integers(len(INDEX_FONTS)))]
    mask: np.ndarray | None = None
    if path.is_file() and rng.random() < 0.75:
        try:
            from PIL import Image, ImageDraw, ImageFont
        except ImportError:
            pass
        else:
            font = ImageFont.truetype(str(path), round(size * 1.35))
            canvas = Image.new("L", (size * (2 * len(text) + 2), size * 3), 0)  # words fit whole
            ImageDraw.Draw(canvas).text((size // 2, size // 2), text, font=font, fill=255)
            mask = np.array(canvas)
    if mask is None:
        face = HERSHEY[int(rng.integers(len(HERSHEY)))]
        thick = max(1, round(size / 9))
        scale = cv2.getFontScaleFromHeight(face, size, thick)
        mask = np.zeros((size * 3, size * (2 * len(text) + 2)), np.uint8)
        cv2.putText(mask, text, (size // 2, size * 2), face, scale, 255, thick, cv2.LINE_AA)
    ys, xs = np.nonzero(mask)
    if len(xs) == 0:
        return np.zeros((1, 1), np.uint8)
    return mask[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1]


def paint(rgba: np.ndarray, mask: np.ndarray, colour: tuple[int, int, int], x: int, y: int) -> None:
    """Ink `mask` (0-255) in one colour over `rgba` at (x, y), in place, clipped to the face."""
    h, w = mask.shape
    x0, y0, x1, y1 = max(x, 0), max(y, 0), min(x + w, rgba.shape[1]), min(y + h, rgba.shape[0])
    if x1 <= x0 or y1 <= y0:
        return
    m = mask[y0 - y : y1 - y, x0 - x : x1 - x].astype(np.float32)[:, :, None] / 255
    region = rgba[y0:y1, x0:x1].astype(np.float32)
    a0 = region[:, :, 3:] / 255
    a = m + a0 * (1 - m)
    rgb = (np.array(colour, np.float32) * m + region[:, :, :3] * a0 * (1 - m)) / np.maximum(a, 1e-3)
    rgba[y0:y1, x0:x1] = np.dstack([rgb, a * 255]).round().clip(0, 255).astype(np.uint8)


def ink_classes(rgba: np.ndarray) -> dict[str, np.ndarray]:
    """Masks of a face's ink by colour: black (dark or grey), red, green, blue."""
    hsv = cv2.cvtColor(np.ascontiguousarray(rgba[:, :, :3]), cv2.COLOR_RGB2HSV).astype(np.int16)
    hue, sat, val = hsv[:, :, 0], hsv[:, :, 1], hsv[:, :, 2]
    inked = rgba[:, :, 3] > 0
    dark = inked & ((val < 80) | ((sat < 70) & (val < 170)))
    chroma = inked & ~dark & (sat >= 70)
    return {
        "black": dark,
        "red": chroma & ((hue < 10) | (hue > 165)),
        "green": chroma & (hue >= 35) & (hue < 90),
        "blue": chroma & (hue >= 90) & (hue < 140),
    }


def swap_inks(rgba: np.ndarray, swap: dict[str, str]) -> np.ndarray:
    """The face with some inks printed in another colour, the shading within each ink kept."""
    out = rgba.copy()
    classes = ink_classes(rgba)
    for source, target in swap.items():
        mask = classes[source]
        if not mask.any():
            continue
        pixels = rgba[:, :, :3][mask].astype(np.float32)
        shade = pixels - pixels.mean(axis=0)
        out[:, :, :3][mask] = np.clip(np.array(INKS[target], np.float32) + 0.5 * shade, 0, 255).astype(
            np.uint8
        )
    return out


def index_for(code: str, rng: np.random.Generator) -> str | None:
    """The corner index a Western set prints on this tile: its number, a wind letter (English or Dutch),
    sometimes a dragon letter; None for a dragon left without."""
    if code[-1] in "mpsfy":
        return code[:-1]
    if code in WIND_LETTERS:
        return WIND_LETTERS[code][int(rng.random() < 0.4)]
    return DRAGON_LETTERS[code] if rng.random() < 0.6 else None


def add_index(
    rgba: np.ndarray, text: str, colour: tuple[int, int, int], rng: np.random.Generator
) -> np.ndarray:
    """The design shrunk a little and moved down and away from a top corner, where `text` is printed."""
    h, w = rgba.shape[:2]
    scale = rng.uniform(0.74, 0.86)
    sw, sh = max(1, round(w * scale)), max(1, round(h * scale))
    small = cv2.resize(rgba, (sw, sh), interpolation=cv2.INTER_AREA)
    left = bool(rng.random() < 0.7)  # index top-left (most sets), else top-right
    out = np.zeros_like(rgba)
    x = (w - sw) // 2 + round((w - sw) * 0.3) * (1 if left else -1)
    y = h - sh - round(h * rng.uniform(0.0, 0.03))
    out[y : y + sh, x : x + sw] = small
    mask = text_mask(text, max(6, round(h * rng.uniform(0.12, 0.17))), rng)
    margin = round(w * rng.uniform(0.03, 0.08))
    paint(
        out, mask, colour, margin if left else w - margin - mask.shape[1], round(h * rng.uniform(0.02, 0.05))
    )
    return out


def render_western(height: int, bases: tuple[str, ...] = WESTERN_BASES) -> Rendered:
    """procedural-western: train faces without indices given Western corner indices (numerals 1-9, E S W N
    or Dutch O Z W N, sometimes C F P), half of them with an ink change too."""
    from datasets.faces import RENDERERS, TILE_CODES  # here: datasets.faces imports this module

    out: Rendered = []
    for b, base in enumerate(bases):
        seen: set[str] = set()
        for code, rgba in RENDERERS[base](height):
            if code in seen:  # one face per code and base (not the red fives again)
                continue
            seen.add(code)
            rng = np.random.default_rng([7, b, TILE_CODES.index(code)])
            face = (
                swap_inks(rgba, INK_SWAPS[int(rng.integers(len(INK_SWAPS)))]) if rng.random() < 0.5 else rgba
            )
            text = index_for(code, rng)
            if text is None:
                continue  # nothing added: the base face itself is already in the bank
            colour = INKS[str(rng.choice(["black", "black", "blue", "red", "green"]))]
            out.append((code, to_height(add_index(face, text, colour, rng), height)))
    return out
