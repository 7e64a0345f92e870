"""A bank of tile FACE images from every artwork the project may use, each tagged with its artwork and a
train / held-out split, for the scene renderer: `load_faces("train")` -> {code: [Face, ...]}.

Artworks (sources installed at training time only; rendered faces are cached under runs/, never committed):

- fluffystuff-regular, fluffystuff-black: the CC0 riichi SVGs in ../shared/artwork (34 codes; red fives kept
  as extra fives). The Black variant's light ink is made for a dark face, so it comes on its own dark
  face (opaque ground); every other artwork is ink on a transparent ground.
- kmahjongg-default, kmahjongg-traditional, kmahjongg-classic: Debian's kdegames-mahjongg-data-kf5 (GPL-2+).
  The whole sheet is rendered once, then each face element is found by rendering the sheet again with that
  element hidden: the pixels that change are the element, wherever its clones and transforms put it (what
  `rsvg-convert --export-id` gets wrong for classic). jade renders empty, egypt and alphabet draw pictures
  and letters instead of tile faces: left out.
- font-symbola, font-noto, font-freeserif, font-unifont: the Unicode Mahjong Tiles block (U+1F000-1F029)
  from Symbola, Noto Sans Symbols 2, GNU FreeSerif and GNU Unifont (a 16-pixel bitmap font), cut to the
  inside of the glyph's tile outline, the one-colour ink recoloured as sets print
  (red 萬, green bamboo, mixed circles, ...), two colourings per code.
- gnome-smooth, gnome-postmodern (gnome-mahjongg, GPL-2+) and xmahjongg-dorothys, -dorwhite, -gnome,
  -gnome2, -real (xmahjongg, GPL-2+; real = photographed tiles): grids of whole tiles; each face is cut
  from its tile and its bare ground keyed out (against the sheet's blank tile, or the face's commonest or
  median colour). The order of codes in each grid was read off the sheets by eye (`SHEETS`); tiles that
  cannot be labelled for sure (bare numerals, 華 花, a GNOME-logo white dragon) are left out. xmahjongg
  faces are small (32-56 px wide): blocky or soft when shown large, as distant tiles are.
- procedural-western: faces of train artworks without indices of their own (FluffyStuff Regular, Symbola,
  gnome-smooth, xmahjongg-real) with a Western corner index (numerals 1-9 and 1-4, E S W N or the Dutch
  O Z W N, sometimes C F P on dragons), the design shrunk to make room; half with an ink change (blue
  printed black, black blue, ...).
- procedural-flowers: drawn flower and season faces, 6 of each code: the flower pictured as sets draw it
  (1 plum, 2 orchid, 3 chrysanthemum, 4 bamboo) or a picture of the season (blossom, sun, maple leaves,
  snow), with 1-4 or 一二三四 in a top corner in red, blue, green or black.
- procedural-printed (datasets/faces_printed.py): every code printed with the CJK fonts of Debian packages
  (AR PL UKai/UMing, WenQuanYi Zen Hei, Noto Sans/Serif CJK, IPA Mincho, Hanazono, cwTeX Kai, LXGW WenKai),
  8 per code, one font each, in the look of Chinese, HK and Dutch club sets: numeral over red 萬 (sometimes
  万, 伍), 東南西北 (sometimes 东, an E S W N / O Z W N corner letter), red 中, green 發 / 发, a blue framed
  white dragon, 梅蘭菊竹 and 春夏秋冬 with a numeral 1-4 / 一二三四 in any ink (a picture in most), ringed
  circles and jointed bamboo sticks at the standard layouts, a bird on 1s; stroke weight and inks jittered.
- procedural-varied (datasets/faces_varied.py): the same codes in the styles procedural-printed lacks:
  bamboo in five stick styles, bird glyphs (Symbola) and peacocks on 1s, coins, flat discs and flowers
  for circles, white dragons in many frames, Latin winds, bonus tiles with any picture (their own, another
  bonus tile's, a Symbola glyph), so that the numeral and the character decide.

Split (ARTWORKS): held out are whole artworks, so that a model's score on them measures generalisation to
tile sets it never saw, with every one of the 42 codes in both splits:

- heldout: kmahjongg-classic (a full 42-code set in a style unlike the others: 万 characters, tree seasons,
  lizard dragons, letter indices), font-noto (the thinner of the two Unicode fonts; Symbola trains the
  font look), gnome-postmodern (flat vector art; weather seasons, one flower picture with 一二三四),
  xmahjongg-dorothys and -dorwhite (one drawing in two colourings, so both on one side: pixel art with
  every flower and season, to measure bonus tiles on artwork never seen).
- train: everything else: the procedural faces (made from train artworks only), gnome-smooth, and
  xmahjongg-real (photographed tiles: too rare a look to keep from training). Variants of one drawing
  always sit on one side (FluffyStuff Regular and Black).

Example: .venv/bin/python -m datasets.faces --preview runs/faces_preview.png
"""

from __future__ import annotations

import argparse
import functools
import io
import itertools
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from datasets.kmahjongg_art import FACE_ASPECT, TILESET_DIR, element_codes
from recognizer.labels import BONUS, HONOURS, SUITED

TILE_CODES: tuple[str, ...] = (*SUITED, *HONOURS, *BONUS)
"""The 42 face codes (no "back")."""

PROJECT_ROOT = Path(__file__).resolve().parent.parent
FLUFFY_DIR = PROJECT_ROOT.parent / "shared" / "artwork" / "fluffystuff-riichi-tiles"
KMAHJONGG_DIR = TILESET_DIR
FONTS = {
    "font-symbola": Path("/usr/share/fonts/truetype/ancient-scripts/Symbola_hint.ttf"),
    "font-noto": Path("/usr/share/fonts/truetype/noto/NotoSansSymbols2-Regular.ttf"),
    "font-freeserif": Path("/usr/share/fonts/truetype/freefont/FreeSerif.ttf"),  # fonts-freefont-ttf
    "font-unifont": Path("/usr/share/fonts/opentype/unifont/unifont_upper.otf"),  # fonts-unifont
}
RENDER_VERSION = 3
"""Bump when a renderer changes: cached faces of an older version are rendered again."""


@dataclass(frozen=True)
class Face:
    """One tile face design, portrait (~3:4), `height` pixels tall."""

    code: str  # tile code, e.g. "5m", "3z", "2f"
    rgba: (
        np.ndarray
    )  # uint8 HxWx4, read-only: the ink on a transparent ground (fluffystuff-black: its dark face)
    artwork: str  # e.g. "fluffystuff-regular", "kmahjongg-default", "font-symbola"


ARTWORKS: dict[str, str] = {
    "fluffystuff-regular": "train",
    "fluffystuff-black": "train",  # same drawing as regular: same side of the split
    "kmahjongg-default": "train",
    "kmahjongg-traditional": "train",
    "kmahjongg-classic": "heldout",  # a full set in its own style (万, trees, lizards, letter indices)
    "font-symbola": "train",
    "font-noto": "heldout",  # the other Unicode font: the font look is trained on Symbola only
    "font-freeserif": "train",  # GNU FreeSerif's own drawing of the block
    "font-unifont": "train",  # GNU Unifont: 16-pixel bitmap glyphs, blocky when large
    "gnome-smooth": "train",
    "gnome-postmodern": "heldout",  # flat vector art, its own bonus pictures
    "xmahjongg-dorothys": "heldout",  # pixel art with every flower and season named on it
    "xmahjongg-dorwhite": "heldout",  # the same drawings (the original xmahjongg colours): same side
    "xmahjongg-gnome": "train",
    "xmahjongg-gnome2": "train",
    "xmahjongg-real": "train",  # photographed real tiles: too rare a look to keep from training
    "procedural-western": "train",  # made from train artworks only
    "procedural-flowers": "train",
    "procedural-printed": "train",  # made here from CJK fonts of Debian packages
    "procedural-varied": "train",  # the styles real sets use that procedural-printed does not
}
"""Artwork name -> "train" | "heldout"; see the module docstring for why."""

SPLITS = ("train", "heldout", "all")


# ---------------------------------------------------------------- shared helpers


def to_height(rgba: np.ndarray, height: int) -> np.ndarray:
    """Scale a face to `height` rows, aspect kept (area filter when shrinking)."""
    h, w = rgba.shape[:2]
    width = max(1, round(w * height / h))
    interp = cv2.INTER_AREA if h > height else cv2.INTER_CUBIC
    return np.ascontiguousarray(cv2.resize(rgba, (width, height), interpolation=interp))


def fit_aspect(rgba: np.ndarray, aspect: float, room: float = 1.06) -> np.ndarray | None:
    """The ink's bounding box grown to width/height = `aspect` with a little room, ink centred; None when
    there is no ink."""
    ys, xs = np.nonzero(rgba[:, :, 3] > 24)
    if len(xs) < 20:
        return None
    x0, x1, y0, y1 = int(xs.min()), int(xs.max()) + 1, int(ys.min()), int(ys.max()) + 1
    bw, bh = x1 - x0, y1 - y0
    fw, fh = max(bw, round(bh * aspect)), max(bh, round(bw / aspect))
    fw, fh = round(fw * room), round(fh * room)
    out = np.zeros((fh, fw, 4), np.uint8)
    ox, oy = (fw - bw) // 2, (fh - bh) // 2
    out[oy : oy + bh, ox : ox + bw] = rgba[y0:y1, x0:x1]
    return out


def blank_face(height: int, aspect: float) -> np.ndarray:
    """An empty face (a white dragon drawn as a blank tile): fully transparent."""
    return np.zeros((height, max(1, round(height * aspect)), 4), np.uint8)


def decode_png(data: bytes) -> np.ndarray | None:
    """PNG bytes -> RGBA uint8 (None when undecodable)."""
    img = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_UNCHANGED)
    if img is None or img.ndim != 3:
        return None
    if img.shape[2] == 3:
        img = cv2.cvtColor(img, cv2.COLOR_BGR2BGRA)
    return cv2.cvtColor(img, cv2.COLOR_BGRA2RGBA)


Rendered = list[tuple[str, np.ndarray]]
"""An artwork's faces as rendered: (code, RGBA at the asked height), in a fixed order."""


# ---------------------------------------------------------------- FluffyStuff (CC0)


def render_fluffystuff(variant: str, height: int, folder: Path = FLUFFY_DIR) -> Rendered:
    """FluffyStuff faces of one variant ("Regular" or "Black"); Black on its own dark face. Empty when the
    artwork or cairosvg is absent."""
    try:
        import cairosvg  # type: ignore[import-untyped]
        from PIL import Image
    except ImportError:
        return []
    from datasets.synthetic import svg_code

    folder = folder / variant
    if not folder.is_dir():
        return []

    def render(svg: Path) -> np.ndarray:
        png = cairosvg.svg2png(url=str(svg), output_height=height)
        return np.array(Image.open(io.BytesIO(png)).convert("RGBA"))

    ground = render(folder / "Front.svg") if variant == "Black" else None
    out: Rendered = []
    for svg in sorted(folder.glob("*.svg"), key=lambda p: (svg_code(p.stem) or "", p.stem)):
        code = svg_code(svg.stem)
        if code is None:
            continue
        rgba = render(svg)
        if ground is not None and ground.shape == rgba.shape:
            rgba = over(rgba, ground)
        out.append((code, to_height(rgba, height)))
    return out


def over(top: np.ndarray, bottom: np.ndarray) -> np.ndarray:
    """Alpha-composite RGBA `top` over RGBA `bottom` (same size)."""
    ta = top[:, :, 3:].astype(np.float32) / 255
    ba = bottom[:, :, 3:].astype(np.float32) / 255
    a = ta + ba * (1 - ta)
    rgb = top[:, :, :3] * ta + bottom[:, :, :3] * ba * (1 - ta)
    rgb = np.divide(rgb, a, out=np.zeros_like(rgb), where=a > 0)
    return np.dstack([rgb, a * 255]).round().clip(0, 255).astype(np.uint8)


# ---------------------------------------------------------------- KMahjongg (GPL-2+, training time only)

KMAHJONGG_ASPECT = FACE_ASPECT
KMAHJONGG_FACE_UNITS = 89
"""A face's height in the sheets' user units."""


KMAHJONGG_OVERRIDES = {"classic": {"FLOWER_1": "2f", "FLOWER_2": "1f"}}
"""Elements a tileset draws as another code: classic's FLOWER_1 is its orchid, FLOWER_2 its plum (the
flower names are written on the faces; seen on the contact sheet)."""


def kmahjongg_elements(tileset: str = "default") -> dict[str, str]:
    """SVG element id -> tile code, all 42, for a tileset (FLOWER_1-4 = plum orchid chrysanthemum bamboo,
    SEASON_1-4 = spring summer autumn winter, as the default and traditional sheets draw and name them)."""
    return element_codes() | KMAHJONGG_OVERRIDES.get(tileset, {})


def hide_element(svg: str, element: str) -> str | None:
    """The SVG text with the element of that id set to display:none (None when there is no such id)."""
    match = re.search(rf'<[A-Za-z:]+\s[^>]*?\bid="{re.escape(element)}"[^>]*>', svg, re.S)
    if match is None:
        return None
    tag = match.group(0)
    style = re.search(r'\bstyle="([^"]*)"', tag)
    if style is None:
        new = tag.replace(f'id="{element}"', f'id="{element}" style="display:none"', 1)
    else:
        new = tag[: style.start(1)] + style.group(1).rstrip(";") + ";display:none" + tag[style.end(1) :]
    return svg[: match.start()] + new + svg[match.end() :]


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


def render_kmahjongg(tileset: str, height: int, folder: Path = KMAHJONGG_DIR) -> Rendered:
    """Every face of a KMahjongg tileset, each cut out of the whole sheet by what hiding its element
    changes. Empty when the tileset or rsvg-convert is absent."""
    path = folder / f"{tileset}.svgz"
    if not path.is_file() or shutil.which("rsvg-convert") is None:
        return []
    import gzip

    svg = gzip.decompress(path.read_bytes()).decode("utf-8")
    for body in sorted(
        set(re.findall(r'\bid="(TILE[A-Z0-9_]*)"', svg))
    ):  # tile bodies, shadows: slow, not faces
        svg = hide_element(svg, body) or svg
    zoom = 1.15 * height / KMAHJONGG_FACE_UNITS  # a little oversampled, then scaled down
    sheet = render_svg_text(svg, zoom)
    if sheet is None:
        return []
    out: Rendered = []
    for element, code in kmahjongg_elements(tileset).items():
        hidden_svg = hide_element(svg, element)
        hidden = None if hidden_svg is None else render_svg_text(hidden_svg, zoom)
        if hidden is None or hidden.shape != sheet.shape:
            continue
        changed = np.abs(sheet.astype(np.int16) - hidden.astype(np.int16)).max(axis=2) > 6
        part = sheet.copy()
        part[:, :, 3] = np.where(changed, sheet[:, :, 3], 0)
        face = fit_aspect(part, KMAHJONGG_ASPECT)
        if face is None:
            if code == "5z":  # default draws its white dragon as a blank face
                out.append((code, blank_face(height, KMAHJONGG_ASPECT)))
            continue
        if face.shape[0] < 0.6 * height:  # a part of a face, not a face
            continue
        out.append((code, to_height(face, height)))
    return out


# ---------------------------------------------------------------- Unicode Mahjong Tiles fonts

UNICODE_FIRST = 0x1F000
UNICODE_CODES: tuple[str, ...] = (
    *("1z", "2z", "3z", "4z"),  # U+1F000-1F003 east south west north wind
    *("7z", "6z", "5z"),  # U+1F004 red, 1F005 green, 1F006 white dragon
    *(f"{n}m" for n in range(1, 10)),  # U+1F007-1F00F characters
    *(f"{n}s" for n in range(1, 10)),  # U+1F010-1F018 bamboos
    *(f"{n}p" for n in range(1, 10)),  # U+1F019-1F021 circles
    *("1f", "2f", "4f", "3f"),  # U+1F022 plum, orchid, bamboo, chrysanthemum
    *("1y", "2y", "3y", "4y"),  # U+1F026-1F029 spring summer autumn winter
)
"""Tile code of each code point from U+1F000 (checked against unicodedata names in the tests)."""

INKS = {
    "black": (25, 25, 30),
    "blue": (25, 60, 165),
    "red": (190, 30, 35),
    "green": (15, 120, 55),
    "darkgreen": (10, 85, 45),
}


def glyph_interior(mask: np.ndarray) -> np.ndarray | None:
    """The design inside a tile glyph's outline: `mask` (ink 0-255) cut to the outline's inside, the
    outline itself removed. None when no outline is found."""
    ink = mask > 100
    ys, xs = np.nonzero(ink)
    if len(xs) < 50:
        return None
    padded = np.pad((~ink).astype(np.uint8), 1, constant_values=1)
    flood = padded.copy()
    cv2.floodFill(flood, None, (0, 0), 2)
    outside = (flood == 2)[1:-1, 1:-1]
    row = ink[(ys.min() + ys.max()) // 2, xs.min() :]
    thick = int(np.argmin(row)) if not row.all() else 2
    thick = max(thick, 1)
    zone = cv2.dilate(outside.astype(np.uint8), np.ones((2 * thick + 3, 2 * thick + 3), np.uint8)) > 0
    inside = ~outside & ~zone
    iy, ix = np.nonzero(inside)
    if len(ix) < 100:
        return None
    y0, y1, x0, x1 = int(iy.min()), int(iy.max()) + 1, int(ix.min()), int(ix.max()) + 1
    if (y1 - y0) < 0.6 * (ys.max() - ys.min()):  # the outline did not enclose the design
        return None
    design = np.where(inside, mask, 0)
    return np.ascontiguousarray(design[y0:y1, x0:x1])


def colour_groups(mask: np.ndarray, code: str, rng: np.random.Generator) -> np.ndarray:
    """Recolour one-colour ink as sets print it: the ink split into groups (strokes near each other), each
    group an ink chosen by the tile's kind -> RGBA."""
    h, w = mask.shape
    ink = (mask > 60).astype(np.uint8)
    k = max(3, round(h * 0.04)) | 1
    n, labels, _stats, centroids = cv2.connectedComponentsWithStats(
        cv2.dilate(ink, np.ones((k, k), np.uint8))
    )
    rgb = np.zeros((h, w, 3), np.uint8)
    suit, kind = code[-1], code[:-1]
    one = INKS[str(rng.choice(["black", "blue"]))]
    mixed = [INKS["blue"], INKS["green"], INKS["red"], INKS["black"]]
    for label in range(1, n):
        cy = centroids[label][1] / h
        if suit == "m":
            colour = one if cy < 0.42 else INKS["red"]
        elif suit == "p":
            colour = mixed[int(rng.integers(3))] if rng.random() < 0.8 else INKS["black"]
        elif suit == "s":
            roll = rng.random()
            colour = INKS["green"] if roll < 0.7 else INKS["red"] if roll < 0.85 else INKS["blue"]
        elif suit == "z":
            colour = {"5": INKS["blue"], "6": INKS["green"], "7": INKS["red"]}.get(kind, one)
        else:  # flowers and seasons: a picture in mixed inks, the character often red or blue
            colour = mixed[int(rng.integers(4))]
        rgb[labels == label] = colour
    return np.dstack([rgb, mask]).astype(np.uint8)


def render_font(artwork: str, height: int, colourings: int = 2) -> Rendered:
    """The Unicode mahjong tiles of one font, cut inside their outlines and recoloured (`colourings`
    colourings per code, seeded). Empty when the font or Pillow is absent."""
    path = FONTS[artwork]
    try:
        from PIL import Image, ImageDraw, ImageFont
    except ImportError:
        return []
    if not path.is_file():
        return []
    size = round(height * 1.45)
    font = ImageFont.truetype(str(path), size)
    seed = sum(artwork.encode())
    out: Rendered = []
    for offset, code in enumerate(UNICODE_CODES):
        char = chr(UNICODE_FIRST + offset)
        canvas = Image.new("L", (size * 2, size * 2), 0)
        ImageDraw.Draw(canvas).text((size // 2, size // 2), char, font=font, fill=255)
        design = glyph_interior(np.array(canvas))
        if design is None:
            continue
        for k in range(colourings):
            rng = np.random.default_rng([seed, offset, k])
            out.append((code, to_height(colour_groups(design, code, rng), height)))
    return out


# ---------------------------------------------------------------- sheets: gnome-mahjongg, xmahjongg (GPL-2+)

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


# ---------------------------------------------------------------- procedural variation (train only)

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


# drawn flowers and seasons: simple brush motifs on an ivory canvas (keyed out afterwards)

Point = tuple[int, int]


def _pt(x: float, y: float) -> Point:
    return round(x), round(y)


def _line(img: np.ndarray, pts: list[Point], ink: tuple[int, int, int], width: int) -> None:
    cv2.polylines(img, [np.array(pts, np.int32)], False, ink, max(1, width), cv2.LINE_AA)


def _curve(p0: Point, p1: Point, p2: Point, n: int = 16) -> list[Point]:
    """A quadratic Bezier from p0 to p2 bent towards p1."""
    t = np.linspace(0, 1, n)[:, None]
    pts = (1 - t) ** 2 * np.array(p0) + 2 * (1 - t) * t * np.array(p1) + t**2 * np.array(p2)
    return [_pt(x, y) for x, y in pts]


def _blossom(
    img: np.ndarray, c: Point, r: float, petals: int, ink: tuple, centre: tuple, rng: np.random.Generator
) -> None:
    """A round flower: petals (filled or outlined ellipses) around a dot."""
    turn = rng.uniform(0, np.pi)
    filled = rng.random() < 0.5
    for k in range(petals):
        t = turn + 2 * np.pi * k / petals
        px, py = c[0] + 0.6 * r * np.cos(t), c[1] + 0.6 * r * np.sin(t)
        axes = _pt(r * 0.5, r * (0.42 if petals <= 6 else 0.14))
        cv2.ellipse(
            img,
            _pt(px, py),
            axes,
            np.degrees(t),
            0,
            360,
            ink,
            -1 if filled else max(1, round(r * 0.1)),
            cv2.LINE_AA,
        )
    cv2.circle(img, c, max(1, round(r * 0.2)), centre, -1, cv2.LINE_AA)


def _leaf(img: np.ndarray, base: Point, tip: Point, width: float, ink: tuple) -> None:
    """A lens-shaped leaf from base to tip."""
    bx, by = base
    tx, ty = tip
    nx, ny = -(ty - by), tx - bx
    norm = max(np.hypot(nx, ny), 1e-3)
    mid = ((bx + tx) / 2, (by + ty) / 2)
    side1 = _curve(base, _pt(mid[0] + nx / norm * width, mid[1] + ny / norm * width), tip)
    side2 = _curve(tip, _pt(mid[0] - nx / norm * width, mid[1] - ny / norm * width), base)
    cv2.fillPoly(img, [np.array(side1 + side2, np.int32)], ink, cv2.LINE_AA)


def _random_inks(rng: np.random.Generator, n: int) -> list[tuple[int, int, int]]:
    names = ["red", "blue", "green", "black", "darkgreen"]
    return [INKS[names[int(i)]] for i in rng.integers(len(names), size=n)]


def draw_plum(img: np.ndarray, rng: np.random.Generator) -> None:
    """Plum: a crooked branch with five-petal blossoms."""
    h, w = img.shape[:2]
    branch, flower = _random_inks(rng, 2)
    pts = [_pt(w * rng.uniform(0.1, 0.3), h * 0.95)]
    for _ in range(5):
        pts.append(_pt(pts[-1][0] + w * rng.uniform(0.05, 0.17), pts[-1][1] - h * rng.uniform(0.08, 0.15)))
    _line(img, pts, branch, round(w * 0.035))
    for p in pts[2::2]:
        _line(
            img,
            [p, _pt(p[0] - w * rng.uniform(0.1, 0.25), p[1] - h * rng.uniform(0.05, 0.12))],
            branch,
            round(w * 0.02),
        )
    for p in pts[1:]:
        if rng.random() < 0.7:
            _blossom(
                img,
                _pt(p[0] + w * rng.uniform(-0.08, 0.08), p[1]),
                w * rng.uniform(0.07, 0.11),
                5,
                flower,
                branch,
                rng,
            )


def draw_orchid(img: np.ndarray, rng: np.random.Generator) -> None:
    """Orchid: long sweeping leaves from a tuft, a few narrow-petalled flowers."""
    h, w = img.shape[:2]
    leaf, flower = _random_inks(rng, 2)
    base = _pt(w * rng.uniform(0.4, 0.6), h * 0.95)
    for _ in range(int(rng.integers(3, 6))):
        tip = _pt(w * rng.uniform(0.0, 1.0), h * rng.uniform(0.35, 0.6))
        bend = _pt((base[0] + tip[0]) / 2 + w * rng.uniform(-0.25, 0.25), h * rng.uniform(0.4, 0.7))
        _line(img, _curve(base, bend, tip), leaf, round(w * 0.025))
    for _ in range(int(rng.integers(1, 4))):
        c = _pt(w * rng.uniform(0.25, 0.75), h * rng.uniform(0.35, 0.6))
        _blossom(img, c, w * rng.uniform(0.08, 0.12), int(rng.integers(3, 6)), flower, leaf, rng)


def draw_chrysanthemum(img: np.ndarray, rng: np.random.Generator) -> None:
    """Chrysanthemum: a stem with leaves and one or two heads of many thin petals."""
    h, w = img.shape[:2]
    stem, flower = _random_inks(rng, 2)
    for _ in range(int(rng.integers(1, 3))):
        c = _pt(w * rng.uniform(0.3, 0.7), h * rng.uniform(0.35, 0.55))
        _line(
            img,
            _curve(_pt(w * 0.5, h * 0.95), _pt(w * rng.uniform(0.3, 0.7), h * 0.75), c),
            stem,
            round(w * 0.025),
        )
        _leaf(
            img,
            _pt(w * 0.5, h * 0.8),
            _pt(w * rng.uniform(0.1, 0.9), h * rng.uniform(0.6, 0.75)),
            w * 0.06,
            stem,
        )
        r = w * rng.uniform(0.14, 0.2)
        n = int(rng.integers(16, 30))
        for k in range(n):
            t = 2 * np.pi * k / n + rng.uniform(-0.1, 0.1)
            inner = _pt(c[0] + 0.2 * r * np.cos(t), c[1] + 0.2 * r * np.sin(t))
            outer = _pt(
                c[0] + r * rng.uniform(0.8, 1.1) * np.cos(t), c[1] + r * rng.uniform(0.8, 1.1) * np.sin(t)
            )
            _line(img, [inner, outer], flower, round(w * 0.018))
        cv2.circle(img, c, max(1, round(r * 0.2)), stem, -1, cv2.LINE_AA)


def draw_bamboo(img: np.ndarray, rng: np.random.Generator) -> None:
    """Bamboo: two or three jointed stalks with narrow leaves."""
    h, w = img.shape[:2]
    stalk, leaf = _random_inks(rng, 2)
    for x in np.sort(rng.uniform(0.2, 0.8, size=int(rng.integers(2, 4)))) * w:
        top = h * rng.uniform(0.2, 0.4)
        joints = np.linspace(h * 0.97, top, int(rng.integers(3, 6)))
        for y0, y1 in itertools.pairwise(joints):
            _line(img, [_pt(x, y0 - h * 0.01), _pt(x, y1 + h * 0.01)], stalk, round(w * 0.045))
        for y in joints[1:]:
            for _ in range(int(rng.integers(0, 3))):
                side = rng.choice([-1, 1])
                tip = _pt(x + side * w * rng.uniform(0.15, 0.3), y - h * rng.uniform(-0.05, 0.1))
                _leaf(img, _pt(x, y), tip, w * 0.03, leaf)


def draw_sun(img: np.ndarray, rng: np.random.Generator, ink: tuple) -> None:
    """A sun: a disc with rays."""
    h, w = img.shape[:2]
    c, r = _pt(w * rng.uniform(0.35, 0.65), h * rng.uniform(0.35, 0.5)), w * rng.uniform(0.1, 0.15)
    cv2.circle(img, c, round(r), ink, -1 if rng.random() < 0.5 else max(1, round(w * 0.02)), cv2.LINE_AA)
    n = int(rng.integers(8, 14))
    for k in range(n):
        t = 2 * np.pi * k / n
        _line(
            img,
            [
                _pt(c[0] + 1.4 * r * np.cos(t), c[1] + 1.4 * r * np.sin(t)),
                _pt(c[0] + 2.0 * r * np.cos(t), c[1] + 2.0 * r * np.sin(t)),
            ],
            ink,
            round(w * 0.02),
        )


def draw_snowflake(img: np.ndarray, rng: np.random.Generator, ink: tuple) -> None:
    """A snowflake: six arms with side branches."""
    h, w = img.shape[:2]
    c, r = _pt(w * rng.uniform(0.35, 0.65), h * rng.uniform(0.4, 0.6)), w * rng.uniform(0.22, 0.32)
    for k in range(6):
        t = np.pi / 3 * k
        end = _pt(c[0] + r * np.cos(t), c[1] + r * np.sin(t))
        _line(img, [c, end], ink, round(w * 0.022))
        for f in (0.45, 0.7):
            p = (c[0] + f * r * np.cos(t), c[1] + f * r * np.sin(t))
            for s in (-1, 1):
                q = _pt(p[0] + 0.25 * r * np.cos(t + s * 0.8), p[1] + 0.25 * r * np.sin(t + s * 0.8))
                _line(img, [_pt(*p), q], ink, round(w * 0.016))


def draw_tree(img: np.ndarray, rng: np.random.Generator, ink: tuple, crown: tuple | None) -> None:
    """A tree: trunk and branches, with a crown of blobs (or bare, in winter)."""
    h, w = img.shape[:2]
    x = w * rng.uniform(0.4, 0.6)
    top = _pt(x + w * rng.uniform(-0.05, 0.05), h * 0.45)
    _line(img, [_pt(x, h * 0.95), top], ink, round(w * 0.05))
    for _ in range(int(rng.integers(3, 6))):
        y = h * rng.uniform(0.45, 0.7)
        _line(
            img,
            [_pt(x, y), _pt(x + w * rng.uniform(-0.35, 0.35), y - h * rng.uniform(0.1, 0.25))],
            ink,
            round(w * 0.022),
        )
    if crown is not None:
        for _ in range(int(rng.integers(5, 10))):
            c = _pt(x + w * rng.uniform(-0.3, 0.3), h * rng.uniform(0.2, 0.45))
            cv2.circle(
                img,
                c,
                round(w * rng.uniform(0.07, 0.13)),
                crown,
                -1 if rng.random() < 0.6 else 2,
                cv2.LINE_AA,
            )


def draw_maple(img: np.ndarray, rng: np.random.Generator, ink: tuple) -> None:
    """Autumn leaves: star-shaped maple leaves, a few of them falling."""
    h, w = img.shape[:2]
    for _ in range(int(rng.integers(1, 4))):
        c = (w * rng.uniform(0.25, 0.75), h * rng.uniform(0.3, 0.8))
        r = w * rng.uniform(0.1, 0.22)
        turn = rng.uniform(-0.5, 0.5)
        pts = []
        for k in range(10):
            t = turn - np.pi / 2 + np.pi * k / 5
            rr = r if k % 2 == 0 else r * 0.45
            pts.append(_pt(c[0] + rr * np.cos(t), c[1] + rr * np.sin(t)))
        cv2.fillPoly(img, [np.array(pts, np.int32)], ink, cv2.LINE_AA)
        _line(img, [_pt(*c), _pt(c[0], c[1] + r * 1.2)], ink, round(w * 0.015))


def draw_grass(img: np.ndarray, rng: np.random.Generator, ink: tuple) -> None:
    """Ground: a few blades of grass or a low hill line."""
    h, w = img.shape[:2]
    if rng.random() < 0.5:
        _line(
            img,
            _curve(_pt(0, h * 0.9), _pt(w * 0.5, h * rng.uniform(0.75, 0.85)), _pt(w, h * 0.9)),
            ink,
            round(w * 0.02),
        )
        return
    for _ in range(int(rng.integers(4, 9))):
        x = w * rng.uniform(0.1, 0.9)
        _line(
            img,
            _curve(
                _pt(x, h * 0.97),
                _pt(x, h * 0.85),
                _pt(x + w * rng.uniform(-0.12, 0.12), h * rng.uniform(0.7, 0.85)),
            ),
            ink,
            round(w * 0.015),
        )


def draw_flower(n: int, img: np.ndarray, rng: np.random.Generator) -> None:
    """The flower of flower tile n (1 plum, 2 orchid, 3 chrysanthemum, 4 bamboo)."""
    (draw_plum, draw_orchid, draw_chrysanthemum, draw_bamboo)[n - 1](img, rng)


def draw_season(n: int, img: np.ndarray, rng: np.random.Generator) -> None:
    """A picture of season n (1 spring: blossom, tree in leaf; 2 summer: sun, lush tree; 3 autumn: maple
    leaves; 4 winter: snowflake, bare tree), with a ground line sometimes."""
    a, b = _random_inks(rng, 2)
    pick = rng.random()
    if n == 1:
        if pick < 0.5:
            draw_plum(img, rng)
        else:
            draw_tree(img, rng, a, INKS["green"] if rng.random() < 0.5 else b)
    elif n == 2:
        if pick < 0.6:
            draw_sun(img, rng, INKS["red"] if rng.random() < 0.6 else a)
        else:
            draw_tree(img, rng, a, INKS["darkgreen"])
    elif n == 3:
        draw_maple(img, rng, INKS["red"] if rng.random() < 0.5 else a)
    else:
        if pick < 0.6:
            draw_snowflake(img, rng, INKS["blue"] if rng.random() < 0.6 else a)
        else:
            draw_tree(img, rng, a, None)
    if rng.random() < 0.5:
        draw_grass(img, rng, INKS["green"] if rng.random() < 0.5 else b)


def chinese_numeral(n: int, size: int) -> np.ndarray:
    """一 二 三 四 drawn with a round pen as a 0-255 mask, `size` pixels square."""
    mask = np.zeros((size, size), np.uint8)
    s, pen = size, max(1, round(size * (0.08 if n == 4 else 0.1)))
    if n <= 3:
        rows = {1: [0.5], 2: [0.28, 0.72], 3: [0.12, 0.5, 0.88]}[n]
        for i, y in enumerate(rows):
            inset = 0.12 if i < len(rows) - 1 else 0.0
            _line(
                mask,
                [_pt(s * (0.05 + inset), s * y), _pt(s * (0.95 - inset), s * (y - 0.04))],
                (255, 255, 255),
                pen,
            )
    else:
        cv2.rectangle(mask, _pt(s * 0.08, s * 0.12), _pt(s * 0.92, s * 0.9), 255, pen, cv2.LINE_AA)
        _line(mask, [_pt(s * 0.4, s * 0.14), _pt(s * 0.3, s * 0.62)], (255, 255, 255), pen)
        _line(
            mask,
            [_pt(s * 0.6, s * 0.14), _pt(s * 0.62, s * 0.55), _pt(s * 0.78, s * 0.62)],
            (255, 255, 255),
            pen,
        )
    return mask


def render_drawn_bonus(height: int, per_code: int = 6) -> Rendered:
    """procedural-flowers: drawn flower and season faces (the flower or season pictured, as sets draw
    them), the number 1-4 or 一二三四 in a top corner in red, blue, green or black; `per_code` each."""
    out: Rendered = []
    width = round(height * 0.75)
    scale = 2  # drawn large, then scaled down: smoother strokes
    for code in BONUS:
        n, kind = int(code[0]), code[1]
        for k in range(per_code):
            rng = np.random.default_rng([11, n, ord(kind), k])
            img = np.full((height * scale, width * scale, 3), GROUND, np.uint8)
            picture = img[round(height * scale * 0.12) :, :]  # below the numeral's band
            (draw_flower if kind == "f" else draw_season)(n, picture, rng)
            face = key_out(
                cv2.resize(img, (width, height), interpolation=cv2.INTER_AREA).astype(np.float32),
                np.broadcast_to(np.array(GROUND, np.float32), (height, width, 3)),
                (10, 70),
            )
            chinese = rng.random() < 0.45
            size = round(height * rng.uniform(0.16, 0.22) if chinese else height * rng.uniform(0.13, 0.19))
            mask = chinese_numeral(n, size) if chinese else text_mask(str(n), size, rng)
            ink = INKS[str(rng.choice(["red", "red", "blue", "blue", "green", "black"]))]
            left = bool(rng.random() < 0.6)
            margin = round(width * rng.uniform(0.04, 0.1))
            paint(face, mask, ink, margin if left else width - margin - mask.shape[1], round(height * 0.03))
            out.append((code, face))
    return out


# ---------------------------------------------------------------- the bank


def _render_printed(height: int) -> Rendered:
    """procedural-printed, imported here: datasets.faces_printed builds on this module's helpers."""
    from datasets.faces_printed import render_printed

    return render_printed(height)


def _render_varied(height: int) -> Rendered:
    """procedural-varied, imported here: datasets.faces_varied builds on faces_printed."""
    from datasets.faces_varied import render_varied

    return render_varied(height)


RENDERERS: dict[str, Callable[[int], Rendered]] = {
    "fluffystuff-regular": lambda h: render_fluffystuff("Regular", h),
    "fluffystuff-black": lambda h: render_fluffystuff("Black", h),
    "kmahjongg-default": lambda h: render_kmahjongg("default", h),
    "kmahjongg-traditional": lambda h: render_kmahjongg("traditional", h),
    "kmahjongg-classic": lambda h: render_kmahjongg("classic", h),
    "font-symbola": lambda h: render_font("font-symbola", h),
    "font-noto": lambda h: render_font("font-noto", h),
    "font-freeserif": lambda h: render_font("font-freeserif", h),
    "font-unifont": lambda h: render_font("font-unifont", h),
    **{name: functools.partial(render_sheet, name) for name in SHEETS},
    "procedural-western": render_western,
    "procedural-flowers": render_drawn_bonus,
    "procedural-printed": _render_printed,
    "procedural-varied": _render_varied,
}
"""Artwork name -> renderer (height -> faces); every ARTWORKS entry has one."""


def artworks_of(split: str) -> list[str]:
    """The artworks of a split, in ARTWORKS order."""
    if split not in SPLITS:
        raise ValueError(f"split must be one of {SPLITS}, not {split!r}")
    return [name for name, side in ARTWORKS.items() if split in ("all", side)]


def _manifest(height: int) -> dict[str, int]:
    return {"height": height, "version": RENDER_VERSION}


def cached_faces(artwork: str, height: int, cache: Path | None) -> Rendered:
    """One artwork's faces: read from cache/<artwork>/ when rendered there at this height and version,
    else rendered (and written there)."""
    folder = None if cache is None else cache / artwork
    if folder is not None:
        manifest = folder / "manifest.json"
        try:
            meta = json.loads(manifest.read_text())
        except (OSError, ValueError):
            meta = None
        if isinstance(meta, dict) and {k: meta.get(k) for k in ("height", "version")} == _manifest(height):
            faces: Rendered = []
            for name in meta.get("files", []):
                rgba = decode_png((folder / name).read_bytes()) if (folder / name).is_file() else None
                if rgba is None:
                    break
                faces.append((name.split("_")[0], rgba))
            else:
                return faces
    faces = RENDERERS[artwork](height)
    if folder is not None and faces:
        write_cache(folder, faces, height)
    return faces


def write_cache(folder: Path, faces: Rendered, height: int) -> None:
    """Write an artwork's faces as <code>_<k>.png with a manifest into a fresh folder, then put it in
    place of `folder` (a reader never sees a half-written folder)."""
    folder.parent.mkdir(parents=True, exist_ok=True)
    fresh = Path(tempfile.mkdtemp(prefix=f".{folder.name}-", dir=folder.parent))
    names = []
    counts: dict[str, int] = {}
    for code, rgba in faces:
        k = counts.get(code, 0)
        counts[code] = k + 1
        name = f"{code}_{k}.png"
        cv2.imwrite(str(fresh / name), cv2.cvtColor(rgba, cv2.COLOR_RGBA2BGRA))
        names.append(name)
    (fresh / "manifest.json").write_text(json.dumps({**_manifest(height), "files": names}))
    stale = folder.with_name(f".{folder.name}-stale-{os.getpid()}")
    if folder.exists():
        folder.rename(stale)
    try:
        fresh.rename(folder)
    except OSError:  # another process put its copy in place first: keep that one
        shutil.rmtree(fresh, ignore_errors=True)
    shutil.rmtree(stale, ignore_errors=True)


def load_faces(
    split: str = "train", height: int = 128, cache: Path | None = Path("runs/faces")
) -> dict[str, list[Face]]:
    """code -> faces of the split's artworks ("train", "heldout" or "all"), `height` pixels tall; rendered
    once and cached as PNGs under cache/<artwork>/<code>_<k>.png (cache=None: render, keep nothing).
    Artworks whose source is not installed give nothing; `missing_codes` tells what is then uncovered."""
    bank: dict[str, list[Face]] = {}
    for artwork in artworks_of(split):
        for code, rgba in cached_faces(artwork, height, cache):
            rgba.setflags(write=False)  # shared by every scene drawn from the bank: copy before changing
            bank.setdefault(code, []).append(Face(code, rgba, artwork))
    return bank


def missing_codes(bank: dict[str, list[Face]]) -> list[str]:
    """The tile codes without a face in a bank."""
    return [code for code in TILE_CODES if not bank.get(code)]


def iter_faces(bank: dict[str, list[Face]]) -> Iterator[Face]:
    """Every face of a bank, by code order then artwork order."""
    for code in TILE_CODES:
        yield from bank.get(code, [])


def main(argv: list[str] | None = None) -> int:
    """Render (or read) the bank, print faces per artwork and split, optionally write a contact sheet."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0] if __doc__ else None)
    parser.add_argument("--height", type=int, default=128)
    parser.add_argument("--cache", type=Path, default=Path("runs/faces"))
    parser.add_argument("--preview", type=Path, help="write a contact sheet PNG of all faces by artwork")
    args = parser.parse_args(argv)
    start = time.perf_counter()
    bank = load_faces("all", args.height, args.cache)
    seconds = time.perf_counter() - start
    per_artwork: dict[str, set[str]] = {}
    counts: dict[str, int] = {}
    for face in iter_faces(bank):
        per_artwork.setdefault(face.artwork, set()).add(face.code)
        counts[face.artwork] = counts.get(face.artwork, 0) + 1
    for artwork, side in ARTWORKS.items():
        n_codes = len(per_artwork.get(artwork, ()))
        print(f"{artwork:24s} {side:8s} {counts.get(artwork, 0):4d} faces, {n_codes} codes")
    for split in ("train", "heldout"):
        missing = missing_codes(load_faces(split, args.height, args.cache))
        print(f"{split}: {'all 42 codes' if not missing else 'missing ' + ' '.join(missing)}")
    print(f"{sum(counts.values())} faces in {seconds:.1f} s")
    if args.preview:
        from datasets.faces_preview import contact_sheet

        args.preview.parent.mkdir(parents=True, exist_ok=True)
        cv2.imwrite(str(args.preview), cv2.cvtColor(contact_sheet(bank), cv2.COLOR_RGB2BGR))
        print(f"wrote {args.preview}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
