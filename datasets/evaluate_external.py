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
import json
import sys
from dataclasses import asdict, replace
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from datasets.evaluate import load_recognizer
from datasets.external_crops import HK_DIR, evaluate_crops, print_crops, read_crops
from datasets.external_riichi import IOU, RIICHI_DIR, evaluate_riichi, print_riichi, read_riichi
from datasets.settings_flags import add_set_flag
from datasets.yolo import PROJECT_ROOT
from recognizer.pipeline import Recognizer, Settings

VIEWS: dict[str, tuple[int, int] | None] = {
    "640x360": (640, 360),
    "stored 640x640": None,
    "1138x640": (1138, 640),
}
"""How a stored riichi-rows photo is read: resized to (width, height), or None: as stored. 640x360 is the
photo as taken (2560x1440 / 4); 1138x640 is 16:9 keeping all 640 stored rows."""
HEADLINE = "640x360"


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
    for name in ("detector.onnx", "classifier.onnx"):
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
