"""The worked examples of SCORING section 11 (seeds 000 and 002), in both rulesets where they apply."""

from __future__ import annotations

from typing import Any

import pytest

from scoring import hand_from_dict, score_hand

SEED_000 = {
    "seat_wind": "E",
    "prevailing_wind": "S",
    "melds": [{"tiles": "111z", "open": True}],
    "concealed": "234m567p777z88s",
    "winning_tile": "4m",
    "self_drawn": True,
}
SEED_002 = {
    "seat_wind": "S",
    "prevailing_wind": "E",
    "melds": [{"tiles": "777z", "open": True}],
    "concealed": "222m345m678m22z",
    "winning_tile": "8m",
    "self_drawn": True,
}


def scored(hand: dict[str, Any], ruleset: str) -> dict[str, Any]:
    return score_hand(hand_from_dict({**hand, "ruleset": ruleset})).to_dict()


def summary(result: dict[str, Any]) -> tuple[bool, int, int, int]:
    return result["valid"], result["base_points"], result["doublings"], result["total"]


def points_of(result: dict[str, Any]) -> dict[str, int]:
    out: dict[str, int] = {}
    for item in result["items"]:
        if "points" in item:
            out[item["name"]] = out.get(item["name"], 0) + item["points"]
    return out


def doublings_of(result: dict[str, Any]) -> dict[str, int]:
    out: dict[str, int] = {}
    for item in result["items"]:
        if "doublings" in item:
            out[item["name"]] = out.get(item["name"], 0) + item["doublings"]
    return out


@pytest.mark.parametrize("ruleset", ["app", "nts"])
def test_seed_000_scores_136_in_both_rulesets(ruleset: str) -> None:
    result = scored(SEED_000, ruleset)
    # open pung 1z 4 + concealed pung 7z 8 + mahjong 20 + self-drawn 2 = 34; 88s pair 0;
    # waits 1m/4m: not unique.
    # doublings: dragon pung 1 + own wind (East) pung 1 = 2 -> 34 * 2 * 2 = 136
    assert summary(result) == (True, 34, 2, 136)
    assert points_of(result) == {
        "Mahjong": 20,
        "Zelf gepakte steen": 2,
        "Pong 1/9 of wind/draak (open)": 4,
        "Pong 1/9 of wind/draak (gesloten)": 8,
    }
    assert doublings_of(result) == {"Pong/kong van draken": 1, "Pong/kong van eigen wind": 1}
    assert result["limit_hand"] is None and result["reason"] is None and result["reason_code"] is None
    assert result["ruleset"] == ruleset and result["role"] == "winner"
    assert {"kind": "pung", "tiles": "111z", "open": True} in result["sets"]
    assert {"kind": "pung", "tiles": "777z", "open": False} in result["sets"]
    assert {"kind": "pair", "tiles": "88s", "open": False} in result["sets"]


def test_seed_002_nts_scores_128() -> None:
    result = scored(SEED_002, "nts")
    # 20 + 2 (self-drawn) + 4 (open dragon pung) + 4 (concealed simple pung 222m)
    # + 2 (pair of own wind South) = 32
    # doublings: dragon pung 1 + schoon spel (characters + honours) 1 -> 32 * 4 = 128
    assert summary(result) == (True, 32, 2, 128)
    assert points_of(result)["Paar van eigen wind"] == 2
    assert doublings_of(result) == {"Pong/kong van draken": 1, "Schoon spel": 1}


def test_seed_002_app_scores_120() -> None:
    result = scored(SEED_002, "app")
    # the wind pair scores 0 in app: 20 + 2 + 4 + 4 = 30; 2 doublings -> 30 * 4 = 120
    assert summary(result) == (True, 30, 2, 120)
    assert "Paar van eigen wind" not in points_of(result)


def test_seed_002_on_a_discard_loses_the_self_drawn_points() -> None:
    # 8m by discard completes the chow 678m: chows are unaffected by open/concealed.
    # nts: 20 + 4 + 4 + 2 = 30 -> 30 * 4 = 120
    result = scored({**SEED_002, "self_drawn": False}, "nts")
    assert (result["base_points"], result["total"]) == (30, 120)


def test_result_object_has_the_contract_keys() -> None:
    result = scored(SEED_000, "app")
    assert set(result) >= {
        "valid", "reason", "reason_nl", "reason_code", "total", "base_points", "doublings", "limit_hand",
        "items", "sets", "ruleset", "role",
    }  # fmt: skip
    for item in result["items"]:
        assert set(item) >= {"name", "name_en"}
        assert ("points" in item) != ("doublings" in item)
    for group in result["sets"]:
        assert group["kind"] in {"chow", "pung", "kong", "pair", "seven_pairs", "loose"}


@pytest.mark.parametrize("ruleset", ["app", "nts"])
def test_seed_002_schoon_spel_example_hand(ruleset: str) -> None:
    # seed 002's "schoon spel in tekens": 123m 555m 789m 222z (South) 99m, all concealed;
    # South in East's round, 9m by discard. The 9m could complete 789m or the pair 99m;
    # the pair reading scores more.
    hand = {"seat_wind": "S", "prevailing_wind": "E", "concealed": "123555789m99m222z", "winning_tile": "9m"}
    result = scored(hand, ruleset)
    # 20 + 4 (555m concealed) + 8 (222z concealed) + 2 (volmaken van het paar) = 34;
    # waits 6m and 9m: not unique
    # doublings: own wind pung 1 + schoon 1 -> 34 * 4 = 136
    assert summary(result) == (True, 34, 2, 136)
    assert points_of(result)["Volmaken van het paar"] == 2
    # self-drawn: + 2 and volledig gesloten 2 -> 36 * 16 = 576
    assert summary(scored({**hand, "self_drawn": True}, ruleset)) == (True, 36, 4, 576)
