"""The recognizer on synthetic world scenes (datasets/world_scenes.py), by kind of scene: tile precision,
recall and F1, boxes found apart from naming (box precision and recall, and the share of found tiles named
right), laid-out hands fully right, flowers and seasons right, and precision on clutter; then tile F1 by
artwork and each flower and season's found boxes named right (the JSON adds every code's accuracy and
what it was mistaken for, worst first).

Run it on scenes of the held-out artworks (never trained on, never used to choose a setting) for the honest
figure, and on train-artwork scenes for comparison:

    .venv/bin/python -m datasets.world_scenes --out runs/world_heldout --count 600 --split heldout --seed 100
    .venv/bin/python -m datasets.evaluate_world runs/world_heldout [--models DIR] [--json runs/world.json]
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np

from datasets.evaluate import Tally, evaluate, flag_curve_lines, landscape_12mp, load_recognizer
from datasets.settings_flags import add_set_flag
from datasets.yolo import LABELS, read_folder
from recognizer.pipeline import Recognizer, Settings

HAND_KINDS = ("hand_row", "distance")
"""Kinds whose scenes are a laid-out hand (a row with its melds): "hands fully right" counts these."""


KINDS_FILE = "kinds.json"
"""The manifest datasets.world_scenes writes beside a scene folder's images: stem -> kind and artwork."""


def scene_kinds(folder: Path, tool: str) -> dict[str, dict[str, str]] | None:
    """A scene folder's manifest, or None once `tool` has said that the folder has none."""
    path = folder / KINDS_FILE
    if not path.is_file():
        print(f"{tool}: {folder} has no {KINDS_FILE} (make it with datasets.world_scenes)", file=sys.stderr)
        return None
    kinds: dict[str, dict[str, str]] = json.loads(path.read_text())
    return kinds


def write_report(path: Path | None, folder: Path, models: Path | None, out: dict[str, Any]) -> None:
    """Write a tool's numbers on `folder` as JSON to `path` (nothing when None), with what was measured."""
    if path is None:
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"folder": str(folder), "models": str(models), **out}, indent=1))


def bonus_right(tally: Tally) -> tuple[int, int]:
    """Flowers and seasons found with the right code, and how many were found at all (matched boxes)."""
    bonus = [k for k, code in enumerate(LABELS) if code[-1] in "fy"]
    return sum(tally.per_class_right[k] for k in bonus), sum(tally.per_class[k] for k in bonus)


def bonus_truth(samples: list[Any]) -> int:
    """Flowers and seasons in the scenes' labels."""
    bonus = np.array([code[-1] in "fy" for code in LABELS])
    return int(sum(bonus[s.labels].sum() for s in samples))


def report(
    folder: Path,
    kinds: dict[str, dict[str, str]],
    recognizer: Recognizer,
    limit: int | None,
    twelve_mp: bool,
) -> dict[str, Any]:
    """Evaluate every kind of scene in `folder` (`kinds`: its manifest); the numbers by kind and overall."""
    scenes = read_folder(folder)[:limit]
    out: dict[str, Any] = {}
    by_kind: dict[str, list[Any]] = {}
    for s in scenes:
        by_kind.setdefault(kinds.get(s.image.stem, {}).get("kind", "unknown"), []).append(s)
    variant = landscape_12mp if twelve_mp else None
    total = Tally()
    order: list[str] = []  # each evaluated scene's artwork, in the order of total.per_photo
    for kind, members in sorted(by_kind.items()):
        print(f"{kind}: {len(members)} scenes ...", file=sys.stderr)
        tally = evaluate(recognizer, members, variant)
        right, found = bonus_right(tally)
        summary = tally.summary()
        out[kind] = {
            "scenes": len(members),
            "tile_precision": summary["tile_precision"],
            "tile_recall": summary["tile_recall"],
            "tile_f1": summary["tile_f1"],
            "detection_recall": summary["detection_recall"],
            "box_precision": summary["detection_precision"],
            "named_right": summary["classification_accuracy"],
            "photos_all_right": summary["photos_all_right"],
            "photos_codes_right": summary["photos_codes_right"],
            "bonus_truth": bonus_truth(members),
            "bonus_right": right,
            "bonus_found": found,
            "seconds_per_photo": summary["seconds_per_photo"],
        }
        for field in (
            "photos",
            "truth",
            "found",
            "boxes_matched",
            "tiles_right",
            "photos_right",
            "codes_right",
        ):
            setattr(total, field, getattr(total, field) + getattr(tally, field))
        total.per_photo += tally.per_photo
        total.read += tally.read
        total.per_class += tally.per_class
        total.per_class_right += tally.per_class_right
        total.confusions += tally.confusions
        order += [kinds.get(s.image.stem, {}).get("artwork", "unknown") for s in members]
    hands = [out[k] for k in HAND_KINDS if k in out]
    n_hands = sum(h["scenes"] for h in hands)
    bonus_t = sum(v["bonus_truth"] for v in out.values())
    overall = total.summary()
    out["all"] = {
        "scenes": total.photos,
        **{key: overall[key] for key in ("tile_precision", "tile_recall", "tile_f1", "detection_recall")},
        "box_precision": overall["detection_precision"],
        "named_right": overall["classification_accuracy"],
        "hands_codes_right": round(
            sum(h["photos_codes_right"] * h["scenes"] for h in hands) / max(n_hands, 1), 4
        ),
        "bonus_right": round(sum(v["bonus_right"] for v in out.values()) / max(bonus_t, 1), 4),
        **{
            key: overall[key]
            for key in ("flagged_uncertain", "flagged_that_were_wrong", "unflagged_that_were_wrong")
        },
        "flag_curve": total.flag_curve(),
        "per_photo": total.per_photo,
        "per_class": total.per_class_table(),
    }
    out["by_artwork"] = by_artwork(order, total.per_photo)
    return out


def by_artwork(artworks: list[str], per_photo: list[tuple[int, int, int, bool]]) -> dict[str, Any]:
    """Tile precision, recall and F1 and photos fully right per artwork, from per-photo rows in order."""
    rows: dict[str, list[tuple[int, int, int, bool]]] = {}
    for artwork, row in zip(artworks, per_photo, strict=True):
        rows.setdefault(artwork, []).append(row)
    out: dict[str, Any] = {}
    for artwork, members in sorted(rows.items()):
        right, found, truth = (sum(r[k] for r in members) for k in range(3))
        out[artwork] = {
            "scenes": len(members),
            "tile_precision": round(right / max(found, 1), 4),
            "tile_recall": round(right / max(truth, 1), 4),
            "tile_f1": round(2 * right / max(found + truth, 1), 4),
            "photos_all_right": round(sum(r[3] for r in members) / len(members), 4),
        }
    return out


def bonus_per_class(per_class: list[dict[str, Any]]) -> str:
    """One line: each flower and season's found boxes named right, e.g. "1f 3/20, 2f 5/19"."""
    rows = sorted((r for r in per_class if r["code"][-1] in "fy"), key=lambda r: r["code"])
    return ", ".join(f"{r['code']} {round(r['accuracy'] * r['boxes'])}/{r['boxes']}" for r in rows)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("folder", type=Path, help="a datasets.world_scenes folder (with kinds.json)")
    ap.add_argument("--models", type=Path, help="model folder (default: the packaged models)")
    ap.add_argument("--threads", type=int, default=None)
    ap.add_argument("--limit", type=int, default=None, help="only the first N scenes")
    ap.add_argument("--12mp", dest="twelve_mp", action="store_true", help="scenes upscaled to 4032x3024")
    ap.add_argument("--no-zoom", action="store_true", help="without the zoomed reading of small tiles")
    ap.add_argument(
        "--stretch",
        type=float,
        default=None,
        help="squeeze a photo's long side by up to this factor for the detector (1: aspect kept; inf: "
        "every photo to the square; default: labels.json's, else pipeline.STRETCH)",
    )
    ap.add_argument(
        "--threshold", type=float, default=None, help="detector threshold (default labels.json's)"
    )
    ap.add_argument(
        "--not-a-tile-min", type=float, default=None, help="drop boxes read as no tile this surely"
    )
    ap.add_argument("--json", type=Path, help="write the numbers to this file")
    add_set_flag(ap)
    args = ap.parse_args(argv)
    kinds = scene_kinds(args.folder, "evaluate_world")
    if kinds is None:
        return 2
    settings = replace(
        Settings(),
        zoom_small_tiles=not args.no_zoom,
        detector_stretch=args.stretch,
        threshold=args.threshold,
    )
    if args.not_a_tile_min is not None:
        settings = replace(settings, not_a_tile_min=args.not_a_tile_min)
    recognizer = load_recognizer("evaluate_world", args.models, args.threads, settings, args.set)
    if recognizer is None:
        return 2
    out = report(args.folder, kinds, recognizer, args.limit, args.twelve_mp)
    print(
        f"{'kind':<10} {'scenes':>6} {'tileP':>6} {'tileR':>6} {'F1':>6} {'boxP':>6} {'boxR':>6}"
        f" {'named':>6} {'codes right':>11} {'bonus':>9}"
    )
    for kind, r in out.items():
        if kind in ("all", "by_artwork"):
            continue
        print(
            f"{kind:<10} {r['scenes']:>6} {r['tile_precision']:>6.3f} {r['tile_recall']:>6.3f}"
            f" {r['tile_f1']:>6.3f} {r['box_precision']:>6.3f} {r['detection_recall']:>6.3f}"
            f" {r['named_right']:>6.3f} {r['photos_codes_right']:>11.3f}"
            f" {r['bonus_right']:>4}/{r['bonus_truth']:<4}"
        )
    a = out["all"]
    print(
        f"all: tile P/R/F1 {a['tile_precision']:.3f}/{a['tile_recall']:.3f}/{a['tile_f1']:.3f}, "
        f"boxes P/R {a['box_precision']:.3f}/{a['detection_recall']:.3f}, "
        f"named right {a['named_right']:.3f}, "
        f"laid-out hands codes right {a['hands_codes_right']:.3f}, "
        f"flowers and seasons right {a['bonus_right']:.3f}"
    )
    print(f"{'artwork':<22} {'scenes':>6} {'tileP':>6} {'tileR':>6} {'F1':>6} {'all right':>9}")
    for artwork, r in out["by_artwork"].items():
        print(
            f"{artwork:<22} {r['scenes']:>6} {r['tile_precision']:>6.3f} {r['tile_recall']:>6.3f}"
            f" {r['tile_f1']:>6.3f} {r['photos_all_right']:>9.3f}"
        )
    print(
        f"flagged uncertain {a['flagged_uncertain']:.3f} of found tiles, of which wrong "
        f"{a['flagged_that_were_wrong']:.3f}; unflagged but wrong {a['unflagged_that_were_wrong']:.3f}"
    )
    print("\n".join(flag_curve_lines(a["flag_curve"])))
    print(f"flowers and seasons found, named right by code: {bonus_per_class(a['per_class'])}")
    write_report(args.json, args.folder, args.models, out)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
