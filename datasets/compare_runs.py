"""Is a candidate's change on a set more than the noise of which photos the set happens to hold? Two JSON
reports of the same photos (datasets.evaluate, evaluate_world, evaluate_conditions: their "per_photo"
rows), compared by a paired bootstrap: the photos drawn again with replacement, the same draw for both
runs, `rounds` times. A change counts only when its 95 % interval leaves zero: "falls" / "gains", else
"within noise". Used for the rule's conditions that must not fall (benchmarks/RESULTS.md, session 18).

    .venv/bin/python -m datasets.compare_runs runs/eval/v11_validcond.json runs/eval/cand_validcond.json
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

ROUNDS = 2000
"""Bootstrap draws: the interval's ends move by a few ten-thousandths between seeds at this count (seed 0
by default, so that a verdict is the same on every run)."""


@dataclass(frozen=True)
class Change:
    """One set's tile F1 and share of photos with every tile right, old and new, and the 95 % intervals of
    new minus old."""

    place: str
    photos: int
    f1: tuple[float, float]
    f1_interval: tuple[float, float]
    all_right: tuple[float, float]
    all_right_interval: tuple[float, float]

    @property
    def verdict(self) -> str:
        """How the tile F1 moved: "falls", "gains" or "within noise"."""
        low, high = self.f1_interval
        return "falls" if high < 0 else "gains" if low > 0 else "within noise"


def per_photo_places(report: Any, path: str = "") -> Iterator[tuple[str, np.ndarray]]:
    """(place, rows) for every "per_photo" list in a report; place names the keys leading to it."""
    if isinstance(report, dict):
        for key, value in report.items():
            if key == "per_photo" and isinstance(value, list):
                rows = np.asarray(value, dtype=np.float64).reshape(-1, 4)
                yield path or "(top)", rows
            else:
                yield from per_photo_places(value, f"{path}/{key}" if path else str(key))


def f1_of(rows: np.ndarray) -> np.ndarray:
    """Tile F1 of photo rows (..., photos, 4): twice the tiles right over found plus truth."""
    return 2 * rows[..., 0].sum(-1) / np.maximum(rows[..., 1].sum(-1) + rows[..., 2].sum(-1), 1)


def compare(place: str, old: np.ndarray, new: np.ndarray, rounds: int = ROUNDS, seed: int = 0) -> Change:
    """The paired bootstrap of one set (rows of the same photos in the same order in both runs)."""
    if old.shape != new.shape:
        raise ValueError(f"{place}: {len(old)} photos in one report and {len(new)} in the other")
    draws = np.random.default_rng(seed).integers(0, len(old), (rounds, len(old)))
    f1_diff = f1_of(new[draws]) - f1_of(old[draws])
    right_diff = new[draws, 3].mean(axis=1) - old[draws, 3].mean(axis=1)

    def interval(values: np.ndarray) -> tuple[float, float]:
        low, high = np.percentile(values, [2.5, 97.5])
        return round(float(low), 4), round(float(high), 4)

    return Change(
        place,
        len(old),
        (round(float(f1_of(old)), 4), round(float(f1_of(new)), 4)),
        interval(f1_diff),
        (round(float(old[:, 3].mean()), 4), round(float(new[:, 3].mean()), 4)),
        interval(right_diff),
    )


def compare_reports(old: Any, new: Any, rounds: int = ROUNDS, seed: int = 0) -> list[Change]:
    """Every set both reports hold per-photo rows for."""
    theirs = dict(per_photo_places(new))
    return [
        compare(place, rows, theirs[place], rounds, seed)
        for place, rows in per_photo_places(old)
        if place in theirs
    ]


def read_report(path: Path) -> Any | None:
    """A JSON report, or None (with a message) when it cannot be read."""
    try:
        return json.loads(path.read_text())
    except (OSError, ValueError) as exc:
        print(f"compare_runs: cannot read {path}: {exc}", file=sys.stderr)
        return None


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("old", type=Path, help="the report of the models to beat")
    ap.add_argument("new", type=Path, help="the candidate's report of the same photos")
    ap.add_argument("--rounds", type=int, default=ROUNDS)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)
    old, new = read_report(args.old), read_report(args.new)
    if old is None or new is None:
        return 2
    try:
        changes = compare_reports(old, new, max(args.rounds, 100), args.seed)
    except ValueError as exc:
        print(f"compare_runs: {exc}", file=sys.stderr)
        return 2
    if not changes:
        print("compare_runs: no set with per-photo rows in both reports", file=sys.stderr)
        return 2
    for c in changes:
        print(
            f"{c.place}: {c.photos} photos, tile F1 {c.f1[0]:.4f} -> {c.f1[1]:.4f} "
            f"(95 % {c.f1_interval[0]:+.4f} .. {c.f1_interval[1]:+.4f}: {c.verdict}); every tile right "
            f"{c.all_right[0]:.3f} -> {c.all_right[1]:.3f} "
            f"(95 % {c.all_right_interval[0]:+.3f} .. {c.all_right_interval[1]:+.3f})"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
