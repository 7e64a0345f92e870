"""Evaluate the real recognizer on two small held-out real sets of OTHER tile sets (see
../shared/datasets/README.md): never trained on, never used to choose a setting; beside the valid split.

- riichi-rows-leomiura/ (CC BY 4.0, Roboflow "mahjong" by leomiurarobot): 67 photos of a riichi set standing
  on a teal mat, stored 640x640 stretched from 16:9 screenshots. Each photo is read un-stretched to 640x360
  (as taken; the headline), and for comparison as stored and as 16:9 at 1138x640 (the stored rows kept). A
  tile counts when a box has IoU >= 0.5 with its truth box and the code is right; boxes of class `0` (partial
  tiles) are ignored: a prediction on one is neither right nor a false box. Far out-of-focus tiles are not
  boxed in the truth, so detection precision counts them as false boxes (a lower bound).
- hk-tile-crops-justinchan/ (MIT): 68 single-tile crops with every flower and season. The classifier reads
  each crop as the runtime reads a box (the whole image as the box, the runtime's pad, turns and decision);
  and the full recognizer reads each crop placed on a plain grey background (a single-tile photo).

Examples:
  .venv/bin/python -m datasets.evaluate_external --json runs/external.json
  .venv/bin/python -m datasets.evaluate_external --vis runs/external_vis --diagnostics
"""

from __future__ import annotations

import argparse
import ast
import csv
import json
import sys
import time
from collections import Counter
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from datasets.evaluate import Tally, iou_matrix, load_recognizer, match
from datasets.settings_flags import add_set_flag
from datasets.yolo import LABELS, PROJECT_ROOT, Sample, read_folder
from recognizer.annotate import annotate
from recognizer.detections import Detections
from recognizer.detector import TileBoxes
from recognizer.imageio import LoadedImage, load_image
from recognizer.pipeline import Recognizer, Settings, decide

SHARED = PROJECT_ROOT.parent / "shared" / "datasets"
RIICHI_DIR = SHARED / "riichi-rows-leomiura"
HK_DIR = SHARED / "hk-tile-crops-justinchan"
IOU = 0.5
IGNORE = -1
"""Label index of a truth box to ignore (class `0`: a partial tile)."""

_SUITS = {"man": "m", "pin": "p", "sou": "s"}
_HONOURS = {"ton": "1z", "nan": "2z", "sya-": "3z", "pe-": "4z", "haku": "5z", "hatsu": "6z", "chun": "7z"}
IGNORED_NAMES = {"0"}

VIEWS: dict[str, tuple[int, int] | None] = {
    "640x360": (640, 360),
    "stored 640x640": None,
    "1138x640": (1138, 640),
}
"""How a stored riichi-rows photo is read: resized to (width, height), or None: as stored. 640x360 is the
photo as taken (2560x1440 / 4); 1138x640 is 16:9 keeping all 640 stored rows."""
HEADLINE = "640x360"

SIZE_BINS = (50.0, 60.0, 70.0)
"""Truth tile heights (pixels of the photo at 640x360) that split the size classes of the failure report."""
SHAPE_BAND = 1.15
"""A truth box this much taller than wide is an upright tile, this much wider a lying one; else squarish."""

FLOWER_SEASON = {i for i, code in enumerate(LABELS) if code[-1] in "fy"}


def riichi_code(name: str) -> int:
    """LABELS index of a riichi-rows class name ('3_pin' -> 3p, 'sya-' -> 3z), IGNORE for partial tiles."""
    if name in IGNORED_NAMES:
        return IGNORE
    if name in _HONOURS:
        return LABELS.index(_HONOURS[name])
    number, _, suit = name.partition("_")
    code = f"{number}{_SUITS.get(suit, '?')}"
    if code not in LABELS:
        raise ValueError(f"unknown riichi-rows class {name!r}")
    return LABELS.index(code)


def class_names(data_yaml: Path) -> list[str]:
    """The `names:` list of a Roboflow data.yaml (one inline list), in class-index order."""
    for line in data_yaml.read_text().splitlines():
        if line.startswith("names:"):
            names = ast.literal_eval(line.split(":", 1)[1].strip())
            return [str(n) for n in names]
    raise ValueError(f"{data_yaml}: no inline names: list")


def read_riichi(folder: Path) -> list[Sample]:
    """Every photo of every split (all 67 are one evaluation set), labels as LABELS indices or IGNORE."""
    class_map = np.array([riichi_code(n) for n in class_names(folder / "data.yaml")], np.int64)
    samples: list[Sample] = []
    for split in ("train", "valid", "test"):
        if (folder / split / "images").is_dir():
            samples += read_folder(folder / split, class_map)
    return samples


def resized(
    rgb: np.ndarray, boxes: np.ndarray, size: tuple[int, int] | None
) -> tuple[np.ndarray, np.ndarray]:
    """The photo resized to `size` (width, height; None: as is) and its boxes scaled alike."""
    if size is None:
        return rgb, boxes
    h, w = rgb.shape[:2]
    shrink = size[0] * size[1] < w * h
    out = cv2.resize(rgb, size, interpolation=cv2.INTER_AREA if shrink else cv2.INTER_CUBIC)
    factor = np.array([size[0] / w, size[1] / h] * 2, np.float32)
    return out, (boxes * factor).astype(np.float32)


def png(rgb: np.ndarray) -> bytes:
    """Lossless PNG bytes of an RGB image (what load_image then decodes, as from a file)."""
    ok, data = cv2.imencode(".png", cv2.cvtColor(rgb, cv2.COLOR_RGB2BGR))
    if not ok:
        raise ValueError("PNG encoding failed")
    return data.tobytes()


def size_class(height_360: float) -> str:
    """Name of the size class of a tile this many pixels high at 640x360."""
    low = 0.0
    for high in SIZE_BINS:
        if height_360 < high:
            return f"<{high:.0f} px" if low == 0 else f"{low:.0f}-{high:.0f} px"
        low = high
    return f">={low:.0f} px"


def shape_class(box: np.ndarray, aspect: float) -> str:
    """upright / squarish / lying, from the box's height over width as taken (`aspect`: the view's
    width scale over height scale relative to the 16:9 photo, 1 for a 16:9 view)."""
    w, h = float(box[2] - box[0]) / aspect, float(box[3] - box[1])
    if h >= SHAPE_BAND * w:
        return "upright"
    return "lying" if w >= SHAPE_BAND * h else "squarish"


ROW_FIT = 0.35
"""A photo's tiles stand in one row when every box centre lies within this share of the median tile height
of the straight line fitted through the centres; otherwise they are scattered."""


def photo_layout(boxes: np.ndarray) -> str:
    """ "one row" or "scattered" for a photo's truth boxes (xyxy), see ROW_FIT."""
    if len(boxes) < 3:
        return "one row"
    cx, cy = (boxes[:, 0] + boxes[:, 2]) / 2, (boxes[:, 1] + boxes[:, 3]) / 2
    slope, level = np.polyfit(cx, cy, 1)
    height = float(np.median(boxes[:, 3] - boxes[:, 1]))
    return "one row" if float(np.abs(cy - (slope * cx + level)).max()) <= ROW_FIT * height else "scattered"


@dataclass
class PhotoScore:
    """One photo's counts (after ignoring predictions on partial tiles)."""

    name: str
    truth: int
    found: int
    right: int
    missed: int
    misread: int
    false_boxes: int
    ignored: int
    layout: str = ""

    @property
    def all_right(self) -> bool:
        """Every truth tile found with its code, nothing extra."""
        return self.right == self.truth == self.found

    @property
    def errors(self) -> int:
        """Missed + misread tiles + false boxes: how bad the photo is."""
        return self.missed + self.misread + self.false_boxes


@dataclass
class ExternalTally:
    """Evaluate's Tally plus what the failure report needs: per-code recall, misses and misreads by tile
    size and shape, false boxes by what they overlap, and ignored predictions."""

    tally: Tally = field(default_factory=Tally)
    truth_per_code: Counter[int] = field(default_factory=Counter)
    right_per_code: Counter[int] = field(default_factory=Counter)
    outcome_by_size: Counter[tuple[str, str]] = field(default_factory=Counter)  # (size, outcome) -> tiles
    outcome_by_shape: Counter[tuple[str, str]] = field(default_factory=Counter)
    outcome_by_layout: Counter[tuple[str, str]] = field(default_factory=Counter)
    misses: Counter[str] = field(default_factory=Counter)  # "no box near" / "box off (IoU 0.1-0.5)"
    false_boxes: Counter[str] = field(default_factory=Counter)  # duplicate / off a tile / above or among
    ignored: int = 0
    photos: list[PhotoScore] = field(default_factory=list)

    def add(
        self,
        name: str,
        found: Detections,
        truth: np.ndarray,
        labels: np.ndarray,
        height: int,
        aspect: float = 1.0,
    ) -> PhotoScore:
        """Score one photo: `truth` boxes (IGNORE-labelled ones included) in the pixels of `found`, in a
        photo `height` pixels high whose width scale over height scale against the 16:9 photo is `aspect`."""
        real = labels != IGNORE
        t_xyxy, t_cls = truth[real], labels[real]
        pairs = match(found.xyxy, found.confidence, t_xyxy)
        matched = {i for i, _ in pairs}
        keep = np.ones(len(found), bool)
        on_partial = iou_matrix(found.xyxy, truth[~real]).max(axis=1, initial=0.0) >= IOU
        for i in range(len(found)):
            if i not in matched and on_partial[i]:
                keep[i] = False  # a prediction on a partial tile: neither right nor false
        ignored = int((~keep).sum())
        xyxy, cls, conf = found.xyxy[keep], found.class_id[keep], found.confidence[keep]
        self.tally.add(xyxy, cls, conf, t_xyxy, t_cls)
        pairs = match(xyxy, conf, t_xyxy)  # the same pairs as above: only unmatched boxes went
        overlap = iou_matrix(xyxy, t_xyxy)
        by_truth = {j: i for i, j in pairs}
        right = misread = missed = 0
        layout = photo_layout(t_xyxy)
        for j, code in enumerate(t_cls.tolist()):
            self.truth_per_code[code] += 1
            if j not in by_truth:
                outcome = "missed"
                missed += 1
                near = overlap[:, j].max(initial=0.0) >= 0.1
                self.misses["box off (IoU 0.1-0.5)" if near else "no box near"] += 1
            elif cls[by_truth[j]] == code:
                outcome = "right"
                right += 1
                self.right_per_code[code] += 1
            else:
                outcome = "misread"
                misread += 1
            box = t_xyxy[j]
            self.outcome_by_size[(size_class(float(box[3] - box[1]) * 360 / height), outcome)] += 1
            self.outcome_by_shape[(shape_class(box, aspect), outcome)] += 1
            self.outcome_by_layout[(layout, outcome)] += 1
        paired = {i for i, _ in pairs}
        extra = [i for i in range(len(xyxy)) if i not in paired]
        for i in extra:
            best = overlap[i].max(initial=0.0)
            if best >= IOU:
                kind = "duplicate"
            elif best >= 0.1:
                kind = "off a tile"
            elif len(t_xyxy) and xyxy[i, 3] <= t_xyxy[:, 1].min():  # the shelf and wall behind the mat
                big = xyxy[i, 3] - xyxy[i, 1] > 1.5 * float(np.median(t_xyxy[:, 3] - t_xyxy[:, 1]))
                kind = f"above every tile, {'over 1.5x' if big else 'at most 1.5x'} a tile's height"
            else:
                kind = "no tile near, among or below the tiles"
            self.false_boxes[kind] += 1
        self.ignored += ignored
        score = PhotoScore(name, len(t_cls), len(xyxy), right, missed, misread, len(extra), ignored, layout)
        self.photos.append(score)
        return score

    def per_code_recall(self) -> list[dict[str, Any]]:
        """Recall (box and code right) per truth code, weakest first."""
        rows = [
            {"code": LABELS[c], "tiles": n, "recall": round(self.right_per_code[c] / n, 4)}
            for c, n in self.truth_per_code.items()
        ]
        return sorted(rows, key=lambda r: (r["recall"], -r["tiles"], r["code"]))

    def summary(self) -> dict[str, Any]:
        """Headline numbers, failure breakdowns and per-photo counts as a plain dict."""
        s = self.tally.summary()
        keep = (
            "photos",
            "truth_tiles",
            "found_tiles",
            "tile_precision",
            "tile_recall",
            "tile_f1",
            "detection_precision",
            "detection_recall",
            "classification_accuracy",
            "seconds_per_photo",
        )
        out: dict[str, Any] = {k: s[k] for k in keep}
        out["photos_all_right"] = self.tally.photos_right
        out["ignored_predictions_on_partial_tiles"] = self.ignored
        out["per_code_recall"] = self.per_code_recall()
        out["confusions"] = [
            {"truth": LABELS[t], "read": LABELS[p], "count": c}
            for (t, p), c in self.tally.confusions.most_common()
        ]
        out["misses"] = dict(self.misses)
        out["false_boxes"] = dict(self.false_boxes)
        out["by_size"] = _nested(self.outcome_by_size)
        out["by_shape"] = _nested(self.outcome_by_shape)
        out["by_layout"] = _nested(self.outcome_by_layout)
        out["photos_detail"] = [asdict(p) for p in self.photos]
        return out


def _nested(counts: Counter[tuple[str, str]]) -> dict[str, dict[str, int]]:
    out: dict[str, dict[str, int]] = {}
    for (group, outcome), n in sorted(counts.items()):
        out.setdefault(group, {"right": 0, "misread": 0, "missed": 0})[outcome] = n
    return out


def evaluate_riichi(
    recognizer: Recognizer,
    samples: list[Sample],
    size: tuple[int, int] | None,
    vis: Path | None = None,
    worst: int = 0,
) -> ExternalTally:
    """Read every photo at `size` (width, height; None: as stored) and score it; optionally write the
    `worst` photos of each layout annotated (found tiles by recognizer.annotate, missed truth in magenta)
    under `vis`."""
    result = ExternalTally()
    kept: list[tuple[PhotoScore, LoadedImage, Detections, np.ndarray, np.ndarray]] = []
    for sample in samples:
        rgb, truth = resized(load_image(sample.image).rgb, sample.boxes, size)
        data = png(rgb)
        start = time.perf_counter()
        image = load_image(data)
        found = recognizer.recognize(image)
        result.tally.seconds += time.perf_counter() - start
        aspect = (rgb.shape[1] / rgb.shape[0]) / (16 / 9)
        score = result.add(
            sample.image.name.split("_png")[0], found, truth, sample.labels, rgb.shape[0], aspect
        )
        if vis is not None:
            kept.append((score, image, found, truth, sample.labels))
    if vis is not None and worst:
        vis.mkdir(parents=True, exist_ok=True)
        for layout in ("scattered", "one row"):
            ranked = sorted((k for k in kept if k[0].layout == layout), key=lambda k: -k[0].errors)
            for rank, (score, image, found, truth, labels) in enumerate(ranked[:worst], 1):
                out = draw_truth(annotate(image, found), truth, labels, found)
                path = vis / f"{layout.replace(' ', '_')}_{rank:02d}_{score.name}.png"
                cv2.imwrite(str(path), cv2.cvtColor(out, cv2.COLOR_RGB2BGR))
    return result


def draw_truth(canvas: np.ndarray, truth: np.ndarray, labels: np.ndarray, found: Detections) -> np.ndarray:
    """Truth boxes no prediction matched drawn in magenta with their code, misread ones' truth code in
    yellow under the box (the prediction's code is drawn above by annotate)."""
    real = np.nonzero(labels != IGNORE)[0]
    pairs = dict((j, i) for i, j in match(found.xyxy, found.confidence, truth[real]))
    for k, j in enumerate(real):
        x0, y0, x1, y1 = (round(float(v)) for v in truth[j])
        code = LABELS[int(labels[j])]
        if k not in pairs:
            cv2.rectangle(canvas, (x0, y0), (x1, y1), (255, 0, 255), 1)
            cv2.putText(canvas, code, (x0, y1 + 12), cv2.FONT_HERSHEY_SIMPLEX, 0.4, (255, 0, 255), 1)
        elif found.class_id[pairs[k]] != labels[j]:
            cv2.putText(canvas, code, (x0, y1 + 12), cv2.FONT_HERSHEY_SIMPLEX, 0.45, (255, 230, 0), 1)
    return canvas


# --- single-tile crops ----------------------------------------------------------------------------

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


def contact_sheet(views: list[tuple[str, np.ndarray]], cell: tuple[int, int] = (320, 240)) -> np.ndarray:
    """Titled images resized to `cell` (width, height), four to a row: the single-tile photos read wrong."""
    tiles = []
    for title, rgb in views:
        small = cv2.resize(rgb, cell, interpolation=cv2.INTER_AREA)
        cv2.putText(small, title, (5, 15), cv2.FONT_HERSHEY_SIMPLEX, 0.5, (255, 255, 0), 1)
        tiles.append(small)
    while len(tiles) % 4:
        tiles.append(np.zeros((cell[1], cell[0], 3), np.uint8))
    return np.vstack([np.hstack(tiles[i : i + 4]) for i in range(0, len(tiles), 4)])


# --- report -----------------------------------------------------------------------------------------


def print_riichi(name: str, s: dict[str, Any], weakest: int = 8) -> None:
    """Headline numbers, weakest codes, confusions and the failure breakdowns of one view."""
    print(
        f"\n== riichi-rows {name}: {s['photos']} photos, {s['truth_tiles']} truth tiles, "
        f"{s['found_tiles']} found "
        f"({s['ignored_predictions_on_partial_tiles']} on partial tiles ignored)"
    )
    print(
        f"tile P/R/F1 {s['tile_precision']:.3f} / {s['tile_recall']:.3f} / {s['tile_f1']:.3f}   "
        f"detection P/R {s['detection_precision']:.3f} / {s['detection_recall']:.3f} "
        "(P counts unboxed far tiles as false)   "
        f"class. acc. {s['classification_accuracy']:.3f}"
    )
    print(
        f"photos fully right {s['photos_all_right']} of {s['photos']}   "
        f"seconds per photo {s['seconds_per_photo']:.3f}"
    )
    print(
        "weakest codes (recall): "
        + ", ".join(f"{r['code']} {r['recall']:.2f} ({r['tiles']})" for r in s["per_code_recall"][:weakest])
    )
    print(
        "top misreads: " + ", ".join(f"{c['truth']}->{c['read']} {c['count']}" for c in s["confusions"][:10])
    )
    print(f"missed tiles: {s['misses']}   false boxes: {s['false_boxes']}")
    breakdowns = (
        ("by tile height at 640x360", "by_size"),
        ("by truth box shape", "by_shape"),
        ("by photo layout", "by_layout"),
    )
    for title, key in breakdowns:
        print(
            f"{title}: "
            + "; ".join(
                f"{g} {v['right']} right / {v['misread']} misread / {v['missed']} missed"
                for g, v in s[key].items()
            )
        )


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


DIAGNOSTICS: dict[str, tuple[tuple[int, int] | None, dict[str, Any], int | None]] = {
    "640x360, letterbox": ((640, 360), {"detector_stretch": 1.0}, None),
    "640x360, no unstretch retry": ((640, 360), {"unstretch": False}, None),
    "640x360, letterbox, no unstretch": (
        (640, 360),
        {"detector_stretch": 1.0, "unstretch": False},
        None,
    ),
    "640x360, detector side 512": ((640, 360), {}, 512),
    "640x360, letterbox, side 512": ((640, 360), {"detector_stretch": 1.0}, 512),
    "640x360, letterbox, side 640": ((640, 360), {"detector_stretch": 1.0}, 640),
    "1138x640, letterbox, side 640": ((1138, 640), {"detector_stretch": 1.0}, 640),
    "stored 640x640, no zoomed search": (None, {"zoom_small_tiles": False}, None),
    "1138x640, no zoomed search": ((1138, 640), {"zoom_small_tiles": False}, None),
}
"""Other readings of riichi-rows, for diagnosis only (name -> view size, Settings changes, detector input
side S or None for the model's): never to choose a setting on this set."""


def provenance(models: Path | None) -> dict[str, str]:
    """The project commit (and whether recognizer/ or models/ differ from it) and the model files' hashes:
    the runtime and models change often, so every result says which it measured."""
    import hashlib
    import subprocess

    def git(*args: str) -> str:
        try:
            done = subprocess.run(
                ["git", *args], cwd=PROJECT_ROOT, capture_output=True, text=True, timeout=20
            )
        except (OSError, subprocess.SubprocessError):
            return "?"
        return done.stdout.strip()

    folder = models or PROJECT_ROOT / "models"
    out = {
        "commit": git("rev-parse", "--short", "HEAD"),
        "uncommitted_runtime_changes": git("status", "--porcelain", "--", "recognizer", "models") or "none",
    }
    for name in ("detector.onnx", "classifier.onnx", "bonus_reader.onnx"):
        path = folder / name
        out[name] = hashlib.sha256(path.read_bytes()).hexdigest()[:12] if path.is_file() else "?"
    return out


def _plain(value: object) -> object:
    """JSON for numpy scalars (counts summed from numpy booleans)."""
    if isinstance(value, np.generic):
        return value.item()
    raise TypeError(f"not JSON: {type(value).__name__}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--riichi-rows", type=Path, default=RIICHI_DIR, help="riichi-rows-leomiura folder")
    parser.add_argument("--hk-crops", type=Path, default=HK_DIR, help="hk-tile-crops-justinchan folder")
    parser.add_argument("--models", type=Path, help="model folder (default: the packaged models)")
    parser.add_argument("--threads", type=int, default=None, help="ONNX Runtime threads")
    parser.add_argument(
        "--views",
        nargs="*",
        choices=list(VIEWS),
        default=list(VIEWS),
        help=f"riichi-rows readings (default all; the headline is {HEADLINE})",
    )
    parser.add_argument(
        "--diagnostics",
        action="store_true",
        help="also other settings and detector sides on riichi-rows (diagnosis only)",
    )
    parser.add_argument("--vis", type=Path, help="write the worst riichi-rows photos annotated here")
    parser.add_argument("--worst", type=int, default=6, help="how many photos --vis writes")
    parser.add_argument("--json", type=Path, help="write all numbers to this file")
    add_set_flag(parser)
    args = parser.parse_args(argv)

    recognizer = load_recognizer("evaluate_external", args.models, args.threads, sets=args.set)
    if recognizer is None:
        return 2
    out: dict[str, Any] = {
        "models": str(args.models or "packaged"),
        "settings": asdict(recognizer.settings),
        "detector_side": recognizer.detector.size,
        "iou": IOU,
    } | provenance(args.models)

    riichi: dict[str, Any] = {"folder": str(args.riichi_rows)}
    if not (args.riichi_rows / "data.yaml").is_file():
        riichi["skipped"] = f"no data.yaml in {args.riichi_rows}"
        print(f"riichi-rows: skipping: {riichi['skipped']}", file=sys.stderr)
    else:
        samples = read_riichi(args.riichi_rows)
        riichi["views"] = {}
        for view in args.views:
            print(f"riichi-rows: reading {len(samples)} photos at {view} ...", file=sys.stderr)
            tally = evaluate_riichi(
                recognizer, samples, VIEWS[view], args.vis if view == HEADLINE else None, args.worst
            )
            riichi["views"][view] = tally.summary()
            print_riichi(view, riichi["views"][view])
        if args.diagnostics:
            riichi["diagnostics"] = {"note": "diagnosis only: not to choose settings on this set"}
            side = recognizer.detector.size
            for name, (size, changes, detector_side) in DIAGNOSTICS.items():
                print(f"riichi-rows diagnostic: {name} ...", file=sys.stderr)
                diag = Recognizer(args.models, args.threads, replace(Settings(), **changes))
                diag.detector.size = detector_side or side  # an input side for this object only
                tally = evaluate_riichi(diag, samples, size)
                s = tally.summary()
                riichi["diagnostics"][name] = {
                    "settings_changed": changes,
                    "detector_side": diag.detector.size,
                } | s
                print_riichi(f"DIAGNOSTIC {name}", s, weakest=4)
    out["riichi_rows"] = riichi

    hk: dict[str, Any] = {"folder": str(args.hk_crops)}
    if not (args.hk_crops / "labels.csv").is_file():
        hk["skipped"] = f"no labels.csv in {args.hk_crops}"
        print(f"hk-tile-crops: skipping: {hk['skipped']}", file=sys.stderr)
    else:
        crops = read_crops(args.hk_crops)
        print(f"hk-tile-crops: reading {len(crops)} crops ...", file=sys.stderr)
        for name, t in evaluate_crops(recognizer, crops).items():
            hk[name] = t.summary() | (
                {"tile_found": t.found, "exactly_one_box_right": t.exact, "extra_boxes": t.extra_boxes}
                if name.startswith("single")
                else {}
            )
            print_crops(name, t)
            if args.vis is not None and t.views:
                args.vis.mkdir(parents=True, exist_ok=True)
                sheet = contact_sheet(t.views)
                cv2.imwrite(
                    str(args.vis / "hk_single_tile_misses.png"), cv2.cvtColor(sheet, cv2.COLOR_RGB2BGR)
                )
        if args.diagnostics:
            hk["diagnostics"] = {"note": "diagnosis only: not to choose settings on this set"}
            inset = evaluate_crops(recognizer, crops, inset=True)["classifier (crop = box, runtime pad)"]
            hk["diagnostics"]["classifier, box inset so the padded crop is the image"] = inset.summary()
            print_crops("DIAGNOSTIC classifier, box inset so the padded crop is the image", inset)
            plain = Recognizer(
                args.models, args.threads, replace(Settings(), unstretch=False, zoom_small_tiles=False)
            )
            photo = evaluate_crops(plain, crops)["single-tile photo (plain background)"]
            name = "single-tile photo, no squeezed retry and no zoomed search"
            hk["diagnostics"][name] = photo.summary() | {
                "tile_found": photo.found,
                "exactly_one_box_right": photo.exact,
                "extra_boxes": photo.extra_boxes,
            }
            print_crops(f"DIAGNOSTIC {name}", photo)
    out["hk_tile_crops"] = hk

    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(out, indent=1, default=_plain))
    return 0


if __name__ == "__main__":
    sys.exit(main())
