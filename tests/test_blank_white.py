"""Blank white dragons made from real tiles for the classifier (augment.paint_blank, train_classifier
--blank-frac): the artwork is painted out with the face's own ivory, the body and table stay, and a place
that holds no enclosed artwork is left alone."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from datasets.augment import paint_blank


def drawn_tile() -> tuple[np.ndarray, np.ndarray]:
    """A green table with one ivory tile (a green back layer along its top) bearing a red character."""
    img = np.zeros((120, 100, 3), np.uint8)
    img[:] = (30, 110, 50)
    cv2.rectangle(img, (30, 20), (70, 95), (236, 230, 214), -1)  # the face
    cv2.rectangle(img, (30, 14), (70, 20), (30, 115, 60), -1)  # the back layer seen along the top
    cv2.putText(img, "8", (38, 75), cv2.FONT_HERSHEY_SIMPLEX, 1.2, (200, 30, 30), 3)
    return img, np.array([30, 14, 71, 96], np.float32)


def test_the_artwork_is_painted_out_and_the_rest_kept() -> None:
    img, box = drawn_tile()
    before = img.copy()
    assert paint_blank(img, box, np.random.default_rng(0))
    face = img[24:92, 34:67].astype(np.int16)
    assert face.std(axis=(0, 1)).max() < 12  # one even ivory where the character was
    assert abs(face.mean() - np.array([236, 230, 214], np.float32).mean()) < 15
    assert np.array_equal(img[14:20, 30:71], before[14:20, 30:71])  # the green back layer stays
    assert np.array_equal(img[:, :28], before[:, :28])  # and the table


def test_a_place_with_no_pale_face_or_no_artwork_is_left_alone() -> None:
    rng = np.random.default_rng(0)
    table = np.zeros((120, 100, 3), np.uint8)
    table[:] = (30, 110, 50)
    assert not paint_blank(table, np.array([30, 14, 71, 96], np.float32), rng)
    img, _ = drawn_tile()
    tiny = img.copy()
    assert not paint_blank(tiny, np.array([30, 14, 36, 20], np.float32), rng)
    assert np.array_equal(tiny, img)


def test_the_classifier_batches_teach_painted_blanks_as_white_dragons() -> None:
    torch = __import__("pytest").importorskip("torch")
    from datasets.train_classifier import WHITE_DRAGON, make_batch
    from datasets.yolo import LABELS, Sample

    img, box = drawn_tile()
    sample = Sample(
        image=Path("unused.jpg"),
        boxes=box[None],
        labels=np.array([LABELS.index("8m")]),
        width=100,
        height=120,
    )
    rows = np.array([[0, 0, LABELS.index("8m")]] * 8, np.int64)
    x, y = make_batch([img], [sample], rows, np.random.default_rng(3), back_frac=0.0, blank_frac=1.0)
    assert x.shape[0] == 8 and torch.all(y == WHITE_DRAGON)
    _, plain = make_batch([img], [sample], rows, np.random.default_rng(3), back_frac=0.0)
    assert torch.all(plain == LABELS.index("8m"))  # without --blank-frac every tile keeps its label
