"""The evening's SQLite scoreboard and the settlement the app shows."""

from __future__ import annotations

import csv
import io
from pathlib import Path

import pytest

from mahjong_nts.app.scoreboard import DB_ENV, ScoreboardStore, default_db_path, evening_csv
from mahjong_nts.app.settle import SeatScore, settle_game
from scoring import InputError, settle

SEATS = {"Anna": "E", "Bas": "S", "Cor": "W", "Dirk": "N"}


def test_settlement_with_a_dead_hand_sums_to_zero() -> None:
    seats = [SeatScore("E", "Anna", 80), SeatScore("S", "Bas", 84), SeatScore("W", "Cor", 208, dead=True)]
    seats.append(SeatScore("N", "Dirk", 416))
    result = settle_game(seats, "S")
    assert [s.score for s in result.seats] == [80, 84, 0, 416]
    assert result.changes == settle({"E": 80, "S": 84, "W": 0, "N": 416}, "S")
    assert result.balance == 0
    assert [row["change"] for row in result.rows()] == [result.changes[s] for s in "ESWN"]


def test_settlement_refuses_a_dead_winner_and_missing_seats() -> None:
    with pytest.raises(InputError, match="dead hand"):
        settle_game([SeatScore(s, s, 10, dead=s == "E") for s in "ESWN"], "E")
    with pytest.raises(InputError, match="four seats"):
        settle_game([SeatScore(s, s, 10) for s in "ESW"], "E")
    draw = settle_game([SeatScore(s, s, 10) for s in "ESWN"], None)
    assert set(draw.changes.values()) == {0} and {s.score for s in draw.seats} == {0}


def test_winds_move_on_after_every_game_and_totals_run(tmp_path: Path) -> None:
    store = ScoreboardStore(tmp_path / "club.sqlite")
    evening = store.create_evening("Vrijdag", SEATS)
    assert evening.players == ["Anna", "Bas", "Cor", "Dirk"]
    first = store.add_game(evening.id, "S", "Bas", {"Bas": 128})
    assert first.changes == {"Anna": -256, "Bas": 512, "Cor": -128, "Dirk": -128}
    second = store.add_game(evening.id, "W", None, {})
    assert second.draw and set(second.changes.values()) == {0}
    assert second.seats == {"Anna": "N", "Bas": "E", "Cor": "S", "Dirk": "W"}
    third = store.add_game(evening.id, "E", "Cor", {"Cor": 64, "Anna": 8}, dead=["Dirk"])
    assert third.seats == {"Anna": "W", "Bas": "N", "Cor": "E", "Dirk": "S"}
    assert sum(third.changes.values()) == 0
    reopened = ScoreboardStore(tmp_path / "club.sqlite").evening(evening.id)
    assert reopened is not None and [g.number for g in reopened.games] == [1, 2, 3]
    expected = {p: first.changes[p] + third.changes[p] for p in SEATS}
    assert reopened.standing() == expected
    assert reopened.next_seats() == {"Anna": "S", "Bas": "W", "Cor": "N", "Dirk": "E"}


def test_undo_removes_only_the_last_game(tmp_path: Path) -> None:
    store = ScoreboardStore(tmp_path / "club.sqlite")
    evening = store.create_evening("", SEATS)
    store.add_game(evening.id, "E", "Anna", {"Anna": 100})
    store.add_game(evening.id, "E", "Bas", {"Bas": 50})
    undone = store.undo_last_game(evening.id)
    assert undone is not None and undone.winner == "Bas"
    after = store.evening(evening.id)
    assert after is not None and [g.winner for g in after.games] == ["Anna"]
    assert after.next_seats() == {"Anna": "N", "Bas": "E", "Cor": "S", "Dirk": "W"}
    store.undo_last_game(evening.id)
    assert store.undo_last_game(evening.id) is None


def test_nts_evenings_play_four_games_per_prevailing_wind(tmp_path: Path) -> None:
    store = ScoreboardStore(tmp_path / "club.sqlite")
    evening = store.create_evening("Toernooi", SEATS, ruleset="nts")
    for _ in range(4):
        store.add_game(evening.id, "E", None, {})
    with pytest.raises(InputError, match="wind S"):
        store.add_game(evening.id, "E", None, {})
    store.add_game(evening.id, "S", None, {})
    reopened = store.evening(evening.id)
    assert reopened is not None and reopened.fixed_prevailing_wind() == "S"


def test_an_evening_needs_four_different_names_and_all_winds(tmp_path: Path) -> None:
    store = ScoreboardStore(tmp_path / "club.sqlite")
    with pytest.raises(InputError, match="four different"):
        store.create_evening("x", {"Anna": "E", "Bas": "S", "Cor": "W", "": "N"})
    with pytest.raises(InputError, match="exactly one player"):
        store.create_evening("x", {"Anna": "E", "Bas": "E", "Cor": "W", "Dirk": "N"})
    assert store.evenings() == []


def test_csv_export_has_a_row_per_game_with_running_totals(tmp_path: Path) -> None:
    store = ScoreboardStore(tmp_path / "club.sqlite")
    evening = store.create_evening("Vrijdag", SEATS)
    store.add_game(evening.id, "S", "Bas", {"Bas": 128})
    store.add_game(evening.id, "N", "Anna", {"Anna": 40, "Cor": 16})
    loaded = store.evening(evening.id)
    assert loaded is not None
    rows = list(csv.DictReader(io.StringIO(evening_csv(loaded))))
    assert [r["game"] for r in rows] == ["1", "2"]
    assert rows[0]["winner"] == "Bas" and rows[0]["Anna seat"] == "E" and rows[1]["Anna seat"] == "N"
    totals = loaded.totals()
    assert [int(r["Cor total"]) for r in rows] == [t["Cor"] for t in totals]
    assert sum(int(rows[1][f"{p} total"]) for p in SEATS) == 0


def test_database_path_comes_from_the_environment_or_the_data_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(DB_ENV, str(tmp_path / "mine.sqlite"))
    assert default_db_path() == tmp_path / "mine.sqlite"
    monkeypatch.delenv(DB_ENV)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    assert default_db_path() == tmp_path / "data" / "mahjong-nts" / "mahjong-nts.sqlite"
