"""Turned-over reads only for tiles the first way up leaves unsure (Settings.flip_below)."""

from __future__ import annotations

import numpy as np

from recognizer.classifier import TileClassifier


class CountingSession:
    """A stand-in classifier session: sure of label 0 for crops whose top half is dark, unsure otherwise;
    counts the crops it is asked to read."""

    def __init__(self, classes: int) -> None:
        self.classes = classes
        self.seen = 0

    def get_inputs(self) -> list:
        return [_Arg("crops", ["N", 3, 64, 48])]

    def get_outputs(self) -> list:
        return [_Arg("logits", ["N", self.classes])]

    def run(self, _names: list[str], feeds: dict[str, np.ndarray]) -> list[np.ndarray]:
        batch = feeds["crops"]
        self.seen += len(batch)
        logits = np.zeros((len(batch), self.classes), np.float32)
        dark_top = batch[:, :, :32].mean(axis=(1, 2, 3)) < 0.5
        logits[dark_top, 0] = 20.0  # sure
        logits[~dark_top, 1] = 0.5  # unsure
        return [logits]


class _Arg:
    def __init__(self, name: str, shape: list) -> None:
        self.name, self.shape = name, shape


def photo_and_boxes() -> tuple[np.ndarray, np.ndarray]:
    """Two upright tiles: the left one dark at its top (read sure), the right one plain (unsure)."""
    rgb = np.full((100, 200, 3), 230, np.uint8)
    rgb[10:50, 20:60] = 10
    boxes = np.array([[20, 10, 60, 90], [120, 10, 160, 90]], np.float32)
    return rgb, boxes


def test_only_unsure_tiles_are_read_turned_over() -> None:
    rgb, boxes = photo_and_boxes()
    session = CountingSession(5)
    classifier = TileClassifier(session, (64, 48), 0.0, 5)  # type: ignore[arg-type]
    every = classifier.probabilities(rgb, boxes, "all", "max")
    assert session.seen == 4  # both tiles, both ways up
    session.seen = 0
    fewer = classifier.probabilities(rgb, boxes, "all", "max", flip_below=0.9)
    assert session.seen == 3  # the sure tile read once
    assert every[0].argmax() == fewer[0].argmax() == 0
    assert np.allclose(every[1], fewer[1])  # the unsure tile read as before, both ways


def test_mean_combining_reads_every_view_whatever_flip_below_says() -> None:
    rgb, boxes = photo_and_boxes()
    session = CountingSession(5)
    classifier = TileClassifier(session, (64, 48), 0.0, 5)  # type: ignore[arg-type]
    classifier.probabilities(rgb, boxes, "all", "mean", flip_below=0.9)
    assert session.seen == 4
