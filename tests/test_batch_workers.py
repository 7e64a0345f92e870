"""Training batches made by worker processes (datasets/batch_workers.py): every step once, in step order,
the same batches for the same worker count, and the in-process path unchanged."""

from __future__ import annotations

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from datasets.batch_workers import epoch_batches, slices  # noqa: E402


def make(rows: np.ndarray, rng: np.random.Generator) -> tuple:
    """A batch that shows which rows it was made of and one draw of its generator."""
    noise = torch.tensor([float(rng.random())] * len(rows))
    return torch.from_numpy(rows.copy()), noise


def run(workers: int, seed: int = 5) -> list[tuple]:
    order = np.arange(40)
    return list(epoch_batches(make, slices(order, 4, 10), np.random.default_rng(seed), workers))


def test_in_process_batches_draw_from_the_epoch_generator_in_step_order() -> None:
    rng = np.random.default_rng(5)
    expected = [rng.random() for _ in range(10)]
    batches = run(0)
    assert [int(rows[0]) for rows, _ in batches] == list(range(0, 40, 4))
    assert [float(noise[0]) for _, noise in batches] == pytest.approx(expected)


def test_workers_make_every_step_once_in_order_and_reproducibly() -> None:
    first, second = run(2), run(2)
    assert [rows.tolist() for rows, _ in first] == [list(range(k, k + 4)) for k in range(0, 40, 4)]
    assert [float(n[0]) for _, n in first] == [float(n[0]) for _, n in second]
    # each worker has its own generator: the two workers' batches differ
    assert float(first[0][1][0]) != float(first[1][1][0])
    assert [float(n[0]) for _, n in run(2, seed=6)] != [float(n[0]) for _, n in first]


def test_detector_step_plans_take_the_photos_in_order_half_a_batch_for_strips() -> None:
    from datasets.train_detector import step_plans

    plans = list(step_plans(np.arange(10), 6, 4, 0.5, np.random.default_rng(2)))
    taken = [i for _, photos in plans for i in photos]
    assert taken == [k % 10 for k in range(len(taken))]  # round the order, never skipping a photo
    assert {strip for strip, _ in plans} == {True, False}
    assert all(len(photos) == (2 if strip else 4) for strip, photos in plans)
