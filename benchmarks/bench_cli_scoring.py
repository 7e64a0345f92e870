"""Whole-process JSON Lines scoring: `mahjong-nts score --json hands.jsonl` against the riichi `mahjong`
package's HandCalculator on the same hands, each in a fresh process, start-up included.

Both sides do the same job: start Python, read the hands from a JSON Lines file, score each one and write
one JSON line per hand to stdout (ours: the CONTRACT result object; riichi: han, fu, cost, yaku names and
error). The hands are the seeded corpus of `bench_scoring.py` (distinct random winning hands), converted
for riichi as that benchmark does. Wall-clock time of each process from start to exit, best and median of
`--repeat` rounds with the two sides alternating, and CPU time (user + system, the figure to trust on a
busy machine); also the start-up alone (one hand in). Our modules are byte-compiled first, as an installed
package is (pip compiles at install; riichi's are), so neither side pays for compiling its source.

    .venv/bin/python benchmarks/bench_cli_scoring.py [--hands 4000] [--seed 7] [--repeat 5]
"""

from __future__ import annotations

import argparse
import compileall
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from bench_scoring import Case, build_corpus  # noqa: E402

from scoring import hand_to_dict  # noqa: E402

RIICHI_SCRIPT = """
import json, sys
from mahjong.hand_calculating.hand import HandCalculator
from mahjong.hand_calculating.hand_config import HandConfig
from mahjong.meld import Meld

estimate = HandCalculator.estimate_hand_value
out = []
with open(sys.argv[1], encoding="utf-8") as handle:
    for line in handle:
        case = json.loads(line)
        melds = [Meld(meld_type=m["type"], tiles=m["tiles"], opened=m["opened"]) for m in case["melds"]]
        config = HandConfig(is_tsumo=case["tsumo"], player_wind=case["seat"], round_wind=case["round"])
        result = estimate(case["tiles"], case["win"], melds=melds, config=config)
        out.append(json.dumps({
            "han": result.han, "fu": result.fu, "cost": result.cost,
            "yaku": [str(y) for y in (result.yaku or [])], "error": result.error,
        }, ensure_ascii=False))
        if len(out) >= 512:
            sys.stdout.write("\\n".join(out) + "\\n")
            out.clear()
if out:
    sys.stdout.write("\\n".join(out) + "\\n")
"""


def riichi_line(case: Case) -> str:
    """One case in the riichi engine's terms, as a JSON line its script reads back."""
    melds = [{"type": m.type, "tiles": list(m.tiles), "opened": m.opened} for m in case.melds]
    config = case.config
    return json.dumps(
        {
            "tiles": list(case.tiles_136),
            "win": case.win_136,
            "melds": melds,
            "tsumo": config.is_tsumo,
            "seat": config.player_wind,
            "round": config.round_wind,
        }
    )


def our_command() -> list[str]:
    """The installed console script, else the module."""
    script = Path(sys.executable).with_name("mahjong-nts")
    return [str(script)] if script.exists() else [sys.executable, "-m", "mahjong_nts"]


@dataclass
class Run:
    """One fresh process: wall-clock seconds, CPU seconds (user + system) and the lines it wrote."""

    wall: float
    cpu: float
    lines: int


def timed(command: Sequence[str]) -> Run:
    """Run `command` once in a fresh process and measure it."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(command, capture_output=True, env=env, cwd=ROOT, check=False)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode not in (0, 1):
        raise SystemExit(f"{command[0]} failed ({done.returncode}): {done.stderr.decode()[-500:]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return Run(wall, cpu, done.stdout.count(b"\n"))


def rounds_of(commands: dict[str, list[str]], rounds: int) -> dict[str, list[Run]]:
    """Every round's run per side, sides alternating; line counts must agree."""
    runs: dict[str, list[Run]] = {name: [] for name in commands}
    for round_ in range(rounds):
        order = list(commands) if round_ % 2 == 0 else list(reversed(commands))
        for name in order:
            runs[name].append(timed(commands[name]))
    lines = {name: runs[name][-1].lines for name in commands}
    if len(set(lines.values())) != 1:
        raise SystemExit(f"the two sides wrote different numbers of lines: {lines}")
    return runs


def best(runs: list[Run]) -> Run:
    """The best wall-clock and the best CPU time of the rounds."""
    return Run(min(r.wall for r in runs), min(r.cpu for r in runs), runs[0].lines)


def median(runs: list[Run]) -> Run:
    """The median wall-clock and the median CPU time of the rounds."""
    return Run(statistics.median(r.wall for r in runs), statistics.median(r.cpu for r in runs), runs[0].lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=4000)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--repeat", type=int, default=5, help="rounds; each side's best counts")
    args = parser.parse_args(argv)

    corpus = build_corpus(args.hands, args.seed)
    compileall.compile_dir(ROOT / "scoring", quiet=1)
    compileall.compile_dir(ROOT / "mahjong_nts", quiet=1)
    with tempfile.TemporaryDirectory(prefix="bench-cli-") as tmp:
        folder = Path(tmp)
        ours_in, theirs_in = folder / "hands.jsonl", folder / "riichi.jsonl"
        ours_in.write_text("".join(json.dumps(hand_to_dict(c.ours)) + "\n" for c in corpus), encoding="utf-8")
        theirs_in.write_text("".join(riichi_line(c) + "\n" for c in corpus), encoding="utf-8")
        script = folder / "riichi_score.py"
        script.write_text(RIICHI_SCRIPT, encoding="utf-8")
        one_ours, one_theirs = folder / "one.jsonl", folder / "one-riichi.jsonl"
        one_ours.write_text(ours_in.read_text().splitlines()[0] + "\n")
        one_theirs.write_text(theirs_in.read_text().splitlines()[0] + "\n")

        def sides(ours: Path, theirs: Path) -> dict[str, list[str]]:
            return {
                "ours": [*our_command(), "score", "--json", str(ours), "--compact"],
                "riichi": [sys.executable, str(script), str(theirs)],
            }

        startup = rounds_of(sides(one_ours, one_theirs), args.repeat)
        whole = rounds_of(sides(ours_in, theirs_in), args.repeat)

    n = len(corpus)
    print(f"{n} hands (seed {args.seed}), each side a fresh process, {args.repeat} rounds:")
    labels = {"ours": "ours: mahjong-nts score --json", "riichi": "riichi: HandCalculator script"}
    for title, summary in (("best", best), ("median", median)):
        one = {name: summary(runs) for name, runs in startup.items()}
        all_ = {name: summary(runs) for name, runs in whole.items()}
        print(
            f"{title + ' of the rounds':34}{'1 hand: wall':>13}{'cpu':>8}{f'{n} hands: wall':>17}{'cpu':>8}"
            f"{'hands/s (cpu)':>15}"
        )
        for name in ("ours", "riichi"):
            print(
                f"{labels[name]:34}{one[name].wall:11.3f} s{one[name].cpu:6.3f} s{all_[name].wall:15.3f} s"
                f"{all_[name].cpu:6.3f} s{n / all_[name].cpu:15.0f}"
            )
        print(
            f"{'ratio ours/theirs (speed)':34}{one['riichi'].wall / one['ours'].wall:13.2f}"
            f"{one['riichi'].cpu / one['ours'].cpu:8.2f}{all_['riichi'].wall / all_['ours'].wall:17.2f}"
            f"{all_['riichi'].cpu / all_['ours'].cpu:8.2f}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
