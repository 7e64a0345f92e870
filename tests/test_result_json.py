"""`ScoreResult.to_json` (the lines of `score --json` batches) is the text of the compact JSON of
`to_dict()`, and the registry answers for its own rulesets without reading the environment, as before."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from scoring import TILE_CODES, Hand, get_ruleset, hand_from_dict, score_hand
from scoring.result import LimitScore, ScoredSet, ScoreItem, ScoreResult
from scoring.rulesets import RULESETS_ENV, is_ruleset, ruleset_names

HANDS = [
    {
        "seat_wind": "E",
        "prevailing_wind": "S",
        "concealed": "234m567p777z88s",
        "melds": ["111z"],
        "winning_tile": "4m",
        "self_drawn": True,
    },
    {
        "seat_wind": "E",
        "prevailing_wind": "S",
        "concealed": "123m456p789s111z22z",
        "winning_tile": "2z",
        "bonus": "1f2y3f",
    },
    {"seat_wind": "E", "prevailing_wind": "S", "concealed": "123m456p789s111z2z", "role": "loser"},
    {"seat_wind": "E", "prevailing_wind": "S", "concealed": "19m19p19s1234567z1m", "winning_tile": "1m"},
    {"seat_wind": "E", "prevailing_wind": "S", "concealed": "19m19p19s1234567z", "role": "loser"},
    {
        "seat_wind": "N",
        "prevailing_wind": "E",
        "concealed": "11223344556677z",
        "winning_tile": "7z",
        "ruleset": "nts",
    },
    {
        "seat_wind": "E",
        "prevailing_wind": "S",
        "concealed": "123m456p789s111z22z",
        "winning_tile": "2z",
        "flags": ["dead_hand"],
    },
    {
        "seat_wind": "E",
        "prevailing_wind": "S",
        "concealed": "11123455678999p",
        "winning_tile": "1p",
        "ruleset": "nts",
    },
    {"seat_wind": "E", "prevailing_wind": "S", "concealed": "1357m2468p1357s77z", "winning_tile": "7z"},
]


def compact(value: object) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


@pytest.mark.parametrize("obj", HANDS)
def test_to_json_is_the_compact_json_of_to_dict(obj: dict[str, object]) -> None:
    result = score_hand(hand_from_dict(obj))
    assert result.to_json() == compact(result.to_dict())
    assert json.loads(result.to_json()) == result.to_dict()


def test_to_json_of_random_hands_and_of_texts_beyond_ascii() -> None:
    rng = random.Random(16)
    for _ in range(400):
        tiles = sorted(rng.sample([c for c in TILE_CODES[:34] for _ in range(4)], 14), key=TILE_CODES.index)
        hand = Hand("E", "S", tuple(tiles), winning_tile=tiles[0], ruleset=rng.choice(("app", "nts")))
        result = score_hand(hand)
        assert result.to_json() == compact(result.to_dict())
    odd = ScoreResult(
        True,
        8,
        8,
        0,
        "app",
        "winner",
        limit_hand=LimitScore("Één \u2028", 'x"\\', 8, 16),
        items=(ScoreItem("Ééne", "\udcff", "points", 8, "1z"),),
        sets=(ScoredSet("pung", "111z", True, True),),
    )
    assert odd.to_json() == compact(odd.to_dict())


def test_the_registry_s_own_rulesets_come_first_whatever_the_environment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "app.py").write_text("RULESET = None\n")  # shadowed by the package's own `app`
    (tmp_path / "club.py").write_text(
        "from scoring.rulesets.app import RULESET as APP\nfrom dataclasses import replace\n"
        "RULESET = replace(APP, name='club')\n"
    )
    monkeypatch.setenv(RULESETS_ENV, str(tmp_path))
    assert ruleset_names() == ("app", "club", "nts")
    assert get_ruleset("app").name == "app" and get_ruleset("club").name == "club"
    assert is_ruleset("app") and is_ruleset("club") and is_ruleset("nts")
    assert not is_ruleset("house") and not is_ruleset(["app"]) and not is_ruleset(None)
    monkeypatch.delenv(RULESETS_ENV)
    assert not is_ruleset("club") and ruleset_names() == ("app", "nts")
