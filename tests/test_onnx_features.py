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
    assert "no Gemm makes" in capsys.readouterr().err
    assert main([str(tmp_path / "missing.onnx")]) == 1


def averaging_pair() -> onnx.ModelProto:
    """Two linear "members" on the flattened crop, their softmaxes averaged, the log as logits: the shape of
    graph `datasets.export_onnx` writes for several checkpoints."""
    h = onnx.helper
    rng = np.random.default_rng(1)
    weights = [
        onnx.numpy_helper.from_array(rng.normal(size=(5, 12)).astype(np.float32), f"w{k}") for k in (1, 2)
    ]
    half = onnx.numpy_helper.from_array(np.array(0.5, np.float32), "half")
    nodes = [
        h.make_node("Flatten", ["crops"], ["flat"]),
        h.make_node("Gemm", ["flat", "w1"], ["z1"], transB=1),
        h.make_node("Div", ["flat", "half"], ["flat2"]),  # the second member sees its own vector
        h.make_node("Gemm", ["flat2", "w2"], ["z2"], transB=1),
        h.make_node("Softmax", ["z1"], ["p1"], axis=1),
        h.make_node("Softmax", ["z2"], ["p2"], axis=1),
        h.make_node("Add", ["p1", "p2"], ["sum"]),
        h.make_node("Mul", ["sum", "half"], ["mean"]),
        h.make_node("Log", ["mean"], ["logits"]),
    ]
    graph = h.make_graph(
        nodes,
        "pair",
        [h.make_tensor_value_info("crops", onnx.TensorProto.FLOAT, ["N", 3, 2, 2])],
        [h.make_tensor_value_info("logits", onnx.TensorProto.FLOAT, ["N", 5])],
        [*weights, half],
    )
    return h.make_model(graph, opset_imports=[h.make_opsetid("", 17)])


def test_an_averaging_pair_gives_its_first_members_features(tmp_path: Path) -> None:
    path = tmp_path / "pair.onnx"
    onnx.save(with_features(averaging_pair()), str(path))
    crops = np.random.default_rng(2).random((4, 3, 2, 2), dtype=np.float32)
    logits, features = ort.InferenceSession(str(path), providers=["CPUExecutionProvider"]).run(
        ["logits", FEATURES], {"crops": crops}
    )
    np.testing.assert_allclose(features, crops.reshape(4, 12), rtol=1e-6)  # the input of member 1's Gemm
    assert logits.shape == (4, 5) and np.allclose(np.exp(logits).sum(axis=1), 1.0, atol=1e-5)
