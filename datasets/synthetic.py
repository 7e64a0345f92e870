"""Synthetic mahjong scenes: tile faces on tile bodies laid in rows on table textures, with perspective,
lighting, blur and JPEG noise; written as YOLO folders (class = LABELS index).

Faces: the FluffyStuff CC0 riichi SVGs (34 faces), plus, when Debian's kdegames-mahjongg-data-kf5 is
installed, the KMahjongg tilesets (all 42 faces with flowers and seasons; `datasets/kmahjongg_art.py`).

Example: .venv/bin/python -m datasets.synthetic --out runs/synthetic2 --count 400 --seed 0
Needs `cairosvg` (train extra) to render the SVGs; renders once and keeps the faces in memory.
"""

from __future__ import annotations

import argparse
import io
import sys
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from datasets.augment import BACK_COLOURS
from datasets.yolo import BACK, LABELS, PROJECT_ROOT, write_data_yaml, write_sample

ARTWORK_DIR = PROJECT_ROOT.parent / "shared" / "artwork" / "fluffystuff-riichi-tiles"
_SUITS = {"Man": "m", "Pin": "p", "Sou": "s"}
_HONOURS = {"Ton": "1z", "Nan": "2z", "Shaa": "3z", "Pei": "4z", "Haku": "5z", "Hatsu": "6z", "Chun": "7z"}
TABLE_COLOURS = (
    (40, 110, 60),
    (25, 80, 50),
    (30, 60, 110),
    (110, 75, 45),
    (150, 110, 70),
    (90, 90, 90),
    (60, 30, 30),
)


def svg_code(stem: str) -> str | None:
    """FluffyStuff file stem -> tile code ('Man5-Dora' -> '5m'); None for Back/Blank/Front."""
    base = stem.split("-")[0]
    if base in _HONOURS:
        return _HONOURS[base]
    for prefix, suit in _SUITS.items():
        if base.startswith(prefix) and base[len(prefix) :].isdigit():
            return f"{base[len(prefix) :]}{suit}"
    return None


@dataclass
class FaceArt:
    """Rendered faces: code -> list of RGBA arrays (300x400 design scaled), for each variant."""

    faces: dict[str, list[np.ndarray]]
    uniform: bool = False  # pick a face's artwork uniformly; else the first (Regular) 80 % of the time


def render_faces(artwork: Path = ARTWORK_DIR, width: int = 120, kmahjongg: bool = True) -> FaceArt:
    """Render every face SVG (Regular and Black variants) to RGBA arrays with cairosvg, and add the
    KMahjongg tilesets' faces when asked and installed."""
    try:
        import cairosvg  # type: ignore[import-untyped]
        from PIL import Image
    except ImportError:
        raise SystemExit("synthetic scenes need cairosvg: .venv/bin/pip install cairosvg") from None
    if not artwork.is_dir():
        raise SystemExit(f"artwork not found: {artwork}")
    faces: dict[str, list[np.ndarray]] = {}
    for variant in ("Regular", "Black"):
        for svg in sorted((artwork / variant).glob("*.svg")):
            code = svg_code(svg.stem)
            if code is None:
                continue
            png = cairosvg.svg2png(url=str(svg), output_width=width)
            rgba = np.array(Image.open(io.BytesIO(png)).convert("RGBA"))
            faces.setdefault(code, []).append(rgba)
    added = False
    if kmahjongg:
        from datasets.kmahjongg_art import render_kmahjongg_faces

        for code, more in render_kmahjongg_faces().items():
            faces.setdefault(code, []).extend(more)
            added = True
    # several artworks: each used as often; FluffyStuff alone keeps the mix runs/synthetic was made with
    return FaceArt(faces, uniform=added)


def render_tile(
    art: FaceArt, code: str, w: int, rng: np.random.Generator, back_colour: np.ndarray
) -> np.ndarray:
    """One upright tile seen from above, w wide: RGB with a coloured backing strip at the bottom."""
    h_face = int(w * rng.uniform(1.25, 1.4))
    side = int(h_face * rng.uniform(0.0, 0.25))
    tile = np.zeros((h_face + side, w, 3), dtype=np.float32)
    tile[h_face:] = back_colour * rng.uniform(0.7, 1.0)
    if code == "back":
        tile[:h_face] = back_colour
    else:
        ivory = np.array([245, 240, 225], dtype=np.float32) * rng.uniform(0.8, 1.05)
        tile[:h_face] = ivory
        if rng.random() < 0.3:  # thin ivory layer between face and backing
            tile[h_face : h_face + max(side // 3, 1)] = ivory * 0.9
        variants = art.faces[code]
        pick = art.uniform or rng.random() < 0.2
        face = variants[int(rng.integers(len(variants)))] if pick else variants[0]
        m = rng.uniform(0.05, 0.12)
        fw, fh = max(int(w * (1 - 2 * m)), 2), max(int(h_face * (1 - 2 * m)), 2)
        f = cv2.resize(face, (fw, fh), interpolation=cv2.INTER_AREA).astype(np.float32)
        alpha = f[:, :, 3:] / 255.0
        y0, x0 = int(h_face * m), int(w * m)
        region = tile[y0 : y0 + fh, x0 : x0 + fw]
        tile[y0 : y0 + fh, x0 : x0 + fw] = region * (1 - alpha) + f[:, :, :3] * alpha
    tile *= 1 + np.linspace(-0.08, 0.08, tile.shape[0])[:, None, None] * rng.choice([-1, 1])
    return np.clip(tile, 0, 255)


def table(width: int, height: int, rng: np.random.Generator) -> np.ndarray:
    """A felt or wood table texture: base colour, blurred noise, streaks."""
    base = np.array(TABLE_COLOURS[int(rng.integers(len(TABLE_COLOURS)))], dtype=np.float32)
    base = base * rng.uniform(0.7, 1.3)
    noise = cv2.GaussianBlur(rng.normal(0, 1, (height, width)).astype(np.float32), (0, 0), rng.uniform(1, 6))
    img = base[None, None, :] * (1 + 0.15 * noise[:, :, None] / max(float(noise.std()), 1e-6))
    if rng.random() < 0.4:  # wood grain
        grain = np.sin(np.linspace(0, rng.uniform(20, 80), height))[:, None, None] * 12
        img += grain
    img += rng.normal(0, 4, img.shape)
    return img


KONG_SHARE = 0.12
"""With `kongs`: the chance that a row's next tile starts a concealed kong."""


def scene(
    art: FaceArt, rng: np.random.Generator, size: tuple[int, int] = (640, 480), kongs: bool = False
) -> tuple[np.ndarray, list]:
    """One scene: 1-4 rows of tiles; returns RGB uint8 and [(label index, x0, y0, x1, y1)]. Face-down
    tiles are scattered singly, or with `kongs` only inside concealed kongs laid as NTS lays them: X, two
    face-down tiles, X (the default keeps the scenes the shipped models were trained on)."""
    width, height = size
    canvas = table(width, height, rng)
    boxes: list[tuple[int, float, float, float, float]] = []
    codes = list(art.faces)
    back_colour = np.array(BACK_COLOURS[int(rng.integers(len(BACK_COLOURS) - 1))], dtype=np.float32)
    tile_w = int(rng.uniform(30, 70))
    rows = int(rng.integers(1, 5))
    y = rng.uniform(10, height * 0.45)
    face_down = rng.uniform(0, 0.3) if rng.random() < 0.5 else 0.0
    if kongs:
        face_down = 0.0
    for _ in range(rows):
        n = int(rng.integers(4, 15))
        x = rng.uniform(5, 60)
        row_h = 0
        pending: list[str] = []  # the rest of a concealed kong being laid
        for _ in range(n):
            if pending:
                code = pending.pop(0)
            elif kongs and rng.random() < KONG_SHARE:
                code = codes[int(rng.integers(len(codes)))]
                pending = ["back", "back", code]
            else:
                code = "back" if rng.random() < face_down else codes[int(rng.integers(len(codes)))]
            tile = render_tile(art, code, tile_w, rng, back_colour)
            if rng.random() < 0.1:  # a tile turned sideways (claimed tile of a meld)
                tile = np.rot90(tile, int(rng.choice([1, 3]))).copy()
            elif rng.random() < 0.5:
                tile = np.rot90(tile, 2).copy()  # upside-down tiles are as common as upright ones
            th, tw = tile.shape[:2]
            if x + tw >= width - 2 or y + th >= height - 2:
                break
            ty = int(y + (row_h - th if th < row_h else 0))
            canvas[ty : ty + th, int(x) : int(x) + tw] = tile
            label = BACK if code == "back" else LABELS.index(code)
            boxes.append((label, x, ty, x + tw, ty + th))
            row_h = max(row_h, th)
            step = rng.uniform(0, 4)
            gap = rng.uniform(10, 30) if rng.random() < 0.15 else 0  # sets lie a little apart ...
            x += tw + step + (0 if pending else gap)  # ... a kong's tiles touch
        y += row_h + rng.uniform(8, 60)
        if y >= height - 40:
            break
    # perspective: move the corners a little, then map boxes through the homography
    jitter = rng.uniform(-0.12, 0.12, (4, 2)) * np.array([width, height])
    src = np.array([[0, 0], [width, 0], [width, height], [0, height]], dtype=np.float32)
    dst = (src + jitter).astype(np.float32)
    hmat = cv2.getPerspectiveTransform(src, dst)
    img = cv2.warpPerspective(
        np.clip(canvas, 0, 255).astype(np.uint8), hmat, (width, height), borderMode=cv2.BORDER_REFLECT101
    )
    out = []
    for label, x0, y0, x1, y1 in boxes:
        pts = cv2.perspectiveTransform(
            np.array([[[x0, y0], [x1, y0], [x1, y1], [x0, y1]]], dtype=np.float32), hmat
        )[0]
        bx0, by0 = pts.min(0)
        bx1, by1 = pts.max(0)
        bx0, by0, bx1, by1 = max(bx0, 0), max(by0, 0), min(bx1, width), min(by1, height)
        if bx1 - bx0 > 6 and by1 - by0 > 6:
            out.append((label, float(bx0), float(by0), float(bx1), float(by1)))
    # lighting, blur, noise, JPEG-like softness
    gx = np.linspace(-1, 1, width, dtype=np.float32)[None, :]
    gy = np.linspace(-1, 1, height, dtype=np.float32)[:, None]
    light = 1 + rng.uniform(-0.25, 0.25) * gx + rng.uniform(-0.25, 0.25) * gy
    img = np.clip(img.astype(np.float32) * light[:, :, None] * rng.uniform(0.75, 1.15), 0, 255).astype(
        np.uint8
    )
    if rng.random() < 0.5:
        img = cv2.GaussianBlur(img, (0, 0), rng.uniform(0.4, 1.3))
    img = np.clip(img + rng.normal(0, rng.uniform(1, 6), img.shape), 0, 255).astype(np.uint8)
    return img, out


def write_yolo(
    out: Path, count: int, seed: int, size: tuple[int, int], kmahjongg: bool = True, kongs: bool = False
) -> int:
    """Render `count` scenes into out/{images,labels} plus data.yaml; returns the number of boxes."""
    art = render_faces(kmahjongg=kmahjongg)
    print(f"faces: {sum(len(v) for v in art.faces.values())} for {len(art.faces)} codes", flush=True)
    (out / "images").mkdir(parents=True, exist_ok=True)
    (out / "labels").mkdir(parents=True, exist_ok=True)
    total = 0
    for k in range(count):
        rng = np.random.default_rng([seed, k])
        img, boxes = scene(art, rng, size, kongs)
        name = f"synth_{seed}_{k:05d}"
        quality = int(rng.integers(60, 95))
        write_sample(out, name, img, boxes, quality)
        total += len(boxes)
        if k % 100 == 0:
            print(f"scene {k}/{count}", flush=True)
    write_data_yaml(out, "synthetic scenes; class index = project LABELS order")
    return total


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", default="runs/synthetic", help="output folder (images/, labels/, data.yaml)")
    ap.add_argument("--count", type=int, default=400)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--width", type=int, default=640)
    ap.add_argument("--height", type=int, default=480)
    ap.add_argument(
        "--kmahjongg",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="add the KMahjongg tilesets' faces when installed (default: yes)",
    )
    ap.add_argument(
        "--kongs",
        action="store_true",
        help="face-down tiles only in concealed kongs (X, two face-down, X), as NTS lays them",
    )
    args = ap.parse_args(argv)
    if args.count < 1:
        print("error: --count must be at least 1", file=sys.stderr)
        return 2
    total = write_yolo(
        Path(args.out), args.count, args.seed, (args.width, args.height), args.kmahjongg, args.kongs
    )
    print(f"wrote {args.count} scenes, {total} boxes to {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
