"""Settlement (verrekening) of one game between the four seats, SCORING section 9.

Each loser pays the winner the winner's score; each pair of losers settles the difference of their scores,
the lower paying the higher. Every payment in which East takes part, paying or receiving, is doubled.
A drawn game (no winner) moves nothing. The changes always sum to 0.
"""

from __future__ import annotations

from collections.abc import Mapping
from itertools import combinations

from scoring.errors import InputError
from scoring.hand import WINDS
from scoring.jsonread import quote

EAST = "E"
MAX_SCORE = 2000
"""No hand scores more than the limit (`RuleOptions.limit`, the same in every ruleset); a higher score is a
typing error, refused rather than settled."""


def payment_factor(seat_a: str, seat_b: str) -> int:
    """How many times the base amount changes hands between two seats: 2 when East is one of them."""
    return 2 if EAST in (seat_a, seat_b) else 1


def _validated_scores(scores: Mapping[str, int]) -> dict[str, int]:
    """The four scores by seat, or InputError naming what is wrong."""
    if not isinstance(scores, Mapping):
        raise InputError(f"scores must be an object with the seats E, S, W, N, not {type(scores).__name__}")
    keys = set(scores)
    missing = [seat for seat in WINDS if seat not in keys]
    unknown = sorted(str(key) for key in keys if key not in WINDS)
    if unknown:
        raise InputError(f"scores: unknown seat {quote(unknown[0])} (seats are E, S, W, N)")
    if missing:
        raise InputError(f"scores: missing seat {missing[0]!r} (give all of E, S, W, N)")
    checked: dict[str, int] = {}
    for seat in WINDS:
        value = scores[seat]
        if isinstance(value, bool) or not isinstance(value, int):
            raise InputError(f"scores: {seat} must be a whole number, not {quote(value)}")
        if value < 0:
            raise InputError(f"scores: {seat} must not be negative, got {quote(value)}")
        if value > MAX_SCORE:
            raise InputError(f"scores: {seat} is {quote(value)}, above the limit of {MAX_SCORE} points")
        checked[seat] = value
    return checked


def settle(scores: Mapping[str, int], winner: str | None) -> dict[str, int]:
    """Change in points for each seat after one game; `winner` None is a draw (remise).

    >>> settle({"E": 0, "S": 128, "W": 0, "N": 0}, "S")
    {'E': -256, 'S': 512, 'W': -128, 'N': -128}
    >>> settle({"E": 80, "S": 84, "W": 208, "N": 416}, "S")
    {'E': -1096, 'S': 336, 'W': -36, 'N': 796}
    """
    checked = _validated_scores(scores)
    if winner is not None and (not isinstance(winner, str) or winner not in WINDS):
        raise InputError(f"winner must be one of E, S, W, N or null for a draw, not {quote(winner)}")
    change = dict.fromkeys(WINDS, 0)
    if winner is None:
        return change
    losers = [seat for seat in WINDS if seat != winner]
    for loser in losers:
        amount = checked[winner] * payment_factor(loser, winner)
        change[loser] -= amount
        change[winner] += amount
    for first, second in combinations(losers, 2):
        amount = (checked[second] - checked[first]) * payment_factor(first, second)
        change[first] -= amount
        change[second] += amount
    return change
