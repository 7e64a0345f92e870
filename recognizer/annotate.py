"""Draw tiles on the photo: a box and a label per tile, in the colour of its state.

One annotator for every picture the project draws (`recognize --annotate`, batch, the app), styled through
its constructor as supervision's annotators are: colours, line width, label size, numbered labels, labels
alternating above and below. `annotate(scene, detections)` draws what the recognizer read; `draw(scene,
marks)` draws tiles as a caller holds them (the app's, with the player's corrections).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from recognizer.detections import Detections
from recognizer.imageio import LoadedImage
from scoring.tiles import BACK

Colour = tuple[int, int, int]
Box = tuple[float, float, float, float]  # x0, y0, x1, y1 in the photo's original pixels

UNCERTAIN_BELOW = 0.7
"""A tile read with less confidence than this is uncertain: drawn in red, listed, offered alternatives.
The highest mark at which most flags on the train artworks' scenes are misreads (benchmarks/RESULTS.md,
session 31): on a set the classifier never saw, misreads are often read at 0.6-0.7."""

SURE, UNCERTAIN, CORRECTED = "sure", "uncertain", "corrected"
"""A mark's state: read surely, read with less confidence than `uncertain_below`, changed by the player."""

_FONT = cv2.FONT_HERSHEY_SIMPLEX


@dataclass(frozen=True)
class Mark:
    """One tile to draw: its box (None: not on the photo; it still takes a number), code and state."""

    box: Box | None
    code: str
    state: str = SURE


@dataclass(frozen=True)
class TileAnnotator:
    """Style lives here; `annotate` / `draw` draw on a copy of the scene (RGB)."""

    colour: Colour = (40, 200, 60)
    uncertain_colour: Colour = (235, 50, 40)
    back_colour: Colour = (60, 120, 235)  # a face-down tile read surely
    corrected_colour: Colour = (40, 110, 230)
    uncertain_below: float = UNCERTAIN_BELOW
    thickness: int | None = None  # None: scaled to the photo
    text_scale: float | None = None  # cv2 font scale; None: see label_height
    label_height: float | None = (
        None  # label text height as a share of the photo's shorter side; None: fit each box
    )
    numbered: bool = False  # "3 7z": the tile's place in reading order before its code
    alternate: bool = (
        False  # labels of neighbours alternate above and below their boxes, so none covers another
    )

    def annotate(self, scene: LoadedImage | np.ndarray, detections: Detections) -> np.ndarray:
        """A copy of the photo's pixels with every tile's box and code drawn on it.

        Boxes are in original photo pixels; for a downscaled LoadedImage they are scaled to its pixels."""
        marks = []
        for box, code, conf in zip(
            detections.xyxy.tolist(), detections.codes, detections.confidence, strict=True
        ):
            x0, y0, x1, y1 = box
            marks.append(
                Mark((x0, y0, x1, y1), code, UNCERTAIN if float(conf) < self.uncertain_below else SURE)
            )
        return self.draw(scene, marks)

    def draw(
        self, scene: LoadedImage | np.ndarray, marks: Sequence[Mark], scale: float | None = None
    ) -> np.ndarray:
        """A copy of the photo with each mark drawn; `scale` (pixels per original pixel) for an array scene
        (default 1), a LoadedImage's own otherwise."""
        if isinstance(scene, LoadedImage):
            rgb, factor = scene.rgb, scene.scale
        else:
            rgb, factor = scene, 1.0 if scale is None else scale
        canvas = np.ascontiguousarray(np.asarray(rgb, dtype=np.uint8)[..., :3].copy())
        thickness = self.thickness or max(1, round(max(canvas.shape[:2]) / 500))
        for n, mark in enumerate(marks):
            if mark.box is None:
                continue
            colour = self._colour(mark)
            x0, y0, x1, y1 = (round(v * factor) for v in mark.box)
            cv2.rectangle(canvas, (x0, y0), (x1, y1), colour, thickness)
            text = f"{n + 1} {mark.code}" if self.numbered else mark.code
            above = n % 2 == 0 if self.alternate else True
            self._label(canvas, text, (x0, y0, x1, y1), colour, thickness, above)
        return canvas

    def _colour(self, mark: Mark) -> Colour:
        if mark.state == CORRECTED:
            return self.corrected_colour
        if mark.state == UNCERTAIN:
            return self.uncertain_colour
        return self.back_colour if mark.code == BACK else self.colour

    def _scale(self, canvas: np.ndarray, text: str, box: tuple[int, int, int, int], weight: int) -> float:
        """The font scale: given, or the label height's share of the photo, or fitted to the box (no wider
        than the box, under a quarter of its height)."""
        if self.text_scale:
            return self.text_scale
        (unit_w, unit_h), _ = cv2.getTextSize(text, _FONT, 1.0, weight)
        if self.label_height:
            return max(0.3, self.label_height * min(canvas.shape[:2]) / max(unit_h, 1))
        fit = min(0.95 * (box[2] - box[0]) / max(unit_w, 1), 0.25 * (box[3] - box[1]) / max(unit_h, 1))
        return max(0.3, min(3.0, fit))

    def _label(self, canvas: np.ndarray, text: str, box: tuple[int, int, int, int], colour: Colour,
               thickness: int, above: bool) -> None:  # fmt: skip
        """The text on a filled tag at the box's left edge, above it (below where there is no room above, or
        where `above` is False and there is room below), kept inside the photo."""
        weight = max(1, thickness // 2 + 1)
        scale = self._scale(canvas, text, box, weight)
        (tw, th), base = cv2.getTextSize(text, _FONT, scale, weight)
        tag = th + base + 3
        x = min(max(box[0], 0), max(canvas.shape[1] - tw - 2, 0))
        room_above = box[1] - tag >= 0
        room_below = box[3] + tag <= canvas.shape[0]
        if (above or not room_below) and room_above:
            bottom = box[1] - 3  # the tag's baseline sits just above the box
        elif not above and room_below:
            bottom = box[3] + th + 3  # below the box
        else:
            bottom = box[1] + th + base + 3  # inside the box's top
        cv2.rectangle(canvas, (x, bottom - th - base), (x + tw + 2, bottom + 1), colour, -1)
        cv2.putText(
            canvas, text, (x + 1, bottom - base + 1), _FONT, scale, (255, 255, 255), weight, cv2.LINE_AA
        )


def annotate(image: LoadedImage | np.ndarray, detections: Detections) -> np.ndarray:
    """RGB copy of the photo with boxes and codes drawn in the default style."""
    return TileAnnotator().annotate(image, detections)
