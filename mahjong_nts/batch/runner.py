"""A batch run: read and score every hand photo in a folder; CSV, JSON Lines and HTML out.

The parent process finds the photos, reads defaults.json and sidecars, keeps the durable record
(results.jsonl, one fsynced line per finished photo) and writes the final outputs; worker processes (one
tile reader each) read, annotate and score the photos. See docs/BATCH.md.
"""

from __future__ import annotations

import errno
import json
import os
import re
import signal
import stat
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from mahjong_nts.batch.outputs import outcome_counts
from scoring.jsonread import show_path

if TYPE_CHECKING:  # the photo modules load NumPy and scoring: only when a batch really runs
    from mahjong_nts.batch.photo import PhotoJob, ReaderFactory

IMAGE_SUFFIXES = (".jpg", ".jpeg", ".png", ".webp", ".heic", ".heif", ".avif")
DEFAULT_OUT_NAME = "mahjong-nts-report"
RESULTS_JSONL, RESULTS_CSV, REPORT_HTML = "results.jsonl", "results.csv", "report.html"


class BatchUsageError(ValueError):
    """Bad arguments or folder: exit 2 with this one-line message."""


@dataclass(frozen=True)
class BatchOptions:
    """What `mahjong-nts batch` was asked to do."""

    folder: Path
    out: Path
    recursive: bool = False
    resume: bool = False
    workers: int = 1
    embed_images: bool = False
    low_confidence: float | None = None  # None: the uncertain threshold (reading.tiles.UNCERTAIN_BELOW)
    progress: str = "auto"  # auto, bar, lines, none
    lang: str = "nl"  # the language of report.html: nl or en


def run_batch(options: BatchOptions, reader_factory: ReaderFactory, stdout: TextIO | None = None) -> int:
    """Do the batch; returns the exit code. Raises BatchUsageError for bad usage."""

    folder, out_dir, jobs = _prepare(options)
    with OutputLock(out_dir):
        return _run_locked(options, reader_factory, folder, out_dir, jobs, stdout)


def _run_locked(
    options: BatchOptions,
    reader_factory: ReaderFactory,
    folder: Path,
    out_dir: Path,
    jobs: list[PhotoJob],
    stdout: TextIO | None,
) -> int:
    """The run itself, while this process alone holds the output folder."""
    from mahjong_nts.batch.photo import new_record
    from mahjong_nts.batch.record import Journal, is_done, read_records
    from mahjong_nts.batch.workers import PhotoWorkers, WorkerStartError

    journal_path = out_dir / RESULTS_JSONL
    earlier = read_records(journal_path) if options.resume else {}
    records: dict[str, dict[str, Any]] = {
        job.rel: earlier[job.rel] for job in jobs if is_done(earlier.get(job.rel), job.fingerprint, out_dir)
    }
    for job in jobs:  # a FIFO, a dangling link, a loop: its row says so, no worker opens it
        problem = not_a_photo_file(Path(job.path))
        if problem is not None and job.rel not in records:
            records[job.rel] = new_record(job, problem)
    todo = [job for job in jobs if job.rel not in records]
    workers = PhotoWorkers(min(options.workers, max(len(todo), 1)), reader_factory, out_dir)
    interrupted, stopped_by = False, None
    with _terminate_as_interrupt():
        try:
            if todo:
                workers.start()  # before the record is touched: missing models change nothing
        except BaseException as problem:
            workers.close()
            if isinstance(problem, WorkerStartError):
                raise BatchUsageError(str(problem)) from None
            raise
        progress = Progress(len(jobs), len(records), options.progress)
        try:
            with Journal(journal_path, [records[job.rel] for job in jobs if job.rel in records]) as journal:
                for record in workers.run(todo):
                    records[record["file"]] = record  # first: an interrupt during the append keeps it
                    journal.append(record)
                    progress.update(record)
        except KeyboardInterrupt:
            interrupted = True
        except WorkerStartError as problem:  # a later worker could not load the models
            interrupted, stopped_by = True, str(problem)
        finally:
            workers.close()
            progress.close()

    final = [records[job.rel] for job in jobs if job.rel in records]
    summary = _summary(final, len(jobs), len(jobs) - len(todo), out_dir, interrupted)
    _write_outputs(final, out_dir, folder.name, options, summary)
    print(json.dumps(summary), file=stdout or sys.stdout)
    print(_summary_line(summary), file=sys.stderr)
    if stopped_by:
        print(f"mahjong-nts batch: {stopped_by}", file=sys.stderr)
        return 2
    if interrupted:
        return 130
    return 1 if summary["errors"] else 0


def _prepare(options: BatchOptions) -> tuple[Path, Path, list[PhotoJob]]:
    """The folder, the output folder (created) and one job per photo; BatchUsageError when impossible."""
    from mahjong_nts.batch.sidecar import FolderError

    folder = options.folder.resolve()
    if not folder.is_dir():
        raise BatchUsageError(f"no such folder: {options.folder}")
    out_dir = options.out.resolve()
    try:
        out_dir.mkdir(parents=True, exist_ok=True)
    except OSError as problem:
        raise BatchUsageError(f"cannot create output folder {options.out}: {problem.strerror}") from None
    photos = find_photos(folder, options.recursive, out_dir)
    if not photos:
        hint = "" if options.recursive else " (add --recursive for subfolders)"
        raise BatchUsageError(f"no JPEG, PNG, WebP, HEIC or AVIF photos in {options.folder}{hint}")
    try:
        return folder, out_dir, make_jobs(folder, photos)
    except FolderError as problem:
        raise BatchUsageError(str(problem)) from None


def _write_outputs(
    final: Sequence[dict[str, Any]], out_dir: Path, title: str, options: BatchOptions, summary: dict[str, Any]
) -> None:
    """results.jsonl (sorted, replacing the record), results.csv and report.html, each atomically."""
    from mahjong_nts.batch.outputs import atomic_write_text, write_csv, write_jsonl
    from mahjong_nts.batch.report import interrupted_note, render_report, report_title
    from mahjong_nts.reading.tiles import UNCERTAIN_BELOW

    note = None
    if summary["interrupted"]:
        note = interrupted_note(summary["done"], summary["photos"], options.lang)
    write_jsonl(out_dir / RESULTS_JSONL, final)
    write_csv(out_dir / RESULTS_CSV, final)
    report = render_report(
        final,
        out_dir,
        report_title(title, options.lang),
        UNCERTAIN_BELOW if options.low_confidence is None else options.low_confidence,
        options.embed_images,
        note,
        options.lang,
    )
    atomic_write_text(out_dir / REPORT_HTML, report)


def _summary(
    final: Sequence[dict[str, Any]], photos: int, reused: int, out_dir: Path, interrupted: bool
) -> dict[str, Any]:
    return {
        "photos": photos,
        "done": len(final),
        "reused": reused,
        **outcome_counts(final),
        "interrupted": interrupted,
        "out": str(out_dir),
        "report": str(out_dir / REPORT_HTML),
        "csv": str(out_dir / RESULTS_CSV),
        "jsonl": str(out_dir / RESULTS_JSONL),
    }


def _summary_line(summary: dict[str, Any]) -> str:
    reused = f" ({summary['reused']} kept from the earlier run)" if summary["reused"] else ""
    head = "interrupted after " if summary["interrupted"] else ""
    return (
        f"batch: {head}{summary['done']} of {summary['photos']} photos{reused}: {summary['valid']} mahjong, "
        f"{summary['not_mahjong']} no mahjong, {summary['errors']} failed -> {summary['report']}"
    )


# --- finding the photos -------------------------------------------------------------------------------------


def natural_key(rel: str) -> tuple[tuple[int, int | str], ...]:
    """Sort key so that hand2.jpg comes before hand10.jpg; case-insensitive."""
    return tuple(
        (0, int(part)) if part.isdigit() else (1, part.lower()) for part in re.split(r"(\d+)", rel) if part
    )


def _is_output_folder(path: Path) -> bool:
    """A folder written by an earlier batch (never read its annotated images as photos)."""
    return (path / RESULTS_JSONL).is_file() and (path / RESULTS_CSV).is_file()


def _is_annotated_folder(path: Path, out_dir: Path) -> bool:
    """The annotated/ folder of this run's output or of an earlier batch's output folder."""
    from mahjong_nts.batch.photo import ANNOTATED_DIR

    if path.name != ANNOTATED_DIR:
        return False
    return path.resolve() == out_dir / ANNOTATED_DIR or _is_output_folder(path.parent)


def find_photos(folder: Path, recursive: bool, out_dir: Path) -> list[Path]:
    """Names ending in a photo suffix in `folder` (and subfolders), hidden ones and output folders skipped,
    sorted. Names that are no regular file (a dangling link, a FIFO, a link loop) are kept: each gets an
    error row (`not_a_photo_file`) instead of being read."""
    found: list[Path] = []
    for directory, subfolders, files in os.walk(folder):
        here = Path(directory)
        subfolders[:] = [
            name
            for name in subfolders
            if recursive
            and not name.startswith(".")
            and (here / name).resolve() != out_dir
            and not _is_output_folder(here / name)
            and not _is_annotated_folder(here / name, out_dir)
        ]
        for name in files:
            if not name.startswith(".") and os.path.splitext(name)[1].lower() in IMAGE_SUFFIXES:
                found.append(here / name)

    def order(path: Path) -> tuple[tuple[tuple[int, int | str], ...], str]:
        rel = path.relative_to(folder).as_posix()
        return natural_key(rel), rel  # case-insensitive, then exact: the same order on every machine

    return sorted(found, key=order)


def not_a_photo_file(path: Path) -> str | None:
    """Why `path` cannot be read as a photo without even opening it (opening a FIFO would wait forever),
    or None for a regular file."""
    try:
        mode = path.stat().st_mode
    except OSError as problem:
        if problem.errno == errno.ELOOP:
            return "not a photo: a symbolic link loop"
        if path.is_symlink():
            return "not a photo: a symbolic link to nothing (dangling)"
        return f"cannot read: {problem.strerror or problem}"
    if stat.S_ISREG(mode):
        return None
    if stat.S_ISFIFO(mode):
        return "not a photo: a named pipe (FIFO)"
    if stat.S_ISDIR(mode):
        return "not a photo: a folder"
    return "not a photo: a device or socket, not a regular file"


def make_jobs(folder: Path, photos: Sequence[Path]) -> list[PhotoJob]:
    """One PhotoJob per photo, with context and fingerprint; raises FolderError for a bad defaults.json."""
    from mahjong_nts.batch.photo import PhotoJob
    from mahjong_nts.batch.record import fingerprint
    from mahjong_nts.batch.sidecar import ContextReader

    contexts = ContextReader(folder)
    jobs = []
    for path in photos:
        rel = path.relative_to(folder).as_posix()
        context = contexts.context_for(path)
        try:
            key = fingerprint(rel, path, context) if not_a_photo_file(path) is None else "not-a-file"
        except OSError:  # vanished since the listing: the reader reports it in the row
            key = "missing"
        jobs.append(PhotoJob(rel=rel, path=str(path), fingerprint=key, context=context))
    return jobs


def cpu_cores() -> int:
    """The CPU cores this process may use (its affinity on Linux, else the machine's count)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


LOCK_NAME = ".mahjong-nts-batch.lock"


class OutputLock:
    """An exclusive lock on the output folder for the whole run, so that two runs writing to one --out do
    not truncate each other's record (the second stops at once with a clear message). The lock is the
    kernel's (flock): it goes with the process, also when it is killed."""

    def __init__(self, out_dir: Path) -> None:
        self.path = out_dir / LOCK_NAME
        self._handle: int | None = None

    def __enter__(self) -> OutputLock:
        try:
            import fcntl
        except ImportError:  # not POSIX: no lock, as before
            return self
        self._handle = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o666)
        try:
            fcntl.flock(self._handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(self._handle)
            self._handle = None
            raise BatchUsageError(
                f"another batch is writing to {show_path(str(self.path.parent))}; wait for it to finish "
                "or give another --out"
            ) from None
        return self

    def __exit__(self, *exc: object) -> None:
        if self._handle is not None:
            os.close(self._handle)  # closing releases the lock; the empty file stays (removing it races)
            self._handle = None


class _terminate_as_interrupt:
    """While active, SIGTERM stops the batch like Ctrl-C: finished photos are kept and outputs written."""

    def __enter__(self) -> None:
        self._previous = signal.getsignal(signal.SIGTERM)
        try:
            signal.signal(signal.SIGTERM, self._handle)
        except ValueError:  # not the main thread
            self._previous = None

    @staticmethod
    def _handle(signum: int, frame: Any) -> None:
        raise KeyboardInterrupt

    def __exit__(self, *exc: object) -> None:
        if self._previous is not None:
            signal.signal(signal.SIGTERM, self._previous)


# --- progress -----------------------------------------------------------------------------------------------


class Progress:
    """Progress on stderr: a tqdm bar on a terminal, else one plain line per photo."""

    def __init__(self, total: int, done: int, mode: str, stream: TextIO | None = None) -> None:
        self.stream = stream or sys.stderr
        if mode == "auto":
            mode = "bar" if self.stream.isatty() else "lines"
        self.mode, self.total, self.done, self.failed = mode, total, done, 0
        self._bar: Any = None
        if mode == "bar":
            from tqdm import tqdm

            self._bar = tqdm(
                total=total, initial=done, unit="photo", file=self.stream, desc="batch", leave=True
            )
        elif mode == "lines" and done:
            print(f"batch: {done} of {total} photos kept from the earlier run", file=self.stream, flush=True)

    def update(self, record: dict[str, Any]) -> None:
        self.done += 1
        self.failed += bool(record.get("error"))
        if self._bar is not None:
            self._bar.update(1)
            if self.failed:
                self._bar.set_postfix(failed=self.failed, refresh=False)
        elif self.mode == "lines":
            print(
                f"batch: [{self.done}/{self.total}] {record['file']}: {_status(record)}",
                file=self.stream,
                flush=True,
            )

    def close(self) -> None:
        if self._bar is not None:
            self._bar.close()


def _status(record: dict[str, Any]) -> str:
    if record.get("error"):
        return f"error: {record['error']}"
    result = record.get("result") or {}
    if result.get("valid"):
        return f"total {result.get('total')}"
    return f"no mahjong ({result.get('reason')})"
