"""Hostile hand objects (scoring/io.py): wrong types and huge values give one short InputError line."""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring import InputError, Meld, hand_from_dict, score_hand
from scoring.io import KEYS
from scoring.rulesets import get_ruleset, ruleset_names
from scoring.settlement import MAX_SCORE, settle
from scoring.validate import validate_hand

BASE: dict[str, Any] = {
    "seat_wind": "E",
    "prevailing_wind": "S",
    "concealed": "234m567p777z88s",
    "melds": [{"tiles": "111z", "open": True}],
    "winning_tile": "4m",
}
MEGABYTE = "x" * 2**20
ODD_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats()
    | st.text(max_size=30)
    | st.sampled_from(
        ["E", "1m", "111z", "winner", "loser", "nts", "app", "last_tile", MEGABYTE, "1m" * 500]
    ),
    lambda children: (
        st.lists(children, max_size=3)
        | st.dictionaries(st.sampled_from(["tiles", "open", "x"]), children, max_size=3)
    ),
    max_leaves=6,
)


@given(st.dictionaries(st.sampled_from([*KEYS, "colour"]), ODD_VALUES, max_size=6))
@settings(max_examples=400, deadline=None)
def test_any_values_give_a_hand_or_one_short_input_error(change: dict[str, Any]) -> None:
    try:
        hand = hand_from_dict({**BASE, **change})
    except InputError as error:
        message = str(error)
        assert "\n" not in message and len(message) < 1000, message[:200]
        return
    score_hand(hand).to_dict()


@pytest.mark.parametrize("key", ["seat_wind", "concealed", "winning_tile", "bonus", "ruleset", "role"])
def test_a_megabyte_value_is_quoted_by_its_start(key: str) -> None:
    with pytest.raises(InputError) as caught:
        hand_from_dict({**BASE, key: MEGABYTE})
    message = str(caught.value)
    assert len(message) < 200 and key in message and "xxxx" in message


@pytest.mark.parametrize(
    ("change", "named"),
    [
        ({"role": ["winner"]}, "role must be a string"),
        ({"ruleset": {"name": "app"}}, "ruleset must be a string"),
        ({"flags": "last_tile"}, "flags must be a list"),
        ({"flags": [MEGABYTE]}, "too long"),
        ({"melds": [{"tiles": "111z", "open": MEGABYTE}]}, "open must be true or false"),
        ({MEGABYTE: 1}, "unknown key"),
        ({"self_drawn": [True]}, "self_drawn must be true or false, not [True]"),
    ],
)
def test_wrong_types_are_named(change: dict[str, Any], named: str) -> None:
    with pytest.raises(InputError, match=named.replace("[", r"\[").replace("]", r"\]")) as caught:
        hand_from_dict({**BASE, **change})
    assert len(str(caught.value)) < 200


@pytest.mark.parametrize("score", [2001, 10**4000])
def test_settle_refuses_scores_above_the_limit(score: int) -> None:
    with pytest.raises(InputError, match="above the limit of 2000") as caught:
        settle({"E": 0, "S": score, "W": 0, "N": 0}, "S")
    assert len(str(caught.value)) < 120
    assert settle({"E": 0, "S": 2000, "W": 0, "N": 0}, "S")["S"] == 8000


def test_the_settlement_cap_is_every_rulesets_limit() -> None:
    assert {get_ruleset(name).options.limit for name in ruleset_names()} == {MAX_SCORE}


@pytest.mark.parametrize(
    ("meld", "named"),
    [
        ({"tiles": "111x"}, "melds[0]"),
        ({"tiles": "111z", "colour": "red"}, "melds[0]: unknown key 'colour'"),
        ({"open": True}, "melds[0]: missing key 'tiles'"),
        ({"tiles": "111z", "open": "yes"}, "melds[0]: open must be true or false, not 'yes'"),
    ],
)
def test_bad_melds_are_named(meld: dict[str, Any], named: str) -> None:
    with pytest.raises(InputError, match=re.escape(named)):
        hand_from_dict({**BASE, "melds": [meld], "concealed": "234m567p777z88s"})


def test_a_meld_as_a_list_of_tiles_is_read_like_its_string() -> None:
    as_list = hand_from_dict({**BASE, "melds": [{"tiles": ["1z", "1z", "1z"], "open": True}]})
    assert as_list == hand_from_dict(BASE)


def test_a_meld_holding_an_unhashable_tile_is_an_input_error() -> None:
    """A Python caller's junk (a list where a tile code goes) is named, not a TypeError."""
    hand = hand_from_dict(BASE)
    junk = Meld((["1z"], "1z", "1z"), True)  # type: ignore[arg-type]
    with pytest.raises(InputError, match="unknown tile"):
        validate_hand(replace(hand, melds=(junk,)))
