"""score_hand (work in progress)."""

from __future__ import annotations

from scoring.hand import Hand
from scoring.result import ScoreResult


def score_hand(hand: Hand) -> ScoreResult:
    raise NotImplementedError("score_hand is being written")
