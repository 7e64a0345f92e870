"""datasets.widen: a wider classifier that starts out computing what the trained narrow one did."""

from __future__ import annotations

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from datasets.models import TileClassifier  # noqa: E402
from datasets.widen import channel_map, main, widen_state  # noqa: E402


def trained_looking(width: int) -> TileClassifier:
    """A narrow classifier with random weights and BatchNorm statistics (not the defaults 0/1)."""
    torch.manual_seed(3)
    model = TileClassifier(44, width)
    with torch.no_grad():
        for m in model.modules():
            if isinstance(m, torch.nn.BatchNorm2d):
                m.running_mean.uniform_(-0.5, 0.5)
                m.running_var.uniform_(0.5, 2.0)
                m.weight.uniform_(0.5, 1.5)
                m.bias.uniform_(-0.2, 0.2)
    return model.eval()


def test_widened_classifier_computes_the_same_logits() -> None:
    narrow = trained_looking(8)
    wide = TileClassifier(44, 12)
    wide.load_state_dict(widen_state(narrow.state_dict(), 12, seed=1))
    wide.eval()
    x = torch.rand(6, 3, 64, 48)
    assert torch.allclose(narrow(x), wide(x), atol=1e-4)
    assert wide(x).shape == (6, 44)
    assert wide.head[3].in_features == 72  # 6 x width


def test_noise_moves_the_copies_apart_but_keeps_the_reading() -> None:
    narrow = trained_looking(8)
    wide = TileClassifier(44, 12)
    wide.load_state_dict(widen_state(narrow.state_dict(), 12, seed=1, noise=0.01))
    wide.eval()
    x = torch.rand(6, 3, 64, 48)
    a, b = narrow(x), wide(x)
    assert not torch.allclose(a, b, atol=1e-6)
    assert (a.softmax(1) - b.softmax(1)).abs().max() < 0.05


def test_channel_map_keeps_the_old_channels_and_cannot_narrow() -> None:
    m = channel_map(4, 7, np.random.default_rng(0))
    assert list(m[:4]) == [0, 1, 2, 3] and len(m) == 7 and m.max() < 4
    with pytest.raises(ValueError):
        channel_map(8, 4, np.random.default_rng(0))


def test_command_writes_a_checkpoint_train_classifier_can_start_from(tmp_path) -> None:
    source = tmp_path / "narrow.pt"
    torch.save({"model": trained_looking(8).state_dict(), "args": {"width": 8, "lr": 1e-3}}, source)
    out = tmp_path / "wide.pt"
    assert main([str(source), "--width", "16", "--out", str(out)]) == 0
    checkpoint = torch.load(out, weights_only=False)
    assert checkpoint["args"]["width"] == 16 and checkpoint["args"]["lr"] == 1e-3
    TileClassifier(44, 16).load_state_dict(checkpoint["model"])  # loads strictly
