"""Hard negatives for the classifier's "not a tile" output: the boxes the recognizer's detector finds in
synthetic scenes where no tile is (keys, panes, dominoes, cards, table patterns), written to the scene
folder's negatives.json for `datasets.train_classifier --not-a-tile`.

Only synthetic scenes are mined: every tile in them is labelled, so a box far from every label is surely
not a tile (the real training photos leave tiles in piles unlabelled).

    .venv/bin/python -m datasets.mine_negatives runs/world_train8 [--models DIR]
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import numpy as np

from datasets.evaluate import load_recognizer
from datasets.yolo import read_folder
from recognizer.detector import pairwise_overlap
from recognizer.imageio import load_image
from recognizer.pipeline import Recognizer

NEGATIVES_FILE = "negatives.json"
MAX_IOU = 0.1
"""A found box overlapping every labelled tile less than this (IoU) may be a negative ..."""
MAX_COVERED = 0.25
"""... when at most this share of it lies on labelled tiles (a box on part of a tile is not kept)."""


def far_from_tiles(found: np.ndarray, truth: np.ndarray) -> np.ndarray:
    """Mask of the `found` boxes (xyxy) that lie off every `truth` box: IoU and covered share both small."""
    if not len(found):
        return np.zeros(0, bool)
    if not len(truth):
        return np.ones(len(found), bool)
    inter, area_f, area_t = pairwise_overlap(found, truth)
    iou = inter / np.maximum(area_f[:, None] + area_t[None, :] - inter, 1e-6)
    covered = inter.sum(axis=1) / np.maximum(area_f, 1e-6)
    return (iou.max(axis=1) < MAX_IOU) & (covered < MAX_COVERED)


def mine(folder: Path, recognizer: Recognizer, limit: int | None) -> dict[str, list[list[float]]]:
    """stem -> negative boxes (xyxy, photo pixels) for every scene of `folder` that has any."""
    out: dict[str, list[list[float]]] = {}
    scenes = read_folder(folder)[:limit]
    start = time.perf_counter()
    for k, sample in enumerate(scenes):
        image = load_image(sample.image)
        found = recognizer.detect(image).xyxy / np.float32(image.scale)  # in the labels' pixels
        keep = far_from_tiles(found, sample.boxes)
        if keep.any():
            out[sample.image.stem] = [[round(float(v), 1) for v in box] for box in found[keep]]
        if (k + 1) % 200 == 0:
            rate = (k + 1) / (time.perf_counter() - start)
            print(f"  {k + 1}/{len(scenes)} scenes, {sum(map(len, out.values()))} negatives, {rate:.1f}/s")
    return out


def read_negatives(folder: Path) -> dict[str, np.ndarray]:
    """stem -> (n, 4) negative boxes from folder/negatives.json; empty when the folder has none."""
    path = folder / NEGATIVES_FILE
    if not path.is_file():
        return {}
    data = json.loads(path.read_text())
    return {stem: np.asarray(boxes, np.float32).reshape(-1, 4) for stem, boxes in data["boxes"].items()}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("folder", type=Path, help="a synthetic scene folder (datasets.world_scenes)")
    ap.add_argument("--models", type=Path, help="model folder (default: the packaged models)")
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--limit", type=int, default=None, help="only the first N scenes")
    args = ap.parse_args(argv)
    recognizer = load_recognizer("mine_negatives", args.models, args.threads)
    if recognizer is None:
        return 2
    boxes = mine(args.folder, recognizer, args.limit)
    record = {"models": str(args.models or "packaged"), "max_iou": MAX_IOU, "max_covered": MAX_COVERED}
    (args.folder / NEGATIVES_FILE).write_text(json.dumps({**record, "boxes": boxes}))
    print(
        f"{sum(map(len, boxes.values()))} negatives in {len(boxes)} scenes -> {args.folder / NEGATIVES_FILE}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
