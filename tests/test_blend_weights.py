"""Weights of a network and its fine-tune mixed (datasets/blend_weights.py): the ends are the two networks,
the middle a network whose outputs lie between, and mismatched networks are refused with a message."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    import torch
else:
    torch = pytest.importorskip("torch")

from datasets.blend_weights import blend_states, main
from datasets.export_onnx import load_classifier
from datasets.models import TileClassifier


def two_networks() -> tuple[dict[str, torch.Tensor], dict[str, torch.Tensor]]:
    """A classifier and a copy moved away from it, as a fine-tune moves: every float weight changed."""
    torch.manual_seed(0)
    base = TileClassifier(44, 16).state_dict()
    tuned = {k: (v + 0.1 * torch.randn_like(v) if v.is_floating_point() else v + 7) for k, v in base.items()}
    return base, tuned


def test_the_ends_are_the_two_networks_and_the_middle_their_mean() -> None:
    base, tuned = two_networks()
    for name, value in blend_states(base, tuned, 0.0).items():
        if value.is_floating_point():
            assert torch.equal(value, base[name]), name
    for name, value in blend_states(base, tuned, 1.0).items():
        assert torch.allclose(value, tuned[name]), name
    half = blend_states(base, tuned, 0.5)
    some = next(k for k, v in base.items() if v.ndim == 4)
    assert torch.allclose(half[some], (base[some] + tuned[some]) / 2, atol=1e-6)
    counter = next(k for k, v in base.items() if not v.is_floating_point())
    assert torch.equal(half[counter], tuned[counter])


def test_a_mismatch_is_refused() -> None:
    base, tuned = two_networks()
    wider = TileClassifier(44, 24).state_dict()
    with pytest.raises(ValueError, match="shape"):
        blend_states(base, wider, 0.5)
    with pytest.raises(ValueError, match="layers"):
        blend_states(base, dict(list(tuned.items())[:-1]), 0.5)
    with pytest.raises(ValueError, match="between 0 and 1"):
        blend_states(base, tuned, 1.5)


def test_the_written_checkpoint_exports_and_reads_between_the_two(tmp_path: Path) -> None:
    base, tuned = two_networks()
    args = {"width": 16, "crop": [64, 48]}
    torch.save({"model": base, "args": args}, tmp_path / "base.pt")
    torch.save({"model": tuned, "args": args}, tmp_path / "tuned.pt")
    assert (
        main(
            [
                "--base",
                str(tmp_path / "base.pt"),
                "--tuned",
                str(tmp_path / "tuned.pt"),
                "--share",
                "0.25",
                "--out",
                str(tmp_path / "mix.pt"),
            ]
        )
        == 0
    )
    crops = torch.rand(4, 3, 64, 48)
    with torch.no_grad():
        outs = [load_classifier([str(tmp_path / f"{n}.pt")])(crops) for n in ("base", "mix", "tuned")]
    near_base = (outs[1] - outs[0]).abs().mean()
    near_tuned = (outs[1] - outs[2]).abs().mean()
    assert 0 < near_base < near_tuned


def test_a_missing_checkpoint_is_a_message(tmp_path: Path) -> None:
    with pytest.raises(SystemExit, match="no such checkpoint"):
        main(
            [
                "--base",
                str(tmp_path / "no.pt"),
                "--tuned",
                str(tmp_path / "no.pt"),
                "--share",
                "0.5",
                "--out",
                str(tmp_path / "mix.pt"),
            ]
        )
