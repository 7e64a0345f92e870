"""MixStyle (Zhou et al., ICLR 2021): while training, the per-channel mean and spread of an early feature map
are mixed with those of another crop of the batch, so the classifier learns what a tile says apart from the
ink, light and paper of the sets it was shown. Training only: at inference (and in the ONNX) it does nothing.
"""

from __future__ import annotations

import numpy as np
import torch
from torch import nn


def mix_style(x: torch.Tensor, rng: np.random.Generator, p: float = 0.5, alpha: float = 0.1) -> torch.Tensor:
    """(N, C, H, W) features with, at chance `p` for the whole batch, each crop's per-channel statistics
    replaced by a Beta(`alpha`, `alpha`) mix of its own and a random partner's. Gradients do not flow
    through the statistics (as in the paper)."""
    if len(x) < 2 or p <= 0 or rng.random() >= p:
        return x
    mu = x.mean(dim=(2, 3), keepdim=True).detach()
    sigma = (x.var(dim=(2, 3), keepdim=True) + 1e-6).sqrt().detach()
    normed = (x - mu) / sigma
    lam = torch.from_numpy(rng.beta(alpha, alpha, (len(x), 1, 1, 1))).to(x.device, x.dtype)
    partner = torch.from_numpy(rng.permutation(len(x))).to(x.device)
    mu_mix = lam * mu + (1 - lam) * mu[partner]
    sigma_mix = lam * sigma + (1 - lam) * sigma[partner]
    return normed * sigma_mix + mu_mix


def add_mix_style(layers: list[nn.Module], seed: int, p: float = 0.5, alpha: float = 0.1) -> list:
    """Forward hooks that apply `mix_style` to the outputs of `layers` while they are in training mode
    (model.train()); returns the hook handles (`.remove()` takes them off)."""
    rng = np.random.default_rng(seed)

    def hook(module: nn.Module, _inputs: tuple, output: torch.Tensor) -> torch.Tensor:
        return mix_style(output, rng, p, alpha) if module.training else output

    return [layer.register_forward_hook(hook) for layer in layers]
