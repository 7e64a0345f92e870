"""Game limits on one photo's labels: 4 of each tile, 1 of each flower and season, backs unlimited."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from recognizer.constraints import apply_tile_limits, limits_for
from recognizer.labels import LABELS

M1, M2, M3 = LABELS.index("1m"), LABELS.index("2m"), LABELS.index("3m")
F1, F2 = LABELS.index("1f"), LABELS.index("2f")
BACK = LABELS.index("back")


def _probs(rows: list[dict[int, float]]) -> np.ndarray:
    """Probability rows from {label: p}; the rest of the mass spread thinly."""
    out = np.full((len(rows), len(LABELS)), 1e-4, np.float32)
    for i, row in enumerate(rows):
        for label, p in row.items():
            out[i, label] = p
    return out / out.sum(axis=1, keepdims=True)


def test_fifth_tile_of_a_kind_moves_to_its_next_best() -> None:
    probs = _probs([{M1: 0.99, M2: 0.01}] * 4 + [{M1: 0.6, M3: 0.35}])
    choice = apply_tile_limits(probs, probs.argmax(axis=1), LABELS)
    assert choice.tolist() == [M1, M1, M1, M1, M3]


def test_the_tile_that_loses_least_moves_even_if_more_confident() -> None:
    # 1m has room for one more; tile 0 is nearly as sure of 2m, tile 1 has no good alternative
    probs = _probs([{M1: 0.50, M2: 0.49}, {M1: 0.45, M3: 0.01}] + [{M1: 0.99}] * 3)
    choice = apply_tile_limits(probs, probs.argmax(axis=1), LABELS)
    assert choice.tolist() == [M2, M1, M1, M1, M1]


def test_one_of_each_flower() -> None:
    probs = _probs([{F1: 0.9, F2: 0.05}, {F1: 0.7, F2: 0.25}])
    choice = apply_tile_limits(probs, probs.argmax(axis=1), LABELS)
    assert choice.tolist() == [F1, F2]


def test_backs_are_unlimited_and_locked_tiles_stay() -> None:
    probs = _probs([{BACK: 0.9}] * 10)
    assert apply_tile_limits(probs, probs.argmax(axis=1), LABELS).tolist() == [BACK] * 10
    probs = _probs([{M1: 0.99, M2: 0.005}] * 4 + [{M1: 0.5, M2: 0.4}])
    locked = np.array([False, False, False, False, True])
    choice = apply_tile_limits(probs, probs.argmax(axis=1), LABELS, locked=locked)
    assert choice[4] == M1 and (choice == M1).sum() == 4 and (choice == M2).sum() == 1


def test_no_room_among_top_k_leaves_the_excess() -> None:
    probs = _probs([{M1: 0.9, M2: 0.05, M3: 0.04}] * 13)
    choice = apply_tile_limits(probs, probs.argmax(axis=1), LABELS, top_k=3)
    assert sorted(np.bincount(choice, minlength=len(LABELS))[[M1, M2, M3]].tolist()) == [4, 4, 5]


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 60), st.integers(0, 2**31 - 1))
def test_limits_always_hold_when_every_label_is_allowed(n: int, seed: int) -> None:
    rng = np.random.default_rng(seed)
    logits = rng.normal(size=(n, len(LABELS))) * 3
    logits[:, rng.integers(0, len(LABELS) - 1, size=3)] += 6  # crowd a few kinds
    probs = np.exp(logits) / np.exp(logits).sum(axis=1, keepdims=True)
    start = probs.argmax(axis=1)
    choice = apply_tile_limits(probs, start, LABELS, top_k=len(LABELS))
    counts = np.bincount(choice, minlength=len(LABELS))
    assert (counts <= limits_for(LABELS)).all()
    start_counts = np.bincount(start, minlength=len(LABELS))
    if (start_counts <= limits_for(LABELS)).all():
        assert (choice == start).all()
