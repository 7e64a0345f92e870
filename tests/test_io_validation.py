"""hand_from_dict / hand_to_dict and the validation of malformed input: one InputError line naming it."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from scoring import Hand, InputError, Meld, hand_from_dict, hand_to_dict, score_hand

WINNER: dict[str, Any] = {
    "seat_wind": "S",
    "prevailing_wind": "W",
    "concealed": "234p567m99s",
    "melds": [{"tiles": "555z", "open": True}, {"tiles": "666z"}],
    "winning_tile": "4p",
}
LOSER: dict[str, Any] = {
    "role": "loser",
    "seat_wind": "S",
    "prevailing_wind": "W",
    "concealed": "147m258p369s1457z",
}


def with_(base: dict[str, Any], **changes: Any) -> dict[str, Any]:
    out = {**base, **changes}
    return {key: value for key, value in out.items() if value is not ...}


def test_defaults() -> None:
    hand = hand_from_dict(WINNER)
    assert (hand.ruleset, hand.role, hand.self_drawn, hand.flags, hand.bonus) == (
        "app", "winner", False, frozenset(), (),
    )  # fmt: skip
    assert hand.melds == (Meld(("5z", "5z", "5z"), True), Meld(("6z", "6z", "6z"), True))  # open by default
    assert hand.concealed == ("5m", "6m", "7m", "2p", "3p", "4p", "9s", "9s")  # canonical order


@pytest.mark.parametrize("obj", [WINNER, LOSER, {**WINNER, "bonus": "2f1y", "self_drawn": True}])
def test_round_trip(obj: dict[str, Any]) -> None:
    hand = hand_from_dict(obj)
    assert hand_from_dict(hand_to_dict(hand)) == hand
    assert hand_to_dict(hand_from_dict(hand_to_dict(hand))) == hand_to_dict(hand)


def test_to_dict_is_the_contract_input() -> None:
    out = hand_to_dict(
        hand_from_dict({**WINNER, "melds": [{"tiles": "5555z", "open": False}, {"tiles": "666z"}]})
    )
    assert out["concealed"] == "567m234p99s"
    assert out["melds"] == [{"tiles": "5555z", "open": False}, {"tiles": "666z", "open": True}]
    assert out["winning_tile"] == "4p"
    assert "winning_tile" not in hand_to_dict(hand_from_dict(LOSER))


@pytest.mark.parametrize(
    ("given", "wind"), [("E", "E"), ("e", "E"), ("oost", "E"), ("South", "S"), ("N", "N")]
)
def test_wind_aliases(given: str, wind: str) -> None:
    assert hand_from_dict(with_(WINNER, seat_wind=given)).seat_wind == wind


def test_tiles_as_a_list_of_strings() -> None:
    hand = hand_from_dict(with_(WINNER, concealed=["234p", "567m", "9s", "9s"]))
    assert hand == hand_from_dict(WINNER)


MALFORMED: list[tuple[Any, str]] = [
    (["not", "an", "object"], "JSON object"),
    (with_(WINNER, foo=1), "'foo'"),
    (with_(WINNER, seat_wind=...), "'seat_wind'"),
    (with_(WINNER, prevailing_wind=...), "'prevailing_wind'"),
    (with_(WINNER, concealed=...), "'concealed'"),
    (with_(WINNER, winning_tile=...), "'winning_tile'"),
    (with_(WINNER, ruleset="riichi"), "'riichi'"),
    (with_(WINNER, ruleset=3), "ruleset"),
    (with_(WINNER, role="spectator"), "'spectator'"),
    (with_(WINNER, seat_wind="X"), "seat_wind"),
    (with_(WINNER, prevailing_wind=1), "prevailing_wind"),
    (with_(WINNER, concealed="234p567m99x"), "'x'"),
    (with_(WINNER, concealed="234p567m99s0m"), "'0m'"),
    (with_(WINNER, concealed=123), "concealed"),
    (with_(WINNER, concealed="234p567m9s1f"), "belongs in bonus"),
    (with_(WINNER, concealed="5z567m99s4p", melds=[{"tiles": "5555z", "open": False}, {"tiles": "666z"}]),
     "5 of '5z'"),
    (with_(LOSER, concealed="11111m58p369s1457z"), "5 of '1m'"),
    (with_(WINNER, bonus="1f1f"), "'1f'"),
    (with_(WINNER, bonus="1m"), "no flower"),
    (with_(WINNER, ruleset="nts", bonus="1f"), "nts"),
    (with_(WINNER, concealed="234p567m9s"), "wrong tile count for a winner"),
    (with_(WINNER, concealed="234p567m99s1z"), "wrong tile count for a winner"),
    (with_(WINNER, concealed="234p567m9s", melds=[{"tiles": "5555z"}, {"tiles": "666z"}]),
     "expected 15"),  # a kong needs the replacement tile
    (with_(LOSER, concealed="147m258p369s14567z"), "wrong tile count for a loser"),
    (with_(WINNER, melds=[{"tiles": "135z"}, {"tiles": "666z"}]), "no chow, pung or kong"),
    (with_(WINNER, melds=[{"tiles": "135m"}, {"tiles": "666z"}]), "no chow, pung or kong"),
    (with_(WINNER, melds=[{"tiles": "56z7z"}, {"tiles": "666z"}]), "no chow, pung or kong"),
    (with_(WINNER, melds=[{"tiles": "55z"}, {"tiles": "666z"}]), "no chow, pung or kong"),
    (with_(WINNER, melds=[{"tiles": "555z", "open": False}, {"tiles": "666z"}]), "only a kong"),
    (with_(WINNER, melds=[{"tiles": "555z", "open": "yes"}, {"tiles": "666z"}]), "open must be"),
    (with_(WINNER, melds=[{"tiles": "555z", "extra": 1}, {"tiles": "666z"}]), "'extra'"),
    (with_(WINNER, melds=[{"open": True}, {"tiles": "666z"}]), "'tiles'"),
    (with_(WINNER, melds="555z"), "melds must be a list"),
    (with_(WINNER, melds=[5, {"tiles": "666z"}]), "melds[0]"),
    (with_(WINNER, winning_tile="1m"), "must be one of the concealed"),
    (with_(WINNER, winning_tile="4p5p"), "exactly one tile"),
    (with_(WINNER, winning_tile="1f"), "winning_tile"),
    (with_(LOSER, winning_tile="1m"), "winner only"),
    (with_(LOSER, self_drawn=True), "winner only"),
    (with_(WINNER, self_drawn="yes"), "self_drawn"),
    (with_(WINNER, flags="last_tile"), "flags must be a list"),
    (with_(WINNER, flags=["lucky"]), "'lucky'"),
    # section 12: contradictory context
    (with_(WINNER, flags=["last_tile"]), "'last_tile' needs a self-drawn"),
    (with_(WINNER, flags=["kong_replacement"]), "'kong_replacement' needs a self-drawn"),
    (with_(WINNER, flags=["kong_on_kong"]), "'kong_on_kong' needs a self-drawn"),
    (with_(WINNER, flags=["robbing_kong"], self_drawn=True), "'robbing_kong' contradicts self_drawn"),
    (with_(WINNER, flags=["heaven"]), "'heaven' needs a self-drawn"),
    (with_(WINNER, flags=["heaven"], self_drawn=True, melds=..., concealed="234p567m99s555z666z"),
     "for East only"),
    (with_(WINNER, flags=["earth"], seat_wind="E", melds=..., concealed="234p567m99s555z666z"),
     "other than East"),
    (with_(WINNER, flags=["earth"], self_drawn=True), "'earth' contradicts self_drawn"),
    (with_(WINNER, flags=["heaven", "earth"], seat_wind="E", self_drawn=True), "exclude each other"),
    (with_(WINNER, concealed=["234p", 5]), "must be strings"),
    # context the engine also refuses (docs/SCORING_DECISIONS.md)
    (with_(WINNER, flags=["kong_replacement"], self_drawn=True), "needs a declared kong"),
    (with_(WINNER, flags=["kong_on_kong"], self_drawn=True, melds=[{"tiles": "5555z"}, {"tiles": "666z"}]),
     "two declared kongs"),
    (with_(WINNER, flags=["heaven"], seat_wind="E", self_drawn=True), "no declared melds"),
    (with_(WINNER, flags=["heaven", "last_tile"], seat_wind="E", self_drawn=True, melds=...,
           concealed="234p567m99s555z666z"), "exclude each other"),
    (with_(WINNER, flags=["robbing_kong"], concealed="234p567m44p", winning_tile="4p"), "cannot hold"),
    (with_(LOSER, flags=["last_tile"]), "winner only"),
]  # fmt: skip


@pytest.mark.parametrize(("obj", "named"), MALFORMED)
def test_malformed_input_names_the_problem(obj: Any, named: str) -> None:
    with pytest.raises(InputError) as error:
        hand_from_dict(obj)
    message = str(error.value)
    assert named in message
    assert "\n" not in message and len(message) < 200


def test_dead_hand_relaxes_the_tile_count() -> None:
    hand = hand_from_dict(with_(WINNER, concealed="234p567m9s4p", flags=["dead_hand"]))
    assert score_hand(hand).reason_code == "dead_hand"


def test_score_hand_validates_a_hand_built_in_code() -> None:
    bad = Hand(seat_wind="S", prevailing_wind="W", concealed=("1m",) * 5 + ("2m",) * 9, winning_tile="1m")
    with pytest.raises(InputError, match="5 of '1m'"):
        score_hand(bad)
    with pytest.raises(InputError, match="seat_wind"):
        score_hand(Hand(seat_wind="Q", prevailing_wind="W", concealed=(), winning_tile=None))
    with pytest.raises(InputError, match="unknown tile"):
        score_hand(Hand(seat_wind="S", prevailing_wind="W", concealed=("1x",), winning_tile="1x"))
    with pytest.raises(InputError, match="expected a Hand"):
        score_hand({"seat_wind": "S"})  # type: ignore[arg-type]


def test_contradictions_hold_for_hands_built_in_code() -> None:
    hand = hand_from_dict(WINNER)
    with pytest.raises(InputError, match="last_tile"):
        score_hand(replace(hand, flags=frozenset({"last_tile"})))


def test_a_meld_may_be_given_as_a_plain_string() -> None:
    assert hand_from_dict(with_(WINNER, melds=["555z", "666z"])) == hand_from_dict(WINNER)


def test_meld_kind() -> None:
    assert [Meld(tuple(t)).kind for t in (("1m", "2m", "3m"), ("5z",) * 3, ("9p",) * 4)] == [
        "chow",
        "pung",
        "kong",
    ]
    with pytest.raises(InputError, match="no chow, pung or kong"):
        _ = Meld(("1m", "2m", "4m")).kind
    with pytest.raises(InputError, match="no chow, pung or kong"):
        _ = Meld(("1f", "1f", "1f")).kind


HAND = Hand(
    seat_wind="S",
    prevailing_wind="W",
    concealed=("2p", "3p", "4p", "5m", "6m", "7m", "9s", "9s"),
    melds=(Meld(("5z",) * 3), Meld(("6z",) * 3)),
    winning_tile="4p",
)


@pytest.mark.parametrize(
    ("changes", "named"),
    [
        ({"concealed": "234p"}, "sequence of tile codes"),
        ({"concealed": ("2p", ["3p"])}, "unknown tile"),
        ({"melds": ("555z",)}, "expected Meld objects"),
        ({"melds": (Meld(("5z",) * 3, open="no"), Meld(("6z",) * 3))}, "open must be"),  # type: ignore[arg-type]
        ({"melds": None}, "melds must be a sequence"),
        ({"self_drawn": 1}, "self_drawn"),
        ({"flags": ["last_tile"]}, "flags must be a set"),
        ({"winning_tile": None}, "winning_tile is required"),
    ],
)
def test_hand_built_in_code_with_wrong_types(changes: dict[str, Any], named: str) -> None:
    assert score_hand(HAND).total == 112
    with pytest.raises(InputError, match=named):
        score_hand(replace(HAND, **changes))
