"""`mahjong-nts batch FOLDER`: read and score every hand photo in a folder; CSV, JSON Lines and HTML out.

The parent process finds the photos, reads defaults.json and sidecars, keeps the durable record
(results.jsonl, one fsynced line per finished photo) and writes the final outputs; worker processes (one
tile reader each) read, annotate and score the photos. See docs/BATCH.md.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import multiprocessing.connection
import os
import re
import signal
import sys
import threading
from collections import deque
from collections.abc import Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

from mahjong_nts.batch_outputs import outcome_counts

IMAGE_SUFFIXES = (".jpg", ".jpeg", ".png", ".webp")
DEFAULT_OUT_NAME = "mahjong-nts-report"
RESULTS_JSONL, RESULTS_CSV, REPORT_HTML = "results.jsonl", "results.csv", "report.html"

DESCRIPTION = """\
Read and score every hand photo (JPEG, PNG, WebP) in FOLDER, in sorted order, and write to --out:
results.csv (one row per photo), results.jsonl (the full result per photo), report.html (a printable
handout: summary, then per photo the annotated image, tiles, breakdown and low-confidence warnings) and
annotated/ (one JPEG per photo)."""

EPILOG = """\
context per photo (each key: stated default < defaults.json < subfolder defaults.json < sidecar):
  NAME.json beside NAME.jpg is the photo's sidecar, in the `score` input format (seat_wind,
  prevailing_wind, concealed, melds, bonus, winning_tile, self_drawn, flags, ruleset, role). A tile key
  given there replaces what was read ("concealed" given = used as is). defaults.json in FOLDER (and in
  subfolders with --recursive) sets context keys for all photos below it; tile keys are not allowed there.
  A broken sidecar or an unknown key in it is that photo's error; a broken defaults.json stops the run.

without a sidecar, the tiles read become the hand:
  stated defaults: seat_wind E, prevailing_wind E, ruleset app, role winner, self_drawn false, no flags;
  flowers and seasons go to bonus; 4 adjacent tiles in a row with 1 or 2 face-down tiles and equal
  face-up ones are a concealed kong; four equal face-up tiles are an open kong only when the count needs
  it (a winner holds 14 tiles + 1 per kong, so 15 tiles with four 5m = open kong 5555m; with 14 tiles
  they are a pung plus one tile); all other tiles are concealed; the winning tile is the last tile read
  that is concealed. The report lists, per photo, everything that was assumed.

resume and failures:
  results.jsonl gets one line per finished photo (fsynced), so a killed run loses at most the photos in
  flight; --resume keeps every photo whose file, size, mtime and sidecar/defaults are unchanged. CSV,
  JSONL and HTML are rewritten at the end via a temporary file and a rename. Exit 0 when every photo was
  read and scored (a hand that is no mahjong is a result, not a failure), 1 when any photo failed (its
  row says why), 2 for bad usage or a broken defaults.json, 130 when interrupted (outputs hold the photos
  done so far; run again with --resume)."""


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
    low_confidence: float = 0.6
    progress: str = "auto"  # auto, bar, lines, none


def _workers(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError("must be 1 or more (0 = one per CPU core)")
    return value or _cpu_cores()


def _fraction(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if not 0.0 <= value <= 1.0:
        raise argparse.ArgumentTypeError("must lie between 0 and 1")
    return value


def add_parser(subparsers: Any) -> argparse.ArgumentParser:
    """Register `batch` with the `mahjong-nts` dispatcher."""
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "batch",
        help="score a folder of hand photos into CSV, JSON Lines and an HTML report",
        description=DESCRIPTION,
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("folder", type=Path, metavar="FOLDER", help="folder with the hand photos")
    parser.add_argument(
        "--out", type=Path, metavar="DIR", help=f"output folder (default: FOLDER/{DEFAULT_OUT_NAME})"
    )
    parser.add_argument("-r", "--recursive", action="store_true", help="also photos in subfolders")
    parser.add_argument(
        "--resume", action="store_true", help="keep photos already done in DIR/results.jsonl; do the rest"
    )
    parser.add_argument(
        "-j",
        "--workers",
        type=_workers,
        default=1,
        metavar="N",
        help="photos read in parallel, one process and one model session each (default 1; 0 = one per core)",
    )
    parser.add_argument(
        "--embed-images", action="store_true", help="embed the annotated images in report.html (base64)"
    )
    parser.add_argument(
        "--low-confidence",
        type=_fraction,
        default=0.6,
        metavar="P",
        help="warn about tiles read with confidence below P (default 0.6)",
    )
    parser.add_argument(
        "--progress",
        choices=("auto", "bar", "lines", "none"),
        default="auto",
        help="progress on stderr: a bar on a terminal, else one line per photo (default auto)",
    )
    parser.add_argument(
        "-q", "--quiet", action="store_const", const="none", dest="progress", help="no progress"
    )
    parser.set_defaults(run=run)
    return parser


def run(args: argparse.Namespace, reader_factory: Any = None) -> int:
    """The `batch` subcommand; `reader_factory(threads)` builds each worker's tile reader (tests inject)."""
    from mahjong_nts.batch_photo import RecognizerReader

    folder = Path(args.folder)
    options = BatchOptions(
        folder=folder,
        out=Path(args.out) if args.out else folder / DEFAULT_OUT_NAME,
        recursive=args.recursive,
        resume=args.resume,
        workers=args.workers,
        embed_images=args.embed_images,
        low_confidence=args.low_confidence,
        progress=args.progress,
    )
    try:
        return run_batch(options, reader_factory or RecognizerReader)
    except BatchUsageError as problem:
        print(f"mahjong-nts batch: {problem}", file=sys.stderr)
        return 2
    except OSError as problem:  # the output folder: disk full, no permission (photos never get here)
        where = f" {problem.filename}" if problem.filename else ""
        print(f"mahjong-nts batch: cannot write{where}: {problem.strerror or problem}", file=sys.stderr)
        return 2


def run_batch(options: BatchOptions, reader_factory: Any, stdout: TextIO | None = None) -> int:
    """Do the batch; returns the exit code. Raises BatchUsageError for bad usage."""
    from mahjong_nts.batch_record import Journal, is_done, read_records

    folder, out_dir, jobs = _prepare(options)
    journal_path = out_dir / RESULTS_JSONL
    earlier = read_records(journal_path) if options.resume else {}
    records: dict[str, dict[str, Any]] = {
        job.rel: earlier[job.rel] for job in jobs if is_done(earlier.get(job.rel), job.fingerprint, out_dir)
    }
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


def _prepare(options: BatchOptions) -> tuple[Path, Path, list[Any]]:
    """The folder, the output folder (created) and one job per photo; BatchUsageError when impossible."""
    from mahjong_nts.batch_sidecar import FolderError

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
        raise BatchUsageError(f"no JPEG, PNG or WebP photos in {options.folder}{hint}")
    try:
        return folder, out_dir, make_jobs(folder, photos)
    except FolderError as problem:
        raise BatchUsageError(str(problem)) from None


def _write_outputs(
    final: Sequence[dict[str, Any]], out_dir: Path, title: str, options: BatchOptions, summary: dict[str, Any]
) -> None:
    """results.jsonl (sorted, replacing the record), results.csv and report.html, each atomically."""
    from mahjong_nts.batch_outputs import atomic_write_text, write_csv, write_jsonl
    from mahjong_nts.batch_report import render_report

    note = None
    if summary["interrupted"]:
        note = (
            f"Interrupted: {summary['done']} of {summary['photos']} photos done. "
            "Run again with --resume to finish."
        )
    write_jsonl(out_dir / RESULTS_JSONL, final)
    write_csv(out_dir / RESULTS_CSV, final)
    report = render_report(
        final, out_dir, f"Mahjong hands: {title}", options.low_confidence, options.embed_images, note
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


def find_photos(folder: Path, recursive: bool, out_dir: Path) -> list[Path]:
    """JPEG/PNG/WebP files in `folder` (and subfolders), hidden files and output folders skipped, sorted."""
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
        ]
        for name in files:
            path = here / name
            if not name.startswith(".") and path.suffix.lower() in IMAGE_SUFFIXES and path.is_file():
                found.append(path)

    def order(path: Path) -> tuple[tuple[tuple[int, int | str], ...], str]:
        rel = path.relative_to(folder).as_posix()
        return natural_key(rel), rel  # case-insensitive, then exact: the same order on every machine

    return sorted(found, key=order)


def make_jobs(folder: Path, photos: Sequence[Path]) -> list[Any]:
    """One PhotoJob per photo, with context and fingerprint; raises FolderError for a bad defaults.json."""
    from mahjong_nts.batch_photo import PhotoJob
    from mahjong_nts.batch_record import fingerprint
    from mahjong_nts.batch_sidecar import ContextReader

    contexts = ContextReader(folder)
    jobs = []
    for path in photos:
        rel = path.relative_to(folder).as_posix()
        context = contexts.context_for(path)
        try:
            key = fingerprint(rel, path, context)
        except OSError:  # vanished since the listing: the reader reports it in the row
            key = "missing"
        jobs.append(PhotoJob(rel=rel, path=str(path), fingerprint=key, context=context))
    return jobs


# --- workers ------------------------------------------------------------------------------------------------


DIED = "the worker process died reading this photo (crash or out of memory); --resume tries it again"


class WorkerStartError(RuntimeError):
    """The tile reader cannot start in a worker (models missing, ...): nothing can be read."""


_reader: Any = None
_start_error: str | None = None
_out_dir: Path | None = None


def _init_worker(reader_factory: Any, threads: int, out_dir: Path) -> None:
    """Worker initializer: one reader (one model session) per process; Ctrl-C is the parent's to handle."""
    global _reader, _start_error, _out_dir
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    threading.Thread(target=_exit_with_parent, name="exit-with-parent", daemon=True).start()
    _out_dir = out_dir
    try:
        _reader = reader_factory(threads)
    except Exception as problem:
        from mahjong_nts.batch_photo import one_line

        _start_error = f"cannot start the tile recognizer: {type(problem).__name__}: {one_line(problem)}"


def _exit_with_parent() -> None:
    """A worker whose parent was killed (SIGKILL, OOM killer) exits instead of idling on forever."""
    parent = multiprocessing.parent_process()
    if parent is not None and parent.sentinel is not None:
        multiprocessing.connection.wait([parent.sentinel])
        os._exit(1)


def _worker_ready() -> str | None:
    return _start_error


def _read_photo(job: Any) -> dict[str, Any]:
    from mahjong_nts.batch_photo import process_photo

    if _start_error is not None or _out_dir is None:
        raise WorkerStartError(_start_error or "worker not started")
    return process_photo(job, _reader, _out_dir)


def _cpu_cores() -> int:
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


class PhotoWorkers:
    """N worker processes reading photos; a dead worker is replaced and its photos retried once, alone."""

    def __init__(self, count: int, reader_factory: Any, out_dir: Path) -> None:
        self.count = max(1, count)
        self.threads = max(1, _cpu_cores() // self.count)  # ONNX Runtime threads per worker
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

    def run(self, jobs: Sequence[Any]) -> Iterator[dict[str, Any]]:
        """Records in the order photos finish. At most `count` photos are in flight at a time."""
        queue = deque(jobs)
        retried: set[str] = set()  # photos in flight when a worker died: tried once more, alone
        while queue:
            pool = self._pool = self._pool or self._new_pool()
            in_flight: dict[Future[dict[str, Any]], Any] = {}
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


def _failed_record(job: Any, error: str, retry: bool = False) -> dict[str, Any]:
    from mahjong_nts.batch_photo import new_record

    record = new_record(job, error)
    if retry:
        record["retry"] = True  # --resume tries this photo again
    return record


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
