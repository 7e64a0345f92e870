"""Draw recognised tiles on the photo: a box and the code per tile, uncertain tiles in another colour."""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from recognizer.detections import Detections
from recognizer.imageio import LoadedImage
from scoring.tiles import BACK

Colour = tuple[int, int, int]

UNCERTAIN_BELOW = 0.6
"""A tile read with less confidence than this is uncertain: drawn in red, listed, offered alternatives."""


@dataclass(frozen=True)
class TileAnnotator:
    """Style lives here; `annotate(scene, detections)` draws on a copy of the scene (RGB)."""

    colour: Colour = (40, 200, 60)
    uncertain_colour: Colour = (235, 50, 40)
    back_colour: Colour = (60, 120, 235)
    uncertain_below: float = UNCERTAIN_BELOW
    thickness: int | None = None  # None: scaled to the photo
    text_scale: float | None = None  # None: scaled to the tile height

    def annotate(self, scene: LoadedImage | np.ndarray, detections: Detections) -> np.ndarray:
        """A copy of the photo's pixels with every tile's box and code drawn on it.

        Boxes are in original photo pixels; for a downscaled LoadedImage they are scaled to its pixels."""
        rgb, scale = (scene.rgb, scene.scale) if isinstance(scene, LoadedImage) else (scene, 1.0)
        canvas = np.ascontiguousarray(rgb.copy())
        if len(detections) == 0:
            return canvas
        boxes = detections.xyxy * scale
        thickness = self.thickness or max(1, round(max(canvas.shape[:2]) / 500))
        for box, code, confidence in zip(boxes, detections.codes, detections.confidence, strict=True):
            colour = self._colour(code, float(confidence))
            x0, y0, x1, y1 = (round(float(v)) for v in box)
            cv2.rectangle(canvas, (x0, y0), (x1, y1), colour, thickness)
            self._label(canvas, code, (x0, y0), (x1 - x0, y1 - y0), colour, thickness)
        return canvas

    def _colour(self, code: str, confidence: float) -> Colour:
        if confidence < self.uncertain_below:
            return self.uncertain_colour
        return self.back_colour if code == BACK else self.colour

    def _label(self, canvas: np.ndarray, text: str, corner: tuple[int, int], box_size: tuple[int, int],
               colour: Colour, thickness: int) -> None:  # fmt: skip
        """Code on a filled tag above the box's top-left corner (inside the photo), no wider than the box
        and under a quarter of its height."""
        weight = max(1, thickness // 2 + 1)
        if self.text_scale:
            scale = self.text_scale
        else:
            (unit_w, unit_h), _ = cv2.getTextSize(text, cv2.FONT_HERSHEY_SIMPLEX, 1.0, weight)
            fit = min(0.95 * box_size[0] / max(unit_w, 1), 0.25 * box_size[1] / max(unit_h, 1))
            scale = max(0.3, min(3.0, fit))
        (tw, th), base = cv2.getTextSize(text, cv2.FONT_HERSHEY_SIMPLEX, scale, weight)
        x = min(max(corner[0], 0), max(canvas.shape[1] - tw - 2, 0))
        y = corner[1] - 3 if corner[1] - th - base - 3 >= 0 else corner[1] + th + base + 3
        cv2.rectangle(canvas, (x, y - th - base), (x + tw + 2, y + 1), colour, -1)
        white = (255, 255, 255)
        cv2.putText(
            canvas, text, (x + 1, y - base + 1), cv2.FONT_HERSHEY_SIMPLEX, scale, white, weight, cv2.LINE_AA
        )


def annotate(image: LoadedImage | np.ndarray, detections: Detections) -> np.ndarray:
    """RGB copy of the photo with boxes and codes drawn in the default style."""
    return TileAnnotator().annotate(image, detections)
