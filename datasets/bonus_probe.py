"""Probe: can a small network trained only on procedural-varied's printed flowers and seasons (numeral,
character or English name over any picture) read the bonus tiles of the held-out artworks? It answers
whether the classifier's input size or its training mix keeps it from reading what a bonus tile says.
A measurement, not a model: nothing is saved, and the held-out artworks choose nothing.

    .venv/bin/python -m datasets.bonus_probe --height 64 --width 48 --steps 1500
"""

from __future__ import annotations

import argparse
import time
from collections import defaultdict

import cv2
import numpy as np
import torch
from torch import nn

from datasets.faces import load_faces
from datasets.faces_varied import render_varied
from datasets.models import BonusReaderNet
from recognizer.labels import BONUS

CODES = sorted(BONUS)
IVORY = np.array((235, 228, 210), np.float32)
Faces = list[tuple[str, np.ndarray]]


def compose(rgba: np.ndarray, size: tuple[int, int], rng: np.random.Generator) -> np.ndarray:
    """A face on an ivory tile with a margin, turned a little, blurred, tinted, noisy -> float HxWx3."""
    alpha = rgba[:, :, 3:].astype(np.float32) / 255
    face = IVORY * (1 - alpha) + rgba[:, :, :3].astype(np.float32) * alpha
    h, w = face.shape[:2]
    pad = rng.uniform(0.05, 0.2)
    canvas = np.empty((int(h * (1 + 2 * pad)), int(w * (1 + 2 * pad)), 3), np.float32)
    canvas[:] = IVORY * rng.uniform(0.7, 1.0)
    y, x = (canvas.shape[0] - h) // 2, (canvas.shape[1] - w) // 2
    canvas[y : y + h, x : x + w] = face
    turn = cv2.getRotationMatrix2D(
        (canvas.shape[1] / 2, canvas.shape[0] / 2), rng.uniform(-6, 6), rng.uniform(0.9, 1.1)
    )
    canvas = cv2.warpAffine(canvas, turn, (canvas.shape[1], canvas.shape[0]), borderMode=cv2.BORDER_REPLICATE)
    if rng.random() < 0.5:
        canvas = cv2.GaussianBlur(canvas, (0, 0), rng.uniform(0.3, 1.5))
    if rng.random() < 0.5:
        canvas = np.ascontiguousarray(canvas[:, :, ::-1])  # other inks
    out = cv2.resize(canvas, (size[1], size[0]), interpolation=cv2.INTER_AREA)
    out = out * rng.uniform(0.7, 1.2) + rng.normal(0, 4, out.shape)
    return np.asarray(np.clip(out, 0, 255) / 255, np.float32)


def batch(
    faces: Faces, n: int, size: tuple[int, int], rng: np.random.Generator
) -> tuple[torch.Tensor, torch.Tensor]:
    """n faces drawn at random, composed -> (images N x 3 x H x W, code indices)."""
    picks = rng.integers(len(faces), size=n)
    images = np.stack([compose(faces[i][1], size, rng) for i in picks]).transpose(0, 3, 1, 2)
    return torch.tensor(images), torch.tensor([CODES.index(faces[i][0]) for i in picks])


def network() -> nn.Module:
    """The bonus reader's network (`datasets.models.BonusReaderNet`), one output per bonus code."""
    return BonusReaderNet(len(CODES))


def accuracy(model: nn.Module, faces: Faces, size: tuple[int, int], repeats: int) -> float:
    """Share named right over `repeats` random compositions of every face."""
    rng = np.random.default_rng(1)
    right = total = 0
    model.eval()
    with torch.no_grad():
        for _ in range(repeats):
            images, codes = batch(faces, len(faces), size, rng)
            right += int((model(images).argmax(1) == codes).sum())
            total += len(codes)
    return right / total


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--height", type=int, default=64)
    ap.add_argument("--width", type=int, default=48)
    ap.add_argument("--steps", type=int, default=1500)
    ap.add_argument("--faces", type=int, default=160, help="printed faces rendered of each bonus code")
    ap.add_argument("--threads", type=int, default=2)
    args = ap.parse_args(argv)
    torch.manual_seed(0)
    torch.set_num_threads(args.threads)
    size = (args.height, args.width)
    start = time.time()
    printed = render_varied(128, per_code=0, bonus_per_code=args.faces)
    rng = np.random.default_rng(0)
    order = rng.permutation(len(printed))
    check, train = [printed[i] for i in order[:160]], [printed[i] for i in order[160:]]
    held: dict[str, Faces] = defaultdict(list)
    for code, faces in load_faces("heldout").items():
        for face in faces if code in BONUS else ():
            held[face.artwork].append((code, face.rgba))
    print(f"{len(train)} printed faces to train on, {len(check)} to check; {time.time() - start:.0f} s")
    model = network()
    optimiser = torch.optim.AdamW(model.parameters(), 2e-3, weight_decay=1e-4)
    schedule = torch.optim.lr_scheduler.OneCycleLR(optimiser, 2e-3, total_steps=args.steps)
    for step in range(args.steps):
        model.train()
        images, codes = batch(train, 64, size, rng)
        loss = nn.functional.cross_entropy(model(images), codes)
        optimiser.zero_grad()
        loss.backward()
        optimiser.step()
        schedule.step()
        if step % 250 == 0:
            print(f"step {step} loss {loss.item():.3f} ({time.time() - start:.0f} s)", flush=True)
    print(f"{args.height}x{args.width}: printed faces not trained on {accuracy(model, check, size, 3):.3f}")
    for artwork, faces in sorted(held.items()):
        print(f"  held-out {artwork}: {accuracy(model, faces, size, 10):.3f} ({len(faces)} faces)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
