"""Two phones writing one evening at the same moment (issue 16, item 15): one transaction per game, game
numbers unique, a clear message when both record the same game, and two undos remove one game."""

from __future__ import annotations

import threading
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

import pytest

from mahjong_nts.app.scoreboard import GameRecord, ScoreboardStore
from scoring import InputError

SEATS = {"Anna": "E", "Bas": "S", "Cor": "W", "Dirk": "N"}
SCORES = {"Anna": 0, "Bas": 32, "Cor": 0, "Dirk": 8}


def at_once(count: int, work: Callable[[int], Any]) -> list[Any]:
    """Run `work(i)` in `count` threads released together; each result or the exception it raised."""
    barrier = threading.Barrier(count)
    results: list[Any] = [None] * count

    def run(index: int) -> None:
        barrier.wait()
        try:
            results[index] = work(index)
        except Exception as problem:  # collected for the test to look at
            results[index] = problem

    threads = [threading.Thread(target=run, args=(i,)) for i in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    return results


def games_of(store: ScoreboardStore, evening_id: int) -> tuple[GameRecord, ...]:
    """The games recorded so far in an evening that the test created (so it exists)."""
    evening = store.evening(evening_id)
    assert evening is not None
    return evening.games


def test_two_phones_recording_the_same_game(tmp_path: Path) -> None:
    store = ScoreboardStore(tmp_path / "club.sqlite")
    evening = store.create_evening("Vrijdag", SEATS)

    def record(number: int, _: int) -> GameRecord:
        return store.add_game(evening.id, "E", "Bas", SCORES, expected_number=number)

    for _ in range(20):
        number = len(games_of(store, evening.id)) + 1  # what both phones show on the button
        results = at_once(2, partial(record, number))
        recorded = [r for r in results if not isinstance(r, Exception)]
        clashes = [r for r in results if isinstance(r, InputError)]
        assert len(recorded) == 1 and len(clashes) == 1, results
        assert f"game {number} was already recorded" in str(clashes[0])
    assert [game.number for game in games_of(store, evening.id)] == list(range(1, 21))


def test_concurrent_writers_without_a_number_get_unique_numbers(tmp_path: Path) -> None:
    store = ScoreboardStore(tmp_path / "club.sqlite")
    evening = store.create_evening("Vrijdag", SEATS)

    def five_games(_: int) -> list[int]:
        return [store.add_game(evening.id, "E", "Bas", SCORES).number for _ in range(5)]

    results = at_once(4, five_games)
    assert not any(isinstance(r, Exception) for r in results), results
    numbers = sorted(n for batch in results for n in batch)
    assert numbers == list(range(1, 21))
    assert [game.number for game in games_of(store, evening.id)] == numbers


def test_two_undos_at_once_remove_one_game(tmp_path: Path) -> None:
    store = ScoreboardStore(tmp_path / "club.sqlite")
    evening = store.create_evening("Vrijdag", SEATS)
    for _ in range(3):
        store.add_game(evening.id, "E", "Bas", SCORES)
    undone = at_once(2, lambda _: store.undo_last_game(evening.id, expected_number=3))
    assert sorted(game is None for game in undone) == [False, True]
    assert [game.number for game in games_of(store, evening.id)] == [1, 2]


def test_a_clash_leaves_nothing_half_written(tmp_path: Path) -> None:
    store = ScoreboardStore(tmp_path / "club.sqlite")
    evening = store.create_evening("Vrijdag", SEATS)
    store.add_game(evening.id, "E", "Bas", SCORES, expected_number=1)
    with pytest.raises(InputError, match="game 1 was already recorded"):
        store.add_game(evening.id, "E", "Cor", SCORES, expected_number=1)
    games = games_of(store, evening.id)
    assert len(games) == 1 and games[0].winner == "Bas"
