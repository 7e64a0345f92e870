"""The club's own tile set as the app remembers it: a set profile (recognizer/set_profile.py) in a file
beside the scoreboard, grown from photos whose tiles the player has checked, and used to read every
photo after. Shared by everyone at the table (one app, one club set); nothing here draws a widget."""

from __future__ import annotations

import threading
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from mahjong_nts.messages import one_line
from mahjong_nts.reading.tiles import TileRead, is_bonus
from scoring.tiles import BACK, TILE_CODES

PROFILE_NAME = "tile_set.json"
"""The file, in the scoreboard's folder."""

AUTO_LEARN = "tile_set_auto"
"""Session key of the panel's switch: the hands of a saved game counted from their photos also teach the
set (on by default)."""

BACKUP_SUFFIX = ".bak"
"""Forgetting or replacing the set keeps the file before as <name>.bak (nothing a player taught is lost)."""

PROBLEMS: tuple[tuple[str, str], ...] = (
    ("not a mahjong-nts set profile", "tile_set_not_a_set"),
    ("made with another classifier", "tile_set_other_model"),
    ("too large for a set profile", "tile_set_not_a_set"),
    ("cannot read the set profile", "tile_set_not_a_set"),
    ("cannot read set profiles", "tile_set_unsupported"),
)
"""A set profile's problem (words of recognizer.set_profile) -> the app's message key."""


class TileSetError(ValueError):
    """What went wrong, as a message key of the app's words (`key`) and the detail."""

    def __init__(self, key: str, detail: str = "") -> None:
        super().__init__(detail or key)
        self.key = key
        self.detail = detail


def problem_key(exc: Exception) -> str:
    """The message key for a profile problem."""
    text = str(exc)
    return next((key for start, key in PROBLEMS if start in text), "tile_set_failed")


@dataclass(frozen=True)
class TileSetStatus:
    """What the page says about the set: tiles and codes known, and whether photos are read with it."""

    name: str = ""
    examples: int = 0
    codes: int = 0
    in_use: bool = False
    ready: bool = False  # enough tiles to judge; not in use then means the reading is as good without
    needed: int = 0  # tiles still wanted before it can judge
    unfamiliar: bool = False  # in use as a set the recognizer does not know: its tiles count most


def tiles_to_learn(
    reading_tiles: Sequence[TileRead], tiles: Sequence[TileRead], bonus: Sequence[str]
) -> list[TileRead]:
    """The checked tiles of a photo that have a box: the hand's tiles as the player left them, and the
    flowers and seasons read on the photo that the player kept."""
    kept_bonus = set(bonus)
    read_bonus = [t for t in reading_tiles if is_bonus(t.code) and t.code in kept_bonus and t.box is not None]
    return [*(t for t in tiles if t.box is not None), *read_bonus]


def whole_set(reading_tiles: Sequence[TileRead]) -> list[TileRead] | None:
    """The photo's tiles named as one tile of every kind laid out in the order of the tile codes (rows of
    1-9 characters, circles and bamboos, winds and dragons, flowers and seasons), as `learn-set --tiles
    "123456789m ..."` names them, and a face-down tile after them when there is one more (it teaches
    the set's back, so a blank white dragon is not taken for one); None unless exactly that many tiles,
    each with a box, were read."""
    codes = [*TILE_CODES, BACK][: len(reading_tiles)]
    if len(reading_tiles) < len(TILE_CODES) or len(reading_tiles) != len(codes):
        return None
    if any(t.box is None for t in reading_tiles):
        return None
    return [replace(t, code=code) for t, code in zip(reading_tiles, codes, strict=True)]


def row_counts(reading_tiles: Sequence[TileRead]) -> list[int]:
    """Tiles read in each row of the photo, top to bottom (rows the reading numbered)."""
    rows = [t.row or 0 for t in reading_tiles]
    return [rows.count(k) for k in range(max(rows) + 1)] if rows else []


class TileSetMemory:
    """The remembered set profile: loaded from `path` when there, changed only through these methods,
    each change saved at once. `version` grows with every change (photo readings are cached per version)."""

    def __init__(self, path: Path, recognizer_module: Any) -> None:
        self.path = path
        self._rec = recognizer_module
        self._lock = threading.Lock()
        self.version = 0
        self.profile: Any = None
        self.load_error: str | None = None  # a file there that could not be used (kept as it is)
        if path.is_file():
            try:
                self.profile = recognizer_module.read_profile(path)
            except recognizer_module.ProfileError as exc:
                self.load_error = problem_key(exc)

    def status(self) -> TileSetStatus:
        """The set as the page shows it."""
        profile = self.profile
        if profile is None:
            return TileSetStatus(needed=self._rec.set_profile.MIN_CHECKS)
        return TileSetStatus(
            name=profile.name,
            examples=len(profile.examples),
            codes=len(profile.codes),
            in_use=profile.temperature is not None,
            ready=profile.judged,
            needed=max(0, self._rec.set_profile.MIN_CHECKS - profile.checks),
            unfamiliar=profile.unfamiliar,
        )

    def recognizer(self) -> Any:
        """The recognizer that reads photos: the packaged one, with the set when there is one."""
        recognizer = self._rec.get_recognizer()
        profile = self.profile
        if profile is None:
            return recognizer
        try:
            return recognizer.with_profile(profile)
        except self._rec.ProfileError as exc:  # made with models since replaced: read without it
            self.load_error = problem_key(exc)
            return recognizer

    def learn(self, photo: bytes, tiles: Sequence[TileRead], name: str = "club") -> int:
        """Add the photo's checked tiles (with boxes) to the set and save it; the number new to it (a
        photo remembered twice adds nothing the second time)."""
        boxed = [t for t in tiles if t.box is not None]
        if not boxed:
            return 0
        try:
            image = self._rec.load_image(photo)
            recognizer = self._rec.get_recognizer()
            with self._lock:
                profile = self.profile or recognizer.new_profile(name)
                learnt = recognizer.learn(profile, image, [t.box for t in boxed], [t.code for t in boxed])
                new = profile.added_in(learnt)
                if new:
                    if self.profile is None:  # a file there that could not be read is kept, as .bak
                        self._backup()
                    self._save(learnt)
        except (self._rec.ProfileError, self._rec.ImageError, self._rec.ModelError) as exc:
            raise TileSetError(problem_key(exc), one_line(exc)) from None
        return new

    def replace_with(self, data: bytes) -> TileSetStatus:
        """Load a set from a file's bytes (an upload) in place of the one remembered (kept as .bak)."""
        import json

        try:
            parsed = json.loads(data)
        except (ValueError, UnicodeDecodeError) as exc:  # not JSON at all
            raise TileSetError("tile_set_not_a_set", one_line(exc)) from None
        try:
            profile = self._rec.set_profile.profile_from_json(parsed, "upload")
            self._rec.get_recognizer().with_profile(profile)  # made with this classifier?
        except self._rec.ProfileError as exc:
            key = problem_key(exc)
            detail = one_line(exc)
            raise TileSetError("tile_set_not_a_set" if key == "tile_set_failed" else key, detail) from None
        except self._rec.ModelError as exc:
            raise TileSetError("tile_set_failed", one_line(exc)) from None
        with self._lock:
            self._backup()
            self._save(profile)
        return self.status()

    def forget(self) -> None:
        """Read photos without a set again; the file is kept as .bak."""
        with self._lock:
            self._backup()
            self.path.unlink(missing_ok=True)
            self.profile = None
            self.version += 1

    def export(self) -> bytes | None:
        """The set as a JSON file's bytes, to download (None: nothing learnt)."""
        import json

        profile = self.profile
        return None if profile is None else json.dumps(profile.to_json()).encode("utf-8")

    def _backup(self) -> None:
        if self.path.is_file():
            self.path.replace(self.path.with_name(self.path.name + BACKUP_SUFFIX))

    def _save(self, profile: Any) -> None:
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._rec.write_profile(profile, self.path)
        except (OSError, self._rec.ProfileError) as exc:
            raise TileSetError("tile_set_not_saved", one_line(exc)) from None
        self.profile = profile
        self.version += 1
        self.load_error = None
