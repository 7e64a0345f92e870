"""Crop augmentation for other sets' inks and pens (datasets/augment.py: ink_jitter): the ground stays
ivory (or grey, when the colour is dropped), coloured ink may change hue, strokes may thicken or thin, and
the crop keeps its shape."""

from __future__ import annotations

import cv2
import numpy as np

from datasets.augment import ink_jitter

IVORY = (236, 230, 214)


def crop_with_red_stroke() -> np.ndarray:
    crop = np.full((64, 48, 3), IVORY, np.uint8)
    crop[20:44, 20:28] = (200, 30, 30)
    return crop


def test_the_ground_stays_and_the_crop_keeps_its_shape() -> None:
    for seed in range(40):
        out = ink_jitter(crop_with_red_stroke(), np.random.default_rng(seed))
        assert out.shape == (64, 48, 3) and out.dtype == np.uint8
        ground = out[2:10, 2:10].astype(int)
        greyed = bool((ground.max(axis=2) == ground.min(axis=2)).all())  # the colour-dropping branch
        assert abs(ground.mean() - np.mean(IVORY)) <= 4  # as bright as the ivory, far from the stroke
        assert greyed or np.abs(ground - IVORY).max() <= 3  # and still ivory unless all colour went


def test_some_crops_change_ink_hue_some_stroke_width_and_most_stay() -> None:
    hues, widths, same = 0, 0, 0
    for seed in range(200):
        src = crop_with_red_stroke()
        out = ink_jitter(src, np.random.default_rng(seed))
        if np.array_equal(out, src):
            same += 1
            continue
        hue = cv2.cvtColor(out[30:34, 22:26], cv2.COLOR_RGB2HSV)[:, :, 0].mean()
        if abs(float(hue) - 0) > 10 and abs(float(hue) - 180) > 10 and out[30, 24].std() > 20:
            hues += 1
        dark = (out.astype(int).sum(axis=2) < 450).sum()
        if dark != (src.astype(int).sum(axis=2) < 450).sum():
            widths += 1
    assert 15 <= hues <= 50  # about 15 %
    assert widths >= 10  # erode / dilate about 10 %
    assert same >= 120  # most crops as they were
