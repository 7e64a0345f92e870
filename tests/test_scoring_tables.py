"""Every row of SCORING sections 3-6, each with a real hand whose total would change if the row were wrong.

Defaults: seat South, prevailing West, ruleset app, win on a discard. Melds: "555z" is open, "[2222m]" a
concealed kong. The arithmetic behind every expected value is in the comment next to it.
"""

from __future__ import annotations

from typing import Any

import pytest
from scoring_hands import score


def items(result: dict[str, Any]) -> dict[str, int]:
    """Item name -> summed points or doublings."""
    out: dict[str, int] = {}
    for item in result["items"]:
        out[item["name"]] = out.get(item["name"], 0) + item.get("points", item.get("doublings", 0))
    return out


def summary(result: dict[str, Any]) -> tuple[bool, int, int, int]:
    return result["valid"], result["base_points"], result["doublings"], result["total"]


# --- Section 4: base points of pungs, kongs and chows, for every player -----------------------------------

# (meld or concealed set, as a declared meld?, row name, points)
SET_ROWS = [
    ("555m", True, "Pong eenvoudige steen (open)", 2),
    ("555m", False, "Pong eenvoudige steen (gesloten)", 4),
    ("999m", True, "Pong 1/9 of wind/draak (open)", 4),
    ("999m", False, "Pong 1/9 of wind/draak (gesloten)", 8),
    ("111z", True, "Pong 1/9 of wind/draak (open)", 4),  # East is an honour; no doubling for seat S/W
    ("111z", False, "Pong 1/9 of wind/draak (gesloten)", 8),
    ("5555m", True, "Kong eenvoudige steen (open)", 8),
    ("[5555m]", True, "Kong eenvoudige steen (gesloten)", 16),
    ("9999m", True, "Kong 1/9 of wind/draak (open)", 16),
    ("[9999m]", True, "Kong 1/9 of wind/draak (gesloten)", 32),
    ("1111z", True, "Kong 1/9 of wind/draak (open)", 16),
    ("[1111z]", True, "Kong 1/9 of wind/draak (gesloten)", 32),
]


@pytest.mark.parametrize(("tiles", "declared", "row", "points"), SET_ROWS)
def test_set_points_for_a_loser(tiles: str, declared: bool, row: str, points: int) -> None:
    # filler 147m 258p 369s 4z: ten single tiles, no chow, no pair, three suits + honour -> scores nothing.
    filler = "147m258p369s4z"
    result = score(filler, melds=(tiles,)) if declared else score(filler + tiles)
    # the set alone: points * 2^0
    assert items(result) == {row: points}
    assert summary(result) == (True, points, 0, points)


@pytest.mark.parametrize(("tiles", "declared", "row", "points"), SET_ROWS)
def test_set_points_for_a_winner(tiles: str, declared: bool, row: str, points: int) -> None:
    # open dragon pungs 555z + 666z (4 + 4, one doubling each), 234p 99s, 4p by discard (waits 1p/4p).
    melds = ("555z", "666z", tiles) if declared else ("555z", "666z")
    concealed = "234p99s" if declared else "234p99s" + tiles
    result = score(concealed, "4p", melds=melds)
    # 20 + 4 + 4 + set points, 2 doublings -> * 4
    assert summary(result) == (True, 28 + points, 2, (28 + points) * 4)
    # the two open dragon pungs share the open honour pung row: 4 + 4
    assert items(result)[row] == points + (8 if row == "Pong 1/9 of wind/draak (open)" else 0)


def test_a_chow_scores_nothing() -> None:
    # loser: open chow 567m + filler: 0 points
    assert summary(score("147m258p369s4z", melds=("567m",))) == (True, 0, 0, 0)
    # winner: 555z 666z open, concealed chow 678m: 20 + 4 + 4 = 28 -> 112
    assert summary(score("678m234p99s", "4p", melds=("555z", "666z"))) == (True, 28, 2, 112)


def test_a_pung_completed_by_a_discard_is_open() -> None:
    # 222m 444p 555z 77s 99s + 7s by discard: 777s counts open (2, not 4).
    result = score("222m444p555z777s99s", "7s")
    # 4 + 4 + 8 + 2 + 20 = 38; doublings: dragon 1 + 3 concealed pungs 1 + vier pungs 1 = 3 -> 38 * 8 = 304
    assert summary(result) == (True, 38, 3, 304)
    assert items(result)["Pong eenvoudige steen (open)"] == 2
    assert "Vier pungs dicht" not in items(result)
    assert {"kind": "pung", "tiles": "777s", "open": True, "winning": True} in result["sets"]


def test_the_same_pung_self_drawn_stays_concealed_and_hits_the_cap() -> None:
    result = score("222m444p555z777s99s", "7s", self_drawn=True)
    # 4 + 4 + 8 + 4 + 20 + 2 (self-drawn) = 42; doublings: 4 concealed pungs 2 + vier pungs 1 + dragon 1 +
    # volledig gesloten 2 = 6 -> 42 * 64 = 2688, capped at 2000
    assert summary(result) == (True, 42, 6, 2000)


# --- Section 4: pairs, per ruleset ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("pair", "seat", "prevailing", "app_points", "nts_points"),
    [
        ("55z", "S", "W", 2, 2),  # pair of dragons
        ("77z", "S", "W", 2, 2),
        ("22z", "S", "W", 0, 2),  # own wind
        ("33z", "S", "W", 0, 2),  # prevailing wind
        ("11z", "E", "E", 0, 4),  # own and prevailing: 2 + 2
        ("44z", "S", "W", 0, 0),  # another wind
        ("99s", "S", "W", 0, 0),  # any other pair
    ],
)
def test_pair_points(pair: str, seat: str, prevailing: str, app_points: int, nts_points: int) -> None:
    for ruleset, points in (("app", app_points), ("nts", nts_points)):
        # winner: four chows, fully concealed, self-drawn 4m (waits 1m/4m):
        # 20 + 2 + pair; doublings vier chows 1 + volledig gesloten 2 = 3 -> * 8
        winner = score(
            "234m567m345p678s" + pair,
            "4m",
            seat=seat,
            prevailing=prevailing,
            ruleset=ruleset,
            self_drawn=True,
        )
        assert summary(winner) == (True, 22 + points, 3, (22 + points) * 8), ruleset
        # loser: 147m 258p 368s 19p singles + the pair: the pair alone
        loser = score("147m258p368s19p" + pair, seat=seat, prevailing=prevailing, ruleset=ruleset)
        assert summary(loser) == (True, points, 0, points), ruleset


# --- Section 4: bonus tiles (app) -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("bonus", "expected"),
    [
        ("1f", (True, 26, 3, 208)),  # four-chows hand 22 + 4 = 26, 3 doublings -> 208
        ("1y", (True, 26, 3, 208)),
        ("2f", (True, 26, 4, 416)),  # own flower (South = 2): + 1 doubling -> 26 * 16
        ("2y", (True, 26, 4, 416)),  # own season
        ("2f2y", (True, 30, 5, 960)),  # 22 + 8 = 30, 3 + 2 doublings -> 30 * 32
        ("134f1y", (True, 38, 3, 304)),  # 22 + 16 = 38, no own tile -> 38 * 8
    ],
)
def test_bonus_tiles_for_the_winner(bonus: str, expected: tuple[bool, int, int, int]) -> None:
    assert summary(score("234m567m345p678s99s", "4m", self_drawn=True, bonus=bonus)) == expected


def test_bonus_tiles_for_a_loser() -> None:
    # 4 + 4 points, own season (2y for South) 1 doubling -> 8 * 2 = 16
    result = score("147m258p369s1457z", bonus="1f2y")
    assert summary(result) == (True, 8, 1, 16)
    assert items(result) == {"Bloem": 4, "Seizoen": 4, "Eigen seizoen": 1}


def test_own_flower_doublings_count_toward_the_minimum_in_app() -> None:
    # open 555z + open chow 123p; 456m 789s 99s, 4m by discard: 20 + 4 = 24, dragon pung 1 doubling only
    assert summary(score("456m789s99s", "4m", melds=("555z", "123p"))) == (False, 24, 1, 0)
    # with own flower (2f for South): 24 + 4 = 28, doublings 2 -> 28 * 4 = 112
    assert summary(score("456m789s99s", "4m", melds=("555z", "123p"), bonus="2f")) == (True, 28, 2, 112)
    # another seat's flower adds points but no doubling: still too few
    assert summary(score("456m789s99s", "4m", melds=("555z", "123p"), bonus="1f")) == (False, 28, 1, 0)


# --- Section 5: winner-only points ------------------------------------------------------------------------

TWO_DRAGONS = ("555z", "666z")  # open: 4 + 4 points, 2 doublings; base 28 with Mahjong


@pytest.mark.parametrize(
    ("concealed", "win", "self_drawn", "base", "rows"),
    [
        # 234p 567m 99s, 4p two-sided: 20 + 4 + 4 = 28
        ("234p567m99s", "4p", False, 28, {"Mahjong": 20}),
        # self-drawn: + 2 = 30
        ("234p567m99s", "4p", True, 30, {"Mahjong": 20, "Zelf gepakte steen": 2}),
        # edge wait 12p -> only 3p: + 2 = 30
        ("123p567m99s", "3p", False, 30, {"Enig mogelijke steen": 2}),
        # closed wait 24p -> only 3p: 30
        ("234p567m99s", "3p", False, 30, {"Enig mogelijke steen": 2}),
        # single wait on the pair 9s: enig mogelijke 2 + volmaken van het paar 2 = 32
        ("234p567m99s", "9s", False, 32, {"Enig mogelijke steen": 2, "Volmaken van het paar": 2}),
        # 1234p waits on 1p and 4p; 4p makes 123p + 44p: volmaken 2, not enig -> 30
        ("12344p567m", "4p", False, 30, {"Volmaken van het paar": 2}),
        # pe-ling eet cake: 1p read as 1s completes 11s; waits only 1s: 20 + 8 + 2 + 2 + 10 = 42
        (
            "234p567m1s1p",
            "1p",
            False,
            42,
            {"Pe-ling eet cake": 10, "Volmaken van het paar": 2, "Enig mogelijke steen": 2},
        ),
        # the same self-drawn: 44
        (
            "234p567m1s1p",
            "1p",
            True,
            44,
            {
                "Pe-ling eet cake": 10,
                "Zelf gepakte steen": 2,
                "Volmaken van het paar": 2,
                "Enig mogelijke steen": 2,
            },
        ),
    ],
)
def test_winner_points(concealed: str, win: str, self_drawn: bool, base: int, rows: dict[str, int]) -> None:
    result = score(concealed, win, melds=TWO_DRAGONS, self_drawn=self_drawn)
    assert summary(result) == (True, base, 2, base * 4)
    found = items(result)
    for row, points in rows.items():
        assert found[row] == points
    for row in {
        "Zelf gepakte steen",
        "Enig mogelijke steen",
        "Volmaken van het paar",
        "Pe-ling eet cake",
    } - set(rows):
        assert row not in found


def test_pe_ling_shows_the_cake_in_the_pair() -> None:
    result = score("234p567m1s1p", "1p", melds=TWO_DRAGONS)
    assert {"kind": "pair", "tiles": "1p1s", "open": False, "winning": True} in result["sets"]


def test_pe_ling_counts_the_cake_as_bamboo_for_purity() -> None:
    # open 222s; 123s 456s 789s 1s + 1p: read as 11s the hand is all bamboo (zuiver 3).
    # waits of 123456789s1s: 1s, 4s, 7s -> not unique. 20 + 2 (open simple pung) + 2 (pair) + 10 = 34 -> * 8
    result = score("123456789s1s1p", "1p", melds=("222s",))
    assert summary(result) == (True, 34, 3, 272)
    assert items(result)["Zuiver"] == 3


def test_pe_ling_is_the_rulesets_option(monkeypatch: pytest.MonkeyPatch) -> None:
    # the same hand as above under a ruleset without the pe-ling option: 1p fits nowhere -> no mahjong
    from dataclasses import replace

    import scoring.scorer
    from scoring.rulesets import get_ruleset

    app = get_ruleset("app")
    without = replace(app, options=replace(app.options, pe_ling_eet_cake=False))
    monkeypatch.setattr(scoring.scorer, "get_ruleset", lambda name: without)
    result = score("234p567m1s1p", "1p", melds=TWO_DRAGONS)
    assert (result["valid"], result["reason_code"]) == (False, "no_winning_shape")


def test_the_minimum_in_the_reason_is_the_rulesets(monkeypatch: pytest.MonkeyPatch) -> None:
    from dataclasses import replace

    import scoring.result
    from scoring.rulesets import get_ruleset

    app = get_ruleset("app")
    three = replace(app, options=replace(app.options, min_doublings=3))
    monkeypatch.setattr(scoring.result, "get_ruleset", lambda name: three)
    result = score("234p567m99s", "4p", melds=("555z", "444z"))
    assert result["reason"] == "too few doublings: a mahjong needs at least 3"


def test_a_1p_completing_a_chow_is_no_pe_ling() -> None:
    # 23p + 1p makes 123p; the 11s pair is not completed by it: 20 + 4 + 4 = 28 -> 112
    result = score("123p567m11s", "1p", melds=TWO_DRAGONS)
    assert summary(result) == (True, 28, 2, 112)
    assert "Pe-ling eet cake" not in items(result)


# --- Section 6: doublings for every player ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("wind_pung", "seat", "prevailing", "doublings", "total"),
    [
        ("222z", "S", "W", 2, 112),  # dragon 1 + own wind 1 -> 28 * 4
        ("333z", "S", "W", 2, 112),  # dragon 1 + prevailing wind 1
        ("111z", "E", "E", 3, 224),  # dragon 1 + own 1 + prevailing 1 -> 28 * 8
        ("444z", "S", "W", 1, 0),  # dragon only: too few doublings
    ],
)
def test_wind_pung_doublings(wind_pung: str, seat: str, prevailing: str, doublings: int, total: int) -> None:
    # open 555z + open wind pung (4 + 4) + 20 = 28
    result = score("234p567m99s", "4p", melds=("555z", wind_pung), seat=seat, prevailing=prevailing)
    assert summary(result) == (total > 0, 28, doublings, total)


@pytest.mark.parametrize(
    ("pung", "seat", "prevailing", "total"),
    [
        ("555z", "S", "W", 16),  # concealed dragon pung 8, 1 doubling
        ("222z", "S", "W", 16),  # own wind
        ("333z", "S", "W", 16),  # prevailing wind
        ("111z", "E", "E", 32),  # own and prevailing: 8 * 4
        ("444z", "S", "W", 8),
        ("999p", "E", "E", 8),  # a pung of terminals is never a wind pung
        ("111m", "E", "E", 8),  # (111m + the filler's 1m: pung and a loose tile)
    ],
)
def test_honour_pung_doublings_for_a_loser(pung: str, seat: str, prevailing: str, total: int) -> None:
    assert score("147m258p369s" + pung + "6z", seat=seat, prevailing=prevailing)["total"] == total


def test_one_doubling_per_dragon_set() -> None:
    # open 555z, 666z and concealed kong 7777z is three dragons: a limit hand. Two dragon sets: 2 doublings.
    result = score("234p567m99s", "4p", melds=("555z", "[6666z]"))
    # 4 + 32 + 20 = 56; 2 doublings -> 224
    assert summary(result) == (True, 56, 2, 224)
    assert items(result)["Pong/kong van draken"] == 2


@pytest.mark.parametrize(
    ("concealed", "win", "melds", "family_row", "expected"),
    [
        # 222m 444p 555z concealed pungs, 678m, 99s; 6m two-sided. 4 + 4 + 8 + 20 = 36; dragon 1 + 3 dicht 1
        ("222m444p555z678m99s", "6m", (), "Drie pungs dicht", (True, 36, 2, 144)),
        # four concealed pungs, single wait 1z (East, no doubling for South): 4 + 4 + 8 + 4 + 20 + 2 + 2 = 44;
        # vier dicht 2 + vier pungs 1 + dragon 1 = 4 -> 704 (the family gives 2, not 1 + 2)
        ("222m444p555z777s11z", "1z", (), "Vier pungs dicht", (True, 44, 4, 704)),
        # with 99s instead the 777s 9s shape also waits on 8s (77 + 789): no enig mogelijke steen, 42 * 16
        ("222m444p555z777s99s", "9s", (), "Vier pungs dicht", (True, 42, 4, 672)),
        # three concealed kongs: 16 * 3 + 20 = 68; 3 kongs dicht 2 (not + 1 for 3 pungs dicht) -> 272
        ("567m99s", "5m", ("[2222m]", "[4444p]", "[7777s]"), "Drie kongs dicht", (True, 68, 2, 272)),
        # four open kongs, single wait 9s: 8 * 4 + 20 + 2 + 2 = 56; vier kongs 3 + vier pungs 1 -> 896
        ("99s", "9s", ("2222m", "4444p", "7777s", "3333m"), "Vier kongs", (True, 56, 4, 896)),
        # three concealed + one open kong: 16 * 3 + 8 + 24 = 80; family max 3 (not 1 + 2 + 3) + vier pungs 1
        ("99s", "9s", ("[2222m]", "[4444p]", "[7777s]", "3333m"), "Vier kongs", (True, 80, 4, 1280)),
    ],
)
def test_concealed_family(
    concealed: str, win: str, melds: tuple[str, ...], family_row: str, expected: tuple[bool, int, int, int]
) -> None:
    result = score(concealed, win, melds=melds)
    assert summary(result) == expected
    family = {"Drie pungs dicht", "Vier pungs dicht", "Drie kongs dicht", "Vier kongs"}
    assert [name for name in items(result) if name in family] == [family_row]


@pytest.mark.parametrize(
    ("concealed", "expected"),
    [
        # 222m 444p 666s pungs + 9m 1p 9s 4z: 4 * 3 = 12, 3 dicht 1 -> 24
        ("222m444p666s9m1p9s4z", 24),
        # + 888m: 4 * 4 = 16, 4 dicht 2 -> 64
        ("222m444p666s888m9s", 64),
    ],
)
def test_concealed_family_for_a_loser(concealed: str, expected: int) -> None:
    assert score(concealed)["total"] == expected


@pytest.mark.parametrize(
    ("hand", "row", "expected"),
    [
        # winner, terminals of several suits + honours: open 111m 999p 555z (4 * 3), concealed 111s (8),
        # 9m single wait: 12 + 8 + 20 + 2 + 2 = 44; schoon 1 + dragon 1 + vier pungs 1 = 3 -> 352
        (("111s99m", "9m", ("111m", "999p", "555z")), "Schoon spel", (True, 44, 3, 352)),
        # winner, terminals of one suit + honours: open 111m 555z, concealed 999m 444z, 66z single wait:
        # 4 + 4 + 8 + 8 + 2 (dragon pair) + 20 + 2 + 2 = 50; zeer schoon 2 + dragon 1 + vier pungs 1 -> 800
        (("999m444z66z", "6z", ("111m", "555z")), "Zeer schoon", (True, 50, 4, 800)),
        # winner, one suit: open 888p (2), 111p (8), 234p 567p 99p, 9p (waits 8p and 9p): 2 + 8 + 20 + 2 = 32;
        # zuiver 3 -> 256
        (("111234567p99p", "9p", ("888p",)), "Zuiver", (True, 32, 3, 256)),
        # loser, one suit + honours: 111z pung 8, 123456789m, 4z: schoon 1 -> 16
        (("111z123456789m4z", None, ()), "Schoon spel", (True, 8, 1, 16)),
        # loser, terminals of several suits, no honours (section 12): 111m 999p 111s pungs 24, 99s 9m 1p;
        # 3 dicht 1 + schoon 1 -> 96
        (("111m999p111s99s9m1p", None, ()), "Schoon spel", (True, 24, 2, 96)),
        # loser, terminals of one suit + honours: 111m 999m 111z pungs 24, 44z 7z 5z;
        # 3 dicht 1 + zeer schoon 2 -> 24 * 8
        (("111m999m111z44z5z7z", None, ()), "Zeer schoon", (True, 24, 3, 192)),
        # loser, honours only: 111z 444z pungs 16, best pair 55z 2 = 18; zuiver 3 -> 144
        (("111z444z55z66z2z3z7z", None, ()), "Zuiver", (True, 18, 3, 144)),
    ],
)
def test_purity_family(
    hand: tuple[str, str | None, tuple[str, ...]], row: str, expected: tuple[bool, int, int, int]
) -> None:
    concealed, win, melds = hand
    result = score(concealed, win, melds=melds)
    assert summary(result) == expected
    assert [name for name in items(result) if name in {"Schoon spel", "Zeer schoon", "Zuiver"}] == [row]


def test_purity_needs_one_suit() -> None:
    # 123m 456p 789s + 111z + 4z loser: 8 points, no purity -> 8
    assert summary(score("123m456p789s111z4z")) == (True, 8, 0, 8)


# --- Section 6: doublings for the winner only -------------------------------------------------------------


@pytest.mark.parametrize(
    ("concealed", "win", "melds", "self_drawn", "flags", "rows", "expected"),
    [
        # four chows, self-drawn: 22; vier chows 1 + volledig gesloten 2 -> 176
        ("234m567m345p678s99s", "4m", (), True, (), {"Vier chows": 1, "Volledig gesloten hand": 2},
         (True, 22, 3, 176)),
        # all simples, self-drawn: 20 + 2 + 4 (555p) = 26; pure eenvoud 1 + volledig gesloten 2 -> 208
        ("234m678m345s555p88s", "4m", (), True, (), {"Pure eenvoud": 1}, (True, 26, 3, 208)),
        # kleine vier winden: open 111z 222z 333z, 567m 44z: 12 + 20 = 32; kleine vier winden 1 + own wind 1 +
        # prevailing 1 + schoon 1 -> 512
        ("567m44z", "5m", ("111z", "222z", "333z"), False, (), {"Kleine vier winden": 1}, (True, 32, 4, 512)),
        # kleine drie draken: open 555z 666z, 234p 678s 77z, 7z single wait: 8 + 2 + 20 + 2 + 2 = 34;
        # dragons 2 + kleine drie draken 1 -> 272
        ("234p678s77z", "7z", ("555z", "666z"), False, (), {"Kleine drie draken": 1}, (True, 34, 3, 272)),
        # a concealed kong keeps the hand fully concealed: 16 + 20 + 2 = 38; 2 -> 152
        ("567m345p678s99s", "5m", ("[2222m]",), True, (), {"Volledig gesloten hand": 2}, (True, 38, 2, 152)),
        # last tile of the wall: four chows self-drawn 22; 1 + 2 + 1 -> 352
        ("234m567m345p678s99s", "4m", (), True, ("last_tile",), {"Laatste steen van de muur": 1},
         (True, 22, 4, 352)),
        # ... with 1p: maan van de bodem van de zee 3, not 1 + 3: 1 + 2 + 3 -> 22 * 64 = 1408
        ("123p567m345s678s99s", "1p", (), True, ("last_tile",), {"Maan van de bodem van de zee": 3},
         (True, 22, 6, 1408)),
        # kong replacement: 38; volledig gesloten 2 + 1 -> 304
        ("567m345p678s99s", "5m", ("[2222m]",), True, ("kong_replacement",),
         {"Kong met bloeiende bloemen": 1}, (True, 38, 3, 304)),
        # ... with 5p (pruimenbloesem 3, not 1 + 3): 38 * 2^5 = 1216
        ("567m345p678s99s", "5p", ("[2222m]",), True, ("kong_replacement",), {"Pruimenbloesem": 3},
         (True, 38, 5, 1216)),
        # kong op kong: two concealed kongs 16 + 16 + 20 + 2 = 54; 2 + 2 -> 864
        ("567m345p99s", "5m", ("[2222m]", "[4444s]"), True, ("kong_on_kong",), {"Kong op kong": 2},
         (True, 54, 4, 864)),
        # kong op kong on 5p: the kong family's highest is pruimenbloesem 3 -> 54 * 32 = 1728
        ("567m345p99s", "5p", ("[2222m]", "[4444s]"), True, ("kong_on_kong",), {"Pruimenbloesem": 3},
         (True, 54, 5, 1728)),
        # robbing the kong: 28 with two open dragon pungs; 2 + 1 -> 224
        ("234p567m99s", "4p", ("555z", "666z"), False, ("robbing_kong",), {"Kongroof": 1},
         (True, 28, 3, 224)),
    ],
)  # fmt: skip
def test_winner_doublings(
    concealed: str,
    win: str,
    melds: tuple[str, ...],
    self_drawn: bool,
    flags: tuple[str, ...],
    rows: dict[str, int],
    expected: tuple[bool, int, int, int],
) -> None:
    result = score(concealed, win, melds=melds, self_drawn=self_drawn, flags=flags)
    assert summary(result) == expected
    found = items(result)
    for row, value in rows.items():
        assert found[row] == value
    wall_and_kong = {
        "Laatste steen van de muur",
        "Maan van de bodem van de zee",
        "Kong met bloeiende bloemen",
        "Pruimenbloesem",
        "Kong op kong",
    }
    assert set(found) & wall_and_kong == set(rows) & wall_and_kong


def test_maan_looks_at_the_physical_1p_of_a_pe_ling() -> None:
    # 234p 567m 1s + self-drawn last 1p read as 1s: 20 + 8 + 2 (self) + 2 (only 1s) + 2 (pair) + 10 = 44;
    # dragons 2 + maan van de bodem van de zee 3 -> 44 * 32 = 1408
    result = score("234p567m1s1p", "1p", melds=TWO_DRAGONS, self_drawn=True, flags=("last_tile",))
    assert summary(result) == (True, 44, 5, 1408)
    assert items(result)["Maan van de bodem van de zee"] == 3


def test_vier_pungs_needs_four_pungs() -> None:
    # three concealed pungs + chow: no vier pungs (see the 144 hand above); four: + 1 (the 704 hand above)
    assert "Vier pungs" not in items(score("222m444p555z678m99s", "6m"))
    assert items(score("222m444p555z777s99s", "9s"))["Vier pungs"] == 1


def test_an_open_meld_or_a_discard_spoils_the_fully_concealed_hand() -> None:
    # open kong 2222m (8) + 20 + 2 = 30, no doublings: too few
    assert summary(score("567m345p678s99s", "5m", melds=("2222m",), self_drawn=True)) == (False, 30, 0, 0)
    # concealed kong, but won on a discard: 16 + 20 = 36, no doublings
    assert summary(score("567m345p678s99s", "5m", melds=("[2222m]",))) == (False, 36, 0, 0)


@pytest.mark.parametrize(
    ("concealed", "expected"),
    [
        ("234m567m345p678s9s", 0),  # four chows + a single: winner-only vier chows does not apply
        ("234m678m345s555p8s", 4),  # all simples with a concealed pung: 4 points, no pure eenvoud
    ],
)
def test_winner_only_rows_do_not_apply_to_losers(concealed: str, expected: int) -> None:
    result = score(concealed)
    assert result["total"] == expected
    assert not {"Mahjong", "Vier chows", "Pure eenvoud"} & set(items(result))


# --- Section 3: the procedure: minimum doublings, cap, invalid results ------------------------------------


def test_too_few_doublings_is_an_invalid_result_with_the_breakdown() -> None:
    # open 555z + open 444z (North, not seat or prevailing): 28 points, dragon pung 1 doubling
    result = score("234p567m99s", "4p", melds=("555z", "444z"))
    assert result["valid"] is False
    assert result["reason_code"] == "too_few_doublings"
    assert result["reason_nl"] == "te weinig verdubbelingen"
    assert result["reason"] and "doublings" in result["reason"]
    assert (result["total"], result["base_points"], result["doublings"]) == (0, 28, 1)
    assert items(result)["Pong/kong van draken"] == 1
    assert result["sets"]


def test_no_winning_shape() -> None:
    result = score("147m258p369s1234z7z", "1z")
    assert (result["valid"], result["reason_code"], result["reason_nl"], result["total"]) == (
        False, "no_winning_shape", "geen mahjong-vorm", 0,
    )  # fmt: skip


@pytest.mark.parametrize("role_win", ["4p", None])
def test_dead_hand_scores_zero(role_win: str | None) -> None:
    concealed = "234p567m99s" if role_win else "234p567m9s"
    result = score(concealed, role_win, melds=("555z", "666z"), flags=("dead_hand",))
    assert (result["valid"], result["reason_code"], result["reason_nl"], result["total"]) == (
        False, "dead_hand", "dood spel", 0,
    )  # fmt: skip


def test_cap_applies_to_losers_too() -> None:
    # loser: concealed kongs 5555z 6666z 7777z: 32 * 3 = 96 (pair 11z scores 0 in app); dragons 3 +
    # 3 kongs dicht 2 + zuiver (honours only) 3 = 8 -> 96 * 256 = 24576 -> 2000
    result = score("11z2z3z", melds=("[5555z]", "[6666z]", "[7777z]"))
    assert summary(result) == (True, 96, 8, 2000)


def test_a_ruleset_may_keep_flower_doublings_out_of_the_minimum(monkeypatch: pytest.MonkeyPatch) -> None:
    from dataclasses import replace

    import scoring.scorer
    from scoring.rulesets import get_ruleset

    app = get_ruleset("app")
    strict = replace(app, options=replace(app.options, bonus_doublings_count_toward_minimum=False))
    monkeypatch.setattr(scoring.scorer, "get_ruleset", lambda name: strict)
    # the 112 hand above (dragon pung 1 + own flower 1): only 1 doubling counts toward the minimum now
    result = score("456m789s99s", "4m", melds=("555z", "123p"), bonus="2f")
    assert summary(result) == (False, 28, 2, 0)
    assert result["reason_code"] == "too_few_doublings"


def test_a_1p_that_only_fits_as_1s_in_a_chow_is_no_mahjong() -> None:
    # 23s + 1p: read as 1s it would make the chow 123s, but pe-ling needs the pair of 1s;
    # as 1p it fits nowhere
    result = score("23s567m99s1p", "1p", melds=TWO_DRAGONS)
    assert (result["valid"], result["reason_code"]) == (False, "no_winning_shape")
