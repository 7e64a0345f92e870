"""Detections: the validated container for recognised tiles (boxes in original photo pixels)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from recognizer.labels import LABELS

TOP_K = 3


def _check(name: str, array: np.ndarray, shape: tuple[int, ...]) -> None:
    """Raise ValueError naming the field, the expected and the actual shape."""
    if array.ndim != len(shape) or any(
        want not in (-1, got) for want, got in zip(shape, array.shape, strict=True)
    ):
        want = (
            "("
            + ", ".join("n" if s == -1 else str(s) for s in shape)
            + ("," if len(shape) == 1 else "")
            + ")"
        )
        raise ValueError(f"Detections.{name} must have shape {want}, got {array.shape}")


def _as_array(values: Any, dtype: type, width: int | None = None) -> np.ndarray:
    """`values` as an array of `dtype`; an empty input gets the shape (0, width)."""
    array: np.ndarray = np.asarray(values, dtype=dtype)
    if array.size == 0 and width is not None:
        array = array.reshape(0, width)
    return array


@dataclass
class Detections:
    """Tiles found in one photo, in reading order; every array has one entry per tile."""

    xyxy: np.ndarray
    confidence: np.ndarray
    class_id: np.ndarray
    alt_class_id: np.ndarray = None  # type: ignore[assignment]
    alt_confidence: np.ndarray = None  # type: ignore[assignment]
    row: np.ndarray = None  # type: ignore[assignment]

    def __post_init__(self) -> None:
        self.xyxy = _as_array(self.xyxy, np.float32, 4)
        _check("xyxy", self.xyxy, (-1, 4))
        n = len(self.xyxy)
        self.confidence = _as_array(self.confidence, np.float32)
        self.class_id = _as_array(self.class_id, np.int64)
        _check("confidence", self.confidence, (n,))
        _check("class_id", self.class_id, (n,))
        if self.alt_class_id is None:
            self.alt_class_id = np.full((n, TOP_K), -1, dtype=np.int64)
            self.alt_class_id[:, 0] = self.class_id
        if self.alt_confidence is None:
            self.alt_confidence = np.zeros((n, TOP_K), dtype=np.float32)
            self.alt_confidence[:, 0] = self.confidence
        self.alt_class_id = _as_array(self.alt_class_id, np.int64, TOP_K)
        self.alt_confidence = _as_array(self.alt_confidence, np.float32, TOP_K)
        self.row = np.zeros(n, dtype=np.int64) if self.row is None else _as_array(self.row, np.int64)
        _check("alt_class_id", self.alt_class_id, (n, TOP_K))
        _check("alt_confidence", self.alt_confidence, (n, TOP_K))
        _check("row", self.row, (n,))
        if n and (self.class_id.min() < 0 or self.class_id.max() >= len(LABELS)):
            raise ValueError(
                f"Detections.class_id must lie in 0..{len(LABELS) - 1}, got {self.class_id.tolist()}"
            )

    @classmethod
    def empty(cls) -> Detections:
        """No tiles."""
        return cls(
            xyxy=np.zeros((0, 4), np.float32), confidence=np.zeros(0, np.float32), class_id=np.zeros(0, int)
        )

    def __len__(self) -> int:
        return len(self.xyxy)

    def __getitem__(self, index: int | slice | np.ndarray | list[int] | list[bool]) -> Detections:
        """Select tiles with a boolean mask, an index array, a slice or one index (kept as 1 tile)."""
        if isinstance(index, int | np.integer):
            index = [int(index)]
        if not isinstance(index, slice):
            index = np.asarray(index)
            if index.dtype == bool and index.shape != (len(self),):
                raise ValueError(f"Detections mask must have shape ({len(self)},), got {index.shape}")
        return Detections(
            xyxy=self.xyxy[index],
            confidence=self.confidence[index],
            class_id=self.class_id[index],
            alt_class_id=self.alt_class_id[index],
            alt_confidence=self.alt_confidence[index],
            row=self.row[index],
        )

    @property
    def codes(self) -> list[str]:
        """Tile codes ("1m" .. "4y", "back") in the order of the tiles."""
        return [LABELS[i] for i in self.class_id.tolist()]

    def to_records(self) -> list[dict[str, Any]]:
        """CONTRACT tile objects: code, confidence, box [x0, y0, x1, y1] in pixels, alternatives, row."""
        records = []
        for i in range(len(self)):
            alternatives = [
                {"code": LABELS[c], "confidence": round(float(p), 4)}
                for c, p in zip(self.alt_class_id[i].tolist(), self.alt_confidence[i].tolist(), strict=True)
                if c >= 0
            ]
            records.append(
                {
                    "code": LABELS[int(self.class_id[i])],
                    "confidence": round(float(self.confidence[i]), 4),
                    "box": [round(float(v)) for v in self.xyxy[i]],
                    "alternatives": alternatives,
                    "row": int(self.row[i]),
                }
            )
        return records
