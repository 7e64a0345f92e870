"""The riichi-rows-leomiura evaluation of datasets/evaluate_external.py: read the photos, score the
recognizer's tiles against the truth (partial tiles ignored), break the failures down, print one view."""

from __future__ import annotations

import ast
import time
from collections import Counter
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from datasets.evaluate import Tally, iou_matrix, match
from datasets.yolo import LABELS, PROJECT_ROOT, Sample, read_folder
from recognizer.annotate import annotate
from recognizer.detections import Detections
from recognizer.imageio import LoadedImage, load_image
from recognizer.pipeline import Recognizer

# SHARED, IOU and png are also external_crops.py's (it imports them from here: no import cycle).
SHARED = PROJECT_ROOT.parent / "shared" / "datasets"
RIICHI_DIR = SHARED / "riichi-rows-leomiura"
IOU = 0.5
IGNORE = -1
"""Label index of a truth box to ignore (class `0`: a partial tile)."""

_SUITS = {"man": "m", "pin": "p", "sou": "s"}
_HONOURS = {"ton": "1z", "nan": "2z", "sya-": "3z", "pe-": "4z", "haku": "5z", "hatsu": "6z", "chun": "7z"}
IGNORED_NAMES = {"0"}

SIZE_BINS = (50.0, 60.0, 70.0)
"""Truth tile heights (pixels of the photo at 640x360) that split the size classes of the failure report."""
SHAPE_BAND = 1.15
"""A truth box this much taller than wide is an upright tile, this much wider a lying one; else squarish."""


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
