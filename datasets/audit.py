"""Audited labels for the valid split: corrections checked by eye (`datasets/valid_audit.json`).

The dataset's valid labels hold mistakes (7 photos label every tile 1p; some tiles carry another tile's
code, often the right number in the wrong suit). `python -m datasets.evaluate --audited` scores against the
corrected labels, beside the labels as published. Each fix names the photo, the box's index in its label
file and the label it replaces, so a changed dataset is an error instead of a silent misfit. A fix with
`"duplicate_of": N` instead of a code removes a second box drawn on the tile of box N.
"""

from __future__ import annotations

import json
from collections import defaultdict
from dataclasses import replace
from pathlib import Path

import numpy as np

from datasets.yolo import LABELS, Sample
from recognizer.detector import box_iou

AUDIT_FILE = Path(__file__).with_name("valid_audit.json")
DUPLICATE_IOU = 0.6
"""A box is only removed as another's duplicate when they overlap at least this much."""


class AuditMismatch(ValueError):
    """A fix does not fit the samples it is applied to (another photo, box or label than it names)."""


def load_fixes(path: Path = AUDIT_FILE) -> list[dict[str, object]]:
    """The fixes: dicts with image (file name), box (index), label (as published) and either code (as
    seen) or duplicate_of (the index of the box already on that tile)."""
    fixes: list[dict[str, object]] = json.loads(path.read_text(encoding="utf-8"))["fixes"]
    for fix in fixes:
        duplicate = "duplicate_of" in fix
        if fix["label"] not in LABELS or (fix.get("code") not in LABELS) != duplicate:
            raise AuditMismatch(f"{path.name}: a fix needs a known label and a code or duplicate_of: {fix}")
    return fixes


def audited(samples: list[Sample], fixes: list[dict[str, object]]) -> tuple[list[Sample], int]:
    """The samples with the fixes applied, and how many labels changed. Every fix must find its photo
    among `samples` (when the photo is there at all: --limit may leave it out) with the label it names."""
    by_name: dict[str, list[dict[str, object]]] = defaultdict(list)
    for fix in fixes:
        by_name[str(fix["image"])].append(fix)
    changed = 0
    out = []
    for sample in samples:
        mine = by_name.get(sample.image.name)
        if not mine:
            out.append(sample)
            continue
        labels = sample.labels.copy()
        keep = np.ones(len(labels), bool)
        for fix in mine:
            box = int(str(fix["box"]))
            if not 0 <= box < len(labels) or LABELS[labels[box]] != fix["label"]:
                raise AuditMismatch(
                    f"{sample.image.name}: box {box} is not labelled {fix['label']} (the audit was made for "
                    "another version of the dataset)"
                )
            if "duplicate_of" in fix:
                keep[box] = False
                _check_duplicate(sample, box, int(str(fix["duplicate_of"])))
            else:
                labels[box] = LABELS.index(str(fix["code"]))
            changed += 1
        out.append(replace(sample, boxes=sample.boxes[keep], labels=labels[keep]))
    return out, changed


def _check_duplicate(sample: Sample, box: int, other: int) -> None:
    """A box removed as a duplicate must lie on the other box (IoU >= 0.6), which stays."""
    if not 0 <= other < len(sample.boxes) or other == box:
        raise AuditMismatch(f"{sample.image.name}: box {box} cannot duplicate box {other}")
    if box_iou(sample.boxes[box], sample.boxes[other : other + 1])[0] < DUPLICATE_IOU:
        raise AuditMismatch(f"{sample.image.name}: box {box} does not lie on box {other}")
