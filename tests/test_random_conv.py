"""Random convolutions of training crops (datasets/random_conv.py): the chosen share of crops changes
colour and texture but keeps its place, range and overall brightness; the rest are left as they were."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
import pytest

if TYPE_CHECKING:
    import torch
else:
    torch = pytest.importorskip("torch")

from datasets.random_conv import random_convolution


def crops_with_a_stroke(n: int) -> torch.Tensor:
    """n ivory crops, each with a dark red vertical stroke in the middle."""
    x = torch.empty(n, 3, 64, 48)
    x[:, 0], x[:, 1], x[:, 2] = 0.92, 0.90, 0.84
    x[:, 0, 20:44, 20:28], x[:, 1, 20:44, 20:28], x[:, 2, 20:44, 20:28] = 0.75, 0.1, 0.1
    return x


def test_no_share_leaves_every_crop_as_it_was() -> None:
    x = crops_with_a_stroke(8)
    rng = np.random.default_rng(0)
    assert torch.equal(random_convolution(x, rng, 0.0), x)
    assert rng.random() == np.random.default_rng(0).random()  # and draws nothing


def test_chosen_crops_change_inside_the_range_and_keep_the_stroke_where_it_was() -> None:
    x = crops_with_a_stroke(64)
    out = random_convolution(x, np.random.default_rng(3), 0.5)
    assert out.shape == x.shape and out.dtype == x.dtype
    assert float(out.min()) >= 0.0 and float(out.max()) <= 1.0
    changed = [not torch.allclose(a, b) for a, b in zip(out, x, strict=True)]
    assert 16 <= sum(changed) <= 48  # about half of them
    for a, b, moved in zip(out, x, changed, strict=True):
        if not moved:
            assert torch.equal(a, b)
            continue
        stroke, ground = a[:, 28:36, 22:26].mean(dim=(1, 2)), a[:, 2:10, 2:10].mean(dim=(1, 2))
        assert float((stroke - ground).abs().max()) > 0.02  # the stroke still stands out, where it was


def test_the_same_seed_gives_the_same_crops() -> None:
    x = crops_with_a_stroke(16)
    a = random_convolution(x, np.random.default_rng(7), 1.0)
    b = random_convolution(x, np.random.default_rng(7), 1.0)
    assert torch.equal(a, b) and not torch.equal(a, x)
