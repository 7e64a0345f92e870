"""The recognizer: detector, classifier, game constraints and reading order, from photo to Detections."""

from __future__ import annotations

import copy
import functools
import threading
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Literal

import numpy as np

from recognizer.blank_white import as_white_dragons, blank_faces
from recognizer.classifier import Combine, TileClassifier, TurnMode, split_not_a_tile
from recognizer.constraints import apply_tile_limits
from recognizer.detections import TOP_K, Detections
from recognizer.detector import SQUARE, Reading, TileBoxes, TileDetector, seen_taller
from recognizer.errors import ModelError, ProfileError
from recognizer.face_down import lone_weak_backs
from recognizer.found_twice import found_twice
from recognizer.imageio import LoadedImage
from recognizer.labels import BACK_INDEX, LABELS
from recognizer.models import ModelConfig, load_model_files
from recognizer.reading_order import reading_order
from recognizer.session import make_session
from recognizer.set_profile import NAME_MAX, SetProfile, fingerprint
from recognizer.stretched_row import row_duplicates, row_gaps, row_shares
from recognizer.unstretch import may_be_stretched, unstretch
from recognizer.zoom import SURE, closer_look, last_look, whole_tiles, zoom_in, zoom_out

STRETCH = 4 / 3
"""How far a photo's long side is squeezed towards the detector's square input when labels.json does not
say (Settings.detector_stretch): as far as the training photos were (4:3 phone photos stored as squares),
no further, so a 4:3 photo's tiles look as in them and a 16:9 photo keeps the rest of its aspect (its
tiles squeezed to slivers otherwise). Chosen on the mean of valid (its 12 MP 4:3 variant) and world-tune
tile F1 against the whole square and the aspect kept (benchmarks/RESULTS.md, session 9)."""

DEFAULT_THRESHOLD = 0.4
"""Detector peak threshold when labels.json gives none: best tile F1 on valid and its 12 MP variant with the
v2 models (0.35 is within two photos on photos fully right)."""


@dataclass(frozen=True)
class Settings:
    """Decoding and decision settings. Defaults: best on the valid split and its 12 MP variant with the
    trained models (`python -m datasets.evaluate --sweep [--sweep-variant 12mp-4032x3024]`); the face-down
    threshold is not tuned upwards on valid, which has no face-down tiles."""

    threshold: float | None = None  # detector peak threshold for face-up tiles; None: labels.json's
    # "detector_threshold", else DEFAULT_THRESHOLD
    back_threshold: float = 0.3  # ... and for face-down tiles (channel 1); see back_lock
    nms_iou: float = 0.5  # boxes overlapping more than this (either channel) are one tile
    mirror_test: bool = True  # the first pass also reads the photo mirrored left-right and averages the
    # two (detector.mirror_average). Valid, audited: hands fully right 0.728 -> 0.766, tile P/R
    # 0.979/0.980 -> 0.983/0.982. Squeezed retries read once: mirrored there, strips got worse (13 -> 18
    # wrong) as the retry's choice of factor moved
    first_pass_scales: tuple[float, ...] = (1.0, 0.75)  # ... and also at 0.75 S, merged onto S's grid
    # (detector.scale_merge: a tile centre seen at either size counts). Valid, audited: hands 0.766 ->
    # 0.778 (12 MP 0.734 -> 0.772), tile P/R 0.984/0.984 -> 0.986/0.987; synthetic kongs' hands 0.453 ->
    # 0.496. Averaging instead of the highest, and other sides (256-448), measured in benchmarks/RESULTS.md
    crop_pad: float | None = None  # classifier crops: the box grown by this share on each side; None:
    # labels.json's "pad" (0.175: v6 is trained there, -0.04/+0.06). v4, trained at 0.1, chose it on valid,
    # audited, hands fully right (640 px / 12 MP): 0.1 124/122, 0.15 126/124, 0.175 129/128, 0.2 125/127
    turns: TurnMode = "all"  # test-time turns of the crops: every tile also read turned over
    combine: Combine = "max"  # the most confident view wins (keeps the uncertainty flags meaningful)
    square_band: float = 1.5  # boxes nearly square (long side < band x short side) read both ways
    flip_below: float = 0.9  # with "max", a tile read this sure the first way up is not read turned over
    # too (crops per photo 51 -> 33). v9, against 1.0: valid audited the same (F1 0.973, hands 0.665),
    # world tune F1 0.907 both (hands 0.358 -> 0.351); 640 px photos 0.128 -> 0.114 s
    tile_limits: bool = True  # at most 4 of a tile, 1 of each flower/season
    drop_twins: bool = True  # a box of the same code as a surer one covering half of it is the same tile
    # found twice (recognizer/found_twice.py; big tilted close-up tiles). Valid, audited: hands 129 -> 131
    # of 158 (12 MP 128 -> 130); synthetic kongs and scatter scenes unchanged (face-down tiles exempt)
    top_k: int = 3  # labels a tile may move to when its kind is over-subscribed
    back_from_detector: bool = True  # the detector's face-down channel decides "back" ...
    back_lock: float = 0.6  # ... for boxes it scores this high; weaker face-down boxes are "back" only when
    # the classifier agrees (else its face-up reading stands), and are dropped when read as backs but
    # touching no other face-down box (lone_backs_need_company). On synthetic scenes with concealed kongs
    # (datasets.synthetic --kongs) face-down recall 0.39 -> 0.79 against threshold 0.6 alone, precision
    # 0.98 both; on valid (no face-down tiles labelled) the same photos fully right. benchmarks/RESULTS.md
    lone_backs_need_company: bool = True  # weak face-down boxes read as backs need a face-down neighbour
    # (recognizer/face_down.py: the middle two tiles of a concealed kong; felt between spaced tiles is not)
    back_min_prob: float = 0.8  # otherwise the classifier needs this much for "back" (blank white dragons)
    blank_white: bool = True  # a tile read as a back whose middle is plain and the colour of the photo's
    # faces is a blank white dragon (recognizer/blank_white.py; judged in benchmarks/RESULTS.md, session 28)
    unstretch: bool = True  # retry square photos whose tiles look stretched (recognizer/unstretch.py;
    # a phone photo, never square, is never retried: unstretch.may_be_stretched)
    shapes_as_seen: bool = True  # ... judging box shapes as the detector sees them (the photo stretched to
    # its square input), so a 4:3 photo's slivers look as slivers as in the square photo they came from
    one_way_rows: bool = True  # tiles found in a squeezed retry are all read upright or all sideways,
    # whichever the classifier is surer of (their box shapes cannot tell), each from its own share of the
    # row; a tile found twice in the row counts once (recognizer/stretched_row.py). Row strips of valid
    # fully right 4 -> 20 of 34 with the new squeeze factors and the gaps below (RESULTS.md)
    not_a_tile_min: float = 0.5  # a box the classifier reads as no tile at all this surely is dropped
    # (keyboard keys, window panes, dominoes the detector boxed), unless the detector locks it face-down
    # (back_lock: a wall of backs is tiles). Only with a classifier that has the extra output (labels.json
    # "not_a_tile"). World tune scenes tile F1 (never / 0.8 / 0.5 / 0.35): 0.833 / 0.849 / 0.855 / 0.857,
    # clutter box precision 0.633 -> 0.904 at 0.5; valid hands 0.658 / 0.671 / 0.683 (RESULTS.md, session 8)
    weak_no_tile_below: float = SURE  # a box the detector scores under this (not sure it is a tile) is
    # also dropped when the classifier finds "no tile" likelier than any one code (a table's edge read as a
    # 9p at 0.08 beside no tile at 0.45); 0: never. Judged by the rule with v13 (RESULTS.md, session 23)
    gap_min_prob: float = 0.8  # a gap in a squeezed row as wide as a tile (stretched_row.row_gaps) holds
    # one when the classifier reads a face-up tile there this surely
    zoom_small_tiles: bool = True  # a photo whose tiles are small in the detector's input, or where the
    # first pass finds almost nothing, is read again in zoomed windows around its tiles; one whose tiles are
    # big, or a small photo with almost nothing found, at a smaller input (recognizer/zoom.py)
    look_closer: bool = True  # ... and a phone photo (not square) where the first pass finds almost nothing,
    # too small to search in windows, at its own pixels (zoom.closer_look)
    whole_tiles: bool = True  # a reading of at most zoom.PARTS_FEW sliver-shaped boxes is checked at half
    # the input side, which wins when its boxes hold most of them, two or more each (a close-up found in
    # parts: the sticks of a bamboo tile). World tune close-ups F1 0.750 -> 0.830, lone tune 0.613 -> 0.659
    # (benchmarks/RESULTS.md, session 28)
    detector_stretch: float | None = None  # None: labels.json's "detector_input" ("square": SQUARE,
    # "letterbox": 1), else STRETCH. The photo's long side is squeezed by up to this factor for the
    # detector (detector.input_layout). Stretching every photo to the square, as the training photos were
    # made, beat the aspect kept on 4:3 12 MP valid photos (tile F1 0.904 -> 0.922, v2 models) but squeezes
    # a 16:9 photo's tiles to slivers


class Recognizer:
    """Loads both ONNX models once; `recognize` turns a LoadedImage into Detections in reading order."""

    def __init__(
        self, model_dir: Path | None = None, threads: int | None = None, settings: Settings | None = None
    ):
        files = load_model_files(model_dir)
        self.model_dir = model_dir
        self.config: ModelConfig = files.config
        if self.config.labels != LABELS:
            raise ModelError(f"labels.json in {files.where} lists labels in another order than the runtime")
        self.settings = settings or Settings()
        if self.settings.threshold is None:
            model_threshold = self.config.detector_threshold or DEFAULT_THRESHOLD
            self.settings = replace(self.settings, threshold=model_threshold)
        pad = self.config.pad if self.settings.crop_pad is None else self.settings.crop_pad
        self.settings = replace(self.settings, crop_pad=pad)  # resolved, so evaluations record it
        if self.settings.detector_stretch is None:
            stretch = {"square": SQUARE, "letterbox": 1.0}.get(self.config.detector_input or "", STRETCH)
            self.settings = replace(self.settings, detector_stretch=stretch)
        self.detector = TileDetector(
            make_session(files.detector, "detector.onnx", threads), self.config.detector_size
        )
        self.classifier = TileClassifier(
            make_session(files.classifier, "classifier.onnx", threads),
            self.config.crop_size,
            pad,
            len(LABELS),
            rejects=self.config.not_a_tile,
        )
        self.classifier_id = fingerprint(files.classifier)
        self.reads_profiles_of = {self.classifier_id, *self.config.profiles_from}

    def with_profile(self, profile: SetProfile | None) -> Recognizer:
        """A recognizer sharing this one's models that reads tiles with a set's named examples (None:
        without). ProfileError when the profile was made with another classifier or this one cannot
        compare tiles."""
        if profile is not None:
            if not self.classifier.feature_width:
                raise ProfileError("the classifier in use cannot read set profiles (no features output)")
            if profile.classifier not in self.reads_profiles_of:
                raise ProfileError(
                    f"set profile {profile.name!r} was made with another classifier; name its tiles again"
                )
            dims = {len(e.features) for e in profile.examples}
            if dims - {self.classifier.feature_width}:
                raise ProfileError(f"set profile {profile.name!r} does not fit this classifier")
        clone = copy.copy(self)
        clone.classifier = self.classifier.with_profile(profile)
        return clone

    def new_profile(self, name: str) -> SetProfile:
        """An empty set profile for this recognizer's classifier."""
        return SetProfile(name.strip()[:NAME_MAX] or "set", self.classifier_id)

    def learn(
        self, profile: SetProfile, image: LoadedImage, boxes: np.ndarray, codes: list[str]
    ) -> SetProfile:
        """`profile` with the tiles in `boxes` (xyxy in the photo's own pixels, as Detections give them)
        named `codes` added."""
        if profile.classifier not in self.reads_profiles_of:
            raise ProfileError(
                f"set profile {profile.name!r} was made with another classifier; start a new one"
            )
        unknown = [c for c in codes if c not in LABELS]
        if unknown:
            raise ProfileError(f"unknown tile code {unknown[0]!r}")
        if len(codes) != len(boxes):
            raise ProfileError(f"{len(codes)} codes for {len(boxes)} tiles")
        s = self.settings
        labels = np.array([LABELS.index(c) for c in codes], np.int64)
        xyxy = np.asarray(boxes, np.float32).reshape(-1, 4) * np.float32(image.scale)
        features = self.classifier.looks(image.rgb, xyxy, labels, s.turns, s.square_band)
        # the classifier's own reading, as the runtime makes it without knowing the codes: what the
        # profile weighs its examples against when it chooses how much they count
        probs = self.classifier.with_profile(None).probabilities(
            image.rgb, xyxy, s.turns, s.combine, s.square_band, s.flip_below
        )
        tiles, _ = split_not_a_tile(probs, self.classifier.rejects)
        return profile.learnt(codes, features, tiles)

    def reading(self) -> Reading:
        """How the detector reads every photo under these settings (the first pass's way)."""
        s = self.settings
        stretch = STRETCH if s.detector_stretch is None else s.detector_stretch  # resolved in __init__
        thresholds = (s.threshold or DEFAULT_THRESHOLD, s.back_threshold)
        return Reading(thresholds, s.nms_iou, stretch, s.mirror_test, s.first_pass_scales)

    def detect(self, image: LoadedImage) -> TileBoxes:
        """Tile boxes in the pixels of `image.rgb` (not yet classified)."""
        s = self.settings
        reading = self.reading()
        first, at_size = self.detector.first_pass(image.rgb, reading)
        h, w = image.rgb.shape[:2]
        photo_side = max(h, w)

        @functools.cache
        def read_at(side: int) -> TileBoxes:  # the close-up looks may ask for the same side twice
            return self.detector.read_at(image.rgb, reading, side)

        if s.zoom_small_tiles:
            zoomed = zoom_in(
                image.rgb,
                first,
                self.detector.size,
                lambda crop: self.detector.detect(crop, reading.once()),
                lambda crop: self.detector.first_pass(crop, reading)[0],
                s.nms_iou,
            )
            if zoomed is not None:
                if s.whole_tiles:  # windows around a close-up's parts of tiles
                    whole = whole_tiles(zoomed, self.detector.size, photo_side, read_at)
                    return zoomed if whole is None else whole
                return zoomed
            smaller = zoom_out(first, self.detector.size, photo_side, read_at)
            if smaller is not None:
                return smaller
        boxes = self.unstretched(image, reading, first, at_size) if s.unstretch else first
        if s.zoom_small_tiles and s.look_closer and not may_be_stretched(w, h):
            # a square photo may be a stretched export: its slivers read larger are no tiles (the
            # unstretch retry is its way); a phone photo's small tiles are read at its own pixels
            closer = closer_look(boxes, self.detector.size, photo_side, read_at)
            if closer is not None:
                return closer
        if s.zoom_small_tiles and s.whole_tiles:  # also a squeezed retry's slivers: a tile's sticks
            whole = whole_tiles(boxes, self.detector.size, photo_side, read_at)
            if whole is not None:
                return whole
        if s.zoom_small_tiles and boxes.squeeze is None:
            smaller = last_look(boxes, self.detector.size, read_at)
            if smaller is not None:
                return smaller
        return boxes

    def unstretched(
        self, image: LoadedImage, reading: Reading, first: TileBoxes, at_size: TileBoxes
    ) -> TileBoxes:
        """The first pass (read the `reading` way), or a pass with the photo squeezed when its tiles look
        stretched (unstretch); only a square photo can be (unstretch.may_be_stretched)."""
        s = self.settings
        h, w = image.rgb.shape[:2]
        if not may_be_stretched(w, h):
            return first
        retried, squeeze = unstretch(  # judged on the reading at S alone (TileDetector.first_pass)
            at_size,
            lambda squeeze: self.detector.detect(image.rgb, reading.once(), squeeze),
            s.back_lock if s.back_from_detector else 1.0,
            seen_taller(w, h, reading.stretch) if s.shapes_as_seen else 1.0,
        )
        boxes = first if squeeze is None else retried
        if boxes.squeeze is not None and s.one_way_rows:
            boxes = boxes.select(np.nonzero(~row_duplicates(boxes, boxes.squeeze[0]))[0])
        return boxes

    def classify(self, image: LoadedImage, boxes: TileBoxes, found: int | None = None) -> np.ndarray:
        """(n, 43) label probabilities for `boxes`, test-time turns combined; a classifier's "not a tile"
        output, if it has one, is left out and the rest renormalised (`classify_with_rejection`)."""
        return self.classify_with_rejection(image, boxes, found)[0]

    def classify_with_rejection(
        self, image: LoadedImage, boxes: TileBoxes, found: int | None = None
    ) -> tuple[np.ndarray, np.ndarray]:
        """(n, 43) label probabilities for `boxes` (summing to 1) and (n,) probabilities that a box holds
        no tile at all (zeros without labels.json's not_a_tile), test-time turns combined. A squeezed
        pass's row is read one way, chosen by its first `found` boxes (those the detector found; default
        all)."""
        s = self.settings
        if boxes.squeeze is not None and s.one_way_rows:
            found = len(boxes) if found is None else found
            shares = np.concatenate([row_shares(boxes.xyxy[:found], boxes.squeeze[0]), boxes.xyxy[found:]])
            probs = self.classifier.row_probabilities(image.rgb, shares, found)
        else:
            probs = self.classifier.probabilities(
                image.rgb, boxes.xyxy, s.turns, s.combine, s.square_band, s.flip_below
            )
        return split_not_a_tile(probs, self.classifier.rejects)

    def reads_blank_by_colour(self) -> bool:
        """Whether a plain tile read as a back in the faces' colour is taken for a blank white dragon
        (`Settings.blank_white`): not when the set profile in use names the set's own back."""
        profile = self.classifier.profile
        return self.settings.blank_white and not (profile is not None and profile.knows_backs)

    def recognize(self, image: LoadedImage) -> Detections:
        """Tiles in the photo: codes under the game's limits, boxes in original pixels, reading order."""
        boxes = self.detect(image)
        if len(boxes) == 0:
            return Detections.empty()
        found = len(boxes)
        if boxes.squeeze is not None and self.settings.one_way_rows:
            boxes = with_row_gaps(boxes, boxes.squeeze[0])
        probs, not_tile = self.classify_with_rejection(image, boxes, found)
        keep = ~not_tiles(boxes, probs, not_tile, self.settings, self.classifier.rejects)
        if len(boxes) > found:  # the places in a stretched row the detector missed: kept when a tile is read
            gap = np.arange(len(boxes)) >= found
            sure_tile = (probs.max(axis=1) >= self.settings.gap_min_prob) & (
                probs.argmax(axis=1) != BACK_INDEX
            )
            keep &= ~gap | sure_tile
        if not keep.all():
            boxes, probs = boxes.select(np.nonzero(keep)[0]), probs[keep]
        if len(boxes) == 0:
            return Detections.empty()
        if self.reads_blank_by_colour():
            blank = blank_faces(image.rgb, boxes.xyxy, probs, locked_backs(boxes, self.settings))
            probs = as_white_dragons(probs, blank)
        return decide(boxes, probs, image.scale, self.settings)


def locked_backs(boxes: TileBoxes, settings: Settings) -> np.ndarray:
    """Boxes the detector's face-down channel scores at least `back_lock`: backs whatever the classifier
    says (when `back_from_detector`)."""
    return boxes.back & (boxes.score >= settings.back_lock) & settings.back_from_detector


def not_tiles(
    boxes: TileBoxes, probs: np.ndarray, not_tile: np.ndarray, settings: Settings, rejects: bool = True
) -> np.ndarray:
    """Boxes to drop as no tile at all: "not a tile" read at least `not_a_tile_min`, or, for a box the
    detector scores under `weak_no_tile_below` (barely a tile to it), likelier than any one code (`probs`:
    the tile probabilities, renormalised without it); never a box the detector locks as a back (a wall of
    face-down tiles is tiles, however plain). None without `rejects` (a classifier with no such output)."""
    if not rejects or len(boxes) == 0:
        return np.zeros(len(boxes), bool)
    likeliest_code = probs.max(axis=1) * (1.0 - not_tile)
    weak = boxes.score < settings.weak_no_tile_below
    drop = (not_tile >= settings.not_a_tile_min) | (weak & (not_tile > likeliest_code))
    return drop & ~locked_backs(boxes, settings)


def with_row_gaps(boxes: TileBoxes, stretched: Literal["x", "y"]) -> TileBoxes:
    """The boxes of a pass squeezed along `stretched` with boxes for the gaps in its rows appended
    (stretched_row.row_gaps), at score 0 and face-up."""
    gaps = row_gaps(boxes.xyxy, stretched)
    return TileBoxes(
        np.concatenate([boxes.xyxy, gaps]),
        np.concatenate([boxes.score, np.zeros(len(gaps), np.float32)]),
        np.concatenate([boxes.back, np.zeros(len(gaps), bool)]),
        boxes.squeeze,
    )


def decide(boxes: TileBoxes, probs: np.ndarray, scale: float, settings: Settings) -> Detections:
    """Codes, confidences, alternatives and rows for classified boxes (boxes in pixels at `scale`)."""
    choice = probs.argmax(axis=1)
    doubtful_back = (choice == BACK_INDEX) & (probs[:, BACK_INDEX] < settings.back_min_prob)
    if doubtful_back.any():
        face_up = probs.copy()
        face_up[:, BACK_INDEX] = -1.0
        choice[doubtful_back] = face_up[doubtful_back].argmax(axis=1)
    if settings.back_from_detector and settings.lone_backs_need_company:
        drop = lone_weak_backs(boxes, choice == BACK_INDEX, settings.back_lock)
        if drop.any():
            keep = np.nonzero(~drop)[0]
            boxes, probs, choice = boxes.select(keep), probs[keep], choice[keep]
    locked = locked_backs(boxes, settings)
    choice[locked] = BACK_INDEX
    if settings.tile_limits:
        choice = apply_tile_limits(probs, choice, LABELS, settings.top_k, locked=locked)
    rows = np.arange(len(choice))
    confidence = probs[rows, choice]
    confidence[locked] = np.maximum(confidence[locked], boxes.score[locked])
    if settings.drop_twins and boxes.squeeze is None:  # a squeezed row has row_duplicates instead
        kept = np.nonzero(~found_twice(boxes.xyxy, choice, confidence, BACK_INDEX))[0]
        boxes, probs, choice, confidence = boxes.select(kept), probs[kept], choice[kept], confidence[kept]
    alternatives = np.argsort(-probs, axis=1, kind="stable")[:, :TOP_K]
    xyxy = boxes.xyxy / np.float32(scale)
    # a stretched row's boxes overlap their neighbours: ordered by their own shares of the row
    shares = xyxy if boxes.squeeze is None else row_shares(xyxy, boxes.squeeze[0])
    order, row = reading_order(shares)
    return Detections(
        xyxy=xyxy[order],
        confidence=confidence[order],
        class_id=choice[order],
        alt_class_id=alternatives[order],
        alt_confidence=np.take_along_axis(probs, alternatives, axis=1)[order],
        row=row,
    )


_shared: Recognizer | None = None
_shared_lock = threading.Lock()


def get_recognizer() -> Recognizer:
    """The process's one Recognizer (models loaded on first use, then reused for every photo)."""
    global _shared
    with _shared_lock:
        if _shared is None:
            _shared = Recognizer()
        return _shared
