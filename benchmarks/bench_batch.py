"""Benchmark `mahjong-nts batch`: photos per second for a folder of N photos, with --workers 1 and 2, at
640 px (the sample photos as they are) and at 12 MP (4032x3024 JPEGs upscaled from the samples).

Each run is the real command in a fresh process, timed from start to exit, so the figure includes what a
user waits for: process and worker start-up, model loading, reading, annotating, scoring, fsync per photo
and writing CSV/JSONL/HTML. The photo folders are made once in a temporary folder.

Example: .venv/bin/python benchmarks/bench_batch.py --photos 100 --json runs/bench_batch.json
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from PIL import Image

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = sorted((ROOT / "samples").glob("hand*.jpg"))
SIZES = {"640px": None, "12MP": (4032, 3024)}


def make_folder(folder: Path, photos: int, size: tuple[int, int] | None) -> None:
    """`photos` JPEGs cycling through the samples; upscaled to `size` (phone-camera quality) when given."""
    folder.mkdir(parents=True)
    sources = []
    for sample in SAMPLES:
        if size is None:
            sources.append(sample)
            continue
        target = folder.parent / f"{folder.name}-{sample.name}"
        with Image.open(sample) as image:
            image.convert("RGB").resize(size, Image.Resampling.BICUBIC).save(target, quality=92)
        sources.append(target)
    for index in range(photos):
        shutil.copy(sources[index % len(sources)], folder / f"photo{index:04d}.jpg")


def run_batch(folder: Path, out: Path, workers: int, env: dict[str, str]) -> dict[str, Any]:
    """Run the command once; wall seconds, exit code and its JSON summary."""
    command = [sys.executable, "-m", "mahjong_nts", "batch", str(folder), "--out", str(out), "-q"]
    command += ["--workers", str(workers)]
    started = time.perf_counter()
    done = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, check=False)
    seconds = time.perf_counter() - started
    if done.returncode not in (0, 1):
        raise SystemExit(f"batch failed (exit {done.returncode}): {done.stderr.strip()}")
    summary = json.loads(done.stdout)
    return {"seconds": round(seconds, 2), "exit": done.returncode, "summary": summary}


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--photos", type=int, default=100)
    parser.add_argument("--workers", default="1,2", help="comma-separated worker counts (default 1,2)")
    parser.add_argument("--sizes", default="640px,12MP", help="comma-separated: 640px, 12MP")
    parser.add_argument("--models", type=Path, help="model folder (sets MAHJONG_NTS_MODELS)")
    parser.add_argument("--json", type=Path, help="also write the results here")
    args = parser.parse_args()
    env = {**os.environ}
    if args.models:
        env["MAHJONG_NTS_MODELS"] = str(args.models.resolve())
    workers = [int(value) for value in args.workers.split(",")]
    sizes = args.sizes.split(",")
    results = []
    print(f"cores {os.cpu_count()}, load average {os.getloadavg()[0]:.2f} at start", file=sys.stderr)
    with tempfile.TemporaryDirectory(prefix="bench_batch_") as temp:
        for size_name in sizes:
            folder = Path(temp) / size_name
            make_folder(folder, args.photos, SIZES[size_name])
            for count in workers:
                out = Path(temp) / f"out-{size_name}-{count}"
                run = run_batch(folder, out, count, env)
                rate = args.photos / run["seconds"]
                row = {
                    "size": size_name,
                    "workers": count,
                    "photos": args.photos,
                    **run,
                    "photos_per_s": rate,
                }
                results.append(row)
                failed, load = run["summary"]["errors"], os.getloadavg()[0]
                print(
                    f"{size_name:>6}  workers {count}: {args.photos} photos in {run['seconds']:.1f} s = "
                    f"{rate:.2f} photos/s  (failed {failed}, load {load:.2f})",
                    flush=True,
                )
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(results, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
