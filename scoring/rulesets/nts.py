"""Ruleset `nts` (seeds 002/004, the official NMB rules): no bonus tiles, wind pairs score too."""

from __future__ import annotations

from scoring.limits import LIMIT_HANDS
from scoring.rules import Options, Ruleset
from scoring.rulesets.common import (
    EVERY_PLAYER_DOUBLINGS,
    HONOUR_PUNG_DOUBLINGS,
    PAIR_OF_DRAGONS,
    PAIR_OF_PREVAILING_WIND,
    PAIR_OF_SEAT_WIND,
    SET_POINTS,
    WINNER_DOUBLINGS,
    WINNER_POINTS,
)

RULESET = Ruleset(
    name="nts",
    title_nl="NTS officieel (NMB)",
    title_en="NTS official (NMB)",
    options=Options(bonus_tiles=False, pe_ling_eet_cake=True),
    set_rules=(
        *SET_POINTS,
        PAIR_OF_DRAGONS,
        PAIR_OF_SEAT_WIND,
        PAIR_OF_PREVAILING_WIND,
        *HONOUR_PUNG_DOUBLINGS,
    ),
    bonus_rules=(),
    hand_rules=(*WINNER_POINTS, *EVERY_PLAYER_DOUBLINGS, *WINNER_DOUBLINGS),
    limit_hands=LIMIT_HANDS,
    games_per_wind=4,
)
