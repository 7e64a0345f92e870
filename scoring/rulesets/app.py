"""Ruleset `app` (seed 000, the default): NTS with flowers and seasons, only dragon pairs score."""

from __future__ import annotations

from scoring.limits import LIMIT_HANDS
from scoring.rules import Options, Ruleset
from scoring.rulesets.common import (
    BONUS_TILES,
    EVERY_PLAYER_DOUBLINGS,
    HONOUR_PUNG_DOUBLINGS,
    PAIR_OF_DRAGONS,
    SET_POINTS,
    WINNER_DOUBLINGS,
    WINNER_POINTS,
)

RULESET = Ruleset(
    name="app",
    title_nl="NTS met bloemen en seizoenen (app)",
    title_en="NTS with flowers and seasons (app)",
    options=Options(bonus_tiles=True, bonus_doublings_count_toward_minimum=True, pe_ling_eet_cake=True),
    set_rules=(*SET_POINTS, PAIR_OF_DRAGONS, *HONOUR_PUNG_DOUBLINGS),
    bonus_rules=BONUS_TILES,
    hand_rules=(*WINNER_POINTS, *EVERY_PLAYER_DOUBLINGS, *WINNER_DOUBLINGS),
    limit_hands=LIMIT_HANDS,
)
