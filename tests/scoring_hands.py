"""One way for the scoring tests to build and score a hand in the `score` input format.

Defaults: seat South, prevailing West, ruleset app, win on a discard. Melds: "555z" is open, "[2222m]" a
concealed kong. Without a winning tile the hand is scored as a loser's.
"""

from __future__ import annotations

from typing import Any

from scoring import hand_from_dict, score_hand


def score(
    concealed: str,
    win: str | None = None,
    *,
    melds: tuple[str, ...] = (),
    seat: str = "S",
    prevailing: str = "W",
    ruleset: str = "app",
    self_drawn: bool = False,
    flags: tuple[str, ...] = (),
    bonus: str = "",
) -> dict[str, Any]:
    """The result dict of scoring this hand."""
    obj: dict[str, Any] = {
        "ruleset": ruleset,
        "role": "winner" if win else "loser",
        "seat_wind": seat,
        "prevailing_wind": prevailing,
        "concealed": concealed,
        "melds": [{"tiles": m.strip("[]"), "open": not m.startswith("[")} for m in melds],
        "bonus": bonus,
        "flags": list(flags),
    }
    if win:
        obj.update(winning_tile=win, self_drawn=self_drawn)
    return score_hand(hand_from_dict(obj)).to_dict()
