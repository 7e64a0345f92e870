"""A classifier with the extra "not a tile" output (labels.json "not_a_tile"): boxes it rejects are dropped,
backs the detector locks are kept, and a model without it reads as before (tests/fake_models.py)."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
from fake_models import FALLBACK_LABELS, classifier_bytes, code_for, draw_tile, write_fake_models

from recognizer import LoadedImage, ModelError, Recognizer, Settings
from recognizer.classifier import TileClassifier, split_not_a_tile
from recognizer.detector import TileBoxes, box_iou
from recognizer.models import ModelConfig
from recognizer.session import make_session

TILE = (40, 56)  # photo pixels of a fake tile in a 256 x 192 photo (as tests/test_recognizer_fake_model.py)
NOT_A_TILE = (255, 255, 128)  # red with some blue: the detector finds it as a tile, the classifier rejects it


@pytest.fixture(scope="module")
def rejecting(tmp_path_factory: pytest.TempPathFactory) -> Recognizer:
    folder = write_fake_models(tmp_path_factory.mktemp("not_a_tile"), not_a_tile=True)
    return Recognizer(folder, threads=1, settings=Settings(turns="none", square_band=1.0))


@pytest.fixture(scope="module")
def plain(tmp_path_factory: pytest.TempPathFactory) -> Recognizer:
    folder = write_fake_models(tmp_path_factory.mktemp("plain"))
    return Recognizer(folder, threads=1, settings=Settings(turns="none", square_band=1.0))


def _photo(tiles: list[tuple[int, int, str]]) -> LoadedImage:
    """Black 256 x 192 photo with things at (x, y): "9m"/"4m" face-up tiles, "back", or "no" (not a tile)."""
    rgb = np.zeros((192, 256, 3), np.uint8)
    for x, y, kind in tiles:
        box = (x, y, x + TILE[0], y + TILE[1])
        if kind == "no":
            rgb[y : box[3], x : box[2]] = NOT_A_TILE
        else:
            levels = {"9m": (1.0, 1.0), "4m": (0.5, 0.0), "back": (0.0, 0.0)}[kind]
            draw_tile(rgb, box, *levels, back=kind == "back")
    return LoadedImage(rgb, 256, 192, 1.0)


def _at(found: np.ndarray, x: int, y: int) -> float:
    return float(box_iou(np.array([x, y, x + TILE[0], y + TILE[1]], np.float32), found).max())


def test_boxes_read_as_no_tile_are_dropped(rejecting: Recognizer, plain: Recognizer) -> None:
    layout = [(16, 16, "9m"), (64, 16, "no"), (112, 16, "4m"), (16, 112, "no"), (112, 112, "9m")]
    photo = _photo(layout)
    assert len(plain.recognize(photo)) == 5  # found and named as tiles without the extra output
    found = rejecting.recognize(photo)
    assert found.codes == [code_for(1, 1), code_for(0.5, 0), code_for(1, 1)]
    assert min(_at(found.xyxy, x, y) for x, y, kind in layout if kind != "no") > 0.85
    assert max(_at(found.xyxy, x, y) for x, y, kind in layout if kind == "no") < 0.1
    keep_all = Recognizer(rejecting.model_dir, settings=replace(rejecting.settings, not_a_tile_min=1.01))
    assert len(keep_all.recognize(photo)) == 5  # the setting decides, not the tile columns


def test_classify_gives_tile_probabilities_and_rejection_apart(rejecting: Recognizer) -> None:
    photo = _photo([(16, 16, "9m"), (64, 16, "no")])
    boxes = rejecting.detect(photo)
    probs, not_tile = rejecting.classify_with_rejection(photo, boxes)
    assert probs.shape == (2, len(FALLBACK_LABELS)) and not_tile.shape == (2,)
    np.testing.assert_allclose(probs.sum(axis=1), 1.0, atol=1e-5)
    order = np.argsort(boxes.xyxy[:, 0])
    assert not_tile[order].round(3).tolist() == [0.0, 1.0]
    assert FALLBACK_LABELS[int(probs[order[0]].argmax())] == code_for(1, 1)
    np.testing.assert_array_equal(rejecting.classify(photo, boxes), probs)


def test_a_locked_face_down_box_stays_though_read_as_no_tile(rejecting: Recognizer) -> None:
    photo = _photo([(16, 16, "back"), (112, 16, "9m")])
    boxes = rejecting.detect(photo)
    _, not_tile = rejecting.classify_with_rejection(photo, boxes)
    assert not_tile[boxes.back].min() > 0.99 and boxes.score[boxes.back].min() >= rejecting.settings.back_lock
    assert rejecting.recognize(photo).codes == ["back", code_for(1, 1)]
    unlocked = Recognizer(rejecting.model_dir, settings=replace(rejecting.settings, back_lock=1.01))
    assert unlocked.recognize(photo).codes == [code_for(1, 1)]
    no_lock = Recognizer(rejecting.model_dir, settings=replace(rejecting.settings, back_from_detector=False))
    assert no_lock.recognize(photo).codes == [code_for(1, 1)]


def test_a_photo_of_nothing_but_non_tiles_is_empty(rejecting: Recognizer) -> None:
    found = rejecting.recognize(_photo([(16, 16, "no"), (112, 112, "no")]))
    assert len(found) == 0 and found.codes == []


def test_without_the_extra_output_no_setting_drops_a_box(plain: Recognizer) -> None:
    photo = _photo([(16, 16, "9m"), (112, 16, "4m")])
    _, not_tile = plain.classify_with_rejection(photo, plain.detect(photo))
    assert not_tile.tolist() == [0.0, 0.0]
    eager = Recognizer(plain.model_dir, settings=replace(plain.settings, not_a_tile_min=0.0))
    assert eager.recognize(photo).codes == plain.recognize(photo).codes == [code_for(1, 1), code_for(0.5, 0)]


@pytest.mark.parametrize("gap_holds", ["tile", "no"])
def test_a_gap_in_a_stretched_row_holding_no_tile_stays_empty(
    rejecting: Recognizer, plain: Recognizer, monkeypatch: pytest.MonkeyPatch, gap_holds: str
) -> None:
    rgb = np.zeros((200, 760, 3), np.uint8)
    bars = [(80, 10 + 45 * k, 680, 40 + 45 * k) for k in range(4)]  # standing tiles stretched wide
    for k, bar in enumerate(bars):
        if k == 2 and gap_holds == "no":
            rgb[bar[1] : bar[3], bar[0] : bar[2]] = NOT_A_TILE
        else:
            draw_tile(rgb, bar, 0.5, 0.5)  # 5m whichever way it is read
    found = [bars[0], bars[1], bars[3]]  # the detector missed the third
    boxes = TileBoxes(np.array(found, np.float32), np.full(3, 0.9, np.float32), np.zeros(3, bool), ("x", 8.0))
    photo = LoadedImage(rgb, 760, 200, 1.0)
    for recognizer in (rejecting, plain):
        monkeypatch.setattr(recognizer, "detect", lambda image: boxes)
    assert len(plain.recognize(photo)) == 4  # without the extra output the gap is read as a tile
    assert rejecting.recognize(photo).codes == ["5m"] * (4 if gap_holds == "tile" else 3)


def test_split_renormalises_the_tile_columns() -> None:
    probs = np.array([[0.1, 0.3, 0.6], [0.5, 0.5, 0.0], [0.0, 0.0, 1.0]], np.float32)
    tiles, not_tile = split_not_a_tile(probs, rejects=True)
    np.testing.assert_allclose(tiles, [[0.25, 0.75], [0.5, 0.5], [0.5, 0.5]], atol=1e-6)
    np.testing.assert_allclose(not_tile, [0.6, 0.0, 1.0])
    same, none = split_not_a_tile(probs, rejects=False)
    np.testing.assert_array_equal(same, probs)
    np.testing.assert_array_equal(none, np.zeros(3))
    views = np.stack([probs, probs[::-1]], axis=1)  # (n, views, columns) split alike
    assert split_not_a_tile(views, rejects=True)[0].shape == (3, 2, 2)


def test_not_a_tile_in_labels_json_must_be_a_boolean() -> None:
    good = {"labels": list(FALLBACK_LABELS)}
    assert ModelConfig.from_dict(good).not_a_tile is False
    assert ModelConfig.from_dict(good | {"not_a_tile": True}).not_a_tile is True
    for bad in ("yes", 1, None, [True]):
        with pytest.raises(ModelError, match=r"labels\.json: not_a_tile must be true or false") as caught:
            ModelConfig.from_dict(good | {"not_a_tile": bad})
        assert "\n" not in str(caught.value)


def test_a_classifier_whose_outputs_do_not_fit_labels_json_fails_at_load(tmp_path: Path) -> None:
    folder = write_fake_models(tmp_path / "models")
    (folder / "classifier.onnx").write_bytes(classifier_bytes(not_a_tile=True))
    with pytest.raises(ModelError, match=r"44 logits per crop, labels\.json asks for 43"):
        Recognizer(folder)
    config = json.loads((folder / "labels.json").read_text())
    (folder / "labels.json").write_text(json.dumps(config | {"not_a_tile": True}))
    (folder / "classifier.onnx").write_bytes(classifier_bytes())
    with pytest.raises(ModelError, match=r"43 logits per crop, labels\.json asks for 44"):
        Recognizer(folder)
    session = make_session(classifier_bytes(not_a_tile=True), "classifier")
    assert TileClassifier(session, (64, 48), 0.1, 43, rejects=True).columns == 44


def test_the_evaluation_sweep_drops_rejected_boxes_as_the_runtime_does() -> None:
    from datasets.evaluate import Raw, _decide_raw

    xyxy = np.array([[0, 0, 20, 32], [40, 0, 60, 32], [80, 0, 100, 32]], np.float32)
    boxes = TileBoxes(xyxy, np.array([0.9, 0.9, 0.9], np.float32), np.array([False, False, True]))
    views = np.full((3, 4, len(FALLBACK_LABELS) + 1), 1e-4, np.float32)
    views[0, :, 8] = 0.99  # 9m
    views[1, :, -1] = 0.99  # not a tile
    views[2, :, -1] = 0.99  # not a tile, but locked face-down by the detector
    raw = Raw(boxes, views, 1.0, np.zeros((0, 4), np.float32), np.zeros(0, np.int64), rejects=True)
    settings = Settings(threshold=0.4, turns="none")
    assert _decide_raw(raw, settings).codes == ["9m", "back"]
    assert len(_decide_raw(raw, replace(settings, not_a_tile_min=1.01))) == 3


def test_a_weak_box_is_dropped_only_when_no_tile_is_likelier_than_any_code() -> None:
    from recognizer.pipeline import not_tiles

    xyxy = np.array([[0, 0, 20, 32], [40, 0, 60, 32], [80, 0, 100, 32], [120, 0, 140, 32]], np.float32)
    boxes = TileBoxes(xyxy, np.array([0.9, 0.45, 0.45, 0.45], np.float32), np.zeros(4, bool))
    probs = np.full((4, len(FALLBACK_LABELS)), 0.1 / (len(FALLBACK_LABELS) - 5), np.float32)
    probs[:, :5] = 0.18  # five codes equally likely: none likelier than 0.18 of the tile share
    probs[2] = 0.2 / (len(FALLBACK_LABELS) - 1)
    probs[2, 8] = 0.8  # read as 9m, 0.8 of the tile share
    not_tile = np.array([0.45, 0.45, 0.3, 0.1], np.float32)
    settings = Settings(weak_no_tile_below=0.5)
    # the sure box stays whatever the classifier says under not_a_tile_min; of the weak ones, only the
    # box whose likeliest code (0.18 x 0.55) is less likely than no tile (0.45) goes: not 9m (0.8 x 0.7)
    assert not_tiles(boxes, probs, not_tile, settings).tolist() == [False, True, False, False]
    assert not not_tiles(boxes, probs, not_tile, replace(settings, weak_no_tile_below=0.0)).any()
    assert not not_tiles(boxes, probs, not_tile, settings, rejects=False).any()
    assert not_tiles(boxes, probs, np.full(4, 0.6, np.float32), settings).all()  # over not_a_tile_min


def test_export_builds_the_classifier_with_the_checkpoints_outputs(tmp_path: Path) -> None:
    torch = pytest.importorskip("torch", reason="torch is a training extra ('.[train]')")

    from datasets.export_onnx import classifier_outputs, load_classifier, output_count
    from datasets.models import TileClassifier as TorchClassifier

    paths = []
    for outputs in (43, 44):
        path = tmp_path / f"c{outputs}.pt"
        state = TorchClassifier(outputs, 8).state_dict()
        torch.save({"model": state, "args": {"width": 8}}, path)  # no not_a_tile key: the shape says
        assert output_count(state) == outputs
        assert classifier_outputs(load_classifier([str(path)])) == outputs
        paths.append(str(path))
    assert classifier_outputs(load_classifier([paths[1], paths[1]])) == 44
    with pytest.raises(ValueError, match="differ in outputs"):
        load_classifier(paths)
