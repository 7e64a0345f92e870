"""Training batches made by worker processes: crop cutting and augmentation are CPU work in Python, so a
run on a GPU (or on many cores) is fed by several processes at once instead of one.

Each worker makes every `workers`-th batch of the epoch with its own generator seeded [epoch seed, worker]
(the epoch seed drawn from the epoch's generator), so a run is reproducible for a given worker count (a
different count draws other augmentations); with no workers the batches are made in the training process
from the epoch's generator itself, exactly as before this module existed.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

import cv2
import numpy as np
import torch
from torch.utils.data import DataLoader, IterableDataset, get_worker_info

Batch = tuple[torch.Tensor, torch.Tensor]
MakeBatch = Callable[[np.ndarray, np.random.Generator], Batch]
"""(rows of one batch, generator) -> (crops, labels)."""


class EpochBatches(IterableDataset):
    """The batches of one epoch: `order` cut into `steps` slices of `batch` rows, each made by `make`."""

    def __init__(self, make: MakeBatch, order: np.ndarray, batch: int, steps: int, epoch_seed: int) -> None:
        super().__init__()
        self.make, self.order, self.batch, self.steps, self.epoch_seed = make, order, batch, steps, epoch_seed

    def __iter__(self) -> Iterator[Batch]:
        info = get_worker_info()
        worker, workers = (info.id, info.num_workers) if info is not None else (0, 1)
        rng = np.random.default_rng([self.epoch_seed, worker])
        for step in range(worker, self.steps, workers):
            yield self.make(self.order[step * self.batch : (step + 1) * self.batch], rng)


def _one_thread(_: int) -> None:
    """Workers use one thread each: the parallelism is the workers themselves."""
    torch.set_num_threads(1)


def epoch_batches(
    make: MakeBatch, order: np.ndarray, batch: int, steps: int, rng: np.random.Generator, workers: int
) -> Iterator[Batch]:
    """The epoch's batches in step order: made by `workers` processes (forked, so the decoded images are
    shared, not copied), or in this process from `rng` when `workers` is 0."""
    if workers <= 0:
        for step in range(steps):
            yield make(order[step * batch : (step + 1) * batch], rng)
        return
    # OpenCV's thread pool does not survive a fork (a worker's first parallel call hangs): the training
    # process gives it up before its workers are forked, and they inherit one thread each.
    cv2.setNumThreads(1)
    loader = DataLoader(
        EpochBatches(make, order, batch, steps, int(rng.integers(2**62))),
        batch_size=None,
        num_workers=workers,
        worker_init_fn=_one_thread,
        prefetch_factor=4,
        multiprocessing_context="fork",
    )
    yield from loader
