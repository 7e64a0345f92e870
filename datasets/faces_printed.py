"""procedural-printed: tile faces printed with the CJK fonts of Debian packages (installed at training time
only, never committed), in the look of real Chinese, Hong Kong and Dutch club sets: 萬 characters, 東南西北,
中 發 and a framed white dragon, 梅蘭菊竹 / 春夏秋冬 with a numeral, ringed circles and jointed bamboo.

Every face is drawn at 2x on ivory (glyphs with Pillow, the bonus pictures with datasets.faces_drawn), scaled
down with an area filter and keyed out to ink on a transparent ground, as the other artworks are. Seeds
are fixed: the same call gives the same faces.
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import TYPE_CHECKING

import cv2
import numpy as np

from datasets.faces import TILE_CODES
from datasets.faces_common import INKS, Rendered
from datasets.faces_drawn import chinese_numeral, draw_flower, draw_season
from datasets.faces_sheets import key_out
from datasets.faces_western import GROUND, paint, text_mask
from datasets.kmahjongg_art import FACE_ASPECT
from recognizer.labels import BONUS

if TYPE_CHECKING:
    from PIL import Image, ImageDraw, ImageFont

CJK_FONTS: tuple[tuple[str, int], ...] = (
    ("/usr/share/fonts/truetype/arphic/ukai.ttc", 0),  # AR PL UKai: brush kai
    ("/usr/share/fonts/truetype/arphic/uming.ttc", 0),  # AR PL UMing: ming
    ("/usr/share/fonts/truetype/wqy/wqy-zenhei.ttc", 0),  # WenQuanYi Zen Hei: sans
    ("/usr/share/fonts/opentype/noto/NotoSansCJK-Bold.ttc", 3),  # Noto Sans CJK TC Bold
    ("/usr/share/fonts/opentype/noto/NotoSerifCJK-Bold.ttc", 3),  # Noto Serif CJK TC Bold
    ("/usr/share/fonts/opentype/ipafont-mincho/ipam.ttf", 0),  # IPA Mincho
    ("/usr/share/fonts/truetype/hanazono/HanaMinA.ttf", 0),  # Hanazono Mincho
    ("/usr/share/fonts/truetype/cwtex/cwkai.ttf", 0),  # cwTeX Kai
    ("/usr/share/fonts/truetype/lxgw-wenkai/LXGWWenKai-Bold.ttf", 0),  # LXGW WenKai
)
"""(file, face index in a collection): the CJK fonts drawn with, rotated through by variant."""

NUMERALS = "一二三四五六七八九"
WINDS = {"1z": "東", "2z": "南", "3z": "西", "4z": "北"}
WIND_LETTERS = {"1z": "EO", "2z": "SZ", "3z": "WW", "4z": "NN"}  # English, Dutch
FLOWERS, SEASONS = "梅蘭菊竹", "春夏秋冬"
VARIANTS = {"五": "伍", "萬": "万", "東": "东", "發": "发", "蘭": "兰"}
"""A character some sets print in another form (伍 the banker's five, simplified 万 东 发 兰)."""

Box = tuple[float, float, float, float]  # x0, y0, x1, y1 as fractions of the face's width and height
SCALE = 2  # drawn at 2x, then area-downscaled


def _jitter(rng: np.random.Generator, name: str) -> tuple[int, int, int]:
    """An ink of datasets.faces.INKS, each channel moved a little, as print and ageing vary it."""
    base = np.array(INKS[name], np.int16) + rng.integers(-14, 15, size=3)
    r, g, b = (int(v) for v in np.clip(base, 0, 255))
    return r, g, b


@functools.cache
def _font(index: int, size: int) -> ImageFont.FreeTypeFont | None:
    """The Pillow font of CJK_FONTS[index] at `size` px (None when not installed)."""
    from PIL import ImageFont

    path, face = CJK_FONTS[index]
    if not Path(path).is_file():
        return None
    try:
        return ImageFont.truetype(path, size, index=face)
    except OSError:
        return ImageFont.truetype(path, size) if face else None


@functools.cache
def has_glyph(index: int, char: str) -> bool:
    """Whether font `index` draws `char` (not its .notdef box, which the noncharacter U+FFFF shows)."""
    mask, notdef = _glyph(index, char, 48, 0), _glyph(index, "\uffff", 48, 0)
    return mask is not None and (notdef is None or not np.array_equal(mask, notdef))


def _glyph(index: int, char: str, size: int, stroke: int) -> np.ndarray | None:
    """`char` in font `index` as a tight 0-255 mask about `size` px tall (None without font or ink)."""
    from PIL import Image, ImageDraw

    font = _font(index, size)
    if font is None:
        return None
    canvas = Image.new("L", (size * 2, size * 2), 0)
    ImageDraw.Draw(canvas).text(
        (size // 4, size // 4), char, font=font, fill=255, stroke_width=stroke, stroke_fill=255
    )
    mask = np.array(canvas)
    ys, xs = np.nonzero(mask > 20)
    if len(xs) < 4:
        return None
    return mask[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1]


def fonts_for(chars: str) -> list[int]:
    """The installed CJK fonts that draw every character of `chars`."""
    return [i for i in range(len(CJK_FONTS)) if all(has_glyph(i, c) for c in chars)]


def _blend(canvas: np.ndarray, mask: np.ndarray, ink: tuple[int, int, int], box: Box) -> None:
    """Print `mask` in `ink` scaled to fit `box` (aspect kept, centred) onto the RGB canvas, in place."""
    h, w = canvas.shape[:2]
    bx0, by0, bx1, by1 = box[0] * w, box[1] * h, box[2] * w, box[3] * h
    s = min((bx1 - bx0) / mask.shape[1], (by1 - by0) / mask.shape[0])
    mw, mh = max(1, round(mask.shape[1] * s)), max(1, round(mask.shape[0] * s))
    m = cv2.resize(mask, (mw, mh), interpolation=cv2.INTER_AREA if s < 1 else cv2.INTER_CUBIC)
    x, y = round((bx0 + bx1 - mw) / 2), round((by0 + by1 - mh) / 2)
    x0, y0, x1, y1 = max(x, 0), max(y, 0), min(x + mw, w), min(y + mh, h)
    a = m[y0 - y : y1 - y, x0 - x : x1 - x].astype(np.float32)[:, :, None] / 255
    region = canvas[y0:y1, x0:x1].astype(np.float32)
    canvas[y0:y1, x0:x1] = (region * (1 - a) + np.array(ink, np.float32) * a).round().astype(np.uint8)


class Printer:
    """One face being drawn: an ivory RGB canvas at 2x, a font and stroke weight, a random stream."""

    def __init__(self, height: int, font: int, rng: np.random.Generator) -> None:
        self.height, self.width = height, round(height * FACE_ASPECT)
        self.canvas = np.full((height * SCALE, self.width * SCALE, 3), GROUND, np.uint8)
        self.font, self.rng = font, rng
        self.stroke = int(rng.integers(0, 3))

    def char(self, char: str, ink: tuple[int, int, int], box: Box, variant: float = 0.0) -> None:
        """Print a character fitted to `box`; its other form (VARIANTS) with probability `variant`."""
        if char in VARIANTS and self.rng.random() < variant and has_glyph(self.font, VARIANTS[char]):
            char = VARIANTS[char]
        mask = _glyph(self.font, char, 160, self.stroke * 2)
        if mask is not None:
            _blend(self.canvas, mask, ink, box)

    def draw(self) -> tuple[Image.Image, ImageDraw.ImageDraw]:
        """A Pillow image of the canvas and its ImageDraw; `self.take(image)` puts it back."""
        from PIL import Image, ImageDraw

        image = Image.fromarray(self.canvas)
        return image, ImageDraw.Draw(image)

    def take(self, image: Image.Image) -> None:
        """Put a drawn Pillow image back as the canvas."""
        self.canvas = np.array(image)

    def face(self) -> np.ndarray:
        """The finished face: scaled down, the ivory keyed out -> RGBA uint8."""
        small = cv2.resize(self.canvas, (self.width, self.height), interpolation=cv2.INTER_AREA)
        ground = np.broadcast_to(np.array(GROUND, np.float32), (self.height, self.width, 3))
        return key_out(small.astype(np.float32), ground, (10, 70))


# ---------------------------------------------------------------- honours, characters, bonus


def print_character(p: Printer, n: int) -> None:
    """n萬: the numeral above in dark ink, 萬 (sometimes 万) in red below."""
    dark = _jitter(p.rng, str(p.rng.choice(["blue", "black", "black", "darkgreen"])))
    top = 0.1 if p.rng.random() < 0.3 else 0.05  # room for a corner index
    p.char(NUMERALS[n - 1], dark, (0.14, top, 0.86, 0.46), variant=0.2)
    p.char("萬", _jitter(p.rng, "red"), (0.08, 0.5, 0.92, 0.96), variant=0.2)


def print_honour(p: Printer, code: str) -> None:
    """Winds large in dark ink, 中 red, 發 green, the white dragon as a frame."""
    rng = p.rng
    if code in WINDS:
        ink = _jitter(rng, str(rng.choice(["black", "blue", "darkgreen"])))
        p.char(WINDS[code], ink, (0.08, 0.12, 0.92, 0.92), variant=0.15)
    elif code == "7z":
        p.char("中", _jitter(rng, "red"), (0.1, 0.08, 0.9, 0.92))
    elif code == "6z":
        p.char("發", _jitter(rng, str(rng.choice(["green", "darkgreen"]))), (0.06, 0.08, 0.94, 0.92), 0.25)
    else:
        frame(p)


def frame(p: Printer) -> None:
    """The white dragon: a blue (or black) rectangle, sometimes double-lined, sometimes with corner
    ornaments; never blank, so it cannot pass for a back."""
    rng = p.rng
    h, w = p.canvas.shape[:2]
    ink = _jitter(rng, "blue" if rng.random() < 0.75 else "black")
    mx, my = w * rng.uniform(0.1, 0.18), h * rng.uniform(0.08, 0.14)
    pen = round(w * rng.uniform(0.035, 0.07))
    image, d = p.draw()
    d.rectangle((mx, my, w - mx, h - my), outline=ink, width=pen)
    if rng.random() < 0.5:
        gap = pen + w * rng.uniform(0.03, 0.06)
        d.rectangle((mx + gap, my + gap, w - mx - gap, h - my - gap), outline=ink, width=max(2, pen // 2))
    if rng.random() < 0.5:
        r = w * rng.uniform(0.04, 0.07)
        for cx, cy in ((mx, my), (w - mx, my), (mx, h - my), (w - mx, h - my)):
            d.rectangle((cx - r, cy - r, cx + r, cy + r), fill=ink)
    p.take(image)


_TOP_LEFT, _TOP_RIGHT = (0.04, 0.03, 0.3, 0.2), (0.7, 0.03, 0.96, 0.2)
BONUS_LAYOUTS: tuple[tuple[Box, Box], ...] = (
    ((0.3, 0.79, 0.7, 0.97), _TOP_LEFT),  # character bottom centre
    ((0.3, 0.79, 0.7, 0.97), _TOP_RIGHT),
    ((0.66, 0.03, 0.96, 0.21), _TOP_LEFT),  # character top right
    ((0.04, 0.79, 0.34, 0.97), _TOP_RIGHT),  # character bottom left
    ((0.66, 0.79, 0.96, 0.97), _TOP_LEFT),  # character bottom right
)
"""(character box, numeral box) of a bonus face with a picture, as sets place the two."""


def print_bonus(p: Printer, n: int, kind: str) -> None:
    """A flower (梅蘭菊竹) or season (春夏秋冬): the numeral in one corner, the character at the bottom or
    in another corner, a picture in the middle most of the time. Both kinds use every ink."""
    rng = p.rng
    inks = ["red", "red", "blue", "green", "black", "darkgreen"]
    char = (FLOWERS if kind == "f" else SEASONS)[n - 1]
    pictured = rng.random() < 0.7
    if pictured:
        h = p.canvas.shape[0]
        picture = p.canvas[round(h * 0.16) : round(h * 0.8), :]
        (draw_flower if kind == "f" else draw_season)(n, picture, rng)
    char_box, num_box = BONUS_LAYOUTS[int(rng.integers(len(BONUS_LAYOUTS)))]
    if not pictured:  # the character is the design: printed large
        char_box = (0.12, 0.26, 0.88, 0.94)
    p.char(char, _jitter(rng, str(rng.choice(inks))), char_box, variant=0.3)
    ink = _jitter(rng, str(rng.choice(inks)))
    if rng.random() < 0.5:
        p.char(NUMERALS[n - 1], ink, num_box)
    else:
        mask = text_mask(str(n), 100, rng) if rng.random() < 0.7 else chinese_numeral(n, 100)
        _blend(p.canvas, mask, ink, num_box)


# ---------------------------------------------------------------- circles and bamboo

PIN_LAYOUTS: dict[int, list[tuple[float, float]]] = {
    1: [(0.5, 0.5)],
    2: [(0.5, 0.27), (0.5, 0.73)],
    3: [(0.24, 0.19), (0.5, 0.5), (0.76, 0.81)],
    4: [(0.29, 0.29), (0.71, 0.29), (0.29, 0.71), (0.71, 0.71)],
    5: [(0.26, 0.2), (0.74, 0.2), (0.5, 0.5), (0.26, 0.8), (0.74, 0.8)],
    6: [(0.3, 0.16), (0.7, 0.16), (0.3, 0.53), (0.7, 0.53), (0.3, 0.83), (0.7, 0.83)],
    7: [(0.2, 0.11), (0.5, 0.22), (0.8, 0.33), (0.3, 0.6), (0.7, 0.6), (0.3, 0.86), (0.7, 0.86)],
    8: [(x, y) for y in (0.13, 0.38, 0.62, 0.87) for x in (0.3, 0.7)],
    9: [(x, y) for y in (0.18, 0.5, 0.82) for x in (0.2, 0.5, 0.8)],
}
"""Dot centres (fractions of width, height) of each circles tile as sets lay them out."""
PIN_RADIUS = {1: 0.42, 2: 0.24, 3: 0.19, 4: 0.2, 5: 0.17, 6: 0.15, 7: 0.13, 8: 0.13, 9: 0.135}
"""Dot radius as a fraction of the face's width."""


def pin_colours(n: int, rng: np.random.Generator) -> list[str]:
    """The ink of each dot, as real sets colour them (5 centre red, 6 and 7 green over red, 9 in rows)."""
    blue, green, red = "blue", "green", "red"
    scheme = {
        2: [green, blue],
        3: [blue, red, green],
        4: [blue, green, green, blue],
        5: [blue, green, red, green, blue],
        6: [green] * 2 + [red] * 4,
        7: [green] * 3 + [red] * 4,
        8: [blue] * 8,
        9: [blue] * 3 + [red] * 3 + [green] * 3,
    }.get(n, [red])
    if rng.random() < 0.2:  # a one-colour set
        return [str(rng.choice([blue, "black", green]))] * n
    return scheme


def dot(
    d: ImageDraw.ImageDraw, c: tuple[float, float], r: float, ink: tuple, accent: tuple, style: int
) -> None:
    """One circle: an outer ring, an inner ring, a centre dot; style 1 adds a ring of petals, style 2 is a
    filled disc with an ivory ring."""
    x, y = c

    def disc(rr: float, fill: tuple | None = None, outline: tuple | None = None, width: int = 1) -> None:
        d.ellipse((x - rr, y - rr, x + rr, y + rr), fill=fill, outline=outline, width=width)

    pen = max(2, round(r * 0.16))
    if style == 2:
        disc(r, fill=ink)
        disc(r * 0.62, outline=GROUND, width=max(2, round(r * 0.12)))
    else:
        disc(r, outline=ink, width=pen)
        disc(r * 0.58, outline=accent, width=max(2, round(r * 0.11)))
    if style == 1:
        for k in range(8):
            t = np.pi / 4 * k
            px, py, pr = x + 0.79 * r * np.cos(t), y + 0.79 * r * np.sin(t), r * 0.085
            d.ellipse((px - pr, py - pr, px + pr, py + pr), fill=accent)
    disc(r * 0.24, fill=ink if style != 2 else accent)


def print_circles(p: Printer, n: int) -> None:
    """n circles at the standard layout, size and spacing jittered; 1p one large ornate multi-colour
    circle."""
    rng = p.rng
    h, w = p.canvas.shape[:2]
    colours = pin_colours(n, rng)
    style = int(rng.choice([0, 0, 1, 2]))
    r = w * PIN_RADIUS[n] * rng.uniform(0.88, 1.02)
    image, d = p.draw()
    spread = rng.uniform(0.94, 1.04)
    for (fx, fy), name in zip(PIN_LAYOUTS[n], colours, strict=True):
        x, y = w * (0.5 + (fx - 0.5) * spread), h * (0.5 + (fy - 0.5) * spread)
        accent = _jitter(rng, "red" if name != "red" else str(rng.choice(["green", "blue"])))
        if rng.random() < 0.5:
            accent = _jitter(rng, name)
        dot(d, (x, y), r, _jitter(rng, name), accent, style)
        if n == 1:
            dot(d, (x, y), r * 0.52, _jitter(rng, "green"), _jitter(rng, "red"), 1)
    p.take(image)


SOU_LAYOUTS: dict[int, list[tuple[float, float, float, float]]] = {
    2: [(0.5, 0.08, 0.5, 0.46), (0.5, 0.54, 0.5, 0.92)],
    3: [(0.5, 0.08, 0.5, 0.46), (0.28, 0.54, 0.28, 0.92), (0.72, 0.54, 0.72, 0.92)],
    4: [(x, y, x, y + 0.38) for y in (0.08, 0.54) for x in (0.28, 0.72)],
    5: [(x, y, x, y + 0.38) for y in (0.08, 0.54) for x in (0.2, 0.8)] + [(0.5, 0.31, 0.5, 0.69)],
    6: [(x, y, x, y + 0.38) for y in (0.08, 0.54) for x in (0.2, 0.5, 0.8)],
    7: [(0.5, 0.05, 0.5, 0.32)] + [(x, y, x, y + 0.27) for y in (0.38, 0.69) for x in (0.2, 0.5, 0.8)],
    8: [
        *((x, y, x, y + 0.38) for y in (0.08, 0.54) for x in (0.13, 0.87)),  # upright outer sticks
        *((x0, 0.08, x1, 0.43) for x0, x1 in ((0.3, 0.45), (0.7, 0.55))),  # the M's V
        *((x0, 0.92, x1, 0.57) for x0, x1 in ((0.3, 0.45), (0.7, 0.55))),  # the W's inverted V
    ],
    9: [(x, y, x, y + 0.27) for y in (0.05, 0.365, 0.68) for x in (0.2, 0.5, 0.8)],
}
"""Stick ends (x0, y0, x1, y1 as fractions) of each bamboo tile; 8s the M over the W."""
SOU_RED = {5: [4], 7: [0], 9: [1, 4, 7]}
"""Sticks many sets print red: 5s's centre, 7s's top, 9s's middle column."""


def stick(
    d: ImageDraw.ImageDraw, a: tuple[float, float], b: tuple[float, float], width: float, ink: tuple
) -> None:
    """A bamboo stick from a to b: three rounded segments with two narrow joints and a light centre line."""
    (ax, ay), (bx, by) = a, b
    length = float(np.hypot(bx - ax, by - ay))
    ux, uy = (bx - ax) / length, (by - ay) / length
    ax, ay, length = ax + ux * width / 2, ay + uy * width / 2, length - width  # the round ends inside a..b
    for t0, t1 in ((0.0, 0.3), (0.35, 0.65), (0.7, 1.0)):
        p0, p1 = (
            (ax + ux * length * t0, ay + uy * length * t0),
            (ax + ux * length * t1, ay + uy * length * t1),
        )
        d.line((p0, p1), fill=ink, width=round(width))
        for px, py in (p0, p1):
            r = width / 2
            d.ellipse((px - r, py - r, px + r, py + r), fill=ink)
        d.line((p0, p1), fill=GROUND, width=max(1, round(width * 0.12)))
    for t in (0.325, 0.675):
        cx, cy = ax + ux * length * t, ay + uy * length * t
        half = width * 0.7
        d.line(
            ((cx - uy * half, cy + ux * half), (cx + uy * half, cy - ux * half)),
            fill=ink,
            width=round(width * 0.3),
        )


def bird(p: Printer) -> None:
    """1s: a simple bird (body, head with beak, tail fan, legs) in green, red and blue."""
    rng = p.rng
    h, w = p.canvas.shape[:2]
    body, wing, head = (_jitter(rng, c) for c in rng.permutation(["green", "red", "blue"]))
    cx, cy = w * rng.uniform(0.45, 0.55), h * rng.uniform(0.5, 0.58)
    image, d = p.draw()
    for k in range(int(rng.integers(3, 6))):  # tail fan, up and to the right
        t = -0.3 - 0.35 * k
        tip = (cx + w * 0.42 * np.cos(t), cy + h * 0.38 * np.sin(t))
        d.line(((cx, cy), tip), fill=wing if k % 2 else body, width=round(w * 0.06))
        d.ellipse((tip[0] - w * 0.05, tip[1] - w * 0.05, tip[0] + w * 0.05, tip[1] + w * 0.05), fill=head)
    d.ellipse((cx - w * 0.28, cy - h * 0.1, cx + w * 0.12, cy + h * 0.12), fill=body)
    d.ellipse((cx - w * 0.2, cy - h * 0.04, cx + w * 0.02, cy + h * 0.07), fill=wing)
    hx, hy = cx - w * 0.27, cy - h * 0.15
    d.ellipse((hx - w * 0.09, hy - w * 0.09, hx + w * 0.09, hy + w * 0.09), fill=head)
    d.polygon(
        ((hx - w * 0.08, hy - w * 0.02), (hx - w * 0.22, hy + w * 0.02), (hx - w * 0.08, hy + w * 0.05)),
        fill=wing,
    )
    for dx in (-0.08, 0.0):
        d.line(
            ((cx + w * dx, cy + h * 0.1), (cx + w * (dx - 0.03), cy + h * 0.25)),
            fill=head,
            width=round(w * 0.025),
        )
    p.take(image)


def print_bamboo(p: Printer, n: int) -> None:
    """n sticks at the standard layout (green, sometimes blue; red where sets print red), or for 1s a
    bird or one ornate stick."""
    rng = p.rng
    h, w = p.canvas.shape[:2]
    if n == 1:
        if rng.random() < 0.75:
            bird(p)
            return
        image, d = p.draw()
        stick(d, (w * 0.5, h * 0.1), (w * 0.5, h * 0.9), w * 0.2, _jitter(rng, "green"))
        d.ellipse((w * 0.38, h * 0.04, w * 0.62, h * 0.16), fill=_jitter(rng, "red"))
        p.take(image)
        return
    main = "green" if rng.random() < 0.75 else str(rng.choice(["blue", "darkgreen"]))
    reds = SOU_RED.get(n, []) if rng.random() < 0.7 else []
    width = w * (0.13 if n < 5 else 0.11) * rng.uniform(0.85, 1.1)
    layout = SOU_LAYOUTS[n]
    if n == 8 and rng.random() < 0.35:  # some sets: two rows of four upright sticks
        layout = [(x, y, x, y + 0.38) for y in (0.08, 0.54) for x in (0.14, 0.38, 0.62, 0.86)]
        width *= 0.85
    image, d = p.draw()
    for i, (x0, y0, x1, y1) in enumerate(layout):
        ink = _jitter(rng, "red" if i in reds else main)
        stick(d, (w * x0, h * y0), (w * x1, h * y1), width, ink)
    p.take(image)


# ---------------------------------------------------------------- the artwork


def needs(code: str) -> str:
    """The CJK characters a code's face is printed with ("" for drawn-only faces)."""
    n, suit = int(code[0]), code[1]
    if suit == "m":
        return NUMERALS[n - 1] + "萬"
    if code in WINDS:
        return WINDS[code]
    if code in BONUS:
        return (FLOWERS if suit == "f" else SEASONS)[n - 1]
    return {"6z": "發", "7z": "中"}.get(code, "")


def render_printed(height: int, per_code: int = 8) -> Rendered:
    """procedural-printed: `per_code` faces of each of the 42 codes, each in one of the installed CJK
    fonts (rotated by variant), stroke weight and inks jittered; [] when no CJK font is installed."""
    try:
        import PIL  # noqa: F401
    except ImportError:
        return []
    out: Rendered = []
    for c, code in enumerate(TILE_CODES):
        need = needs(code)
        fonts = fonts_for(need) if need else fonts_for("東")
        if not fonts:
            continue
        n, suit = int(code[0]), code[1]
        for k in range(per_code):
            rng = np.random.default_rng([23, c, k])
            p = Printer(height, fonts[(k + c) % len(fonts)], rng)
            if suit == "m":
                print_character(p, n)
            elif suit == "p":
                print_circles(p, n)
            elif suit == "s":
                print_bamboo(p, n)
            elif code in BONUS:
                print_bonus(p, n, suit)
            else:
                print_honour(p, code)
            face = p.face()
            if (suit == "m" and rng.random() < 0.3) or (code in WINDS and rng.random() < 0.35):
                index = str(n) if suit == "m" else WIND_LETTERS[code][int(rng.random() < 0.4)]
                mask = text_mask(index, max(6, round(height * 0.11)), rng)
                ink = INKS[str(rng.choice(["black", "blue", "red"]))]
                left = bool(rng.random() < 0.7)
                x = round(p.width * 0.05) if left else p.width - round(p.width * 0.05) - mask.shape[1]
                paint(face, mask, ink, x, round(height * 0.02))
            out.append((code, face))
    return out
