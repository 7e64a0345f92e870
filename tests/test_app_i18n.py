"""Every text the app asks for exists in Dutch and English, with the same fields to fill in."""

from __future__ import annotations

import re
import string
from pathlib import Path

import pytest

from mahjong_nts.app.hand import SET_KINDS, WIN_FLAGS
from mahjong_nts.app.i18n import STRINGS, item_name, reason_text, t
from scoring import WINDS, ScoreItem, ScoreResult

APP_SOURCES = sorted((Path(__file__).resolve().parent.parent / "mahjong_nts" / "app").rglob("*.py"))


def fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def test_every_key_used_in_the_app_exists() -> None:
    used = set()
    for path in APP_SOURCES:
        used |= set(
            re.findall(r"\bt\(\s*(?:st\.session_state\[\"lang\"\]|lang)\s*,\s*\"(\w+)\"", path.read_text())
        )
    used |= {f"kind_{k}" for k in (*SET_KINDS, "kong", "pair", "seven_pairs", "loose")}
    used |= {f"flag_{f}" for f in WIN_FLAGS} | {f"wind_{w}" for w in WINDS}
    assert len(used) > 100
    assert sorted(used - set(STRINGS)) == []


@pytest.mark.parametrize("key", sorted(STRINGS))
def test_both_languages_fill_the_same_fields(key: str) -> None:
    dutch, english = STRINGS[key]
    assert dutch.strip() and english.strip()
    assert fields(dutch) == fields(english)


def test_reasons_and_item_names_follow_the_language() -> None:
    result = ScoreResult(False, 0, 28, 1, "nts", "winner", reason_code="too_few_doublings")
    assert reason_text("nl", result) == "te weinig verdubbelingen (minstens 2)"
    assert reason_text("en", result) == "too few doublings (at least 2)"
    shape = ScoreResult(False, 0, 0, 0, "app", "winner", reason_code="no_winning_shape")
    assert reason_text("nl", shape) == t("nl", "reason_no_winning_shape")
    item = ScoreItem("Schoon spel", "Clean hand", "doublings", 1)
    assert (item_name("nl", item), item_name("en", item)) == ("Schoon spel", "Clean hand")
    assert t("en", "valid", total=136) == "Valid mahjong: 136 points"
