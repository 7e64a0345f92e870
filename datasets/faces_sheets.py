"""The gnome-mahjongg and xmahjongg tile-sheet artworks of datasets.faces (GPL-2+, training time only): where
each sheet's faces sit and which code each is; faces cut out of their tiles, the bare ground keyed out."""

from __future__ import annotations

import shutil
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from datasets.faces_common import Rendered, render_svg_text, to_height

GNOME_DIR = Path("/usr/share/gnome-mahjongg/themes")
XMAHJONGG_DIR = Path("/usr/share/games/xmahjongg/tiles")
_PINS = tuple(f"{n}p" for n in range(1, 10))
_MANS = tuple(f"{n}m" for n in range(1, 10))
_SOUS = tuple(f"{n}s" for n in range(1, 10))
_NWSE = ("4z", "3z", "2z", "1z")
_SKIP4: tuple[str | None, ...] = (None, None, None, None)


@dataclass(frozen=True)
class Sheet:
    """A grid of whole tiles (bodies drawn) and where on each tile its face is; `codes` reads the grid row
    by row, None for a tile left out (not a face, or one that cannot be labelled for sure)."""

    path: Path
    columns: int
    rows: int  # rows of the whole image (the lower rows of these sheets repeat the tiles highlighted)
    face: tuple[float, float, float, float]  # x0, x1, y0, y1 of the face inside a tile, in tile pixels
    codes: tuple[str | None, ...]
    ground: str  # "blank": tile `blank` of the sheet is the bare face; "mode": the commonest colour;
    # "median": each face's median colour (a photo)
    blank: int = -1
    soft: tuple[float, float] = (20, 21)  # colour distance from the ground: no ink .. full ink
    zoom: float = 1.0  # SVG sheets: rendered this much larger


# Codes in the order the sheets draw them, worked out by looking at each sheet (flower and season names,
# numerals, wind letters are written on several) and checked on the contact sheet.
GNOME_SMOOTH = (
    *_PINS,
    *_NWSE,
    "7z",
    "6z",
    *_MANS,
    *_SOUS,
    "2f",
    "3f",
    "1f",
    "4f",
    "5z",
    "1y",
    "2y",
    "3y",
    "4y",
)
"""gnome-mahjongg: dots, N W S E, red, green, characters, bamboo, 蘭 菊 梅 竹, white, 春 夏 秋 冬, blank."""
GNOME_POSTMODERN = (
    *_PINS,
    *_NWSE,
    "7z",
    "6z",
    *_MANS,
    *_SOUS,
    "1y",
    "2y",
    "3y",
    "4y",
    None,
    "1f",
    "2f",
    "3f",
    "4f",
)
"""postmodern draws weather (sun, snow, rain) with 一二三四 where smooth has its flowers, and one flower with
一二三四 where smooth has its seasons; its white dragon is the GNOME logo (left out)."""
XMAHJONGG_DOROTHY = (
    *_PINS,
    *_NWSE,
    "7z",
    "6z",
    *_MANS,
    *_SOUS,
    "1y",
    "2y",
    "3y",
    "4y",
    "5z",
    "4f",
    "2f",
    "1f",
    "3f",
)
"""xmahjongg's order, as dorothys names its tiles: ... SPRING SUMMER AUTUMN WINTER, WHITE DRAGON, BAMBOO
ORCHID PLUM CHRYSANTHEMUM."""
XMAHJONGG_GNOME = (*_PINS, *_NWSE, "7z", "6z", *_MANS, *_SOUS, None, None, "1f", "4f", "5z", *_SKIP4)
"""gnome.gif: its bonus tiles are 華 花 梅 竹 and the four winds again: 梅 (plum), 竹 (bamboo) kept."""
XMAHJONGG_GNOME2 = (*_SOUS, *_NWSE, "7z", "6z", *_MANS, *_PINS, *_SKIP4, "5z", *_SKIP4)
"""gnome2.gif: bamboo first, then dots; its bonus tiles are bare numerals 1-4 (flower or season? left out);
its white dragon blank."""
XMAHJONGG_REAL = (
    *_PINS,
    *_SOUS,
    *_MANS,
    "1y",
    "2y",
    "3y",
    "4y",
    "4z",
    "2z",
    "1z",
    "3z",
    None,
    "1f",
    "2f",
    "3f",
    "4f",
    "6z",
    "5z",
    "7z",
    None,
    None,
)
"""real.gif, photographed tiles 9 by 5: dots, bamboo, characters, 春 夏 秋 冬 北 南 東 西 (credits),
梅 蘭 菊 竹 發 white 中 (a blank tile, credits)."""

SHEETS: dict[str, Sheet] = {
    "gnome-smooth": Sheet(
        GNOME_DIR / "smooth.png", 43, 2, (14, 92, 2, 116), GNOME_SMOOTH, "blank", 42, (8, 60)
    ),
    "gnome-postmodern": Sheet(
        GNOME_DIR / "postmodern.svg", 43, 2, (8, 63, 1, 80), GNOME_POSTMODERN, "blank", 42, (8, 60), zoom=2.0
    ),
    "xmahjongg-dorothys": Sheet(
        XMAHJONGG_DIR / "dorothys.gif", 21, 4, (3, 52, 3, 68), XMAHJONGG_DOROTHY, "mode"
    ),
    "xmahjongg-dorwhite": Sheet(
        XMAHJONGG_DIR / "dorwhite.gif", 21, 4, (3, 52, 3, 67), XMAHJONGG_DOROTHY, "mode"
    ),
    "xmahjongg-gnome": Sheet(XMAHJONGG_DIR / "gnome.gif", 21, 4, (6, 37, 3, 50), XMAHJONGG_GNOME, "mode"),
    "xmahjongg-gnome2": Sheet(XMAHJONGG_DIR / "gnome2.gif", 21, 4, (4, 39, 1, 52), XMAHJONGG_GNOME2, "mode"),
    "xmahjongg-real": Sheet(
        XMAHJONGG_DIR / "real.gif", 9, 5, (3, -3, 3, -3), XMAHJONGG_REAL, "median", soft=(28, 90)
    ),
}
"""Artwork name -> its sheet. Left out: gnome-mahjongg's edu_kang_xi (Kangxi radicals, not tile faces) and
xmahjongg's small, thick and thin (a tile body only)."""


def read_sheet(sheet: Sheet) -> np.ndarray | None:
    """The sheet image as RGBA float32 (SVG rendered at its zoom); None when absent or unreadable."""
    if not sheet.path.is_file():
        return None
    if sheet.path.suffix == ".svg":
        if shutil.which("rsvg-convert") is None:
            return None
        rgba = render_svg_text(sheet.path.read_text(), sheet.zoom)
    else:
        try:
            from PIL import Image
        except ImportError:
            return None
        with Image.open(sheet.path) as img:
            rgba = np.array(img.convert("RGBA"))
    return None if rgba is None else rgba.astype(np.float32)


def key_out(rgb: np.ndarray, ground: np.ndarray, soft: tuple[float, float]) -> np.ndarray:
    """Ink on a transparent ground from a face on a known ground: alpha grows with the colour distance from
    the ground (soft[0] none .. soft[1] full), colour un-mixed so that ink over the ground gives the
    original back -> RGBA uint8."""
    diff = rgb - ground
    dist = np.abs(diff).max(axis=2)
    alpha = np.clip((dist - soft[0]) / max(soft[1] - soft[0], 1e-3), 0, 1)
    ink = ground + diff / np.maximum(alpha, 1e-3)[:, :, None]
    ink = np.where(alpha[:, :, None] > 0, np.clip(ink, 0, 255), 0)
    return np.dstack([ink, alpha * 255]).round().astype(np.uint8)


def render_sheet(artwork: str, height: int) -> Rendered:
    """The labelled faces of one tile sheet, cut out of their tiles, the bare face keyed out. Empty when
    the sheet is not installed."""
    sheet = SHEETS[artwork]
    img = read_sheet(sheet)
    if img is None:
        return []
    tw, th = img.shape[1] / sheet.columns, img.shape[0] / sheet.rows
    z = sheet.zoom
    fx0, fx1, fy0, fy1 = sheet.face

    def face_at(index: int) -> np.ndarray:
        row, col = divmod(index, sheet.columns)
        x0, y0 = col * tw, row * th
        xa = x0 + fx0 * z if fx0 >= 0 else x0 + tw + fx0 * z
        xb = x0 + fx1 * z if fx1 > 0 else x0 + tw + fx1 * z
        ya = y0 + fy0 * z if fy0 >= 0 else y0 + th + fy0 * z
        yb = y0 + fy1 * z if fy1 > 0 else y0 + th + fy1 * z
        return img[round(ya) : round(yb), round(xa) : round(xb)]

    blank = face_at(sheet.blank)[:, :, :3] if sheet.ground == "blank" else None
    out: Rendered = []
    for index, code in enumerate(sheet.codes):
        if code is None:
            continue
        face = face_at(index)
        rgb = face[:, :, :3]
        if blank is not None and blank.shape == rgb.shape:
            ground = blank
        elif sheet.ground == "mode":
            colours, counts = np.unique(rgb.reshape(-1, 3), axis=0, return_counts=True)
            ground = np.broadcast_to(colours[counts.argmax()], rgb.shape)
        else:
            ground = np.broadcast_to(np.median(rgb.reshape(-1, 3), axis=0), rgb.shape)
        rgba = key_out(rgb, ground, sheet.soft)
        interp = cv2.INTER_NEAREST if sheet.ground == "mode" and face.shape[0] * 2 <= height else None
        if interp is not None:  # pixel art: blocky up to a whole multiple, then smooth
            k = height // face.shape[0]
            rgba = cv2.resize(rgba, (rgba.shape[1] * k, rgba.shape[0] * k), interpolation=interp)
        out.append((code, to_height(rgba, height)))
    return out
