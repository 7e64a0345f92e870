"""Detections: shape checks that name expected and actual shapes, selection, codes and CONTRACT records."""

from __future__ import annotations

import numpy as np
import pytest

from recognizer import LABELS, Detections


def _three() -> Detections:
    return Detections(
        xyxy=np.array([[10.4, 20.6, 50.2, 80.5], [60, 20, 100, 80], [10, 100, 50, 160]], np.float32),
        confidence=np.array([0.95, 0.40, 0.88], np.float32),
        class_id=np.array([LABELS.index("1m"), LABELS.index("back"), LABELS.index("4f")]),
        alt_class_id=np.array([[0, 1, 2], [42, 0, 1], [38, 39, 40]]),
        alt_confidence=np.array([[0.95, 0.03, 0.01], [0.4, 0.3, 0.2], [0.88, 0.1, 0.01]], np.float32),
        row=np.array([0, 0, 1]),
    )


@pytest.mark.parametrize(
    ("field", "value", "expected"),
    [
        ("xyxy", np.zeros((3, 3)), r"xyxy must have shape \(n, 4\), got \(3, 3\)"),
        ("confidence", np.zeros(2), r"confidence must have shape \(3,\), got \(2,\)"),
        ("class_id", np.zeros((3, 1), int), r"class_id must have shape \(3,\), got \(3, 1\)"),
        ("alt_class_id", np.zeros((3, 2), int), r"alt_class_id must have shape \(3, 3\), got \(3, 2\)"),
        ("alt_confidence", np.zeros(3), r"alt_confidence must have shape \(3, 3\), got \(3,\)"),
        ("row", np.zeros(4, int), r"row must have shape \(3,\), got \(4,\)"),
        ("class_id", np.array([0, 1, 43]), r"class_id must lie in 0..42"),
    ],
)
def test_shape_errors_name_expected_and_actual(field: str, value: np.ndarray, expected: str) -> None:
    good = _three()
    fields = {name: getattr(good, name) for name in ("xyxy", "confidence", "class_id", "alt_class_id",
                                                     "alt_confidence", "row")}  # fmt: skip
    fields[field] = value
    with pytest.raises(ValueError, match=expected):
        Detections(**fields)


def test_len_codes_and_selection() -> None:
    d = _three()
    assert len(d) == 3 and d.codes == ["1m", "back", "4f"]
    sure = d[d.confidence > 0.5]
    assert sure.codes == ["1m", "4f"] and sure.row.tolist() == [0, 1]
    assert d[np.array([2, 0])].codes == ["4f", "1m"]
    assert d[1].codes == ["back"] and len(d[1]) == 1
    assert d[1:].codes == ["back", "4f"]
    with pytest.raises(ValueError, match=r"mask must have shape \(3,\)"):
        d[np.array([True, False])]


def test_records_follow_the_contract() -> None:
    records = _three().to_records()
    first = records[0]
    assert first["code"] == "1m" and first["confidence"] == pytest.approx(0.95)
    assert first["box"] == [10, 21, 50, 80] and all(isinstance(v, int) for v in first["box"])
    assert [a["code"] for a in first["alternatives"]] == ["1m", "2m", "3m"]
    assert records[1]["code"] == "back" and records[2]["row"] == 1
    assert [r["code"] for r in records] == ["1m", "back", "4f"]


def test_defaults_and_empty() -> None:
    d = Detections(xyxy=np.array([[0, 0, 4, 6]]), confidence=np.array([0.7]), class_id=np.array([5]))
    assert d.alt_class_id.tolist() == [[5, -1, -1]] and d.row.tolist() == [0]
    assert d.to_records()[0]["alternatives"] == [{"code": "6m", "confidence": 0.7}]
    empty = Detections.empty()
    assert len(empty) == 0 and empty.codes == [] and empty.to_records() == []
    assert empty.xyxy.shape == (0, 4) and empty.alt_class_id.shape == (0, 3)
    assert len(empty[empty.confidence > 0.5]) == 0


def test_labels_match_the_models_and_the_tile_codes() -> None:
    import json

    from recognizer.labels import FALLBACK_LABELS, tile_limit
    from recognizer.models import LABELS_FILE, model_folder
    from scoring import TILE_CODES

    assert LABELS == FALLBACK_LABELS and LABELS[:42] == TILE_CODES and LABELS[42] == "back"
    shipped = model_folder().joinpath(LABELS_FILE)
    if shipped.is_file():
        assert tuple(json.loads(shipped.read_text())["labels"]) == FALLBACK_LABELS
    assert (tile_limit("5m"), tile_limit("7z"), tile_limit("2f"), tile_limit("4y"), tile_limit("back")) == (
        4, 4, 1, 1, None,
    )  # fmt: skip
