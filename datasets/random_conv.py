"""Random convolutions of training crops (RandConv, Xu et al., ICLR 2021): each chosen crop is filtered by
a fresh random 3-channel kernel and blended with itself, so colours and local textures change while
shapes stay. Other tile sets draw the same shapes in other inks, strokes and print textures; a classifier
that cannot lean on one artwork's texture has to read the shapes (numerals, sticks, circles, characters)."""

from __future__ import annotations

import numpy as np
import torch
import torch.nn.functional as F

KERNEL_SIDES = (1, 3, 5)
"""Kernel sides drawn from: 1 mixes colours only; 3 and 5 also change strokes and textures."""


def random_convolution(x: torch.Tensor, rng: np.random.Generator, share: float) -> torch.Tensor:
    """(N,3,H,W) crops 0..1 with a `share` of them (drawn by `rng`) filtered by their own random kernel,
    rescaled to their own mean and spread per channel, blended with the original by a random weight and
    clipped to 0..1. The others are returned unchanged."""
    if share <= 0:
        return x  # `rng` untouched: a run without random convolutions draws as before they existed
    chosen = np.flatnonzero(rng.random(len(x)) < share)
    if len(chosen) == 0:
        return x
    side = int(rng.choice(KERNEL_SIDES))
    n = len(chosen)
    weights = rng.normal(0.0, 1.0 / np.sqrt(3 * side * side), (n * 3, 3, side, side)).astype(np.float32)
    src = x[chosen]
    h, w = src.shape[2:]
    filtered = F.conv2d(src.reshape(1, n * 3, h, w), torch.from_numpy(weights), padding=side // 2, groups=n)
    filtered = filtered.reshape(n, 3, h, w)
    mean, spread = src.mean(dim=(2, 3), keepdim=True), src.std(dim=(2, 3), keepdim=True)
    f_mean, f_spread = filtered.mean(dim=(2, 3), keepdim=True), filtered.std(dim=(2, 3), keepdim=True)
    filtered = (filtered - f_mean) / f_spread.clamp_min(1e-4) * spread + mean
    blend = torch.from_numpy(rng.uniform(0.0, 1.0, (n, 1, 1, 1)).astype(np.float32))
    out = x.clone()
    out[chosen] = (blend * src + (1 - blend) * filtered).clamp(0.0, 1.0)
    return out
