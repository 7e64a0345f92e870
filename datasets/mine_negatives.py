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
import sys
import time
from pathlib import Path

import cv2
import numpy as np

from datasets.yolo import read_folder
from recognizer.errors import ModelError
from recognizer.imageio import LoadedImage
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
    ix0 = np.maximum(found[:, None, 0], truth[None, :, 0])
    iy0 = np.maximum(found[:, None, 1], truth[None, :, 1])
    ix1 = np.minimum(found[:, None, 2], truth[None, :, 2])
    iy1 = np.minimum(found[:, None, 3], truth[None, :, 3])
    inter = np.clip(ix1 - ix0, 0, None) * np.clip(iy1 - iy0, 0, None)
    area_f = (found[:, 2] - found[:, 0]) * (found[:, 3] - found[:, 1])
    area_t = (truth[:, 2] - truth[:, 0]) * (truth[:, 3] - truth[:, 1])
    iou = inter / np.maximum(area_f[:, None] + area_t[None, :] - inter, 1e-6)
    covered = inter.sum(axis=1) / np.maximum(area_f, 1e-6)
    return (iou.max(axis=1) < MAX_IOU) & (covered < MAX_COVERED)


def mine(folder: Path, recognizer: Recognizer, limit: int | None) -> dict[str, list[list[float]]]:
    """stem -> negative boxes (xyxy, photo pixels) for every scene of `folder` that has any."""
    out: dict[str, list[list[float]]] = {}
    scenes = read_folder(folder)[:limit]
    start = time.perf_counter()
    for k, sample in enumerate(scenes):
        bgr = cv2.imread(str(sample.image), cv2.IMREAD_COLOR)
        if bgr is None:
            continue
        image = LoadedImage(cv2.cvtColor(bgr, cv2.COLOR_BGR2RGB), bgr.shape[1], bgr.shape[0])
        found = recognizer.detect(image).xyxy
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
    try:
        recognizer = Recognizer(args.models, args.threads)
    except ModelError as exc:
        print(f"mine_negatives: {exc}", file=sys.stderr)
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
