"""Part of a face hidden or washed out (datasets/augment.py: occlude): the crop keeps its shape and type,
the source is untouched, and some of it changes while most of it stays."""

import numpy as np
import pytest

from datasets.augment import occlude


def face() -> np.ndarray:
    """An ivory crop with dark circles, 64x48 as the classifier reads; its ground shades across and down, so
    no edge is one colour until a band covers it."""
    yy, xx = np.mgrid[0:64, 0:48]
    ground = xx // 2 + yy // 4
    crop = np.stack([190 + ground, 180 + ground, 160 + ground], axis=2).astype(np.uint8)
    for cy, cx in ((16, 14), (16, 34), (48, 14), (48, 34)):
        crop[(yy - cy) ** 2 + (xx - cx) ** 2 < 49] = (20, 60, 140)
    return crop


@pytest.mark.parametrize("seed", range(12))
def test_occlude_changes_part_of_the_face_only(seed: int) -> None:
    src = face()
    before = src.copy()
    out = occlude(src, np.random.default_rng(seed))
    assert out.shape == src.shape and out.dtype == np.uint8
    assert np.array_equal(src, before), "the source crop must not be written"
    changed = np.any(out != src, axis=2).mean()
    assert 0.0 < changed < 0.95


def test_occlude_draws_every_kind() -> None:
    """Over many draws all three kinds appear: an edge band (a full row or column of one colour), glare (only
    brighter), and an erased patch (neither)."""
    src = face().astype(np.int16)
    kinds = set()
    for seed in range(60):
        out = occlude(face(), np.random.default_rng(seed)).astype(np.int16)
        diff = out - src
        rows = [out[0], out[-1], out[:, 0], out[:, -1]]
        if any((r == r[0]).all() for r in rows) and (diff != 0).any():
            kinds.add("band")
        elif (diff >= 0).all():
            kinds.add("glare")
        else:
            kinds.add("patch")
    assert kinds == {"band", "glare", "patch"}
