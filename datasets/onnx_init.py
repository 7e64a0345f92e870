"""Start a training run from the shipped ONNX models: their weights written back into the torch networks.

The exporter folds each BatchNorm into the convolution before it, so a shipped model holds only conv weights
and biases. They go back into `TileDetector` / `TileClassifier` as conv weight plus a BatchNorm that does
nothing (scale 1, shift = the folded bias, running mean 0, variance 1 - eps); a run fine-tuned from them
keeps its BatchNorms frozen (`--freeze-bn`), so the network computes exactly what the shipped model does.
A model the runtime reads in 8 bits (datasets.quantize) is read from its float original in models/float/.

Example: .venv/bin/python -m datasets.onnx_init --out runs/init  (writes detector.pt and classifier.pt for
`train_detector --init runs/init/detector.pt --freeze-bn`, `train_classifier --init runs/init/classifier.pt
--freeze-bn`).
"""

from __future__ import annotations

import argparse
import itertools
from pathlib import Path

import numpy as np
import torch
from torch import nn

from datasets.models import TileClassifier, TileDetector
from datasets.quantize import MODELS_DIR, trained_model
from datasets.tile_crops import CROP_SIZE
from datasets.yolo import LABELS
from recognizer.models import LABELS_FILE, ModelConfig, read_labels_json


def onnx_convs(path: Path) -> list[tuple[np.ndarray, np.ndarray]]:
    """The (weight, bias) of every Conv (and Gemm) node, in graph order."""
    import onnx
    from onnx import numpy_helper

    model = onnx.load(str(path))
    inits = {i.name: numpy_helper.to_array(i) for i in model.graph.initializer}
    convs = []
    for node in model.graph.node:
        if node.op_type == "Conv":
            weight = inits[node.input[1]]
            bias = inits[node.input[2]] if len(node.input) > 2 else np.zeros(weight.shape[0], np.float32)
            convs.append((weight, bias))
        elif node.op_type == "Gemm":
            convs.append((inits[node.input[1]], inits[node.input[2]]))
    return convs


def classifier_shape(path: Path) -> tuple[int, int]:
    """(outputs, width) of an exported TileClassifier, read off its last layer: 43 labels or 44 with "not a
    tile", and the width whose last stage has 6 x width channels (v8 32, v9 48)."""
    if not path.is_file():
        raise SystemExit(f"{path}: no such model file")
    weight, _ = onnx_convs(path)[-1]
    outputs, channels = weight.shape
    if channels % 6:
        raise SystemExit(f"{path}: last layer takes {channels} channels, not a TileClassifier's 6 x width")
    return int(outputs), channels // 6


def layers_in_run_order(model: nn.Module, example: torch.Tensor) -> list[nn.Conv2d | nn.Linear]:
    """Conv2d and Linear modules in the order a forward pass runs them (the ONNX graph's order)."""
    order: list[nn.Conv2d | nn.Linear] = []

    def ran(module: nn.Module, _inputs: object, _output: object) -> None:
        assert isinstance(module, nn.Conv2d | nn.Linear)
        order.append(module)

    hooks = [m.register_forward_hook(ran) for m in model.modules() if isinstance(m, nn.Conv2d | nn.Linear)]
    with torch.no_grad():
        model(example)
    for h in hooks:
        h.remove()
    return order


def load_folded(model: nn.Module, path: Path, example: torch.Tensor) -> nn.Module:
    """Write an exported (BatchNorm-folded) ONNX model's weights into `model` in place; returns it."""
    model.eval()
    layers = layers_in_run_order(model, example)
    convs = onnx_convs(path)
    if len(layers) != len(convs):
        raise SystemExit(f"{path}: {len(convs)} conv/linear layers, the network has {len(layers)}")
    bn_after: dict[nn.Module, nn.BatchNorm2d] = {}  # conv -> the BatchNorm after it in its conv_bn block
    for m in model.modules():
        if isinstance(m, nn.Sequential):
            kids = list(m)
            for a, b in itertools.pairwise(kids):
                if isinstance(a, nn.Conv2d) and isinstance(b, nn.BatchNorm2d):
                    bn_after[a] = b
    with torch.no_grad():
        for layer, (weight, bias) in zip(layers, convs, strict=True):
            if tuple(layer.weight.shape) != weight.shape:
                raise SystemExit(
                    f"{path}: shape {weight.shape} where the network has {tuple(layer.weight.shape)}"
                )
            layer.weight.copy_(torch.from_numpy(weight.copy()))
            bn = bn_after.get(layer)
            if bn is not None:
                assert bn.running_mean is not None and bn.running_var is not None  # tracked in conv_bn
                bn.weight.fill_(1.0)
                bn.bias.copy_(torch.from_numpy(bias.copy()))
                bn.running_mean.zero_()
                bn.running_var.fill_(1.0 - bn.eps)
            elif layer.bias is not None:
                layer.bias.copy_(torch.from_numpy(bias.copy()))
            else:
                raise SystemExit(f"{path}: a biased conv where the network has neither bias nor BatchNorm")
    return model


def freeze_batchnorm(model: nn.Module) -> None:
    """Keep every BatchNorm on its running statistics while the rest trains (call after `model.train()`)."""
    for m in model.modules():
        if isinstance(m, nn.BatchNorm2d):
            m.eval()


def max_difference(model: nn.Module, path: Path, example: torch.Tensor, detector: bool) -> float:
    """Largest absolute difference between the torch network and the ONNX model on `example`."""
    import onnxruntime as ort

    sess = ort.InferenceSession(str(path), providers=["CPUExecutionProvider"])
    ref = sess.run(None, {sess.get_inputs()[0].name: example.numpy()})
    model.eval()
    with torch.no_grad():
        if detector:
            model.export_mode = True  # type: ignore[assignment]
            ours = [t.numpy() for t in model(example)]
            model.export_mode = False  # type: ignore[assignment]
        else:
            ours = [model(example).numpy()]
    ref = ref[: len(ours)]  # a classifier's optional "features" output has no torch twin here
    return max(float(np.abs(a - b).max()) for a, b in zip(ours, ref, strict=True))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument(
        "--models",
        default=str(MODELS_DIR),
        help="folder with detector.onnx, classifier.onnx (a quantized model's float original in float/)",
    )
    ap.add_argument("--out", default="runs/init", help="where detector.pt and classifier.pt go")
    args = ap.parse_args(argv)
    models, out = Path(args.models), Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    torch.manual_seed(0)
    det_in = torch.rand(1, 3, 128, 160)
    sources = {name: trained_model(models, f"{name}.onnx") for name in ("detector", "classifier")}
    det = load_folded(TileDetector(), sources["detector"], det_in)
    labels_json = models / LABELS_FILE  # the crop the classifier was trained on, read as the runtime reads it
    crop = ModelConfig.from_dict(read_labels_json(models)).crop_size if labels_json.is_file() else CROP_SIZE
    cls_in = torch.rand(2, 3, *crop)
    outputs, width = classifier_shape(sources["classifier"])
    cls = load_folded(TileClassifier(outputs, width), sources["classifier"], cls_in)
    train_args = {
        "detector": {},
        "classifier": {"width": width, "not_a_tile": outputs > len(LABELS), "crop": list(crop)},
    }
    for name, model, example, is_det in (("detector", det, det_in, True), ("classifier", cls, cls_in, False)):
        diff = max_difference(model, sources[name], example, is_det)
        if diff > 1e-3:
            raise SystemExit(f"{name}: torch and ONNX differ by {diff:.2e}; the layer order did not match")
        torch.save(
            {
                "model": model.state_dict(),
                "epoch": -1,
                "args": train_args[name],
                "source": str(sources[name]),
            },
            out / f"{name}.pt",
        )
        print(f"{name}: max |torch - onnx| = {diff:.2e} -> {out / f'{name}.pt'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
