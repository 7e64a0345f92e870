"""Tile classifier: a portrait crop around each box, `classifier.onnx` run once, softmax (ONNX contract)."""

from __future__ import annotations

import copy
from typing import Literal

import cv2
import numpy as np
import onnxruntime as ort

from recognizer.errors import ModelError, ProfileError
from recognizer.session import check_io, fixed_batch
from recognizer.set_profile import SetProfile

INPUTS = ("crops",)
OUTPUTS = ("logits",)
FEATURES_OUTPUT = "features"
"""The optional output set profiles compare tiles by (datasets.onnx_features adds it)."""
BORDER_GREY = (127, 127, 127)

TurnMode = Literal["none", "landscape", "all"]
"""Test-time turns: "none" one view per tile; "landscape" also the other 90° turn of sideways tiles;
"all" every tile also turned 180° (for a sideways tile that is the other 90° turn)."""
Combine = Literal["mean", "max"]
"""How views of one tile are combined: average the probabilities, or keep the most confident view."""


View = tuple[bool, bool]
"""One crop of a tile: (sideways, flip). Sideways: the box is turned clockwise to portrait (crop top = box
left side); flip: the crop is turned a further 180°."""


def is_landscape(box: np.ndarray) -> bool:
    """A box wider than high holds a tile lying sideways (the contract's rule)."""
    return bool(box[2] - box[0] > box[3] - box[1])


def view_plan(box: np.ndarray, turns: TurnMode, square_band: float = 1.0) -> list[View]:
    """The crops to classify for one box. A box whose long side is under `square_band` times its short
    side is read both upright and sideways (its orientation is unclear); the others as the contract says."""
    w, h = float(box[2] - box[0]), float(box[3] - box[1])
    unclear = max(w, h) < square_band * max(min(w, h), 1e-6)
    plan = []
    for sideways in (False, True) if unclear else (is_landscape(box),):
        both = turns == "all" or (turns == "landscape" and sideways)
        plan += [(sideways, flip) for flip in ((False, True) if both else (False,))]
    return plan


def crop_corners(box: np.ndarray, pad: float, flip: bool = False, sideways: bool | None = None) -> np.ndarray:
    """Source points that map onto the crop's top-left, top-right and bottom-left corners.

    The box grows by `pad` on each side; a sideways (by default: landscape) box is turned clockwise to
    portrait (crop top = box left side); `flip` turns the crop a further 180°."""
    x0, y0, x1, y1 = (float(v) for v in box)
    w, h = x1 - x0, y1 - y0
    gx0, gy0, gx1, gy1 = x0 - pad * w, y0 - pad * h, x1 + pad * w, y1 + pad * h
    if sideways is None:
        sideways = gx1 - gx0 > gy1 - gy0
    if sideways:
        corners = [[gx0, gy1], [gx0, gy0], [gx1, gy1]] if not flip else [[gx1, gy0], [gx1, gy1], [gx0, gy0]]
    else:
        corners = [[gx0, gy0], [gx1, gy0], [gx0, gy1]] if not flip else [[gx1, gy1], [gx0, gy1], [gx1, gy0]]
    return np.asarray(corners, dtype=np.float32)


def shrink_region(
    rgb: np.ndarray, corners: np.ndarray, size: tuple[int, int]
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Area-shrink the part of `rgb` a crop reads (`corners`: source points of the crop's top-left,
    top-right and bottom-left), each photo axis on its own to 1.5x the crop's (H, W) `size` resolution, so
    a big tile in a 12 MP photo is not aliased and a tall sliver (a stretched photo) keeps its width.
    Returns the image to warp from and how to map corners into it: (corners - shift) * stretch."""
    image, shift, stretch = rgb, np.zeros(2, np.float32), np.ones(2, np.float32)
    crop_h, crop_w = size
    target = np.array([[0, 0], [crop_w, 0], [0, crop_h]], np.float32)
    linear = cv2.getAffineTransform(corners.astype(np.float32), target)[:, :2]  # crop px per photo px
    fx, fy = (min(1.5 * float(np.linalg.norm(linear[:, k])), 1.0) for k in (0, 1))
    if min(fx, fy) < 1.0:
        far = corners[1] + corners[2] - corners[0]
        xs, ys = np.append(corners[:, 0], far[0]), np.append(corners[:, 1], far[1])
        h, w = rgb.shape[:2]
        rx0, ry0 = max(int(xs.min()) - 2, 0), max(int(ys.min()) - 2, 0)
        rx1, ry1 = min(int(np.ceil(xs.max())) + 2, w), min(int(np.ceil(ys.max())) + 2, h)
        if rx1 - rx0 >= 2 and ry1 - ry0 >= 2:
            nw, nh = max(int((rx1 - rx0) * fx), 1), max(int((ry1 - ry0) * fy), 1)
            image = cv2.resize(rgb[ry0:ry1, rx0:rx1], (nw, nh), interpolation=cv2.INTER_AREA)
            shift = np.array([rx0, ry0], np.float32)
            stretch = np.array([nw / (rx1 - rx0), nh / (ry1 - ry0)], np.float32)
    return image, shift, stretch


def cut_crops(rgb: np.ndarray, box: np.ndarray, pad: float, size: tuple[int, int], views: list[View]) -> list:
    """Crops (H, W, 3 uint8) of one box, one per view; big boxes are area-shrunk first (`shrink_region`)."""
    crop_h, crop_w = size
    image, shift, stretch = shrink_region(rgb, crop_corners(box, pad), size)
    target = np.array([[0, 0], [crop_w, 0], [0, crop_h]], np.float32)
    crops = []
    for sideways, flip in views:
        src = (crop_corners(box, pad, flip, sideways) - shift) * stretch
        matrix = cv2.getAffineTransform(src.astype(np.float32), target)
        crops.append(
            cv2.warpAffine(
                image, matrix, (crop_w, crop_h), flags=cv2.INTER_LINEAR,
                borderMode=cv2.BORDER_CONSTANT, borderValue=BORDER_GREY,
            )
        )  # fmt: skip
    return crops


def output_columns(session: ort.InferenceSession, classes: int, rejects: bool) -> int:
    """The logits per crop: `classes`, plus one when `rejects` (labels.json's not_a_tile), checked against
    the model's output shape when that is static, so a labels.json that does not fit fails at load."""
    expected = classes + int(rejects)
    shape = next(o.shape for o in session.get_outputs() if o.name == OUTPUTS[0])
    width = shape[-1] if shape else None
    if isinstance(width, int) and width > 0 and width != expected:
        raise ModelError(
            f"classifier.onnx gives {width} logits per crop, labels.json asks for {expected} "
            f"({classes} labels, not_a_tile {str(rejects).lower()})"
        )
    return expected


def feature_width(session: ort.InferenceSession) -> int:
    """Length of the classifier's FEATURES_OUTPUT vector; 0 when it has none."""
    for output in session.get_outputs():
        if output.name == FEATURES_OUTPUT:
            width = output.shape[-1] if output.shape else None
            return width if isinstance(width, int) and width > 0 else 0
    return 0


def split_not_a_tile(probs: np.ndarray, rejects: bool) -> tuple[np.ndarray, np.ndarray]:
    """(..., labels) tile probabilities renormalised to sum 1 and (...) probabilities of "not a tile" (the
    last column when `rejects`; zeros otherwise, the probabilities then returned as they are)."""
    if not rejects:
        return probs, np.zeros(probs.shape[:-1], np.float32)
    tiles, not_tile = probs[..., :-1].astype(np.float64), probs[..., -1]
    total = tiles.sum(axis=-1, keepdims=True)
    uniform = np.full_like(tiles, 1.0 / tiles.shape[-1])  # no tile mass left at all: no label preferred
    tiles = np.divide(tiles, total, out=uniform, where=total > 0)
    return tiles.astype(np.float32), np.ascontiguousarray(not_tile, dtype=np.float32)


def softmax(logits: np.ndarray) -> np.ndarray:
    """Row-wise softmax in float64, returned as float32."""
    z = logits.astype(np.float64)
    z -= z.max(axis=1, keepdims=True)
    e = np.exp(z)
    return (e / e.sum(axis=1, keepdims=True)).astype(np.float32)


class TileClassifier:
    """Runs `classifier.onnx` on every tile of a photo in one batch; returns class probabilities over all
    its output columns: the `classes` labels, then "not a tile" when `rejects` (labels.json's not_a_tile)."""

    def __init__(
        self,
        session: ort.InferenceSession,
        size: tuple[int, int],
        pad: float,
        classes: int,
        rejects: bool = False,
    ) -> None:
        check_io(session, "classifier.onnx", INPUTS, OUTPUTS)
        self.session = session
        self.size = size
        self.pad = pad
        self.classes = classes
        self.rejects = rejects
        self.columns = output_columns(session, classes, rejects)
        self.fixed_batch = fixed_batch(session)
        self.feature_width = feature_width(session)
        self.profile: SetProfile | None = None  # with_profile: tiles read with a set's named examples

    def batch(
        self, rgb: np.ndarray, xyxy: np.ndarray, plans: list[list[View]]
    ) -> tuple[np.ndarray, np.ndarray]:
        """Crops for explicit view plans (one list of views per box) and the owning box of each crop."""
        crops, owner = [], []
        for i, (box, plan) in enumerate(zip(xyxy, plans, strict=True)):
            for crop in cut_crops(rgb, box, self.pad, self.size, plan):
                crops.append(crop)
                owner.append(i)
        if not crops:
            return np.zeros((0, 3, *self.size), np.float32), np.zeros(0, np.int64)
        batch = np.stack(crops).astype(np.float32).transpose(0, 3, 1, 2) * (1.0 / 255.0)
        return np.ascontiguousarray(batch), np.asarray(owner, dtype=np.int64)

    def logits(self, batch: np.ndarray) -> np.ndarray:
        """Run the model on a crop batch (in chunks if the model has a fixed batch size)."""
        return self.run(batch, OUTPUTS)[0]

    def run(self, batch: np.ndarray, names: tuple[str, ...]) -> list[np.ndarray]:
        """The outputs `names` for a crop batch, in chunks when the model's batch size is fixed."""
        if len(batch) == 0:
            widths = {OUTPUTS[0]: self.columns, FEATURES_OUTPUT: self.feature_width}
            return [np.zeros((0, widths[name]), np.float32) for name in names]
        if self.fixed_batch is None:
            got = self.session.run(list(names), {INPUTS[0]: batch})
            return [np.asarray(g, dtype=np.float32) for g in got]
        parts: list[list[np.ndarray]] = []
        for start in range(0, len(batch), self.fixed_batch):
            chunk = batch[start : start + self.fixed_batch]
            short = self.fixed_batch - len(chunk)
            if short:
                chunk = np.concatenate([chunk, np.repeat(chunk[-1:], short, axis=0)])
            got = self.session.run(list(names), {INPUTS[0]: chunk})
            parts.append([g[: self.fixed_batch - short] for g in got])
        return [np.concatenate([p[i] for p in parts]).astype(np.float32) for i in range(len(names))]

    def with_profile(self, profile: SetProfile | None) -> TileClassifier:
        """A classifier sharing this one's session that reads tiles with `profile` (None: without)."""
        clone = copy.copy(self)
        clone.profile = profile
        return clone

    def looks(
        self, rgb: np.ndarray, xyxy: np.ndarray, labels: np.ndarray, turns: TurnMode, square_band: float
    ) -> np.ndarray:
        """(n, width) feature vectors of the boxes, each from the view (way up) in which the classifier
        finds its known label `labels[i]` likeliest: how the named tiles a set profile learns from look."""
        if not self.feature_width:
            raise ProfileError("this classifier.onnx has no features output (datasets.onnx_features adds it)")
        batch, owner = self.batch(rgb, xyxy, [view_plan(box, turns, square_band) for box in xyxy])
        logits, feats = self.run(batch, (OUTPUTS[0], FEATURES_OUTPUT))
        probs = softmax(logits)
        best = np.full(len(xyxy), -1.0)
        out = np.zeros((len(xyxy), self.feature_width), np.float32)
        for row, tile in enumerate(owner):
            if probs[row, labels[tile]] > best[tile]:
                best[tile] = probs[row, labels[tile]]
                out[tile] = feats[row]
        return out

    def probabilities(
        self,
        rgb: np.ndarray,
        xyxy: np.ndarray,
        turns: TurnMode = "landscape",
        combine: Combine = "mean",
        square_band: float = 1.0,
        flip_below: float = 1.0,
    ) -> np.ndarray:
        """(n, columns) probabilities for the boxes `xyxy` (pixels of `rgb`), views combined. With "max",
        a tile read at least `flip_below` sure the first way up is not also read turned over: no view of
        it could then win by much, and the turned-over reads are half the classifier's work."""
        plans = [view_plan(box, turns, square_band) for box in xyxy]
        if combine == "max" and flip_below < 1.0:
            first = [[view for view in plan if not view[1]] for plan in plans]
            probs, owner = self.view_rows(rgb, xyxy, first)
            sure = combine_views(probs, owner, len(xyxy), "max").max(axis=1, initial=0.0) >= flip_below
            plans = [
                [] if done else [v for v in plan if v[1]] for plan, done in zip(plans, sure, strict=True)
            ]
            more, more_owner = self.view_rows(rgb, xyxy, plans)
            probs, owner = np.concatenate([probs, more]), np.concatenate([owner, more_owner])
        else:
            probs, owner = self.view_rows(rgb, xyxy, plans)
        return combine_views(probs, owner, len(xyxy), combine)

    def view_rows(
        self, rgb: np.ndarray, xyxy: np.ndarray, plans: list[list[View]]
    ) -> tuple[np.ndarray, np.ndarray]:
        """Probabilities of every planned view (one row each) and the box each row belongs to."""
        batch, owner = self.batch(rgb, xyxy, plans)
        if self.profile is None:
            return softmax(self.logits(batch)), owner
        logits, features = self.run(batch, (OUTPUTS[0], FEATURES_OUTPUT))
        return self.profile.adjust(softmax(logits), features), owner

    def row_probabilities(self, rgb: np.ndarray, xyxy: np.ndarray, voters: int | None = None) -> np.ndarray:
        """(n, columns) probabilities for the tiles of a stretched photo (one row of tiles stretched to a
        square). Their boxes are slivers or bars whatever way the tiles lie, so the box shape cannot say
        which tiles are sideways; the tiles of one row lie alike, so all are read the one way the
        classifier is surer of over the first `voters` boxes (`one_way_for_all`; default all)."""
        return one_way_for_all(self.all_view_probabilities(rgb, xyxy), voters)

    def all_view_probabilities(self, rgb: np.ndarray, xyxy: np.ndarray) -> np.ndarray:
        """(n, 4, columns) probabilities of every box read in each of ALL_VIEWS."""
        probs, _ = self.view_rows(rgb, xyxy, [ALL_VIEWS] * len(xyxy))
        return probs.reshape(len(xyxy), len(ALL_VIEWS), self.columns)


ALL_VIEWS: list[View] = [(False, False), (False, True), (True, False), (True, True)]
"""Every way a crop can be read: upright, upright turned over, sideways, sideways turned over."""


def one_way_for_all(probs: np.ndarray, voters: int | None = None) -> np.ndarray:
    """(n, classes) from (n, 4, classes) probabilities of ALL_VIEWS: every tile read the way (upright or
    sideways, each averaged over both ways up) that the classifier is surer of summed over the first
    `voters` tiles (default all)."""
    upright, sideways = probs[:, :2].mean(axis=1), probs[:, 2:].mean(axis=1)
    vote = slice(0, voters)
    return upright if upright[vote].max(axis=1).sum() >= sideways[vote].max(axis=1).sum() else sideways


def combine_views(probs: np.ndarray, owner: np.ndarray, count: int, combine: Combine) -> np.ndarray:
    """One probability row per tile from the rows of its views."""
    out = np.zeros((count, probs.shape[1] if probs.ndim == 2 else 0), np.float32)
    if combine == "mean":
        np.add.at(out, owner, probs)
        views = np.bincount(owner, minlength=count).astype(np.float32)
        return out / np.maximum(views, 1)[:, None]
    best = np.full(count, -1.0, np.float32)
    for row, tile in zip(probs, owner, strict=True):
        if row.max() > best[tile]:
            best[tile] = row.max()
            out[tile] = row
    return out
