"""The hand divider: every decomposition into sets and a pair, and seven pairs."""

from __future__ import annotations

import random

import pytest

from scoring.decompose import has_regular_shape, is_seven_pairs, regular_decompositions, seven_pairs_blocks
from scoring.tiles import INDEX, counts_of, parse_tiles


def counts(text: str) -> tuple[int, ...]:
    return tuple(counts_of(parse_tiles(text)))


def readable(split: tuple[tuple[str, int], ...]) -> list[str]:
    from scoring.tiles import TILE_CODES

    return sorted(f"{kind}:{TILE_CODES[tile]}" for kind, tile in split)


def test_triple_run_splits_as_three_chows_or_three_pungs() -> None:
    splits = [readable(s) for s in regular_decompositions(counts("111222333m55p"))]
    assert sorted(splits) == sorted(
        [
            ["chow:1m", "chow:1m", "chow:1m", "pair:5p"],
            ["pair:5p", "pung:1m", "pung:2m", "pung:3m"],
        ]
    )


def test_nine_gates_plus_five_splits_with_the_pair_of_fives() -> None:
    # 1112345 5 678999m: 111 + 234 + 55 + 678 + 999; every split has exactly one pair.
    splits = [readable(s) for s in regular_decompositions(counts("11123455678999m"))]
    assert ["chow:2m", "chow:6m", "pair:5m", "pung:1m", "pung:9m"] in splits
    assert all(
        split.count("pair:5m") + split.count("pair:1m") + split.count("pair:9m") == 1 for split in splits
    )


@pytest.mark.parametrize(
    ("text", "n"),
    [
        ("234m567p777z88s", 1),  # 11 tiles: 3 sets + pair
        ("222345678m22z", 1),
        ("112233m", 0),  # 6 tiles: no pair possible with 2 sets
        ("11223344m", 2),  # 11 + 234 234? no: 44 + 123 123, or 11 + 234 + 234
        ("11123m", 1),  # 11 + 123 (111 + 23 fails)
        ("19m19p19s1234567z", 0),
        ("", 0),
        ("11z", 1),
        ("1112z", 0),
    ],
)
def test_number_of_decompositions(text: str, n: int) -> None:
    assert len(regular_decompositions(counts(text))) == n


def test_no_duplicate_decompositions() -> None:
    for text in ("111122223333m55z", "11112222333344m", "1112223334445m5m"):
        splits = [tuple(readable(s)) for s in regular_decompositions(counts(text))]
        assert len(splits) == len(set(splits))


def test_every_decomposition_uses_every_tile_once() -> None:
    start = counts("11122345678999m")
    for split in regular_decompositions(start):
        used = [0] * 34
        for kind, tile in split:
            for t in (tile, tile + 1, tile + 2) if kind == "chow" else [tile] * {"pung": 3, "pair": 2}[kind]:
                used[t] += 1
        assert tuple(used) == start


def test_honours_never_form_chows() -> None:
    assert regular_decompositions(counts("123z567z11m")) == ()


def test_has_regular_shape_agrees_with_the_divider() -> None:
    rng = random.Random(7)
    wall = [code for code in parse_tiles("123456789m123456789p123456789s1234567z") for _ in range(4)]
    for _ in range(3000):
        hand = rng.sample(wall, rng.choice((2, 5, 8, 11, 14)))
        c = tuple(counts_of(hand))
        assert has_regular_shape(c) == bool(regular_decompositions(c)), hand


@pytest.mark.parametrize(
    ("text", "four_equal", "expected"),
    [
        ("22m55m77p33s88s11z66z", True, True),
        ("22m55m77p33s88s11z66z", False, True),
        ("2222m77p33s88s11z66z", True, True),  # four equal as two pairs
        ("2222m77p33s88s11z66z", False, False),
        ("222m55m77p33s88s11z6z", True, False),
        ("22m55m77p33s88s11z", True, False),  # 12 tiles
    ],
)
def test_seven_pairs(text: str, four_equal: bool, expected: bool) -> None:
    assert is_seven_pairs(counts(text), four_equal) is expected


def test_seven_pairs_blocks_lists_a_four_twice() -> None:
    assert seven_pairs_blocks(counts("2222m77p33s88s11z66z")).count(INDEX["2m"]) == 2


def test_docstring_examples() -> None:
    import doctest
    import importlib

    for name in ("tiles", "decompose", "waits", "scorer", "io"):
        module = importlib.import_module(f"scoring.{name}")
        assert doctest.testmod(module).failed == 0, name
