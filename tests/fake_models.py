"""Tiny hand-made ONNX models with the real contract's names and shapes, for tests independent of training.

The fake world: a face-up tile is a red rectangle (R=1, B=0) whose green level in its top and bottom half
(0, 0.5 or 1) says which of 1m..9m it is; a face-down tile is a blue rectangle (B=1). The fake detector's
heatmap peaks at the centre of red (channel 0) and blue (channel 1) blobs; it reports every box as
TILE_W x TILE_H input pixels. The fake classifier compares the top/bottom green levels with the nine
prototypes. With `not_a_tile` the classifier has one more, last logit, "not a tile", for red with some
blue in it (which no fake tile has) and for blue (so face-down tiles test the detector's lock)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

from recognizer.labels import FALLBACK_LABELS

SIZE = 128  # detector input side (S); G = 32
# Tile size in detector input pixels (5 x 8 heatmap cells): clearly portrait (ratio 1.6, above the runtime's
# square band), so the sideways test-time view never applies to a fake tile.
TILE_W, TILE_H = 20, 32
LEVELS = (0.0, 0.5, 1.0)
SHARPNESS = 20.0


def code_for(g_top: float, g_bottom: float) -> str:
    """The code the fake classifier gives a tile with these green levels (nearest prototype)."""
    t = int(np.argmin([abs(g_top - v) for v in LEVELS]))
    b = int(np.argmin([abs(g_bottom - v) for v in LEVELS]))
    return FALLBACK_LABELS[3 * t + b]


def _model(nodes: list, inputs: list, outputs: list, initializers: list) -> bytes:
    graph = helper.make_graph(nodes, "fake", inputs, outputs, initializer=initializers)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)], producer_name="tests")
    model.ir_version = 8
    onnx.checker.check_model(model)
    return model.SerializeToString()


def detector_bytes(size: int = SIZE, flexible: bool = False) -> bytes:
    """Heatmap = sigmoid(k * (gaussian-blurred 4x4-pooled red/blue channel - 0.6)); constant size/offset.
    `flexible`: any input height and width (as the real detector), else `size` x `size`."""
    ax = np.arange(9) - 4
    kernel = np.exp(-(ax[:, None] ** 2 + ax[None, :] ** 2) / (2 * 1.5**2))
    kernel = (kernel / kernel.sum()).astype(np.float32)
    inits = [
        numpy_helper.from_array(np.array([0], np.int64), "c0"),
        numpy_helper.from_array(np.array([1], np.int64), "c1"),
        numpy_helper.from_array(np.array([2], np.int64), "c2"),
        numpy_helper.from_array(np.array([3], np.int64), "c3"),
        numpy_helper.from_array(np.array([1], np.int64), "axis1"),
        numpy_helper.from_array(np.stack([kernel, kernel])[:, None], "blur"),
        numpy_helper.from_array(np.array(0.6, np.float32), "level"),
        numpy_helper.from_array(np.array(SHARPNESS, np.float32), "sharp"),
        numpy_helper.from_array(np.array(0.0, np.float32), "zero"),
        numpy_helper.from_array(np.array(0.5, np.float32), "half"),
        numpy_helper.from_array(np.array([TILE_W, TILE_H], np.float32).reshape(1, 2, 1, 1), "box"),
    ]
    nodes = [
        helper.make_node("Slice", ["images", "c0", "c1", "axis1"], ["red"]),
        helper.make_node("Slice", ["images", "c2", "c3", "axis1"], ["blue"]),
        helper.make_node("Concat", ["red", "blue"], ["rb"], axis=1),
        helper.make_node("AveragePool", ["rb"], ["pooled"], kernel_shape=[4, 4], strides=[4, 4]),
        helper.make_node("Conv", ["pooled", "blur"], ["blurred"], group=2, pads=[4, 4, 4, 4]),
        helper.make_node("Sub", ["blurred", "level"], ["centred"]),
        helper.make_node("Mul", ["centred", "sharp"], ["scaled"]),
        helper.make_node("Sigmoid", ["scaled"], ["heatmap"]),
        helper.make_node("Mul", ["pooled", "zero"], ["nothing"]),
        helper.make_node("Add", ["nothing", "box"], ["size"]),
        helper.make_node("Add", ["nothing", "half"], ["offset"]),
    ]
    g = size // 4
    side: list[int | str] = ["H", "W"] if flexible else [size, size]
    grid: list[int | str] = ["GH", "GW"] if flexible else [g, g]
    inputs = [helper.make_tensor_value_info("images", TensorProto.FLOAT, ["N", 3, *side])]
    outputs = [helper.make_tensor_value_info(name, TensorProto.FLOAT, ["N", 2, *grid]) for name in
               ("heatmap", "size", "offset")]  # fmt: skip
    return _model(nodes, inputs, outputs, inits)


def classifier_bytes(not_a_tile: bool = False) -> bytes:
    """Logits from the max of R, G, B in the middle of the crop's top and bottom halves (module docstring)."""
    c = SHARPNESS
    columns = len(FALLBACK_LABELS) + int(not_a_tile)
    weight = np.zeros((6, columns), np.float32)  # rows: R_top R_bot G_top G_bot B_top B_bot
    bias = np.full(columns, -50.0, np.float32)
    for t, gt in enumerate(LEVELS):
        for b, gb in enumerate(LEVELS):
            k = 3 * t + b
            weight[:, k] = [c, c, 2 * c * gt, 2 * c * gb, 0, 0]
            bias[k] = -c * (gt**2 + gb**2)
    back = len(FALLBACK_LABELS) - 1
    weight[:, back] = [0, 0, 0, 0, c, c]
    bias[back] = 0.0
    if not_a_tile:  # 2c - c for a tile (below its 2c..4c), 6c - c at blue 0.5 (above), 8c - c for a back
        weight[:, -1] = [c, c, 0, 0, 4 * c, 4 * c]
        bias[-1] = -c
    inits = [
        numpy_helper.from_array(weight, "w"),
        numpy_helper.from_array(bias, "b"),
        *(numpy_helper.from_array(np.array([v], np.int64), f"r{v}") for v in (8, 24, 40, 56)),
        numpy_helper.from_array(np.array([2], np.int64), "axis2"),
    ]
    nodes = [  # the middle of each half, so a box a few pixels off still reads the right half
        helper.make_node("Slice", ["crops", "r8", "r24", "axis2"], ["top"]),
        helper.make_node("Slice", ["crops", "r40", "r56", "axis2"], ["bottom"]),
        helper.make_node("MaxPool", ["top"], ["top_max"], kernel_shape=[16, 48], strides=[16, 48]),
        helper.make_node("MaxPool", ["bottom"], ["bottom_max"], kernel_shape=[16, 48], strides=[16, 48]),
        helper.make_node("Concat", ["top_max", "bottom_max"], ["halves"], axis=2),
        helper.make_node("Flatten", ["halves"], ["features"], axis=1),
        helper.make_node("Gemm", ["features", "w", "b"], ["logits"]),
    ]
    inputs = [helper.make_tensor_value_info("crops", TensorProto.FLOAT, ["N", 3, 64, 48])]
    outputs = [helper.make_tensor_value_info("logits", TensorProto.FLOAT, ["N", columns])]
    return _model(nodes, inputs, outputs, inits)


def write_fake_models(
    folder: Path, size: int = SIZE, flexible: bool = False, not_a_tile: bool = False
) -> Path:
    """Write detector.onnx, classifier.onnx and labels.json into `folder` and return it (`not_a_tile`:
    the classifier with the extra output, and labels.json saying so)."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "detector.onnx").write_bytes(detector_bytes(size, flexible))
    (folder / "classifier.onnx").write_bytes(classifier_bytes(not_a_tile))
    config = {
        "labels": list(FALLBACK_LABELS),
        "detector_size": size,
        "crop_size": [64, 48],
        "pad": 0.1,
        "detector_input": "letterbox",  # the fake boxes have a fixed size in letterboxed input pixels
    }
    if not_a_tile:
        config["not_a_tile"] = True
    (folder / "labels.json").write_text(json.dumps(config))
    return folder


def draw_tile(rgb: np.ndarray, box: tuple[int, int, int, int], g_top: float = 1.0, g_bottom: float = 1.0,
              back: bool = False) -> None:  # fmt: skip
    """Paint a fake tile into `rgb` (uint8, in place): red with green levels, or blue when face-down."""
    x0, y0, x1, y1 = box
    if back:
        rgb[y0:y1, x0:x1] = (0, 0, 255)
        return
    mid = (y0 + y1) // 2
    rgb[y0:mid, x0:x1] = (255, round(255 * g_top), 0)
    rgb[mid:y1, x0:x1] = (255, round(255 * g_bottom), 0)


def tile_grid(tiles: list[tuple[float, float]]) -> np.ndarray:
    """A 256x240 RGB photo of fake tiles (green top, green bottom), four to a row."""
    rgb = np.zeros((240, 256, 3), np.uint8)
    for i, (top, bottom) in enumerate(tiles):
        x, y = 16 + 60 * (i % 4), 8 + 80 * (i // 4)
        draw_tile(rgb, (x, y, x + 40, y + 56), top, bottom)
    return rgb
