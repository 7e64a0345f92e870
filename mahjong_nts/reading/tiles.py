"""A tile as read from the photo, the one type the app, batch and command line share, and its vocabulary.

`TileRead` comes from the recognizer's `Detections` (or their CONTRACT records) once; the app's editor
keeps the same type, with `code` changed where the player corrected it and `read_as` what was read.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from recognizer.annotate import CORRECTED, SURE, UNCERTAIN, UNCERTAIN_BELOW
from scoring.tiles import BACK, BONUS_SUITS

__all__ = ["BACK", "UNCERTAIN_BELOW", "Box", "TileRead", "grouped_codes", "is_bonus", "looks_unfamiliar"]

UNFAMILIAR_SHARE, UNFAMILIAR_MIN = 0.25, 3
"""A photo whose tiles are read uncertain this often (a quarter, and at least three) shows a set the
classifier does not know well: on the training dataset's photos 4 % of photos are so, on scenes of artworks
never trained on 42 % (benchmarks/RESULTS.md, session 31)."""

Box = tuple[float, float, float, float]
"""x0, y0, x1, y1 in the photo's original pixels."""


def is_bonus(code: str) -> bool:
    """Flowers (f) and seasons (y) lie beside the hand and score as bonus tiles.

    >>> [is_bonus(code) for code in ("1f", "4y", "1z", "back")]
    [True, True, False, False]
    """
    return len(code) == 2 and code[1] in BONUS_SUITS


@dataclass(frozen=True)
class TileRead:
    """One tile: its code (or "back", a face-down tile), how sure the recognizer was (None: added by the
    player), its box, the recognizer's other candidates, its row on the photo and what it was read as."""

    code: str
    confidence: float | None = None
    box: Box | None = None
    alternatives: tuple[str, ...] = ()
    row: int | None = None
    read_as: str | None = None

    @property
    def uncertain(self) -> bool:
        """Read with low confidence and not changed by the player."""
        return self.confidence is not None and self.confidence < UNCERTAIN_BELOW and self.code == self.read_as

    @property
    def corrected(self) -> bool:
        """The player changed the code the recognizer read."""
        return self.read_as is not None and self.code != self.read_as

    @property
    def state(self) -> str:
        """How the photo marks it (recognizer.annotate's states): "corrected", "uncertain" or "sure"."""
        return CORRECTED if self.corrected else UNCERTAIN if self.uncertain else SURE

    @property
    def size(self) -> float:
        """The longer side of its box (how near the camera it lies); 0 without a box."""
        if self.box is None:
            return 0.0
        x0, y0, x1, y1 = self.box
        return max(x1 - x0, y1 - y0)


def looks_unfamiliar(tiles: Iterable[TileRead]) -> bool:
    """Whether the recognizer was unsure of so many of these tiles (as it read them, corrected or not)
    that the set is likely new to it: then teaching it the set is worth the player's minute.

    >>> looks_unfamiliar([TileRead("1m", 0.5, read_as="1m")] * 3 + [TileRead("2m", 0.99, read_as="2m")] * 9)
    True
    >>> looks_unfamiliar([TileRead("1m", 0.5, read_as="1m")] * 2 + [TileRead("2m", None)] * 9)
    False
    """
    read = [tile.confidence for tile in tiles if tile.confidence is not None]
    unsure = sum(1 for confidence in read if confidence < UNCERTAIN_BELOW)
    return unsure >= max(UNFAMILIAR_MIN, UNFAMILIAR_SHARE * len(read))


def read_tile(
    code: str, confidence: float, box: Box | None, alternatives: Iterable[str], row: int
) -> TileRead:
    """A tile as the recognizer read it (`read_as` is its code)."""
    others = tuple(dict.fromkeys(a for a in alternatives if a and a != code))
    return TileRead(code, confidence, box, others, row, read_as=code)


def tiles_from_records(records: Sequence[Mapping[str, Any]]) -> tuple[TileRead, ...]:
    """Tiles from CONTRACT `recognize` tile objects (code, confidence, box, alternatives, row)."""
    tiles = []
    for record in records:
        box = record.get("box")
        tiles.append(
            read_tile(
                str(record["code"]),
                float(record.get("confidence", 1.0)),
                (float(box[0]), float(box[1]), float(box[2]), float(box[3])) if box else None,
                (str(a.get("code", "")) for a in record.get("alternatives") or ()),
                int(record.get("row", 0)),
            )
        )
    return tuple(tiles)


def tiles_from_detections(
    detections: Any, labels: Sequence[str], min_alternative: float = 0.02
) -> tuple[TileRead, ...]:
    """Tiles from a recognizer `Detections` (reading order kept); alternatives below 2 % are left out."""

    def label(index: int) -> str:
        return labels[index] if 0 <= index < len(labels) else BACK

    tiles = []
    for i in range(len(detections)):
        alternatives = (
            label(int(alt))
            for alt, conf in zip(detections.alt_class_id[i], detections.alt_confidence[i], strict=True)
            if int(alt) >= 0 and float(conf) >= min_alternative
        )
        x0, y0, x1, y1 = (float(v) for v in detections.xyxy[i])
        tiles.append(
            read_tile(
                label(int(detections.class_id[i])),
                float(detections.confidence[i]),
                (x0, y0, x1, y1),
                alternatives,
                int(detections.row[i]),
            )
        )
    return tuple(tiles)


def grouped_codes(codes: Iterable[str]) -> str:
    """Codes in the given order, consecutive tiles of one suit grouped, face-down tiles as "back".

    >>> grouped_codes(["1z", "1z", "1p", "2p", "back", "3p"])
    '11z 12p back 3p'
    """
    groups: list[tuple[str, str]] = []
    for code in codes:
        if code == BACK:
            groups.append(("", BACK))
        elif groups and groups[-1][0] == code[-1]:
            groups[-1] = (code[-1], groups[-1][1] + code[:-1])
        else:
            groups.append((code[-1], code[:-1]))
    return " ".join(digits + suit for suit, digits in groups)
