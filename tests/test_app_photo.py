"""Reading a photo for the app: plain records from detections, the per-photo cache, the drawn boxes."""

from __future__ import annotations

import io
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from PIL import Image

from mahjong_nts.app.photo import (
    PhotoReader,
    PhotoReading,
    draw_tiles,
    photo_key,
    picture_only,
    reading_from_detections,
)
from mahjong_nts.reading.tiles import TileRead

HAND1 = Path(__file__).resolve().parent.parent / "samples" / "hand1.jpg"
LABELS = ("1m", "2m", "7z", "6z", "back")


@dataclass
class FakeImage:
    rgb: np.ndarray
    scale: float


@dataclass
class FakeDetections:
    xyxy: np.ndarray
    confidence: np.ndarray
    class_id: np.ndarray
    alt_class_id: np.ndarray
    alt_confidence: np.ndarray
    row: np.ndarray

    def __len__(self) -> int:
        return len(self.class_id)


def test_detections_become_tiles_with_alternatives_in_reading_order() -> None:
    detections = FakeDetections(
        xyxy=np.array([[0, 0, 10, 20], [12, 0, 22, 20]], np.float32),
        confidence=np.array([0.95, 0.45], np.float32),
        class_id=np.array([0, 3]),
        alt_class_id=np.array([[0, 1, 2], [3, 2, 4]]),
        alt_confidence=np.array([[0.95, 0.01, 0.01], [0.45, 0.40, 0.1]], np.float32),
        row=np.array([0, 1]),
    )
    image = FakeImage(np.zeros((20, 30, 3), np.uint8), 0.5)
    reading = reading_from_detections("k", image, detections, LABELS)
    assert [t.code for t in reading.tiles] == ["1m", "6z"]
    assert reading.tiles[0].alternatives == ()  # 1 % alternatives are noise
    assert reading.tiles[1].alternatives == ("7z", "back")
    assert reading.tiles[1].box == (12.0, 0.0, 22.0, 20.0)
    assert [t.row for t in reading.tiles] == [0, 1]
    assert reading.scale == 0.5


def test_reader_recognizes_each_photo_once_and_turns_failures_into_messages() -> None:
    seen: list[str] = []

    def read(data: bytes, key: str) -> PhotoReading:
        seen.append(key)
        if data == b"boom":
            raise RuntimeError("model exploded\nwith details")
        return PhotoReading(key)

    reader = PhotoReader(read, capacity=2)
    assert reader(b"a") is reader(b"a")
    assert reader.calls == 1
    failed = reader(b"boom")
    assert failed.error == "recognition failed: model exploded with details"
    reader(b"c")
    reader(b"a")  # pushed out of the two-photo cache by now
    assert seen == [photo_key(b"a"), photo_key(b"boom"), photo_key(b"c"), photo_key(b"a")]


def test_picture_only_shows_a_photo_and_explains_a_non_image() -> None:
    shown = picture_only(HAND1.read_bytes(), "k", warning="no models")
    assert shown.error is None and shown.warning == "no models"
    assert shown.image is not None and shown.image.shape == (640, 640, 3)
    broken = picture_only(b"%PDF-1.4 not a photo", "k", warning="")
    assert broken.error is not None and broken.error.startswith("not a readable image")


def test_large_photos_are_shown_downscaled() -> None:
    data = io.BytesIO()
    Image.new("RGB", (3200, 1600), (10, 120, 40)).save(data, format="JPEG")
    shown = picture_only(data.getvalue(), "k", warning="")
    assert shown.image is not None and shown.image.shape == (800, 1600, 3) and shown.scale == 0.5


def test_boxes_are_drawn_in_the_colour_of_their_state() -> None:
    image = np.full((200, 300, 3), 255, np.uint8)
    reading = PhotoReading(key="k", image=image, scale=0.5)
    unsure = TileRead("7z", 0.3, (40, 200, 120, 360), read_as="7z")
    corrected = TileRead("2m", 0.9, (300, 100, 380, 220), read_as="1m")
    drawn = draw_tiles(reading, [unsure, TileRead("1m"), corrected])
    assert drawn.shape == image.shape
    assert tuple(drawn[130, 20]) == (230, 120, 0)  # left edge of the box, scaled by 0.5, in orange
    assert tuple(drawn[80, 150]) == (40, 110, 230)  # the corrected tile's box in blue
    assert (image == 255).all()  # the photo itself is untouched


def test_the_app_draws_with_the_recognizers_annotator() -> None:
    import mahjong_nts.app.photo as photo
    from recognizer.annotate import TileAnnotator

    assert isinstance(photo.PHOTO_STYLE, TileAnnotator)
    assert photo.PHOTO_STYLE.numbered and photo.PHOTO_STYLE.alternate
    source = Path(photo.__file__).read_text(encoding="utf-8")
    assert "ImageDraw" not in source and "rectangle" not in source  # no drawing code of its own
