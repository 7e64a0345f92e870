"""procedural-flowers: flower and season faces drawn with simple brush motifs (the flower or season
pictured, a numeral 1-4 or 一二三四 in a corner); procedural-printed and -varied reuse the drawings."""

from __future__ import annotations

import itertools

import cv2
import numpy as np

from datasets.faces_common import INKS, Rendered
from datasets.faces_sheets import key_out
from datasets.faces_western import GROUND, paint, text_mask
from recognizer.labels import BONUS

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
