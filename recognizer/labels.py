"""Classifier label order: the 42 tile codes of CONTRACT.md, then "back" (a face-down tile)."""

from __future__ import annotations

from collections.abc import Sequence

from recognizer.errors import ModelError
from recognizer.models import read_labels_json
from scoring.tiles import BACK

SUITED = tuple(f"{n}{suit}" for suit in "mps" for n in range(1, 10))
HONOURS = tuple(f"{n}z" for n in range(1, 8))
BONUS = tuple(f"{n}{kind}" for kind in "fy" for n in range(1, 5))

FALLBACK_LABELS: tuple[str, ...] = (*SUITED, *HONOURS, *BONUS, BACK)
"""Same order as `models/labels.json`; used when that file is absent (tests, before training)."""

BACK_INDEX = FALLBACK_LABELS.index(BACK)


def _labels_from_models() -> tuple[str, ...]:
    """The label list shipped with the models, or the fallback when there is none or it is unreadable."""
    try:
        config = read_labels_json()
    except (OSError, ValueError, ModelError):
        return FALLBACK_LABELS
    labels = config.get("labels")
    if not isinstance(labels, Sequence) or len(labels) != len(FALLBACK_LABELS):
        return FALLBACK_LABELS
    return tuple(str(label) for label in labels)


LABELS: tuple[str, ...] = _labels_from_models()
"""42 tile codes in TILE_CODES order, then "back" at index 42."""


def tile_limit(code: str) -> int | None:
    """How many of this tile a set holds: 4 of a suit or honour tile, 1 flower/season, backs unlimited."""
    if code == BACK:
        return None
    return 1 if code[-1] in "fy" else 4
