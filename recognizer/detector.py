"""Tile detector: letterbox the photo, run the heatmap model, decode peaks into boxes (ONNX contract)."""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import Literal

import cv2
import numpy as np
import onnxruntime as ort

from recognizer.session import check_io, fixed_batch

STRIDE = 4
PAD_VALUE = 0.5
INPUTS = ("images",)
OUTPUTS = ("heatmap", "size", "offset")


SQUARE = math.inf
"""`Reading.stretch` that stretches every photo to the S x S input, whatever its aspect."""

Squeeze = tuple[Literal["x", "y"], float]
"""Shrink the detector input along one axis by a factor (undoes a photo stretched along that axis)."""
Outputs = tuple[np.ndarray, np.ndarray, np.ndarray, tuple[float, float]]
"""Heatmap, size and offset ([2, GH, GW] each) and the input pixels per image pixel (x, y)."""


@dataclass(frozen=True)
class Reading:
    """How the detector reads one photo, the same for each of its passes: peak thresholds (one, or one
    per channel: face-up, face-down), the NMS IoU, how far the photo may be stretched towards the square
    input, the mirrored test and the input sides the first pass merges (see TileDetector.raw_outputs)."""

    threshold: float | tuple[float, ...] = 0.4
    iou: float = 0.5
    stretch: float = 1.0  # the photo's long side squeezed by up to this factor (1: aspect kept, the
    # contract's letterbox; SQUARE: always stretched to S x S; see input_layout)
    mirror: bool = False
    scales: tuple[float, ...] = (1.0,)

    def once(self) -> Reading:
        """This reading without the mirrored view and the merged sides: one run of the model."""
        return replace(self, mirror=False, scales=(1.0,))


@dataclass
class TileBoxes:
    """Detector output in the pixels of the image it was given: boxes, peak scores, face-down flags, and
    the squeeze of the pass that found them (None: the photo as it is; a squeezed pass means the photo is
    stretched along that axis, and its box shapes do not tell how a tile lies)."""

    xyxy: np.ndarray  # (n, 4) float32
    score: np.ndarray  # (n,) float32
    back: np.ndarray  # (n,) bool: found by the face-down channel
    squeeze: Squeeze | None = None

    def __len__(self) -> int:
        return len(self.xyxy)

    def select(self, keep: np.ndarray) -> TileBoxes:
        """The boxes at `keep` (mask or indices)."""
        return TileBoxes(self.xyxy[keep], self.score[keep], self.back[keep], self.squeeze)


def input_layout(
    w: int, h: int, size: int, stretch: float, squeeze: Squeeze | None, flexible: bool
) -> tuple[int, int, int, int]:
    """Where the photo goes in the detector input: its resized width and height and the input's width and
    height. Plain passes use the S x S input: the photo's long side squeezed by up to `stretch` (1 keeps
    its aspect, SQUARE fills the square), then fitted keeping the rest of its aspect. A squeezed pass
    shrinks one side by the factor; a detector that accepts any size then gets an input cut to the
    photo, rounded up to a multiple of 32 (a pass squeezed 8x costs about an eighth), else the S x S input
    with grey around. (Measured on the 34 stretched valid photos: a 640 or 512 side for the unsqueezed axis
    was no better than S = 384.)"""
    factor = long_side_squeeze(w, h, stretch)
    seen_w, seen_h = (w / factor, h) if w >= h else (w, h / factor)
    fit = size / max(seen_w, seen_h)
    new_w, new_h = max(1, min(size, round(seen_w * fit))), max(1, min(size, round(seen_h * fit)))
    if squeeze is None:
        return new_w, new_h, size, size
    axis, factor = squeeze
    if axis == "x":
        new_w = max(1, round(new_w / factor))
    else:
        new_h = max(1, round(new_h / factor))
    if not flexible:
        return new_w, new_h, size, size
    return new_w, new_h, -(-new_w // 32) * 32, -(-new_h // 32) * 32


def long_side_squeeze(w: int, h: int, stretch: float) -> float:
    """The factor a w x h photo's long side is squeezed by for the detector: its aspect, at most `stretch`
    (and at least 1)."""
    return min(max(w, h) / min(w, h), max(stretch, 1.0))


def seen_taller(w: int, h: int, stretch: float) -> float:
    """How much taller than in a w x h photo a box looks in the detector's input: its y scale over its
    x scale (1 with the aspect kept; w / h for a photo stretched to the square)."""
    factor = long_side_squeeze(w, h, stretch)
    return factor if w >= h else 1 / factor


def place(rgb: np.ndarray, canvas: int | tuple[int, int], new_w: int, new_h: int) -> np.ndarray:
    """(3, H, W) float32 0..1: the photo resized to new_w x new_h, top-left in a canvas of `canvas` (side,
    or width and height), grey 0.5 around."""
    canvas_w, canvas_h = (canvas, canvas) if isinstance(canvas, int) else canvas
    h, w = rgb.shape[:2]
    interpolation = cv2.INTER_AREA if new_w * new_h < w * h else cv2.INTER_LINEAR
    resized = (
        rgb if (new_w, new_h) == (w, h) else cv2.resize(rgb, (new_w, new_h), interpolation=interpolation)
    )
    out = np.full((3, canvas_h, canvas_w), PAD_VALUE, dtype=np.float32)  # written channel-first at once
    np.multiply(
        resized.transpose(2, 0, 1), np.float32(1.0 / 255.0), out=out[:, :new_h, :new_w], casting="unsafe"
    )
    return out


def letterbox(rgb: np.ndarray, size: int) -> tuple[np.ndarray, float]:
    """(3, S, S) float32 0..1: the photo scaled to fit S keeping its aspect, top-left, grey 0.5 around.

    Returns the tensor and the ratio (input pixels per image pixel)."""
    h, w = rgb.shape[:2]
    new_w, new_h, _, _ = input_layout(w, h, size, 1.0, None, False)
    return place(rgb, size, new_w, new_h), size / max(h, w)


def peaks(heat: np.ndarray, threshold: float) -> tuple[np.ndarray, np.ndarray]:
    """(rows, cols) of cells that are the maximum of their 3x3 neighbourhood and at least `threshold`."""
    pooled = cv2.dilate(heat, np.ones((3, 3), np.uint8))
    rows, cols = np.nonzero((heat >= pooled) & (heat >= threshold))
    return rows, cols


def decode(
    heatmap: np.ndarray,
    size: np.ndarray,
    offset: np.ndarray,
    threshold: float | tuple[float, ...],
    stride: int = STRIDE,
) -> TileBoxes:
    """Boxes from one image's outputs ([2, G, G] each): centre = (cell + offset) * stride ± size / 2."""
    boxes, scores, backs = [], [], []
    for channel in range(heatmap.shape[0]):
        heat = np.ascontiguousarray(heatmap[channel], dtype=np.float32)
        rows, cols = peaks(heat, threshold if isinstance(threshold, float | int) else threshold[channel])
        cx = (cols + offset[0, rows, cols]) * stride
        cy = (rows + offset[1, rows, cols]) * stride
        half_w, half_h = size[0, rows, cols] / 2, size[1, rows, cols] / 2
        boxes.append(np.stack([cx - half_w, cy - half_h, cx + half_w, cy + half_h], axis=1))
        scores.append(heat[rows, cols])
        backs.append(np.full(len(rows), channel == 1))
    return TileBoxes(
        xyxy=np.concatenate(boxes).astype(np.float32).reshape(-1, 4),
        score=np.concatenate(scores).astype(np.float32),
        back=np.concatenate(backs).astype(bool),
    )


def box_iou(box: np.ndarray, others: np.ndarray) -> np.ndarray:
    """IoU of one xyxy box against an (n, 4) array."""
    inter, area, areas = pairwise_overlap(box[None], others)
    return inter[0] / np.maximum(area[0] + areas - inter[0], 1e-9)


def pairwise_overlap(a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """For xyxy boxes (n, 4) and (m, 4): the (n, m) areas where each pair overlaps, and each box's area."""
    x0 = np.maximum(a[:, None, 0], b[None, :, 0])
    y0 = np.maximum(a[:, None, 1], b[None, :, 1])
    x1 = np.minimum(a[:, None, 2], b[None, :, 2])
    y1 = np.minimum(a[:, None, 3], b[None, :, 3])
    overlap = np.clip(x1 - x0, 0, None) * np.clip(y1 - y0, 0, None)
    return overlap, (a[:, 2] - a[:, 0]) * (a[:, 3] - a[:, 1]), (b[:, 2] - b[:, 0]) * (b[:, 3] - b[:, 1])


def nms(xyxy: np.ndarray, score: np.ndarray, iou: float) -> np.ndarray:
    """Indices kept by greedy non-maximum suppression, best score first."""
    order = np.argsort(-score, kind="stable")
    keep: list[int] = []
    while order.size:
        best = int(order[0])
        keep.append(best)
        if order.size == 1:
            break
        rest = order[1:]
        order = rest[box_iou(xyxy[best], xyxy[rest]) <= iou]
    return np.asarray(keep, dtype=np.int64)


class TileDetector:
    """Runs `detector.onnx` on one photo and returns tile boxes in that photo's pixels."""

    def __init__(self, session: ort.InferenceSession, size: int) -> None:
        check_io(session, "detector.onnx", INPUTS, OUTPUTS)
        self.session = session
        self.size = size
        shape = session.get_inputs()[0].shape
        self.flexible = not all(isinstance(d, int) for d in shape[2:4])  # any height and width accepted
        self.fixed_batch = fixed_batch(session)

    def raw_outputs(self, rgb: np.ndarray, reading: Reading, squeeze: Squeeze | None = None) -> Outputs:
        """Heatmap, size, offset for one image ([2, GH, GW] each, on the grid of the S x S input) and the
        input pixels per image pixel (x, y).

        `reading.stretch` places the photo in the input (input_layout); `squeeze` (axis, factor) then
        shrinks one side by that factor; `reading.mirror` also reads the input mirrored left-right and
        averages the two (`mirror_average`); `reading.scales` (plain passes of a model that takes any input
        size) reads the photo at these fractions of S as well and merges them onto S's grid
        (`scale_merge`: the highest face-up heatmap, the mean size; face-down tiles are read at S alone:
        averaged in, the smaller reading lost concealed kongs' middle tiles on synthetic scenes, recall
        0.79 -> 0.75)."""
        return self._readings(rgb, reading, squeeze)[0]

    def _readings(
        self, rgb: np.ndarray, reading: Reading, squeeze: Squeeze | None
    ) -> tuple[Outputs, Outputs]:
        """The merged outputs of raw_outputs and those of the reading at S alone (the same object when
        there is nothing to merge)."""
        main = self._read(rgb, reading, squeeze, self.size)
        sides = [scaled_side(self.size, k) for k in reading.scales]
        others = [side for side in sides if side != self.size]
        if not others or not self.flexible:
            return main, main
        if squeeze is not None:
            raise ValueError("scales are for plain passes; a squeezed pass reads at S only")
        reads = [self._read(rgb, reading, None, side) for side in others]
        heatmap, size = scale_merge(
            main[0], main[1], [(r[0], r[1], self.size / side) for r, side in zip(reads, others, strict=True)]
        )
        heatmap[1] = main[0][1]  # face-down tiles: S's reading alone (the smaller one loses them)
        return (heatmap, size, main[2], main[3]), main

    def _read(self, rgb: np.ndarray, reading: Reading, squeeze: Squeeze | None, side: int) -> Outputs:
        """One reading of the photo with an input of side `side` (see raw_outputs)."""
        h, w = rgb.shape[:2]
        new_w, new_h, canvas_w, canvas_h = input_layout(w, h, side, reading.stretch, squeeze, self.flexible)
        tensor = place(rgb, (canvas_w, canvas_h), new_w, new_h)
        ratio = (new_w / w, new_h / h)
        if not reading.mirror:
            heatmap, size, offset = self.session.run(list(OUTPUTS), {INPUTS[0]: tensor[None]})
            return heatmap[0], size[0], offset[0], ratio
        views = np.stack([tensor, tensor[:, :, ::-1]])
        if self.fixed_batch is not None:
            runs = [self.session.run(list(OUTPUTS), {INPUTS[0]: views[k : k + 1]}) for k in range(2)]
            heatmap, size, offset = (np.concatenate(parts) for parts in zip(*runs, strict=True))
        else:
            heatmap, size, offset = self.session.run(list(OUTPUTS), {INPUTS[0]: views})
        return *mirror_average(heatmap, size, offset), ratio

    def detect(self, rgb: np.ndarray, reading: Reading, squeeze: Squeeze | None = None) -> TileBoxes:
        """Tiles in `rgb`: peaks above the reading's thresholds, NMS over both channels (see raw_outputs)."""
        found = self.boxes(self.raw_outputs(rgb, reading, squeeze), rgb.shape, reading)
        found.squeeze = squeeze
        return found

    def read_at(self, rgb: np.ndarray, reading: Reading, side: int) -> TileBoxes:
        """Tiles in `rgb` read once at an input of `side` pixels instead of S (mirrored too if the reading
        is): a photo of big tiles read smaller, one of small tiles at its own pixels (recognizer/zoom.py).
        A model of one input size reads at S whatever `side` asks."""
        side = side if self.flexible else self.size
        return self.boxes(self._read(rgb, reading, None, side), rgb.shape, reading)

    def first_pass(self, rgb: np.ndarray, reading: Reading) -> tuple[TileBoxes, TileBoxes]:
        """The tiles of `detect` (readings at all the reading's scales merged) and those of the reading at
        S alone, from the same detector runs. The second judges whether the photo looks stretched
        (unstretch): a smaller reading's extra boxes on a stretched row hide its slivers (120 strips cut
        from ordinary photos: tiles right 1322 -> 1370 of 1838 judging on S alone)."""
        merged, main = self._readings(rgb, reading, None)
        found = self.boxes(merged, rgb.shape, reading)
        return found, found if main is merged else self.boxes(main, rgb.shape, reading)

    @staticmethod
    def boxes(outputs: Outputs, shape: tuple[int, ...], reading: Reading) -> TileBoxes:
        """Tiles in the image of `shape` from one set of outputs, at the reading's thresholds and IoU."""
        return outputs_to_boxes(outputs, shape, reading.threshold, reading.iou)


def mirror_average(
    heatmap: np.ndarray, size: np.ndarray, offset: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """One output from the outputs ([2, C, GH, GW] each) of an input and of that input mirrored
    left-right: heatmaps and box sizes averaged with the mirrored ones turned back (CenterNet's flip
    test; the detector was trained with left-right mirrors), sub-cell offsets from the input alone (a
    mirrored centre can fall in the neighbouring cell). Mirroring the whole input, grey padding included,
    turns back exactly, as the output grid is the input's divided by the stride."""
    return (
        (heatmap[0] + heatmap[1][:, :, ::-1]) / 2,
        (size[0] + size[1][:, :, ::-1]) / 2,
        offset[0],
    )


def scaled_side(side: int, scale: float) -> int:
    """The input side for reading at `scale` times `side`: a multiple of 32 (the encoder's coarsest
    stride, so the output grid is exactly the input over 4), at least 32."""
    return max(32, round(side * scale / 32) * 32)


def scale_merge(
    heatmap: np.ndarray, size: np.ndarray, others: list[tuple[np.ndarray, np.ndarray, float]]
) -> tuple[np.ndarray, np.ndarray]:
    """Heatmaps and box sizes ([C, GH, GW]) merged with those of other readings of the same photo at other
    input sides, given as (heatmap, size, main side / that side), each resized onto the main grid (cell
    centres matched): a tile centre seen in any reading counts (the highest heatmap value), and the box
    sizes, each converted into the main input's pixels, are averaged."""
    grid = (heatmap.shape[2], heatmap.shape[1])
    heats: list[np.ndarray] = [heatmap.astype(np.float32)]
    sizes: list[np.ndarray] = [size.astype(np.float32)]
    for other_heat, other_size, factor in others:
        heats.append(on_grid(other_heat, grid))
        sizes.append(on_grid(other_size, grid) * np.float32(factor))
    return np.max(heats, axis=0), np.sum(sizes, axis=0) / np.float32(len(sizes))


def on_grid(maps: np.ndarray, grid: tuple[int, int]) -> np.ndarray:
    """[C, h, w] maps resized to a (width, height) grid, cell centres matched (bilinear)."""
    return np.stack([cv2.resize(m.astype(np.float32), grid, interpolation=cv2.INTER_LINEAR) for m in maps])


def outputs_to_boxes(
    outputs: Outputs, shape: tuple[int, ...], threshold: float | tuple[float, ...], iou: float
) -> TileBoxes:
    """Tiles in the image of `shape` from one set of detector outputs: decode, NMS, image pixels."""
    heatmap, size, offset, ratio = outputs
    return boxes_in_image(decode(heatmap, size, offset, threshold), shape, ratio, iou)


def boxes_in_image(
    found: TileBoxes, shape: tuple[int, ...], ratio: float | tuple[float, float], iou: float
) -> TileBoxes:
    """NMS, then map input-pixel boxes to image pixels, dropping peaks in the grey padding."""
    h, w = shape[:2]
    found = found.select(nms(found.xyxy, found.score, iou))
    rx, ry = (ratio, ratio) if isinstance(ratio, float | int) else ratio
    xyxy = found.xyxy / np.array([rx, ry, rx, ry], np.float32)
    cx, cy = (xyxy[:, 0] + xyxy[:, 2]) / 2, (xyxy[:, 1] + xyxy[:, 3]) / 2
    inside = (cx >= 0) & (cx < w) & (cy >= 0) & (cy < h)
    xyxy = np.clip(xyxy, 0, [w, h, w, h]).astype(np.float32)
    ok = inside & (xyxy[:, 2] - xyxy[:, 0] >= 1) & (xyxy[:, 3] - xyxy[:, 1] >= 1)
    return TileBoxes(xyxy[ok], found.score[ok], found.back[ok])
