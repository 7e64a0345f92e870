"""Export the trained detector and classifier checkpoints to models/*.onnx and write models/labels.json.

Example:
  .venv/bin/python -m datasets.export_onnx \
      --detector runs/detector/best.pt --classifier runs/classifier/best.pt
  (several --classifier checkpoints export as one averaging ensemble, datasets.models.ClassifierEnsemble)
The models are written float; `datasets.quantize` then makes the runtime's 8-bit classifier from them.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np
import torch

from datasets.models import ClassifierEnsemble, TileClassifier, TileDetector
from datasets.onnx_features import add_features
from datasets.quantize import drop_float_originals
from datasets.tile_crops import CROP_SIZE, PAD
from datasets.yolo import LABELS, PROJECT_ROOT

OPSET = 17


def _check(path: Path, model: torch.nn.Module, x: torch.Tensor, names: list[str]) -> float:
    """Largest absolute difference between ONNX Runtime and torch outputs on `x`."""
    import onnxruntime as ort

    sess = ort.InferenceSession(str(path), providers=["CPUExecutionProvider"])
    got = sess.run(names, {sess.get_inputs()[0].name: x.numpy()})
    with torch.no_grad():
        ref = model(x)
    ref = ref if isinstance(ref, tuple) else (ref,)
    return max(float(np.abs(g - r.numpy()).max()) for g, r in zip(got, ref, strict=True))


def _export(
    model: torch.nn.Module, x: torch.Tensor, path: Path, inp: str, outs: list[str], spatial: bool = False
) -> None:
    """ONNX export with a dynamic batch axis; `spatial` also makes height and width dynamic (the detector
    is fully convolutional: any multiple of 32 works; the runtime's squeezed retries use that)."""
    if spatial:
        dyn = {inp: {0: "N", 2: "H", 3: "W"}, **{o: {0: "N", 2: "GH", 3: "GW"} for o in outs}}
    else:
        dyn = {inp: {0: "N"}, **{o: {0: "N"} for o in outs}}
    torch.onnx.export(
        model,
        (x,),
        str(path),
        input_names=[inp],
        output_names=outs,
        dynamic_axes=dyn,
        opset_version=OPSET,
        dynamo=False,
    )


def load_state(path: Path) -> tuple[dict, dict]:
    """Checkpoint -> (state_dict, training args)."""
    ck = torch.load(path, map_location="cpu", weights_only=False)
    return ck["model"], ck.get("args", {})


def output_count(state: dict) -> int:
    """Logits of a classifier checkpoint: rows of its last 2-D weight (the final Linear; conv weights are
    4-D, batch-norm ones 1-D), so a checkpoint trained with not-a-tile (one more) needs no flag."""
    weights = [value for value in state.values() if getattr(value, "ndim", 0) == 2]
    if not weights:
        raise ValueError("classifier checkpoint has no final linear layer")
    return int(weights[-1].shape[0])


def load_classifier(paths: list[str]) -> torch.nn.Module:
    """The classifier of one checkpoint, or the averaging ensemble of several, in eval mode
    (`load_classifier_with_crop` without the crop)."""
    return load_classifier_with_crop(paths)[0]


def load_classifier_with_crop(paths: list[str]) -> tuple[torch.nn.Module, tuple[int, int]]:
    """The classifier of one checkpoint, or the averaging ensemble of several, in eval mode, and the crop
    (height, width) they were trained on (`train_classifier --crop`; 64x48 before it existed). Each has
    len(LABELS) outputs, or one more ("not a tile", labels.json's not_a_tile) as its checkpoint has; an
    ensemble's members must agree on both, as one model reads one crop."""
    members, counts, sizes = [], set(), set()
    for path in paths:
        state, train_args = load_state(Path(path))
        outputs = output_count(state)
        if outputs not in (len(LABELS), len(LABELS) + 1):
            raise ValueError(f"{path}: {outputs} outputs, expected {len(LABELS)} or {len(LABELS) + 1}")
        member = TileClassifier(outputs, train_args.get("width", 32))
        member.load_state_dict(state)
        members.append(member)
        counts.add(outputs)
        sizes.add(tuple(int(v) for v in train_args.get("crop", CROP_SIZE)))
    if len(counts) > 1:
        raise ValueError("the ensemble's classifiers differ in outputs (some have not-a-tile, some not)")
    if len(sizes) > 1:
        raise ValueError(f"the ensemble's classifiers were trained on different crops: {sorted(sizes)}")
    model = members[0] if len(members) == 1 else ClassifierEnsemble(members)
    h, w = sizes.pop()
    return model.eval(), (h, w)


def classifier_outputs(model: torch.nn.Module) -> int:
    """out_features of the model's final Linear (of an ensemble: of its last member)."""
    return [m for m in model.modules() if isinstance(m, torch.nn.Linear)][-1].out_features


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--detector", default="runs/detector/best.pt")
    ap.add_argument(
        "--classifier",
        nargs="+",
        default=["runs/classifier/best.pt"],
        help="one checkpoint, or several: exported as one model that averages their probabilities",
    )
    ap.add_argument("--out", default=str(PROJECT_ROOT / "models"))
    ap.add_argument(
        "--threshold",
        type=float,
        help="write this heatmap peak threshold (tuned on valid) as detector_threshold",
    )
    ap.add_argument(
        "--pad",
        type=float,
        default=PAD,
        help=f"write this crop pad (box growth per side the runtime reads crops with) as pad; default the "
        f"training pad {PAD} (crops were trained at {PAD} -0.04/+0.06; v4 ships 0.175, best on valid)",
    )
    args = ap.parse_args(argv)
    if not 0 <= args.pad < 0.5:
        print("error: --pad must lie between 0 and 0.5", file=sys.stderr)
        return 2
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    for p in (args.detector, *args.classifier):
        if not Path(p).is_file():
            print(f"error: checkpoint not found: {p}", file=sys.stderr)
            return 2
    torch.manual_seed(0)
    try:  # before anything is written, so a bad checkpoint leaves the models folder as it was
        cls, (crop_h, crop_w) = load_classifier_with_crop(args.classifier)
    except (ValueError, KeyError, RuntimeError) as exc:  # no "model", or weights of another shape
        print(f"error: {exc}", file=sys.stderr)
        return 2

    det_state, det_args = load_state(Path(args.detector))
    size = int(det_args.get("size", 384))
    det = TileDetector(det_args.get("width", 16), det_args.get("neck", 48))
    det.load_state_dict(det_state)
    det.eval()
    det.export_mode = True
    x = torch.rand(2, 3, size, size)
    det_path = out / "detector.onnx"
    _export(det, x, det_path, "images", ["heatmap", "size", "offset"], spatial=True)
    d_err = _check(det_path, det, torch.rand(3, 3, size, size), ["heatmap", "size", "offset"])
    d_err = max(d_err, _check(det_path, det, torch.rand(1, 3, 96, 640), ["heatmap", "size", "offset"]))

    cls_path = out / "classifier.onnx"
    _export(cls, torch.rand(2, 3, crop_h, crop_w), cls_path, "crops", ["logits"])
    c_err = _check(cls_path, cls, torch.rand(5, 3, crop_h, crop_w), ["logits"])
    try:  # the pooled vector set profiles compare tiles by (an averaging ensemble has none)
        add_features(cls_path)
    except ValueError as exc:
        print(f"note: {exc}; set profiles will not work with this classifier", file=sys.stderr)

    labels: dict[str, object] = {
        "labels": list(LABELS),
        "detector_size": size,
        "crop_size": [crop_h, crop_w],
        "pad": args.pad,
    }
    if classifier_outputs(cls) == len(LABELS) + 1:
        labels["not_a_tile"] = True  # the last logit is "not a tile" (recognizer/models.py)
    if args.threshold is not None:
        if not 0 < args.threshold < 1:
            print("error: --threshold must lie between 0 and 1", file=sys.stderr)
            return 2
        labels["detector_threshold"] = args.threshold
    (out / "labels.json").write_text(json.dumps(labels, indent=2) + "\n")
    drop_float_originals(out, ("detector.onnx", "classifier.onnx"))  # this run replaced both models
    for p in (det_path, cls_path):
        print(f"{p}: {p.stat().st_size / 1e6:.2f} MB")
    print(f"max |onnx - torch|: detector {d_err:.2e}, classifier {c_err:.2e}")
    if max(d_err, c_err) > 1e-3:
        print("error: ONNX outputs differ from torch", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
