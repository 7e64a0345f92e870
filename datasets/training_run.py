"""What both training scripts share: the run's common options, its log, and loading the data it trains on."""

from __future__ import annotations

import argparse
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import torch

from datasets.audit import AuditMismatch, audited, load_fixes
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
    ap.add_argument("--device", default="cpu", help='where the network trains: "cpu" or "cuda"')
    ap.add_argument(
        "--workers",
        type=int,
        default=0,
        help="processes that make the training batches (0: this process, as every recipe before v13)",
    )
    ap.add_argument(
        "--freeze-bn",
        action="store_true",
        help="keep BatchNorms on their running statistics (fine-tuning from datasets.onnx_init weights)",
    )


@dataclass
class RunData:
    """A run's folder and log, its train/valid samples and their decoded images."""

    out: Path
    logf: Path
    train: list
    valid: list
    train_imgs: list[np.ndarray]
    valid_imgs: list[np.ndarray]
    real: int = 0
    """How many of `train` (the first ones) are the dataset's real photos; the rest are synthetic scenes."""


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
    try:  # best epochs are picked on the labels corrected by eye
        valid, corrected = audited(valid, load_fixes())
    except AuditMismatch as exc:  # another version of the dataset: its labels as they are
        corrected = 0
        log(logf, f"valid labels not corrected: {exc}")
    if args.limit:
        train, valid = train[: args.limit], valid[: max(args.limit // 4, 1)]
    real = len(train)
    for folder in args.synthetic:
        scenes = read_folder(Path(folder))
        train += scenes[: args.synthetic_limit] if args.synthetic_limit else scenes
    log(
        logf,
        f"start {vars(args)}; train {len(train)} images, valid {len(valid)} images "
        f"({corrected} valid labels corrected by datasets/valid_audit.json)",
    )
    return RunData(
        out,
        logf,
        train,
        valid,
        load_images([s.image for s in train]),
        load_images([s.image for s in valid]),
        real,
    )


@dataclass
class Optimisation:
    """The optimiser and one-cycle schedule of a run, and where it stands (resumed from `last.pt` or new)."""

    opt: torch.optim.Optimizer
    sched: torch.optim.lr_scheduler.OneCycleLR
    start: int
    best: float


def start_optimisation(
    model: torch.nn.Module, args: argparse.Namespace, run: RunData, total_steps: int, pct_start: float
) -> Optimisation:
    """AdamW + one-cycle lr for `model` on `--device`; weights from `--init` when given; resumes from the
    run's last.pt (a resumed optimiser's state follows the weights to their device as it loads)."""
    model.to(args.device)
    if args.init:
        model.load_state_dict(torch.load(args.init, weights_only=False, map_location="cpu")["model"])
    opt = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=5e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(
        opt, max_lr=args.lr, total_steps=total_steps, pct_start=pct_start
    )
    state = Optimisation(opt, sched, 0, -1.0)
    last = run.out / "last.pt"
    if last.exists():
        ck = torch.load(last, weights_only=False, map_location="cpu")
        model.load_state_dict(ck["model"])
        opt.load_state_dict(ck["opt"])
        sched.load_state_dict(ck["sched"])
        state.start, state.best = ck["epoch"] + 1, ck["best"]
        log(run.logf, f"resumed at epoch {state.start}, best {state.best:.4f}")
    return state


def cpu_state(model: torch.nn.Module) -> dict[str, torch.Tensor]:
    """The network's weights on the CPU, so a checkpoint made on a GPU loads anywhere."""
    return {key: value.detach().cpu() for key, value in model.state_dict().items()}


def save_last(
    run: RunData,
    model: torch.nn.Module,
    state: Optimisation,
    epoch: int,
    best: float,
    args: argparse.Namespace,
) -> None:
    """Write last.pt atomically (temp file, then rename), so a stop mid-write loses nothing."""
    checkpoint = {
        "model": cpu_state(model),
        "opt": state.opt.state_dict(),
        "sched": state.sched.state_dict(),
        "epoch": epoch,
        "best": best,
        "args": vars(args),
    }
    torch.save(checkpoint, run.out / "last.tmp")
    (run.out / "last.tmp").replace(run.out / "last.pt")
