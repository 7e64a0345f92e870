"""Losers (SCORING section 8): section 4 points and every-player doublings only, the best partition of the
concealed tiles, at most one scoring pair, four equal tiles as a pung, half an irregular limit hand."""

from __future__ import annotations

from typing import Any

import pytest
from scoring_hands import score as loser


def summary(result: dict[str, Any]) -> tuple[bool, int, int, int]:
    return result["valid"], result["base_points"], result["doublings"], result["total"]


def names(result: dict[str, Any]) -> set[str]:
    return {item["name"] for item in result["items"]}


def test_table_sets_and_concealed_pungs_count() -> None:
    # open 555z 4 (dragon 1 doubling) + concealed 222m 4 = 8 -> 8 * 2 = 16; no Mahjong, no winner items
    result = loser("222m13p46s9s14z", melds=("555z",))
    assert summary(result) == (True, 8, 1, 16)
    assert result["role"] == "loser"
    assert "Mahjong" not in names(result)


def test_at_most_one_scoring_pair() -> None:
    # two dragon pairs: 2 points, not 4
    assert summary(loser("55z66z147m258p369s")) == (True, 2, 0, 2)


@pytest.mark.parametrize(
    ("concealed", "seat", "prevailing", "points"),
    [
        ("22z55z147m258p369s", "S", "W", 2),  # own wind pair 2 or dragon pair 2: one of them
        ("11z55z147m258p369s", "E", "E", 4),  # own + prevailing wind pair 4 beats the dragon pair 2
    ],
)
def test_nts_takes_the_best_pair(concealed: str, seat: str, prevailing: str, points: int) -> None:
    result = loser(concealed, seat=seat, prevailing=prevailing, ruleset="nts")
    assert summary(result) == (True, points, 0, points)


@pytest.mark.parametrize(
    ("concealed", "expected"),
    [
        ("5555m147m258p369s", (True, 4, 0, 4)),  # pung of simples 4 + a loose 5m; not a kong (16)
        ("5555z147m258p369s", (True, 8, 1, 16)),  # dragon pung 8 + loose 5z, 1 doubling; not 32
    ],
)
def test_four_equal_concealed_tiles_are_a_pung_and_a_loose_tile(
    concealed: str, expected: tuple[bool, int, int, int]
) -> None:
    result = loser(concealed)
    assert summary(result) == expected
    assert all(group["kind"] != "kong" for group in result["sets"])
    assert result["sets"][-1]["kind"] == "loose"


def test_purity_counts_the_loose_tiles() -> None:
    # 111m pung 8; 22 44 66 88 pairs (0); 5m 9m loose: all characters -> zuiver 3 -> 64
    result = loser("1112244566889m")
    assert summary(result) == (True, 8, 3, 64)
    # one loose tile of another suit spoils it: 111m 8, no purity
    assert summary(loser("111224456688m9p")) == (True, 8, 0, 8)


def test_robbed_kong_scores_as_an_open_pung() -> None:
    # the player added a 4th 5m to an open pung and it was robbed: the open pung remains, 2 points
    assert summary(loser("147m258p369s4z", melds=("555m",))) == (True, 2, 0, 2)


def test_partition_shown_as_sets() -> None:
    result = loser("555z123m4457p99s1z")
    kinds = [(group["kind"], group["tiles"]) for group in result["sets"]]
    assert ("pung", "555z") in kinds and ("chow", "123m") in kinds
    assert sum(kind == "pair" for kind, _ in kinds) == 2  # 44p and 99s
    assert kinds[-1] == ("loose", "57p1z")


@pytest.mark.parametrize(
    ("concealed", "name", "full", "total"),
    [
        # thirteen single orphans wait on all 13: half of 2000; the regular count is 0
        ("19m19p19s1234567z", "Dertien wezen", 2000, 1000),
        # six honour pairs + 7z: tweelingen van troefstenen; regular 55z pair 2 * zuiver 8 = 16 < 1000
        ("1122334455667z", "Tweelingen van troefstenen", 2000, 1000),
        # six mixed pairs + 6z: zeven tweelingen 250 -> 125 > 0
        ("22m55m77p33s88s11z6z", "Zeven tweelingen", 250, 125),
        # 1112345678999m waits on every 1m-9m for negen poorten: 1000; regular 111m + 999m 16 * zuiver 8 = 128
        ("1112345678999m", "Negen poorten", 2000, 1000),
        # 1111m 2345678m 99m waits on 9m for negen poorten (a 5th 1m is no wait): 1000;
        # regular 111m 8 * zuiver 8 = 64
        ("1111234567899m", "Negen poorten", 2000, 1000),
        # 5555z 6666z 77z 11z 2z waits on 2z for honour twins (four equal as two pairs): 1000;
        # regular 555z 666z 16 + 77z pair 2 = 18, dragons 2 + zuiver 3 -> 18 * 32 = 576 < 1000
        ("5555z6666z77z11z2z", "Tweelingen van troefstenen", 2000, 1000),
    ],
)
def test_half_an_irregular_limit_hand(concealed: str, name: str, full: int, total: int) -> None:
    result = loser(concealed)
    assert result["valid"] is True
    assert result["total"] == total
    assert result["limit_hand"] == {
        "name": name,
        "name_en": result["limit_hand"]["name_en"],
        "value": total,
        "full_value": full,
    }


def test_a_higher_regular_count_beats_the_half_limit() -> None:
    # as above with own flower and season (South): 18 + 8 = 26, 5 + 2 = 7 doublings -> 3328 -> cap 2000 > 1000
    result = loser("5555z6666z77z11z2z", bonus="2f2y")
    assert (result["total"], result["limit_hand"]) == (2000, None)


def test_no_half_limit_with_declared_melds() -> None:
    # 19m19p19s1234z + open pung 555z: irregular hands must be concealed, so no half limit; the open dragon
    # pung 4, dragon 1 + schoon (terminals of several suits + honours) 1 -> 4 * 4 = 16
    result = loser("19m19p19s1234z", melds=("555z",))
    assert summary(result) == (True, 4, 2, 16)
    assert result["limit_hand"] is None


def test_dead_hand_scores_zero_and_may_have_a_wrong_count() -> None:
    result = loser("222m13p46s9s1z", melds=("555z",), flags=("dead_hand",))  # 12 tiles
    assert (result["valid"], result["reason_code"], result["total"]) == (False, "dead_hand", 0)


def test_loser_never_gets_winner_only_doublings() -> None:
    # 4 chows + a single: vier chows is for the winner; all simples too
    result = loser("234m567m345p678s5s")
    assert summary(result) == (True, 0, 0, 0)
    assert names(result) == set()
