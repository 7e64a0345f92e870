"""What the app needs from outside, built once: the photo reader (recognizer), the scoreboard store, the
sample photos and the dice. Tests pass their own."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from mahjong_nts.app.photo import PhotoReader, PhotoReading, picture_only, recognizer_read
from mahjong_nts.app.scoreboard import ScoreboardStore, default_db_path

SAMPLES_DIR = Path(__file__).resolve().parents[2] / "samples"


@dataclass(frozen=True)
class AppDeps:
    """The app's dependencies; `read_photo` caches per photo, `store` is the evening's SQLite file."""

    read_photo: Callable[[bytes], PhotoReading]
    store: ScoreboardStore
    samples: tuple[Path, ...] = ()
    rng: random.Random = field(default_factory=random.Random)


def sample_photos(folder: Path = SAMPLES_DIR) -> tuple[Path, ...]:
    """The bundled sample photos, hand1.jpg first."""
    return tuple(sorted(folder.glob("hand*.jpg"))) if folder.is_dir() else ()


def real_photo_reader() -> PhotoReader:
    """A reader on the recognizer package; without it (or its models) the photo still shows."""
    try:
        import recognizer
    except Exception as exc:  # the recognizer's dependencies or package are missing
        reason = f"{type(exc).__name__}: {exc}".splitlines()[0]
        return PhotoReader(lambda data, key: picture_only(data, key, warning=reason))
    return PhotoReader(recognizer_read(recognizer))


def real_deps(db_path: Path | None = None) -> AppDeps:
    """The dependencies of the real app: recognizer, SQLite store ($MAHJONG_NTS_DB or the data folder)."""
    return AppDeps(
        read_photo=real_photo_reader(),
        store=ScoreboardStore(db_path or default_db_path()),
        samples=sample_photos(),
    )
