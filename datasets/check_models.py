"""Check exported models on the valid split with a plain contract decode (independent of recognizer/):
detector box precision/recall (IoU >= 0.5), classifier accuracy on contract crops of true boxes, and
end-to-end tile precision/recall with the code right, and the share of photos fully right.

Example: .venv/bin/python -m datasets.check_models --models models --threshold 0.3
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

from datasets.augment import load_images
from datasets.tile_crops import CROP_SIZE, PAD, crop_tile
from datasets.train_detector import decode_peaks, iou_matrix, letterbox
from datasets.yolo import LABELS, PROJECT_ROOT, placeholder_labelled, read_split, require_data_dir
from recognizer.classifier import softmax, split_not_a_tile
from recognizer.models import ModelConfig, read_labels_json
from recognizer.pipeline import Settings

NOT_A_TILE_MIN = Settings().not_a_tile_min
"""Boxes read as no tile this surely are dropped, as the runtime's default drops them."""


def match(pred: np.ndarray, gt: np.ndarray, iou: float = 0.5) -> np.ndarray:
    """Greedy by score; returns for each prediction the matched gt index or -1."""
    out = np.full(len(pred), -1, dtype=np.int64)
    if len(pred) == 0 or len(gt) == 0:
        return out
    m = iou_matrix(pred[:, :4], gt)
    used = np.zeros(len(gt), dtype=bool)
    for i in np.argsort(-pred[:, 4]):
        cand = np.where(~used & (m[i] >= iou))[0]
        if len(cand):
            j = cand[np.argmax(m[i, cand])]
            used[j] = True
            out[i] = j
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", help="dataset folder (default ../shared/datasets/chinese-mahjong-detection)")
    ap.add_argument("--models", default=str(PROJECT_ROOT / "models"))
    ap.add_argument("--threshold", type=float, nargs="+", default=[0.3])
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--json", help="write the metrics here")
    args = ap.parse_args(argv)
    import onnxruntime as ort

    mdir = Path(args.models)
    if not (mdir / "detector.onnx").is_file():
        print(f"error: no detector.onnx in {mdir}", file=sys.stderr)
        return 2
    opts = ort.SessionOptions()
    opts.intra_op_num_threads = args.threads
    det = ort.InferenceSession(str(mdir / "detector.onnx"), opts, providers=["CPUExecutionProvider"])
    cls = ort.InferenceSession(str(mdir / "classifier.onnx"), opts, providers=["CPUExecutionProvider"])
    config = ModelConfig.from_dict(read_labels_json(mdir))  # labels.json, read as the runtime reads it
    size, pad = config.detector_size, config.pad  # the contract's crop: the box grown by labels.json's pad
    crop_h, crop_w = config.crop_size
    valid = read_split(require_data_dir(args.data), "valid")
    images = load_images([s.image for s in valid])
    t0 = time.time()
    maps = []
    for img in images:
        canvas, scale = letterbox(img, size)
        heat, wh, off = det.run(["heatmap", "size", "offset"], {"images": canvas.transpose(2, 0, 1)[None]})
        maps.append((heat[0], wh[0], off[0], scale))
    det_time = (time.time() - t0) / len(images)

    # classifier on contract crops of the true boxes
    gt_crops = [
        crop_tile(img, b, pad, (crop_h, crop_w))
        for img, s in zip(images, valid, strict=True)
        for b in s.boxes
    ]
    gt_labels = np.concatenate([s.labels for s in valid])
    logits = np.concatenate(
        [
            cls.run(
                ["logits"],
                {"crops": np.stack(gt_crops[k : k + 256]).astype(np.float32).transpose(0, 3, 1, 2) / 255},
            )[0]
            for k in range(0, len(gt_crops), 256)
        ]
    )
    rejects = config.not_a_tile  # the last logit is "not a tile": tile codes from the others
    pred = logits[:, : len(LABELS)].argmax(1)
    clean = np.concatenate([np.full(len(s.labels), not placeholder_labelled(s)) for s in valid])
    per = {LABELS[c]: float((pred[clean & (gt_labels == c)] == c).mean()) for c in np.unique(gt_labels)}
    results: dict = {
        "classifier_acc": float((pred == gt_labels).mean()),
        "classifier_acc_clean": float((pred == gt_labels)[clean].mean()),
        "classifier_rejected": float((not_a_tile(logits, rejects) >= NOT_A_TILE_MIN).mean()),
        "placeholder_photos": [s.image.name for s in valid if placeholder_labelled(s)],
        "classifier_per_class_clean": per,
    }
    results["detector_ms_per_image"] = det_time * 1000
    for th in args.threshold:
        for subset in ("all", "clean"):
            clean_only = subset == "clean"
            results[f"th{th}_{subset}"] = end_to_end(
                images, valid, maps, cls, th, clean_only, pad, rejects, (crop_h, crop_w)
            )
    shown = {
        k: v for k, v in results.items() if k not in ("classifier_per_class_clean", "placeholder_photos")
    }
    print(json.dumps(shown, indent=1))
    weak = sorted(per.items(), key=lambda kv: kv[1])[:8]
    print("weakest classes (clean valid):", ", ".join(f"{k}={v:.3f}" for k, v in weak))
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=1))
    return 0


def not_a_tile(logits: np.ndarray, rejects: bool) -> np.ndarray:
    """Probability of the last, "not a tile" logit per crop; zeros for a model without one."""
    return split_not_a_tile(softmax(logits), rejects)[1]


def end_to_end(
    images: list,
    valid: list,
    maps: list,
    cls: Any,
    th: float,
    clean: bool,
    pad: float = PAD,
    rejects: bool = False,
    crop: tuple[int, int] = CROP_SIZE,
) -> dict[str, float]:
    """Box and tile (code right) precision/recall at IoU >= 0.5 and the share of photos fully right
    (crops grown by `pad`, of size `crop`; with `rejects`, boxes read as "not a tile" at NOT_A_TILE_MIN
    are dropped)."""
    tp_box = tp_code = npred = ngt = full = photos = 0
    for img, s, (heat, wh, off, scale) in zip(images, valid, maps, strict=True):
        if clean and placeholder_labelled(s):
            continue
        dets = decode_peaks(heat, wh, off, th)
        dets[:, :4] /= scale
        codes = np.zeros(len(dets), dtype=np.int64)
        if len(dets):
            crops = np.stack([crop_tile(img, b, pad, crop) for b in dets[:, :4]]).astype(np.float32) / 255
            logits = cls.run(["logits"], {"crops": crops.transpose(0, 3, 1, 2)})[0]
            tile = not_a_tile(logits, rejects) < NOT_A_TILE_MIN
            dets, codes = dets[tile], logits[tile, : len(LABELS)].argmax(1)
        m = match(dets, s.boxes)
        ok_box = m >= 0
        ok_code = ok_box & (codes == s.labels[np.maximum(m, 0)])
        tp_box += int(ok_box.sum())
        tp_code += int(ok_code.sum())
        npred += len(dets)
        ngt += len(s.boxes)
        full += int(ok_code.sum() == len(s.boxes) == len(dets))
        photos += 1
    return {
        "box_precision": tp_box / max(npred, 1),
        "box_recall": tp_box / max(ngt, 1),
        "tile_precision": tp_code / max(npred, 1),
        "tile_recall": tp_code / max(ngt, 1),
        "photos_fully_right": full / max(photos, 1),
        "photos": photos,
    }


if __name__ == "__main__":
    raise SystemExit(main())
