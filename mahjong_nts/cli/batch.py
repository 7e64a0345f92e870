"""`mahjong-nts batch FOLDER`: the options and help; the run itself is `mahjong_nts.batch.runner`."""

from __future__ import annotations

import argparse
import functools
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from mahjong_nts.batch.runner import DEFAULT_OUT_NAME, BatchOptions, BatchUsageError, cpu_cores, run_batch
from mahjong_nts.cli.common import fraction

if TYPE_CHECKING:  # the photo modules load NumPy and scoring: only when a batch really runs
    from mahjong_nts.batch.photo import ReaderFactory

DESCRIPTION = """\
Read and score every hand photo (JPEG, PNG, WebP, HEIC, AVIF) in FOLDER, in sorted order, and write to --out:
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

without a sidecar, the tiles read become the hand as `recognize --hand` proposes it (docs/READING.md):
  stated defaults: seat_wind E, prevailing_wind E, ruleset app, role winner, self_drawn false, no flags;
  with several rows (other players' tiles, the wall) the hand is the row of the largest tiles among rows
  holding a hand's count, else two neighbouring rows that do together, else all tiles; flowers and seasons
  go to bonus; 4 neighbouring tiles with 1 or 2 face-down tiles and equal face-up ones are a concealed
  kong; sets laid apart from the rack are open; four equal face-up tiles are an open kong only when the
  count needs it (a winner holds 14 tiles + 1 per kong); the winning tile is the tile set apart, else the
  last tile read that is concealed. The report lists, per photo, everything that was assumed.

resume and failures:
  results.jsonl gets one line per finished photo (fsynced), so a killed run loses at most the photos in
  flight; --resume keeps every photo whose file, size, mtime and sidecar/defaults are unchanged. CSV,
  JSONL and HTML are rewritten at the end via a temporary file and a rename. Exit 0 when every photo was
  read and scored (a hand that is no mahjong is a result, not a failure), 1 when any photo failed (its
  row says why), 2 for bad usage or a broken defaults.json, 130 when interrupted (outputs hold the photos
  done so far; run again with --resume)."""


def _workers(text: str) -> int:
    """argparse type of --workers: 0 = one per CPU core; more than the cores is capped at the cores (each
    worker holds a model session: 100 workers on 2 cores took 16 GB and ran slower than 2)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError("must be 1 or more (0 = one per CPU core)")
    cores = cpu_cores()
    if value > cores:
        print(f"mahjong-nts batch: --workers {value} capped at {cores} (the CPU cores)", file=sys.stderr)
    return min(value or cores, cores)


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
        "--set-profile",
        metavar="FILE",
        help="read the tiles with a set profile made by `mahjong-nts learn-set` (the club's own set); "
        "--resume keeps photos already read without it",
    )
    parser.add_argument(
        "--low-confidence",
        type=fraction,
        default=None,
        metavar="P",
        help="warn about tiles read with confidence below P (default: the threshold below which the app and "
        "recognize call a tile uncertain)",
    )
    parser.add_argument(
        "--progress",
        choices=("auto", "bar", "lines", "none"),
        default="auto",
        help="progress on stderr: a bar on a terminal, else one line per photo (default auto)",
    )
    parser.add_argument(
        "--lang", choices=("nl", "en"), default="nl", help="language of report.html (default nl: Dutch)"
    )
    parser.add_argument(
        "-q", "--quiet", action="store_const", const="none", dest="progress", help="no progress"
    )
    parser.set_defaults(run=run)
    return parser


def run(args: argparse.Namespace, reader_factory: ReaderFactory | None = None) -> int:
    """The `batch` subcommand; `reader_factory(threads)` builds each worker's tile reader (tests inject)."""
    from mahjong_nts.batch.photo import RecognizerReader

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
        lang=args.lang,
    )
    factory: ReaderFactory = reader_factory or RecognizerReader
    if args.set_profile is not None:
        from recognizer.errors import ProfileError
        from recognizer.set_profile import read_profile

        try:
            read_profile(args.set_profile)  # a bad file stops here, before any worker starts
        except ProfileError as problem:
            print(f"mahjong-nts batch: {problem}", file=sys.stderr)
            return 2
        if reader_factory is None:  # an injected reader (tests) reads as it was made
            factory = functools.partial(RecognizerReader, set_profile=args.set_profile)
    try:
        return run_batch(options, factory)
    except BatchUsageError as problem:
        print(f"mahjong-nts batch: {problem}", file=sys.stderr)
        return 2
    except OSError as problem:  # the output folder: disk full, no permission (photos never get here)
        where = f" {problem.filename}" if problem.filename else ""
        print(f"mahjong-nts batch: cannot write{where}: {problem.strerror or problem}", file=sys.stderr)
        return 2
