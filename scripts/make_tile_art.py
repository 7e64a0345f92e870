"""Draw the tile pictures of `mahjong_nts/tile_art/` once: `.venv/bin/python scripts/make_tile_art.py`.

The 34 playing faces come from the CC0 FluffyStuff artwork (../shared/artwork/fluffystuff-riichi-tiles,
Regular variant), rendered with cairosvg (`.venv/bin/pip install cairosvg`, in the train extra) onto a
tile body drawn here; the witte draak, empty in that artwork, gets the blue frame of Dutch sets. Flowers,
seasons and the back (face-down tile) are drawn here with Pillow: a numeral and a motif, one colour each.
Every tile is drawn at 4x, shrunk to each size in SIZES and stored with a palette of COLOURS.
"""

from __future__ import annotations

import argparse
import io
import math
import sys
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

ROOT = Path(__file__).resolve().parents[1]
ARTWORK = ROOT.parent / "shared" / "artwork" / "fluffystuff-riichi-tiles" / "Regular"
OUT = ROOT / "mahjong_nts" / "tile_art"
SIZES = {"48x64": (48, 64), "96x128": (96, 128)}  # folder -> (width, height)
W, H = 192, 256  # drawing size (4x the small one)
COLOURS = 128  # a palette per picture keeps the whole set small (about 150 KB)

IVORY = (247, 243, 232, 255)
EDGE = (150, 140, 122, 255)
BACK = (31, 111, 92, 255)
BACK_LINE = (120, 190, 165, 255)
HAKU_BLUE = (40, 90, 170, 255)

_SUIT_FILES = {"m": "Man", "p": "Pin", "s": "Sou"}
_HONOUR_FILES = ("Ton", "Nan", "Shaa", "Pei", "Haku", "Hatsu", "Chun")

# bonus tile -> (motif, colour): flowers 1-4 pruim, orchidee, chrysant, bamboe; seasons lente .. winter
BONUS = {
    "1f": ("blossom", (214, 74, 132)),
    "2f": ("orchid", (128, 62, 170)),
    "3f": ("chrysanthemum", (226, 150, 20)),
    "4f": ("bamboo", (40, 140, 60)),
    "1y": ("sprout", (110, 180, 40)),
    "2y": ("sun", (235, 90, 20)),
    "3y": ("leaf", (150, 75, 30)),
    "4y": ("snowflake", (60, 150, 215)),
}


def svg_file(code: str) -> Path:
    """The FluffyStuff file of a playing tile: 1m -> Man1.svg, 5z -> Haku.svg."""
    number, suit = int(code[0]), code[1]
    stem = _HONOUR_FILES[number - 1] if suit == "z" else f"{_SUIT_FILES[suit]}{number}"
    return ARTWORK / f"{stem}.svg"


def body(fill: tuple[int, int, int, int] = IVORY) -> Image.Image:
    """An upright tile seen from the front: a rounded rectangle with a darker rim."""
    tile = Image.new("RGBA", (W, H), (0, 0, 0, 0))
    ImageDraw.Draw(tile).rounded_rectangle((2, 2, W - 3, H - 3), radius=22, fill=fill, outline=EDGE, width=6)
    return tile


def face_tile(code: str) -> Image.Image:
    """A playing tile: the FluffyStuff face on the tile body (the witte draak: a blue frame)."""
    import cairosvg  # type: ignore[import-untyped]

    tile = body()
    if code == "5z":
        ImageDraw.Draw(tile).rounded_rectangle(
            (38, 42, W - 39, H - 43), radius=10, outline=HAKU_BLUE, width=12
        )
        return tile
    png = cairosvg.svg2png(url=str(svg_file(code)), output_width=W - 24, output_height=H - 32)
    face = Image.open(io.BytesIO(png)).convert("RGBA")
    tile.alpha_composite(face, (12, 16))
    return tile


def _petals(
    draw: ImageDraw.ImageDraw,
    centre: tuple[float, float],
    count: int,
    length: float,
    width: float,
    colour: tuple[int, int, int],
) -> None:
    """`count` round petals in a ring around `centre`."""
    cx, cy = centre
    for i in range(count):
        angle = 2 * math.pi * i / count - math.pi / 2
        px, py = cx + math.cos(angle) * length * 0.55, cy + math.sin(angle) * length * 0.55
        draw.ellipse((px - width, py - width, px + width, py + width), fill=colour)


def motif(draw: ImageDraw.ImageDraw, kind: str, colour: tuple[int, int, int]) -> None:
    """The picture of a flower or season, in the lower two thirds of the tile."""
    cx, cy = W / 2, H * 0.6
    dark = tuple(int(c * 0.6) for c in colour)
    if kind in ("blossom", "orchid", "chrysanthemum"):
        count, length, width = {"blossom": (5, 80, 26), "orchid": (3, 84, 30), "chrysanthemum": (12, 88, 15)}[
            kind
        ]
        _petals(draw, (cx, cy), count, length, width, colour)
        draw.ellipse((cx - 16, cy - 16, cx + 16, cy + 16), fill=(250, 210, 60))
    elif kind == "bamboo":
        for dx in (-34, 0, 34):
            draw.rounded_rectangle((cx + dx - 10, cy - 70, cx + dx + 10, cy + 70), radius=8, fill=colour)
            for dy in (-24, 24):
                draw.line((cx + dx - 12, cy + dy, cx + dx + 12, cy + dy), fill=dark, width=5)
    elif kind == "sprout":
        draw.line((cx, cy + 70, cx, cy - 20), fill=dark, width=10)
        draw.ellipse((cx - 62, cy - 50, cx - 2, cy), fill=colour)
        draw.ellipse((cx + 2, cy - 30, cx + 62, cy + 20), fill=colour)
    elif kind == "sun":
        for i in range(12):
            angle = 2 * math.pi * i / 12
            ux, uy = math.cos(angle), math.sin(angle)
            draw.line((cx + ux * 40, cy + uy * 40, cx + ux * 76, cy + uy * 76), fill=colour, width=9)
        draw.ellipse((cx - 36, cy - 36, cx + 36, cy + 36), fill=colour)
    elif kind == "leaf":
        draw.polygon([(cx, cy - 76), (cx + 58, cy - 6), (cx, cy + 56), (cx - 58, cy - 6)], fill=colour)
        draw.line((cx, cy - 60, cx, cy + 78), fill=dark, width=7)
    elif kind == "snowflake":
        for i in range(6):
            angle = math.pi * i / 3
            ex, ey = cx + math.cos(angle) * 74, cy + math.sin(angle) * 74
            draw.line((cx, cy, ex, ey), fill=colour, width=9)
            for side in (-1, 1):
                bx, by = cx + math.cos(angle) * 46, cy + math.sin(angle) * 46
                twig = angle + side * math.pi / 4
                draw.line((bx, by, bx + math.cos(twig) * 24, by + math.sin(twig) * 24), fill=colour, width=7)
    else:  # pragma: no cover - BONUS names only the kinds above
        raise ValueError(kind)


def bonus_tile(code: str) -> Image.Image:
    """A flower or season: its numeral at the top left and its motif below, in its own colour."""
    kind, colour = BONUS[code]
    tile = body()
    draw = ImageDraw.Draw(tile)
    motif(draw, kind, colour)
    ink = tuple(int(c * 0.75) for c in colour)
    draw.text(
        (22, 4), code[0], font=ImageFont.load_default(size=92), fill=ink, stroke_width=3, stroke_fill=ink
    )
    return tile


def back_tile() -> Image.Image:
    """A face-down tile: the coloured back with a lighter inner line."""
    tile = body(BACK)
    ImageDraw.Draw(tile).rounded_rectangle((26, 26, W - 27, H - 27), radius=14, outline=BACK_LINE, width=5)
    return tile


def draw_tile(code: str) -> Image.Image:
    """The picture of any code (42 tiles and 'back') at drawing size."""
    if code == "back":
        return back_tile()
    if code in BONUS:
        return bonus_tile(code)
    return face_tile(code)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=OUT, help="folder of the size folders (tile_art)")
    args = parser.parse_args(argv)
    sys.path.insert(0, str(ROOT))
    from scoring import TILE_CODES

    if not ARTWORK.is_dir():
        raise SystemExit(f"artwork not found: {ARTWORK}")
    for code in (*TILE_CODES, "back"):
        big = draw_tile(code)
        for folder, size in SIZES.items():
            target = args.out / folder / f"{code}.png"
            target.parent.mkdir(parents=True, exist_ok=True)
            small = big.resize(size, Image.Resampling.LANCZOS)
            small.quantize(COLOURS, method=Image.Quantize.FASTOCTREE).save(target, optimize=True)
    total = sum(path.stat().st_size for path in args.out.glob("*/*.png"))
    print(f"wrote {len(TILE_CODES) + 1} tiles in {len(SIZES)} sizes to {args.out} ({total // 1024} KB)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
