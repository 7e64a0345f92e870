"""A session of games (SCORING section 10): seat winds moving on, the prevailing wind, running totals.

Plain functions the app calls between games; no state is kept here.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping

from scoring.errors import InputError
from scoring.hand import WINDS
from scoring.rulesets import get_ruleset

# After every game each player's seat wind moves on: Oost→Noord, Noord→West, West→Zuid, Zuid→Oost.
NEXT_SEAT_WIND: dict[str, str] = {"E": "N", "N": "W", "W": "S", "S": "E"}


def next_seat_winds(seats: Mapping[str, str]) -> dict[str, str]:
    """Player → seat wind for the next game; the same after a win by East and after a draw.

    >>> next_seat_winds({"Anna": "E", "Bas": "S", "Cor": "W", "Dirk": "N"})
    {'Anna': 'N', 'Bas': 'E', 'Cor': 'S', 'Dirk': 'W'}
    """
    winds = list(seats.values())
    if len(winds) != len(WINDS) or sorted(winds) != sorted(WINDS):
        raise InputError(f"seat winds must give each of E, S, W, N to exactly one player, got {winds}")
    return {player: NEXT_SEAT_WIND[wind] for player, wind in seats.items()}


def prevailing_wind_for_game(ruleset: str, game_index: int) -> str | None:
    """The prevailing wind of game `game_index` (0-based) under the ruleset's schedule; None where it is
    thrown with dice before each game (`app`).

    `nts` plays four games in each wind: E for games 0-3, S 4-7, W 8-11, N 12-15.

    >>> [prevailing_wind_for_game("nts", i) for i in (0, 3, 4, 11, 15)]
    ['E', 'E', 'S', 'W', 'N']
    >>> prevailing_wind_for_game("app", 7) is None
    True
    """
    if isinstance(game_index, bool) or not isinstance(game_index, int) or game_index < 0:
        raise InputError(f"game index must be a whole number from 0, not {game_index!r}")
    per_wind = get_ruleset(ruleset).games_per_wind
    if per_wind is None:
        return None
    games = per_wind * len(WINDS)
    if game_index >= games:
        raise InputError(f"an {ruleset} session has {games} games (0-{games - 1}), not game {game_index}")
    return WINDS[game_index // per_wind]


def wind_for_dice(total: int) -> str:
    """The wind a throw of two dice points at: count the sum around E, S, W, N starting at E.

    2 → S, 3 → W, 4 → N, 5 → E, ...; so 1, 5, 9 → E; 2, 6, 10 → S; 3, 7, 11 → W; 4, 8, 12 → N.
    """
    if isinstance(total, bool) or not isinstance(total, int) or not 2 <= total <= 12:
        raise InputError(f"two dice sum to 2..12, not {total!r}")
    return WINDS[(total - 1) % len(WINDS)]


def throw_prevailing_wind(rng: random.Random) -> str:
    """Throw two dice with `rng` and return the prevailing wind they point at (see `wind_for_dice`)."""
    return wind_for_dice(rng.randint(1, 6) + rng.randint(1, 6))


def running_totals(games: Iterable[Mapping[str, int]]) -> list[dict[str, int]]:
    """Cumulative totals per player after each game, from each game's settlement (player → change).

    Every game must name the same players as the first one.

    >>> running_totals([{"A": 10, "B": -10}, {"A": -4, "B": 4}])
    [{'A': 10, 'B': -10}, {'A': 6, 'B': -6}]
    """
    totals: dict[str, int] | None = None
    history: list[dict[str, int]] = []
    for number, game in enumerate(games, start=1):
        if totals is None:
            totals = dict.fromkeys(game, 0)
        if set(game) != set(totals):
            raise InputError(f"game {number} names players {sorted(game)}, expected {sorted(totals)}")
        for player, change in game.items():
            if isinstance(change, bool) or not isinstance(change, int):
                raise InputError(
                    f"game {number}: change for {player!r} must be a whole number, not {change!r}"
                )
            totals[player] += change
        history.append(dict(totals))
    return history
