"""A session of games (SCORING section 10)."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from scoring.errors import InputError
from scoring.session import (
    next_seat_winds,
    prevailing_wind_for_game,
    running_totals,
    throw_prevailing_wind,
    wind_for_dice,
)
from scoring.settlement import settle

START = {"Anna": "E", "Bas": "S", "Cor": "W", "Dirk": "N"}


def test_winds_move_on_oost_to_noord_and_zuid_becomes_oost() -> None:
    assert next_seat_winds(START) == {"Anna": "N", "Bas": "E", "Cor": "S", "Dirk": "W"}


def test_after_four_games_everyone_is_back_and_has_been_east_once() -> None:
    seats = dict(START)
    east_players = []
    for _ in range(4):
        east_players.append(next(player for player, wind in seats.items() if wind == "E"))
        seats = next_seat_winds(seats)
    assert seats == START
    assert sorted(east_players) == sorted(START)
    # The player who was South is East next.
    assert east_players[:2] == ["Anna", "Bas"]


@pytest.mark.parametrize(
    "seats",
    [
        {"A": "E", "B": "E", "C": "W", "D": "N"},
        {"A": "E", "B": "S", "C": "W"},
        {"A": "E", "B": "S", "C": "W", "D": "X"},
    ],
)
def test_seat_winds_must_be_a_permutation(seats: dict[str, str]) -> None:
    with pytest.raises(InputError, match="exactly one player"):
        next_seat_winds(seats)


def test_nts_prevailing_wind_four_games_each() -> None:
    winds = [prevailing_wind_for_game("nts", index) for index in range(16)]
    assert winds == ["E"] * 4 + ["S"] * 4 + ["W"] * 4 + ["N"] * 4


def test_app_prevailing_wind_is_thrown_per_game() -> None:
    assert {prevailing_wind_for_game("app", index) for index in range(40)} == {None}


@pytest.mark.parametrize(
    ("ruleset", "index", "message"),
    [("nts", 16, "16 games"), ("nts", -1, "whole number"), ("riichi", 0, "unknown ruleset")],
)
def test_prevailing_wind_bad_input(ruleset: str, index: int, message: str) -> None:
    with pytest.raises(InputError, match=message):
        prevailing_wind_for_game(ruleset, index)


@pytest.mark.parametrize(
    ("total", "wind"), [(2, "S"), (3, "W"), (4, "N"), (5, "E"), (6, "S"), (9, "E"), (11, "W"), (12, "N")]
)
def test_dice_sum_is_counted_around_from_east(total: int, wind: str) -> None:
    assert wind_for_dice(total) == wind


@pytest.mark.parametrize("total", [1, 13, 0])
def test_impossible_dice_sum(total: int) -> None:
    with pytest.raises(InputError):
        wind_for_dice(total)


def test_thrown_wind_follows_the_dice_distribution() -> None:
    rng = random.Random(7)
    counts = Counter(throw_prevailing_wind(rng) for _ in range(36_000))
    # Sums 5, 9 → E: 4+4 = 8/36; S (2, 6, 10): 1+5+3 = 9/36; W (3, 7, 11): 2+6+2 = 10/36;
    # N (4, 8, 12): 3+5+1 = 9/36.
    expected = {"E": 8_000, "S": 9_000, "W": 10_000, "N": 9_000}
    for wind, count in expected.items():
        assert abs(counts[wind] - count) < 400, (wind, counts)


def test_throw_is_reproducible_with_a_seeded_rng() -> None:
    first = [throw_prevailing_wind(random.Random(3)) for _ in range(3)]
    assert first == [throw_prevailing_wind(random.Random(3)) for _ in range(3)]


def test_running_totals_follow_a_session_with_moving_winds() -> None:
    seats = dict(START)
    games = []
    # Game 1: Bas (S) wins 128, others 0. Game 2: draw. Game 3: Anna wins 40 while the others score 8, 0, 0.
    for scores_by_player, winner in [
        ({"Anna": 0, "Bas": 128, "Cor": 0, "Dirk": 0}, "Bas"),
        ({"Anna": 0, "Bas": 0, "Cor": 0, "Dirk": 0}, None),
        ({"Anna": 40, "Bas": 8, "Cor": 0, "Dirk": 0}, "Anna"),
    ]:
        by_seat = {seats[player]: score for player, score in scores_by_player.items()}
        change = settle(by_seat, None if winner is None else seats[winner])
        games.append({player: change[wind] for player, wind in seats.items()})
        seats = next_seat_winds(seats)
    totals = running_totals(games)
    assert totals[0] == {"Anna": -256, "Bas": 512, "Cor": -128, "Dirk": -128}
    assert totals[1] == totals[0]
    # Game 3: Anna is W, Bas N, Cor E, Dirk S. Anna gets 40 from Bas and Dirk, 80 from Cor (East);
    # Bas (8) gets 16 from Cor (East) and 8 from Dirk; Cor and Dirk both 0 settle nothing.
    assert games[2] == {"Anna": 160, "Bas": -40 + 16 + 8, "Cor": -80 - 16, "Dirk": -40 - 8}
    assert totals[2] == {"Anna": -96, "Bas": 496, "Cor": -224, "Dirk": -176}
    assert all(sum(row.values()) == 0 for row in totals)


def test_running_totals_of_nothing_and_mismatched_players() -> None:
    assert running_totals([]) == []
    with pytest.raises(InputError, match="game 2 names players"):
        running_totals([{"A": 1, "B": -1}, {"A": 1, "C": -1}])
    with pytest.raises(InputError, match="whole number"):
        running_totals([{"A": 1.5, "B": -1.5}])  # type: ignore[dict-item]
