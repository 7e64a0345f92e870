"""MixStyle (datasets/mix_style.py): while training, crops trade the per-channel statistics of early features
with a partner, keeping where things are; in eval mode, and so in the exported model, nothing changes."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
import pytest

if TYPE_CHECKING:
    import torch
else:
    torch = pytest.importorskip("torch")

from datasets.mix_style import add_mix_style, mix_style
from datasets.models import TileClassifier


def two_styles(n: int) -> torch.Tensor:
    """n feature maps, half of them bright and flat, half dark and contrasty, each with the same bar."""
    x = torch.zeros(n, 4, 8, 6)
    x[:, :, 2:6, 2:4] = 1.0
    x[: n // 2] = 5.0 + 0.5 * x[: n // 2]
    x[n // 2 :] = -1.0 + 3.0 * x[n // 2 :]
    return x


def test_never_at_chance_zero_and_at_one_batches_mix() -> None:
    x = two_styles(16)
    assert torch.equal(mix_style(x, np.random.default_rng(0), p=0.0), x)
    out = mix_style(x, np.random.default_rng(0), p=1.0, alpha=0.1)
    assert out.shape == x.shape
    means = out.mean(dim=(2, 3))[:, 0]
    before = x.mean(dim=(2, 3))[:, 0]
    assert not torch.allclose(means, before)  # some crops took on another crop's statistics
    for a in out:  # but the bar is still where it was: brighter or darker than its ground, never blurred
        inside, outside = a[0, 2:6, 2:4].mean(), a[0, 0, :].mean()
        assert not torch.isclose(inside, outside)
        assert torch.allclose(a[0, 2:6, 2:4], a[0, 2:6, 2:4].mean().expand(4, 2), atol=1e-4)


def test_the_mix_stays_between_the_two_styles() -> None:
    x = two_styles(32)
    out = mix_style(x, np.random.default_rng(5), p=1.0, alpha=0.5)
    means = out.mean(dim=(2, 3))[:, 0]
    low, high = x.mean(dim=(2, 3))[:, 0].min(), x.mean(dim=(2, 3))[:, 0].max()
    assert bool((means >= low - 1e-4).all()) and bool((means <= high + 1e-4).all())


def test_hooks_act_in_training_only() -> None:
    torch.manual_seed(0)
    model = TileClassifier(44, 8)
    crops = torch.rand(6, 3, 64, 48)
    model.eval()
    plain = model(crops)
    handles = add_mix_style([model.features[1], model.features[3]], seed=1, p=1.0)
    assert torch.equal(model(crops), plain)  # eval: the exported network reads as without them
    model.train()
    dropout = model.head[2]
    assert isinstance(dropout, torch.nn.Dropout)
    dropout.p = 0.0  # no dropout, so only the mixing can change the output
    for m in model.modules():
        if isinstance(m, torch.nn.BatchNorm2d):
            m.eval()
    assert not torch.allclose(model(crops), plain)
    for h in handles:
        h.remove()
    assert torch.allclose(model(crops), plain)
