"""Waits of 13 tiles (SCORING section 12): any winning shape, regular, seven pairs or irregular limit."""

from __future__ import annotations

import pytest

from scoring import InputError, Meld, parse_tiles, waits


def w(text: str, melds: tuple[Meld, ...] = (), ruleset: str = "app") -> list[str]:
    return waits(parse_tiles(text), melds, ruleset)


@pytest.mark.parametrize(
    ("concealed", "expected"),
    [
        ("12m456p789s111z99s", ["3m"]),  # edge wait
        ("13m456p789s111z99s", ["2m"]),  # closed wait
        ("123m456p111z789s5z", ["5z"]),  # single wait on the pair
        ("123m456p111z789s9s", ["6s", "9s"]),  # 7899s: 678 + 99 or 789 + 99
        ("1234m456p789s111z", ["1m", "4m"]),  # 1234: 1 + 234 or 123 + 4
        ("1112345678999m", ["1m", "2m", "3m", "4m", "5m", "6m", "7m", "8m", "9m"]),  # nine gates, 9 waits
        ("22m55m77p33s88s11z6z", ["6z"]),  # seven pairs waits on the single
    ],
)
def test_regular_and_seven_pairs_waits(concealed: str, expected: list[str]) -> None:
    assert w(concealed) == expected


def test_thirteen_orphans_waits_on_all_thirteen() -> None:
    assert w("19m19p19s1234567z") == parse_tiles("19m19p19s1234567z")


def test_thirteen_orphans_with_a_pair_waits_on_the_missing_one() -> None:
    assert w("19m19p19s1234566z") == ["7z"]


@pytest.mark.parametrize(
    ("concealed", "expected"),
    [
        ("123456789p1234z", parse_tiles("123456789p1234z")),  # windenslang: the extra may be any of them
        ("123456789s567z1z", ["1z"]),  # drakenslang needs the wind pair
        ("234567s1234567z", ["1s"]),  # hof van peking missing its 1
        ("1234567m123456z", ["7z"]),  # hof van peking missing red dragon
    ],
)
def test_irregular_limit_waits(concealed: str, expected: list[str]) -> None:
    assert w(concealed) == expected


def test_a_kind_held_four_times_is_no_wait() -> None:
    # 1111m 234p 567p 789s: 111m + a single 1m would wait on a fifth 1m, which does not exist.
    assert w("1111m234p567p789s") == []
    # open pung 555z + 123m 456p 789s 5z: the single 5z would need the fourth... it is the fourth: held 4.
    assert w("123m456p789s5z", (Meld(("5z", "5z", "5z")),)) == []
    # the same shape with 6z pung: the single 5z is a wait.
    assert w("123m456p789s5z", (Meld(("6z", "6z", "6z")),)) == ["5z"]


def test_seven_pairs_with_four_equal_follows_the_ruleset_option() -> None:
    # 2222m 77p 33s 88s 11z 6z: with four equal as two pairs the hand waits on 6z (option on by default).
    assert w("2222m77p33s88s11z6z") == ["6z"]


def test_pe_ling_1p_is_no_extra_wait() -> None:
    # waits on the pair of 1s only; 1p (cake) would also win, but it is not counted as a wait.
    assert w("123m456p789s111z1s") == ["1s"]


def test_melds_count_toward_the_thirteen() -> None:
    melds = (Meld(("1z", "1z", "1z")), Meld(("9p", "9p", "9p", "9p"), open=False))
    assert w("23m567p88s", melds) == ["1m", "4m"]


def test_no_irregular_waits_with_declared_melds() -> None:
    # 7 tiles of a seven-pairs-like shape beside two melds cannot make seven pairs.
    melds = (Meld(("1z", "1z", "1z")), Meld(("5z", "5z", "5z")))
    assert w("22m55m77p3s", melds) == []


def test_not_waiting() -> None:
    assert w("159m159p159s1357z") == []


@pytest.mark.parametrize("ruleset", ["app", "nts"])
def test_worked_examples_before_the_win(ruleset: str) -> None:
    # seed 000: open pung 1z; 23m 567p 777z 88s waited on 1m and 4m.
    assert w("23m567p777z88s", (Meld(("1z", "1z", "1z")),), ruleset) == ["1m", "4m"]
    # seed 002: open pung 7z; 222m 345m 67m 22z waits on 5m and 8m (222 345 67), and also on 2m and 2z:
    # 22m + 234m + 567m + 22z is a shanpon wait. SCORING names only 5m and 8m; either way not unique.
    assert w("22234567m22z", (Meld(("7z", "7z", "7z")),), ruleset) == ["2m", "5m", "8m", "2z"]


@pytest.mark.parametrize(
    ("concealed", "melds", "named"),
    [
        ("123m", (), "13 tiles"),
        ("123m456p789s11z222z", (), "13 tiles"),
        ("123m456p789s11z2f", (), "'2f'"),
        ("11111m456p789s11z", (), "5 of '1m'"),
    ],
)
def test_waits_input_errors(concealed: str, melds: tuple[Meld, ...], named: str) -> None:
    with pytest.raises(InputError, match=named):
        waits(parse_tiles(concealed), melds)


def test_waits_rejects_a_bad_meld() -> None:
    with pytest.raises(InputError, match="no chow, pung or kong"):
        waits(parse_tiles("123m456p789s1z"), (Meld(("1m", "3m", "5m")),))


def test_waits_agree_with_trying_every_tile() -> None:
    import random

    from scoring.decompose import regular_decompositions
    from scoring.limits import LIMIT_HANDS, best_irregular
    from scoring.rules import Options
    from scoring.tiles import TILE_CODES, counts_of

    rng = random.Random(11)
    waiting = 0
    for _ in range(1500):
        # a winning hand of one or two suits (plus winds) minus one tile: it waits on one kind or more
        suits = rng.sample("mps", rng.choice((1, 2)))
        tiles: list[str] = []
        while len(tiles) < 12:
            suit = rng.choice(suits)
            if rng.random() < 0.6:
                start = rng.randint(1, 7)
                tiles += [f"{start}{suit}", f"{start + 1}{suit}", f"{start + 2}{suit}"]
            else:
                tiles += [rng.choice([f"{rng.randint(1, 9)}{suit}", f"{rng.randint(1, 4)}z"])] * 3
        tiles += [f"{rng.randint(1, 9)}{rng.choice(suits)}"] * 2
        counts = counts_of(tiles)
        if max(counts) > 4:
            continue
        tiles.remove(rng.choice(tiles))
        counts = counts_of(tiles)
        expected = []
        for kind, code in enumerate(TILE_CODES[:34]):
            if counts[kind] == 4:
                continue
            after = list(counts)
            after[kind] += 1
            shape = tuple(after)
            if regular_decompositions(shape) or best_irregular(LIMIT_HANDS, shape, Options()) is not None:
                expected.append(code)
        assert waits(tiles) == expected, tiles
        waiting += len(expected) > 1
    assert waiting > 300  # many hands with several waits were compared
