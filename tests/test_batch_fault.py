"""Fault test (issue 16): a batch killed with SIGKILL at a random moment, then resumed, ends with the same
results.csv and results.jsonl as a run that was never interrupted (only the per-photo timing differs)."""

from __future__ import annotations

import json
import os
import random
import shutil
import signal
import time
from pathlib import Path
from typing import Any

import pytest
from test_batch import SAMPLES, start_batch

PHOTOS = 8
DELAY = "0.15"  # seconds per photo in the fake reader: a run lasts a few seconds, kills land anywhere in it


def outputs(out: Path) -> tuple[str, list[dict[str, Any]]]:
    """results.csv as text and results.jsonl's records without their timing."""
    records = [json.loads(line) for line in (out / "results.jsonl").read_text(encoding="utf-8").splitlines()]
    for record in records:
        record.pop("seconds", None)
    return (out / "results.csv").read_text(encoding="utf-8"), records


def finish(folder: Path, out: Path, *extra: str) -> int:
    process = start_batch(folder, out, *extra, env={"BATCH_FAKE_DELAY": DELAY})
    process.communicate(timeout=180)
    return process.returncode


@pytest.fixture(scope="module")
def folder_and_reference(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, float]:
    """The photo folder (with one photo that fails) and an uninterrupted run's output and duration."""
    root = tmp_path_factory.mktemp("fault")
    folder = root / "photos"
    folder.mkdir()
    for n in range(1, PHOTOS + 1):
        shutil.copy(SAMPLES / f"hand{n % 6 + 1}.jpg", folder / f"{n:02d}-hand{n % 6 + 1}.jpg")
    (folder / "03-hand4.json").write_text(json.dumps({"seat_wind": "S"}))
    reference = root / "reference"
    start = time.monotonic()
    assert finish(folder, reference) in (0, 1)
    return folder, reference, time.monotonic() - start


@pytest.mark.slow
@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_sigkill_at_a_random_moment_then_resume_gives_the_same_outputs(
    folder_and_reference: tuple[Path, Path, float], tmp_path: Path, seed: int
) -> None:
    folder, reference, duration = folder_and_reference
    out = tmp_path / "out"
    rng = random.Random(seed)
    kills = 0
    for _ in range(2):  # up to two kills in one run's life, each at a random moment
        process = start_batch(folder, out, "--resume", env={"BATCH_FAKE_DELAY": DELAY})
        time.sleep(rng.uniform(0.05, duration))
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)  # the parent and its workers, as a power cut would
            kills += 1
        process.communicate(timeout=60)
    assert finish(folder, out, "--resume") in (0, 1)
    assert outputs(out) == outputs(reference), f"seed {seed}, {kills} kills"
