"""One photo of a batch: read the tiles, save the annotated image, build the hand and score it.

Runs inside a worker process. Every failure becomes the photo's `error` (one line); nothing here raises for
a bad photo. The tile reader is injected (`PhotoReader`), so tests can run the batch without ONNX models.
"""

from __future__ import annotations

import io
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

import numpy as np

from mahjong_nts.batch.outputs import atomic_write_bytes, short_name
from mahjong_nts.batch.sidecar import PhotoContext
from mahjong_nts.batch.suggest import NO_SHAPE, completing_swap
from mahjong_nts.messages import in_dutch, one_line
from mahjong_nts.reading.hand import propose_hand
from mahjong_nts.reading.tiles import tiles_from_records

ANNOTATED_DIR = "annotated"
ANNOTATED_MAX_SIDE = 1280  # px: ~200 dpi across a printed page; small enough for 300 photos


class PhotoUnreadable(ValueError):
    """The file is not an image the reader can decode (corrupt, empty, not an image); one line."""


@dataclass
class PhotoRead:
    """What the reader saw: original size, tiles in reading order, the annotated RGB image.

    Each tile is a CONTRACT `recognize --json` tile object: code (or "back"), confidence, box [x0, y0, x1,
    y1] in original pixels, row, alternatives [{code, confidence}] (`recognizer.Detections.to_records`).
    """

    width: int
    height: int
    tiles: list[dict[str, Any]]
    annotated: np.ndarray


class PhotoReader(Protocol):
    """Reads one photo; raises PhotoUnreadable for a file that is not a readable image."""

    def read(self, path: Path) -> PhotoRead: ...


ReaderFactory = Callable[[int], PhotoReader]  # threads -> reader; must be picklable (module-level)


class RecognizerReader:
    """The real reader: recognizer.load_image, Recognizer.recognize and recognizer.annotate."""

    def __init__(self, threads: int | None = None, set_profile: str | None = None) -> None:
        import recognizer  # imported here: ONNX Runtime and OpenCV load only where photos are read

        self._recognizer_module = recognizer
        self._recognizer = recognizer.Recognizer(threads=threads)
        if set_profile is not None:  # a club's own set (`mahjong-nts learn-set`)
            self._recognizer = self._recognizer.with_profile(recognizer.read_profile(set_profile))

    def read(self, path: Path) -> PhotoRead:
        rec = self._recognizer_module
        try:
            image = rec.load_image(path)
        except rec.ImageError as problem:
            text = one_line(problem)  # "<path>: reason"; the row already names the file
            raise PhotoUnreadable(text.removeprefix(f"{path}: ")) from None
        detections = self._recognizer.recognize(image)
        return PhotoRead(image.width, image.height, detections.to_records(), rec.annotate(image, detections))


@dataclass(frozen=True)
class PhotoJob:
    """One photo to do: its path relative to FOLDER, absolute path, context, fingerprint, annotated path."""

    rel: str
    path: str
    fingerprint: str
    context: PhotoContext = field(default_factory=PhotoContext)

    @property
    def annotated_rel(self) -> str:
        """annotated/<folders>/<stem>-<ext>.jpg: one file per photo, also for hand1.jpg next to hand1.png; a
        name too long for the file system is shortened with a hash of it (`outputs.short_name`)."""
        rel = Path(self.rel)
        return (Path(ANNOTATED_DIR) / rel.parent / short_name(f"{rel.stem}-{rel.suffix[1:]}.jpg")).as_posix()


def new_record(job: PhotoJob, error: str | None = None) -> dict[str, Any]:
    """A photo's record before anything is known (or with only an error): every key present."""
    return {
        "file": job.rel,
        "fingerprint": job.fingerprint,
        "sidecar": job.context.sidecar,
        "given_by": job.context.source,
        "width": None,
        "height": None,
        "tiles": [],
        "hand": None,
        "assumed": [],
        "result": None,
        "annotated": None,
        "suggestion": None,
        "error": error,
        "error_nl": None,
    }


def process_photo(job: PhotoJob, reader: PhotoReader, out_dir: Path) -> dict[str, Any]:
    """Read, annotate, plan and score one photo; the durable record for results.jsonl."""
    from scoring import InputError, describe, hand_from_dict, hand_to_dict, score_hand

    started = time.perf_counter()
    record = new_record(job)
    try:
        photo = reader.read(Path(job.path))
    except PhotoUnreadable as problem:
        record["error"] = f"unreadable image: {one_line(problem)}"
    except Exception as problem:  # a reader bug must not stop the batch; the row says what happened
        record["error"] = f"recognizer failed: {type(problem).__name__}: {one_line(problem)}"
    else:
        record["width"], record["height"] = photo.width, photo.height
        record["tiles"] = photo.tiles
        try:
            save_annotated(photo.annotated, out_dir / job.annotated_rel)
            record["annotated"] = job.annotated_rel
        except (OSError, ValueError) as problem:
            record["error"] = f"cannot write the annotated image: {one_line(problem)}"
        if job.context.error:
            record["error"] = job.context.error
        elif record["error"] is None:
            read = tiles_from_records(photo.tiles)
            try:
                plan = propose_hand(read, job.context.given)
                record["hand"], record["assumed"] = plan.hand, list(plan.assumed_text)
                hand = hand_from_dict(plan.hand)
                record["hand"] = hand_to_dict(hand)
                record["result"] = score_hand(hand).to_dict()
                if record["result"].get("reason_code") == NO_SHAPE:
                    record["suggestion"] = completing_swap(read, job.context.given)
            except InputError as problem:
                record["error"] = f"hand: {one_line(problem)}"
                record["error_nl"] = f"hand: {in_dutch(one_line(describe(problem, 'nl')))}"
            except Exception as problem:  # a scorer bug: this photo's error, the batch goes on
                record["error"] = f"scoring failed: {type(problem).__name__}: {one_line(problem)}"
    record["seconds"] = round(time.perf_counter() - started, 3)
    return record


def save_annotated(rgb: np.ndarray, path: Path) -> None:
    """Write the annotated image as JPEG, at most ANNOTATED_MAX_SIDE px, atomically."""
    from PIL import Image

    image = Image.fromarray(np.ascontiguousarray(rgb, dtype=np.uint8)).convert("RGB")
    image.thumbnail((ANNOTATED_MAX_SIDE, ANNOTATED_MAX_SIDE), resample=Image.Resampling.BILINEAR)
    buffer = io.BytesIO()
    image.save(buffer, format="JPEG", quality=85)
    path.parent.mkdir(parents=True, exist_ok=True)
    atomic_write_bytes(path, buffer.getvalue())
