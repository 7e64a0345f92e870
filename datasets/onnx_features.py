"""Give a classifier.onnx a second output, "features": the pooled vector its last layer turns into logits.

A set profile (recognizer/set_profile.py) compares tiles by this vector, so a club's own set can be learnt
from a few named tiles. The weights and the "logits" output stay exactly as they were; only an Identity
node and a graph output are added. `datasets.export_onnx` calls this on every classifier it writes; run it
by hand on an older file:

    .venv/bin/python -m datasets.onnx_features models/classifier.onnx
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import onnx

FEATURES = "features"
"""Name of the added output (recognizer.classifier.FEATURES_OUTPUT reads it)."""


def with_features(model: onnx.ModelProto) -> onnx.ModelProto:
    """`model` with the input of the Gemm that makes "logits" also given out as FEATURES; of an averaging
    ensemble (logits made from its members' by other nodes), its first member's, so that set profiles made
    with that network alone still read. Raises ValueError for a graph with no Gemm to take."""
    graph = model.graph
    if any(o.name == FEATURES for o in graph.output):
        return model
    last = [n for n in graph.node if "logits" in n.output]
    gemms = [n for n in graph.node if n.op_type == "Gemm"]
    if len(last) != 1 or not gemms:
        raise ValueError('no Gemm makes "logits": this classifier has no feature vector')
    gemm = last[0] if last[0].op_type == "Gemm" else gemms[0]  # members export in order: the first's
    pooled = gemm.input[0]
    trans_b = any(a.name == "transB" and a.i for a in gemm.attribute)
    weight = next((i for i in graph.initializer if i.name == gemm.input[1]), None)
    if weight is None or len(weight.dims) != 2:
        raise ValueError('the Gemm that makes "logits" has no constant weight: no feature width')
    width = weight.dims[1] if trans_b else weight.dims[0]
    if pooled != FEATURES:  # a graph whose pooled tensor has the name already needs only the output
        graph.node.append(onnx.helper.make_node("Identity", [pooled], [FEATURES], name="features_out"))
    graph.output.append(onnx.helper.make_tensor_value_info(FEATURES, onnx.TensorProto.FLOAT, ["N", width]))
    onnx.checker.check_model(model)
    return model


def add_features(path: Path, out: Path | None = None) -> None:
    """Rewrite the classifier at `path` (or write to `out`) with the FEATURES output."""
    model = with_features(onnx.load(str(path)))
    onnx.save(model, str(out or path))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("model", type=Path, help="a classifier.onnx")
    ap.add_argument("--out", type=Path, help="write here instead of over the model")
    args = ap.parse_args(argv)
    try:
        add_features(args.model, args.out)
    except (OSError, ValueError, onnx.checker.ValidationError) as exc:
        print(f"onnx_features: {args.model}: {exc}", file=sys.stderr)
        return 1
    print(f"{args.out or args.model}: {FEATURES} output added")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
