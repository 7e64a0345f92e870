"""Corners of the scoring package that the tables do not reach: the ruleset registry's own failures, the
lazy names, a meld given as a list, the Dutch reason, a group that can make no sets."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

import scoring
from scoring import Hand, InputError, Meld, hand_from_dict, score_hand
from scoring.rulesets import RULESETS_ENV, get_ruleset, ruleset_names
from scoring.tiles import is_wind
from scoring.waits import _group_waits
from scoring.wording import field_name

TOO_FEW = {
    "seat_wind": "S",
    "prevailing_wind": "W",
    "concealed": "234p567m99s456s",
    "melds": [{"tiles": "555z", "open": True}],
    "winning_tile": "4p",
}


def test_ruleset_names_are_the_registry() -> None:
    assert ruleset_names() == ("app", "nts")


def test_a_ruleset_file_must_carry_its_own_name(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "house.py").write_text(
        "from scoring.rulesets.app import RULESET as APP\nfrom dataclasses import replace\n"
        "RULESET = replace(APP, name='club')\n"
    )
    (tmp_path / "_helper.py").write_text("RULESET = None\n")  # leading underscore: not a ruleset
    monkeypatch.setenv(RULESETS_ENV, str(tmp_path))
    assert "_helper" not in ruleset_names()
    with pytest.raises(InputError, match=r"ruleset file house\.py names its ruleset 'club'"):
        get_ruleset("house")


def test_a_ruleset_file_that_cannot_be_loaded_says_so(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "broken.py").write_text("RULESET = None\n")
    monkeypatch.setenv(RULESETS_ENV, str(tmp_path))
    monkeypatch.setattr(importlib.util, "spec_from_file_location", lambda *args: None)
    with pytest.raises(InputError, match=r"broken\.py cannot be loaded"):
        get_ruleset("broken")


def test_unknown_names_of_the_package() -> None:
    with pytest.raises(AttributeError, match="no attribute 'nothing'"):
        scoring.nothing  # noqa: B018


def test_the_dutch_reason_of_a_hand_with_too_few_doublings() -> None:
    result = score_hand(hand_from_dict(TOO_FEW))
    assert (result.reason_nl, result.reason) == (
        "te weinig verdubbelingen",
        "too few doublings: a mahjong needs at least 2",
    )
    two_dragons = {
        "concealed": "234p567m99s",
        "melds": [{"tiles": t, "open": True} for t in ("555z", "666z")],
    }
    assert score_hand(hand_from_dict({**TOO_FEW, **two_dragons})).reason_nl is None


def test_a_meld_given_as_a_list_is_checked_like_a_tuple() -> None:
    concealed = ("2p", "3p", "4p", "5m", "6m", "7m", "9s", "9s", "4s", "5s", "6s")
    dragons = Meld(["5z"] * 3)  # type: ignore[arg-type]  # a list where a tuple belongs
    hand = Hand("S", "W", concealed, (dragons,), winning_tile="4p")
    assert score_hand(hand).reason_code == "too_few_doublings"


def test_winds_and_field_names() -> None:
    assert [is_wind(k) for k in (26, 27, 30, 31)] == [False, True, True, False]
    assert field_name(None) == "" and field_name("concealed", "en") == "concealed"


def test_a_group_whose_count_cannot_become_sets_waits_on_nothing() -> None:
    assert _group_waits((1, 0, 0, 0, 0, 0, 0, 0, 0), False, 1) == ()


def test_a_meld_holding_something_else_than_codes_is_one_input_error() -> None:
    concealed = ("2p", "3p", "4p", "5m", "6m", "7m", "9s", "9s", "4s", "5s", "6s")
    odd = Meld((["5z"], "5z", "5z"))  # type: ignore[arg-type]  # a list among the codes
    with pytest.raises(InputError, match=r"meld: unknown tile \['5z'\]"):
        score_hand(Hand("S", "W", concealed, (odd,), winning_tile="4p"))
