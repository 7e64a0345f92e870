"""Find the model files: the `models` package data, or the folder named by MAHJONG_NTS_MODELS."""

from __future__ import annotations

import os
from dataclasses import dataclass
from importlib.resources import files
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Any

from recognizer.errors import ModelError
from scoring.jsonread import parse_object, quote

MODELS_ENV = "MAHJONG_NTS_MODELS"
DETECTOR_FILE = "detector.onnx"
CLASSIFIER_FILE = "classifier.onnx"
LABELS_FILE = "labels.json"


def model_folder(model_dir: Path | str | None = None) -> Traversable:
    """The folder holding the models: `model_dir`, else $MAHJONG_NTS_MODELS, else the `models` package."""
    if model_dir is not None:
        return Path(model_dir)
    override = os.environ.get(MODELS_ENV)
    if override:
        return Path(override)
    try:
        return files("models")
    except (ModuleNotFoundError, TypeError) as exc:
        raise ModelError(
            f"model package 'models' not found ({exc}); set {MODELS_ENV} to the folder"
        ) from None


def read_labels_json(model_dir: Path | str | None = None) -> dict[str, Any]:
    """Parse labels.json from the model folder (raises OSError/ValueError when missing or bad)."""
    data = model_folder(model_dir).joinpath(LABELS_FILE).read_bytes()
    return parse_object(data, LABELS_FILE)  # JsonError is a ValueError with a one-line message


def _whole(value: Any, key: str, high: int = 4096) -> int:
    """A whole number 1..`high` of labels.json (not true/false, not "384", not 384.5, not 10**400)."""
    if isinstance(value, bool) or not isinstance(value, int) or not 0 < value <= high:
        raise ModelError(
            f"{LABELS_FILE}: {key} must be a positive whole number up to {high}, got {quote(value)}"
        )
    return value


def _number(value: Any, key: str, low: float, high: float, low_allowed: bool = True) -> float:
    """A number of labels.json between `low` and `high` (not true/false, not a string)."""
    is_number = not isinstance(value, bool) and isinstance(value, int | float)
    if not is_number or not (low <= value < high if low_allowed else low < value < high):
        raise ModelError(f"{LABELS_FILE}: {key} must lie between {low:g} and {high:g}, got {quote(value)}")
    return float(value)


@dataclass(frozen=True)
class ModelConfig:
    """What `labels.json` says about the models (ARCHITECTURE.md, ONNX model contract)."""

    labels: tuple[str, ...]
    detector_size: int = 384
    crop_size: tuple[int, int] = (64, 48)  # height, width
    pad: float = 0.1
    detector_threshold: float | None = (
        None  # optional "detector_threshold": the peak threshold tuned on valid
    )
    detector_input: str | None = None  # optional "detector_input": "square" (stretched) or "letterbox"
    not_a_tile: bool = False  # optional "not_a_tile": the classifier's logits have one more, last column
    # meaning "no tile at all" (a keyboard key, a window pane), after the columns of `labels`
    profiles_from: tuple[str, ...] = ()  # optional "profiles_from": fingerprints of the classifiers whose
    # set profiles this one reads too (the float model it was quantized from: the same look, 8 bits)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> ModelConfig:
        """Validate and convert the parsed labels.json."""
        labels = data.get("labels")
        if not isinstance(labels, list) or not all(isinstance(x, str) for x in labels) or not labels:
            raise ModelError(f"{LABELS_FILE}: 'labels' must be a non-empty list of strings")
        size = _whole(data.get("detector_size", cls.detector_size), "detector_size")
        if size % 4:
            raise ModelError(f"{LABELS_FILE}: detector_size must be a positive multiple of 4, got {size}")
        crop = data.get("crop_size", list(cls.crop_size))
        if not isinstance(crop, list) or len(crop) != 2:
            raise ModelError(f"{LABELS_FILE}: crop_size must be [height, width], got {quote(crop)}")
        crop_size = (_whole(crop[0], "crop_size height"), _whole(crop[1], "crop_size width"))
        pad = _number(data.get("pad", cls.pad), "pad", 0, 0.5)
        threshold = data.get("detector_threshold")
        if threshold is not None:
            threshold = _number(threshold, "detector_threshold", 0, 1, low_allowed=False)
        detector_input = data.get("detector_input")
        if detector_input not in (None, "square", "letterbox"):
            raise ModelError(
                f"{LABELS_FILE}: detector_input must be 'square' or 'letterbox', got {quote(detector_input)}"
            )
        not_a_tile = data.get("not_a_tile", False)
        if not isinstance(not_a_tile, bool):
            raise ModelError(f"{LABELS_FILE}: not_a_tile must be true or false, got {quote(not_a_tile)}")
        profiles_from = data.get("profiles_from", [])
        if not isinstance(profiles_from, list) or not all(
            isinstance(x, str) and len(x) == 16 and all(c in "0123456789abcdef" for c in x)
            for x in profiles_from
        ):
            raise ModelError(
                f"{LABELS_FILE}: profiles_from must list classifier fingerprints (16 hex digits), "
                f"got {quote(profiles_from)}"
            )
        return cls(
            labels=tuple(labels),
            detector_size=size,
            crop_size=crop_size,
            pad=pad,
            detector_threshold=threshold,
            detector_input=detector_input,
            not_a_tile=not_a_tile,
            profiles_from=tuple(profiles_from),
        )


@dataclass(frozen=True)
class ModelFiles:
    """The bytes of the ONNX models and their configuration."""

    detector: bytes
    classifier: bytes
    config: ModelConfig
    where: str


def load_model_files(model_dir: Path | str | None = None) -> ModelFiles:
    """Read detector.onnx, classifier.onnx and labels.json; ModelError names what is missing."""
    folder = model_folder(model_dir)
    missing = [
        name for name in (DETECTOR_FILE, CLASSIFIER_FILE, LABELS_FILE) if not folder.joinpath(name).is_file()
    ]
    if missing:
        raise ModelError(
            f"model files missing in {folder}: {', '.join(missing)} (train them or set {MODELS_ENV})"
        )
    try:
        config = ModelConfig.from_dict(read_labels_json(model_dir))
    except (ValueError, OSError) as exc:
        raise ModelError(f"{LABELS_FILE} in {folder} unreadable: {exc}") from None
    return ModelFiles(
        detector=folder.joinpath(DETECTOR_FILE).read_bytes(),
        classifier=folder.joinpath(CLASSIFIER_FILE).read_bytes(),
        config=config,
        where=str(folder),
    )
