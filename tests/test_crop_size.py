"""The classifier's crop size is a training choice (`train_classifier --crop`): crops are cut at it, the
export writes it to labels.json, and a model folder with another size is read at that size."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from datasets.tile_crops import CROP_SIZE, crop_tile, parse_crop_size, random_crop


def two_tone_tile() -> tuple[np.ndarray, np.ndarray]:
    """A grey picture with one upright box, white in its top half and black in its bottom half."""
    img = np.full((200, 200, 3), 127, np.uint8)
    img[40:100, 60:140] = 255
    img[100:160, 60:140] = 0
    return img, np.array([60, 40, 140, 160], np.float32)


def test_crop_sizes_are_read_as_height_by_width() -> None:
    assert parse_crop_size("64x48") == CROP_SIZE == (64, 48)
    assert parse_crop_size("96X72") == (96, 72)
    for bad in ("64", "64x", "ax48", "48x64", "8x6", "512x300", "64x48x3"):
        with pytest.raises(ValueError, match="crop size"):
            parse_crop_size(bad)


def test_crops_are_cut_at_the_size_asked_with_the_same_layout() -> None:
    img, box = two_tone_tile()
    for size in (CROP_SIZE, (96, 72)):
        crop = crop_tile(img, box, pad=0.0, size=size)
        assert crop.shape == (*size, 3)
        h = size[0]
        assert crop[: h // 2 - 2].mean() > 200 and crop[h // 2 + 2 :].mean() < 50
        jittered = random_crop(img, box, np.random.default_rng(1), size=size)
        assert jittered.shape == (*size, 3)


def test_training_batches_come_at_the_run_crop_size() -> None:
    pytest.importorskip("torch", reason="torch is a training extra ('.[train]')")
    from datasets.train_classifier import make_batch
    from datasets.yolo import LABELS, Sample

    img, box = two_tone_tile()
    sample = Sample(
        image=Path("unused.jpg"),
        boxes=box[None],
        labels=np.array([LABELS.index("1p")]),
        width=200,
        height=200,
    )
    rows = np.array([[0, 0, LABELS.index("1p")]] * 4, np.int64)
    x, _ = make_batch([img], [sample], rows, np.random.default_rng(0), back_frac=0.5, size=(80, 60))
    assert tuple(x.shape) == (4, 3, 80, 60)
    x, _ = make_batch([img], [sample], rows, np.random.default_rng(0), back_frac=0.5)
    assert tuple(x.shape) == (4, 3, *CROP_SIZE)


def test_a_bad_crop_size_is_refused_by_the_training_command(capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("torch", reason="torch is a training extra ('.[train]')")
    from datasets.train_classifier import main

    with pytest.raises(SystemExit) as stop:
        main(["--crop", "48x64"])
    assert stop.value.code == 2
    assert "taller than wide" in capsys.readouterr().err


def test_the_export_writes_the_trained_crop_size_and_the_runtime_reads_at_it(tmp_path: Path) -> None:
    torch = pytest.importorskip("torch", reason="torch is a training extra ('.[train]')")
    from datasets.export_onnx import load_classifier_with_crop, main
    from datasets.models import TileClassifier, TileDetector
    from recognizer import Recognizer

    detector = tmp_path / "detector.pt"
    torch.save({"model": TileDetector().state_dict(), "args": {"size": 128}}, detector)
    wide, plain = tmp_path / "wide.pt", tmp_path / "plain.pt"
    torch.save({"model": TileClassifier(44, 8).state_dict(), "args": {"width": 8, "crop": (80, 60)}}, wide)
    torch.save({"model": TileClassifier(44, 8).state_dict(), "args": {"width": 8}}, plain)
    assert load_classifier_with_crop([str(wide)])[1] == (80, 60)
    assert load_classifier_with_crop([str(plain)])[1] == CROP_SIZE  # checkpoints from before --crop
    with pytest.raises(ValueError, match="different crops"):
        load_classifier_with_crop([str(wide), str(plain)])

    out = tmp_path / "models"
    assert main(["--detector", str(detector), "--classifier", str(wide), "--out", str(out)]) == 0
    assert json.loads((out / "labels.json").read_text())["crop_size"] == [80, 60]
    classifier = Recognizer(out).classifier  # its classifier.onnx takes 80x60 crops only
    img, box = two_tone_tile()
    probs = classifier.probabilities(img, box[None])
    assert probs.shape[0] == 1 and np.isclose(probs.sum(), 1.0, atol=1e-4)
    assert main(["--detector", str(detector), "--classifier", str(wide), str(plain), "--out", str(out)]) == 2
