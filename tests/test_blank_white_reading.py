"""recognizer/blank_white.py: a tile read as a back is a blank white dragon when its middle is plain and
the colour of the photo's faces; a coloured back, a face with ink, a photo with too few faces to compare
and a back the detector locks stay as they were."""

from __future__ import annotations

import cv2
import numpy as np

from recognizer.blank_white import WHITE_DRAGON, as_white_dragons, blank_faces
from recognizer.labels import BACK_INDEX, LABELS

IVORY = (236, 230, 214)
GREEN_BACK = (30, 115, 60)
PALE_YELLOW_BACK = (215, 190, 90)


def table(tiles: list[tuple[tuple[int, int, int], bool]]) -> tuple[np.ndarray, np.ndarray]:
    """A felt table with a row of 40x56 tiles: (colour, inked) each; returns the photo and the boxes."""
    img = np.zeros((100, 60 * len(tiles) + 20, 3), np.uint8)
    img[:] = (40, 90, 60)
    boxes = []
    for k, (colour, inked) in enumerate(tiles):
        x = 10 + 60 * k
        cv2.rectangle(img, (x, 20), (x + 39, 75), colour, -1)
        if inked:
            cv2.putText(img, "8", (x + 8, 62), cv2.FONT_HERSHEY_SIMPLEX, 1.2, (30, 30, 160), 3)
        boxes.append([x, 20, x + 40, 76])
    return img, np.array(boxes, np.float32)


def readings(codes: list[str], sure: float = 0.9) -> np.ndarray:
    """Probabilities reading each tile as `codes[i]` this surely, the rest spread evenly."""
    probs = np.full((len(codes), len(LABELS)), (1 - sure) / (len(LABELS) - 1), np.float32)
    for i, code in enumerate(codes):
        probs[i, LABELS.index(code)] = sure
    return probs


def test_a_plain_ivory_tile_read_as_a_back_is_a_white_dragon() -> None:
    img, boxes = table([(IVORY, True)] * 4 + [(IVORY, False)])
    probs = readings(["1m", "2m", "3m", "4m", "back"])
    blank = blank_faces(img, boxes, probs, np.zeros(5, bool))
    assert blank.tolist() == [False] * 4 + [True]
    moved = as_white_dragons(probs, blank)
    assert moved[4].argmax() == WHITE_DRAGON and moved[4, BACK_INDEX] == 0
    assert np.isclose(moved[4].sum(), 1.0) and np.array_equal(moved[:4], probs[:4])


def test_coloured_backs_and_inked_faces_stay() -> None:
    img, boxes = table([(IVORY, True)] * 4 + [(GREEN_BACK, False), (PALE_YELLOW_BACK, False), (IVORY, True)])
    probs = readings(["1m", "2m", "3m", "4m", "back", "back", "back"])
    assert not blank_faces(img, boxes, probs, np.zeros(7, bool)).any()


def test_too_few_faces_to_compare_or_a_locked_back_change_nothing() -> None:
    img, boxes = table([(IVORY, True)] * 2 + [(IVORY, False)])
    probs = readings(["1m", "2m", "back"])
    assert not blank_faces(img, boxes, probs, np.zeros(3, bool)).any()  # two faces are too few
    img, boxes = table([(IVORY, True)] * 4 + [(IVORY, False)])
    probs = readings(["1m", "2m", "3m", "4m", "back"])
    locked = np.array([False] * 4 + [True])  # an ivory set's face-down tile, locked by the detector
    assert not blank_faces(img, boxes, probs, locked).any()
    unsure = readings(["1m", "2m", "3m", "4m", "back"], sure=0.3)  # faces too unsure to stand for the set
    assert not blank_faces(img, boxes, unsure, np.zeros(5, bool)).any()


def test_a_box_off_the_photo_or_too_small_is_skipped() -> None:
    img, boxes = table([(IVORY, True)] * 4 + [(IVORY, False)])
    boxes[4] = [img.shape[1] + 5, 0, img.shape[1] + 40, 50]
    probs = readings(["1m", "2m", "3m", "4m", "back"])
    assert not blank_faces(img, boxes, probs, np.zeros(5, bool)).any()
    assert np.array_equal(as_white_dragons(probs, np.zeros(5, bool)), probs)


def test_the_recognizer_steps_aside_for_a_profile_that_names_the_back() -> None:
    from dataclasses import replace

    from recognizer.pipeline import Recognizer

    recognizer = Recognizer(threads=1)
    assert recognizer.reads_blank_by_colour()
    assert not Recognizer(
        threads=1, settings=replace(recognizer.settings, blank_white=False)
    ).reads_blank_by_colour()
    width = recognizer.classifier.feature_width
    profile = recognizer.new_profile("club")
    rng = np.random.default_rng(0)
    named = ["1m", "5z"]
    faces = profile.learnt(named, rng.normal(size=(2, width)).astype(np.float32), readings(named))
    assert recognizer.with_profile(faces).reads_blank_by_colour()
    named = ["1m", "back"]
    backs = profile.learnt(named, rng.normal(size=(2, width)).astype(np.float32), readings(named))
    assert not recognizer.with_profile(backs).reads_blank_by_colour()
