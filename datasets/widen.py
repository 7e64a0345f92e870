"""A trained tile classifier made wider without changing what it computes (Net2WiderNet, Chen et al. 2016):
each new channel copies an old one, and the layer after it splits that channel's weight among the copies.
Fine-tuning the wider network then starts where the narrow one ended instead of from scratch, which the
CPU could not afford for a network of twice the work.

Example: .venv/bin/python -m datasets.widen runs/classifier_s10/epoch2.pt --width 48 --out runs/widened48.pt
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np
import torch

from datasets.models import TileClassifier

STAGES = 8
"""conv_bn layers in TileClassifier.features, each followed by the next one (the last by the head)."""


def channel_map(old: int, new: int, rng: np.random.Generator) -> np.ndarray:
    """Which old channel each of `new` channels copies: the old ones in place, then random repeats."""
    if new < old:
        raise ValueError(f"cannot narrow {old} channels to {new}")
    return np.concatenate([np.arange(old), rng.integers(0, old, new - old)]).astype(np.int64)


def widen_state(state: dict, new_width: int, seed: int = 0, noise: float = 0.0) -> dict:
    """A TileClassifier state dict at a wider `new_width`, computing the same function in eval mode (up to
    `noise`, a share of each weight's spread added to the copies so they can drift apart in training)."""
    rng = np.random.default_rng(seed)
    gen = torch.Generator().manual_seed(seed)
    out = dict(state)
    wider = TileClassifier(1, new_width).state_dict()  # the architecture says each layer's new width
    maps = [
        channel_map(state[key].shape[0], wider[key].shape[0], rng)
        for key in (f"features.{i}.0.weight" for i in range(STAGES))
    ]
    incoming: np.ndarray | None = None  # the previous layer's channel map
    for i in range(STAGES):
        keep = torch.from_numpy(maps[i])
        weight = state[f"features.{i}.0.weight"][keep]
        if incoming is not None:
            weight = spread(weight, incoming, dim=1, noise=noise, gen=gen)
        out[f"features.{i}.0.weight"] = weight.contiguous()
        for name in ("weight", "bias", "running_mean", "running_var"):
            out[f"features.{i}.1.{name}"] = state[f"features.{i}.1.{name}"][keep].clone()
        incoming = maps[i]
    assert incoming is not None
    out["head.3.weight"] = spread(state["head.3.weight"], incoming, dim=1, noise=noise, gen=gen).contiguous()
    return out


def spread(
    weight: torch.Tensor, channels: np.ndarray, dim: int, noise: float, gen: torch.Generator
) -> torch.Tensor:
    """`weight` with its input axis `dim` re-indexed by `channels`, each old channel's weight divided among
    its copies, so the sum over copies is the old weight."""
    counts = np.bincount(channels, minlength=int(channels.max()) + 1)
    index = torch.from_numpy(channels)
    picked = weight.index_select(dim, index)
    shape = [1] * weight.dim()
    shape[dim] = len(channels)
    scale = torch.from_numpy(1.0 / counts[channels]).to(weight.dtype).reshape(shape)
    picked = picked * scale
    if noise > 0:
        picked = picked + noise * picked.std() * torch.randn(picked.shape, generator=gen)
    return picked


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("checkpoint", type=Path, help="a datasets.train_classifier checkpoint (epochN.pt)")
    ap.add_argument(
        "--width", type=int, required=True, help="the new width (the old one is in the checkpoint)"
    )
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--noise", type=float, default=0.01, help="spread of the noise on copied weights")
    args = ap.parse_args(argv)
    if not args.checkpoint.is_file():
        raise SystemExit(f"{args.checkpoint}: no such checkpoint")
    checkpoint = torch.load(args.checkpoint, weights_only=False)
    state = widen_state(checkpoint["model"], args.width, args.seed, args.noise)
    train_args = {**checkpoint.get("args", {}), "width": args.width}
    torch.save(
        {"model": state, "epoch": -1, "args": train_args, "widened_from": str(args.checkpoint)}, args.out
    )
    print(f"widened {args.checkpoint} to width {args.width} -> {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
