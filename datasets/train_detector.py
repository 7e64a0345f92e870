"""Train the CenterNet-style tile detector (channel 0 face-up tile, channel 1 face-down back).

Inputs follow the ONNX contract: the photo is resized to fit S x S keeping its aspect ratio, placed at the
top-left, padded with 0.5. Training samples random windows of that canvas with random scale and aspect,
flips, colour jitter and synthetic backs painted over some tiles.
Example: .venv/bin/python -m datasets.train_detector --epochs 30 --out runs/detector
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Iterator

import cv2
import numpy as np
import torch
import torch.nn.functional as F

from datasets.augment import colour_jitter, degrade, paint_back, quarter_turn
from datasets.batch_workers import epoch_batches
from datasets.models import TileDetector
from datasets.onnx_init import freeze_batchnorm
from datasets.row_strip import long_strip
from datasets.training_run import add_run_args, cpu_state, log, save_last, start_optimisation, start_run
from datasets.yolo import BACK
from recognizer.detector import pairwise_overlap

STRIDE = 4


def letterbox(img: np.ndarray, size: int) -> tuple[np.ndarray, float]:
    """Contract input: fit into size x size keeping aspect, top-left, pad 0.5. Returns float HWC, scale."""
    h, w = img.shape[:2]
    scale = size / max(h, w)
    nw, nh = max(round(w * scale), 1), max(round(h * scale), 1)
    interp = cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR
    canvas = np.full((size, size, 3), 0.5, dtype=np.float32)
    canvas[:nh, :nw] = cv2.resize(img, (nw, nh), interpolation=interp).astype(np.float32) / 255.0
    return canvas, scale


def draw_targets(
    boxes: np.ndarray, classes: np.ndarray, grid: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Gaussian heatmap (2,G,G), and per-object (index, size, offset) regression targets."""
    heat = np.zeros((2, grid, grid), dtype=np.float32)
    inds, sizes, offs = [], [], []
    ys, xs = np.arange(grid, dtype=np.float32)[:, None], np.arange(grid, dtype=np.float32)[None, :]
    for (x0, y0, x1, y1), c in zip(boxes, classes, strict=True):
        w, h = x1 - x0, y1 - y0
        cx, cy = (x0 + x1) / 2 / STRIDE, (y0 + y1) / 2 / STRIDE
        ix, iy = int(cx), int(cy)
        if not (0 <= ix < grid and 0 <= iy < grid) or w < 2 or h < 2:
            continue
        sx, sy = max(0.54 * w / 6 / STRIDE, 0.7), max(0.54 * h / 6 / STRIDE, 0.7)
        r = int(3 * max(sx, sy)) + 1
        ya, yb, xa, xb = max(iy - r, 0), min(iy + r + 1, grid), max(ix - r, 0), min(ix + r + 1, grid)
        g = np.exp(-((xs[:, xa:xb] - ix) ** 2) / (2 * sx * sx) - ((ys[ya:yb] - iy) ** 2) / (2 * sy * sy))
        np.maximum(heat[c, ya:yb, xa:xb], g, out=heat[c, ya:yb, xa:xb])
        inds.append(iy * grid + ix)
        sizes.append((w, h))
        offs.append((cx - ix, cy - iy))
    n = len(inds)
    return (
        heat,
        np.array(inds, dtype=np.int64).reshape(n),
        np.array(sizes, dtype=np.float32).reshape(n, 2),
        np.array(offs, dtype=np.float32).reshape(n, 2),
    )


def sample_window(
    img: np.ndarray,
    boxes: np.ndarray,
    labels: np.ndarray,
    size: int,
    window: int,
    rng: np.random.Generator,
    back_prob: float,
    zoom: tuple[float, float] = (0.5, 1.4),
    turn_prob: float = 0.0,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """One augmented training window (window x window uint8 RGB) cut from the contract canvas of size S,
    with its boxes (xyxy, canvas pixels) and classes (0 face-up, 1 back). The photo is scaled by a random
    factor in `zoom` times "fit to S", and turned by quarter turns with probability `turn_prob` (0: no
    random draw, so earlier recipes train as they did)."""
    classes = (labels == BACK).astype(np.int64)
    if len(boxes) and rng.random() < back_prob:
        img = img.copy()
        pick = rng.random(len(boxes)) < rng.uniform(0.1, 0.6)
        for k in np.flatnonzero(pick):
            paint_back(img, boxes[k], rng)
        classes[pick] = 1
    if turn_prob and rng.random() < turn_prob:
        img, boxes = quarter_turn(img, boxes, int(rng.integers(1, 4)))
    h, w = img.shape[:2]
    aspect = np.exp(rng.uniform(np.log(0.75), np.log(1.33)))  # undo/redo the 4:3 -> square stretch
    pw, ph = w * aspect, h  # the "photo" size
    fit = size / max(pw, ph)
    scale = fit * np.exp(rng.uniform(np.log(zoom[0]), np.log(zoom[1])))
    sx, sy = pw / w * scale, ph / h * scale
    cw, ch = w * sx, h * sy  # content extent on the canvas (may exceed S when zoomed in)
    ox = rng.uniform(0, max(cw - window * 0.7, 0.0))
    oy = rng.uniform(0, max(ch - window * 0.7, 0.0))
    flip = rng.random() < 0.5
    m = np.array([[sx, 0, -ox], [0, sy, -oy]], dtype=np.float32)
    if flip:  # mirror the window horizontally
        m = np.array([[-sx, 0, window - 1 + ox], [0, sy, -oy]], dtype=np.float32)
    interp = cv2.INTER_AREA if min(sx, sy) < 0.8 else cv2.INTER_LINEAR
    if interp == cv2.INTER_AREA:  # warpAffine has no area filter: pre-shrink
        small = cv2.resize(img, (max(int(w * sx), 1), max(int(h * sy), 1)), interpolation=cv2.INTER_AREA)
        m2 = m.copy()
        m2[0, 0] = m[0, 0] / sx * (w * sx / max(int(w * sx), 1))
        m2[1, 1] = m[1, 1] / sy * (h * sy / max(int(h * sy), 1))
        out = cv2.warpAffine(small, m2, (window, window), flags=cv2.INTER_LINEAR, borderValue=(128, 128, 128))
    else:
        out = cv2.warpAffine(img, m, (window, window), flags=cv2.INTER_LINEAR, borderValue=(128, 128, 128))
    # beyond the canvas (S) the runtime pads 0.5 too; beyond the photo the canvas is 0.5 already
    b = boxes.copy()
    b[:, [0, 2]] = b[:, [0, 2]] * sx - ox
    b[:, [1, 3]] = b[:, [1, 3]] * sy - oy
    if flip:
        b[:, [0, 2]] = window - 1 - b[:, [2, 0]]
    cxy = (b[:, :2] + b[:, 2:]) / 2
    keep = (cxy[:, 0] >= 0) & (cxy[:, 0] < window) & (cxy[:, 1] >= 0) & (cxy[:, 1] < window)
    return degrade(out, rng), b[keep], classes[keep]


def focal_loss(logits: torch.Tensor, target: torch.Tensor) -> torch.Tensor:
    """CenterNet penalty-reduced pixel-wise focal loss, normalised by the number of centres."""
    p = torch.sigmoid(logits).clamp(1e-4, 1 - 1e-4)
    pos = target.eq(1).float()
    neg = 1 - pos
    pos_loss = torch.log(p) * (1 - p) ** 2 * pos
    neg_loss = torch.log(1 - p) * p**2 * (1 - target) ** 4 * neg
    n = pos.sum().clamp(min=1)
    return -(pos_loss.sum() + neg_loss.sum()) / n


def gather(t: torch.Tensor, batch_idx: torch.Tensor, ind: torch.Tensor) -> torch.Tensor:
    """(N,2,G,G) values at the object centres -> (K,2)."""
    n, c, gh, gw = t.shape
    return t.reshape(n, c, gh * gw)[batch_idx, :, ind]


def nms(boxes: np.ndarray, scores: np.ndarray, iou: float) -> np.ndarray:
    """Greedy non-maximum suppression; returns kept indices."""
    order = np.argsort(-scores)
    keep = []
    area = (boxes[:, 2] - boxes[:, 0]) * (boxes[:, 3] - boxes[:, 1])
    while len(order):
        i = order[0]
        keep.append(i)
        rest = order[1:]
        xx0 = np.maximum(boxes[i, 0], boxes[rest, 0])
        yy0 = np.maximum(boxes[i, 1], boxes[rest, 1])
        xx1 = np.minimum(boxes[i, 2], boxes[rest, 2])
        yy1 = np.minimum(boxes[i, 3], boxes[rest, 3])
        inter = np.clip(xx1 - xx0, 0, None) * np.clip(yy1 - yy0, 0, None)
        order = rest[inter / (area[i] + area[rest] - inter + 1e-9) < iou]
    return np.array(keep, dtype=np.int64)


def decode_peaks(
    heat: np.ndarray, size: np.ndarray, offset: np.ndarray, thresh: float, nms_iou: float = 0.5
) -> np.ndarray:
    """One image's maps (2,G,G each, heat already sigmoid) -> (k,6) x0 y0 x1 y1 score channel."""
    t = torch.from_numpy(heat)[None]
    peaks = (t == F.max_pool2d(t, 3, 1, 1))[0].numpy() & (heat >= thresh)
    ch, gy, gx = np.nonzero(peaks)
    if len(ch) == 0:
        return np.zeros((0, 6), dtype=np.float32)
    cx = (gx + offset[0, gy, gx]) * STRIDE
    cy = (gy + offset[1, gy, gx]) * STRIDE
    w, h = size[0, gy, gx], size[1, gy, gx]
    boxes = np.stack([cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2], 1)
    scores = heat[ch, gy, gx]
    keep = nms(boxes, scores, nms_iou)  # class-agnostic: a tile is face-up or face-down, not both
    return np.concatenate([boxes[keep], scores[keep, None], ch[keep, None]], 1).astype(np.float32)


def iou_matrix(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Pairwise IoU of xyxy boxes."""
    inter, aa, ab = pairwise_overlap(a, b)
    return inter / (aa[:, None] + ab[None, :] - inter + 1e-9)


def match_counts(pred: np.ndarray, gt: np.ndarray, iou: float = 0.5) -> tuple[int, int]:
    """Greedy matching by score: (true positives, number of predictions)."""
    if len(pred) == 0 or len(gt) == 0:
        return 0, len(pred)
    m = iou_matrix(pred[:, :4], gt)
    used = np.zeros(len(gt), dtype=bool)
    tp = 0
    for i in np.argsort(-pred[:, 4]):
        cand = np.where(~used & (m[i] >= iou))[0]
        if len(cand):
            used[cand[np.argmax(m[i, cand])]] = True
            tp += 1
    return tp, len(pred)


@torch.no_grad()
def evaluate(
    model: TileDetector,
    images: list[np.ndarray],
    samples: list,
    size: int,
    thresholds: tuple[float, ...],
    device: str = "cpu",
) -> dict[float, tuple[float, float]]:
    """Box precision/recall at IoU >= 0.5 on valid for each heatmap threshold (boxes in original pixels)."""
    model.eval()
    model.export_mode = True
    tp = dict.fromkeys(thresholds, 0)
    npred = dict.fromkeys(thresholds, 0)
    ngt = 0
    for k in range(0, len(images), 16):
        batch, scales = [], []
        for img in images[k : k + 16]:
            canvas, s = letterbox(img, size)
            batch.append(canvas)
            scales.append(s)
        x = torch.from_numpy(np.stack(batch)).permute(0, 3, 1, 2).contiguous()
        heat, wh, off = (t.cpu().numpy() for t in model(x.to(device)))
        for j, s in enumerate(scales):
            gt = samples[k + j].boxes
            ngt += len(gt)
            for th in thresholds:
                det = decode_peaks(heat[j], wh[j], off[j], th)
                det[:, :4] /= s
                a, b = match_counts(det, gt)
                tp[th] += a
                npred[th] += b
    model.export_mode = False
    return {th: (tp[th] / max(npred[th], 1), tp[th] / max(ngt, 1)) for th in thresholds}


def step_plans(
    order: np.ndarray, steps: int, batch: int, strip_prob: float, rng: np.random.Generator
) -> Iterator[tuple[bool, list[int]]]:
    """Each step's plan: whether its batch is row strips (then half a batch of whole canvases) and which
    photos it takes, in `order`, drawn one step at a time."""
    at = 0
    for _ in range(steps):
        strip = bool(rng.random() < strip_prob)
        n = batch // 2 if strip else batch
        yield strip, [int(order[(at + b) % len(order)]) for b in range(n)]
        at += n


def detector_batch(
    images: list[np.ndarray],
    samples: list,
    plan: tuple[bool, list[int]],
    rng: np.random.Generator,
    args: argparse.Namespace,
) -> tuple[torch.Tensor, ...]:
    """One step's windows and CenterNet targets: (x, heatmaps, batch index, centre index, sizes, offsets)."""
    strip, photos = plan
    window = args.size if strip else args.window
    grid = window // STRIDE
    wins, heats, bidx, inds, sizes, offs = [], [], [], [], [], []
    for b, i in enumerate(photos):
        photo = (images[i], samples[i].boxes, samples[i].labels)
        made = None
        if strip:  # this photo's row, joined with rows of a few random others
            others = rng.integers(len(samples), size=5)
            rows = [photo, *((images[k], samples[k].boxes, samples[k].labels) for k in others)]
            made = long_strip(rows, rng)
        img, photo_boxes, photo_labels = made or photo
        win, boxes, classes = sample_window(
            img,
            photo_boxes,
            photo_labels,
            args.size,
            window,
            rng,
            args.back_prob,
            zoom=(0.75, 1.05) if made else (0.5, 1.4),
            turn_prob=0.0 if made else args.turn_prob,
        )
        heat, ind, sz, of = draw_targets(boxes, classes, grid)
        wins.append(win)
        heats.append(heat)
        bidx.append(np.full(len(ind), b))
        inds.append(ind)
        sizes.append(sz)
        offs.append(of)
    x = torch.from_numpy(colour_jitter(np.stack(wins).astype(np.float32) / 255.0, rng)).permute(0, 3, 1, 2)
    return (
        x.contiguous(),
        torch.from_numpy(np.stack(heats)),
        torch.from_numpy(np.concatenate(bidx)).long(),
        torch.from_numpy(np.concatenate(inds)),
        torch.from_numpy(np.concatenate(sizes)),
        torch.from_numpy(np.concatenate(offs)),
    )


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", help="dataset folder (default ../shared/datasets/chinese-mahjong-detection)")
    ap.add_argument("--out", default="runs/detector", help="run folder: log, checkpoints")
    ap.add_argument("--size", type=int, default=384, help="contract input size S (labels.json detector_size)")
    ap.add_argument("--window", type=int, default=256, help="training window cut from the S canvas")
    ap.add_argument("--epochs", type=int, default=30)
    ap.add_argument("--batch", type=int, default=16)
    ap.add_argument("--lr", type=float, default=2e-3)
    ap.add_argument("--width", type=int, default=16)
    ap.add_argument("--neck", type=int, default=48)
    ap.add_argument("--back-prob", type=float, default=0.3, help="share of images with synthetic backs")
    ap.add_argument(
        "--strip-prob",
        type=float,
        default=0.0,
        help="share of steps whose batch is row strips (datasets/row_strip.py): whole S canvases, half batch",
    )
    ap.add_argument(
        "--turn-prob",
        type=float,
        default=0.0,
        help="share of photos turned by quarter turns (rows running up the frame, as from beside the hand)",
    )
    ap.add_argument("--eval-every", type=int, default=3)
    add_run_args(ap)
    args = ap.parse_args(argv)

    run = start_run(args)
    out, logf, train, valid, train_imgs, valid_imgs = (
        run.out, run.logf, run.train, run.valid, run.train_imgs, run.valid_imgs
    )  # fmt: skip
    steps = len(train) // args.batch

    model = TileDetector(args.width, args.neck)
    optimisation = start_optimisation(model, args, run, args.epochs * steps, pct_start=0.1)
    opt, sched, start, best = optimisation.opt, optimisation.sched, optimisation.start, optimisation.best

    def make(plan: tuple[bool, list[int]], rng: np.random.Generator) -> tuple[torch.Tensor, ...]:
        return detector_batch(train_imgs, train, plan, rng, args)

    thresholds = (0.2, 0.3, 0.4, 0.5)
    for epoch in range(start, args.epochs):
        rng = np.random.default_rng(args.seed * 1000 + epoch)
        order = rng.permutation(len(train))
        model.train()
        if args.freeze_bn:
            freeze_batchnorm(model)
        t0 = time.time()
        tots = np.zeros(3)
        plans = step_plans(order, steps, args.batch, args.strip_prob, rng)
        batches = epoch_batches(make, plans, rng, args.workers)
        for step, batch in enumerate(batches):
            x, target, bi, ii, tsz, tof = (t.to(args.device) for t in batch)
            heat_logits, wh, off = model(x)
            l_heat = focal_loss(heat_logits, target)
            if len(ii):
                l_size = (torch.log(gather(wh, bi, ii)) - torch.log(tsz)).abs().mean()
                l_off = (gather(off, bi, ii) - tof).abs().mean()
            else:
                l_size = l_off = heat_logits.sum() * 0
            loss = l_heat + l_size + l_off
            opt.zero_grad(set_to_none=True)
            loss.backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), 10.0)
            opt.step()
            sched.step()
            tots += [l_heat.item(), l_size.item(), l_off.item()]
            if step % 20 == 0:
                h, s_, o = tots / (step + 1)
                log(logf, f"epoch {epoch} step {step}/{steps} heat {h:.4f} size {s_:.4f} off {o:.4f}")
        h, s_, o = tots / steps
        log(logf, f"epoch {epoch} done in {time.time() - t0:.0f}s heat {h:.4f} size {s_:.4f} off {o:.4f}")
        if (epoch + 1) % args.eval_every == 0 or epoch == args.epochs - 1:
            t1 = time.time()
            res = evaluate(model, valid_imgs, valid, args.size, thresholds, args.device)
            f1 = {th: 2 * p * r / max(p + r, 1e-9) for th, (p, r) in res.items()}
            th_best = max(f1, key=lambda t: f1[t])
            log(
                logf,
                f"epoch {epoch} valid ({time.time() - t1:.0f}s) "
                + " ".join(f"th{th}: P={p:.4f} R={r:.4f}" for th, (p, r) in res.items()),
            )
            if f1[th_best] > best:
                best = f1[th_best]
                torch.save({"model": cpu_state(model), "epoch": epoch, "args": vars(args)}, out / "best.pt")
                p, r = res[th_best]
                (out / "best_metrics.json").write_text(
                    json.dumps(
                        {
                            "epoch": epoch,
                            "threshold": th_best,
                            "precision": p,
                            "recall": r,
                            "f1": best,
                            "all": {str(k): v for k, v in res.items()},
                        }
                    )
                )
                log(logf, f"new best F1 {best:.4f} at epoch {epoch} (threshold {th_best})")
        # every epoch kept: the valid split alone does not choose (world scenes and valid together do)
        snapshot = {"model": cpu_state(model), "epoch": epoch, "args": vars(args)}
        torch.save(snapshot, out / f"epoch{epoch}.pt")
        save_last(run, model, optimisation, epoch, best, args)
    log(logf, f"finished; best valid F1 {best:.4f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
