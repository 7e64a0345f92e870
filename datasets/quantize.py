"""Make the runtime's 8-bit classifier from the trained float one: the same network, read ~3x faster on a CPU.

Training writes float models (`datasets.export_onnx`). This step runs the recognizer with them over
calibration photos that choose nothing (training photos of the dataset and scenes of the train artworks
rendered for this, `datasets.world_scenes --seed 400`), keeps every crop batch the classifier receives,
and has ONNX Runtime's static quantizer write a QDQ model calibrated on them (min-max): weights per
channel in 7 bits (`reduce_range`: a CPU without VNNI then computes exactly what a new one does, no 16-bit
saturation), activations in 8. `--bias-correction` also takes each 8-bit layer's mean output error on
those crops out of its bias (`correct_biases`; tried in session 29, not shipped). The float original is
kept in `models/float/` (what `datasets.onnx_init` continues training from, and what this step reads
again), and labels.json names it in "profiles_from", so set profiles made with it are still read.

The detector stays float: in 8 bits it read lone tiles worse (benchmarks/RESULTS.md, session 29).
`--detector` quantizes it too, for the next comparison.

Examples:
  .venv/bin/python -m datasets.world_scenes --out runs/world_calib --count 100 --split train --seed 400
  .venv/bin/python -m datasets.quantize --scenes runs/world_calib            # the shipped models, again
  .venv/bin/python -m datasets.quantize --source runs/export --scenes runs/world_calib  # after a round
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np

from datasets.yolo import PROJECT_ROOT, data_dir
from recognizer.set_profile import fingerprint

MODELS_DIR = PROJECT_ROOT / "models"
FLOAT = "float"
"""The subfolder of a models folder holding the float originals of its quantized models (not packaged:
training and this step read them)."""
DETECTOR, CLASSIFIER, LABELS_JSON = "detector.onnx", "classifier.onnx", "labels.json"
PHOTOS = 60  # training photos of the dataset, drawn with SEED
SCENES = 60  # first scenes of each --scenes folder
SEED = 0
KEEP = {DETECTOR: 80, CLASSIFIER: 160}  # calibration batches kept per model, evenly through the photos


def float_original(models: Path, name: str) -> Path:
    """Where a models folder keeps the float original of its model `name`."""
    return models / FLOAT / name


def trained_model(models: Path, name: str) -> Path:
    """The trained (float) file of model `name` in a models folder: its float original where the runtime's
    copy is quantized, else the runtime's own file."""
    original = float_original(models, name)
    return original if original.is_file() else models / name


def drop_float_originals(models: Path, names: tuple[str, ...]) -> None:
    """Remove the float originals of models `names` (their runtime copies are float again), and the
    originals' folder once it is empty."""
    for name in names:
        float_original(models, name).unlink(missing_ok=True)
    folder = models / FLOAT
    if folder.is_dir() and not any(folder.iterdir()):
        folder.rmdir()


def float_models(models: Path, folder: Path) -> Path:
    """`folder` filled with the float models of `models` (and its labels.json): what the recognizer reads
    the calibration photos with."""
    folder.mkdir(parents=True, exist_ok=True)
    for name in (DETECTOR, CLASSIFIER):
        shutil.copyfile(trained_model(models, name), folder / name)
    shutil.copyfile(models / LABELS_JSON, folder / LABELS_JSON)
    return folder


def calibration_photos(scenes: list[Path], photos: int = PHOTOS, count: int = SCENES) -> list[Path]:
    """Training photos of the dataset (a seeded draw) and the first scenes of each train-artwork render."""
    train = sorted((data_dir() / "train" / "images").glob("*.jpg"))
    drawn = random.Random(SEED).sample(train, min(photos, len(train)))
    return drawn + [p for folder in scenes for p in sorted((folder / "images").glob("*.jpg"))[:count]]


def record_inputs(models: Path, paths: list[Path]) -> dict[str, list[np.ndarray]]:
    """Every input batch the recognizer gives each model of `models` while reading `paths`."""
    import onnxruntime as ort

    from recognizer import Recognizer, load_image

    seen: dict[str, list[np.ndarray]] = {DETECTOR: [], CLASSIFIER: []}
    recognizer = Recognizer(models)
    owners = {id(recognizer.detector.session): DETECTOR, id(recognizer.classifier.session): CLASSIFIER}
    original = ort.InferenceSession.run

    def run(self: Any, names: Any, feeds: dict[str, np.ndarray], *args: Any, **kwargs: Any) -> Any:
        owner = owners.get(id(self))
        if owner is not None:
            seen[owner].append(next(iter(feeds.values())).copy())
        return original(self, names, feeds, *args, **kwargs)

    ort.InferenceSession.run = run  # type: ignore[method-assign]
    try:
        for i, path in enumerate(paths, 1):
            recognizer.recognize(load_image(path))
            print(f"\rcalibration photos {i}/{len(paths)}", end="", file=sys.stderr)
    finally:
        ort.InferenceSession.run = original  # type: ignore[method-assign]
    print(file=sys.stderr)
    return seen


def spread(items: list[np.ndarray], keep: int) -> list[np.ndarray]:
    """At most `keep` items, evenly spaced through the list (every kind of pass and photo represented)."""
    if len(items) <= keep:
        return items
    return [items[int(i)] for i in np.linspace(0, len(items) - 1, keep)]


def float_ends(path: Path) -> list[str]:
    """The convolution reading the image, and every convolution or dense layer whose output reaches a
    model output through no other one (the detector's heads, the classifier's last layers)."""
    import onnx

    graph = onnx.load(str(path)).graph
    weighted = {"Conv", "Gemm", "MatMul"}
    first = [n.name for n in graph.node if n.op_type in weighted and graph.input[0].name in n.input]
    makers = {out: n for n in graph.node for out in n.output}
    last: list[str] = []
    todo = [o.name for o in graph.output]
    seen: set[str] = set()
    while todo:
        node = makers.get(todo.pop())
        if node is None or node.name in seen:
            continue
        seen.add(node.name)
        if node.op_type in weighted:
            last.append(node.name)
        else:
            todo.extend(node.input)
    return first + sorted(set(last) - set(first))


def quantize(
    source: Path, target: Path, inputs: list[np.ndarray], ends: bool = False, reduce_range: bool = True
) -> None:
    """Write the 8-bit QDQ model of `source` to `target`, calibrated on `inputs` (min-max); `ends`: the
    first and last layers stay float (float_ends); `reduce_range`: weights in 7 bits."""
    import onnxruntime as ort
    from onnxruntime.quantization import (
        CalibrationDataReader,
        CalibrationMethod,
        QuantFormat,
        QuantType,
        quantize_static,
    )
    from onnxruntime.quantization.shape_inference import quant_pre_process

    name = ort.InferenceSession(str(source), providers=["CPUExecutionProvider"]).get_inputs()[0].name

    class Reader(CalibrationDataReader):  # type: ignore[misc]
        def __init__(self) -> None:
            self.feeds: Iterator[dict[str, np.ndarray]] = iter([{name: x} for x in inputs])

        def get_next(self) -> dict[str, np.ndarray] | None:
            return next(self.feeds, None)

    with tempfile.TemporaryDirectory() as tmp:
        prepared = Path(tmp) / "prepared.onnx"
        quant_pre_process(str(source), str(prepared), skip_symbolic_shape=True)
        quantize_static(
            str(prepared),
            str(target),
            Reader(),
            quant_format=QuantFormat.QDQ,
            per_channel=True,
            reduce_range=reduce_range,
            activation_type=QuantType.QUInt8,
            weight_type=QuantType.QInt8,
            calibrate_method=CalibrationMethod.MinMax,
            nodes_to_exclude=float_ends(source) if ends else [],
        )


def layer_outputs(model: Any, names: list[str], crops: np.ndarray) -> list[np.ndarray]:
    """The tensors `names` of an ONNX `model` (made graph outputs) for `crops`, 500 at a time."""
    import onnx
    import onnxruntime as ort

    probe = onnx.ModelProto()
    probe.CopyFrom(model)
    for name in names:
        probe.graph.output.append(onnx.helper.make_tensor_value_info(name, onnx.TensorProto.FLOAT, None))
    session = ort.InferenceSession(probe.SerializeToString(), providers=["CPUExecutionProvider"])
    feed = session.get_inputs()[0].name
    parts = [session.run(names, {feed: crops[i : i + 500]}) for i in range(0, len(crops), 500)]
    return [np.concatenate([part[k] for part in parts]) for k in range(len(names))]


def correct_biases(original: Path, target: Path, batches: list[np.ndarray], count: int = 3000) -> None:
    """Take each 8-bit layer's mean output error out of its bias (bias correction): layer by layer in
    graph order, the error per output channel of the 8-bit layer against the float one on the same crops
    (`count` of the calibration crops, a seeded draw), subtracted from the layer's int32 bias. Rounding a
    layer's weights shifts its outputs on average; this puts the average back."""
    import onnx
    from onnx import numpy_helper

    crops = np.concatenate(batches)
    crops = crops[np.random.default_rng(SEED).permutation(len(crops))][:count]
    float_model, model = onnx.load(str(original)), onnx.load(str(target))
    float_nodes = {node.name: node for node in float_model.graph.node}
    layers = [n for n in model.graph.node if n.op_type in ("Conv", "Gemm") and len(n.input) > 2]
    wanted = [float_nodes[n.name].output[0] for n in layers]
    reference = layer_outputs(float_model, wanted, crops)
    inits = {i.name: i for i in model.graph.initializer}
    makers = {out: node for node in model.graph.node for out in node.output}
    for layer, want in zip(layers, reference, strict=True):
        dequantize = makers.get(layer.input[2])
        if dequantize is None or dequantize.op_type != "DequantizeLinear":
            continue  # a layer left float
        (got,) = layer_outputs(model, [layer.output[0]], crops)
        error = (got - want).mean(axis=(0, 2, 3) if got.ndim == 4 else 0)
        bias, scale = inits[dequantize.input[0]], numpy_helper.to_array(inits[dequantize.input[1]])
        fixed = numpy_helper.to_array(bias).astype(np.int64) - np.round(error / scale).astype(np.int64)
        bias.CopyFrom(
            numpy_helper.from_array(np.clip(fixed, -(2**31), 2**31 - 1).astype(np.int32), bias.name)
        )
    onnx.save(model, str(target))


def write_models(
    source: Path,
    out: Path,
    seen: dict[str, list[np.ndarray]],
    names: tuple[str, ...],
    bias_correction: bool = False,
    **options: bool,
) -> list[str]:
    """Fill `out` with the runtime's models: each of `names` quantized (its float original kept in
    out/float), the others copied; labels.json names the float classifier in "profiles_from" when the
    classifier is quantized; `bias_correction`: the 8-bit classifier's biases corrected (correct_biases).
    Returns what was written."""
    with tempfile.TemporaryDirectory() as tmp:  # `source` may be `out` itself: read everything first
        originals = {n: Path(shutil.copyfile(source / n, Path(tmp) / n)) for n in (DETECTOR, CLASSIFIER)}
        labels = json.loads((source / LABELS_JSON).read_text())
        (out / FLOAT).mkdir(parents=True, exist_ok=True)
        written = []
        for name, original in originals.items():
            if name in names:
                batches = spread(seen[name], KEEP[name])
                quantize(original, out / name, batches, **options)
                if name == CLASSIFIER and bias_correction:
                    correct_biases(original, out / name, batches)
                kept = Path(shutil.copyfile(original, float_original(out, name)))
                written += [f"{out / name} (8 bits)", str(kept)]
            else:
                shutil.copyfile(original, out / name)
                written.append(str(out / name))
    drop_float_originals(out, tuple(name for name in originals if name not in names))
    labels.pop("profiles_from", None)
    if CLASSIFIER in names:
        labels["profiles_from"] = [fingerprint(float_original(out, CLASSIFIER).read_bytes())]
    (out / LABELS_JSON).write_text(json.dumps(labels, indent=2) + "\n")
    return [*written, str(out / LABELS_JSON)]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--source",
        type=Path,
        help="float models as export_onnx writes them (default: the shipped models' float originals)",
    )
    parser.add_argument(
        "--scenes",
        type=Path,
        nargs="+",
        required=True,
        help="world_scenes folders of train artworks (calibration only)",
    )
    parser.add_argument("--out", type=Path, default=MODELS_DIR, help="the runtime's models folder")
    parser.add_argument("--detector", action="store_true", help="quantize the detector too")
    parser.add_argument("--float-ends", action="store_true", help="keep the first and last layers float")
    parser.add_argument("--full-range", action="store_true", help="8-bit weights (saturate without VNNI)")
    parser.add_argument(
        "--bias-correction", action="store_true", help="correct the 8-bit classifier's biases"
    )
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        try:
            source = float_models(args.source or MODELS_DIR, Path(tmp) / FLOAT)
        except OSError as exc:
            print(f"error: float models not found ({exc})", file=sys.stderr)
            return 2
        missing = [f"{folder}/images" for folder in args.scenes if not (folder / "images").is_dir()]
        if missing:
            print(f"error: no scenes in {', '.join(missing)}", file=sys.stderr)
            return 2
        seen = record_inputs(source, calibration_photos(args.scenes))
        names = (CLASSIFIER, DETECTOR) if args.detector else (CLASSIFIER,)
        for line in write_models(
            source,
            args.out,
            seen,
            names,
            args.bias_correction,
            ends=args.float_ends,
            reduce_range=not args.full_range,
        ):
            print("wrote", line)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
