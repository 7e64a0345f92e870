"""The classifier alone on the truth boxes of a world-scene folder, by artwork, kind of tile and size: how
well tiles are named once found, apart from finding them. Fast (no detector), so classifier candidates can be
compared in a minute; crops are cut exactly as the runtime cuts them (`Recognizer.classifier`). With a
classifier that has the "not a tile" output, also the share of tiles it rejects and, where the folder has
negatives.json (datasets.mine_negatives), the share of mined non-tiles it rejects.

    .venv/bin/python -m datasets.evaluate_crops runs/world_heldout [--models DIR] [--json out.json]
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import numpy as np

from datasets.evaluate import load_recognizer
from datasets.evaluate_world import scene_kinds, write_report
from datasets.mine_negatives import read_negatives
from datasets.settings_flags import add_set_flag
from datasets.yolo import LABELS, read_folder
from recognizer.classifier import split_not_a_tile
from recognizer.imageio import load_image
from recognizer.pipeline import Recognizer

FAMILIES = {"m": "characters", "p": "circles", "s": "bamboo", "z": "honours", "f": "bonus", "y": "bonus"}
"""Tile code suffix -> the family reported on its own ("back" is its own family)."""


def family(label: str) -> str:
    """The reported family of a label: characters, circles, bamboo, honours, bonus or back."""
    return FAMILIES.get(label[-1], "back") if label != "back" else "back"


SIZE_BANDS = (16, 24, 40)
"""Short-side pixel bounds of the reported tile sizes: tiny, small, medium, large."""


def size_band(side: float) -> str:
    """The size band of a tile by the short side of its box, in photo pixels."""
    for bound, name in zip(SIZE_BANDS, ("a <16 px", "b 16-24 px", "c 24-40 px"), strict=True):
        if side < bound:
            return name
    return "d >=40 px"


def report(
    folder: Path, kinds: dict[str, dict[str, str]], recognizer: Recognizer, limit: int | None
) -> dict[str, Any]:
    """Accuracy of the classifier on every truth box (`kinds`: the folder's manifest), overall, by
    artwork, family and size, of each honour, and of the flowers and seasons by artwork; and the shares
    of tiles and of mined negatives it reads as no tile."""
    right: Counter[str] = Counter()
    seen: Counter[str] = Counter()
    confusions: Counter[tuple[str, str]] = Counter()
    s = recognizer.settings
    mined = read_negatives(folder)
    for k, sample in enumerate(read_folder(folder)[:limit]):
        if not len(sample.boxes):
            continue
        image = load_image(sample.image)
        negatives = mined.get(sample.image.stem, np.zeros((0, 4), np.float32))
        boxes = np.concatenate([sample.boxes, negatives]) * np.float32(image.scale)
        probs, not_tile = split_not_a_tile(  # tiles and negatives in one run of the classifier
            recognizer.classifier.probabilities(
                image.rgb, boxes, s.turns, s.combine, s.square_band, s.flip_below
            ),
            recognizer.classifier.rejects,
        )
        rejected = not_tile >= s.not_a_tile_min
        n = len(sample.boxes)
        seen["tiles read as no tile"] += n
        right["tiles read as no tile"] += int(rejected[:n].sum())
        if len(negatives):
            seen["mined negatives read as no tile"] += len(negatives)
            right["mined negatives read as no tile"] += int(rejected[n:].sum())
        probs, rejected = probs[:n], rejected[:n]
        artwork = kinds.get(sample.image.stem, {}).get("artwork", "unknown")
        sides = np.minimum(sample.boxes[:, 2] - sample.boxes[:, 0], sample.boxes[:, 3] - sample.boxes[:, 1])
        for truth, guess, side, gone in zip(sample.labels, probs.argmax(1), sides, rejected, strict=True):
            t, g = LABELS[int(truth)], "no tile" if gone else LABELS[int(guess)]
            keys = ["all", f"artwork {artwork}", f"family {family(t)}", f"size {size_band(side)}"]
            if family(t) == "bonus":  # flowers and seasons differ most between sets: by artwork too
                keys += [f"bonus, artwork {artwork}", f"bonus, size {size_band(side)}"]
            if family(t) == "honours":  # each wind and dragon (a blank white dragon looks like a back)
                keys.append(f"honour {t}")
            for key in keys:
                seen[key] += 1
                right[key] += int(t == g)
            if family(t) == "bonus":  # the family right, whichever flower or season it is read as
                seen["bonus read as flower or season"] += 1
                right["bonus read as flower or season"] += int(family(g) == "bonus")
            if t != g:
                confusions[(t, g)] += 1
        if (k + 1) % 100 == 0:
            print(f"  {k + 1} scenes", file=sys.stderr)
    out: dict[str, Any] = {
        key: {"crops": seen[key], "right": round(right[key] / seen[key], 4)} for key in sorted(seen)
    }
    out["confusions"] = [f"{t}->{g} x{n}" for (t, g), n in confusions.most_common(15)]
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("folder", type=Path, help="a datasets.world_scenes folder (with kinds.json)")
    ap.add_argument("--models", type=Path, help="model folder (default: the packaged models)")
    ap.add_argument("--threads", type=int, default=None)
    ap.add_argument("--limit", type=int, default=None, help="only the first N scenes")
    ap.add_argument("--json", type=Path, help="write the numbers to this file")
    add_set_flag(ap)
    args = ap.parse_args(argv)
    kinds = scene_kinds(args.folder, "evaluate_crops")
    if kinds is None:
        return 2
    recognizer = load_recognizer("evaluate_crops", args.models, args.threads, sets=args.set)
    if recognizer is None:
        return 2
    out = report(args.folder, kinds, recognizer, args.limit)
    for key, value in out.items():
        if key != "confusions":
            print(f"{key:<36} {value['crops']:>6} crops  share {value['right']:.3f}")
    print("commonest confusions (truth->read): " + ", ".join(out["confusions"]))
    write_report(args.json, args.folder, args.models, out)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
