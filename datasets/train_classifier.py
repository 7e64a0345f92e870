"""Train the 43-label tile crop classifier from the YOLO train split (+ synthetic backs), report on valid.
With --not-a-tile it has a 44th output, "not a tile", trained on the hard negatives that
`datasets.mine_negatives` found in the synthetic scenes and on bare table between their tiles.

On a machine with a GPU and many cores, `--device cuda --workers N` trains there with N processes cutting
the crops (`datasets/many_cores_round.sh` does a whole round); `--teacher` also learns from other
classifiers' readings (distillation).

Example: .venv/bin/python -m datasets.train_classifier --epochs 18 --out runs/classifier
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np
import torch
import torch.nn.functional as F

from datasets.augment import (
    colour_jitter,
    degrade,
    ink_jitter,
    load_images,
    occlude,
    paint_back,
    paint_blank,
)
from datasets.batch_workers import epoch_batches, slices
from datasets.export_onnx import load_classifier
from datasets.mine_negatives import far_from_tiles, read_negatives
from datasets.mix_style import add_mix_style
from datasets.models import TileClassifier
from datasets.onnx_init import freeze_batchnorm
from datasets.random_conv import random_convolution
from datasets.row_strip import row_strip
from datasets.tile_crops import CROP_SIZE, PAD, crop_tile, parse_crop_size, random_crop
from datasets.training_run import add_run_args, cpu_state, log, save_last, start_optimisation, start_run
from datasets.yolo import BACK, LABELS, read_folder

RARE_SUFFIXES = ("f", "y")  # flowers and seasons have ~3x fewer boxes
NOT_A_TILE = len(LABELS)
"""Index of the "not a tile" output (after the 43 labels) of a classifier trained with --not-a-tile."""


def build_index(samples: list, oversample: int, real: int = 0, real_repeat: int = 1) -> np.ndarray:
    """Rows (image index, box index, label), rare classes repeated `oversample` times and the boxes of the
    first `real` samples (the real photos) `real_repeat` times, so many scenes do not drown them."""
    rows = []
    for i, s in enumerate(samples):
        for j, lab in enumerate(s.labels):
            reps = oversample if LABELS[lab].endswith(RARE_SUFFIXES) else 1
            rows.extend([(i, j, int(lab))] * reps * (real_repeat if i < real else 1))
    return np.array(rows, dtype=np.int64)


def painted_crop(
    img: np.ndarray,
    box: np.ndarray,
    rng: np.random.Generator,
    pad: float,
    paint: Callable[[np.ndarray, np.ndarray, np.random.Generator], bool | None],
    size: tuple[int, int] = CROP_SIZE,
) -> np.ndarray | None:
    """`paint` applied to a copy of the tile's surroundings (half a tile each side), cut like a training
    crop; None when `paint` refuses (returns False)."""
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    H, W = img.shape[:2]
    rx0, ry0 = int(max(x0 - 0.5 * w, 0)), int(max(y0 - 0.5 * h, 0))
    rx1, ry1 = int(min(x1 + 0.5 * w, W)), int(min(y1 + 0.5 * h, H))
    roi = img[ry0:ry1, rx0:rx1].copy()
    local = np.array([x0 - rx0, y0 - ry0, x1 - rx0, y1 - ry0], dtype=np.float32)
    if paint(roi, local, rng) is False:
        return None
    return random_crop(roi, local, rng, pad, size)


def back_crop(
    img: np.ndarray,
    box: np.ndarray,
    rng: np.random.Generator,
    pad: float = PAD,
    size: tuple[int, int] = CROP_SIZE,
) -> np.ndarray:
    """A face-down tile painted over a real tile's place, cut like a training crop."""
    crop = painted_crop(img, box, rng, pad, paint_back, size)
    assert crop is not None  # paint_back never refuses
    return crop


WHITE_DRAGON = LABELS.index("5z")


def blank_crop(
    img: np.ndarray,
    box: np.ndarray,
    rng: np.random.Generator,
    pad: float = PAD,
    size: tuple[int, int] = CROP_SIZE,
) -> np.ndarray | None:
    """The tile in `box` turned into a blank white dragon (augment.paint_blank), cut like a training crop;
    None when it cannot be (no enclosed artwork on a pale face there)."""
    return painted_crop(img, box, rng, pad, paint_blank, size)


class Negatives:
    """Where "not a tile" crops come from: mined boxes (datasets.mine_negatives) and bare table in the
    synthetic scenes that have them (image index -> boxes)."""

    def __init__(self, samples: list) -> None:
        self.mined: dict[int, np.ndarray] = {}
        folders: dict[object, dict[str, np.ndarray]] = {}
        self.scenes: list[int] = []
        for i, s in enumerate(samples):
            folder = s.image.parent.parent
            if folder not in folders:
                folders[folder] = read_negatives(folder)
            if folders[folder]:
                self.scenes.append(i)
                boxes = folders[folder].get(s.image.stem)
                if boxes is not None and len(boxes):
                    self.mined[i] = boxes
        self.with_mined = sorted(self.mined)

    def crop(
        self,
        images: list[np.ndarray],
        samples: list,
        rng: np.random.Generator,
        pad: float,
        size: tuple[int, int] = CROP_SIZE,
    ) -> np.ndarray | None:
        """One training crop of something that is not a tile (None when no scene has negatives)."""
        if not self.scenes:
            return None
        if self.with_mined and rng.random() < 0.7:
            i = self.with_mined[int(rng.integers(len(self.with_mined)))]
            boxes = self.mined[i]
            return random_crop(images[i], boxes[int(rng.integers(len(boxes)))], rng, pad, size)
        for _ in range(10):  # bare table: a tile-sized window off every labelled tile
            i = self.scenes[int(rng.integers(len(self.scenes)))]
            img, truth = images[i], samples[i].boxes
            h, w = img.shape[:2]
            side = float(rng.uniform(0.04, 0.15)) * min(h, w)
            tall = side * float(rng.uniform(1.2, 1.45))
            bw, bh = (side, tall) if rng.random() < 0.75 else (tall, side)
            x0, y0 = rng.uniform(0, max(w - bw, 1)), rng.uniform(0, max(h - bh, 1))
            box = np.array([[x0, y0, x0 + bw, y0 + bh]], np.float32)
            if far_from_tiles(box, truth)[0]:
                return random_crop(img, box[0], rng, pad, size)
        return None


def sliver_jitter(box: np.ndarray, rng: np.random.Generator, sigma: float = 0.12) -> np.ndarray:
    """Shift a box across its short side by N(0, sigma) of that side: on the tall slivers of a stretched
    photo the detector's boxes are off by that much (a few input pixels are a fifth of a tile there)."""
    x0, y0, x1, y1 = (float(v) for v in box)
    out = np.array([x0, y0, x1, y1], dtype=np.float32)
    if x1 - x0 < y1 - y0:
        out[[0, 2]] += rng.normal(0, sigma) * (x1 - x0)
    else:
        out[[1, 3]] += rng.normal(0, sigma) * (y1 - y0)
    return out


def strip_crops(
    images: list[np.ndarray],
    samples: list,
    rows: np.ndarray,
    count: int,
    rng: np.random.Generator,
    pad: float = PAD,
    size: tuple[int, int] = CROP_SIZE,
) -> tuple[list[np.ndarray], list[int]]:
    """`count` training crops of the tiles in row strips (datasets/row_strip.py) made from the photos of
    `rows`: tall slivers in the photo, squeezed back to portrait by the crop."""
    crops: list[np.ndarray] = []
    labels: list[int] = []
    while len(crops) < count:
        i = int(rows[rng.integers(len(rows)), 0])
        made = row_strip(images[i], samples[i].boxes, samples[i].labels, rng)
        if made is None:
            continue
        img, boxes, labs = made
        for box, lab in zip(boxes[: count - len(crops)], labs, strict=False):
            crops.append(random_crop(img, sliver_jitter(box, rng), rng, pad, size))
            labels.append(int(lab))
    return crops, labels


def make_batch(
    images: list[np.ndarray],
    samples: list,
    rows: np.ndarray,
    rng: np.random.Generator,
    back_frac: float,
    strip_frac: float = 0.0,
    pad: float = PAD,
    negatives: Negatives | None = None,
    none_frac: float = 0.0,
    blank_frac: float = 0.0,
    size: tuple[int, int] = CROP_SIZE,
    occlude_frac: float = 0.0,
) -> tuple[torch.Tensor, torch.Tensor]:
    """Augmented crops (N,3,H,W) of `size` (H, W) float and labels, boxes grown by `pad` (-0.04/+0.06);
    a `strip_frac` share of them cut from row strips, a `none_frac` share things that are not tiles
    (`negatives`), a `blank_frac` share of tiles painted blank as white dragons, an `occlude_frac` share
    with part of the face hidden or washed out (augment.occlude; none drawn at 0: the old runs' draws)."""
    n_strip = round(strip_frac * len(rows))
    crops, labels = strip_crops(images, samples, rows, n_strip, rng, pad, size) if n_strip else ([], [])
    n_none = round(none_frac * len(rows)) if negatives is not None else 0
    for _ in range(n_none):
        crop = negatives.crop(images, samples, rng, pad, size) if negatives is not None else None
        if crop is not None:
            crops.append(crop)
            labels.append(NOT_A_TILE)
    for i, j, lab in rows[: len(rows) - len(crops)]:  # the rest of the batch: tiles as labelled
        box = samples[i].boxes[j]
        if rng.random() < back_frac:
            crop, lab = back_crop(images[i], box, rng, pad, size), BACK
        else:
            blank = None
            if blank_frac > 0 and lab != BACK and rng.random() < blank_frac:
                blank = blank_crop(images[i], box, rng, pad, size)
            if blank is None:
                crop = random_crop(images[i], box, rng, pad, size)
            else:
                crop, lab = blank, WHITE_DRAGON
        crops.append(crop)
        labels.append(lab)
    if occlude_frac > 0:
        crops = [
            occlude(c, rng) if lab not in (BACK, NOT_A_TILE) and rng.random() < occlude_frac else c
            for c, lab in zip(crops, labels, strict=True)
        ]
    crops = [degrade(ink_jitter(c, rng), rng) for c in crops]
    batch = colour_jitter(np.stack(crops).astype(np.float32) / 255.0, rng)
    x = torch.from_numpy(batch).permute(0, 3, 1, 2).contiguous()
    return x, torch.tensor(labels, dtype=torch.int64)


def as_tensors(crops: list[np.ndarray], labels: list[int]) -> tuple[torch.Tensor, torch.Tensor]:
    """uint8 HxWx3 crops as an (N,3,H,W) float batch 0..1, and their labels."""
    x = torch.from_numpy(np.stack(crops).astype(np.float32) / 255.0).permute(0, 3, 1, 2).contiguous()
    return x, torch.tensor(labels)


def truth_crops(
    images: list[np.ndarray], samples: list, pad: float, size: tuple[int, int] = CROP_SIZE
) -> tuple[list[np.ndarray], list[int]]:
    """Contract crops (at `pad`, of `size`) of every labelled box of the samples, and their labels."""
    crops, labels = [], []
    for img, s in zip(images, samples, strict=True):
        crops += [crop_tile(img, box, pad, size) for box in s.boxes]
        labels += [int(lab) for lab in s.labels]
    return crops, labels


def valid_set(
    images: list[np.ndarray],
    samples: list,
    rng: np.random.Generator,
    pad: float = PAD,
    size: tuple[int, int] = CROP_SIZE,
) -> tuple[torch.Tensor, torch.Tensor]:
    """Contract crops (at `pad`) of every valid box, plus a fixed set of synthetic backs (valid has none)."""
    crops, labels = truth_crops(images, samples, pad, size)
    for k in range(200):  # synthetic backs painted over valid tiles, fixed seed
        s_i = int(rng.integers(len(samples)))
        if len(samples[s_i].boxes) == 0:
            continue
        box = samples[s_i].boxes[int(rng.integers(len(samples[s_i].boxes)))]
        img = images[s_i].copy()
        paint_back(img, box, rng)
        crops.append(crop_tile(img, box, pad, size))
        labels.append(BACK)
        del k
    return as_tensors(crops, labels)


def scene_set(
    folder: str, pad: float, not_a_tile: bool, size: tuple[int, int] = CROP_SIZE
) -> tuple[torch.Tensor, torch.Tensor]:
    """Contract crops of every box of a synthetic scene folder (world scenes of the train artworks, to
    choose epochs on besides valid), and with `not_a_tile` its mined negatives labelled NOT_A_TILE."""
    samples = read_folder(Path(folder))
    images = load_images([s.image for s in samples])
    crops, labels = truth_crops(images, samples, pad, size)
    negatives = read_negatives(Path(folder)) if not_a_tile else {}
    for img, s in zip(images, samples, strict=True):
        for box in negatives.get(s.image.stem, ()):
            crops.append(crop_tile(img, box, pad, size))
            labels.append(NOT_A_TILE)
    return as_tensors(crops, labels)


def widen_head(state: dict, outputs: int) -> dict:
    """A 43-output checkpoint's weights for a classifier with `outputs` outputs: the new rows start at
    zero weight and a low bias, so the new output starts unlikely and the old ones read as before."""
    weight, bias = state["head.3.weight"], state["head.3.bias"]
    extra = outputs - weight.shape[0]
    if extra <= 0:
        return state
    state = dict(state)
    state["head.3.weight"] = torch.cat([weight, torch.zeros(extra, weight.shape[1])])
    state["head.3.bias"] = torch.cat([bias, torch.full((extra,), -3.0)])
    return state


@torch.no_grad()
def evaluate(
    model: TileClassifier, x: torch.Tensor, y: torch.Tensor, device: str = "cpu"
) -> tuple[float, np.ndarray, np.ndarray]:
    """Accuracy, per-class accuracy, and confusion matrix (one row and column per output)."""
    model.eval()
    preds = torch.cat([model(x[k : k + 512].to(device)).argmax(1).cpu() for k in range(0, len(x), 512)])
    outputs = int(model(x[:1].to(device)).shape[1])
    conf = np.zeros((outputs, outputs), dtype=np.int64)
    np.add.at(conf, (y.numpy(), preds.numpy()), 1)
    per = conf.diagonal() / np.maximum(conf.sum(1), 1)
    return float((preds == y).float().mean()), per, conf


def distillation(logits: torch.Tensor, teacher: torch.nn.Module, x: torch.Tensor) -> torch.Tensor:
    """KL divergence of the network's distribution from the teacher's on the same crops (Hinton et al.,
    2015, at temperature 1): a teacher that averages several networks hands its knowledge to one network,
    which reads as fast as any one of them."""
    with torch.no_grad():
        target = teacher(x).log_softmax(dim=1)  # an ensemble's output is already log-probabilities
    return F.kl_div(logits.log_softmax(dim=1), target, log_target=True, reduction="batchmean")


def crop_size_arg(text: str) -> tuple[int, int]:
    """--crop's value, its mistake said as parse_crop_size says it."""
    try:
        return parse_crop_size(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from exc


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", help="dataset folder (default ../shared/datasets/chinese-mahjong-detection)")
    ap.add_argument("--out", default="runs/classifier", help="run folder: log, checkpoints")
    ap.add_argument("--epochs", type=int, default=18)
    ap.add_argument("--batch", type=int, default=128)
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument("--width", type=int, default=32)
    ap.add_argument("--oversample", type=int, default=3, help="repeat flower/season boxes this often")
    ap.add_argument(
        "--back-frac", type=float, default=0.04, help="share of crops replaced by synthetic backs"
    )
    ap.add_argument(
        "--blank-frac",
        type=float,
        default=0.0,
        help="share of tile crops painted blank and taught as white dragons (augment.paint_blank)",
    )
    ap.add_argument(
        "--strip-frac", type=float, default=0.0, help="share of crops cut from row strips (row_strip.py)"
    )
    ap.add_argument(
        "--pad", type=float, default=PAD, help="crop pad trained on (-0.04/+0.06) and checked on valid"
    )
    ap.add_argument(
        "--crop",
        type=crop_size_arg,
        default=CROP_SIZE,
        help="crop HEIGHTxWIDTH the classifier reads (default 64x48; larger sees more of a glyph, slower)",
    )
    ap.add_argument(
        "--occlude-frac",
        type=float,
        default=0.0,
        help="share of tile crops with part of the face hidden or washed out (augment.occlude; 0: none)",
    )
    ap.add_argument("--not-a-tile", action="store_true", help='a 44th output, "not a tile" (mined negatives)')
    ap.add_argument(
        "--random-conv",
        type=float,
        default=0.0,
        help="share of crops filtered by a random convolution (datasets/random_conv.py; 0: none)",
    )
    ap.add_argument(
        "--mix-style",
        type=float,
        default=0.0,
        help="chance a batch's early features swap their statistics between crops (datasets/mix_style.py; "
        "0: never)",
    )
    ap.add_argument("--none-frac", type=float, default=0.06, help="share of crops that are not tiles")
    ap.add_argument(
        "--choose-also",
        help="scene folder (train artworks) whose crops choose the best epoch with valid: mean accuracy",
    )
    ap.add_argument(
        "--real-repeat", type=int, default=1, help="draw the real photos' boxes this many times an epoch"
    )
    ap.add_argument(
        "--teacher",
        nargs="+",
        help="classifier checkpoint(s) to learn from besides the labels (several: their average)",
    )
    ap.add_argument(
        "--teacher-weight", type=float, default=0.5, help="share of the loss that follows the teacher"
    )
    ap.add_argument(
        "--max-minutes",
        type=float,
        default=0.0,
        help="start no epoch after this many minutes of training (0: run every epoch)",
    )
    add_run_args(ap)
    args = ap.parse_args(argv)

    run = start_run(args)
    out, logf, train, valid, train_imgs, valid_imgs = (
        run.out, run.logf, run.train, run.valid, run.train_imgs, run.valid_imgs
    )  # fmt: skip
    vx, vy = valid_set(valid_imgs, valid, np.random.default_rng(1234), args.pad, args.crop)
    del valid_imgs
    tx, ty = (None, None)
    if args.choose_also:
        tx, ty = scene_set(args.choose_also, args.pad, args.not_a_tile, args.crop)
    rows = build_index(train, args.oversample, run.real, args.real_repeat)
    steps_per_epoch = len(rows) // args.batch
    negatives = Negatives(train) if args.not_a_tile else None
    log(
        logf,
        f"{len(rows)} crops/epoch, {steps_per_epoch} steps; valid {len(vy)} crops"
        + (f"; choose also on {len(ty)} crops of {args.choose_also}" if ty is not None else "")
        + (
            f"; not-a-tile from {len(negatives.scenes)} scenes, {len(negatives.with_mined)} with mined boxes"
            if negatives is not None
            else ""
        ),
    )
    outputs = len(LABELS) + int(args.not_a_tile)
    if args.init and args.not_a_tile:  # a 43-output checkpoint grows its "not a tile" output here
        checkpoint = torch.load(args.init, weights_only=False)
        widened = Path(out) / "init_widened.pt"
        torch.save({**checkpoint, "model": widen_head(checkpoint["model"], outputs)}, widened)
        args.init = str(widened)

    def make(batch_rows: np.ndarray, rng: np.random.Generator) -> tuple[torch.Tensor, torch.Tensor]:
        return make_batch(
            train_imgs, train, batch_rows, rng, args.back_frac, args.strip_frac, args.pad, negatives,
            args.none_frac, args.blank_frac, args.crop, args.occlude_frac,
        )  # fmt: skip

    model = TileClassifier(outputs, args.width)
    if args.mix_style > 0:  # after the first two stages, where a set's ink and light live
        add_mix_style([model.features[1], model.features[3]], args.seed, args.mix_style)
    optimisation = start_optimisation(model, args, run, args.epochs * steps_per_epoch, pct_start=0.15)
    opt, sched, start, best = optimisation.opt, optimisation.sched, optimisation.start, optimisation.best
    teacher = load_classifier(args.teacher).to(args.device) if args.teacher else None
    if teacher is not None and teacher(vx[:1].to(args.device)).shape[1] != outputs:
        raise SystemExit(f"error: the teacher's outputs differ from the {outputs} of this run")

    started = time.time()
    for epoch in range(start, args.epochs):
        if args.max_minutes and time.time() - started > 60 * args.max_minutes:
            log(logf, f"stopped before epoch {epoch}: past --max-minutes {args.max_minutes}")
            break
        rng = np.random.default_rng(args.seed * 1000 + epoch)
        order = rows[rng.permutation(len(rows))]
        model.train()
        if args.freeze_bn:
            freeze_batchnorm(model)
        t0, tot, n = time.time(), 0.0, 0
        plans = slices(order, args.batch, steps_per_epoch)
        batches = epoch_batches(make, plans, rng, args.workers)
        for step, (x, y) in enumerate(batches):
            x = random_convolution(x, rng, args.random_conv)
            x, y = x.to(args.device, non_blocking=True), y.to(args.device, non_blocking=True)
            logits = model(x)
            loss = F.cross_entropy(logits, y, label_smoothing=0.1)
            if teacher is not None:
                loss = (1 - args.teacher_weight) * loss + args.teacher_weight * distillation(
                    logits, teacher, x
                )
            opt.zero_grad(set_to_none=True)
            loss.backward()
            opt.step()
            sched.step()
            tot, n = tot + loss.item(), n + 1
            if step % 50 == 0:
                log(logf, f"epoch {epoch} step {step}/{steps_per_epoch} loss {tot / n:.4f}")
        names = [*LABELS, "none"][:outputs]
        valid_acc, per, conf = evaluate(model, vx, vy, args.device)
        weak = sorted(range(len(LABELS)), key=lambda k: per[k])[:6]
        acc, tune_note = valid_acc, ""
        if tx is not None and ty is not None:
            tune_acc, tune_per, _ = evaluate(model, tx, ty, args.device)
            acc = (valid_acc + tune_acc) / 2
            none_note = f", not-a-tile {tune_per[NOT_A_TILE]:.3f}" if args.not_a_tile else ""
            tune_note = f" scenes acc {tune_acc:.4f}{none_note}, mean {acc:.4f}"
        log(
            logf,
            f"epoch {epoch} done in {time.time() - t0:.0f}s loss {tot / n:.4f} valid acc {valid_acc:.4f}"
            f"{tune_note} weak {', '.join(f'{LABELS[k]}={per[k]:.2f}' for k in weak)}",
        )
        log(logf, "per-class " + " ".join(f"{names[k]}={per[k]:.3f}" for k in range(len(LABELS))))
        if acc > best:
            best = acc
            torch.save(
                {"model": cpu_state(model), "epoch": epoch, "acc": acc, "args": vars(args)}, out / "best.pt"
            )
            (out / "best_metrics.json").write_text(
                json.dumps(
                    {
                        "epoch": epoch,
                        "valid_acc": acc,
                        "per_class": dict(zip(names, per.round(4).tolist(), strict=True)),
                        "confusion": conf.tolist(),
                    }
                )
            )
            log(logf, f"new best {acc:.4f} at epoch {epoch}")
        # every epoch kept, to be compared through the whole recognizer (datasets.evaluate_world, evaluate)
        snapshot = {"model": cpu_state(model), "epoch": epoch, "args": vars(args)}
        torch.save(snapshot, out / f"epoch{epoch}.pt")
        save_last(run, model, optimisation, epoch, best, args)
    log(logf, f"finished; best valid acc {best:.4f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
