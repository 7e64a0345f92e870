"""A club's own set, end to end: for each artwork of a face split, one set is made (the artwork and one
tile body, drawn once: face colour, back colour, thickness, and with --blank-white a blank white dragon),
photographed laid out one tile of every kind in five rows (with --back a face-down tile after the
seasons), and in --scenes photos of play with those same tiles (hand rows, rows, scattered, at a
distance, close-ups, standing, clutter). The layout is read by the recognizer, named in order and learnt
into a set profile; the photos of play are read without and with it: named right on the truth boxes,
and with --full the whole pipeline's tile F1.

Unlike `datasets.evaluate_layout` (whose scenes each draw their own tile body), every photo here shows
the one set a club owns. The photos are written once under --out and reused.

    .venv/bin/python -m datasets.evaluate_club --split heldout [--back] [--blank-white 1] [--full]
    .venv/bin/python -m datasets.evaluate_club --split train
"""

from __future__ import annotations

import argparse
import sys
from functools import partial
from pathlib import Path
from typing import Any

import numpy as np

from datasets.evaluate import load_recognizer
from datasets.evaluate_layout import ROWS, print_means, render_layout, taught_by_layout
from datasets.evaluate_profile import add_reading_options
from datasets.evaluate_world import write_report
from datasets.tile_bodies import TileStyle, has_plain_back, random_style
from datasets.world_scenes import FULL_SET, KIND_WEIGHTS, KINDS, SIZES, Bank, face_bank, render_scene
from datasets.yolo import Sample, read_folder, write_data_yaml, write_sample
from scoring.tiles import BACK


def club_scenes(
    bank: Bank, artwork: str, style: TileStyle, blank: bool, folder: Path, count: int, seed: int
) -> list[Sample]:
    """`count` photos of play with one set, written to `folder` when not there yet (seeded per photo)."""
    (folder / "images").mkdir(parents=True, exist_ok=True)
    (folder / "labels").mkdir(parents=True, exist_ok=True)
    weights = np.array(KIND_WEIGHTS) / np.sum(KIND_WEIGHTS)
    for k in range(count):
        name = f"club_{seed}_{k:04d}"
        if (folder / "labels" / f"{name}.txt").exists():
            continue
        rng = np.random.default_rng([seed, k])
        kind = KINDS[int(rng.choice(len(KINDS), p=weights))]
        size = SIZES[int(rng.integers(len(SIZES)))]
        img, boxes, _ = render_scene(bank, rng, kind, size, blank_white=float(blank), club=(artwork, style))
        write_sample(folder, name, img, boxes, int(rng.integers(35, 95)))
    write_data_yaml(folder, f"one club set: {artwork}")
    return [s for s in read_folder(folder) if len(s.boxes)][:count]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--split", choices=("train", "heldout"), required=True, help="the faces' split")
    ap.add_argument("--out", type=Path, default=Path("runs/club"), help="where the photos are kept")
    ap.add_argument("--scenes", type=int, default=40, help="photos of play per set")
    ap.add_argument("--seed", type=int, default=26)
    ap.add_argument("--back", action="store_true", help="a face-down tile after the seasons in the layout")
    ap.add_argument("--blank-white", type=float, default=0.0, help="share of sets with a blank white dragon")
    ap.add_argument("--tries", type=int, default=3, help="layout photos taken until one is read whole")
    add_reading_options(ap)
    args = ap.parse_args(argv)
    args.test = args.scenes
    recognizer = load_recognizer("evaluate_club", args.models, args.threads, sets=args.set)
    if recognizer is None:
        return 2
    bank = face_bank(args.split)
    out: dict[str, Any] = {}
    for k, artwork in enumerate(sorted(a for a in bank if len(bank[a]) >= FULL_SET)):
        rng = np.random.default_rng([args.seed, k])
        style = random_style(rng)
        blank = args.blank_white > 0 and rng.random() < args.blank_white
        tag = f"{args.split}_{args.seed}_{'blank' if blank else 'framed'}"
        samples = club_scenes(
            bank, artwork, style, blank, args.out / tag / artwork, args.scenes, args.seed + k
        )
        rows = ROWS
        if args.back and not has_plain_back(style):  # a set ivory all through has no face-down look
            rows = (*ROWS[:-1], (*ROWS[-1], BACK))
        codes = [c for row in rows for c in row]
        render = partial(render_layout, bank, artwork, style=style, rows=rows, blank_white=blank)
        info = taught_by_layout(recognizer, render, args.seed + k, codes, samples, args.tries, args.full)
        out[artwork] = {"blank_white": blank, **info}
        print(f"{artwork:22s} " + ", ".join(f"{key} {v}" for key, v in out[artwork].items()), flush=True)
    print_means(out, "sets")
    write_report(args.json, args.out, args.models, out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
