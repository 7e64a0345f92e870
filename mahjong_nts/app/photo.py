"""A photo read once: the recognizer's tiles as plain records, cached per photo, and the photo drawn with
numbered boxes that follow the player's corrections (recognizer.annotate's annotator, in the app's style)."""

from __future__ import annotations

import hashlib
import io
import threading
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from PIL import Image, ImageOps, UnidentifiedImageError

from mahjong_nts.messages import in_dutch, one_line
from mahjong_nts.reading.tiles import TileRead, tiles_from_detections
from recognizer.annotate import Mark, TileAnnotator


@dataclass(frozen=True)
class PhotoReading:
    """What one photo gave: its tiles in reading order, the picture to show, or a one-line error."""

    key: str
    tiles: tuple[TileRead, ...] = ()
    image: np.ndarray | None = None  # RGB as displayed (maybe downscaled)
    scale: float = 1.0  # displayed pixels per original pixel
    error: str | None = None  # the photo could not be read at all
    warning: str | None = None  # the photo shows, but recognition is not available


def photo_key(data: bytes) -> str:
    """Stable short key of a photo's bytes; the hand editor's state is stored under it."""
    return hashlib.sha256(data).hexdigest()[:16]


def reading_from_detections(key: str, image: Any, detections: Any, labels: Sequence[str]) -> PhotoReading:
    """The photo as read: a recognizer `LoadedImage` and its `Detections`, as tiles read."""
    tiles = tiles_from_detections(detections, labels)
    return PhotoReading(key=key, tiles=tiles, image=image.rgb, scale=float(image.scale))


def picture_only(data: bytes, key: str, warning: str, max_side: int = 1600) -> PhotoReading:
    """Show the photo without recognition (models missing); a non-image still gives a clear error."""
    try:
        with Image.open(io.BytesIO(data)) as opened:
            picture = ImageOps.exif_transpose(opened).convert("RGB")
    except (UnidentifiedImageError, OSError, ValueError) as exc:
        return PhotoReading(key=key, error=f"not a readable image ({one_line(exc)})")
    scale = min(1.0, max_side / max(picture.size))
    if scale < 1.0:
        picture = picture.resize((round(picture.width * scale), round(picture.height * scale)))
    return PhotoReading(key=key, image=np.asarray(picture), scale=scale, warning=warning)


class PhotoReader:
    """Reads photos with one recognizer and remembers the last readings per photo hash (thread-safe)."""

    def __init__(
        self,
        read: Callable[[bytes, str], PhotoReading],
        capacity: int = 32,
        variant: Callable[[], object] | None = None,
    ) -> None:
        self._read = read
        self._capacity = capacity
        self._variant = variant  # what else a reading depends on (the tile set's version): part of the key
        self._cache: OrderedDict[tuple[str, object], PhotoReading] = OrderedDict()
        self._lock = threading.Lock()
        self.calls = 0  # how many photos were actually recognized (not served from the cache)

    def __call__(self, data: bytes) -> PhotoReading:
        key = photo_key(data)
        cache_key = (key, self._variant() if self._variant is not None else None)
        with self._lock:
            cached = self._cache.get(cache_key)
            if cached is not None:
                self._cache.move_to_end(cache_key)
                return cached
        try:
            reading = self._read(data, key)
        except Exception as exc:  # any recognizer failure becomes a message in the page
            reading = PhotoReading(key=key, error=f"recognition failed: {one_line(exc)}")
        with self._lock:
            self.calls += 1
            self._cache[cache_key] = reading
            while len(self._cache) > self._capacity:
                self._cache.popitem(last=False)
        return reading


def recognizer_read(
    recognizer_module: Any, tile_set: Any | None = None
) -> Callable[[bytes, str], PhotoReading]:
    """The real reading function: `load_image` + `get_recognizer().recognize` of the recognizer package;
    with the club's set (`tile_set`: a TileSetMemory) when one has been taught."""

    def read(data: bytes, key: str) -> PhotoReading:
        try:
            image = recognizer_module.load_image(data)
        except recognizer_module.ImageError as exc:
            return PhotoReading(key=key, error=one_line(exc))
        try:
            recognizer = tile_set.recognizer() if tile_set else recognizer_module.get_recognizer()
        except Exception as exc:  # models missing or broken: show the photo (as loaded), the player types
            return PhotoReading(key=key, image=image.rgb, scale=float(image.scale), warning=one_line(exc))
        detections = recognizer.recognize(image)
        return reading_from_detections(key, image, detections, recognizer_module.LABELS)

    return read


def photo_message(message: str, lang: str) -> str:
    """A photo's error or warning for the page: without the "<bytes>:" the recognizer puts before it, and in
    Dutch where the words are known (the rest of the line, such as a size, as it was)."""
    text = message.removeprefix("<bytes>: ").strip()
    return in_dutch(text) if lang == "nl" else text


def typed_over_photo(tiles: Sequence[TileRead]) -> bool:
    """Whether the tiles were mostly typed rather than read: fewer than half of the photographed ones still
    show what was read there. Then the photo is shown without boxes (typed codes on an unrelated photo's
    boxes only mislead)."""
    boxed = [tile for tile in tiles if tile.box is not None]
    return bool(boxed) and 2 * sum(1 for tile in boxed if tile.code == tile.read_as) < len(boxed)


PHOTO_STYLE = TileAnnotator(
    colour=(46, 160, 67),
    uncertain_colour=(230, 120, 0),
    back_colour=(46, 160, 67),
    corrected_colour=(40, 110, 230),
    label_height=1 / 40,
    numbered=True,
    alternate=True,
)
"""How the app draws the photo: numbered boxes (the numbers of the tile list), green when read surely, orange
when uncertain, blue when the player changed the tile; labels alternate above and below the boxes."""


def draw_tiles(reading: PhotoReading, tiles: Sequence[TileRead]) -> np.ndarray:
    """The photo of `reading` with the tiles as the player holds them (one without a box keeps its number)."""
    if reading.image is None:
        raise ValueError("the reading holds no picture to draw on")
    marks = [Mark(tile.box, tile.code, tile.state) for tile in tiles]
    return PHOTO_STYLE.draw(reading.image, marks, scale=reading.scale)
