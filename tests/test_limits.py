"""All 18 limit hands of SCORING section 7 (seed 002's example hands where it gives one), their values, and
the rule that the higher of the limit value and the capped regular count is taken."""

from __future__ import annotations

import pytest
from scoring_hands import score

from scoring import hand_from_dict, score_hand
from scoring.decompose import is_seven_pairs
from scoring.limits import LIMIT_HANDS, best_irregular
from scoring.rules import Options
from scoring.tiles import counts_of, parse_tiles


def test_there_are_18_limit_hands() -> None:
    assert len(LIMIT_HANDS) == 18
    assert len({limit.name for limit in LIMIT_HANDS}) == 18


# (concealed, winning tile, melds, self-drawn, flags, seat, name, value)
LIMITS = [
    # irregular (seed 002 examples)
    ("11123456678999s", "6s", (), False, (), "S", "Negen poorten", 2000),
    ("19m19p19s12345677z", "7z", (), False, (), "S", "Dertien wezen", 2000),
    ("11223344556677z", "7z", (), False, (), "S", "Tweelingen van troefstenen", 2000),
    ("123456789p12344z", "4z", (), False, (), "S", "Windenslang", 1000),
    ("123456789s11567z", "1z", (), False, (), "S", "Drakenslang", 1000),
    ("1234567m1234567z", "7m", (), False, (), "S", "Hof van Peking", 1000),
    # 123 123 567 567 + 99 is also regular: 20 + 2 + 2 = 24, zuiver 3 + vier chows 1 -> 384 < 1000
    ("11223355667799m", "9m", (), False, (), "S", "Zuivere tweelingen", 1000),
    # 1s/9s of one suit + honours; also matches schone (500) and zeven (250): the highest counts
    ("1199m1122556677z", "7z", (), False, (), "S", "Zeer schone tweelingen", 1000),
    ("22557788m115566z", "1z", (), False, (), "S", "Schone tweelingen", 500),
    ("22m55m77p33s88s11z66z", "6z", (), False, (), "S", "Zeven tweelingen", 250),
    # regular
    ("111z222z333z444z55p", "5p", (), False, (), "S", "Vier winden", 2000),
    ("444z55p", "5p", ("111z", "222z", "333z"), False, (), "S", "Vier winden", 2000),  # may be open
    ("555z666z777z234m99s", "9s", (), False, (), "S", "Drie draken", 2000),
    ("777z234m99s", "9s", ("555z", "666z"), False, (), "S", "Drie draken", 2000),
    ("234s666s888s666z33s", "3s", (), False, (), "S", "Jadespel", 2000),
    ("111m999p111s999s99m", "9m", (), False, (), "S", "Kop en staart", 2000),
    # the pair may be completed by a discard
    ("99s", "9s", ("[2222m]", "[4444p]", "[7777s]", "[3333m]"), False, (), "S", "Vier verborgen kongs", 2000),
    # four chows worth 176 regularly (22 * 8); East wins on the 14 dealt tiles
    ("234m567m345p678s99s", "4m", (), True, ("heaven",), "E", "Spel van de hemel", 2000),
    # on East's first discard: regularly only vier chows 1 doubling (too few), as a limit 1000
    ("234m567m345p678s99s", "4m", (), False, ("earth",), "S", "Spel van de aarde", 1000),
    # one suit 111 + 999 + chows 345 678 + pair 22, with an open 111p; regularly 4 + 8 + 20 + 2 + 2 (single
    # wait 2p) = 36, zuiver 3 -> 288 < 1000. (Held concealed, every kronkelende slang is also negen poorten.)
    ("22p345p678p999p", "2p", ("111p",), False, (), "S", "Kronkelende slang", 1000),
    ("111p55p678p999p", "5p", ("234p",), False, (), "S", "Kronkelende slang", 1000),
    ("111p234p567p88p", "8p", ("999p",), False, (), "S", "Kronkelende slang", 1000),
    ("111p22p345p678p999p", "2p", (), False, (), "S", "Negen poorten", 2000),
    # section 12: a kong of 1s in place of the pung
    ("22p345p678p999p", "2p", ("[1111p]",), False, (), "S", "Kronkelende slang", 1000),
    ("22p345p678p111p", "2p", ("9999p",), False, (), "S", "Kronkelende slang", 1000),
]


@pytest.mark.parametrize(
    ("concealed", "win", "melds", "self_drawn", "flags", "seat", "name", "value"), LIMITS
)
def test_limit_hand(
    concealed: str,
    win: str,
    melds: tuple[str, ...],
    self_drawn: bool,
    flags: tuple[str, ...],
    seat: str,
    name: str,
    value: int,
) -> None:
    result = score(concealed, win, melds=melds, self_drawn=self_drawn, flags=flags, seat=seat)
    assert result["valid"] is True
    assert result["total"] == value
    assert result["limit_hand"]["name"] == name
    assert result["limit_hand"]["value"] == value
    assert result["items"] == [
        {"name": name, "name_en": result["limit_hand"]["name_en"], "points": value},
    ]


@pytest.mark.parametrize(
    ("concealed", "win", "melds", "not_this"),
    [
        # jade needs only green tiles: a 5s spoils it
        ("234s666s555s666z33s", "3s", (), "Jadespel"),
        # jade needs a regular shape: seven green pairs (four 8s as two pairs) are schone tweelingen
        ("223344668888s66z", "3s", (), "Jadespel"),
        # kop en staart has no honours
        ("111m999p111s111z99m", "9m", (), "Kop en staart"),
        # kronkelende slang in one suit only
        ("111p22p345p678p999s", "2p", (), "Kronkelende slang"),
        # vier verborgen kongs must be all concealed
        ("99s", "9s", ("[2222m]", "[4444p]", "[7777s]", "3333m"), "Vier verborgen kongs"),
        # drakenslang needs a pair of winds, not of a suit tile
        ("123456789s55p567z", "5p", (), "Drakenslang"),
    ],
)
def test_near_misses_are_not_that_limit(
    concealed: str, win: str, melds: tuple[str, ...], not_this: str
) -> None:
    result = score(concealed, win, melds=melds)
    assert (result["limit_hand"] or {}).get("name") != not_this


def test_seven_green_pairs_are_clean_twins() -> None:
    result = score("223344668888s66z", "3s")
    assert (result["limit_hand"]["name"], result["total"]) == ("Schone tweelingen", 500)


def test_the_regular_count_wins_when_it_is_higher() -> None:
    # 11223355667799m self-drawn: 123 123 567 567 99: 20 + 2 + 2 (only 9m) + 2 (pair) = 26;
    # zuiver 3 + vier chows 1 + volledig gesloten 2 = 6 -> 26 * 64 = 1664 > 1000 (zuivere tweelingen)
    result = score("11223355667799m", "9m", self_drawn=True)
    assert (result["valid"], result["total"], result["base_points"], result["doublings"]) == (
        True,
        1664,
        26,
        6,
    )
    assert result["limit_hand"] is None


def test_earth_versus_a_capped_regular_count() -> None:
    # 111p 222p 333p 555p 99p on East's first discard (9p): 8 + 4 + 4 + 4 + 20 + 2 (pair) ... with 4 concealed
    # pungs 2 + vier pungs 1 + zuiver 3 = 6 doublings the regular count reaches the cap 2000 > 1000
    result = score("111p222p333p555p99p", "9p", flags=("earth",))
    assert (result["total"], result["limit_hand"]) == (2000, None)


def test_limit_hands_are_exempt_from_the_minimum_doublings() -> None:
    # zeven tweelingen has no doublings at all and is still a mahjong worth 250
    result = score("22m55m77p33s88s11z66z", "6z")
    assert (result["valid"], result["total"], result["doublings"]) == (True, 250, 0)


def test_limit_hands_ignore_flowers() -> None:
    hand = {
        "seat_wind": "S", "prevailing_wind": "W", "concealed": "22m55m77p33s88s11z66z", "winning_tile": "6z",
        "bonus": "2f2y",
    }  # fmt: skip
    # regular count impossible (no regular shape); the limit value stands alone: 250
    assert score_hand(hand_from_dict(hand)).total == 250


def test_seven_pairs_result_shape() -> None:
    result = score("22m55m77p33s88s11z66z", "6z")
    assert result["sets"] == [{"kind": "seven_pairs", "tiles": "2255m77p3388s1166z", "open": False}]


def test_four_equal_tiles_as_two_pairs_is_a_ruleset_option() -> None:
    counts = tuple(counts_of(parse_tiles("2222m77p33s88s11z66z")))
    assert is_seven_pairs(counts, True) and not is_seven_pairs(counts, False)
    # on by default (section 12): zeven tweelingen 250
    assert score("2222m77p33s88s11z66z", "6z")["total"] == 250
    # off: no irregular limit hand
    assert best_irregular(LIMIT_HANDS, counts, Options(seven_pairs_allow_four_equal=False)) is None


def test_pe_ling_does_not_make_seven_pairs() -> None:
    # 22m 55m 77p 33s 88s 66z + 1s + 1p: only as a pair of 1s would it be seven pairs; pe-ling is regular only
    result = score("22m55m77p33s88s66z1s1p", "1p")
    assert (result["valid"], result["reason_code"]) == (False, "no_winning_shape")


def test_heaven_needs_a_winning_shape() -> None:
    result = score("147m258p369s12345z", "1z", seat="E", self_drawn=True, flags=("heaven",))
    assert (result["valid"], result["reason_code"]) == (False, "no_winning_shape")


def test_heaven_with_an_irregular_hand() -> None:
    result = score("19m19p19s12345677z", "7z", seat="E", self_drawn=True, flags=("heaven",))
    assert result["total"] == 2000


@pytest.mark.parametrize("ruleset", ["app", "nts"])
def test_limit_values_are_the_same_in_both_rulesets(ruleset: str) -> None:
    assert score("1234567m1234567z", "7m", ruleset=ruleset)["total"] == 1000
    assert score("22557788m115566z", "1z", ruleset=ruleset)["total"] == 500
