"""recognizer.annotate: one annotator, styled through its constructor, for recognize, batch and the app."""

from __future__ import annotations

import numpy as np

from recognizer.annotate import CORRECTED, UNCERTAIN, Mark, TileAnnotator
from recognizer.detections import Detections

WHITE = np.full((200, 400, 3), 255, np.uint8)
STYLE = TileAnnotator(
    colour=(0, 160, 0), uncertain_colour=(230, 120, 0), corrected_colour=(0, 0, 230), thickness=2
)


def tag_rows(drawn: np.ndarray, colour: tuple[int, int, int], x: int) -> set[int]:
    """Rows in column x painted in `colour` (a label's filled tag or a box edge)."""
    return {int(y) for y in np.nonzero((drawn[:, x] == colour).all(axis=1))[0]}


def test_each_state_has_its_colour_and_the_scene_is_untouched() -> None:
    marks = [Mark((20, 60, 60, 120), "1m"), Mark((100, 60, 140, 120), "2m", UNCERTAIN)]
    marks.append(Mark((180, 60, 220, 120), "3m", CORRECTED))
    drawn = STYLE.draw(WHITE, marks)
    assert tuple(drawn[90, 20]) == (0, 160, 0)
    assert tuple(drawn[90, 100]) == (230, 120, 0)
    assert tuple(drawn[90, 180]) == (0, 0, 230)
    assert (WHITE == 255).all()


def test_a_mark_without_a_box_keeps_its_number_and_is_not_drawn() -> None:
    numbered = TileAnnotator(numbered=True, thickness=2, text_scale=0.5)
    plain = numbered.draw(WHITE, [Mark(None, "1m"), Mark((20, 60, 60, 120), "2m")])
    assert not (plain == 255).all()
    # the second mark is labelled "2 2m": wider than the "2m" an unnumbered annotator writes
    unnumbered = TileAnnotator(thickness=2, text_scale=0.5).draw(WHITE, [Mark((20, 60, 60, 120), "2m")])
    assert (plain != 255).any(axis=2).sum() > (unnumbered != 255).any(axis=2).sum()


def test_alternate_labels_go_below_every_other_box() -> None:
    marks = [Mark((20, 60, 60, 120), "1m"), Mark((100, 60, 140, 120), "2m")]
    drawn = TileAnnotator(colour=(0, 160, 0), thickness=2, text_scale=0.5, alternate=True).draw(WHITE, marks)
    first, second = tag_rows(drawn, (0, 160, 0), 22), tag_rows(drawn, (0, 160, 0), 102)
    assert min(first) < 58 and max(first) <= 121  # the first tag above its box
    assert max(second) > 122 and min(second) >= 59  # the second tag below its box
    same = TileAnnotator(colour=(0, 160, 0), thickness=2, text_scale=0.5).draw(WHITE, marks)
    assert max(tag_rows(same, (0, 160, 0), 102)) <= 121  # without `alternate` all above


def test_annotate_reads_states_from_the_confidence_and_scales_an_array_scene() -> None:
    detections = Detections(
        xyxy=np.array([[40, 120, 120, 240], [200, 120, 280, 240], [440, 120, 520, 240]], np.float32),
        confidence=np.array([0.9, 0.3, 0.9], np.float32),
        class_id=np.array([0, 0, 42]),
    )
    style = TileAnnotator(
        colour=(0, 160, 0),
        uncertain_colour=(230, 120, 0),
        back_colour=(0, 0, 230),
        thickness=2,
        uncertain_below=0.5,
    )
    drawn = style.draw(WHITE, [Mark((40, 120, 120, 240), "1m")], scale=0.5)
    assert tuple(drawn[90, 20]) == (0, 160, 0)  # the box at half its original coordinates
    scene = np.full((400, 800, 3), 255, np.uint8)
    drawn = style.annotate(scene, detections)
    assert tuple(drawn[180, 40]) == (0, 160, 0)
    assert tuple(drawn[180, 200]) == (230, 120, 0)  # read below uncertain_below
    assert tuple(drawn[180, 440]) == (0, 0, 230)  # a face-down tile read surely
