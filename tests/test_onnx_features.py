"""datasets.onnx_features: the classifier's pooled vector given out as "features", logits unchanged."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import onnx
import onnxruntime as ort
import pytest
from fake_models import classifier_bytes, detector_bytes

from datasets.onnx_features import FEATURES, add_features, main, with_features

ROOT = Path(__file__).resolve().parent.parent


def test_the_shipped_classifier_gives_features() -> None:
    session = ort.InferenceSession(
        str(ROOT / "models" / "classifier.onnx"), providers=["CPUExecutionProvider"]
    )
    outputs = {o.name: o.shape for o in session.get_outputs()}
    assert outputs["features"][-1] == 288 and outputs["logits"][-1] == 44


def test_features_are_added_once_and_logits_stay(tmp_path: Path) -> None:
    plain = tmp_path / "plain.onnx"
    plain.write_bytes(classifier_bytes())
    out = tmp_path / "with.onnx"
    assert main([str(plain), "--out", str(out)]) == 0
    crops = np.random.default_rng(0).random((3, 3, 64, 48), dtype=np.float32)
    before = ort.InferenceSession(str(plain), providers=["CPUExecutionProvider"]).run(
        ["logits"], {"crops": crops}
    )
    session = ort.InferenceSession(str(out), providers=["CPUExecutionProvider"])
    logits, features = session.run(["logits", FEATURES], {"crops": crops})
    np.testing.assert_array_equal(logits, before[0])
    assert features.shape == (3, 6)
    again = with_features(onnx.load(str(out)))  # a second time changes nothing
    assert [o.name for o in again.graph.output] == ["logits", FEATURES]
    add_features(out)
    assert [o.name for o in onnx.load(str(out)).graph.output] == ["logits", FEATURES]


def test_a_model_without_a_last_gemm_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    detector = tmp_path / "detector.onnx"
    detector.write_bytes(detector_bytes())
    assert main([str(detector)]) == 1
    assert "no single Gemm" in capsys.readouterr().err
    assert main([str(tmp_path / "missing.onnx")]) == 1
