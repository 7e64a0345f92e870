"""Evaluate the real recognizer (load_image -> Recognizer.recognize) on the valid split of the CC BY 4.0
"Chinese Mahjong Detection" dataset, and optionally on 12 MP variants of every photo.

Prints tile precision/recall (a tile counts when its box has IoU >= 0.5 with a truth box AND its code is
right), detection-only precision/recall, per-class accuracy with the top confusions, the share of photos
with every tile right, and that share for photos of at most 18 tiles.

Examples:
  .venv/bin/python -m datasets.evaluate
  .venv/bin/python -m datasets.evaluate --variants --limit 60 --json runs/eval.json
  .venv/bin/python -m datasets.evaluate --sweep          # tune threshold and test-time turns
  .venv/bin/python -m datasets.evaluate --skip-valid --scenes runs/synthetic   # held-out synthetic scenes
  .venv/bin/python -m datasets.evaluate --audited        # against the labels corrected by eye
"""

from __future__ import annotations

import argparse
import io
import json
import sys
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any

import numpy as np

from datasets.audit import AUDIT_FILE, AuditMismatch, audited, load_fixes
from datasets.row_strip import is_row_strip
from datasets.settings_flags import add_set_flag, apply_sets
from datasets.yolo import (
    BACK,
    DATA_ENV,
    LABELS,
    Sample,
    data_dir,
    placeholder_labelled,
    read_folder,
    read_split,
)
from recognizer.annotate import UNCERTAIN_BELOW
from recognizer.classifier import Combine, TurnMode, combine_views, split_not_a_tile, view_plan
from recognizer.detections import Detections
from recognizer.detector import TileBoxes, boxes_in_image, decode, nms, pairwise_overlap
from recognizer.errors import ModelError
from recognizer.imageio import LoadedImage, load_image
from recognizer.pipeline import Recognizer, Settings, decide, not_tiles

IOU = 0.5
SMALL_HAND = 18
ORIENTATION = 0x0112


FLAG_MARKS = (0.5, 0.6, 0.7, 0.8, 0.9, 0.95)
"""Uncertainty marks `Tally.flag_curve` reports (the app and CLI flag below recognizer.annotate's)."""


def flag_curve_lines(curve: list[dict[str, float]]) -> list[str]:
    """`Tally.flag_curve` as printed lines."""
    lines = ["flag below  flagged  of which wrong  misreads flagged"]
    for r in curve:
        lines.append(
            f"{r['below']:<10.2f}  {r['flagged']:>7.3f}  {r['flagged_wrong']:>14.3f}"
            f"  {r['misreads_flagged']:>16.3f}"
        )
    return lines


@dataclass
class Tally:
    """Counts over many photos."""

    photos: int = 0
    truth: int = 0
    found: int = 0
    boxes_matched: int = 0
    tiles_right: int = 0
    photos_right: int = 0
    small_photos: int = 0
    small_right: int = 0
    codes_right: int = 0  # the multiset of codes is right, wherever the boxes are
    small_codes_right: int = 0  # ... for photos of at most SMALL_HAND tiles: what scoring a hand needs
    found_backs: int = 0  # face-down tiles reported (the real photos have none; synthetic scenes do)
    truth_backs: int = 0
    backs_right: int = 0  # truth face-down tiles matched by a box reported face-down
    per_class: Counter[int] = field(default_factory=Counter)  # truth class -> matched boxes
    per_class_right: Counter[int] = field(default_factory=Counter)
    confusions: Counter[tuple[int, int]] = field(default_factory=Counter)
    seconds: float = 0.0
    per_photo: list[tuple[int, int, int, bool]] = field(default_factory=list)  # tiles right, found,
    # truth, every tile right: one row a photo, in order, for paired comparisons (datasets.compare_runs)
    read: list[tuple[float, bool]] = field(default_factory=list)  # every found tile: (confidence, right)

    def add(
        self, found_xyxy: np.ndarray, found_cls: np.ndarray, found_conf: np.ndarray, truth: np.ndarray,
        truth_cls: np.ndarray,
    ) -> bool:  # fmt: skip
        """Score one photo; returns whether every tile was found with the right code and nothing extra."""
        pairs = match(found_xyxy, found_conf, truth)
        right = sum(int(found_cls[i] == truth_cls[j]) for i, j in pairs)
        correct = np.zeros(len(found_cls), bool)
        for i, j in pairs:
            correct[i] = found_cls[i] == truth_cls[j]
        self.read += list(zip(np.asarray(found_conf, float).tolist(), correct.tolist(), strict=True))
        for i, j in pairs:
            label = int(truth_cls[j])
            self.per_class[label] += 1
            if found_cls[i] == label:
                self.per_class_right[label] += 1
            else:
                self.confusions[(label, int(found_cls[i]))] += 1
        self.photos += 1
        self.truth += len(truth_cls)
        self.found += len(found_cls)
        self.found_backs += int((found_cls == BACK).sum())
        self.truth_backs += int((truth_cls == BACK).sum())
        self.backs_right += sum(int(truth_cls[j] == BACK == found_cls[i]) for i, j in pairs)
        self.boxes_matched += len(pairs)
        self.tiles_right += right
        all_right = right == len(truth_cls) == len(found_cls)
        self.photos_right += all_right
        self.per_photo.append((right, len(found_cls), len(truth_cls), bool(all_right)))
        codes_right = sorted(found_cls.tolist()) == sorted(truth_cls.tolist())
        self.codes_right += codes_right
        if len(truth_cls) <= SMALL_HAND:
            self.small_photos += 1
            self.small_right += all_right
            self.small_codes_right += codes_right
        return all_right

    def summary(self) -> dict[str, Any]:
        """The headline numbers as a plain dict."""

        def share(a: int, b: int) -> float:
            return round(a / b, 4) if b else 0.0

        precision, recall = share(self.tiles_right, self.found), share(self.tiles_right, self.truth)
        conf = np.array([c for c, _ in self.read], float)
        wrong = np.array([not r for _, r in self.read], bool)
        unsure = conf < UNCERTAIN_BELOW  # the found tiles the CLI and app mark uncertain
        return {
            "photos": self.photos,
            "truth_tiles": self.truth,
            "found_tiles": self.found,
            "found_backs": self.found_backs,
            "truth_backs": self.truth_backs,
            "back_precision": share(self.backs_right, self.found_backs),
            "back_recall": share(self.backs_right, self.truth_backs),
            "tile_precision": precision,
            "tile_recall": recall,
            "tile_f1": share(2 * self.tiles_right, self.found + self.truth),
            "detection_precision": share(self.boxes_matched, self.found),
            "detection_recall": share(self.boxes_matched, self.truth),
            "classification_accuracy": share(self.tiles_right, self.boxes_matched),
            "photos_all_right": share(self.photos_right, self.photos),
            "photos_codes_right": share(self.codes_right, self.photos),
            f"photos_le_{SMALL_HAND}_tiles": self.small_photos,
            f"photos_le_{SMALL_HAND}_all_right": share(self.small_right, self.small_photos),
            f"photos_le_{SMALL_HAND}_codes_right": share(self.small_codes_right, self.small_photos),
            "flagged_uncertain": share(int(unsure.sum()), len(conf)),
            "flagged_that_were_wrong": share(int((unsure & wrong).sum()), int(unsure.sum())),
            "unflagged_that_were_wrong": share(int((~unsure & wrong).sum()), int((~unsure).sum())),
            "seconds_per_photo": round(self.seconds / max(self.photos, 1), 4),
        }

    def flag_curve(self, marks: tuple[float, ...] = FLAG_MARKS) -> list[dict[str, float]]:
        """For each uncertainty mark: the share of found tiles below it (flagged for the player to check),
        the share of the misread or false ones among them, and the share of all misreads flagged."""
        conf = np.array([c for c, _ in self.read], float)
        wrong = np.array([not r for _, r in self.read], bool)
        rows = []
        for mark in marks:
            flagged = conf < mark
            rows.append(
                {
                    "below": mark,
                    "flagged": round(float(flagged.mean()), 4) if len(conf) else 0.0,
                    "flagged_wrong": round(float(wrong[flagged].mean()), 4) if flagged.any() else 0.0,
                    "misreads_flagged": round(float(flagged[wrong].mean()), 4) if wrong.any() else 0.0,
                }
            )
        return rows

    def per_class_table(self) -> list[dict[str, Any]]:
        """Accuracy of matched boxes per truth class, worst first."""
        rows = []
        for label, n in self.per_class.items():
            wrong = Counter({p: c for (t, p), c in self.confusions.items() if t == label})
            rows.append(
                {
                    "code": LABELS[label],
                    "boxes": n,
                    "accuracy": round(self.per_class_right[label] / n, 4),
                    "mistaken_for": {LABELS[p]: c for p, c in wrong.most_common(3)},
                }
            )
        return sorted(rows, key=lambda r: (r["accuracy"], -r["boxes"]))


def load_recognizer(
    tool: str,
    models: Path | None,
    threads: int | None,
    settings: Settings | None = None,
    sets: Sequence[str] = (),
) -> Recognizer | None:
    """The recognizer a measuring tool runs, `settings` changed by its --set flags (`sets`), or None once
    it has printed why the models would not load or a --set is wrong."""
    try:
        return Recognizer(models, threads, apply_sets(settings or Settings(), list(sets)))
    except (ModelError, ValueError) as exc:
        print(f"{tool}: {exc}", file=sys.stderr)
        return None


def iou_matrix(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Pairwise IoU of xyxy boxes."""
    if len(a) == 0 or len(b) == 0:
        return np.zeros((len(a), len(b)), np.float32)
    inter, area_a, area_b = pairwise_overlap(a, b)
    return inter / np.maximum(area_a[:, None] + area_b[None, :] - inter, 1e-9)


def match(found: np.ndarray, confidence: np.ndarray, truth: np.ndarray) -> list[tuple[int, int]]:
    """Greedy one-to-one matching, most confident first, each to its best free truth box with IoU >= 0.5."""
    overlap = iou_matrix(found, truth)
    used: set[int] = set()
    pairs = []
    for i in np.argsort(-confidence, kind="stable"):
        candidates = [j for j in np.argsort(-overlap[i]) if overlap[i, j] >= IOU and j not in used]
        if candidates:
            used.add(int(candidates[0]))
            pairs.append((int(i), int(candidates[0])))
    return pairs


# --- 12 MP variants ----------------------------------------------------------------------------------

Variant = Callable[[np.ndarray, np.ndarray], tuple[bytes, np.ndarray]]


def jpeg_bytes(rgb: np.ndarray, orientation: int | None = None, quality: int = 92) -> bytes:
    """The photo as JPEG bytes, as a phone stores it (with an EXIF orientation when given)."""
    from PIL import Image

    buf = io.BytesIO()
    image = Image.fromarray(rgb)
    if orientation is None:
        image.save(buf, "JPEG", quality=quality)
    else:
        exif = Image.Exif()
        exif[ORIENTATION] = orientation
        image.save(buf, "JPEG", quality=quality, exif=exif.tobytes())
    return buf.getvalue()


def _stretched(rgb: np.ndarray, boxes: np.ndarray, width: int, height: int) -> tuple[np.ndarray, np.ndarray]:
    import cv2

    h, w = rgb.shape[:2]
    big = cv2.resize(rgb, (width, height), interpolation=cv2.INTER_CUBIC)
    return big, boxes * np.array([width / w, height / h, width / w, height / h], np.float32)


def landscape_12mp(rgb: np.ndarray, boxes: np.ndarray) -> tuple[bytes, np.ndarray]:
    """Un-stretched to 4:3 and upscaled to 4032x3024, as a phone's landscape photo."""
    big, truth = _stretched(rgb, boxes, 4032, 3024)
    return jpeg_bytes(big), truth


def portrait_exif_12mp(rgb: np.ndarray, boxes: np.ndarray) -> tuple[bytes, np.ndarray]:
    """The same photo stored as 3024x4032 pixels with EXIF orientation 6 (shown turned 90° clockwise)."""
    big, truth = _stretched(rgb, boxes, 4032, 3024)
    stored = np.ascontiguousarray(np.rot90(big, k=1))  # turned counter-clockwise; EXIF 6 turns it back
    return jpeg_bytes(stored, orientation=6), truth


def square_12mp(rgb: np.ndarray, boxes: np.ndarray) -> tuple[bytes, np.ndarray]:
    """Upscaled to 3464x3464 (12 MP) keeping the stored square aspect: resolution alone, no aspect change."""
    big, truth = _stretched(rgb, boxes, 3464, 3464)
    return jpeg_bytes(big), truth


def wide_12mp(rgb: np.ndarray, boxes: np.ndarray) -> tuple[bytes, np.ndarray]:
    """Re-stretched by 1.33 more: 4032x2268 (16:9), as if the original was a wide photo."""
    big, truth = _stretched(rgb, boxes, 4032, 2268)
    return jpeg_bytes(big), truth


VARIANTS: dict[str, Variant] = {
    "12mp-4032x3024": landscape_12mp,
    "12mp-3024x4032-exif6": portrait_exif_12mp,
    "wide-4032x2268": wide_12mp,
    "square-3464x3464": square_12mp,
}


# --- running -----------------------------------------------------------------------------------------

SUBSETS: dict[str, Callable[[Sample], bool]] = {
    "clean labels (without the photos labelled all one code)": lambda s: not placeholder_labelled(s),
    "row strips (one row stretched to the square)": lambda s: is_row_strip(s.boxes),
    "ordinary photos (clean labels, no row strips)": lambda s: (
        not (placeholder_labelled(s) or is_row_strip(s.boxes))
    ),
}
"""Parts of the valid split reported on their own: 7 photos label every tile 1p (a placeholder, see
datasets/yolo.py), and 34 are a single row stretched to a square (datasets/row_strip.py)."""


def evaluate(
    recognizer: Recognizer,
    samples: list[Sample],
    variant: Variant | None = None,
    subsets: dict[str, Tally] | None = None,
) -> Tally:
    """Run the real pipeline on every sample (optionally turned into a variant first). Photos in one of
    SUBSETS are also counted in `subsets[name]` when that dict is given (filled in here)."""
    tally = Tally()
    if subsets is not None:
        subsets.update({name: Tally() for name in SUBSETS})
    for k, sample in enumerate(samples, 1):
        truth = sample.boxes
        if variant is None:
            source: Path | bytes = sample.image
        else:
            source, truth = variant(load_image(sample.image).rgb, sample.boxes)
        start = time.perf_counter()
        image = load_image(source)
        found = recognizer.recognize(image)
        tally.seconds += time.perf_counter() - start
        tally.add(found.xyxy, found.class_id, found.confidence, truth, sample.labels)
        for name, member in SUBSETS.items():
            if subsets is not None and member(sample):
                subsets[name].add(found.xyxy, found.class_id, found.confidence, truth, sample.labels)
        if k % 50 == 0:
            print(f"  {k}/{len(samples)} photos", file=sys.stderr)
    return tally


@dataclass
class Raw:
    """Detector boxes at a low threshold and the probabilities of all four views of every box (upright,
    upright turned over, sideways, sideways turned over), for fast setting sweeps."""

    boxes: TileBoxes
    views: np.ndarray  # (n, 4, columns), view index = 2 * sideways + flip
    scale: float
    truth: np.ndarray
    labels: np.ndarray
    rejects: bool = False  # the last column of `views` is "not a tile" (labels.json's not_a_tile)


def collect_raw(
    recognizer: Recognizer, samples: list[Sample], low: float, variant: Variant | None = None
) -> list[Raw]:
    """One detector and one classifier run per photo, at the lowest threshold of the sweep (the first pass
    only, read as the runtime reads it, mirrored and at its scales: the squeezed retry of stretched
    photos, recognizer/unstretch.py, is not part of the sweep)."""
    raws = []
    for sample in samples:
        truth = sample.boxes
        if variant is None:
            image: LoadedImage = load_image(sample.image)
        else:
            data, truth = variant(load_image(sample.image).rgb, sample.boxes)
            image = load_image(data)
        heatmap, size, offset, ratio = recognizer.detector.raw_outputs(image.rgb, recognizer.reading())
        boxes = boxes_in_image(
            decode(heatmap, size, offset, low), image.rgb.shape, ratio, iou=1.01
        )  # no NMS yet
        probs = recognizer.classifier.all_view_probabilities(image.rgb, boxes.xyxy)
        raws.append(Raw(boxes, probs, image.scale, truth, sample.labels, recognizer.classifier.rejects))
    return raws


SWEEP_THRESHOLDS = (0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5)
SWEEP_BACK_THRESHOLDS = (0.3, 0.4, 0.5, 0.6, 0.7)


def sweep(raws: list[Raw], base: Settings) -> list[dict[str, Any]]:
    """Two stages from the raw outputs: detector thresholds (face-up x face-down channel) with the base
    classifier settings; then, at the best thresholds, test-time turns x combine x square band x limits.
    Best first."""

    def run(settings: Settings) -> dict[str, Any]:
        tally = Tally()
        for raw in raws:
            found = _decide_raw(raw, settings)
            tally.add(found.xyxy, found.class_id, found.confidence, raw.truth, raw.labels)
        keys = ("threshold", "back_threshold", "turns", "combine", "square_band", "tile_limits")
        return {k: getattr(settings, k) for k in keys} | tally.summary()

    def rank(row: dict[str, Any]) -> tuple[float, float]:
        return (row["photos_all_right"], row["tile_f1"])

    rows = [
        run(replace(base, threshold=t, back_threshold=b))
        for t in SWEEP_THRESHOLDS
        for b in SWEEP_BACK_THRESHOLDS
    ]
    best = max(rows, key=rank)
    grid: list[tuple[TurnMode, Combine]] = [("none", "mean")]
    grid += [(t, c) for t in ("landscape", "all") for c in ("mean", "max")]
    tuned = replace(base, threshold=best["threshold"], back_threshold=best["back_threshold"])
    for turns, combine in grid:
        for band in (1.0, 1.25, 1.5):
            for limits in (True, False):
                row = run(replace(tuned, turns=turns, combine=combine, square_band=band, tile_limits=limits))
                if row != best:
                    rows.append(row)
    rows.sort(key=rank, reverse=True)
    return rows


def _decide_raw(raw: Raw, settings: Settings) -> Detections:
    channel_threshold = np.where(raw.boxes.back, settings.back_threshold, settings.threshold or 0.0)
    keep = np.nonzero(raw.boxes.score >= channel_threshold)[0]
    keep = keep[nms(raw.boxes.xyxy[keep], raw.boxes.score[keep], settings.nms_iou)]
    boxes = raw.boxes.select(keep)
    if len(boxes) == 0:
        return Detections.empty()
    views = raw.views[keep]
    rows, owner = [], []
    for i, box in enumerate(boxes.xyxy):
        for sideways, flip in view_plan(box, settings.turns, settings.square_band):
            rows.append(views[i, 2 * sideways + flip])
            owner.append(i)
    probs = combine_views(np.stack(rows), np.asarray(owner), len(boxes), settings.combine)
    probs, not_tile = split_not_a_tile(probs, raw.rejects)  # as Recognizer.recognize drops them
    tiles = np.nonzero(~not_tiles(boxes, probs, not_tile, settings, raw.rejects))[0]
    if len(tiles) == 0:
        return Detections.empty()
    return decide(boxes.select(tiles), probs[tiles], raw.scale, settings)


def print_report(name: str, tally: Tally, top: int = 12) -> None:
    """Headline numbers, weakest classes and the most common confusions."""
    s = tally.summary()
    print(f"\n== {name}: {s['photos']} photos, {s['truth_tiles']} truth tiles, {s['found_tiles']} found "
          f"({s['found_backs']} face-down)")  # fmt: skip
    print(f"tile precision {s['tile_precision']:.3f}  recall {s['tile_recall']:.3f}  F1 {s['tile_f1']:.3f}")
    print(f"detection-only precision {s['detection_precision']:.3f}  recall {s['detection_recall']:.3f}")
    print(f"classification accuracy of matched boxes {s['classification_accuracy']:.3f}")
    print(f"photos with every tile right {s['photos_all_right']:.3f}  "
          f"(code multiset right {s['photos_codes_right']:.3f})")  # fmt: skip
    print(f"photos of <= {SMALL_HAND} tiles: {s[f'photos_le_{SMALL_HAND}_tiles']}, every tile right "
          f"{s[f'photos_le_{SMALL_HAND}_all_right']:.3f}  (code multiset right "
          f"{s[f'photos_le_{SMALL_HAND}_codes_right']:.3f})")  # fmt: skip
    print(f"flagged uncertain (confidence < {UNCERTAIN_BELOW}) {s['flagged_uncertain']:.3f} of found tiles; "
          f"{s['flagged_that_were_wrong']:.3f} of those wrong, {s['unflagged_that_were_wrong']:.3f} of the "
          f"rest wrong")  # fmt: skip
    print("\n".join(flag_curve_lines(tally.flag_curve())))
    if s["truth_backs"]:
        print(f"face-down tiles: {s['truth_backs']} in truth, precision {s['back_precision']:.3f}  "
              f"recall {s['back_recall']:.3f}")  # fmt: skip
    print(f"seconds per photo (load + recognize) {s['seconds_per_photo']:.3f}")
    print("weakest classes (code boxes accuracy mistaken_for):")
    for row in tally.per_class_table()[:top]:
        print(f"  {row['code']:>3} {row['boxes']:4d} {row['accuracy']:.3f} {row['mistaken_for']}")
    print("top confusions (truth -> found: count):")
    for (t, p), c in tally.confusions.most_common(top):
        print(f"  {LABELS[t]} -> {LABELS[p]}: {c}")


def print_subsets(subsets: dict[str, Tally]) -> None:
    """One line of headline numbers per subset."""
    for name, tally in subsets.items():
        s = tally.summary()
        hands = s[f"photos_le_{SMALL_HAND}_all_right"]
        hand_codes = s[f"photos_le_{SMALL_HAND}_codes_right"]
        print(f"  {name}: {s['photos']} photos, tile P/R {s['tile_precision']:.3f}/{s['tile_recall']:.3f}, "
              f"detection P/R {s['detection_precision']:.3f}/{s['detection_recall']:.3f}, every tile right "
              f"{s['photos_all_right']:.3f}, <= {SMALL_HAND} tiles {hands:.3f} "
              f"(codes {hand_codes:.3f})")  # fmt: skip


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--data", help=f"dataset folder (default ../shared/datasets/...; or ${DATA_ENV})")
    parser.add_argument("--models", type=Path, help="model folder (default: the packaged models)")
    parser.add_argument("--threads", type=int, default=None, help="ONNX Runtime threads")
    parser.add_argument("--limit", type=int, default=None, help="only the first N photos")
    names = ", ".join(VARIANTS)
    parser.add_argument("--variants", nargs="*", metavar="NAME", choices=sorted(VARIANTS),
                        help=f"also evaluate 12 MP variants (all, or those named: {names})")  # fmt: skip
    parser.add_argument(
        "--audited",
        action="store_true",
        help="score valid against the labels corrected by eye (datasets/valid_audit.json)",
    )
    parser.add_argument("--skip-valid", action="store_true", help="only the variants / scenes")
    parser.add_argument(
        "--scenes",
        type=Path,
        help="also evaluate synthetic scenes from this "
        "datasets.synthetic folder (they have face-down tiles; the real photos have none)",
    )
    parser.add_argument("--scenes-from", type=int, default=300, metavar="N",
                        help="skip its first N scenes (the training stages use scenes 0..299)")  # fmt: skip
    parser.add_argument("--sweep", action="store_true", help="compare thresholds and test-time turns")
    parser.add_argument(
        "--sweep-variant", choices=sorted(VARIANTS), help="sweep on this 12 MP variant instead"
    )
    parser.add_argument("--threshold", type=float, default=None, help="detector threshold to evaluate")
    parser.add_argument("--not-a-tile-min", type=float, default=None,
                        help="drop boxes read as no tile this surely (> 1: never)")  # fmt: skip
    parser.add_argument("--pad", type=float, default=None,
                        help="classifier crop pad to evaluate (default: labels.json's pad)")  # fmt: skip
    parser.add_argument("--stretch", type=float, default=None,
                        help="squeeze a photo's long side by up to this factor for the detector (1: aspect "
                             "kept; inf: every photo to the square; default: labels.json's, else "
                             "pipeline.STRETCH)")  # fmt: skip
    parser.add_argument("--json", type=Path, help="write the numbers to this file")
    add_set_flag(parser)
    args = parser.parse_args(argv)

    root = data_dir(args.data)
    has_valid = (root / "valid" / "images").is_dir()
    if not has_valid and not (args.skip_valid and args.variants is None and not args.sweep):
        print(f"skipping: valid split not found at {root} (pass --data or set {DATA_ENV})", file=sys.stderr)
        return 0
    samples = read_split(root, "valid")[: args.limit] if has_valid else []  # only scenes need none
    if args.audited:
        try:
            samples, changed = audited(samples, load_fixes())
        except AuditMismatch as exc:
            print(f"evaluate: {exc}", file=sys.stderr)
            return 2
        print(f"audited labels: {changed} labels corrected ({AUDIT_FILE.name})", file=sys.stderr)
    settings = replace(Settings(), detector_stretch=args.stretch)
    if args.threshold is not None:
        settings = replace(settings, threshold=args.threshold)
    if args.not_a_tile_min is not None:
        settings = replace(settings, not_a_tile_min=args.not_a_tile_min)
    if args.pad is not None:
        if not 0 <= args.pad < 0.5:
            print("evaluate: --pad must lie between 0 and 0.5", file=sys.stderr)
            return 2
        settings = replace(settings, crop_pad=args.pad)
    recognizer = load_recognizer("evaluate", args.models, args.threads, settings, args.set)
    if recognizer is None:
        return 2
    settings = recognizer.settings  # the threshold resolved from labels.json
    out: dict[str, Any] = {"settings": asdict(settings), "data": str(root), "audited_labels": args.audited}

    if args.sweep:
        variant = VARIANTS[args.sweep_variant] if args.sweep_variant else None
        print(f"collecting raw outputs for {len(samples)} photos ...", file=sys.stderr)
        rows = sweep(collect_raw(recognizer, samples, min(SWEEP_THRESHOLDS), variant), settings)
        print("thresh back turns     combine band limits tileP  tileR  F1     allright <=18right "
              "flagged/wrong")  # fmt: skip
        for r in rows[:25]:
            print(f"{r['threshold']:<6} {r['back_threshold']:<4} {r['turns']:<9} {r['combine']:<7} "
                  f"{r['square_band']:<4} {r['tile_limits']!s:<6} "
                  f"{r['tile_precision']:.3f}  {r['tile_recall']:.3f}  {r['tile_f1']:.3f}  "
                  f"{r['photos_all_right']:.3f}    "
                  f"{r[f'photos_le_{SMALL_HAND}_all_right']:.3f}     {r['flagged_uncertain']:.2f}/"
                  f"{r['flagged_that_were_wrong']:.2f}")  # fmt: skip
        out["sweep"] = rows

    if not args.skip_valid:
        print(f"evaluating {len(samples)} valid photos ...", file=sys.stderr)
        subsets: dict[str, Tally] = {}
        tally = evaluate(recognizer, samples, subsets=subsets)
        print_report("valid (640x640 as stored)", tally)
        print_subsets(subsets)
        out["valid"] = tally.summary() | {
            "per_class": tally.per_class_table(),
            "flag_curve": tally.flag_curve(),
        }
        out["valid_subsets"] = {name: t.summary() | {"per_photo": t.per_photo} for name, t in subsets.items()}
    chosen = [] if args.variants is None else [n for n in VARIANTS if not args.variants or n in args.variants]
    if args.variants is not None:
        out["variants"] = {}
        for name in chosen:
            variant = VARIANTS[name]
            print(f"evaluating variant {name} ...", file=sys.stderr)
            subsets = {}
            tally = evaluate(recognizer, samples, variant, subsets)
            print_report(f"variant {name}", tally)
            print_subsets(subsets)
            out["variants"][name] = tally.summary() | {
                "per_class": tally.per_class_table(),
                "subsets": {sub: t.summary() for sub, t in subsets.items()},
            }
    if args.scenes is not None:
        scenes = read_folder(args.scenes)[args.scenes_from :][: args.limit]
        if not scenes:
            print(f"evaluate: no scenes after the first {args.scenes_from} in {args.scenes}", file=sys.stderr)
            return 2
        out["scenes"] = {"folder": str(args.scenes), "from": args.scenes_from}
        scene_variants: list[str | None] = [None, *chosen]  # as generated (640x480), then 12 MP variants
        for scene_variant in scene_variants:
            label = scene_variant or "as generated"
            print(
                f"evaluating {len(scenes)} synthetic scenes from {args.scenes} ({label}) ...", file=sys.stderr
            )
            tally = evaluate(recognizer, scenes, VARIANTS[scene_variant] if scene_variant else None)
            print_report(f"synthetic scenes {args.scenes} [{args.scenes_from}:], {label}", tally)
            out["scenes"][label] = tally.summary() | {"per_class": tally.per_class_table()}
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(out, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
