"""`mahjong-nts recognize IMAGE... [--json | --hand]`: tiles per photo as JSON lines or a readable summary;
with --hand also the hand they propose (`mahjong_nts.reading`), as the `score` command takes it."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from mahjong_nts.batch.runner import find_photos
from mahjong_nts.cli.common import fraction
from mahjong_nts.messages import one_line
from mahjong_nts.reading.hand import hand_json
from mahjong_nts.reading.tiles import (
    UNCERTAIN_BELOW,
    grouped_codes,
    looks_unfamiliar,
    tiles_from_detections,
    tiles_from_records,
)
from recognizer.detections import Detections
from recognizer.errors import ImageError, ModelError, ProfileError
from recognizer.imageio import LoadedImage, load_image
from recognizer.labels import LABELS
from recognizer.pipeline import Recognizer, get_recognizer
from recognizer.set_profile import read_profile
from scoring.jsonread import dumps, show_path


def add_parser(subparsers: Any) -> None:
    """Register the `recognize` subcommand on the dispatcher's subparsers."""
    parser = subparsers.add_parser(
        "recognize",
        help="find and read the tiles in photos",
        description="Find the mahjong tiles in each photo and read their codes, row by row.",
    )
    parser.add_argument(
        "images",
        nargs="+",
        metavar="IMAGE",
        help="photos (JPEG, PNG, WebP, HEIC or AVIF); a folder stands for the photos in it",
    )
    parser.add_argument("--json", action="store_true", help="one JSON object per photo per line on stdout")
    parser.add_argument(
        "--hand",
        action="store_true",
        help='JSON lines with the proposed hand too: "hand" (the score input, or null and a "reason") '
        'and "assumed" (what was assumed, how sure)',
    )
    parser.add_argument(
        "--annotate", metavar="OUT_DIR", type=Path, help="also write each photo with boxes drawn"
    )
    parser.add_argument(
        "--min-confidence", metavar="X", type=fraction, default=0.0, help="leave out tiles below X (0..1)"
    )
    parser.add_argument(
        "--models", metavar="DIR", type=Path, help="model folder (default: the packaged models)"
    )
    parser.add_argument("--threads", metavar="N", type=_positive_int, help="CPU threads per model")
    parser.add_argument(
        "--set-profile",
        metavar="FILE",
        type=Path,
        help="read the tiles with a set profile made by `mahjong-nts learn-set` (your club's own set)",
    )
    parser.set_defaults(run=run)


def _positive_int(text: str) -> int:
    if not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"must be a whole number of at least 1, got {text!r}")
    return int(text)


def run(args: argparse.Namespace) -> int:
    """Recognise every photo in order; exit 1 if any could not be read, 2 if the models are unusable."""
    try:
        recognizer = (
            Recognizer(args.models, args.threads) if args.models or args.threads else get_recognizer()
        )
        if args.set_profile is not None:
            recognizer = recognizer.with_profile(read_profile(args.set_profile))
    except (ModelError, ProfileError) as exc:
        print(f"mahjong-nts recognize: {one_line(exc)}", file=sys.stderr)
        return 2
    failures = 0
    args.images = photo_names(args.images)
    targets = AnnotatedNames(args.images)
    for index, name in enumerate(args.images, start=1):
        if len(args.images) > 1:
            print(f"[{index}/{len(args.images)}] {show_path(name)}", file=sys.stderr)
        record = recognize_one(recognizer, name, args.min_confidence, args.annotate, targets, args.hand)
        failures += record["error"] is not None
        as_json = args.json or args.hand
        print(dumps(record) if as_json else summary(record), flush=True)  # valid UTF-8 for any name
    if failures:
        print(f"mahjong-nts recognize: {failures} of {len(args.images)} photos failed", file=sys.stderr)
    return 1 if failures else 0


def photo_names(names: Sequence[str]) -> list[str]:
    """The names given, a folder replaced by the photos in it (not its subfolders; in the order `batch`
    reads them). A folder without photos stays, so its line says why nothing was read."""
    out: list[str] = []
    for name in names:
        photos = find_photos(Path(name), False, Path(name).resolve()) if os.path.isdir(name) else []
        out.extend([str(photo) for photo in photos] or [name])
    return out


def recognize_one(
    recognizer: Recognizer,
    name: str,
    min_confidence: float,
    annotate_dir: Path | None,
    targets: AnnotatedNames | None = None,
    with_hand: bool = False,
) -> dict[str, Any]:
    """The CONTRACT object for one photo; a photo that cannot be read gives `error` and no tiles (and with
    `with_hand`, "hand": null and its reason)."""
    record: dict[str, Any] = {"image": name, "width": None, "height": None, "error": None, "tiles": []}
    if with_hand:
        record.update(hand=None, assumed=[], reason="the photo could not be read")
    if os.path.isdir(name):  # photo_names left it: it holds no photos
        record["error"] = f"{name}: a folder with no photos in it (JPEG, PNG, WebP, HEIC or AVIF)"
        return record
    try:
        image = load_image(name)
        record["width"], record["height"] = image.width, image.height
        detections = recognizer.recognize(image)
    except ImageError as exc:
        record["error"] = str(exc)
        return record
    except Exception as exc:  # one bad photo must not stop a batch; reported in its line
        record["error"] = f"{name}: recognition failed ({type(exc).__name__}: {one_line(exc, 200)})"
        return record
    detections = detections[detections.confidence >= min_confidence]
    record["tiles"] = detections.to_records()
    if with_hand:
        record.update(hand_json(tiles_from_detections(detections, LABELS)))
    if annotate_dir is not None:
        try:
            target = (targets or AnnotatedNames([name])).target(annotate_dir, name)
            record["annotated"] = str(write_annotated(image, detections, target))
        except OSError as exc:
            record["error"] = f"{name}: cannot write annotated photo ({exc.strerror or exc})"
    return record


class AnnotatedNames:
    """Where `--annotate DIR` writes each photo: DIR/<stem>-<ext>.jpg as batch does (hand1.png and hand1.jpg
    apart), a number added on a clash, and never over one of the photos being read (DIR may be their
    folder, and one of them may be called hand1-png.jpg); a name over 255 bytes shortened as batch's."""

    def __init__(self, inputs: Sequence[str]) -> None:
        self._used: set[str] = set()
        self._inputs: set[tuple[int, int]] = set()
        for name in inputs:
            try:
                found = os.stat(name)
            except OSError:
                continue
            self._inputs.add((found.st_dev, found.st_ino))

    def _is_input(self, path: Path) -> bool:
        try:
            found = path.stat()
        except OSError:
            return False
        return (found.st_dev, found.st_ino) in self._inputs

    def target(self, folder: Path, name: str) -> Path:
        """The file to write the annotated `name` to; each call gives a new one."""
        from mahjong_nts.batch.outputs import short_name  # names within 255 bytes, as batch's images

        photo = Path(name)
        base = f"{photo.stem or 'photo'}-{photo.suffix[1:] or 'image'}"
        candidate, n = short_name(f"{base}.jpg"), 1
        while candidate in self._used or self._is_input(folder / candidate):
            n += 1
            candidate = short_name(f"{base}-{n}.jpg")
        self._used.add(candidate)
        return folder / candidate


def write_annotated(image: LoadedImage, detections: Detections, target: Path) -> Path:
    """Save the photo with its boxes drawn as the JPEG `target` (its folder made when missing)."""
    from PIL import Image

    from recognizer.annotate import annotate

    target.parent.mkdir(parents=True, exist_ok=True)
    drawn = annotate(image, detections)  # the default style: uncertain below UNCERTAIN_BELOW, in red
    Image.fromarray(drawn).save(target, format="JPEG", quality=90)
    return target


def summary(record: dict[str, Any]) -> str:
    """Readable lines for one photo: size, tile count, codes per row, uncertain tiles."""
    if record["error"]:
        return show_path(f"{record['image']}: error: {record['error']}")
    tiles = record["tiles"]
    lines = [f"{show_path(record['image'])}  {record['width']}x{record['height']}  {len(tiles)} tiles"]
    if not tiles:
        lines.append("  no tiles found: is the hand in the photo, lit and in focus?")
    for row in sorted({t["row"] for t in tiles}):
        codes = [t["code"] for t in tiles if t["row"] == row]
        lines.append(f"  row {row + 1}: {grouped_codes(codes)}")
    unsure = [f"{t['code']} {t['confidence']:.2f}" for t in tiles if t["confidence"] < UNCERTAIN_BELOW]
    if unsure:
        lines.append(f"  uncertain: {', '.join(unsure)}")
    if looks_unfamiliar(tiles_from_records(tiles)):
        lines.append(
            "  many tiles uncertain: this tile set may be new to the recognizer; "
            "`mahjong-nts learn-set` teaches it, --set-profile reads with it"
        )
    return "\n".join(lines)
