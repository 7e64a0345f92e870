"""Probe (session 31, not shipped): does test-time BatchNorm adaptation help on sets never trained on?

Each photo's crops are one batch; before every BatchNorm the batch's per-channel mean and variance, mixed
with the training scenes' by n / (n + prior) (Schneider et al., 2020), are aligned to the training scenes'
statistics. Classifier alone on the truth boxes, crops cut and views combined as the runtime does; the
float network of the shipped models (runs/init: `datasets.onnx_init`). Source statistics from the first 300
scenes of a train folder.

    .venv/bin/python -m datasets.adapt_bn_probe runs/world_tune8 --source runs/world_train70
"""

from __future__ import annotations

import argparse
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import torch
from torch import nn

from datasets.evaluate_world import scene_kinds
from datasets.mine_negatives import read_negatives
from datasets.models import TileClassifier
from datasets.yolo import read_folder
from recognizer.classifier import combine_views, split_not_a_tile, view_plan
from recognizer.imageio import load_image
from recognizer.pipeline import Recognizer, Settings


def photo_batches(
    recognizer: Recognizer, folder: Path, limit: int
) -> Iterator[tuple[Any, torch.Tensor, Any, int]]:
    """(sample, crops of its truth boxes and mined negatives, owner of each crop, boxes) per scene."""
    clf, s = recognizer.classifier, recognizer.settings
    mined = read_negatives(folder)
    for sample in read_folder(folder)[:limit]:
        if not len(sample.boxes):
            continue
        image = load_image(sample.image)
        negatives = mined.get(sample.image.stem, np.zeros((0, 4), np.float32))
        boxes = np.concatenate([sample.boxes, negatives]) * np.float32(image.scale)
        batch, owner = clf.batch(image.rgb, boxes, [view_plan(b, s.turns, s.square_band) for b in boxes])
        yield sample, torch.from_numpy(batch), owner, len(boxes)


class Adaptation:
    """The adaptation in force: None, or (prior, how many BatchNorms from the first)."""

    prior: float | None = None
    layers: int = 8


def source_statistics(
    model: nn.Module, batches: Iterator[Any]
) -> tuple[list[torch.Tensor], list[torch.Tensor]]:
    """Per-channel mean and variance of every BatchNorm's input over the batches."""
    bns = [m for m in model.modules() if isinstance(m, nn.BatchNorm2d)]
    sums: list[list[Any]] = [[0, 0.0, 0.0] for _ in bns]

    def hook(i: int) -> Any:
        def record(_m: nn.Module, inp: tuple[torch.Tensor], _out: torch.Tensor) -> None:
            x = inp[0]
            sums[i][0] += x.shape[0] * x.shape[2] * x.shape[3]
            sums[i][1] = sums[i][1] + x.sum((0, 2, 3))
            sums[i][2] = sums[i][2] + (x * x).sum((0, 2, 3))

        return record

    handles = [bn.register_forward_hook(hook(i)) for i, bn in enumerate(bns)]
    with torch.no_grad():
        for _, x, _, _ in batches:
            model(x)
    for h in handles:
        h.remove()
    means = [s[1] / s[0] for s in sums]
    return means, [s[2] / s[0] - m * m for s, m in zip(sums, means, strict=True)]


def adapt(model: nn.Module, means: list[torch.Tensor], variances: list[torch.Tensor]) -> None:
    """Hooks on the (folded, identity-plus-shift) BatchNorms applying `Adaptation`."""
    shape = (1, -1, 1, 1)
    for i, bn in enumerate(m for m in model.modules() if isinstance(m, nn.BatchNorm2d)):

        def hook(m: nn.Module, inp: tuple[torch.Tensor], _out: torch.Tensor, i: int = i) -> Any:
            if Adaptation.prior is None or i >= Adaptation.layers:
                return None
            x = inp[0]
            a = x.shape[0] / (x.shape[0] + Adaptation.prior)
            mu = a * x.mean((0, 2, 3)) + (1 - a) * means[i]
            var = a * x.var((0, 2, 3), unbiased=False) + (1 - a) * variances[i]
            src_mu, src_sd = means[i].view(shape), torch.sqrt(variances[i].view(shape) + 1e-5)
            aligned = (x - mu.view(shape)) / torch.sqrt(var.view(shape) + 1e-5) * src_sd + src_mu
            return m.bias.view(shape) + aligned

        bn.register_forward_hook(hook)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("folder", type=Path)
    ap.add_argument("--source", type=Path, required=True, help="train scene folder for the source statistics")
    ap.add_argument("--init", type=Path, default=Path("runs/init_v14/classifier.pt"))
    ap.add_argument("--limit", type=int, default=300)
    args = ap.parse_args(argv)
    torch.set_num_threads(2)
    recognizer = Recognizer(None, None, Settings())
    s = recognizer.settings
    model = TileClassifier(44, 48)
    model.load_state_dict(torch.load(args.init, weights_only=False)["model"])
    model.eval()
    means, variances = source_statistics(model, photo_batches(recognizer, args.source, 300))
    adapt(model, means, variances)
    kinds = scene_kinds(args.folder, "adapt_bn_probe") or {}
    data = list(photo_batches(recognizer, args.folder, args.limit))
    for prior, layers in [(None, 8), (16, 2), (16, 4), (16, 8), (64, 2), (64, 4), (64, 8)]:
        Adaptation.prior, Adaptation.layers = prior, layers
        tally: dict[str, list[int]] = {}
        with torch.no_grad():
            for sample, x, owner, boxes in data:
                probs = combine_views(torch.softmax(model(x), 1).numpy(), owner, boxes, s.combine)
                tiles, not_tile = split_not_a_tile(probs, True)
                n = len(sample.labels)
                guess = np.where(not_tile[:n] >= s.not_a_tile_min, -1, tiles[:n].argmax(1))
                for key in ("all", kinds.get(sample.image.stem, {}).get("artwork", "?")):
                    row = tally.setdefault(key, [0, 0])
                    row[0] += int((guess == sample.labels).sum())
                    row[1] += n
        print(prior, layers, " ".join(f"{k}={a / b:.4f}" for k, (a, b) in sorted(tally.items())), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
