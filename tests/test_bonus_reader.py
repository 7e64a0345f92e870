"""The bonus reader's share-out: which tiles it reads again and how its reading changes their odds."""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import numpy as np
import pytest

from recognizer import ModelError
from recognizer.bonus_reader import BonusReader
from recognizer.labels import BONUS, FALLBACK_LABELS
from recognizer.models import load_model_files

LABELS = FALLBACK_LABELS


class Reader:
    """A stand-in for an ONNX session: the same logits for every crop, and a record of how many it read."""

    def __init__(self, logits: list[float], width: Any = 9) -> None:
        self.logits = np.asarray(logits, np.float32)
        self.width = width
        self.crops = 0

    def get_inputs(self) -> list[SimpleNamespace]:
        return [SimpleNamespace(name="crops", shape=["N", 3, 64, 48])]

    def get_outputs(self) -> list[SimpleNamespace]:
        return [SimpleNamespace(name="logits", shape=["N", self.width])]

    def run(self, names: list[str], feeds: dict[str, np.ndarray]) -> list[np.ndarray]:
        batch = feeds["crops"]
        assert batch.shape[1:] == (3, 64, 48) and batch.dtype == np.float32
        self.crops += len(batch)
        return [np.repeat(self.logits[None], len(batch), axis=0)]


def reader(logits: list[float]) -> tuple[BonusReader, Reader]:
    session = Reader(logits)
    return BonusReader(session, (64, 48), 0.175, BONUS, LABELS), session  # type: ignore[arg-type]


def row(**probs: float) -> np.ndarray:
    out = np.zeros(len(LABELS), np.float32)
    for code, p in probs.items():
        out[LABELS.index(code.lstrip("_"))] = p
    return out


RGB = np.full((200, 300, 3), 180, np.uint8)
BOXES = np.array([[20, 10, 60, 90], [100, 10, 140, 90]], np.float32)  # tall: read one way
SURE_3Y = [0, 0, 0, 0, 0, 0, 9, 0, 0]  # logits: 1f 2f 3f 4f 1y 2y 3y 4y, none


def test_a_tile_unlikely_to_be_a_flower_is_not_read_again() -> None:
    bonus, session = reader(SURE_3Y)
    probs = np.stack([row(_1m=0.9, _1f=0.1), row(_5z=0.8, _2f=0.2)])
    assert np.array_equal(bonus.reread(RGB, BOXES, probs, 0.3, 1.5), probs)
    assert session.crops == 0


def test_the_flower_share_goes_where_the_reader_says() -> None:
    bonus, session = reader(SURE_3Y)
    probs = np.stack([row(_1m=0.9, _1f=0.1), row(_5z=0.4, _2f=0.6)])
    out = bonus.reread(RGB, BOXES, probs, 0.3, 1.5)
    assert session.crops == 1  # only the second tile; its box is clearly upright: one view
    assert np.array_equal(out[0], probs[0])
    assert out[1].argmax() == LABELS.index("3y")
    assert out[1, LABELS.index("3y")] == pytest.approx(0.6, abs=1e-3)
    assert out[1, LABELS.index("5z")] == pytest.approx(0.4, abs=1e-3)
    assert out.sum(axis=1) == pytest.approx([1, 1])


def test_none_of_them_hands_the_tile_back_to_the_other_readings() -> None:
    bonus, _ = reader([0, 0, 0, 0, 0, 0, 0, 0, 9])
    out = bonus.reread(RGB, BOXES[1:], row(_5z=0.3, _6z=0.1, _4f=0.6)[None], 0.3, 1.5)[0]
    assert out.argmax() == LABELS.index("5z")
    assert out[LABELS.index("5z")] / out[LABELS.index("6z")] == pytest.approx(3, rel=1e-3)
    assert out[LABELS.index("4f")] < 0.01
    assert out.sum() == pytest.approx(1)


def test_a_sure_flower_with_no_other_reading_stays_a_distribution() -> None:
    bonus, _ = reader([0, 0, 0, 0, 0, 0, 0, 0, 9])
    out = bonus.reread(RGB, BOXES[1:], row(_4f=1.0)[None], 0.3, 1.5)[0]
    assert np.isfinite(out).all() and out.sum() == pytest.approx(1)


def test_a_nearly_square_box_is_read_both_ways() -> None:
    bonus, session = reader(SURE_3Y)
    bonus.reread(RGB, np.array([[20, 20, 70, 80]], np.float32), row(_1f=1.0)[None], 0.3, 1.5)
    assert session.crops == 2


def test_a_reader_of_the_wrong_width_is_refused() -> None:
    with pytest.raises(ModelError, match=r"bonus_reader\.onnx gives 43 logits"):
        BonusReader(Reader(SURE_3Y, width=43), (64, 48), 0.175, BONUS, LABELS)  # type: ignore[arg-type]


def test_labels_json_naming_a_missing_reader_is_a_model_error(tmp_path: Path) -> None:
    for name in ("detector.onnx", "classifier.onnx"):
        (tmp_path / name).write_bytes(b"x")
    (tmp_path / "labels.json").write_text(json.dumps({"labels": list(LABELS), "bonus_reader": list(BONUS)}))
    with pytest.raises(ModelError, match=r"bonus_reader\.onnx"):
        load_model_files(tmp_path)


def test_a_weight_under_one_keeps_some_of_the_classifiers_division() -> None:
    bonus, _ = reader([0, 0, 0, 0, 2, 0, 0, 0, -9])  # the reader leans to 1y
    probs = row(_1f=0.9, _1y=0.1)[None]
    alone = bonus.reread(RGB, BOXES[1:], probs, 0.3, 1.5)[0]
    halved = bonus.reread(RGB, BOXES[1:], probs, 0.3, 1.5, weight=0.5)[0]
    assert alone.argmax() == LABELS.index("1y")
    assert halved[LABELS.index("1f")] > alone[LABELS.index("1f")]
    assert halved.sum() == pytest.approx(1) and alone.sum() == pytest.approx(1)
