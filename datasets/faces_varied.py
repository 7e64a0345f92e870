"""procedural-varied: tile faces in the styles that real sets use and procedural-printed does not, so that
the classifier learns what a tile says rather than how one artwork draws it.

- bamboo drawn five ways (jointed, a thin line with node ticks, hollow outline, short and fat, a plain
  bar), in one ink or alternating inks, the layout's spacing and stick length jittered; 1s a bird from the
  Symbola font (sparrow, cock, duck, dove...), a drawn peacock fan, or one tall stick;
- circles as coins (a square hole), flat discs, plain rings, double rings or flowers, in any of the
  sets' colour schemes or one ink;
- characters with the numeral and 萬 in swapped inks, an Arabic numeral over 萬, or a corner index;
- winds in any ink, sometimes as the big Latin letter a Western set prints; dragons framed or not, the
  white dragon as one of many frames (rounded, dashed, nested, corner hooks) in blue, black, green or red;
  a fifth of the honours smaller, under (and over) their English name (EAST, RED / DRAGON);
- flowers and seasons whose picture is as often a Symbola glyph or another tile's drawing as their own,
  so that what the set prints decides, as it does on a set never seen: the numeral (1-4 / 一二三四), the
  character (梅蘭菊竹 / 春夏秋冬) or the English name (PLUM ... WINTER), each by its own chance, at least
  one of them (many sets print no numeral); four times as many of each as of the other codes (32, not
  8), so that no picture is seen often enough to be learnt as the answer.

Drawn at 2x on ivory with Pillow and keyed out to ink, like procedural-printed (whose helpers it uses).
Seeds are fixed. Symbola (Debian fonts-symbola) is the train font artwork, so its pictures stay on the
train side of the artwork split.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import TYPE_CHECKING

import cv2
import numpy as np

from datasets.faces import FONTS, TILE_CODES
from datasets.faces_common import INKS, Rendered
from datasets.faces_drawn import chinese_numeral, draw_flower, draw_season
from datasets.faces_printed import (
    FLOWERS,
    NUMERALS,
    PIN_LAYOUTS,
    PIN_RADIUS,
    SEASONS,
    SOU_LAYOUTS,
    SOU_RED,
    WIND_LETTERS,
    WINDS,
    Box,
    Printer,
    _blend,
    _jitter,
    bird,
    fonts_for,
    needs,
    pin_colours,
    stick,
)
from datasets.faces_western import GROUND, text_mask
from recognizer.labels import BONUS

if TYPE_CHECKING:
    from PIL import ImageDraw, ImageFont

PICTURE_FONT = FONTS["font-symbola"]
BIRDS = "🐦🐓🦃🐧🕊🦆🐤🐥"
FLOWER_GLYPHS = "🌸🌹🌺🌻🌼🌷💮🏵❀✿❁❃❋✾🎋🎍"
SEASON_GLYPHS = "☀🌞❄☃⛄🍁🍂🍃🌱🌿🌾🌲🌳⛅🌙"
"""Symbola pictures drawn on 1s and on the flowers and seasons (any picture on any bonus tile)."""
INK_NAMES = tuple(INKS)
Draw = Callable[..., None]
Point = tuple[float, float]
Ink = tuple[int, int, int]


@functools.cache
def _picture_font(size: int) -> ImageFont.FreeTypeFont | None:
    """Symbola at `size` px, None when fonts-symbola is not installed."""
    from PIL import ImageFont

    return ImageFont.truetype(str(PICTURE_FONT), size) if PICTURE_FONT.is_file() else None


def picture(p: Printer, glyph: str, ink: tuple[int, int, int], box: Box) -> bool:
    """Print a Symbola glyph fitted to `box` in one ink; False when the font is missing."""
    from PIL import Image, ImageDraw

    font = _picture_font(160)
    if font is None:
        return False
    canvas = Image.new("L", (400, 400), 0)
    ImageDraw.Draw(canvas).text((60, 60), glyph, font=font, fill=255)
    mask = np.array(canvas)
    ys, xs = np.nonzero(mask > 20)
    if len(xs) < 4:
        return False
    _blend(p.canvas, mask[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1], ink, box)
    return True


def _ink(p: Printer, names: tuple[str, ...] = INK_NAMES) -> tuple[int, int, int]:
    return _jitter(p.rng, str(p.rng.choice(names)))


# ---------------------------------------------------------------- bamboo


def _axis(a: tuple[float, float], b: tuple[float, float]) -> tuple[float, float, float, float, float]:
    (ax, ay), (bx, by) = a, b
    length = max(float(np.hypot(bx - ax, by - ay)), 1.0)
    return ax, ay, (bx - ax) / length, (by - ay) / length, length


def stick_line(d: ImageDraw.ImageDraw, a: Point, b: Point, width: float, ink: Ink) -> None:
    """A thin stick: a line with a tick across at each joint."""
    ax, ay, ux, uy, length = _axis(a, b)
    d.line((a, b), fill=ink, width=max(2, round(width * 0.35)))
    for t in (0.0, 0.33, 0.66, 1.0):
        cx, cy, half = ax + ux * length * t, ay + uy * length * t, width * 0.5
        d.line(
            ((cx - uy * half, cy + ux * half), (cx + uy * half, cy - ux * half)),
            fill=ink,
            width=max(2, round(width * 0.2)),
        )


def stick_outline(d: ImageDraw.ImageDraw, a: Point, b: Point, width: float, ink: Ink) -> None:
    """A hollow stick: its outline and the joints across."""
    ax, ay, ux, uy, length = _axis(a, b)
    half, pen = width / 2, max(2, round(width * 0.16))
    nx, ny = -uy * half, ux * half
    for side in (1, -1):
        d.line(((ax + side * nx, ay + side * ny), (b[0] + side * nx, b[1] + side * ny)), fill=ink, width=pen)
    for t in (0.0, 0.5, 1.0):
        cx, cy = ax + ux * length * t, ay + uy * length * t
        d.line(((cx - nx, cy - ny), (cx + nx, cy + ny)), fill=ink, width=pen)


def stick_fat(d: ImageDraw.ImageDraw, a: Point, b: Point, width: float, ink: Ink) -> None:
    """A short, fat stick of two rounded segments (the sticks of some sets are barely longer than wide)."""
    ax, ay, ux, uy, length = _axis(a, b)
    mid = (ax + ux * length * 0.5, ay + uy * length * 0.5)
    for p0, p1 in (((ax, ay), mid), (mid, b)):
        d.line((p0, p1), fill=ink, width=round(width * 1.3))
    d.line(
        ((mid[0] - uy * width, mid[1] + ux * width), (mid[0] + uy * width, mid[1] - ux * width)),
        fill=GROUND,
        width=max(2, round(width * 0.15)),
    )


def stick_bar(d: ImageDraw.ImageDraw, a: Point, b: Point, width: float, ink: Ink) -> None:
    """A plain bar with round ends."""
    d.line((a, b), fill=ink, width=round(width))
    r = width / 2
    for x, y in (a, b):
        d.ellipse((x - r, y - r, x + r, y + r), fill=ink)


STICKS: tuple[Draw, ...] = (stick, stick_line, stick_outline, stick_fat, stick_bar)


def peacock(p: Printer) -> None:
    """1s: a peacock seen from the front, a fan of eyes above a small body."""
    rng = p.rng
    h, w = p.canvas.shape[:2]
    image, d = p.draw()
    cx, cy = w * 0.5, h * rng.uniform(0.6, 0.7)
    fan, eye, body = _ink(p), _ink(p), _ink(p)
    for k in range(int(rng.integers(5, 9))):
        t = np.pi * (0.1 + 0.8 * k / 7)
        tip = (cx - w * 0.4 * np.cos(t), cy - h * 0.45 * np.sin(t))
        d.line(((cx, cy), tip), fill=fan, width=round(w * 0.03))
        r = w * 0.06
        d.ellipse((tip[0] - r, tip[1] - r, tip[0] + r, tip[1] + r), fill=eye)
    d.ellipse((cx - w * 0.1, cy - h * 0.12, cx + w * 0.1, cy + h * 0.12), fill=body)
    p.take(image)


def varied_bamboo(p: Printer, n: int) -> None:
    """n sticks in one of STICKS' styles at the standard layout, spacing and length jittered; 1s a bird
    glyph, a peacock, the printed bird or one stick."""
    rng = p.rng
    h, w = p.canvas.shape[:2]
    if n == 1:
        pick = rng.random()
        box = (0.08, 0.1, 0.92, 0.9)
        if pick < 0.45 and picture(
            p, str(rng.choice(list(BIRDS))), _ink(p, ("green", "darkgreen", "blue", "red", "black")), box
        ):
            return
        if pick < 0.7:
            peacock(p)
        elif pick < 0.85:
            bird(p)
        else:
            image, d = p.draw()
            STICKS[int(rng.integers(len(STICKS)))](
                d, (w * 0.5, h * 0.1), (w * 0.5, h * 0.9), w * 0.22, _ink(p)
            )
            p.take(image)
        return
    draw = STICKS[int(rng.integers(len(STICKS)))]
    scheme = rng.random()
    main = _ink(p, ("green", "green", "darkgreen", "blue", "black"))
    other = _ink(p, ("red", "blue", "green", "black"))
    reds = SOU_RED.get(n, []) if scheme < 0.5 else []
    width = w * (0.13 if n < 5 else 0.11) * rng.uniform(0.7, 1.2)
    sx, sy = rng.uniform(0.85, 1.08), rng.uniform(0.85, 1.05)
    image, d = p.draw()
    for i, (x0, y0, x1, y1) in enumerate(SOU_LAYOUTS[n]):
        ink = other if (i in reds or (scheme > 0.8 and i % 2)) else main
        a = (w * (0.5 + (x0 - 0.5) * sx), h * (0.5 + (y0 - 0.5) * sy))
        b = (w * (0.5 + (x1 - 0.5) * sx), h * (0.5 + (y1 - 0.5) * sy))
        draw(d, a, b, width, ink)
    p.take(image)


# ---------------------------------------------------------------- circles


def coin(d: ImageDraw.ImageDraw, c: Point, r: float, ink: Ink, accent: Ink, style: int) -> None:
    """One circle in style 0 coin (square hole), 1 flat disc, 2 plain ring, 3 double ring, 4 flower."""
    x, y = c
    pen = max(2, round(r * 0.18))
    if style == 0:
        d.ellipse((x - r, y - r, x + r, y + r), outline=ink, width=pen)
        d.ellipse((x - r * 0.7, y - r * 0.7, x + r * 0.7, y + r * 0.7), fill=accent)
        s = r * 0.25
        d.rectangle((x - s, y - s, x + s, y + s), fill=GROUND)
    elif style == 1:
        d.ellipse((x - r, y - r, x + r, y + r), fill=ink)
    elif style == 2:
        d.ellipse((x - r, y - r, x + r, y + r), outline=ink, width=round(pen * 1.4))
    elif style == 3:
        d.ellipse((x - r, y - r, x + r, y + r), outline=ink, width=pen)
        d.ellipse((x - r * 0.55, y - r * 0.55, x + r * 0.55, y + r * 0.55), outline=accent, width=pen)
    else:
        for k in range(6):
            t = np.pi / 3 * k
            px, py, pr = x + 0.55 * r * np.cos(t), y + 0.55 * r * np.sin(t), r * 0.42
            d.ellipse((px - pr, py - pr, px + pr, py + pr), fill=ink)
        d.ellipse((x - r * 0.3, y - r * 0.3, x + r * 0.3, y + r * 0.3), fill=accent)


def varied_circles(p: Printer, n: int) -> None:
    """n circles in one style of `coin`, the sets' colours or one ink, size and spread jittered."""
    rng = p.rng
    h, w = p.canvas.shape[:2]
    style = int(rng.integers(5))
    names = pin_colours(n, rng) if rng.random() < 0.7 else [str(rng.choice(INK_NAMES))] * n
    r = w * PIN_RADIUS[n] * rng.uniform(0.8, 1.05)
    spread = rng.uniform(0.88, 1.05)
    accent = _ink(p, ("red", "green", "blue", "black"))
    image, d = p.draw()
    for (fx, fy), name in zip(PIN_LAYOUTS[n], names, strict=True):
        centre = (w * (0.5 + (fx - 0.5) * spread), h * (0.5 + (fy - 0.5) * spread))
        coin(d, centre, r, _jitter(rng, name), accent, style)
        if n == 1:
            coin(d, centre, r * 0.45, accent, _jitter(rng, name), (style + 2) % 5)
    p.take(image)


# ---------------------------------------------------------------- characters, honours, bonus


def varied_character(p: Printer, n: int) -> None:
    """n萬 with the numeral in any ink (sometimes red over a dark 萬), or an Arabic numeral over 萬."""
    rng = p.rng
    top_ink, wan_ink = (
        (_ink(p, ("red",)), _ink(p, ("black", "blue")))
        if rng.random() < 0.3
        else (_ink(p), _ink(p, ("red", "red", "black")))
    )
    if rng.random() < 0.25:
        _blend(p.canvas, text_mask(str(n), 120, rng), top_ink, (0.2, 0.05, 0.8, 0.44))
    else:
        p.char(NUMERALS[n - 1], top_ink, (0.14, 0.05, 0.86, 0.46), variant=0.2)
    p.char("萬", wan_ink, (0.08, 0.5, 0.92, 0.96), variant=0.3)


def varied_frame(p: Printer) -> None:
    """The white dragon as one of many frames: rounded, dashed, nested, with corner hooks, any ink."""
    rng = p.rng
    h, w = p.canvas.shape[:2]
    ink = _ink(p, ("blue", "blue", "black", "green", "red"))
    mx, my = w * rng.uniform(0.08, 0.2), h * rng.uniform(0.06, 0.16)
    pen = max(2, round(w * rng.uniform(0.025, 0.08)))
    style = int(rng.integers(4))
    image, d = p.draw()
    box = (mx, my, w - mx, h - my)
    if style == 0:
        d.rounded_rectangle(box, radius=w * rng.uniform(0.05, 0.15), outline=ink, width=pen)
    elif style == 1:  # dashed
        dash = w * rng.uniform(0.06, 0.1)
        for x0, y0, x1, y1 in (
            (box[0], box[1], box[2], box[1]),
            (box[0], box[3], box[2], box[3]),
            (box[0], box[1], box[0], box[3]),
            (box[2], box[1], box[2], box[3]),
        ):
            length = max(abs(x1 - x0), abs(y1 - y0))
            for s in np.arange(0, length, 2 * dash):
                e = min(s + dash, length)
                if x0 == x1:
                    d.line(((x0, y0 + s), (x0, y0 + e)), fill=ink, width=pen)
                else:
                    d.line(((x0 + s, y0), (x0 + e, y0)), fill=ink, width=pen)
    elif style == 2:  # nested
        for k in range(int(rng.integers(2, 4))):
            g = k * (pen + w * 0.04)
            d.rectangle((box[0] + g, box[1] + g, box[2] - g, box[3] - g), outline=ink, width=max(2, pen - k))
    else:  # corner hooks only
        arm = w * rng.uniform(0.15, 0.25)
        for cx, cy, sx, sy in (
            (box[0], box[1], 1, 1),
            (box[2], box[1], -1, 1),
            (box[0], box[3], 1, -1),
            (box[2], box[3], -1, -1),
        ):
            d.line(((cx, cy), (cx + sx * arm, cy)), fill=ink, width=pen)
            d.line(((cx, cy), (cx, cy + sy * arm)), fill=ink, width=pen)
    p.take(image)


def _honour(p: Printer, code: str) -> None:
    """Winds in any ink (a quarter as the big Latin letter), 中 and 發 sometimes in a frame, the white
    dragon as `varied_frame`: filling the face."""
    rng = p.rng
    if code in WINDS:
        if rng.random() < 0.25:
            letter = WIND_LETTERS[code][int(rng.random() < 0.4)]
            _blend(p.canvas, text_mask(letter, 140, rng), _ink(p), (0.12, 0.12, 0.88, 0.88))
        else:
            p.char(WINDS[code], _ink(p), (0.08, 0.1, 0.92, 0.92), variant=0.2)
        return
    if code == "5z":
        varied_frame(p)
        return
    ink = _ink(p, ("red",)) if code == "7z" else _ink(p, ("green", "darkgreen", "green"))
    framed = rng.random() < 0.3
    p.char(
        "中" if code == "7z" else "發",
        ink,
        (0.2, 0.16, 0.8, 0.84) if framed else (0.08, 0.08, 0.92, 0.92),
        0.25,
    )
    if framed:
        image, d = p.draw()
        h, w = p.canvas.shape[:2]
        d.rectangle((w * 0.1, h * 0.08, w * 0.9, h * 0.92), outline=ink, width=max(2, round(w * 0.035)))
        p.take(image)


def shrink_to_middle(p: Printer, box: Box = (0.1, 0.19, 0.9, 0.81)) -> None:
    """Scale what is drawn so far into `box` (aspect kept) on bare ground, to make room for name bands."""
    h, w = p.canvas.shape[:2]
    drawn = p.canvas
    p.canvas = np.full_like(drawn, GROUND)
    bx0, by0, bx1, by1 = round(box[0] * w), round(box[1] * h), round(box[2] * w), round(box[3] * h)
    s = min((bx1 - bx0) / w, (by1 - by0) / h)
    mw, mh = max(1, round(w * s)), max(1, round(h * s))
    x, y = (bx0 + bx1 - mw) // 2, (by0 + by1 - mh) // 2
    p.canvas[y : y + mh, x : x + mw] = cv2.resize(drawn, (mw, mh), interpolation=cv2.INTER_AREA)


def varied_honour(p: Printer, code: str) -> None:
    """An honour as `_honour` draws it; a fifth of them smaller, with the English name in bands above
    (and below) as some sets print it."""
    _honour(p, code)
    if p.rng.random() < 0.2:
        shrink_to_middle(p)
        name_bands(p, HONOUR_NAMES[code], _ink(p), top=p.rng.random() < 0.7)


def any_picture(p: Printer, n: int, kind: str) -> None:
    """The middle of a bonus face: its own drawing, another bonus tile's, or a Symbola glyph."""
    rng = p.rng
    h = p.canvas.shape[0]
    pick = rng.random()
    if pick < 0.4:
        glyphs = FLOWER_GLYPHS + SEASON_GLYPHS
        if picture(p, str(rng.choice(list(glyphs))), _ink(p), (0.15, 0.2, 0.85, 0.78)):
            return
    area = p.canvas[round(h * 0.18) : round(h * 0.8), :]
    if pick < 0.7:
        n, kind = int(rng.integers(1, 5)), str(rng.choice(["f", "y"]))
    (draw_flower if kind == "f" else draw_season)(n, area, rng)


CORNERS: tuple[Box, ...] = (
    (0.04, 0.03, 0.3, 0.2),
    (0.7, 0.03, 0.96, 0.2),
    (0.04, 0.8, 0.3, 0.97),
    (0.7, 0.8, 0.96, 0.97),
)


NAMES: dict[str, tuple[tuple[str, ...], ...]] = {
    "f": (("PLUM",), ("ORCHID",), ("CHRYSAN-", "THEMUM"), ("BAMBOO",)),
    "y": (("SPRING",), ("SUMMER",), ("AUTUMN",), ("WINTER",)),
}
"""The English names Western sets print on their flowers and seasons (a long one on two lines)."""
HONOUR_NAMES = {
    "1z": ("EAST",),
    "2z": ("SOUTH",),
    "3z": ("WEST",),
    "4z": ("NORTH",),
    "5z": ("WHITE", "DRAGON"),
    "6z": ("GREEN", "DRAGON"),
    "7z": ("RED", "DRAGON"),
}
"""The English names some sets print above (and below) their winds and dragons."""
TOP_BAND: Box = (0.08, 0.02, 0.92, 0.17)
BOTTOM_BAND: Box = (0.08, 0.83, 0.92, 0.98)


def name_bands(p: Printer, lines: tuple[str, ...], ink: tuple[int, int, int], top: bool) -> None:
    """An English name in capitals (now and then in title case) in a band: one line at the top or the
    bottom, or two lines split over top and bottom."""
    rng = p.rng
    title = rng.random() < 0.25
    words = [w.title() if title else w for w in lines]
    if title and words[0].endswith("-"):
        words[1:] = [w.lower() for w in words[1:]]  # Chrysan- themum
    bands = (TOP_BAND, BOTTOM_BAND) if len(words) > 1 else (TOP_BAND if top else BOTTOM_BAND,)
    for word, band in zip(words, bands, strict=True):
        _blend(p.canvas, text_mask(word, 100, rng), ink, band)


def bonus_cues(rng: np.random.Generator) -> tuple[bool, bool, bool]:
    """Which of numeral, character and English name a bonus face prints: each by its own chance, and
    one of them when the draw gave none."""
    cues = (rng.random() < 0.65, rng.random() < 0.6, rng.random() < 0.35)
    if any(cues):
        return cues
    pick = int(rng.integers(3))
    return (pick == 0, pick == 1, pick == 2)


def varied_bonus(p: Printer, n: int, kind: str) -> None:
    """A flower or season: any picture, and one or more of what sets print to tell them apart (the
    numeral 1-4 or 一二三四 in a corner, the character in another, the English name in a band), never none:
    many sets print no numeral, so none of the three may be the only one learnt."""
    rng = p.rng
    any_picture(p, n, kind)
    numeral, character, word = bonus_cues(rng)
    name = NAMES[kind][n - 1]
    top = rng.random() < 0.6
    corners = list(CORNERS)
    if word:
        name_bands(p, name, _ink(p), top)
        corners = [CORNERS[i] for i in ((2, 3) if top else (0, 1))]  # the corners the band leaves free
        if len(name) > 1:  # two lines fill both bands: the corner cues move in beside the picture
            corners = [(0.04, 0.19, 0.3, 0.34), (0.7, 0.19, 0.96, 0.34)]
    num_box, char_box = (corners[int(i)] for i in rng.permutation(len(corners))[:2])
    if numeral:
        if rng.random() < 0.6:
            _blend(p.canvas, text_mask(str(n), 100, rng), _ink(p), num_box)
        else:
            _blend(p.canvas, chinese_numeral(n, 100), _ink(p), num_box)
    if character:
        p.char((FLOWERS if kind == "f" else SEASONS)[n - 1], _ink(p), char_box, variant=0.3)


def render_varied(height: int, per_code: int = 8, bonus_per_code: int = 32) -> Rendered:
    """procedural-varied: `per_code` faces of each of the 42 codes (`bonus_per_code` of each flower and
    season: their pictures vary most from set to set, so more of them leave the numeral and the character
    to decide), fonts rotated by variant; [] without Pillow or a CJK font."""
    try:
        import PIL  # noqa: F401
    except ImportError:
        return []
    out: Rendered = []
    for c, code in enumerate(TILE_CODES):
        fonts = fonts_for(needs(code) or "東")  # drawn-only faces: any font that prints CJK
        if not fonts:
            continue
        n, suit = int(code[0]), code[1]
        for k in range(bonus_per_code if code in BONUS else per_code):
            rng = np.random.default_rng([31, c, k])
            p = Printer(height, fonts[(k * 3 + c) % len(fonts)], rng)
            if suit == "m":
                varied_character(p, n)
            elif suit == "p":
                varied_circles(p, n)
            elif suit == "s":
                varied_bamboo(p, n)
            elif code in BONUS:
                varied_bonus(p, n, suit)
            else:
                varied_honour(p, code)
            out.append((code, p.face()))
    return out
