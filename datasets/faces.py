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

Modules: this one (FluffyStuff, KMahjongg, the fonts, the bank and its cache), datasets/faces_sheets.py (the
gnome-mahjongg and xmahjongg sheets), faces_western.py (procedural-western), faces_drawn.py
(procedural-flowers), faces_printed.py, faces_varied.py, and faces_common.py (the helpers they share).

Example: .venv/bin/python -m datasets.faces --preview runs/faces_preview.png
"""

from __future__ import annotations

import argparse
import functools
import io
import json
import os
import re
import shutil
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from datasets.faces_common import INKS, Rendered, decode_png, over, render_svg_text, to_height
from datasets.faces_drawn import render_drawn_bonus
from datasets.faces_sheets import SHEETS, render_sheet
from datasets.faces_western import render_western
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


# ---------------------------------------------------------------- helpers (shared ones: faces_common)


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


def installed_sources() -> list[str]:
    """The artwork sources (folders, sheets, fonts) installed now. A cache rendered without one of them is
    stale: procedural artworks draw on the others, so a package installed later changes them too."""
    from datasets.faces_printed import CJK_FONTS
    from datasets.faces_western import DEJAVU, INDEX_FONTS

    paths = [FLUFFY_DIR, KMAHJONGG_DIR, *FONTS.values(), *(sheet.path for sheet in SHEETS.values())]
    paths += [DEJAVU / name for name in INDEX_FONTS] + [Path(path) for path, _ in CJK_FONTS]
    return sorted(str(path) for path in paths if path.exists())


def _manifest(height: int) -> dict[str, object]:
    return {"height": height, "version": RENDER_VERSION, "sources": installed_sources()}


def fresh_enough(meta: dict, height: int) -> bool:
    """Whether a cache's manifest was rendered at this height and version from every source installed now
    (a cache carried from a machine with more artwork, `datasets.carry`, is kept: it lacks nothing)."""
    sources = meta.get("sources")
    return (
        meta.get("height") == height
        and meta.get("version") == RENDER_VERSION
        and isinstance(sources, list)
        and set(installed_sources()) <= set(sources)
    )


def cached_faces(artwork: str, height: int, cache: Path | None) -> Rendered:
    """One artwork's faces: read from cache/<artwork>/ when rendered there at this height and version, with
    every source installed now (`fresh_enough`), else rendered (and written there)."""
    folder = None if cache is None else cache / artwork
    if folder is not None:
        manifest = folder / "manifest.json"
        try:
            meta = json.loads(manifest.read_text())
        except (OSError, ValueError):
            meta = None
        if isinstance(meta, dict) and fresh_enough(meta, height):
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
