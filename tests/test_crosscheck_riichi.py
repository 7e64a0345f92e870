"""Cross-check of the winning-shape verdict against the riichi `mahjong` package on thousands of hands.

The tile sets are the same (34 kinds, mpsz), and "four sets and a pair" means the same in both games. The
shapes differ elsewhere, so we compare like with like:

- concealed 14-tile hands: riichi also accepts seven distinct pairs and thirteen orphans; we also accept seven
  pairs with four equal tiles as two pairs and our irregular limit hands (snakes, Hof van Peking, ...). Every
  such hand has all counts even or a lone honour tile (no regular hand holds a single honour), so those hands
  are checked one way only (riichi's agari implies ours), and the rest must agree exactly;
- hands with declared sets: only the regular shape can win, in both games, so the verdicts and the waits of
  13-tile hands must always agree.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

pytest.importorskip("mahjong")

from mahjong.agari import Agari

from scoring import TILE_CODES, Meld, format_tiles, hand_from_dict, score_hand, waits

PLAYING = TILE_CODES[:34]
SEED = 20240601
HANDS = 3000


def random_winning_groups(rng: random.Random) -> list[list[int]]:
    """Four random sets and a pair, as kind indices 0..33, with at most four of a kind."""
    while True:
        counts = [0] * 34
        groups: list[list[int]] = []
        for _ in range(4):
            if rng.random() < 0.55:
                suit, start = rng.randrange(3), rng.randrange(7)
                group = [suit * 9 + start + i for i in range(3)]
            else:
                group = [rng.randrange(34)] * 3
            groups.append(group)
        groups.append([rng.randrange(34)] * 2)
        for group in groups:
            for kind in group:
                counts[kind] += 1
        if max(counts) <= 4:
            return groups


def perturb(rng: random.Random, kinds: list[int]) -> list[int]:
    """Swap 0-2 tiles for nearby or random kinds, keeping at most four of a kind."""
    kinds = list(kinds)
    for _ in range(rng.choice((0, 1, 1, 2))):
        index = rng.randrange(len(kinds))
        old = kinds[index]
        if old < 27 and rng.random() < 0.6:
            suit, number = divmod(old, 9)
            new = suit * 9 + min(8, max(0, number + rng.choice((-2, -1, 1, 2))))
        else:
            new = rng.randrange(34)
        if kinds.count(new) < 4:
            kinds[index] = new
    return kinds


def engine_has_winning_shape(concealed: list[int], melds: list[list[int]], winning: int) -> bool:
    """Our verdict: any winning shape at all (too few doublings is still a shape)."""
    obj = {
        "seat_wind": "S",
        "prevailing_wind": "E",
        "concealed": format_tiles(PLAYING[kind] for kind in concealed),
        "melds": [{"tiles": format_tiles(PLAYING[kind] for kind in meld), "open": True} for meld in melds],
        "winning_tile": PLAYING[winning],
        "self_drawn": True,
    }
    return score_hand(hand_from_dict(obj)).to_dict()["reason_code"] != "no_winning_shape"


def riichi_is_agari(kinds: list[int], melds: list[list[int]]) -> bool:
    counts = [0] * 34
    for kind in kinds:
        counts[kind] += 1
    for meld in melds:
        for kind in meld:
            counts[kind] += 1
    return bool(Agari.is_agari(counts, melds or None))


def special_shape_possible(counts: Counter[int]) -> bool:
    """All counts even (seven pairs) or a lone honour (thirteen orphans, snakes, Hof van Peking)."""
    return all(n % 2 == 0 for n in counts.values()) or any(n == 1 for kind, n in counts.items() if kind >= 27)


def test_concealed_hands_agree_with_riichi() -> None:
    rng = random.Random(SEED)
    compared = winning = special = 0
    disagreements: list[str] = []
    for _ in range(HANDS):
        kinds = perturb(rng, [kind for group in random_winning_groups(rng) for kind in group])
        counts = Counter(kinds)
        ours = engine_has_winning_shape(kinds, [], rng.choice(kinds))
        theirs = riichi_is_agari(kinds, [])
        if special_shape_possible(counts):
            special += 1
            if theirs:  # riichi's extra shapes (seven distinct pairs, thirteen orphans) win for us too
                assert ours, format_tiles(PLAYING[k] for k in kinds)
            continue
        compared += 1
        winning += ours
        if ours != theirs:
            disagreements.append(f"{format_tiles(PLAYING[k] for k in kinds)}: ours {ours}, riichi {theirs}")
    assert not disagreements, disagreements[:10]
    # The generator must really produce both verdicts in quantity, or the comparison proves little.
    assert compared >= 2500 and 0.3 < winning / compared < 0.8, (compared, winning, special)


def test_hands_with_declared_sets_agree_with_riichi() -> None:
    rng = random.Random(SEED + 1)
    winning = 0
    disagreements: list[str] = []
    for _ in range(HANDS):
        groups = random_winning_groups(rng)
        candidates = [group for group in groups[:4]]
        rng.shuffle(candidates)
        melds = candidates[: rng.randint(1, 3)]
        concealed = [kind for group in groups if not any(group is meld for meld in melds) for kind in group]
        concealed = perturb(rng, concealed)
        if Counter(concealed + [k for meld in melds for k in meld]).most_common(1)[0][1] > 4:
            continue
        ours = engine_has_winning_shape(concealed, melds, rng.choice(concealed))
        theirs = riichi_is_agari(concealed, melds)
        winning += ours
        if ours != theirs:
            shown = format_tiles(PLAYING[k] for k in concealed)
            disagreements.append(f"{shown} + {melds}: ours {ours}, riichi {theirs}")
    assert not disagreements, disagreements[:10]
    assert winning > HANDS // 4


def test_waits_with_declared_sets_agree_with_riichi() -> None:
    """13-tile hands with a declared set: our waits are exactly the kinds riichi calls agari when added."""
    rng = random.Random(SEED + 2)
    with_waits = 0
    for _ in range(HANDS // 2):
        groups = random_winning_groups(rng)
        melds = groups[: rng.randint(1, 2)]
        concealed = perturb(rng, [kind for group in groups[len(melds) :] for kind in group])
        concealed.pop(rng.randrange(len(concealed)))
        held = Counter(concealed + [kind for meld in melds for kind in meld])
        if max(held.values()) > 4:
            continue
        ours = waits(
            [PLAYING[kind] for kind in concealed],
            [Meld(tuple(PLAYING[kind] for kind in meld)) for meld in melds],
        )
        theirs = [PLAYING[k] for k in range(34) if held[k] < 4 and riichi_is_agari([*concealed, k], melds)]
        assert ours == theirs, (format_tiles(PLAYING[k] for k in concealed), melds)
        with_waits += bool(ours)
    assert with_waits > HANDS // 8
