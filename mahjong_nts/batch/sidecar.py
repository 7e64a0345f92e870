"""Per-photo context for `mahjong-nts batch`: defaults.json files and NAME.json sidecars.

Merge order for each key: stated defaults < defaults.json of FOLDER < defaults.json of each subfolder down to
the photo's folder < the photo's sidecar. A broken defaults.json stops the run (exit 2): it concerns every
photo. A broken sidecar is that photo's error only.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mahjong_nts.reading.hand import CONTEXT_KEYS, HAND_KEYS, TILE_KEYS
from scoring.jsonread import parse_object, quote, show_path

DEFAULTS_NAME = "defaults.json"


class FolderError(ValueError):
    """A problem that concerns the whole folder (a broken defaults.json); one line."""


@dataclass(frozen=True)
class PhotoContext:
    """What the folder says about one photo: the merged keys, where each came from, or a sidecar error."""

    given: dict[str, Any] = field(default_factory=dict)
    source: dict[str, str] = field(
        default_factory=dict
    )  # key -> "defaults.json" / "sub/defaults.json" / sidecar
    sidecar: str | None = None  # the sidecar's path relative to FOLDER, when there is one
    error: str | None = None


MAX_SIDECAR_BYTES = 2**20
"""A sidecar or defaults.json holds one hand's context (well under 1 KB); larger is refused unread."""

_TEXT_KEYS = ("role", "ruleset", "seat_wind", "prevailing_wind", "winning_tile")
_TILE_TEXT_KEYS = ("concealed", "bonus")


def read_json_object(path: Path, label: str) -> dict[str, Any]:
    """Read a JSON object with scoring.jsonread; raises ValueError with a one-line message naming `label`."""
    try:
        with open(path, "rb") as handle:
            data = handle.read(MAX_SIDECAR_BYTES + 1)
    except OSError as problem:
        raise ValueError(f"{label}: cannot read ({problem.strerror or problem})") from None
    if len(data) > MAX_SIDECAR_BYTES:
        raise ValueError(f"{label}: larger than {MAX_SIDECAR_BYTES // 2**20} MiB")
    return parse_object(data, label)


def wrong_type(data: dict[str, Any]) -> str | None:
    """What is wrong with the types of a sidecar's or defaults.json's values, or None (issue 16, item 9):
    the words of a `score` hand object, checked here so that no later step meets a list where a word goes."""
    for key, value in data.items():
        if key in _TEXT_KEYS and not isinstance(value, str):
            return f"{key} must be a string, not {quote(value)}"
        if key == "self_drawn" and not isinstance(value, bool):
            return f"self_drawn must be true or false, not {quote(value)}"
        if key == "flags" and not (isinstance(value, list) and all(isinstance(flag, str) for flag in value)):
            return f"flags must be a list of flag names, not {quote(value)}"
        if key in _TILE_TEXT_KEYS and not (
            isinstance(value, str) or (isinstance(value, list) and all(isinstance(t, str) for t in value))
        ):
            return f"{key} must be a tile string like '123m11z', not {quote(value)}"
        if key == "melds" and not isinstance(value, list):
            return f'melds must be a list like [{{"tiles": "111z", "open": true}}], not {quote(value)}'
    return None


def _unknown_keys(data: dict[str, Any], allowed: tuple[str, ...]) -> list[str]:
    return sorted(key for key in data if key not in allowed)


def sidecar_of(photo: Path, listing: dict[str, list[str]]) -> Path | str | None:
    """The photo's NAME.json (the same stem, .json in any case: HAND1.JSON beside HAND1.JPG), None when
    there is none, or an error when two differ only in the case of .json. `listing`: lower name -> names."""
    wanted = f"{photo.stem}.json"
    found = [name for name in listing.get(wanted.lower(), []) if name[: len(photo.stem)] == photo.stem]
    if not found:
        return None
    if len(found) > 1:
        return f"two sidecars for {show_path(photo.name)}: {', '.join(map(show_path, sorted(found)))}"
    return photo.with_name(found[0])


class ContextReader:
    """Reads each folder's defaults.json once and each photo's sidecar, for photos under `folder`."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self._defaults: dict[Path, tuple[dict[str, Any], dict[str, str]]] = {}
        self._listings: dict[Path, dict[str, list[str]]] = {}

    def _listing(self, directory: Path) -> dict[str, list[str]]:
        """The *.json names of `directory` (any case) by their lower-case name, listed once."""
        if directory not in self._listings:
            listing: dict[str, list[str]] = {}
            try:
                names = os.listdir(directory)
            except OSError:
                names = []
            for name in names:
                if name.lower().endswith(".json"):
                    listing.setdefault(name.lower(), []).append(name)
            self._listings[directory] = listing
        return self._listings[directory]

    def defaults_for(self, directory: Path) -> tuple[dict[str, Any], dict[str, str]]:
        """Merged defaults for photos in `directory` (in FOLDER); raises FolderError when one is broken."""
        if directory in self._defaults:
            return self._defaults[directory]
        if directory == self.folder or self.folder not in directory.parents:
            given: dict[str, Any] = {}
            source: dict[str, str] = {}
        else:
            parent_given, parent_source = self.defaults_for(directory.parent)
            given, source = dict(parent_given), dict(parent_source)
        path = directory / DEFAULTS_NAME
        if path.is_file():
            label = show_path(path.relative_to(self.folder).as_posix())
            try:
                data = read_json_object(path, label)
            except ValueError as problem:
                raise FolderError(str(problem)) from None
            tile_keys = [key for key in data if key in TILE_KEYS]
            if tile_keys:
                raise FolderError(
                    f"{label}: '{tile_keys[0]}' differs per photo; give it in the photo's sidecar"
                )
            unknown = _unknown_keys(data, CONTEXT_KEYS)
            if unknown:
                raise FolderError(
                    f"{label}: unknown key {quote(unknown[0])} (allowed: {', '.join(CONTEXT_KEYS)})"
                )
            wrong = wrong_type(data)
            if wrong:
                raise FolderError(f"{label}: {wrong}")
            given.update(data)
            source.update(dict.fromkeys(data, label))
        self._defaults[directory] = (given, source)
        return given, source

    def context_for(self, photo: Path) -> PhotoContext:
        """The merged context for one photo: defaults, then its NAME.json sidecar if there is one."""
        given, source = self.defaults_for(photo.parent)
        given, source = dict(given), dict(source)
        sidecar_path = sidecar_of(photo, self._listing(photo.parent))
        if isinstance(sidecar_path, str):
            return PhotoContext(given, source, None, sidecar_path)
        if sidecar_path is None or sidecar_path.name == DEFAULTS_NAME or not sidecar_path.is_file():
            return PhotoContext(given, source)
        label = sidecar_path.relative_to(self.folder).as_posix()
        where = f"sidecar {show_path(label)}"
        try:
            data = read_json_object(sidecar_path, where)
        except ValueError as problem:
            return PhotoContext(given, source, label, str(problem))
        unknown = _unknown_keys(data, HAND_KEYS)
        wrong = wrong_type(data)
        if unknown:
            error = f"{where}: unknown key {quote(unknown[0])} (allowed: {', '.join(HAND_KEYS)})"
            return PhotoContext(given, source, label, error)
        if wrong:
            return PhotoContext(given, source, label, f"{where}: {wrong}")
        given.update(data)
        source.update(dict.fromkeys(data, label))
        return PhotoContext(given, source, label)
