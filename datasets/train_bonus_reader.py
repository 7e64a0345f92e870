"""Train the bonus reader: a small second network that reads again every tile the classifier calls a flower
or season, and names which of the eight it is, or that it is none (the ninth output).

Sets print their flowers and seasons differently (a numeral, the character, an English name, or only a
picture). The classifier tells the training sets' bonus tiles apart by their pictures and reads few of
another set's; a network made to read the print (`datasets.bonus_probe`) reads far more. The mix of each
batch (shares in MIX): procedural-varied's printed faces, whose pictures say nothing of their code; every
train artwork's bonus faces; bonus tiles cut from train world scenes and from the training photos as the
runtime cuts them; and other tiles, so a honour the classifier took for a flower can be handed back.
Every face composed here sits on a tile body with the table around it, at the runtime's crop pad.

    .venv/bin/python -m datasets.train_bonus_reader --scenes runs/world_train27 runs/world_lone28 \\
        --out runs/bonus_reader --steps 3000
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import cv2
import numpy as np
import torch
import torch.nn.functional as F

from datasets.augment import BACK_COLOURS, colour_jitter, degrade, ink_jitter, load_images
from datasets.faces import load_faces
from datasets.faces_varied import render_varied
from datasets.models import BonusReaderNet
from datasets.tile_crops import CROP_H, CROP_W, crop_tile, random_crop
from datasets.yolo import LABELS, read_folder, read_split, require_data_dir
from recognizer.labels import BONUS

CODES = BONUS
"""The reader's outputs, in this order, then NONE."""
NONE = len(CODES)
"""Index of the output "not a flower or season"."""
PAD = 0.175
"""The crop pad the runtime reads at (labels.json "pad")."""
MIX = {"printed": 0.3, "artwork": 0.15, "scene": 0.25, "photo": 0.1, "other": 0.2}
"""Shares of a training batch by source (the default of --mix)."""
Faces = list[tuple[int, np.ndarray]]


def parse_mix(text: str) -> dict[str, float]:
    """ "printed=0.5,other=0.2" -> MIX with those shares changed; every share at least 0, summing to 1."""
    mix = dict(MIX)
    for part in filter(None, text.split(",")):
        name, _, value = part.partition("=")
        if name.strip() not in MIX:
            raise argparse.ArgumentTypeError(
                f"--mix: unknown source {name.strip()!r} (one of {', '.join(MIX)})"
            )
        try:
            mix[name.strip()] = float(value)
        except ValueError:
            raise argparse.ArgumentTypeError(f"--mix: {part!r} is not SOURCE=SHARE") from None
    if min(mix.values()) < 0 or abs(sum(mix.values()) - 1) > 1e-6:
        raise argparse.ArgumentTypeError(f"--mix: shares must be at least 0 and sum to 1, not {mix}")
    return mix


def target(label: int) -> int:
    """A LABELS index -> the reader's output index."""
    code = LABELS[label]
    return CODES.index(code) if code in CODES else NONE


def compose(rgba: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A face on a tile body (ivory ground, a margin, the body's side showing on one edge in a back colour),
    the table around it at about the runtime's pad, neighbours' edges now and then, turned a little and
    maybe upside down -> a uint8 crop of the runtime's size."""
    h, w = rgba.shape[:2]
    ground = np.array((236, 230, 212), np.float32) * rng.uniform(0.85, 1.08) + rng.normal(0, 6, 3)
    alpha = rgba[:, :, 3:].astype(np.float32) / 255
    face = ground * (1 - alpha) + rgba[:, :, :3].astype(np.float32) * alpha
    margin = round(rng.uniform(0.03, 0.14) * w)
    body = np.empty((h + 2 * margin, w + 2 * margin, 3), np.float32)
    body[:] = ground
    body[margin : margin + h, margin : margin + w] = face
    if rng.random() < 0.6:  # the tile's side seen at an angle: a band of the back's colour on one edge
        band = max(int(rng.uniform(0.04, 0.18) * body.shape[0]), 1)
        colour = np.array(BACK_COLOURS[int(rng.integers(len(BACK_COLOURS)))], np.float32)
        side = int(rng.integers(4))
        body = np.rot90(body, side).copy()
        body = np.concatenate([body, np.broadcast_to(colour, (band, body.shape[1], 3))], axis=0)
        body = np.rot90(body, -side).copy()
    bh, bw = body.shape[:2]
    pad = PAD + rng.uniform(-0.04, 0.06)
    ch, cw = int(bh * (1 + 2 * pad)), int(bw * (1 + 2 * pad))
    table = rng.uniform(20, 200, 3).astype(np.float32)
    canvas = np.empty((ch, cw, 3), np.float32)
    canvas[:] = table
    canvas += rng.normal(0, rng.uniform(2, 12), canvas.shape).astype(np.float32)
    y, x = (ch - bh) // 2 + int(rng.normal(0, 0.03) * bh), (cw - bw) // 2 + int(rng.normal(0, 0.03) * bw)
    y, x = min(max(y, 0), ch - bh), min(max(x, 0), cw - bw)
    canvas[y : y + bh, x : x + bw] = body
    if rng.random() < 0.4:  # neighbours in a row: ivory edges left and right
        gap = max(int(rng.uniform(0.0, 0.05) * bw), 0)
        canvas[y : y + bh, : max(x - gap, 0)] = ground
        canvas[y : y + bh, min(x + bw + gap, cw) :] = ground
    turn = cv2.getRotationMatrix2D((cw / 2, ch / 2), rng.normal(0, 4) + 180 * (rng.random() < 0.5), 1.0)
    canvas = cv2.warpAffine(canvas, turn, (cw, ch), borderMode=cv2.BORDER_REPLICATE)
    out = cv2.resize(canvas, (CROP_W, CROP_H), interpolation=cv2.INTER_AREA)
    return np.clip(out, 0, 255).astype(np.uint8)


def pick(faces: Faces, rng: np.random.Generator) -> np.ndarray:
    """One face of `faces` at random."""
    return faces[int(rng.integers(len(faces)))][1]


def cut_boxes(folders: list[Path], rng: np.random.Generator, bonus_cuts: int, other_share: float) -> tuple:
    """Training crops cut from labelled photos as the runtime cuts them (jittered box, pad about PAD, any
    way up): `bonus_cuts` of every flower and season, one of an `other_share` of the other tiles."""
    bonus: list[np.ndarray] = []
    bonus_y: list[int] = []
    other: list[np.ndarray] = []
    for samples in folders:
        for sample in samples:
            keep = [k for k, lab in enumerate(sample.labels) if target(int(lab)) != NONE]
            more = [k for k in range(len(sample.labels)) if k not in keep and rng.random() < other_share]
            if not keep and not more:
                continue
            img = load_images([sample.image])[0]
            for k in keep:
                for _ in range(bonus_cuts):
                    bonus.append(random_crop(img, sample.boxes[k], rng, PAD))
                    bonus_y.append(target(int(sample.labels[k])))
            other += [random_crop(img, sample.boxes[k], rng, PAD) for k in more]
    return bonus, bonus_y, other


def fixed_set(samples: list, others: int, rng: np.random.Generator) -> tuple[torch.Tensor, torch.Tensor]:
    """Contract crops at PAD of every flower and season of `samples` and of `others` other tiles."""
    crops, ys, rest = [], [], []
    for sample in samples:
        img = None
        for box, lab in zip(sample.boxes, sample.labels, strict=True):
            if target(int(lab)) != NONE or rng.random() < 0.05:
                img = load_images([sample.image])[0] if img is None else img
                (crops if target(int(lab)) != NONE else rest).append(crop_tile(img, box, PAD))
                if target(int(lab)) != NONE:
                    ys.append(target(int(lab)))
    rest = rest[:others]
    return as_batch(crops + rest, ys + [NONE] * len(rest))


def as_batch(crops: list[np.ndarray], ys: list[int]) -> tuple[torch.Tensor, torch.Tensor]:
    """uint8 crops -> (N,3,H,W) float 0..1 and their targets."""
    x = torch.from_numpy(np.stack(crops).astype(np.float32) / 255).permute(0, 3, 1, 2).contiguous()
    return x, torch.tensor(ys)


@torch.no_grad()
def scores(model: torch.nn.Module, x: torch.Tensor, y: torch.Tensor) -> str:
    """Flowers and seasons named right, and other tiles handed back, as one line."""
    model.eval()
    guess = torch.cat([model(x[k : k + 256]).argmax(1) for k in range(0, len(x), 256)])
    bonus = y != NONE
    named = float((guess[bonus] == y[bonus]).float().mean()) if bonus.any() else float("nan")
    back = float((guess[~bonus] == NONE).float().mean()) if (~bonus).any() else float("nan")
    return (
        f"bonus named {named:.3f} ({int(bonus.sum())}), others handed back {back:.3f} ({int((~bonus).sum())})"
    )


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--scenes", nargs="+", type=Path, required=True, help="train world-scene folders")
    ap.add_argument("--check", type=Path, default=Path("runs/world_tune8"), help="a tune world folder")
    ap.add_argument("--data", help="dataset folder (default ../shared/datasets/chinese-mahjong-detection)")
    ap.add_argument("--out", type=Path, default=Path("runs/bonus_reader"))
    ap.add_argument("--steps", type=int, default=3000)
    ap.add_argument("--batch", type=int, default=96)
    ap.add_argument("--lr", type=float, default=2e-3)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument(
        "--mix", type=parse_mix, default=dict(MIX), help="shares by source, e.g. printed=0.5,scene=0.05"
    )
    args = ap.parse_args(argv)
    torch.manual_seed(args.seed)
    torch.set_num_threads(args.threads)
    rng = np.random.default_rng(args.seed)
    args.out.mkdir(parents=True, exist_ok=True)
    logf = args.out / "log.txt"

    def log(msg: str) -> None:
        line = f"[{time.strftime('%H:%M:%S')}] {msg}"
        print(line, flush=True)
        with logf.open("a") as f:
            f.write(line + "\n")

    root = require_data_dir(args.data)
    printed: Faces = [(CODES.index(c), f) for c, f in render_varied(128, per_code=0, bonus_per_code=160)]
    bank = load_faces("train")
    artwork: Faces = [(CODES.index(c), f.rgba) for c in CODES for f in bank.get(c, [])]
    other_faces: Faces = [(NONE, f.rgba) for c, fs in bank.items() if c not in CODES for f in fs]
    scene_x, scene_y, scene_other = cut_boxes([read_folder(f) for f in args.scenes], rng, 3, 0.05)
    photo_x, photo_y, photo_other = cut_boxes([read_split(root, "train")], rng, 3, 0.05)
    checks = {
        "valid photos": fixed_set(read_split(root, "valid"), 600, np.random.default_rng(1)),
        f"{args.check.name}": fixed_set(read_folder(args.check), 600, np.random.default_rng(2)),
    }
    log(
        f"{len(printed)} printed, {len(artwork)} artwork bonus faces, {len(other_faces)} other faces; "
        f"scene crops {len(scene_x)} bonus + {len(scene_other)} other, photo crops {len(photo_x)} + "
        f"{len(photo_other)}; checks " + ", ".join(f"{k} {len(v[1])}" for k, v in checks.items())
    )
    model = BonusReaderNet(len(CODES) + 1)
    opt = torch.optim.AdamW(model.parameters(), args.lr, weight_decay=1e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, args.lr, total_steps=args.steps, pct_start=0.1)
    counts = {k: round(v * args.batch) for k, v in args.mix.items()}
    log(f"mix {args.mix}, batch {args.batch}: {counts}")
    others = scene_other + photo_other[: len(scene_other)]
    start = time.time()
    for step in range(args.steps):
        crops: list[np.ndarray] = []
        ys: list[int] = []
        for faces, n in ((printed, counts["printed"]), (artwork, counts["artwork"])):
            for i in rng.integers(len(faces), size=n):
                crops.append(compose(faces[i][1], rng))
                ys.append(faces[i][0])
        for xs, yl, n in ((scene_x, scene_y, counts["scene"]), (photo_x, photo_y, counts["photo"])):
            for i in rng.integers(len(xs), size=n):
                crops.append(xs[i])
                ys.append(yl[i])
        for i in rng.integers(len(others) + len(others) // 3, size=counts["other"]):  # a quarter faces
            crops.append(others[i] if i < len(others) else compose(pick(other_faces, rng), rng))
            ys.append(NONE)
        crops = [degrade(ink_jitter(c, rng), rng) for c in crops]
        batch = colour_jitter(np.stack(crops).astype(np.float32) / 255, rng)
        x = torch.from_numpy(batch).permute(0, 3, 1, 2).contiguous()
        model.train()
        loss = F.cross_entropy(model(x), torch.tensor(ys), label_smoothing=0.05)
        opt.zero_grad(set_to_none=True)
        loss.backward()
        opt.step()
        sched.step()
        if step % 250 == 0 or step == args.steps - 1:
            line = "; ".join(f"{k}: {scores(model, *v)}" for k, v in checks.items())
            log(f"step {step} loss {loss.item():.3f} ({time.time() - start:.0f} s) {line}")
            torch.save(
                {"model": model.state_dict(), "codes": list(CODES), "step": step}, args.out / "last.pt"
            )
    (args.out / "done.json").write_text(json.dumps({"steps": args.steps, "seed": args.seed}) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
