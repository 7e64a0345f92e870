"""What both training scripts share: the run's common options, its log, and loading the data it trains on."""

from __future__ import annotations

import argparse
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import torch

from datasets.augment import load_images
from datasets.yolo import read_folder, read_split, require_data_dir


def log(path: Path, msg: str) -> None:
    """Print and append to the run log."""
    line = f"{time.strftime('%H:%M:%S')} {msg}"
    print(line, flush=True)
    with path.open("a") as f:
        f.write(line + "\n")


def add_run_args(ap: argparse.ArgumentParser) -> None:
    """Options every training run has: threads, seed, extra synthetic scenes, fine-tuning, timing runs."""
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument(
        "--synthetic", action="append", default=[], help="extra YOLO folder from datasets.synthetic"
    )
    ap.add_argument("--synthetic-limit", type=int, default=0, help="use at most this many scenes per folder")
    ap.add_argument("--init", help="start from this checkpoint's weights (fine-tuning)")
    ap.add_argument("--limit", type=int, default=0, help="use only this many train images (timing runs)")


@dataclass
class RunData:
    """A run's folder and log, its train/valid samples and their decoded images."""

    out: Path
    logf: Path
    train: list
    valid: list
    train_imgs: list[np.ndarray]
    valid_imgs: list[np.ndarray]


def start_run(args: argparse.Namespace) -> RunData:
    """Seed torch, make the run folder, read the splits (plus synthetic scenes) and decode the images."""
    torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    logf = out / "log.txt"
    root = require_data_dir(args.data)
    train = read_split(root, "train")
    valid = read_split(root, "valid")
    if args.limit:
        train, valid = train[: args.limit], valid[: max(args.limit // 4, 1)]
    for folder in args.synthetic:
        scenes = read_folder(Path(folder))
        train += scenes[: args.synthetic_limit] if args.synthetic_limit else scenes
    log(logf, f"start {vars(args)}; train {len(train)} images, valid {len(valid)} images")
    return RunData(
        out, logf, train, valid, load_images([s.image for s in train]), load_images([s.image for s in valid])
    )
