"""Benchmark the recognizer: seconds per photo (model load excluded) and peak memory, at 640 px and at
12 MP (4032x3024 JPEGs made from the sample photos), side by side with the PyPI peer `mahjong-detector`
run in its own throwaway virtual environment on the same photos in the same run.

Each measurement runs in a fresh subprocess so its peak memory is its own. The peer is never imported
here: it runs under its venv's python (default /tmp/peer/bin/python), set up with
  python3 -m venv /tmp/peer && /tmp/peer/bin/pip install mahjong-detector
If that python or package is missing, the benchmark says so and reports ours alone.

Example: .venv/bin/python benchmarks/bench_recognizer.py --photos 12 --json runs/bench.json
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path
from typing import Any

import numpy as np
from PIL import Image

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from datasets.settings_flags import add_set_flag, apply_sets  # noqa: E402
from datasets.yolo import CLASS_TO_LABEL, LABELS, data_dir, parse_label_line  # noqa: E402
from recognizer.pipeline import Settings  # noqa: E402

PEER_NAMES = {"tou": "1z", "nan": "2z", "sha": "3z", "pe": "4z", "haku": "5z", "hatsu": "6z", "chun": "7z"}
RIICHI_KINDS = {code for code in LABELS if code[-1] in "mpsz"}

PEER_WORKER = r"""
import json, resource, sys, time, tracemalloc
from PIL import Image
from mahjong_detector.preprocess import preprocess_image
from mahjong_detector.predict import CLASS_NAMES, predict
paths = json.loads(sys.argv[1])
def run(path):
    img = Image.open(path)
    small, padding = preprocess_image(img)
    found = predict(small, padding)
    return [[d.x1, d.y1, d.x2, d.y2, CLASS_NAMES[d.class_id], float(d.confidence)] for d in found]
run(paths[0])  # warm-up: loads the model, first-run allocations
rss_loaded = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
tracemalloc.start()
times, found = [], []
for path in paths:
    start = time.perf_counter()
    found.append(run(path))
    times.append(time.perf_counter() - start)
_, py_peak = tracemalloc.get_traced_memory()
print(json.dumps({"times": times, "found": found, "rss_loaded_kb": rss_loaded, "py_peak": py_peak,
                  "rss_peak_kb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss}))
"""


def our_worker(paths: list[str], models: str | None, threads: int | None, sets: list[str]) -> dict[str, Any]:
    """Runs in a subprocess: load models, warm up, time load_image + recognize per photo (Settings with
    the --set changes)."""
    from recognizer import LABELS as OUR_LABELS
    from recognizer import Recognizer, load_image

    recognizer = Recognizer(Path(models) if models else None, threads, apply_sets(Settings(), sets))
    recognizer.recognize(load_image(paths[0]))
    rss_loaded = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    tracemalloc.start()
    times, found = [], []
    for path in paths:
        start = time.perf_counter()
        detections = recognizer.recognize(load_image(path))
        times.append(time.perf_counter() - start)
        found.append(
            [[*map(float, box), OUR_LABELS[c], float(p)] for box, c, p in
             zip(detections.xyxy, detections.class_id, detections.confidence, strict=True)]
        )  # fmt: skip
    _, py_peak = tracemalloc.get_traced_memory()
    return {
        "times": times,
        "found": found,
        "rss_loaded_kb": rss_loaded,
        "py_peak": py_peak,
        "rss_peak_kb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss,
    }


def read_truth(label_file: Path, width: int, height: int) -> tuple[np.ndarray, list[str]]:
    """Truth boxes (xyxy pixels) and codes from a YOLO label file of the dataset."""
    boxes, codes = [], []
    for line in label_file.read_text().splitlines():
        for cls, (cx, cy, w, h) in parse_label_line(line):
            boxes.append(
                [(cx - w / 2) * width, (cy - h / 2) * height, (cx + w / 2) * width, (cy + h / 2) * height]
            )
            codes.append(LABELS[int(CLASS_TO_LABEL[cls])])
    return np.array(boxes, np.float32).reshape(-1, 4), codes


def source_photos(count: int) -> list[tuple[Path, Path]]:
    """(photo, label file) pairs: the six samples first, then valid photos of the dataset if present."""
    pairs = [(ROOT / "samples" / f"hand{k}.jpg", ROOT / "samples" / f"hand{k}.txt") for k in range(1, 7)]
    valid = data_dir() / "valid"
    if count > len(pairs) and (valid / "images").is_dir():
        for image in sorted((valid / "images").glob("*.jpg")):
            if image.name not in {p.name for p, _ in pairs}:
                pairs.append((image, valid / "labels" / f"{image.stem}.txt"))
    return pairs[:count]


def make_12mp(pairs: list[tuple[Path, Path]], folder: Path) -> list[Path]:
    """4032x3024 JPEGs: each 640x640 (stretched) photo un-stretched to 4:3 and upscaled."""
    out = []
    for k, (photo, _) in enumerate(pairs):
        target = folder / f"photo{k:03d}_12mp.jpg"
        with Image.open(photo) as img:
            img.convert("RGB").resize((4032, 3024), Image.Resampling.BICUBIC).save(target, quality=92)
        out.append(target)
    return out


def recall_with_code(
    found: list[list[Any]], truth: np.ndarray, codes: list[str], kinds: set[str] | None
) -> tuple:
    """(right, total): truth tiles (of `kinds`) matched by a found box with IoU >= 0.5 and the same code."""
    from datasets.evaluate import iou_matrix

    wanted = [j for j, code in enumerate(codes) if kinds is None or code in kinds]
    if not found:
        return 0, len(wanted)
    boxes = np.array([f[:4] for f in found], np.float32)
    found_codes = [PEER_NAMES.get(f[4], f[4]) for f in found]
    overlap = iou_matrix(boxes, truth)
    used: set[int] = set()
    right = 0
    for j in wanted:
        for i in np.argsort(-overlap[:, j]):
            if overlap[i, j] < 0.5:
                break
            if i not in used and found_codes[i] == codes[j]:
                used.add(int(i))
                right += 1
                break
    return right, len(wanted)


def run_json(cmd: list[str], env: dict[str, str] | None = None) -> dict[str, Any]:
    """Run a worker subprocess and parse the JSON on its last stdout line."""
    done = subprocess.run(cmd, capture_output=True, text=True, env=env, check=False)
    if done.returncode != 0:
        raise RuntimeError(" ".join(done.stderr.strip().splitlines()[-1:]) or f"exit {done.returncode}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def peer_available(python: str) -> str | None:
    """None when the peer can run, else the reason it cannot."""
    if not Path(python).exists():
        return f"peer python {python} not found (create the venv: see this script's docstring)"
    probe = subprocess.run(
        [python, "-c", "import mahjong_detector"], capture_output=True, text=True, check=False
    )
    if probe.returncode != 0:
        return f"mahjong-detector not importable with {python}: {probe.stderr.strip().splitlines()[-1:]}"
    return None


def describe(name: str, result: dict[str, Any]) -> dict[str, Any]:
    times = result["times"]
    return {
        "who": name,
        "photos": len(times),
        "mean_s": round(statistics.fmean(times), 4),
        "median_s": round(statistics.median(times), 4),
        "rss_peak_mb": round(result["rss_peak_kb"] / 1024, 1),
        "rss_after_load_mb": round(result["rss_loaded_kb"] / 1024, 1),
        "python_alloc_peak_mb": round(result["py_peak"] / 2**20, 1),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--photos", type=int, default=12, help="number of photos (samples first, then valid)")
    parser.add_argument("--models", help="model folder (default: the packaged models)")
    parser.add_argument("--threads", type=int, default=None, help="our ONNX Runtime threads (default: ORT's)")
    parser.add_argument("--peer-python", default="/tmp/peer/bin/python", help="python of the peer's venv")
    parser.add_argument("--json", type=Path, help="write the numbers here")
    add_set_flag(parser)
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    parser.add_argument("--paths", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker == "ours":
        print(json.dumps(our_worker(json.loads(args.paths), args.models, args.threads, args.set)))
        return 0
    try:  # a wrong --set is told before any photo is made or timed, not as the worker's traceback
        apply_sets(Settings(), args.set)
    except ValueError as exc:
        print(f"bench_recognizer: {exc}", file=sys.stderr)
        return 2

    pairs = source_photos(args.photos)
    peer_problem = peer_available(args.peer_python)
    if peer_problem:
        print(f"peer not run: {peer_problem}", file=sys.stderr)
    report: dict[str, Any] = {"photos": len(pairs), "cpu_count": os.cpu_count(), "runs": []}
    with tempfile.TemporaryDirectory(prefix="bench-") as tmp:
        sets = {"640x640": [p for p, _ in pairs], "12MP 4032x3024": make_12mp(pairs, Path(tmp))}
        for size, photos in sets.items():
            paths = json.dumps([str(p) for p in photos])
            truths = []
            for (_, labels), used in zip(pairs, photos, strict=True):
                with Image.open(used) as img:
                    w, h = img.size
                truths.append(read_truth(labels, w, h) if labels.is_file() else (np.zeros((0, 4)), []))
            cmd = [sys.executable, __file__, "--worker", "ours", "--paths", paths]
            cmd += ["--models", args.models] if args.models else []
            cmd += ["--threads", str(args.threads)] if args.threads else []
            cmd += [f"--set={item}" for item in args.set]
            try:
                results = {"ours": run_json(cmd)}
            except RuntimeError as exc:
                print(f"bench_recognizer: our recognizer failed: {exc}", file=sys.stderr)
                return 2
            if not peer_problem:
                try:
                    results["peer mahjong-detector"] = run_json([args.peer_python, "-c", PEER_WORKER, paths])
                except RuntimeError as exc:
                    print(f"peer failed at {size}: {exc}", file=sys.stderr)
            for who, result in results.items():
                row = describe(who, result) | {"size": size}
                for kinds_name, kinds in (("all", None), ("riichi34", RIICHI_KINDS)):
                    counts = [
                        recall_with_code(f, t, c, kinds)
                        for f, (t, c) in zip(result["found"], truths, strict=True)
                    ]
                    right, total = sum(r for r, _ in counts), sum(t for _, t in counts)
                    row[f"recall_code_{kinds_name}"] = round(right / max(total, 1), 4)
                report["runs"].append(row)
    print_table(report)
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(report, indent=1))
    return 0


def print_table(report: dict[str, Any]) -> None:
    print(f"{report['photos']} photos, {report['cpu_count']} CPUs (model load excluded; decode included)")
    print(f"{'size':<15} {'who':<22} {'mean s':>7} {'median s':>8} {'peak RSS MB':>11} {'RSS loaded':>10} "
          f"{'py peak MB':>10} {'recall+code':>11} {'riichi34':>8}")  # fmt: skip
    for r in report["runs"]:
        print(f"{r['size']:<15} {r['who']:<22} {r['mean_s']:>7.3f} {r['median_s']:>8.3f} "
              f"{r['rss_peak_mb']:>11.1f} {r['rss_after_load_mb']:>10.1f} {r['python_alloc_peak_mb']:>10.1f} "
              f"{r['recall_code_all']:>11.3f} {r['recall_code_riichi34']:>8.3f}")  # fmt: skip
    by_size: dict[str, dict[str, dict[str, Any]]] = {}
    for r in report["runs"]:
        by_size.setdefault(r["size"], {})[r["who"]] = r
    for size, rows in by_size.items():
        if "ours" in rows and len(rows) == 2:
            peer = next(v for k, v in rows.items() if k != "ours")
            ratio = rows["ours"]["median_s"] / max(peer["median_s"], 1e-9)
            print(f"{size}: ours / peer median time = {ratio:.2f}; peak RSS ours / peer = "
                  f"{rows['ours']['rss_peak_mb'] / max(peer['rss_peak_mb'], 1e-9):.2f}")  # fmt: skip


if __name__ == "__main__":
    sys.exit(main())
