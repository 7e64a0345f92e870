"""datasets/audit.py: label corrections apply only where they fit, and the committed audit fits valid."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import numpy as np
import pytest

from datasets.audit import AuditMismatch, audited, load_fixes
from datasets.yolo import LABELS, Sample, data_dir, placeholder_labelled, read_split


def sample(name: str, codes: list[str]) -> Sample:
    boxes = np.array([[10 * k, 0, 10 * k + 8, 12] for k in range(len(codes))], np.float32)
    labels = np.array([LABELS.index(c) for c in codes], np.int64)
    return Sample(Path(name), boxes, labels, 100, 100)


def test_fixes_change_the_named_boxes_and_nothing_else() -> None:
    photos = [sample("a.jpg", ["1p", "1p", "2m"]), sample("b.jpg", ["5p"])]
    fixes: list[dict[str, object]] = [{"image": "a.jpg", "box": 1, "label": "1p", "code": "9s"}]
    fixed, changed = audited(photos, fixes)
    assert changed == 1
    assert [LABELS[i] for i in fixed[0].labels] == ["1p", "9s", "2m"]
    assert fixed[1] is photos[1]
    assert [LABELS[i] for i in photos[0].labels] == ["1p", "1p", "2m"]  # the input is left as it was


def test_a_fix_for_another_label_or_box_is_an_error() -> None:
    photos = [sample("a.jpg", ["1p", "2m"])]
    with pytest.raises(AuditMismatch, match="box 1 is not labelled 3m"):
        audited(photos, [{"image": "a.jpg", "box": 1, "label": "3m", "code": "4m"}])
    with pytest.raises(AuditMismatch, match="box 5"):
        audited(photos, [{"image": "a.jpg", "box": 5, "label": "1p", "code": "4m"}])


def test_a_duplicate_box_is_removed_only_where_it_lies_on_the_other() -> None:
    photo = sample("a.jpg", ["1p", "2m", "3s"])
    photo.boxes[2] = photo.boxes[1] + 0.5  # box 2 is drawn again on box 1's tile
    fixes: list[dict[str, object]] = [{"image": "a.jpg", "box": 2, "label": "3s", "duplicate_of": 1}]
    [fixed], changed = audited([photo], fixes)
    assert changed == 1 and [LABELS[i] for i in fixed.labels] == ["1p", "2m"]
    assert fixed.boxes.tolist() == photo.boxes[:2].tolist()
    with pytest.raises(AuditMismatch, match="does not lie on box 0"):
        audited([photo], [{"image": "a.jpg", "box": 2, "label": "3s", "duplicate_of": 0}])
    with pytest.raises(AuditMismatch, match="cannot duplicate box 2"):
        audited([photo], [{"image": "a.jpg", "box": 2, "label": "3s", "duplicate_of": 2}])


def test_committed_audit_is_well_formed() -> None:
    fixes = load_fixes()
    places = Counter((f["image"], f["box"]) for f in fixes)
    assert max(places.values()) == 1  # one fix per box
    assert all(f["label"] != f["code"] for f in fixes if "code" in f)
    assert all(("code" in f) != ("duplicate_of" in f) for f in fixes)
    assert all(str(f.get("seen", "")).strip() for f in fixes)  # each says what the tile shows


def test_committed_audit_fits_the_valid_split_and_ends_the_placeholder_labels() -> None:
    root = data_dir()
    if not (root / "valid" / "images").is_dir():
        pytest.skip(f"valid split not found at {root}")
    samples = read_split(root, "valid")
    fixed, changed = audited(samples, load_fixes())
    assert changed == len(load_fixes())
    assert sum(placeholder_labelled(s) for s in samples) == 7
    assert sum(placeholder_labelled(s) for s in fixed) == 0
