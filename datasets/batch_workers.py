"""Training batches made by worker processes: crop cutting and augmentation are CPU work in Python, so a
run on a GPU (or on many cores) is fed by several processes at once instead of one.

Each worker makes every `workers`-th batch of the epoch with its own generator seeded [epoch seed, worker]
(the epoch seed drawn from the epoch's generator), so a run is reproducible for a given worker count (a
different count draws other augmentations); with no workers the batches are made in the training process
from the epoch's generator itself, exactly as before this module existed.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any

import cv2
import numpy as np
import torch
from torch.utils.data import DataLoader, IterableDataset, get_worker_info

Batch = tuple[torch.Tensor, ...]
MakeBatch = Callable[[Any, np.random.Generator], Batch]
"""(plan of one batch: which samples and how, generator) -> tensors (crops and labels, or windows and
targets)."""


class EpochBatches(IterableDataset):
    """The batches of one epoch, one a plan, each made by `make`."""

    def __init__(self, make: MakeBatch, plans: Sequence[Any], epoch_seed: int) -> None:
        super().__init__()
        self.make, self.plans, self.epoch_seed = make, plans, epoch_seed

    def __iter__(self) -> Iterator[Batch]:
        info = get_worker_info()
        worker, workers = (info.id, info.num_workers) if info is not None else (0, 1)
        rng = np.random.default_rng([self.epoch_seed, worker])
        for step in range(worker, len(self.plans), workers):
            yield self.make(self.plans[step], rng)


def _one_thread(_: int) -> None:
    """Workers use one thread each: the parallelism is the workers themselves."""
    torch.set_num_threads(1)


def slices(order: np.ndarray, batch: int, steps: int) -> Iterator[np.ndarray]:
    """`order` cut into `steps` plans of `batch` rows."""
    for step in range(steps):
        yield order[step * batch : (step + 1) * batch]


def epoch_batches(
    make: MakeBatch, plans: Iterable[Any], rng: np.random.Generator, workers: int
) -> Iterator[Batch]:
    """The epoch's batches in step order: made by `workers` processes (forked, so the decoded images are
    shared, not copied), or in this process from `rng` when `workers` is 0. With no workers the plans are
    drawn one at a time between the batches (as the training scripts always drew them); with workers they
    are all drawn first."""
    if workers <= 0:
        for plan in plans:
            yield make(plan, rng)
        return
    plans = list(plans)
    # OpenCV's thread pool does not survive a fork (a worker's first parallel call hangs): the training
    # process gives it up before its workers are forked, and they inherit one thread each.
    cv2.setNumThreads(1)
    loader = DataLoader(
        EpochBatches(make, plans, int(rng.integers(2**62))),
        batch_size=None,
        num_workers=workers,
        worker_init_fn=_one_thread,
        prefetch_factor=4,
        multiprocessing_context="fork",
    )
    yield from loader
