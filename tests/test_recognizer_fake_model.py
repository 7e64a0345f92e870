"""The runtime against hand-made ONNX models (tests/fake_models.py): decoding, crops, turns, limits, order."""

from __future__ import annotations

import io
import json
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
from fake_models import FALLBACK_LABELS, SIZE, classifier_bytes, code_for, draw_tile, write_fake_models
from PIL import Image

import recognizer.pipeline as pipeline
from recognizer import LoadedImage, ModelError, Recognizer, Settings, annotate, get_recognizer, load_image
from recognizer.classifier import TileClassifier, crop_corners, cut_crops, one_way_for_all, view_plan
from recognizer.detector import (
    SQUARE,
    Reading,
    Squeeze,
    TileBoxes,
    box_iou,
    decode,
    letterbox,
    mirror_average,
    nms,
    scale_merge,
    scaled_side,
)
from recognizer.pipeline import DEFAULT_THRESHOLD
from recognizer.session import make_session, thread_count

TILE = (40, 56)  # tile size in photo pixels for a 256-wide photo (detector ratio 0.5 -> 20 x 28)


@pytest.fixture(scope="module")
def model_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_fake_models(tmp_path_factory.mktemp("fake_models"))


@pytest.fixture(scope="module")
def fake(model_dir: Path) -> Recognizer:
    """The fake classifier reads top and bottom halves, so turned-over views would read other codes:
    one upright view per tile here; the default views are tested on symmetric tiles below."""
    return Recognizer(model_dir, threads=1, settings=Settings(turns="none", square_band=1.0))


def _photo(
    tiles: list[tuple[int, int, float, float, bool]], shape: tuple[int, int] = (192, 256)
) -> np.ndarray:
    """Black photo with fake tiles (x, y, g_top, g_bottom, back); corners on the 8-pixel grid."""
    rgb = np.zeros((*shape, 3), np.uint8)
    for x, y, g_top, g_bottom, back in tiles:
        draw_tile(rgb, (x, y, x + TILE[0], y + TILE[1]), g_top, g_bottom, back)
    return rgb


def _matches(found: np.ndarray, truth: Sequence[Sequence[float]]) -> list[float]:
    return [float(box_iou(np.asarray(t, np.float32), found).max()) for t in truth]


def test_tiles_found_read_and_ordered(fake: Recognizer) -> None:
    layout = [
        (136, 112, 0.0, 1.0, False),  # lower row, right
        (16, 16, 1.0, 1.0, False),
        (64, 16, 0.5, 0.0, False),
        (112, 16, 0.0, 0.0, True),  # face-down
        (16, 112, 1.0, 0.5, False),  # lower row, left
    ]
    detections = fake.recognize(LoadedImage(_photo(layout), 256, 192, 1.0))
    assert detections.codes == [code_for(1, 1), code_for(0.5, 0), "back", code_for(1, 0.5), code_for(0, 1)]
    assert detections.row.tolist() == [0, 0, 0, 1, 1]
    truth = [[x, y, x + TILE[0], y + TILE[1]] for x, y, *_ in layout]
    assert min(_matches(detections.xyxy, truth)) > 0.85
    assert (detections.confidence > 0.9).all()
    records = detections.to_records()
    assert records[0]["alternatives"][0]["code"] == "9m" and len(records[0]["alternatives"]) == 3


def test_boxes_are_in_original_pixels_when_the_photo_was_downscaled(fake: Recognizer) -> None:
    big = _photo([(16, 16, 1.0, 0.0, False), (112, 64, 0.0, 0.5, False)])
    big = np.kron(big, np.ones((4, 4, 1), np.uint8))  # 1024 x 768, tiles 160 x 224
    buf = io.BytesIO()
    Image.fromarray(big).save(buf, "PNG")
    image = load_image(buf.getvalue(), max_side=256)
    assert image.scale == pytest.approx(0.25) and (image.width, image.height) == (1024, 768)
    detections = fake.recognize(image)
    assert detections.codes == [code_for(1, 0), code_for(0, 0.5)]
    truth = [[64, 64, 224, 288], [448, 256, 608, 480]]
    assert min(_matches(detections.xyxy, truth)) > 0.85


def test_tile_limits_move_the_least_certain_fifth_tile(fake: Recognizer) -> None:
    layout = [(16 + 48 * k, 16, 1.0, 1.0, False) for k in range(4)] + [(16, 112, 0.8, 1.0, False)]
    photo = LoadedImage(_photo(layout), 256, 192, 1.0)
    assert fake.recognize(photo).codes == ["9m"] * 4 + ["6m"]
    unlimited = Recognizer(fake.model_dir, settings=replace(fake.settings, tile_limits=False))
    assert unlimited.recognize(photo).codes == ["9m"] * 5


def test_default_views_read_symmetric_tiles(model_dir: Path) -> None:
    layout = [(16, 16, 1.0, 1.0, False), (64, 16, 0.5, 0.5, False), (112, 16, 0.0, 0.0, True)]
    detections = Recognizer(model_dir).recognize(LoadedImage(_photo(layout), 256, 192, 1.0))
    assert detections.codes == [code_for(1, 1), code_for(0.5, 0.5), "back"]
    assert (detections.confidence > 0.9).all()


def test_square_detector_input_maps_boxes_back_per_axis(fake: Recognizer) -> None:
    rgb = np.zeros((128, 256, 3), np.uint8)  # stretched to 128 x 128: x halves, y stays
    draw_tile(rgb, (48, 40, 88, 68), 1.0, 1.0)  # 40 x 28 here, 20 x 28 in the detector's input
    squeezing = Recognizer(fake.model_dir, settings=replace(fake.settings, detector_stretch=SQUARE))
    found = squeezing.recognize(LoadedImage(rgb, 256, 128, 1.0))
    assert found.codes == ["9m"]
    assert _matches(found.xyxy, [[48, 40, 88, 68]])[0] > 0.85


def test_squeezed_pass_maps_boxes_back_to_the_stretched_photo(fake: Recognizer) -> None:
    rgb = np.zeros((128, 128, 3), np.uint8)
    draw_tile(rgb, (48, 0, 68, 128), 1.0, 1.0)  # a sliver: the fake's 20 x 32 tile stretched 4x in height
    detector = fake.detector
    found = detector.detect(rgb, Reading(0.5, 0.5, SQUARE), squeeze=("y", 4.0))
    assert len(found) == 1 and found.squeeze == ("y", 4.0)
    assert found.select(np.array([0])).squeeze == ("y", 4.0)
    assert detector.detect(rgb, Reading(0.5, 0.5, SQUARE)).squeeze is None
    assert _matches(found.xyxy, [[48, 0, 68, 128]])[0] > 0.85  # 20 x 32 input pixels, 4x taller here
    heatmap, _, _, ratio = detector.raw_outputs(rgb, Reading(stretch=SQUARE), squeeze=("x", 2.0))
    assert ratio == (0.5, 1.0)
    assert heatmap[0, :, 16:].max() < 0.2 < heatmap[0, :, :16].max()  # the input's right half is grey


def test_mirrored_reading_is_turned_back_onto_the_photo(fake: Recognizer) -> None:
    """The fake detector answers a mirrored photo with the mirrored heatmap, so the average of a reading
    and its mirrored reading turned back is the plain reading, also with grey padding in the input."""
    rgb = _photo([(16, 16, 1.0, 1.0, False), (112, 64, 1.0, 0.5, False), (192, 120, 0.0, 0.0, True)])
    cases: tuple[tuple[float, Squeeze | None], ...] = ((SQUARE, None), (1.0, None), (SQUARE, ("y", 2.0)))
    for stretch, squeeze in cases:
        plain, size, offset, ratio = fake.detector.raw_outputs(rgb, Reading(stretch=stretch), squeeze)
        both, size2, offset2, ratio2 = fake.detector.raw_outputs(
            rgb, Reading(stretch=stretch, mirror=True), squeeze
        )
        assert ratio2 == ratio and plain.max() > 0.5
        np.testing.assert_allclose(both, plain, atol=1e-5)
        np.testing.assert_allclose(size2, size, atol=1e-4)
        np.testing.assert_array_equal(offset2, offset)
    mirrored = Recognizer(fake.model_dir, settings=replace(fake.settings, mirror_test=True))
    plain_only = Recognizer(fake.model_dir, settings=replace(fake.settings, mirror_test=False))
    image = LoadedImage(rgb, 256, 192, 1.0)
    a, b = mirrored.recognize(image), plain_only.recognize(image)
    assert a.codes == b.codes and len(a) == 3
    np.testing.assert_allclose(a.xyxy, b.xyxy, atol=0.01)


def test_mirror_average_halves_what_only_one_reading_sees() -> None:
    heatmap = np.zeros((2, 2, 3, 5), np.float32)
    size = np.ones((2, 2, 3, 5), np.float32)
    offset = np.zeros((2, 2, 3, 5), np.float32)
    heatmap[0, 0, 1, 1] = heatmap[1, 0, 1, 3] = 0.8  # one tile, seen in both (column 1 = mirrored 3)
    heatmap[1, 0, 2, 0] = 0.9  # seen only in the mirrored reading, at column 4 of the photo
    size[0, :, 1, 1], size[1, :, 1, 3] = 10.0, 20.0
    offset[0, 0, 1, 1], offset[1, 0, 1, 3] = 0.25, 0.9
    avg_heat, avg_size, avg_offset = mirror_average(heatmap, size, offset)
    assert avg_heat[0, 1, 1] == pytest.approx(0.8) and avg_heat[0, 2, 4] == pytest.approx(0.45)
    assert avg_heat[0, 2, 0] == 0.0 and avg_size[0, 1, 1] == pytest.approx(15.0)
    assert avg_offset[0, 1, 1] == pytest.approx(0.25)  # sub-cell offsets: the plain reading's


def test_a_smaller_reading_is_merged_onto_the_main_grid(tmp_path: Path) -> None:
    """The fake detector's heatmap follows the tiles at any input size, and its box size is a constant in
    input pixels: merged onto S's grid, the peaks stay where the tiles are and the sizes are in S's
    pixels."""
    flexible = write_fake_models(tmp_path / "flexible", flexible=True)
    fake = Recognizer(flexible, threads=1, settings=Settings(turns="none", square_band=1.0))
    assert fake.detector.flexible
    rgb = _photo([(16, 16, 1.0, 1.0, False), (112, 64, 1.0, 0.5, False), (192, 120, 1.0, 0.0, True)])
    plain, size, offset, ratio = fake.detector.raw_outputs(rgb, Reading(stretch=SQUARE))
    both, size2, offset2, ratio2 = fake.detector.raw_outputs(rgb, Reading(stretch=SQUARE, scales=(1.0, 0.5)))
    assert both.shape == plain.shape and ratio2 == ratio
    assert (both[0] >= plain[0] - 1e-6).all()  # face-up: the higher of the two readings
    assert np.abs(both[0] - plain[0]).max() > 1e-3
    np.testing.assert_array_equal(both[1], plain[1])  # face-down: S's reading alone
    np.testing.assert_array_equal(offset2, offset)
    side = fake.detector.size
    smaller, small_size, _, _ = fake.detector._read(
        rgb, Reading(stretch=SQUARE), None, scaled_side(side, 0.5)
    )
    assert small_size.mean() == pytest.approx(size.mean(), rel=1e-4)  # the constant, in its own pixels
    assert smaller.shape[1:] == (plain.shape[1] // 2, plain.shape[2] // 2)
    np.testing.assert_allclose(size2, size * (1 + 2) / 2, rtol=1e-4)  # 2 = side / smaller side
    for peak in zip(*np.nonzero(plain[0] == plain[0].max()), strict=True):
        assert both[0][peak] > 0.5
    assert np.abs(both[0] - plain[0]).max() < 0.5
    rec = Recognizer(flexible, settings=replace(fake.settings, first_pass_scales=(1.0, 0.5)))
    assert len(rec.recognize(LoadedImage(rgb, 256, 192, 1.0))) == 3
    with pytest.raises(ValueError, match="plain passes"):
        fake.detector.raw_outputs(rgb, Reading(stretch=SQUARE, scales=(1.0, 0.5)), ("y", 2.0))


def judged_for_stretching(monkeypatch: pytest.MonkeyPatch) -> list[TileBoxes]:
    """The first-pass boxes the pipeline hands to unstretch from now on, in call order (it still runs)."""
    judged: list[TileBoxes] = []
    real_unstretch = pipeline.unstretch

    def spy(first: TileBoxes, *args: object) -> object:
        judged.append(first)
        return real_unstretch(first, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(pipeline, "unstretch", spy)
    return judged


def test_the_retry_is_judged_on_the_reading_at_s_alone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The first pass gives the merged tiles to keep and the S-only tiles to judge stretching by, from the
    same runs; the pipeline hands the S-only ones to unstretch."""
    flexible = write_fake_models(tmp_path / "flexible", flexible=True)
    settings = Settings(turns="none", square_band=1.0, first_pass_scales=(1.0, 0.5))
    fake = Recognizer(flexible, threads=1, settings=settings)
    rgb = _photo(
        [(16, 16, 1.0, 1.0, False), (112, 64, 1.0, 0.5, False), (192, 120, 1.0, 0.0, True)], (256, 256)
    )  # square: only a square photo may have been stretched (unstretch.may_be_stretched)
    stretch = fake.reading().stretch
    merged, at_size = fake.detector.first_pass(rgb, Reading(0.4, 0.5, stretch, True, (1.0, 0.5)))
    expected_merged = fake.detector.detect(rgb, Reading(0.4, 0.5, stretch, True, (1.0, 0.5)))
    expected_at_size = fake.detector.detect(rgb, Reading(0.4, 0.5, stretch, True))
    np.testing.assert_array_equal(merged.xyxy, expected_merged.xyxy)
    np.testing.assert_array_equal(at_size.xyxy, expected_at_size.xyxy)
    np.testing.assert_array_equal(at_size.score, expected_at_size.score)
    assert not np.array_equal(merged.xyxy, at_size.xyxy)  # the smaller reading changed the sizes
    judged = judged_for_stretching(monkeypatch)
    found = fake.detect(LoadedImage(rgb, 256, 256, 1.0))
    assert len(judged) == 1
    alone = fake.detector.detect(rgb, replace(fake.reading(), scales=(1.0,)))
    np.testing.assert_array_equal(judged[0].xyxy, alone.xyxy)
    assert found.squeeze is None and len(found) == 3


def test_only_a_square_photo_takes_the_squeezed_retry(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A phone photo (4:3 here) is never judged for stretching; the same tiles in a square photo are."""
    settings = Settings(turns="none", square_band=1.0, first_pass_scales=(1.0, 0.5))
    fake = Recognizer(write_fake_models(tmp_path / "m", flexible=True), threads=1, settings=settings)
    judged = judged_for_stretching(monkeypatch)
    tiles = [(16, 16, 1.0, 1.0, False), (112, 64, 1.0, 0.5, False), (192, 120, 1.0, 0.0, True)]
    oblong = fake.detect(LoadedImage(_photo(tiles), 256, 192, 1.0))
    assert judged == [] and len(oblong) == 3
    square = fake.detect(LoadedImage(_photo(tiles, (256, 256)), 256, 256, 1.0))
    assert len(judged) == 1 and len(square) == 3


def test_scale_merge_matches_cells_keeps_the_highest_and_converts_sizes() -> None:
    assert scaled_side(384, 0.75) == 288 and scaled_side(384, 1.0) == 384 and scaled_side(40, 0.1) == 32
    heatmap = np.zeros((1, 4, 4), np.float32)
    heatmap[0, 1:3, 1:3] = 1.0  # the middle four cells
    size = np.full((1, 4, 4), 10.0, np.float32)
    other = np.zeros((1, 2, 2), np.float32)
    other[0, 0, 0] = 0.6  # a reading at half the side: its top-left cell covers the main grid's 2 x 2
    merged, merged_size = scale_merge(heatmap, size, [(other, np.full((1, 2, 2), 5.0, np.float32), 2.0)])
    assert merged.shape == (1, 4, 4)
    np.testing.assert_allclose(merged[0, 1:3, 1:3], 1.0)  # the main reading's tile stays
    assert merged[0, 0, 0] == pytest.approx(0.6)  # a centre only the smaller reading saw counts
    assert merged[0, 3, 3] == 0.0
    np.testing.assert_allclose(merged_size, 10.0)  # 5 pixels at half the side are 10 at the main side


def test_empty_photo_and_grey_padding_give_no_tiles(fake: Recognizer) -> None:
    assert len(fake.recognize(LoadedImage(np.zeros((100, 300, 3), np.uint8), 300, 100, 1.0))) == 0


def test_letterbox_keeps_aspect_top_left_with_grey() -> None:
    rgb = np.full((100, 200, 3), 255, np.uint8)
    tensor, ratio = letterbox(rgb, 128)
    assert tensor.shape == (3, 128, 128) and ratio == pytest.approx(0.64)
    assert tensor[:, :64, :].min() == pytest.approx(1.0)
    assert tensor[:, 64:, :].max() == pytest.approx(0.5) and tensor[:, 64:, :].min() == pytest.approx(0.5)


def test_decode_picks_peaks_and_nms_merges_channels() -> None:
    heat = np.zeros((2, 8, 8), np.float32)
    heat[0, 2, 3], heat[0, 2, 4] = 0.9, 0.8  # neighbours: only the maximum is a peak
    heat[1, 6, 6] = 0.7
    heat[1, 2, 3] = 0.6  # same place in the back channel
    size = np.full((2, 8, 8), 8.0, np.float32)
    offset = np.full((2, 8, 8), 0.5, np.float32)
    found = decode(heat, size, offset, threshold=0.5)
    assert sorted(found.score.tolist()) == pytest.approx([0.6, 0.7, 0.9])
    keep = nms(found.xyxy, found.score, 0.5)
    kept = found.select(keep)
    assert sorted(kept.score.tolist()) == pytest.approx([0.7, 0.9])
    centre = kept.xyxy[np.argmax(kept.score)]
    assert centre.tolist() == pytest.approx([10.0, 6.0, 18.0, 14.0])  # cell (3, 2) + 0.5, times 4, ± 4
    assert kept.back[np.argmin(kept.score)]


def test_landscape_crop_is_turned_clockwise_and_flip_turns_it_over() -> None:
    rgb = np.zeros((100, 120, 3), np.uint8)
    rgb[30:70, 20:50] = (255, 255, 0)  # left half of a sideways tile: green 1
    rgb[30:70, 50:80] = (255, 0, 0)  # right half: green 0
    box = np.array([20, 30, 80, 70], np.float32)
    upright, flipped = cut_crops(rgb, box, 0.1, (64, 48), [(True, False), (True, True)])
    assert upright.shape == (64, 48, 3)
    assert upright[12:24, 10:38, 1].min() > 200 and upright[40:52, 10:38, 1].max() < 50  # box left -> top
    assert flipped[12:24, 10:38, 1].max() < 50 and flipped[40:52, 10:38, 1].min() > 200  # turned over
    corners = crop_corners(box, 0.0)
    assert corners.tolist() == [[20, 70], [20, 30], [80, 70]]


@pytest.mark.parametrize("sideways", [False, True])
def test_crop_of_a_stretched_sliver_keeps_detail_across_it(sideways: bool) -> None:
    # a tile 40 px across and 600 px long (a row stretched to a square photo) with 4 px stripes across
    # its short side: the long side is shrunk 10x, the short side must keep its stripes
    rgb = np.full((700, 700, 3), 128, np.uint8)
    stripes = (np.arange(40) // 4 % 2 * 255).astype(np.uint8)
    if sideways:
        rgb[330:370, 50:650] = stripes[:, None, None]
        box = np.array([50, 330, 650, 370], np.float32)
    else:
        rgb[50:650, 330:370] = stripes[None, :, None]
        box = np.array([330, 50, 370, 650], np.float32)
    [crop] = cut_crops(rgb, box, 0.1, (64, 48), [(sideways, False)])
    middle = crop[20:44, 8:40, 0].astype(int)
    assert middle.max() - middle.min() > 150


def test_test_time_turns(model_dir: Path) -> None:
    classifier = TileClassifier(make_session(classifier_bytes(), "classifier"), (64, 48), 0.1, 43)
    rgb = _photo([(16, 16, 1.0, 0.0, False)])
    rgb[120:160, 100:156] = (255, 255, 0)  # sideways tile, green left half
    rgb[120:160, 156:212] = (255, 0, 0)
    boxes = np.array([[16, 16, 56, 72], [100, 120, 212, 160]], np.float32)
    for turns, views in (("none", 2), ("landscape", 3), ("all", 4)):
        plans = [view_plan(box, turns) for box in boxes]  # type: ignore[arg-type]
        batch, owner = classifier.batch(rgb, boxes, plans)
        assert len(batch) == views and owner.tolist()[:1] == [0]
    square = np.array([0, 0, 50, 45], np.float32)
    assert view_plan(square, "landscape") == [(True, False), (True, True)]
    assert view_plan(square, "landscape", square_band=1.2) == [(False, False), (True, False), (True, True)]
    assert view_plan(square, "all", square_band=1.2) == [
        (False, False),
        (False, True),
        (True, False),
        (True, True),
    ]
    assert view_plan(boxes[0], "none", square_band=1.2) == [(False, False)]
    plain = classifier.probabilities(rgb, boxes, "none")
    assert plain.argmax(axis=1).tolist() == [6, 6]  # 7m: green top, red bottom
    both = classifier.probabilities(rgb, boxes, "landscape", "mean")
    assert both[1, 6] == pytest.approx(both[1, 2], abs=0.02)  # turned over it reads 3m as much as 7m
    assert classifier.probabilities(rgb, boxes, "landscape", "max")[1].max() > 0.9


def test_one_way_for_all_reads_every_tile_of_a_row_alike() -> None:
    probs = np.zeros((2, 4, 3), np.float32)
    probs[:, :2] = [0.1, 0.9, 0.0]  # upright, both ways up: fairly sure of label 1
    probs[0, 2:] = [0.0, 0.0, 1.0]  # tile 0 sideways: surer still of label 2 ...
    probs[1, 2:] = [0.4, 0.3, 0.3]  # ... but tile 1 sideways is a muddle: upright wins for the row
    assert one_way_for_all(probs).argmax(axis=1).tolist() == [1, 1]
    probs[1, 2:] = [0.0, 0.0, 1.0]
    assert one_way_for_all(probs).argmax(axis=1).tolist() == [2, 2]
    probs[0, 2:] = [0.4, 0.3, 0.3]  # only tile 0 votes (tile 1 is a gap the detector missed): upright
    assert one_way_for_all(probs, voters=1).argmax(axis=1).tolist() == [1, 1]


def test_standing_tiles_of_a_row_stretched_sideways_are_read_upright() -> None:
    # two standing 40 x 56 tiles stretched 7x wide. The fake classifier reads the brightest green in the
    # middle of the crop's top and bottom halves: upright (either way up) tile 0 reads 9m (1, 1); read as
    # lying sideways its ends differ (0.5 then 1: 6m, or 8m turned over) and the wide box says sideways
    classifier = TileClassifier(make_session(classifier_bytes(), "classifier"), (64, 48), 0.1, 43)
    rgb = np.zeros((160, 700, 3), np.uint8)
    boxes = np.array([[20, 20, 300, 76], [360, 20, 640, 76]], np.float32)
    rgb[20:76, 20:300] = (255, 128, 0)
    rgb[20:76, 200:300] = (255, 255, 0)
    draw_tile(rgb, (360, 20, 640, 76), 0.0, 0.0)  # 1m any way it is read
    by_shape = classifier.probabilities(rgb, boxes, "all", "max").argmax(axis=1)
    assert FALLBACK_LABELS[by_shape[0]] in {code_for(0.5, 1.0), code_for(1.0, 0.5)}
    row = classifier.row_probabilities(rgb, boxes)
    assert row.shape == (2, 43)
    assert [FALLBACK_LABELS[i] for i in row.argmax(axis=1)] == [code_for(1.0, 1.0), code_for(0.0, 0.0)]
    assert classifier.row_probabilities(rgb, boxes[:0]).shape == (0, 43)


def test_missing_and_wrong_models_are_clear_errors(tmp_path: Path, model_dir: Path) -> None:
    with pytest.raises(ModelError, match=r"detector\.onnx, classifier\.onnx, labels\.json"):
        Recognizer(tmp_path)
    broken = write_fake_models(tmp_path / "broken")
    (broken / "detector.onnx").write_bytes(classifier_bytes())
    with pytest.raises(ModelError, match=r"detector.onnx: expected inputs \['images'\]"):
        Recognizer(broken)
    (broken / "detector.onnx").write_bytes(b"not onnx")
    with pytest.raises(ModelError, match="not a usable ONNX model"):
        Recognizer(broken)


def test_threshold_from_labels_json_unless_set(tmp_path: Path) -> None:
    folder = write_fake_models(tmp_path / "tuned")
    config = json.loads((folder / "labels.json").read_text())
    assert Recognizer(folder).settings.threshold == DEFAULT_THRESHOLD
    (folder / "labels.json").write_text(json.dumps(config | {"detector_threshold": 0.45}))
    assert Recognizer(folder).settings.threshold == 0.45
    assert Recognizer(folder, settings=Settings(threshold=0.2)).settings.threshold == 0.2
    (folder / "labels.json").write_text(json.dumps(config | {"detector_threshold": 3}))
    with pytest.raises(ModelError, match="detector_threshold must lie between 0 and 1"):
        Recognizer(folder)
    for pad in (-0.1, 0.7, "wide"):
        (folder / "labels.json").write_text(json.dumps(config | {"pad": pad}))
        with pytest.raises(ModelError, match=r"pad must lie between 0 and 0\.5"):
            Recognizer(folder)


def test_one_shared_recognizer_from_the_environment(monkeypatch: pytest.MonkeyPatch, model_dir: Path) -> None:
    monkeypatch.setenv("MAHJONG_NTS_MODELS", str(model_dir))
    monkeypatch.setattr(pipeline, "_shared", None)
    first = get_recognizer()
    assert get_recognizer() is first and first.config.detector_size == SIZE


def test_thread_count_from_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("MAHJONG_NTS_THREADS", raising=False)
    monkeypatch.delenv("OMP_NUM_THREADS", raising=False)
    assert thread_count() is None and thread_count(3) == 3
    monkeypatch.setenv("OMP_NUM_THREADS", "2")
    assert thread_count() == 2
    monkeypatch.setenv("MAHJONG_NTS_THREADS", "1")
    assert thread_count() == 1
    monkeypatch.setenv("MAHJONG_NTS_THREADS", "many")
    with pytest.raises(ModelError, match="MAHJONG_NTS_THREADS must be a whole number"):
        thread_count()


def test_annotate_draws_boxes_in_the_photo_scale(fake: Recognizer) -> None:
    rgb = _photo([(16, 16, 1.0, 1.0, False), (112, 16, 0.0, 0.0, True)])
    image = LoadedImage(rgb, 256, 192, 1.0)
    detections = fake.recognize(image)
    drawn = annotate(image, detections)
    assert drawn.shape == rgb.shape and not np.array_equal(drawn, rgb)
    assert np.array_equal(rgb, _photo([(16, 16, 1.0, 1.0, False), (112, 16, 0.0, 0.0, True)]))  # untouched
    x0, y0, _, y1 = (round(float(v)) for v in detections.xyxy[0])
    assert tuple(drawn[(y0 + y1) // 2, x0]) == (40, 200, 60)  # face-up tile: green box edge
    small = LoadedImage(rgb[::2, ::2].copy(), 256, 192, 0.5)
    assert annotate(small, detections).shape == (96, 128, 3)


def test_detector_input_from_labels_json_unless_set(tmp_path: Path) -> None:
    folder = write_fake_models(tmp_path / "input")
    config = json.loads((folder / "labels.json").read_text())
    assert Recognizer(folder).settings.detector_stretch == 1.0  # the fakes say "letterbox"
    without = {key: value for key, value in config.items() if key != "detector_input"}
    (folder / "labels.json").write_text(json.dumps(without))
    assert Recognizer(folder).settings.detector_stretch == pipeline.STRETCH  # the default
    (folder / "labels.json").write_text(json.dumps(config | {"detector_input": "square"}))
    assert Recognizer(folder).settings.detector_stretch == SQUARE
    letterbox = Recognizer(folder, settings=Settings(detector_stretch=1.0))
    assert letterbox.settings.detector_stretch == 1.0
    (folder / "labels.json").write_text(json.dumps(config | {"detector_input": "round"}))
    with pytest.raises(ModelError, match="detector_input must be 'square' or 'letterbox'"):
        Recognizer(folder)


def test_weak_face_down_boxes_need_the_classifier_to_agree() -> None:
    """A face-down box scored >= back_lock is "back" whatever the classifier says; a weaker one only when
    the classifier also reads a back (else its face-up reading stands)."""
    back = pipeline.LABELS.index("back")
    xyxy = np.array([[0, 0, 10, 14], [20, 0, 30, 14], [40, 0, 50, 14]], np.float32)
    boxes = pipeline.TileBoxes(xyxy, np.array([0.9, 0.5, 0.5], np.float32), np.array([True, True, True]))
    probs = np.full((3, len(pipeline.LABELS)), 0.001, np.float32)
    probs[0, 4] = probs[1, 4] = 0.95  # 5m
    probs[2, back] = 0.95
    settings = Settings(back_lock=0.6, lone_backs_need_company=False)
    assert pipeline.decide(boxes, probs, 1.0, settings).codes == ["back", "5m", "back"]
    assert pipeline.decide(boxes, probs, 1.0, replace(settings, back_lock=0.4)).codes == ["back"] * 3
    assert pipeline.decide(boxes, probs, 1.0, replace(settings, back_from_detector=False)).codes == [
        "5m",
        "5m",
        "back",
    ]


def test_a_weak_lone_face_down_box_read_as_a_back_is_dropped() -> None:
    """Felt between spaced tiles: a weak face-down box that nothing face-down touches is no tile; two
    touching ones (a concealed kong's middle) stay, and so does a strong lone one."""
    back = pipeline.LABELS.index("back")
    xyxy = np.array([[0, 0, 10, 14], [30, 0, 40, 14], [41, 0, 51, 14], [80, 0, 90, 14]], np.float32)
    scores = np.array([0.4, 0.4, 0.4, 0.9], np.float32)
    boxes = pipeline.TileBoxes(xyxy, scores, np.ones(4, bool))
    probs = np.full((4, len(pipeline.LABELS)), 0.001, np.float32)
    probs[:, back] = 0.95
    found = pipeline.decide(boxes, probs, 1.0, Settings(back_lock=0.6))
    assert found.codes == ["back"] * 3
    assert found.xyxy[:, 0].tolist() == [30, 41, 80]
    everything = pipeline.decide(boxes, probs, 1.0, Settings(back_lock=0.6, lone_backs_need_company=False))
    assert len(everything) == 4


@pytest.mark.parametrize("tile_in_gap", [True, False])
def test_a_gap_in_a_stretched_row_is_filled_only_where_a_tile_is_read(
    fake: Recognizer, monkeypatch: pytest.MonkeyPatch, tile_in_gap: bool
) -> None:
    rgb = np.zeros((200, 760, 3), np.uint8)  # black all round: the fake reads grey padding as a tile
    bars = [(80, 10 + 45 * k, 680, 40 + 45 * k) for k in range(4)]  # standing tiles stretched wide
    for k, bar in enumerate(bars):
        if k != 2 or tile_in_gap:
            draw_tile(rgb, bar, 0.5, 0.5)  # 5m whichever way it is read
    found = [bars[0], bars[1], bars[3]]  # the detector missed the third
    boxes = TileBoxes(np.array(found, np.float32), np.full(3, 0.9, np.float32), np.zeros(3, bool), ("x", 8.0))
    monkeypatch.setattr(fake, "detect", lambda image: boxes)
    detections = fake.recognize(LoadedImage(rgb, 760, 200, 1.0))
    assert detections.codes == ["5m"] * (4 if tile_in_gap else 3)
    if tile_in_gap:
        assert _matches(detections.xyxy, [list(bars[2])])[0] > 0.6  # a pitch-wide box on the tile


def test_a_stretched_row_reads_top_to_bottom_though_its_boxes_overlap() -> None:
    # bars of a row stretched along x, 100 tall at a pitch of 50 (running half a tile into each
    # neighbour, as the squeezed pass's boxes do): one row each, top to bottom
    xyxy = np.array([[0, 100 + 50 * k - 50, 640, 100 + 50 * k + 50] for k in (2, 0, 3, 1)], np.float32)
    boxes = TileBoxes(xyxy, np.full(4, 0.9, np.float32), np.zeros(4, bool), ("x", 8.0))
    probs = np.eye(43, dtype=np.float32)[[2, 0, 3, 1]]
    found = pipeline.decide(boxes, probs, 1.0, Settings())
    assert found.codes == ["1m", "2m", "3m", "4m"]
    assert found.row.tolist() == [0, 1, 2, 3]
    plain = pipeline.decide(replace(boxes, squeeze=None), probs, 1.0, Settings())
    assert plain.codes != ["1m", "2m", "3m", "4m"]  # overlapping bars merge into rows read left to right


@pytest.mark.parametrize("squeeze", [None, ("x", 8.0), ("y", 3.0)])
def test_any_boxes_the_detector_may_give_are_decided_without_error(
    fake: Recognizer, monkeypatch: pytest.MonkeyPatch, squeeze: tuple[str, float] | None
) -> None:
    # zero-sized, stacked, off-image and huge boxes: the row helpers must neither fail nor multiply them
    rng = np.random.default_rng(5)
    rgb = rng.integers(0, 255, (120, 200, 3), dtype=np.uint8)
    for k in range(60):
        n = int(rng.integers(0, 10))
        x0, y0 = rng.uniform(-30, 200, n), rng.uniform(-30, 120, n)
        if k % 4 == 0:
            x0[:], y0[:] = x0[:1].repeat(n), y0[:1].repeat(n)
        w = rng.choice([0.0, 0.5, 4.0, 40.0, 300.0], n)
        h = rng.choice([0.0, 1.0, 30.0, 200.0], n)
        xyxy = np.stack([x0, y0, x0 + w, y0 + h], axis=1).astype(np.float32).reshape(-1, 4)
        boxes = TileBoxes(xyxy, rng.uniform(0, 1, n).astype(np.float32), rng.random(n) < 0.3, squeeze)  # type: ignore[arg-type]
        monkeypatch.setattr(fake, "detect", lambda image, boxes=boxes: boxes)
        found = fake.recognize(LoadedImage(rgb, 200, 120, 1.0))
        assert len(found.codes) <= 3 * n
        assert np.isfinite(found.xyxy).all()


def test_crop_pad_comes_from_labels_json_unless_set(model_dir: Path) -> None:
    """labels.json's pad is what crops are read with; Settings.crop_pad overrides it (datasets.evaluate
    --pad), and a wider pad shows more of the photo around the tile."""
    default = Recognizer(model_dir, threads=1)
    wider = Recognizer(model_dir, threads=1, settings=Settings(crop_pad=0.3))
    assert default.classifier.pad == json.loads((model_dir / "labels.json").read_text())["pad"]
    assert wider.classifier.pad == 0.3
    assert default.settings.crop_pad == default.classifier.pad  # resolved into the settings
    rgb = _photo([(104, 64, 1.0, 1.0, False)])
    box = np.array([[104, 64, 104 + TILE[0], 64 + TILE[1]]], np.float32)
    tight, _ = default.classifier.batch(rgb, box, [[(False, False)]])
    loose, _ = wider.classifier.batch(rgb, box, [[(False, False)]])
    assert (loose[0] == 0).mean() > (tight[0] == 0).mean()  # more black photo around the red tile


def test_sessions_do_not_spin_between_runs() -> None:
    """ONNX Runtime's threads would spin-wait after each run and take the cores from the Python steps in
    between (a third of a photo's time on two cores); the sessions are made without it."""
    options = make_session(classifier_bytes(), "classifier", threads=2).get_session_options()
    assert options.get_session_config_entry("session.intra_op.allow_spinning") == "0"
    assert options.get_session_config_entry("session.inter_op.allow_spinning") == "0"
