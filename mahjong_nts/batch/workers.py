"""Worker processes of `mahjong-nts batch`: one tile reader (one model session) per process.

The parent hands out at most N photos at a time and gets each photo's record back as it finishes. A
worker that dies (segfault, OOM killer) is replaced; the photos it had in flight are retried once, alone,
so only a photo that kills its worker twice gets the error. Workers exit when their parent is killed.
"""

from __future__ import annotations

import multiprocessing
import multiprocessing.connection
import os
import signal
import threading
from collections import deque
from collections.abc import Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path
from typing import Any

from mahjong_nts.batch.photo import PhotoJob, PhotoReader, ReaderFactory, new_record, process_photo
from mahjong_nts.batch.runner import cpu_cores
from mahjong_nts.messages import one_line

DIED = "the worker process died reading this photo (crash or out of memory); --resume tries it again"


class WorkerStartError(RuntimeError):
    """The tile reader cannot start in a worker (models missing, ...): nothing can be read."""


_reader: PhotoReader | None = None
_start_error: str | None = None
_out_dir: Path | None = None


def _init_worker(reader_factory: ReaderFactory, threads: int, out_dir: Path) -> None:
    """Worker initializer: one reader (one model session) per process; Ctrl-C is the parent's to handle."""
    global _reader, _start_error, _out_dir
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    threading.Thread(target=_exit_with_parent, name="exit-with-parent", daemon=True).start()
    _out_dir = out_dir
    try:
        _reader = reader_factory(threads)
    except Exception as problem:
        _start_error = f"cannot start the tile recognizer: {type(problem).__name__}: {one_line(problem)}"


def _exit_with_parent() -> None:
    """A worker whose parent was killed (SIGKILL, OOM killer) exits instead of idling on forever."""
    parent = multiprocessing.parent_process()
    if parent is not None and parent.sentinel is not None:
        multiprocessing.connection.wait([parent.sentinel])
        os._exit(1)


def _worker_ready() -> str | None:
    return _start_error


def _read_photo(job: PhotoJob) -> dict[str, Any]:
    if _reader is None or _out_dir is None:
        raise WorkerStartError(_start_error or "worker not started")
    return process_photo(job, _reader, _out_dir)


class PhotoWorkers:
    """N worker processes reading photos; a dead worker is replaced and its photos retried once, alone."""

    def __init__(self, count: int, reader_factory: ReaderFactory, out_dir: Path) -> None:
        self.count = min(max(1, count), cpu_cores())  # more processes than cores only cost memory
        self.threads = max(1, cpu_cores() // self.count)  # ONNX Runtime threads per worker
        self._factory = reader_factory
        self._out_dir = out_dir
        self._pool: ProcessPoolExecutor | None = None

    def _new_pool(self) -> ProcessPoolExecutor:
        return ProcessPoolExecutor(
            max_workers=self.count,
            mp_context=multiprocessing.get_context("spawn"),  # no inherited threads or sessions
            initializer=_init_worker,
            initargs=(self._factory, self.threads, self._out_dir),
        )

    def start(self) -> None:
        """Start the workers and check that one can read photos; raises WorkerStartError otherwise."""
        self._pool = self._new_pool()
        try:
            problem = self._pool.submit(_worker_ready).result()
        except BrokenProcessPool:
            problem = "a worker process died while starting"
        if problem:
            raise WorkerStartError(problem)

    def run(self, jobs: Sequence[PhotoJob]) -> Iterator[dict[str, Any]]:
        """Records in the order photos finish. At most `count` photos are in flight at a time."""
        queue = deque(jobs)
        retried: set[str] = set()  # photos in flight when a worker died: tried once more, alone
        while queue:
            pool = self._pool = self._pool or self._new_pool()
            in_flight: dict[Future[dict[str, Any]], PhotoJob] = {}
            broken = False
            while (queue or in_flight) and not broken:
                while queue and len(in_flight) < self.count:
                    alone = queue[0].rel in retried or any(job.rel in retried for job in in_flight.values())
                    if alone and in_flight:
                        break
                    job = queue.popleft()
                    try:
                        in_flight[pool.submit(_read_photo, job)] = job
                    except BrokenProcessPool:
                        queue.appendleft(job)
                        broken = True
                        break
                    if alone:
                        break
                if broken:
                    break
                done, _ = wait(in_flight, return_when=FIRST_COMPLETED)
                for future in done:
                    job = in_flight.pop(future)
                    try:
                        record = future.result()
                    except BrokenProcessPool:
                        broken = True
                        in_flight[future] = job  # handled with the others below
                        continue
                    except WorkerStartError:
                        raise  # a later worker could not load its reader: nothing more can be read
                    except Exception as problem:  # pickling or another executor failure: this photo's error
                        record = _failed_record(job, f"worker failed: {type(problem).__name__}: {problem}")
                    yield record
            if broken:
                victims = []
                for future, job in in_flight.items():
                    if future.done() and future.exception() is None:
                        yield future.result()
                    else:
                        victims.append(job)
                for job in reversed(victims):
                    if job.rel in retried:
                        yield _failed_record(job, DIED, retry=True)
                    else:
                        retried.add(job.rel)
                        queue.appendleft(job)
                pool.shutdown(wait=True, cancel_futures=True)
                self._pool = None

    def close(self) -> None:
        """Stop the workers after the photos in flight (Ctrl-C lands here too)."""
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = None


def _failed_record(job: PhotoJob, error: str, retry: bool = False) -> dict[str, Any]:
    record = new_record(job, error)
    if retry:
        record["retry"] = True  # --resume tries this photo again
    return record
