"""What one photo of a whole set buys, end to end: for each artwork of a world-scene folder, a photo is
rendered of one tile of every kind laid out in five rows in the order of the tile codes (as `mahjong-nts
learn-set PHOTO --tiles "123456789m 123456789p ..."` asks a player to lay them out), read by the
recognizer, its tiles named in reading order and learnt into a set profile, and then the artwork's scenes
are read with and without it (the classifier alone on the truth boxes, and with --full the whole pipeline).

A layout photo whose tiles are not all found teaches nothing (the command refuses it: 42 codes for fewer
tiles); the player takes another, up to --tries photos, and the report says how many it took.

    .venv/bin/python -m datasets.evaluate_layout runs/world_heldout8 --split heldout [--full] [--json out]
    .venv/bin/python -m datasets.evaluate_layout runs/world_tune8 --split train
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from functools import partial
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from datasets.evaluate import load_recognizer
from datasets.evaluate_profile import add_reading_options, by_artwork, measure
from datasets.evaluate_world import scene_kinds, write_report
from datasets.tile_bodies import TileStyle
from datasets.world_scenes import Bank, Box, Scene, face_bank, finish
from datasets.yolo import Sample
from recognizer.imageio import LoadedImage, load_image
from recognizer.pipeline import Recognizer
from recognizer.set_profile import SetProfile
from scoring.tiles import TILE_CODES

ROWS = (TILE_CODES[:9], TILE_CODES[9:18], TILE_CODES[18:27], TILE_CODES[27:34], TILE_CODES[34:])
"""The layout: characters, circles, bamboos, winds and dragons, flowers and seasons."""


def render_layout(
    bank: Bank,
    artwork: str,
    seed: int,
    size: tuple[int, int] = (1600, 1200),
    style: TileStyle | None = None,
    rows: tuple[tuple[str, ...], ...] = ROWS,
    blank_white: bool = False,
) -> tuple[np.ndarray, list[Box]]:
    """RGB photo of one tile of every kind of `artwork`, lying face up in `rows`, seen from above, and the
    tiles' boxes (label, x0, y0, x1, y1) in the order laid; `style`: the set's tile body (default: drawn),
    `blank_white`: its white dragon is a blank face."""
    rng = np.random.default_rng(seed)
    s = Scene(size, rng, bank[artwork], bank, blank_white=blank_white)
    if style is not None:
        s.style = style
    tile_w = rng.uniform(0.055, 0.07) * size[0]
    elevation = rng.uniform(1.15, 1.57)
    y = rng.uniform(0.04, 0.08) * size[1]
    for row in rows:
        x, height = rng.uniform(0.03, 0.1) * size[0], tile_w * 1.4
        for code in row:
            box = s.tile(code, tile_w, x, y, "lying", elevation, rng.normal(0, 2))
            if box is not None:
                height = max(height, box[3] - box[1])
            x += ((box[2] - box[0]) if box else tile_w) + rng.uniform(0.03, 0.12) * tile_w
        y += height + rng.uniform(0.15, 0.35) * tile_w
    return finish(np.clip(s.canvas, 0, 255), s.boxes, rng, 0.03)


def as_photo(rgb: np.ndarray) -> LoadedImage:
    """The rendered photo as the command would load it (PNG bytes through load_image)."""
    ok, png = cv2.imencode(".png", cv2.cvtColor(rgb, cv2.COLOR_RGB2BGR))
    assert ok
    return load_image(png.tobytes())


def learn_layout(
    recognizer: Recognizer, photo: LoadedImage, codes: Sequence[str] = TILE_CODES
) -> tuple[SetProfile | None, dict[str, Any]]:
    """The profile learnt from a layout photo of `codes` as `learn-set` learns it (None when not every tile
    is found), and how the photo read: tiles found, and read right without a profile."""
    found = recognizer.recognize(photo)
    info: dict[str, Any] = {"found": len(found)}
    if len(found) != len(codes):
        return None, info
    info["layout_read_right"] = sum(a == b for a, b in zip(found.codes, codes, strict=True))
    profile = recognizer.learn(recognizer.new_profile("layout"), photo, found.xyxy, list(codes))
    return profile, info


def taught_by_layout(
    recognizer: Recognizer,
    render: Callable[[int], tuple[np.ndarray, list[Box]]],
    seed: int,
    codes: Sequence[str],
    samples: list[Sample],
    tries: int,
    full: bool,
) -> dict[str, Any]:
    """A player teaching a set by its layout: photos `render(seed)`, `render(seed + 100)`, ... taken until
    one is read whole (at most `tries`), the profile learnt from it, and `samples` read without and with
    it (`measure`)."""
    info: dict[str, Any] = {}
    for attempt in range(tries):
        profile, read = learn_layout(recognizer, as_photo(render(seed + 100 * attempt)[0]), codes)
        info = {"photos_taken": attempt + 1, **read}
        if profile is not None:
            info.update(measure(recognizer, profile, samples, full))
            break
    return info


def print_means(out: dict[str, dict[str, Any]], what: str) -> None:
    """The mean of each figure over the sets of `out` that were learnt (`what` names them)."""
    for key in ("named_without", "named_with", "f1_without", "f1_with"):
        values = [v[key] for v in out.values() if key in v]
        if values:
            print(f"mean over {len(values)} {what} learnt: {key} {np.mean(values):.4f}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("folder", type=Path, help="a datasets.world_scenes folder (with kinds.json)")
    ap.add_argument("--split", choices=("train", "heldout"), required=True, help="the folder's face split")
    ap.add_argument("--seed", type=int, default=7, help="seed of the layout photos")
    ap.add_argument("--tries", type=int, default=3, help="layout photos taken until one is read whole")
    add_reading_options(ap)
    args = ap.parse_args(argv)
    kinds = scene_kinds(args.folder, "evaluate_layout")
    recognizer = load_recognizer("evaluate_layout", args.models, args.threads, sets=args.set)
    if kinds is None or recognizer is None:
        return 2
    bank = face_bank(args.split)
    out: dict[str, Any] = {}
    for k, (artwork, samples) in enumerate(sorted(by_artwork(args.folder, kinds).items())):
        if artwork not in bank:
            print(f"{artwork}: not in the {args.split} faces, skipped", file=sys.stderr)
            continue
        render = partial(render_layout, bank, artwork)
        info = taught_by_layout(
            recognizer, render, args.seed + k, TILE_CODES, samples[: args.test], args.tries, args.full
        )
        out[artwork] = info
        print(f"{artwork:20s} " + ", ".join(f"{key} {v}" for key, v in info.items()), flush=True)
    print_means(out, "artworks")
    write_report(args.json, args.folder, args.models, out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
