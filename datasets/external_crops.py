"""The hk-tile-crops-justinchan evaluation of datasets/evaluate_external.py: the classifier on each crop
as a box, and the full recognizer on each crop placed on a plain background."""

from __future__ import annotations

import csv
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from datasets.evaluate import iou_matrix
from datasets.external_riichi import IOU, SHARED, png
from datasets.yolo import LABELS
from recognizer.annotate import annotate
from recognizer.detector import TileBoxes
from recognizer.imageio import LoadedImage, load_image
from recognizer.pipeline import Recognizer, decide

HK_DIR = SHARED / "hk-tile-crops-justinchan"
FLOWER_SEASON = {i for i, code in enumerate(LABELS) if code[-1] in "fy"}
"""LABELS indices of the flowers and seasons, counted apart by CropTally."""
BACKGROUND = (120, 120, 120)
"""The plain background a crop is placed on for the single-tile photo check."""
TILE_SHARE = 0.4
"""The tile's height as a share of that photo's height (4:3 landscape)."""


@dataclass(frozen=True)
class Crop:
    """One crop: its file, the truth LABELS index and the source dataset's label."""

    path: Path
    label: int
    source: str


def read_crops(folder: Path) -> list[Crop]:
    """labels.csv rows (file relative to the folder, our code, the source label)."""
    with (folder / "labels.csv").open(newline="") as f:
        return [
            Crop(folder / r["file"], LABELS.index(r["code"]), r["source_label"]) for r in csv.DictReader(f)
        ]


def classify_box(recognizer: Recognizer, image: LoadedImage, box: np.ndarray) -> tuple[int, float]:
    """The code and confidence the runtime gives one box (pixels of `image.rgb`): Recognizer.classify
    (its pad, test-time turns and combination) then pipeline.decide, as for a detected box."""
    boxes = TileBoxes(box[None].astype(np.float32), np.ones(1, np.float32), np.zeros(1, bool))
    found = decide(boxes, recognizer.classify(image, boxes), image.scale, recognizer.settings)
    return int(found.class_id[0]), float(found.confidence[0])


def on_background(rgb: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The crop centred on a plain 4:3 background, its height TILE_SHARE of the photo's; and its box."""
    h, w = rgb.shape[:2]
    ch = round(h / TILE_SHARE)
    cw = max(round(ch * 4 / 3), w + 2)
    canvas = np.empty((ch, cw, 3), np.uint8)
    canvas[:] = BACKGROUND
    x0, y0 = (cw - w) // 2, (ch - h) // 2
    canvas[y0 : y0 + h, x0 : x0 + w] = rgb
    return canvas, np.array([x0, y0, x0 + w, y0 + h], np.float32)


@dataclass
class CropTally:
    """Counts of one way of reading the crops: right overall and for flowers and seasons, and the misses."""

    crops: int = 0
    right: int = 0
    fs_crops: int = 0
    fs_right: int = 0
    found: int = 0  # single-tile photos: a box with IoU >= 0.5 on the tile
    exact: int = 0  # ... exactly one box, on the tile, code right
    extra_boxes: int = 0
    seconds: float = 0.0
    misses: list[dict[str, Any]] = field(default_factory=list)
    views: list[tuple[str, np.ndarray]] = field(default_factory=list)  # single-tile photos read wrong

    def add(self, crop: Crop, read: int | None, confidence: float) -> None:
        """Count one crop read as `read` (None: no box on the tile)."""
        ok = read == crop.label
        self.crops += 1
        self.right += ok
        if crop.label in FLOWER_SEASON:
            self.fs_crops += 1
            self.fs_right += ok
        if not ok:
            self.misses.append(
                {
                    "file": crop.path.name,
                    "code": LABELS[crop.label],
                    "source": crop.source,
                    "read_as": "nothing" if read is None else LABELS[read],
                    "confidence": round(confidence, 3),
                }
            )

    def summary(self) -> dict[str, Any]:
        """Accuracy overall and for flowers and seasons, plus the misses."""
        out: dict[str, Any] = {
            "crops": self.crops,
            "accuracy": round(self.right / max(self.crops, 1), 4),
            "right": self.right,
            "flowers_seasons": self.fs_crops,
            "flowers_seasons_right": self.fs_right,
            "flowers_seasons_accuracy": round(self.fs_right / max(self.fs_crops, 1), 4),
            "seconds_per_crop": round(self.seconds / max(self.crops, 1), 4),
            "misses": self.misses,
        }
        return out


def evaluate_crops(recognizer: Recognizer, crops: list[Crop], inset: bool = False) -> dict[str, CropTally]:
    """The classifier on each crop (whole image = the box, at the runtime pad), and the full recognizer on
    each crop placed on a plain background (code right = the box on the tile has the right code).
    `inset` (a diagnostic): the box is the image shrunk so that the padded crop is the whole image."""
    classifier, photo = CropTally(), CropTally()
    pad = recognizer.classifier.pad
    for crop in crops:
        image = load_image(crop.path)
        h, w = image.rgb.shape[:2]
        box = np.array([0, 0, w, h], np.float32)
        if inset:
            box = box + np.array([w, h, -w, -h], np.float32) * (pad / (1 + 2 * pad))
        start = time.perf_counter()
        code, conf = classify_box(recognizer, image, box)
        classifier.seconds += time.perf_counter() - start
        classifier.add(crop, code, conf)
        canvas, box = on_background(image.rgb)
        start = time.perf_counter()
        found = recognizer.recognize(load_image(png(canvas)))
        photo.seconds += time.perf_counter() - start
        overlap = iou_matrix(found.xyxy, box[None])[:, 0] if len(found) else np.zeros(0)
        best = int(np.argmax(overlap)) if len(found) else -1
        on_tile = best >= 0 and overlap[best] >= IOU
        read = int(found.class_id[best]) if on_tile else None
        photo.found += on_tile
        photo.extra_boxes += len(found) - int(on_tile)
        photo.exact += bool(on_tile and len(found) == 1 and read == crop.label)
        photo.add(crop, read, float(found.confidence[best]) if on_tile else 0.0)
        if read != crop.label:  # kept for --vis: the photo as read, the tile's box in magenta
            view = annotate(canvas, found)
            x0, y0, x1, y1 = (int(v) for v in box)
            cv2.rectangle(view, (x0, y0), (x1, y1), (255, 0, 255), 1)
            photo.views.append((f"{LABELS[crop.label]} {crop.path.name}", view))
    return {"classifier (crop = box, runtime pad)": classifier, "single-tile photo (plain background)": photo}


# --- report -----------------------------------------------------------------------------------------


def print_crops(name: str, t: CropTally) -> None:
    """Accuracy and misses of one way of reading the crops."""
    s = t.summary()
    print(
        f"\n== hk-tile-crops, {name}: {s['right']} / {s['crops']} right ({s['accuracy']:.3f}); "
        "flowers and seasons "
        f"{s['flowers_seasons_right']} / {s['flowers_seasons']} ({s['flowers_seasons_accuracy']:.3f}); "
        f"{s['seconds_per_crop']:.3f} s per crop"
    )
    if t.found or t.extra_boxes:
        print(
            f"tile found {t.found} / {t.crops}, exactly one box with the right code {t.exact}, extra boxes "
            f"{t.extra_boxes}"
        )
    by_code: dict[str, list[str]] = {}
    for m in s["misses"]:
        by_code.setdefault(m["code"], []).append(f"{m['read_as']} ({m['confidence']:.2f})")
    for code in sorted(by_code, key=LABELS.index):
        print(f"  {code} read as {', '.join(by_code[code])}")
