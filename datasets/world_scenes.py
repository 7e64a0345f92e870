"""Synthetic phone photos of mahjong tiles as players take them, for training and for honest held-out checks.

Each scene is one set (one artwork, one body style) on one table, of one kind:

- `hand_row`: a hand standing in a row as a seated player sees it (tops visible), on a rack or not, melds
  and flowers lying in front, sometimes the wall (face-down) behind;
- `flat_rows`: rows of tiles lying face-up, seen from above, some turned, some face-down;
- `scatter`: tiles lying at any angle, any way up;
- `distance`: a hand small in the frame (tiles 2-5 % of its width), drawn at twice the size, clutter around;
- `closeup`: a few tiles filling the frame;
- `lone`: one to three tiles, each alone with table around it, from a tenth to a half of the frame (a
  player showing one flower; tiles set apart); drawn only when asked for (`--kinds lone`), so the default
  mix, and every folder rendered with it, stays as it was;
- `clutter`: hard negatives (keyboard keys, window panes, dominoes, playing cards), few or no tiles;
- `standing`: tiles standing upright, alone or in short rows, seen from a low angle across the table
  (nearer ones larger), a bookshelf, wall or cupboard behind;
- `cluster`: a few tiles standing close together in two or three staggered rows, seen low, the near ones
  hiding part of those behind (tiles pushed together on a mat); drawn only when asked for.

Faces come from `datasets.faces` (every artwork, split by artwork into train and held-out); without it the
CC0 FluffyStuff faces are used; `--restyle P` draws a share P of the scenes in a made-up set's hand
(`datasets.restyle`: other stroke weights, warps, inks), so a code is seen drawn in many ways. Written as
YOLO folders (class = LABELS index) with `kinds.json` (scene -> kind, artwork), so `datasets.evaluate
--scenes` can read them and results can be split by kind.

Example: .venv/bin/python -m datasets.world_scenes --out runs/world_train --count 3000 --split train --seed 0
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import cv2
import numpy as np

from datasets.restyle import Restyle, draw_restyle
from datasets.scene_props import NEGATIVES, backdrop, rack, surface
from datasets.tile_bodies import TileStyle, has_plain_back, paste, random_style, tile_sprite, turned
from datasets.yolo import BACK, LABELS, write_data_yaml, write_sample

KINDS = ("hand_row", "flat_rows", "scatter", "distance", "closeup", "clutter", "standing")
KIND_WEIGHTS = (0.25, 0.15, 0.12, 0.13, 0.1, 0.1, 0.15)
ON_REQUEST = ("lone", "cluster")
"""Kinds outside the default mix (KINDS): drawn only when `--kinds` names them, at the mean weight."""
SIZES = ((640, 480), (480, 640), (640, 360), (640, 640))
FULL_SET = 30
"""An artwork with at least this many codes can be a scene's set; smaller ones (drawn flowers) lend faces."""
ARTWORK_WEIGHTS = {"procedural-printed": 3.0, "procedural-varied": 2.0}
"""How much more often than the others an artwork is a scene's set: the printed faces vary font, ink and
layout from face to face, so they stand for many sets."""
DISTANCE_ZOOM = 2
"""`distance` scenes are drawn this many times larger than SIZES (their small tiles keep real pixels)."""
PRINTED_BONUS = "procedural-varied"
"""The artwork whose flowers and seasons say what they are in print (numeral, character or name) over any
picture: `--bonus-printed` lends its bonus faces to scenes of every set."""
BLANK_WHITE = np.zeros((64, 48, 4), np.uint8)
"""A white dragon drawn as a blank face (fully transparent artwork: the tile's own ivory), as most riichi
and many Chinese sets have it (`--blank-white`)."""
BLANK_WHITE_EXTRA = 0.06
"""In a set with blank white dragons, this much more often a tile is one (they are what such scenes teach)."""
Bank = dict[str, dict[str, list[np.ndarray]]]
"""artwork -> tile code -> face images (RGBA)."""
Box = tuple[int, float, float, float, float]


def face_bank(split: str) -> Bank:
    """Faces of `split` ("train" / "heldout") by artwork; FluffyStuff alone without datasets.faces."""
    try:
        from datasets.faces import artworks_of, load_faces

        have_faces = True
    except ImportError:
        have_faces = False
    if have_faces:
        bank: Bank = {}
        for code, faces in load_faces(split).items():
            for face in faces:
                if not looks_like_a_back(face.rgba):
                    bank.setdefault(face.artwork, {}).setdefault(code, []).append(face.rgba)
        absent = [artwork for artwork in artworks_of(split) if artwork not in bank]
        if absent:  # a render without them is another dataset: say so where the render's log is read
            print(f"warning: artworks not installed, left out: {', '.join(absent)}", file=sys.stderr)
        if bank:
            return bank
    if split != "train":
        raise SystemExit("held-out artworks need datasets/faces.py")
    from datasets.synthetic import render_faces

    return {"fluffystuff": render_faces(kmahjongg=False).faces}


def looks_like_a_back(face: np.ndarray) -> bool:
    """A face that is one dark colour (a blank white dragon drawn on a dark face): on a tile it would look
    face-down, so it is left out rather than taught as a white dragon."""
    opaque = face[:, :, 3] > 128
    if opaque.mean() < 0.9:
        return False
    rgb = face[:, :, :3][opaque].astype(np.float32)
    return float(rgb.mean()) < 90 and float(rgb.std()) < 25


class Scene:
    """A canvas being drawn on and the boxes of the tiles on it."""

    def __init__(
        self,
        size: tuple[int, int],
        rng: np.random.Generator,
        art: dict[str, list[np.ndarray]],
        full: Bank,
        bonus_printed: float = 0.0,
        blank_white: bool = False,
    ) -> None:
        self.w, self.h = size
        self.rng = rng
        self.bonus_printed = bonus_printed
        self.blank_white = blank_white  # this set's white dragon is a blank face
        self.art = art
        self.full = full
        self.canvas = surface(self.w, self.h, rng)
        self.style: TileStyle = random_style(rng)
        self.boxes: list[Box] = []
        self.codes = sorted({code for faces in full.values() for code in faces})  # ... lent what it lacks
        self.restyle: Restyle | None = None  # a made-up set's drawing habits over every face (--restyle)
        self._restyled: dict[int, np.ndarray] = {}  # face id -> its restyled drawing: one tile, one look

    def face(self, code: str) -> np.ndarray | None:
        """One face image of `code` in this scene's artwork (another artwork's if this one lacks it; a
        flower or season, at the share `bonus_printed`, PRINTED_BONUS's; a blank one for a white dragon of
        a set with `blank_white`)."""
        if code == "5z" and self.blank_white:
            return BLANK_WHITE
        faces = self.art.get(code)
        if self.bonus_printed > 0 and code[-1] in "fy" and self.rng.random() < self.bonus_printed:
            faces = self.full.get(PRINTED_BONUS, {}).get(code) or faces
        if not faces:
            others = [a[code] for a in self.full.values() if code in a]
            faces = others[int(self.rng.integers(len(others)))] if others else None
        if not faces:
            return None
        face = faces[int(self.rng.integers(len(faces)))]
        if self.restyle is None:
            return face
        if id(face) not in self._restyled:
            self._restyled[id(face)] = self.restyle.apply(face, len(self._restyled))
        return self._restyled[id(face)]

    def random_code(self, bonus_share: float = 0.08) -> str:
        """A tile code; flowers and seasons about as often as in a game (blank white dragons more often)."""
        if self.blank_white and self.rng.random() < BLANK_WHITE_EXTRA:
            return "5z"
        bonus = [c for c in self.codes if c[-1] in "fy"]
        if bonus and self.rng.random() < bonus_share:
            return bonus[int(self.rng.integers(len(bonus)))]
        plain = [c for c in self.codes if c[-1] not in "fy"]
        return plain[int(self.rng.integers(len(plain)))]

    def tile(
        self,
        code: str,
        width: float,
        x: float,
        y: float,
        view: str,
        elevation: float,
        angle: float = 0.0,
        shadow: float = 0.35,
    ) -> tuple[int, int, int, int] | None:
        """Draw one tile with its top-left at (x, y) and record its box; returns the box."""
        if code == "back" and has_plain_back(self.style):
            return None  # face-down, a tile ivory all through is a blank tile: such sets show none
        face = None if code == "back" else self.face(code)
        if code != "back" and face is None:
            return None
        sprite = tile_sprite(
            face, int(width), self.style, self.rng, "down" if code == "back" else view, elevation
        )
        if angle:
            sprite = turned(sprite, angle)
        box = paste(self.canvas, sprite, int(x), int(y), shadow)
        if box is None:
            return None
        # a tile mostly outside the frame is not labelled (and would teach nothing)
        full = sprite.shape[0] * sprite.shape[1]
        if (box[2] - box[0]) * (box[3] - box[1]) < 0.45 * full * (1.0 if not angle else 0.6):
            return box
        x0, y0, x1, y1 = (float(v) for v in box)
        self.boxes.append((BACK if code == "back" else LABELS.index(code), x0, y0, x1, y1))
        return box

    def negatives(self, count: int, size: float) -> None:
        """Hard negatives at about tile size, anywhere; a tile they hide for the most part loses its box
        (it is no longer seen, and the box would teach a key or a pane as a tile)."""
        before = np.clip(self.canvas, 0, 255).astype(np.uint8)
        drawn = before.copy()  # OpenCV draws text on 8-bit images only
        for _ in range(count):
            draw = NEGATIVES[int(self.rng.integers(len(NEGATIVES)))]
            x = int(self.rng.uniform(-0.1, 0.8) * self.w)
            y = int(self.rng.uniform(-0.1, 0.8) * self.h)
            draw(drawn, x, y, max(int(size * self.rng.uniform(0.6, 1.4)), 6), self.rng)
        self.canvas = drawn.astype(np.float32)
        changed = np.abs(drawn.astype(np.int16) - before.astype(np.int16)).sum(axis=2) > HIDDEN_DIFF
        self.boxes = [b for b in self.boxes if hidden_share(changed, b) < HIDDEN_SHARE]


HIDDEN_DIFF = 24
"""Summed RGB change above which a pixel counts as painted over by a hard negative."""
HIDDEN_SHARE = 0.3
"""A tile box painted over on more than this share of its area is dropped."""


def hidden_share(changed: np.ndarray, box: Box) -> float:
    """The share of a box's pixels that `changed` marks as painted over."""
    x0, y0, x1, y1 = (round(v) for v in box[1:])
    patch = changed[max(y0, 0) : max(y1, 0), max(x0, 0) : max(x1, 0)]
    return float(patch.mean()) if patch.size else 0.0


def lay_hand_row(s: Scene, tile_w: float, x0: float, y_row: float, elevation: float) -> None:
    """A standing hand of 13-14 tiles (groups sometimes apart), melds and flowers lying in front, maybe a
    rack under it and the wall behind it."""
    rng = s.rng
    if rng.random() < 0.15:  # the wall behind, face-down, farther away (smaller)
        wall_w = tile_w * 0.75
        x = x0 + rng.uniform(-1, 2) * tile_w
        y = y_row - tile_w * rng.uniform(1.6, 2.4)
        for _ in range(int(rng.integers(6, 17))):
            box = s.tile("back", wall_w, x, y, "down", elevation, shadow=0.2)
            x += wall_w * 1.02
            if box is None or x > s.w:
                break
    if rng.random() < 0.4:
        rack(
            s.canvas,
            int(x0 - tile_w),
            int(x0 + 15 * tile_w),
            int(y_row + tile_w * 1.35),
            max(int(tile_w * 0.35), 3),
            rng,
        )
    x = x0
    n = int(rng.integers(10, 15))
    for k in range(n):
        code = s.random_code(0.03)
        box = s.tile(code, tile_w, x, y_row, "standing", elevation, shadow=0.25)
        step = (box[2] - box[0]) if box else tile_w
        x += step + rng.uniform(0, 0.06) * tile_w
        if k in (2, 5, 8, 11) and rng.random() < 0.3:
            x += tile_w * rng.uniform(0.3, 1.0)
        if x > s.w:
            break
    # melds and bonus tiles lying nearer the camera (lower in the frame, a little larger)
    y = y_row + tile_w * rng.uniform(1.9, 2.6)
    x = x0 + rng.uniform(-1, 3) * tile_w
    near = tile_w * rng.uniform(1.0, 1.2)
    for _ in range(int(rng.integers(0, 5))):
        first = s.random_code(0.0)
        size = int(rng.integers(3, 5))
        chow = first[-1] in "mps" and int(first[0]) <= 7 and rng.random() < 0.5
        codes = [f"{int(first[0]) + i}{first[-1]}" for i in range(3)] if chow else [first] * size
        if not chow and size == 4 and rng.random() < 0.3:  # concealed kong: the middle two face-down
            codes = [first, "back", "back", first]
        claimed = int(rng.integers(len(codes))) if rng.random() < 0.4 else -1
        for i, code in enumerate(codes):
            angle = 90.0 if i == claimed else 0.0
            box = s.tile(code, near, x, y + (near * 0.15 if angle else 0), "lying", elevation, angle)
            x += ((box[2] - box[0]) if box else near) + near * 0.03
        x += near * rng.uniform(0.3, 1.2)
        if x > s.w * 0.95:
            break
    for _ in range(int(rng.integers(0, 4)) if rng.random() < 0.5 else 0):
        code = s.random_code(1.0)
        s.tile(code, near, x, y, "lying", elevation)
        x += near * 1.1


def lay_flat_rows(s: Scene, tile_w: float, elevation: float) -> None:
    """1-4 rows of tiles lying face-up (some turned round, sideways or face-down)."""
    rng = s.rng
    y = rng.uniform(0.02, 0.35) * s.h
    down = rng.uniform(0, 0.25) if rng.random() < 0.4 else 0.0
    for _ in range(int(rng.integers(1, 5))):
        x = rng.uniform(0.01, 0.15) * s.w
        row_h = tile_w * 1.4
        for _ in range(int(rng.integers(4, 15))):
            code = "back" if rng.random() < down else s.random_code()
            r = rng.random()
            angle = 90.0 * int(rng.choice([1, 3])) if r < 0.1 else (180.0 if r < 0.5 else 0.0)
            box = s.tile(code, tile_w, x, y, "lying", elevation, angle)
            if box:
                row_h = max(row_h, box[3] - box[1])
            x += ((box[2] - box[0]) if box else tile_w) + rng.uniform(0, 0.1) * tile_w
            if rng.random() < 0.12:
                x += tile_w * rng.uniform(0.3, 1.0)
            if x > s.w:
                break
        y += row_h + rng.uniform(0.1, 1.0) * tile_w
        if y > s.h * 0.9:
            break


def lay_scatter(s: Scene, tile_w: float, elevation: float) -> None:
    """Tiles lying at any angle on a jittered grid (so they do not overlap), some face-down."""
    rng = s.rng
    cell = tile_w * 1.9
    for gy in np.arange(rng.uniform(0, 0.5) * cell, s.h - cell * 0.5, cell):
        for gx in np.arange(rng.uniform(0, 0.5) * cell, s.w - cell * 0.5, cell):
            if rng.random() < 0.35:
                continue
            code = "back" if rng.random() < 0.12 else s.random_code()
            s.tile(
                code,
                tile_w,
                gx + rng.uniform(0, 0.2) * cell,
                gy + rng.uniform(0, 0.2) * cell,
                "lying",
                elevation,
                rng.uniform(0, 360),
            )


def table_with_backdrop(s: Scene, low: float, high: float) -> int:
    """A backdrop (shelf, wall, cupboard) drawn above a horizon at a random share (`low`-`high`) of the
    height; returns the horizon's row."""
    horizon = int(s.rng.uniform(low, high) * s.h)
    drawn = np.clip(s.canvas, 0, 255).astype(np.uint8)
    backdrop(drawn, horizon, s.rng)
    s.canvas = drawn.astype(np.float32)
    return horizon


def standing_at(s: Scene, horizon: int, depth: float, tile_w: float) -> tuple[float, float]:
    """Width and top of a tile standing at `depth` (0 at the horizon, 1 at the photo's bottom edge): nearer
    tiles larger and lower."""
    width = tile_w * (0.55 + 0.9 * depth)
    return width, horizon + depth * (s.h - horizon) - width * 1.3


def lay_standing(s: Scene, tile_w: float, elevation: float) -> None:
    """Tiles standing upright on the table seen from a low angle, the far ones smaller, a backdrop above the
    table's far edge; alone, in short rows, or lined up apart across the frame at one depth; drawn far to
    near so the near ones hide what they cover."""
    rng = s.rng
    horizon = table_with_backdrop(s, 0.15, 0.5)
    spots = []
    if rng.random() < 0.45:  # lined up across the frame at one depth, apart or in short runs
        for _ in range(int(rng.integers(1, 3))):
            depth = rng.uniform(0.2, 1.0)
            x, width = rng.uniform(-0.05, 0.2) * s.w, tile_w * (0.55 + 0.9 * depth)
            while x < s.w * 0.95:
                run = int(rng.integers(1, 4)) if rng.random() < 0.5 else 1
                spots.append((depth + rng.normal(0, 0.01), x, run))
                x += width * (run * 1.03 + rng.uniform(0.08, 1.6))
    for _ in range(int(rng.integers(0 if spots else 4, 16))):
        depth = rng.uniform(0.0, 1.0)  # 0 far (at the horizon), 1 near (bottom of the photo)
        spots.append(
            (depth, rng.uniform(0.0, 0.92) * s.w, int(rng.integers(1, 4)) if rng.random() < 0.4 else 1)
        )
    taken: list[tuple[int, int, int, int]] = []
    for depth, x, run in sorted(spots):
        width, y = standing_at(s, horizon, depth, tile_w)
        for _ in range(run):
            box = (int(x), int(y), int(x + width), int(y + width * 1.5))
            if any(_overlap(box, t) > 0.12 for t in taken):
                break
            placed = s.tile(
                s.random_code(0.06),
                width,
                x,
                max(y, horizon - width),
                "standing",
                elevation,
                rng.normal(0, 3),
            )
            if placed:
                taken.append(placed)
            x += width * rng.uniform(1.0, 1.08)


CLUSTER_HIDDEN = 0.5
"""A tile of a `cluster` hidden by nearer ones on more than this share of its box is not labelled."""


def lay_cluster(s: Scene, tile_w: float, elevation: float) -> None:
    """Tiles standing close together in two or three staggered rows seen from a low angle, drawn far to near
    so each row hides part of the one behind; a tile hidden for the most part loses its box."""
    rng = s.rng
    horizon = table_with_backdrop(s, 0.12, 0.45)
    first = len(s.boxes)
    for _ in range(int(rng.integers(1, 3))):  # one or two clusters
        centre = rng.uniform(0.15, 0.85) * s.w
        depth = rng.uniform(0.25, 0.8)
        for _row in range(int(rng.integers(2, 4))):
            width, y = standing_at(s, horizon, depth, tile_w)
            count = int(rng.integers(1, 5))
            x = centre - width * count * 0.6 + rng.uniform(-0.6, 0.6) * width
            for _ in range(count):
                s.tile(
                    s.random_code(0.06),
                    width,
                    x,
                    max(y, horizon - width),
                    "standing",
                    elevation,
                    rng.normal(0, 4),
                )
                x += width * rng.uniform(1.0, 1.5)
            depth += rng.uniform(0.1, 0.3)  # the next row nearer, lower, larger
    s.boxes = s.boxes[:first] + hidden_dropped(s.boxes[first:], (s.h, s.w))


def hidden_dropped(boxes: list[Box], shape: tuple[int, int]) -> list[Box]:
    """The boxes (in drawing order, far to near) less those that later ones cover on more than
    CLUSTER_HIDDEN of their area."""
    covered = np.zeros(shape, bool)
    kept: list[Box] = []
    for box in reversed(boxes):
        x0, y0, x1, y1 = (max(round(v), 0) for v in box[1:])
        patch = covered[y0:y1, x0:x1]
        if not patch.size or patch.mean() <= CLUSTER_HIDDEN:
            kept.append(box)
        covered[y0:y1, x0:x1] = True
    return kept[::-1]


def _overlap(a: tuple[int, int, int, int], b: tuple[int, int, int, int]) -> float:
    """Intersection of two boxes over the smaller one's area."""
    w = min(a[2], b[2]) - max(a[0], b[0])
    h = min(a[3], b[3]) - max(a[1], b[1])
    if w <= 0 or h <= 0:
        return 0.0
    return w * h / max(min((a[2] - a[0]) * (a[3] - a[1]), (b[2] - b[0]) * (b[3] - b[1])), 1)


def finish(
    img: np.ndarray, boxes: list[Box], rng: np.random.Generator, warp: float
) -> tuple[np.ndarray, list[Box]]:
    """Perspective jitter, then light (level, white balance, gradient, glare, vignette), blur and noise."""
    h, w = img.shape[:2]
    if warp > 0:
        src = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)
        dst = (src + rng.uniform(-warp, warp, (4, 2)) * np.array([w, h])).astype(np.float32)
        hm = cv2.getPerspectiveTransform(src, dst)
        img = cv2.warpPerspective(img, hm, (w, h), borderMode=cv2.BORDER_REFLECT101)
        moved = []
        for lab, x0, y0, x1, y1 in boxes:
            pts = cv2.perspectiveTransform(
                np.array([[[x0, y0], [x1, y0], [x1, y1], [x0, y1]]], np.float32), hm
            )[0]
            bx0, by0 = np.maximum(pts.min(0), 0)
            bx1, by1 = np.minimum(pts.max(0), [w, h])
            if bx1 - bx0 > 3 and by1 - by0 > 3:
                moved.append((lab, float(bx0), float(by0), float(bx1), float(by1)))
        boxes = moved
    gx = np.linspace(-1, 1, w, dtype=np.float32)[None, :]
    gy = np.linspace(-1, 1, h, dtype=np.float32)[:, None]
    light = (1 + rng.uniform(-0.3, 0.3) * gx + rng.uniform(-0.3, 0.3) * gy) * rng.uniform(0.45, 1.2)
    if rng.random() < 0.5:  # vignette
        light *= 1 - rng.uniform(0.1, 0.4) * (gx**2 + gy**2) / 2
    balance = rng.uniform(0.82, 1.18, 3).astype(np.float32)
    img = img * light[:, :, None] * balance
    if rng.random() < 0.25:  # flash or lamp glare
        cx, cy = rng.uniform(0, w), rng.uniform(0, h)
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        rad = rng.uniform(0.05, 0.3) * max(w, h)
        img += (rng.uniform(60, 200) * np.exp(-((xx - cx) ** 2 + (yy - cy) ** 2) / (2 * rad**2)))[:, :, None]
    img = np.clip(img, 0, 255).astype(np.uint8)
    r = rng.random()
    if r < 0.35:
        img = cv2.GaussianBlur(img, (0, 0), rng.uniform(0.4, 1.6))
    elif r < 0.5:  # a little camera shake
        k = int(rng.integers(3, 8))
        kern = np.zeros((k, k), np.float32)
        kern[k // 2, :] = 1.0 / k
        m = cv2.getRotationMatrix2D((k / 2 - 0.5, k / 2 - 0.5), rng.uniform(0, 180), 1.0)
        img = cv2.filter2D(img, -1, cv2.warpAffine(kern, m, (k, k)))
    noise = rng.normal(0, rng.uniform(1, 8), img.shape)
    return np.clip(img + noise, 0, 255).astype(np.uint8), boxes


def lay_lone(s: Scene, count: int, side: int) -> None:
    """`count` tiles each alone: none touching another (a tile that would is not drawn); the fewer, the
    larger (up to a half of the frame's short side for one)."""
    rng = s.rng
    taken: list[tuple[int, int, int, int]] = []
    for _ in range(count):
        tile_w = rng.uniform(0.1, 0.36) * side / np.sqrt(count)
        view = "standing" if rng.random() < 0.4 else "lying"
        x, y = rng.uniform(0.05, 0.95) * s.w - tile_w / 2, rng.uniform(0.05, 0.8) * s.h - tile_w * 0.7
        near = [b for b in taken if x < b[2] + tile_w * 0.3 and b[0] < x + tile_w * 1.8]
        if any(y < b[3] + tile_w * 0.3 and b[1] < y + tile_w * 2.2 for b in near):
            continue
        box = s.tile(s.random_code(0.25), tile_w, x, y, view, rng.uniform(0.6, 1.5), rng.normal(0, 25))
        if box is not None:
            taken.append(box)


def render_scene(
    bank: Bank,
    rng: np.random.Generator,
    kind: str,
    size: tuple[int, int],
    bonus_printed: float = 0.0,
    blank_white: float = 0.0,
    club: tuple[str, TileStyle] | None = None,
    restyle: float = 0.0,
) -> tuple[np.ndarray, list[Box], str]:
    """One photo of `kind`: RGB uint8, boxes (label, x0, y0, x1, y1) and the artwork it shows (its flowers
    and seasons at the share `bonus_printed` PRINTED_BONUS's; at the share `blank_white` of scenes a set
    whose white dragon is blank, no draw made at 0 so older folders render as they did). `club`: one
    set's artwork and tile body, the same in every photo (a club's own set), instead of a draw. At the share
    `restyle` of scenes every face is drawn in a made-up set's hand (`datasets.restyle`; no draw at 0)."""
    if club is None:
        artworks = sorted(a for a in bank if len(bank[a]) >= FULL_SET) or sorted(bank)
        weights = np.array([ARTWORK_WEIGHTS.get(a, 1.0) for a in artworks])
        artwork = artworks[int(rng.choice(len(artworks), p=weights / weights.sum()))]  # one set a scene
    else:
        artwork = club[0]
    if kind == "distance":  # a photo from across the table keeps its pixels: drawn at twice the size
        size = (size[0] * DISTANCE_ZOOM, size[1] * DISTANCE_ZOOM)
    blank = blank_white > 0 and rng.random() < blank_white
    s = Scene(size, rng, bank[artwork], bank, bonus_printed, blank)
    if club is not None:
        s.style = club[1]
    if restyle > 0 and rng.random() < restyle:
        s.restyle = draw_restyle(rng)
    side = min(size)
    warp = 0.08
    if kind == "hand_row":
        tile_w = rng.uniform(0.045, 0.075) * max(size)
        lay_hand_row(
            s, tile_w, rng.uniform(0.01, 0.12) * s.w, rng.uniform(0.25, 0.5) * s.h, rng.uniform(0.45, 0.95)
        )
        if rng.random() < 0.3:
            s.negatives(int(rng.integers(1, 3)), tile_w)
    elif kind == "flat_rows":
        lay_flat_rows(s, rng.uniform(0.05, 0.1) * side, rng.uniform(1.15, 1.57))
        warp = 0.12
    elif kind == "scatter":
        lay_scatter(s, rng.uniform(0.05, 0.11) * side, rng.uniform(1.1, 1.57))
    elif kind == "distance":
        tile_w = rng.uniform(9, 22) * DISTANCE_ZOOM  # 9-22 px at 640 px: 2-5 % of the width
        s.negatives(int(rng.integers(0, 4)), tile_w)
        if rng.random() < 0.6:
            lay_hand_row(
                s, tile_w, rng.uniform(0.05, 0.6) * s.w, rng.uniform(0.3, 0.7) * s.h, rng.uniform(0.45, 0.95)
            )
        else:
            lay_flat_rows(s, tile_w, rng.uniform(1.15, 1.57))
    elif kind == "closeup":
        tile_w = rng.uniform(0.18, 0.32) * side
        x, y = rng.uniform(-0.05, 0.15) * s.w, rng.uniform(0.05, 0.35) * s.h
        view = "standing" if rng.random() < 0.4 else "lying"
        for _ in range(int(rng.integers(2, 6))):
            box = s.tile(s.random_code(0.15), tile_w, x, y, view, rng.uniform(0.6, 1.5), rng.normal(0, 6))
            x += ((box[2] - box[0]) if box else tile_w) * rng.uniform(1.0, 1.2)
            if x > s.w:
                break
    elif kind == "lone":
        lay_lone(s, int(rng.choice([1, 1, 1, 2, 2, 3])), side)
    elif kind == "cluster":
        lay_cluster(s, rng.uniform(0.05, 0.1) * max(size), rng.uniform(0.15, 0.6))
        warp = 0.04
    elif kind == "standing":
        lay_standing(s, rng.uniform(0.06, 0.11) * max(size), rng.uniform(0.15, 0.6))
        warp = 0.04
    else:  # clutter
        size_px = rng.uniform(0.05, 0.12) * side
        s.negatives(int(rng.integers(2, 6)), size_px)
        if rng.random() < 0.5:
            lay_flat_rows(s, size_px, rng.uniform(1.15, 1.57))
    img, boxes = finish(np.clip(s.canvas, 0, 255), s.boxes, rng, warp)
    return img, boxes, artwork


def write_scenes(
    out: Path,
    count: int,
    seed: int,
    split: str,
    kinds: tuple[str, ...] = KINDS,
    bonus_printed: float = 0.0,
    blank_white: float = 0.0,
    restyle: float = 0.0,
) -> int:
    """Render `count` scenes into out/{images,labels} with data.yaml and kinds.json; returns the box count.
    Scene k uses the generator seeded [seed, k], so a stopped run restarts where it was (existing scenes
    are kept)."""
    bank = face_bank(split)
    print(
        f"artworks ({split}): {', '.join(f'{a} ({len(c)} codes)' for a, c in sorted(bank.items()))}",
        flush=True,
    )
    (out / "images").mkdir(parents=True, exist_ok=True)
    (out / "labels").mkdir(parents=True, exist_ok=True)
    manifest_path = out / "kinds.json"
    manifest: dict[str, dict[str, str]] = (
        json.loads(manifest_path.read_text()) if manifest_path.exists() else {}
    )
    mean_weight = float(np.mean(KIND_WEIGHTS))
    weights = np.array([KIND_WEIGHTS[KINDS.index(k)] if k in KINDS else mean_weight for k in kinds])
    weights /= weights.sum()
    total = 0
    for k in range(count):
        name = f"world_{split}_{seed}_{k:05d}"
        if name in manifest and (out / "labels" / f"{name}.txt").exists():
            continue
        rng = np.random.default_rng([seed, k])
        kind = kinds[int(rng.choice(len(kinds), p=weights))]
        size = SIZES[int(rng.integers(len(SIZES)))]
        img, boxes, artwork = render_scene(bank, rng, kind, size, bonus_printed, blank_white, restyle=restyle)
        write_sample(out, name, img, boxes, int(rng.integers(35, 95)))
        manifest[name] = {"kind": kind, "artwork": artwork}
        total += len(boxes)
        if k % 200 == 0:
            manifest_path.write_text(json.dumps(manifest, indent=0, sort_keys=True))
            print(f"scene {k}/{count}", flush=True)
    manifest_path.write_text(json.dumps(manifest, indent=0, sort_keys=True))
    write_data_yaml(out, f"synthetic world scenes ({split} artworks); class index = LABELS order")
    return total


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", default="runs/world_train", help="output folder (images/, labels/, kinds.json)")
    ap.add_argument("--count", type=int, default=3000)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--split", choices=("train", "heldout"), default="train", help="which artworks to draw")
    ap.add_argument(
        "--kinds", nargs="+", choices=KINDS + ON_REQUEST, default=list(KINDS), help="scene kinds to draw"
    )
    ap.add_argument(
        "--bonus-printed",
        type=float,
        default=0.0,
        help=f"share of flowers and seasons drawn with {PRINTED_BONUS}'s faces in any set's scene (0-1)",
    )
    ap.add_argument(
        "--blank-white",
        type=float,
        default=0.0,
        help="share of scenes whose set has blank white dragons (as riichi sets; 0-1)",
    )
    ap.add_argument(
        "--restyle",
        type=float,
        default=0.0,
        help="share of scenes whose faces are drawn in a made-up set's hand (datasets.restyle; 0-1)",
    )
    args = ap.parse_args(argv)
    if args.count < 1:
        print("error: --count must be at least 1", file=sys.stderr)
        return 2
    shares = (
        ("--bonus-printed", args.bonus_printed),
        ("--blank-white", args.blank_white),
        ("--restyle", args.restyle),
    )
    for name, share in shares:
        if not 0.0 <= share <= 1.0:
            print(f"error: {name} must be between 0 and 1", file=sys.stderr)
            return 2
    total = write_scenes(
        Path(args.out), args.count, args.seed, args.split, tuple(args.kinds), args.bonus_printed,
        args.blank_white, args.restyle,
    )  # fmt: skip
    print(f"wrote {args.count} scenes, {total} new boxes to {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
