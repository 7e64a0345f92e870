"""What the app needs from outside, built once: the photo reader (recognizer), the scoreboard store, the
sample photos and the dice. Tests pass their own."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from mahjong_nts.app.photo import PhotoReader, PhotoReading, picture_only, recognizer_read
from mahjong_nts.app.scoreboard import ScoreboardStore, default_db_path
from mahjong_nts.app.tile_set import PROFILE_NAME, TileSetMemory

SAMPLES_DIR = Path(__file__).resolve().parents[2] / "samples"


@dataclass(frozen=True)
class AppDeps:
    """The app's dependencies; `read_photo` caches per photo, `store` is the evening's SQLite file."""

    read_photo: Callable[[bytes], PhotoReading]
    store: ScoreboardStore
    samples: tuple[Path, ...] = ()
    rng: random.Random = field(default_factory=random.Random)
    tile_set: TileSetMemory | None = (
        None  # the club's own set, taught from checked photos (None: no such panel)
    )


def sample_photos(folder: Path = SAMPLES_DIR) -> tuple[Path, ...]:
    """The bundled sample photos, hand1.jpg first."""
    return tuple(sorted(folder.glob("hand*.jpg"))) if folder.is_dir() else ()


def real_tile_set(path: Path) -> TileSetMemory | None:
    """The club's set remembered in the file `path`; None without the recognizer package."""
    try:
        import recognizer
    except Exception:  # the recognizer's dependencies or package are missing: real_photo_reader says so
        return None
    return TileSetMemory(path, recognizer)


def real_photo_reader(tile_set: TileSetMemory | None = None) -> PhotoReader:
    """A reader on the recognizer package, with the club's set (`tile_set`) where one was taught; without
    the recognizer (or its models) the photo still shows."""
    try:
        import recognizer
    except Exception as exc:  # the recognizer's dependencies or package are missing
        reason = f"{type(exc).__name__}: {exc}".splitlines()[0]
        return PhotoReader(lambda data, key: picture_only(data, key, warning=reason))
    if tile_set is None:
        return PhotoReader(recognizer_read(recognizer))
    return PhotoReader(recognizer_read(recognizer, tile_set), variant=lambda: tile_set.version)


def real_deps(db_path: Path | None = None) -> AppDeps:
    """The dependencies of the real app: recognizer, SQLite store ($MAHJONG_NTS_DB or the data folder) and
    the club's tile set in a file beside it."""
    db = db_path or default_db_path()
    tile_set = real_tile_set(db.parent / PROFILE_NAME)
    return AppDeps(
        read_photo=real_photo_reader(tile_set),
        store=ScoreboardStore(db),
        samples=sample_photos(),
        tile_set=tile_set,
    )
