"""Real tiles alone: every labelled tile of the sample photos (samples/hand1-5.jpg, the valid split, CC BY
4.0) cut out at its true 4:3 shape and shown large on the samples' own green felt, as a player photographs a
single flower. Counts the photos read as exactly that one tile, at two sizes (a fifth and two fifths of the
photo's height). The samples belong to the valid split, which chooses settings: this is not a held-out set.

    .venv/bin/python -m datasets.lone_tiles [--models DIR] [--json out.json]
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np
from PIL import Image

from datasets.evaluate import load_recognizer
from datasets.evaluate_world import write_report
from datasets.settings_flags import add_set_flag
from datasets.yolo import CLASS_TO_LABEL, LABELS, parse_label_line
from recognizer.imageio import LoadedImage

SAMPLES = Path(__file__).resolve().parent.parent / "samples"
PHOTO = (1600, 1200)
"""The single-tile photo's width and height."""
PHONE = (853, 640)
"""The sample photos' size at the phone's 4:3 (the exporter squeezed them to 640 x 640)."""
HANDS = ("hand1", "hand2", "hand3", "hand4", "hand5")
SHARES = (0.2, 0.4)
"""Tile heights measured, as shares of the photo's height."""


def phone_shape(name: str) -> np.ndarray:
    """samples/<name>.jpg back at the phone's 4:3."""
    with Image.open(SAMPLES / f"{name}.jpg") as img:
        return np.asarray(img.convert("RGB").resize(PHONE, Image.Resampling.LANCZOS))


def sample_tiles(name: str) -> list[tuple[str, np.ndarray]]:
    """(code, crop) for every labelled tile of the sample, with 7.5 % of its size around it."""
    rgb = phone_shape(name)
    out = []
    for line in (SAMPLES / f"{name}.txt").read_text().splitlines():
        for cls, (cx, cy, w, h) in parse_label_line(line):
            x0, x1 = (cx - w * 0.575) * PHONE[0], (cx + w * 0.575) * PHONE[0]
            y0, y1 = (cy - h * 0.575) * PHONE[1], (cy + h * 0.575) * PHONE[1]
            crop = rgb[max(int(y0), 0) : int(y1), max(int(x0), 0) : int(x1)]
            out.append((LABELS[int(CLASS_TO_LABEL[cls])], crop))
    return out


def lone_photos(name: str, height_share: float) -> list[tuple[str, np.ndarray]]:
    """(code, photo) for every labelled tile of the sample: the tile `height_share` of the photo's height,
    in the middle of the felt of samples/hand1.jpg."""
    felt = Image.fromarray(phone_shape("hand1")[330:420]).resize(PHOTO, Image.Resampling.BILINEAR)
    out = []
    for code, tile in sample_tiles(name):
        th = int(PHOTO[1] * height_share)
        tw = int(tile.shape[1] * th / tile.shape[0])
        photo = np.array(felt)
        top, left = (PHOTO[1] - th) // 2, (PHOTO[0] - tw) // 2
        photo[top : top + th, left : left + tw] = np.asarray(Image.fromarray(tile).resize((tw, th)))
        out.append((code, photo))
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--models", type=Path, help="model folder (default: the packaged models)")
    ap.add_argument("--threads", type=int, default=None)
    ap.add_argument("--json", type=Path, help="write the numbers to this file")
    add_set_flag(ap)
    args = ap.parse_args(argv)
    recognizer = load_recognizer("lone_tiles", args.models, args.threads, sets=args.set)
    if recognizer is None:
        return 2
    out: dict[str, dict[str, object]] = {}
    for share in SHARES:
        right, wrong = 0, []
        photos = [(name, code, photo) for name in HANDS for code, photo in lone_photos(name, share)]
        for name, code, photo in photos:
            found = recognizer.recognize(LoadedImage(photo, *PHOTO)).codes
            if found == [code]:
                right += 1
            else:
                wrong.append(f"{name} {code} read as {' '.join(found) or 'nothing'}")
        out[f"tile {share:.0%} of the height"] = {"photos": len(photos), "right": right, "wrong": wrong}
        print(f"tile {share:.0%} of the photo's height: {right} of {len(photos)} read as that one tile")
        for line in wrong:
            print(f"  {line}")
    write_report(args.json, SAMPLES, args.models, out)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
