"""Per-photo context for `mahjong-nts batch`: defaults.json files and NAME.json sidecars.

Merge order for each key: stated defaults < defaults.json of FOLDER < defaults.json of each subfolder down to
the photo's folder < the photo's sidecar. A broken defaults.json stops the run (exit 2): it concerns every
photo. A broken sidecar is that photo's error only.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mahjong_nts.reading.hand import CONTEXT_KEYS, HAND_KEYS, TILE_KEYS

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


def read_json_object(path: Path, label: str) -> dict[str, Any]:
    """Read a JSON object; raises ValueError with a one-line message naming `label`."""
    try:
        data = json.loads(path.read_bytes())
    except OSError as problem:
        raise ValueError(f"{label}: cannot read ({problem.strerror or problem})") from None
    except UnicodeDecodeError:
        raise ValueError(f"{label}: not UTF-8 text") from None
    except json.JSONDecodeError as problem:
        raise ValueError(
            f"{label}: not valid JSON ({problem.msg} at line {problem.lineno} column {problem.colno})"
        ) from None
    if not isinstance(data, dict):
        raise ValueError(f"{label}: must hold one JSON object, not {type(data).__name__}")
    return data


def _unknown_keys(data: dict[str, Any], allowed: tuple[str, ...]) -> list[str]:
    return sorted(key for key in data if key not in allowed)


class ContextReader:
    """Reads each folder's defaults.json once and each photo's sidecar, for photos under `folder`."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self._defaults: dict[Path, tuple[dict[str, Any], dict[str, str]]] = {}

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
            label = path.relative_to(self.folder).as_posix()
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
                raise FolderError(f"{label}: unknown key '{unknown[0]}' (allowed: {', '.join(CONTEXT_KEYS)})")
            given.update(data)
            source.update(dict.fromkeys(data, label))
        self._defaults[directory] = (given, source)
        return given, source

    def context_for(self, photo: Path) -> PhotoContext:
        """The merged context for one photo: defaults, then its NAME.json sidecar if there is one."""
        given, source = self.defaults_for(photo.parent)
        given, source = dict(given), dict(source)
        sidecar_path = photo.with_suffix(".json")
        if not sidecar_path.is_file() or sidecar_path.name == DEFAULTS_NAME:
            return PhotoContext(given, source)
        label = sidecar_path.relative_to(self.folder).as_posix()
        try:
            data = read_json_object(sidecar_path, f"sidecar {label}")
        except ValueError as problem:
            return PhotoContext(given, source, label, str(problem))
        unknown = _unknown_keys(data, HAND_KEYS)
        if unknown:
            error = f"sidecar {label}: unknown key '{unknown[0]}' (allowed: {', '.join(HAND_KEYS)})"
            return PhotoContext(given, source, label, error)
        given.update(data)
        source.update(dict.fromkeys(data, label))
        return PhotoContext(given, source, label)
