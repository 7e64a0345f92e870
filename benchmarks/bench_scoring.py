"""Throughput of our scorer against the riichi `mahjong` package's HandCalculator on the same hands.

Builds a seeded corpus of distinct random winning hands (four sets and a pair; some sets declared open,
some kongs, concealed or open), scores every hand once with `score_hand(...).to_dict()` and once with
`HandCalculator.estimate_hand_value` (136-tile format, winning tile, open melds as `Meld`, tsumo and winds
in `HandConfig`), and prints hands per second for both, the ratio ours/theirs, and peak memory. A cold
round empties both packages' functools caches first and scores fresh copies of the hand objects.

    .venv/bin/python benchmarks/bench_scoring.py [--hands 4000] [--seed 7] [--repeat 3] [--profile]
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import io
import pstats
import random
import resource
import sys
import time
import tracemalloc
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from mahjong.constants import EAST, NORTH, SOUTH, WEST
from mahjong.hand_calculating.hand import HandCalculator
from mahjong.hand_calculating.hand_config import HandConfig
from mahjong.meld import Meld as RiichiMeld

from scoring import TILE_CODES, Hand, Meld, score_hand

PLAYING = TILE_CODES[:34]
WINDS = ("E", "S", "W", "N")
RIICHI_WIND = {"E": EAST, "S": SOUTH, "W": WEST, "N": NORTH}


@dataclass(frozen=True)
class Case:
    """One winning hand in both engines' terms."""

    ours: Hand
    tiles_136: tuple[int, ...]
    win_136: int
    melds: tuple[RiichiMeld, ...]
    config: HandConfig


def random_groups(rng: random.Random) -> list[list[int]] | None:
    """Four sets (chow, pung or kong) and a pair as kind indices; None when a kind would exceed four."""
    counts = [0] * 34
    groups: list[list[int]] = []
    for _ in range(4):
        roll = rng.random()
        if roll < 0.5:
            suit, start = rng.randrange(3), rng.randrange(7)
            group = [suit * 9 + start + i for i in range(3)]
        elif roll < 0.9:
            group = [rng.randrange(34)] * 3
        else:
            group = [rng.randrange(34)] * 4
        groups.append(group)
    groups.append([rng.randrange(34)] * 2)
    for group in groups:
        for kind in group:
            counts[kind] += 1
    return groups if max(counts) <= 4 else None


def build_case(rng: random.Random, groups: list[list[int]]) -> tuple[Any, Case]:
    """Declare some sets (every kong is declared), pick the winning tile, and express it for both engines."""
    copies = [0] * 34

    def take(kind: int) -> int:
        copies[kind] += 1
        return kind * 4 + copies[kind] - 1

    ours_melds: list[Meld] = []
    riichi_melds: list[RiichiMeld] = []
    concealed: list[int] = []
    tiles_136: list[int] = []
    for group in groups:
        ids = [take(kind) for kind in group]
        tiles_136.extend(ids)
        is_kong = len(group) == 4
        declared = len(group) >= 3 and (is_kong or rng.random() < 0.3)
        if not declared:
            concealed.extend(group)
            continue
        is_open = rng.random() < 0.7 if is_kong else True
        ours_melds.append(Meld(tuple(PLAYING[k] for k in group), open=is_open))
        meld_type = (
            RiichiMeld.KAN if is_kong else (RiichiMeld.PON if group[0] == group[1] else RiichiMeld.CHI)
        )
        riichi_melds.append(RiichiMeld(meld_type=meld_type, tiles=ids, opened=is_open))
    winning = rng.choice(concealed)
    win_136 = next(i for i in tiles_136 if i // 4 == winning and not any(i in m.tiles for m in riichi_melds))
    seat, prevailing = rng.choice(WINDS), rng.choice(WINDS)
    self_drawn = rng.random() < 0.5
    hand = Hand(
        seat_wind=seat,
        prevailing_wind=prevailing,
        concealed=tuple(sorted(PLAYING[k] for k in concealed)),
        melds=tuple(ours_melds),
        winning_tile=PLAYING[winning],
        self_drawn=self_drawn,
        ruleset=rng.choice(("app", "nts")),
    )
    config = HandConfig(
        is_tsumo=self_drawn, player_wind=RIICHI_WIND[seat], round_wind=RIICHI_WIND[prevailing]
    )
    key = (hand.concealed, hand.melds, hand.winning_tile, seat, prevailing, self_drawn)
    return key, Case(hand, tuple(tiles_136), win_136, tuple(riichi_melds), config)


def build_corpus(size: int, seed: int) -> list[Case]:
    """`size` distinct winning hands, reproducible from `seed`."""
    rng = random.Random(seed)
    seen: dict[Any, Case] = {}
    while len(seen) < size:
        groups = random_groups(rng)
        if groups is None:
            continue
        key, case = build_case(rng, groups)
        seen.setdefault(key, case)
    return list(seen.values())


def score_ours(corpus: Sequence[Case]) -> int:
    valid = 0
    for case in corpus:
        valid += score_hand(case.ours).to_dict()["valid"]
    return valid


def score_riichi(corpus: Sequence[Case]) -> int:
    valid = 0
    estimate = HandCalculator.estimate_hand_value
    for case in corpus:
        result = estimate(list(case.tiles_136), case.win_136, melds=list(case.melds), config=case.config)
        valid += result.error is None
    return valid


def fresh(corpus: Sequence[Case]) -> list[Case]:
    """The same hands as new objects, so nothing an engine noted on a hand object carries into a cold run."""
    return [replace(case, ours=replace(case.ours)) for case in corpus]


def clear_caches(*packages: str) -> int:
    """Empty every functools cache in the given packages (module functions and static methods of classes)."""
    cleared = 0
    for name, module in list(sys.modules.items()):
        if module is None or name.split(".")[0] not in packages:
            continue
        for value in list(vars(module).values()):
            candidates = [value]
            if isinstance(value, type) and value.__module__ == name:
                candidates += [getattr(item, "__func__", item) for item in vars(value).values()]
            for candidate in candidates:
                if callable(getattr(candidate, "cache_clear", None)):
                    candidate.cache_clear()
                    cleared += 1
    return cleared


ENGINES: dict[str, tuple[Callable[[Sequence[Case]], int], str]] = {
    "ours": (score_ours, "scoring"),
    "riichi": (score_riichi, "mahjong"),
}


def timed_rounds(corpus: Sequence[Case], rounds: int) -> dict[str, dict[str, float]]:
    """CPU seconds per engine: best cold run (caches emptied first) and best warm run, engines alternating."""
    times: dict[str, dict[str, float]] = {
        name: {"cold": float("inf"), "warm": float("inf")} for name in ENGINES
    }
    for round_ in range(rounds):
        order = list(ENGINES) if round_ % 2 == 0 else list(reversed(ENGINES))
        for name in order:
            fn, package = ENGINES[name]
            for state in ("cold", "warm"):
                if state == "cold":
                    clear_caches(package)
                    corpus = fresh(corpus)
                gc.collect()
                start = time.process_time()
                fn(corpus)
                times[name][state] = min(times[name][state], time.process_time() - start)
    return times


def riichi_accepts(case: Case) -> bool:
    return score_riichi([case]) == 1


def report(corpus: Sequence[Case], rounds: int, title: str) -> None:
    """Print both engines' throughput on `corpus`, cold and warm, and the ratio ours/theirs."""
    times = timed_rounds(corpus, rounds)
    n = len(corpus)
    print(f"\n{n} hands, {title}; CPU-time throughput, best of {rounds} rounds, engines alternating:")
    print(f"{'':32}{'cold caches':>14}{'warm caches':>14}")
    labels = {"ours": "ours (score_hand + to_dict)", "riichi": "riichi (estimate_hand_value)"}
    for name in ENGINES:
        cold, warm = n / times[name]["cold"], n / times[name]["warm"]
        print(f"{labels[name]:32}{cold:10.0f} h/s{warm:10.0f} h/s")
    cold_ratio = times["riichi"]["cold"] / times["ours"]["cold"]
    warm_ratio = times["riichi"]["warm"] / times["ours"]["warm"]
    print(f"{'ratio ours/theirs':32}{cold_ratio:14.2f}{warm_ratio:14.2f}")


def peak_traced(fn: Callable[[Sequence[Case]], int], package: str, corpus: Sequence[Case]) -> int:
    """Peak bytes Python allocates while scoring the corpus once from empty caches (the caches included)."""
    clear_caches(package)
    corpus = fresh(corpus)
    gc.collect()
    tracemalloc.start()
    fn(corpus)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return peak


def profile(fn: Callable[[Sequence[Case]], int], corpus: Sequence[Case], lines: int = 25) -> str:
    profiler = cProfile.Profile()
    profiler.runcall(fn, corpus)
    out = io.StringIO()
    pstats.Stats(profiler, stream=out).sort_stats("tottime").print_stats(lines)
    return out.getvalue()


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=4000)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--repeat", type=int, default=3, help="rounds; each engine's best round counts")
    parser.add_argument("--profile", action="store_true", help="print cProfile hot spots of our scorer")
    args = parser.parse_args(argv)

    start = time.perf_counter()
    corpus = build_corpus(args.hands, args.seed)
    took = time.perf_counter() - start
    print(f"corpus: {len(corpus)} distinct winning hands (seed {args.seed}) in {took:.1f} s")
    accepted = {name: fn(corpus) for name, (fn, _) in ENGINES.items()}
    print(f"accepted: ours {accepted['ours']} legal mahjongs, riichi {accepted['riichi']} without error")
    report(corpus, args.repeat, "all hands")
    yaku = [case for case in corpus if riichi_accepts(case)]
    report(yaku, args.repeat, "only those riichi scores (with a yaku; for the rest it skips fu and points)")
    peaks = {name: peak_traced(fn, package, corpus) / 2**20 for name, (fn, package) in ENGINES.items()}
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(
        f"peak traced memory from cold: ours {peaks['ours']:.1f} MiB, riichi {peaks['riichi']:.1f} MiB; "
        f"process max RSS {rss:.0f} MiB"
    )
    if args.profile:
        clear_caches("scoring")
        print(profile(score_ours, fresh(corpus)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
