"""datasets.onnx_init: the shipped classifier's weights back in a torch network of the right shape."""

from __future__ import annotations

from pathlib import Path

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("onnx")

from datasets.onnx_init import classifier_shape, main  # noqa: E402
from datasets.quantize import trained_model  # noqa: E402
from datasets.yolo import LABELS  # noqa: E402

MODELS = Path(__file__).resolve().parent.parent / "models"
CLASSIFIER = trained_model(MODELS, "classifier.onnx")  # the float original of the 8-bit runtime model


def test_classifier_shape_is_read_off_the_shipped_model() -> None:
    outputs, width = classifier_shape(CLASSIFIER)
    assert outputs == len(LABELS) + 1  # the labels and "not a tile"
    assert width in (32, 48)


def test_shipped_models_come_back_as_checkpoints_that_compute_the_same(tmp_path: Path) -> None:
    assert main(["--models", str(MODELS), "--out", str(tmp_path)]) == 0  # checks torch against ONNX itself
    checkpoint = torch.load(tmp_path / "classifier.pt", weights_only=False)
    assert checkpoint["args"]["width"] == classifier_shape(CLASSIFIER)[1]
    assert checkpoint["source"] == str(CLASSIFIER)
    assert checkpoint["args"]["not_a_tile"] is True


def test_a_missing_model_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(SystemExit, match="no such model file"):
        classifier_shape(tmp_path / "classifier.onnx")
