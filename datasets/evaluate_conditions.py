"""The recognizer on labelled photos under the conditions of a phone at the table: the hand small in a
12 MP frame (a fifth to all of its width, on plain table), the photo turned, tilted, dim, warm, blurred
or heavily compressed. Tile precision, recall and F1 per condition, beside the photos as stored.

The photos are the valid split's ordinary photos (audited labels; no row strips, none labelled all one
code), or any YOLO folder (`--folder`, e.g. world scenes of held-out artworks). Conditions built from the
valid split measure the runtime on the dataset it was tuned on; a held-out folder gives the honest figure.

    .venv/bin/python -m datasets.evaluate_conditions --limit 120 far0.3 far0.4 turned180
    .venv/bin/python -m datasets.evaluate_conditions --folder runs/world_heldout8 --limit 200 far0.3
"""

from __future__ import annotations

import argparse
import functools
import json
import sys
from collections.abc import Callable
from pathlib import Path

import cv2
import numpy as np

from datasets.audit import AuditMismatch, audited, load_fixes
from datasets.evaluate import Variant, evaluate, jpeg_bytes, load_recognizer
from datasets.row_strip import is_row_strip
from datasets.settings_flags import add_set_flag
from datasets.yolo import data_dir, placeholder_labelled, read_folder, read_split

FRAME = (4032, 3024)
"""The 12 MP landscape frame of the `far` conditions."""


@functools.cache
def table() -> np.ndarray:
    """The brown table of the `far` conditions, FRAME sized (the same for every photo: made once)."""
    width, height = FRAME
    noise = np.random.default_rng(1).normal(0, 6, (height, width, 3))
    out = np.clip(np.array([120, 95, 70]) + noise, 0, 255).astype(np.uint8)
    out.flags.writeable = False
    return out


def far(fraction: float) -> Variant:
    """The photo shrunk or grown to `fraction` of a 12 MP frame's width, in its middle, on brown table."""

    def variant(rgb: np.ndarray, boxes: np.ndarray) -> tuple[bytes, np.ndarray]:
        width, height = FRAME
        canvas = table().copy()
        h, w = rgb.shape[:2]
        nw = round(width * fraction)
        scale = nw / w
        nh = min(round(h * scale), height)
        interp = cv2.INTER_AREA if scale < 1 else cv2.INTER_CUBIC
        x, y = (width - nw) // 2, (height - nh) // 2
        canvas[y : y + nh, x : x + nw] = cv2.resize(rgb, (nw, nh), interpolation=interp)
        return jpeg_bytes(canvas), boxes * scale + np.array([x, y, x, y], np.float32)

    return variant


def turned(quarters: int) -> Variant:
    """The photo's pixels turned counter-clockwise by `quarters` quarter turns (no EXIF to undo it)."""

    def variant(rgb: np.ndarray, boxes: np.ndarray) -> tuple[bytes, np.ndarray]:
        h, w = rgb.shape[:2]
        x0, y0, x1, y1 = boxes.T
        moved = {
            1: (y0, w - x1, y1, w - x0),
            2: (w - x1, h - y1, w - x0, h - y0),
            3: (h - y1, x0, h - y0, x1),
        }[quarters]
        return jpeg_bytes(np.ascontiguousarray(np.rot90(rgb, k=quarters))), np.stack(moved, 1).astype(
            np.float32
        )

    return variant


def tilted(degrees: float) -> Variant:
    """The photo turned by `degrees` on a canvas grown to hold it, filled with its median colour. A tile's
    truth box becomes the mean of its own box and the upright box of its turned outline (a tight box of a
    tilted tile lies between the two), so large tilts are scored loosely."""

    def variant(rgb: np.ndarray, boxes: np.ndarray) -> tuple[bytes, np.ndarray]:
        h, w = rgb.shape[:2]
        turn = cv2.getRotationMatrix2D((w / 2, h / 2), degrees, 1.0)
        cos, sin = abs(turn[0, 0]), abs(turn[0, 1])
        nw, nh = int(h * sin + w * cos), int(h * cos + w * sin)
        turn[0, 2] += nw / 2 - w / 2
        turn[1, 2] += nh / 2 - h / 2
        fill = tuple(int(v) for v in np.median(rgb.reshape(-1, 3), axis=0))
        out = cv2.warpAffine(rgb, turn, (nw, nh), borderMode=cv2.BORDER_CONSTANT, borderValue=fill)
        bw, bh = boxes[:, 2] - boxes[:, 0], boxes[:, 3] - boxes[:, 1]
        centre = np.c_[(boxes[:, 0] + boxes[:, 2]) / 2, (boxes[:, 1] + boxes[:, 3]) / 2, np.ones(len(boxes))]
        cx, cy = (centre @ turn.T).T
        ew, eh = (bw + bw * cos + bh * sin) / 2, (bh + bw * sin + bh * cos) / 2
        return jpeg_bytes(out), np.stack([cx - ew / 2, cy - eh / 2, cx + ew / 2, cy + eh / 2], 1).astype(
            np.float32
        )

    return variant


def lit(change: Callable[[np.ndarray], np.ndarray], quality: int = 92) -> Variant:
    """The photo's pixels changed by `change` (float RGB 0-255 in, any range out), stored as JPEG."""

    def variant(rgb: np.ndarray, boxes: np.ndarray) -> tuple[bytes, np.ndarray]:
        out = np.clip(change(rgb.astype(np.float32)), 0, 255).astype(np.uint8)
        return jpeg_bytes(out, quality=quality), boxes

    return variant


def dim(x: np.ndarray) -> np.ndarray:
    """Low light: darker midtones, sensor noise."""
    return (x / 255) ** 1.6 * 255 * 0.45 + np.random.default_rng(0).normal(0, 6, x.shape)


CONDITIONS: dict[str, Variant | None] = {
    "stored": None,
    **{f"far{f}": far(f) for f in (0.2, 0.25, 0.3, 0.35, 0.4, 0.5, 0.7, 1.0)},
    "turned90": turned(1),
    "turned180": turned(2),
    **{f"tilted{d}": tilted(d) for d in (10, 20, 30)},
    "dim": lit(dim),
    "warm": lit(lambda x: x * np.array([1.12, 1.0, 0.72])),
    "blurred": lit(lambda x: cv2.GaussianBlur(x, (0, 0), 2.0)),
    "jpeg25": lit(lambda x: x, quality=25),
}
"""Condition name -> how a photo is changed (None: as stored)."""


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("conditions", nargs="*", default=["stored"], help=f"any of: {', '.join(CONDITIONS)}")
    ap.add_argument("--folder", type=Path, help="a YOLO folder instead of the valid split")
    ap.add_argument("--data", help="dataset folder of the valid split (default: the shared one)")
    ap.add_argument("--limit", type=int, default=None, help="only the first N photos")
    ap.add_argument("--models", type=Path, help="model folder (default: the packaged models)")
    ap.add_argument("--threads", type=int, default=None)
    ap.add_argument("--json", type=Path, help="write the numbers to this file")
    add_set_flag(ap)
    args = ap.parse_args(argv)
    unknown = [c for c in args.conditions if c not in CONDITIONS]
    if unknown:
        print(f"evaluate_conditions: unknown condition {', '.join(unknown)}", file=sys.stderr)
        return 2
    if args.folder is not None:
        if not (args.folder / "images").is_dir():
            print(f"evaluate_conditions: no images/ in {args.folder}", file=sys.stderr)
            return 2
        samples = read_folder(args.folder)
    else:
        root = data_dir(args.data)
        if not (root / "valid" / "images").is_dir():
            print(f"skipping: valid split not found at {root}", file=sys.stderr)
            return 0
        try:
            samples, _ = audited(read_split(root, "valid"), load_fixes())
        except AuditMismatch as exc:
            print(f"evaluate_conditions: {exc}", file=sys.stderr)
            return 2
        samples = [s for s in samples if not placeholder_labelled(s) and not is_row_strip(s.boxes)]
    samples = samples[: args.limit]
    recognizer = load_recognizer("evaluate_conditions", args.models, args.threads, sets=args.set)
    if recognizer is None:
        return 2
    out = {}
    for name in args.conditions:
        tally = evaluate(recognizer, samples, CONDITIONS[name])
        s = tally.summary()
        out[name] = s | {
            "seconds_per_photo": tally.seconds / max(len(samples), 1),
            "per_photo": tally.per_photo,
        }
        print(
            f"{name:10s} {len(samples)} photos: tile P/R/F1 {s['tile_precision']:.3f}/{s['tile_recall']:.3f}/"
            f"{s['tile_f1']:.3f}, boxes P/R {s['detection_precision']:.3f}/{s['detection_recall']:.3f}, "
            f"every tile right {s['photos_all_right']:.3f}, {out[name]['seconds_per_photo']:.3f} s a photo",
            flush=True,
        )
    if args.json:
        args.json.write_text(json.dumps(out, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
