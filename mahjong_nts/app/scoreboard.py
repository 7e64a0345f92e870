"""The evening's scoreboard in a local SQLite file: sessions of four players, their games in order, the seat
winds moving on after every game (SCORING section 10), running totals, undo, and CSV export."""

from __future__ import annotations

import csv
import io
import json
import os
import sqlite3
import sys
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from mahjong_nts.app.settle import SeatScore, settle_game
from scoring import WINDS, InputError, get_ruleset, next_seat_winds, prevailing_wind_for_game
from scoring.rulesets import DEFAULT_RULESET
from scoring.session import running_totals

DB_ENV = "MAHJONG_NTS_DB"
DB_NAME = "mahjong-nts.sqlite"

SESSIONS = """
CREATE TABLE IF NOT EXISTS {table} (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    name TEXT NOT NULL,
    ruleset TEXT NOT NULL,          -- a name in the ruleset registry (scoring.rulesets), checked on insert
    seats TEXT NOT NULL,            -- JSON player -> seat wind for the first game
    created_at TEXT NOT NULL
);"""

SCHEMA = (
    SESSIONS.format(table="sessions")
    + """
CREATE TABLE IF NOT EXISTS games (
    session_id INTEGER NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
    number INTEGER NOT NULL,        -- 1, 2, 3, ... in the order played
    prevailing_wind TEXT NOT NULL,
    seats TEXT NOT NULL,            -- JSON player -> seat wind in this game
    winner TEXT,                    -- player, NULL for a draw (remise)
    scores TEXT NOT NULL,           -- JSON player -> score of the hand (0 for a dead hand)
    dead TEXT NOT NULL,             -- JSON list of players with a dead hand
    changes TEXT NOT NULL,          -- JSON player -> change from the settlement (sums to 0)
    created_at TEXT NOT NULL,
    PRIMARY KEY (session_id, number)
);
"""
)


def migrate(db: sqlite3.Connection) -> None:
    """Bring an older file up to SCHEMA: the sessions table loses its CHECK on the ruleset names (the
    registry checks them now), its rows and the games kept. Runs with foreign keys off."""
    row = db.execute("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'sessions'").fetchone()
    if row is None or "CHECK" not in row[0]:
        return
    with db:
        db.execute(SESSIONS.format(table="sessions_new"))
        db.execute(
            "INSERT INTO sessions_new (id, name, ruleset, seats, created_at) "
            "SELECT id, name, ruleset, seats, created_at FROM sessions"
        )
        db.execute("DROP TABLE sessions")
        db.execute("ALTER TABLE sessions_new RENAME TO sessions")


def default_db_path() -> Path:
    """$MAHJONG_NTS_DB, else the user's data folder (XDG / Application Support / APPDATA), else ./."""
    configured = os.environ.get(DB_ENV)
    if configured:
        return Path(configured).expanduser()
    home = Path.home()
    if sys.platform == "win32":
        base = Path(os.environ.get("APPDATA", home / "AppData" / "Roaming"))
    elif sys.platform == "darwin":
        base = home / "Library" / "Application Support"
    else:
        base = Path(os.environ.get("XDG_DATA_HOME") or home / ".local" / "share")
    folder = base / "mahjong-nts"
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError:
        return Path.cwd() / DB_NAME
    return folder / DB_NAME if os.access(folder, os.W_OK) else Path.cwd() / DB_NAME


@dataclass(frozen=True)
class GameRecord:
    """One game as played: who sat where, the prevailing wind, the winner (None: draw), scores, changes."""

    number: int
    prevailing_wind: str
    seats: dict[str, str]
    winner: str | None
    scores: dict[str, int]
    dead: tuple[str, ...]
    changes: dict[str, int]

    @property
    def draw(self) -> bool:
        return self.winner is None


@dataclass(frozen=True)
class Evening:
    """A session: four players, the ruleset, the seats of the first game, and the games so far."""

    id: int
    name: str
    ruleset: str
    first_seats: dict[str, str]
    created_at: str
    games: tuple[GameRecord, ...] = ()

    @property
    def players(self) -> list[str]:
        """Players in the order of their first seats (Oost, Zuid, West, Noord)."""
        return sorted(self.first_seats, key=lambda p: WINDS.index(self.first_seats[p]))

    def next_seats(self) -> dict[str, str]:
        """Seat winds of the next game: moved on once after every game, draws included."""
        return next_seat_winds(self.games[-1].seats) if self.games else dict(self.first_seats)

    def fixed_prevailing_wind(self) -> str | None:
        """The next game's prevailing wind by the ruleset's schedule (`nts`: E×4, S×4, ...); None where it is
        thrown per game (`app`)."""
        return prevailing_wind_for_game(self.ruleset, len(self.games))

    def totals(self) -> list[dict[str, int]]:
        """Running totals per player after each game."""
        return running_totals(game.changes for game in self.games)

    def standing(self) -> dict[str, int]:
        totals = self.totals()
        return totals[-1] if totals else dict.fromkeys(self.players, 0)


def game_from_seats(
    number: int,
    prevailing_wind: str,
    seats: Mapping[str, str],
    winner: str | None,
    scores: Mapping[str, int],
    dead: Sequence[str] = (),
) -> GameRecord:
    """A game from player -> seat wind and player -> score: settled by seat, then told per player."""
    if prevailing_wind not in WINDS:
        raise InputError(
            f"prevailing wind must be one of E, S, W, N, not {prevailing_wind!r}",
            code="game_prevailing",
            params={"wind": prevailing_wind},
        )
    if winner is not None and winner not in seats:
        raise InputError(
            f"the winner {winner!r} is not one of the players", code="game_winner", params={"winner": winner}
        )
    settlement = settle_game(
        [
            SeatScore(wind, player, int(scores.get(player, 0)), player in dead)
            for player, wind in seats.items()
        ],
        None if winner is None else seats[winner],
    )
    counted = {s.name: s.score for s in settlement.seats}
    changes = {s.name: settlement.changes[s.seat] for s in settlement.seats}
    return GameRecord(number, prevailing_wind, dict(seats), winner, counted, tuple(dead), changes)


class ScoreboardStore:
    """Sessions and games in one SQLite file; every call opens its own short connection (thread-safe)."""

    def __init__(self, path: Path | str) -> None:
        self.path = Path(path)
        self._ready = False  # the file is opened on first use, so a bad path is reported in the page

    @contextmanager
    def _connect(self) -> Iterator[sqlite3.Connection]:
        """A connection in a transaction; the folder and tables are made on first use."""
        if not self._ready:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        db = sqlite3.connect(self.path, timeout=10)
        try:
            if not self._ready:
                migrate(db)
                db.executescript(SCHEMA)
                self._ready = True
            db.execute("PRAGMA foreign_keys = ON")
            with db:
                yield db
        finally:
            db.close()

    def create_evening(self, name: str, seats: Mapping[str, str], ruleset: str = DEFAULT_RULESET) -> Evening:
        """Start a session; `seats` gives each of the four players their first seat wind."""
        players = [p.strip() for p in seats]
        if len(players) != 4 or any(not p for p in players) or len(set(players)) != 4:
            raise InputError("an evening needs four different player names", code="evening_players")
        if sorted(seats.values()) != sorted(WINDS):
            raise InputError(
                "each of Oost, Zuid, West, Noord goes to exactly one player", code="evening_seats"
            )
        get_ruleset(ruleset)  # InputError naming the rulesets there are
        clean = {p.strip(): w for p, w in seats.items()}
        created = datetime.now().isoformat(timespec="seconds")
        with self._connect() as db:
            cursor = db.execute(
                "INSERT INTO sessions (name, ruleset, seats, created_at) VALUES (?, ?, ?, ?)",
                (name.strip() or created[:10], ruleset, json.dumps(clean), created),
            )
            evening_id = int(cursor.lastrowid or 0)
        return Evening(evening_id, name.strip() or created[:10], ruleset, clean, created)

    def evenings(self) -> list[Evening]:
        """All sessions, newest first (without their games)."""
        with self._connect() as db:
            rows = db.execute(
                "SELECT id, name, ruleset, seats, created_at FROM sessions ORDER BY id DESC"
            ).fetchall()
        return [Evening(r[0], r[1], r[2], json.loads(r[3]), r[4]) for r in rows]

    def evening(self, evening_id: int) -> Evening | None:
        """One session with its games in order, or None."""
        with self._connect() as db:
            return _read_evening(db, evening_id)

    def add_game(
        self,
        evening_id: int,
        prevailing_wind: str,
        winner: str | None,
        scores: Mapping[str, int],
        dead: Sequence[str] = (),
        expected_number: int | None = None,
    ) -> GameRecord:
        """Record the next game with the seats it was played at; settles it and stores the changes.

        One transaction from reading the evening to writing the game (BEGIN IMMEDIATE: a second phone
        waits), so game numbers stay unique. `expected_number`: the number the player saw on the button;
        when another phone recorded a game meanwhile, InputError says so and nothing is stored twice.
        """
        with self._connect() as db:
            db.execute("BEGIN IMMEDIATE")
            evening = _read_evening(db, evening_id)
            if evening is None:
                raise InputError(
                    f"no evening with id {evening_id}", code="evening_missing", params={"id": evening_id}
                )
            number = len(evening.games) + 1
            if expected_number is not None and expected_number != number:
                raise InputError(
                    f"game {expected_number} was already recorded (on another phone?); the evening now has "
                    f"{number - 1} games: look at the standing before recording again",
                    code="game_taken",
                    params={"number": expected_number, "games": number - 1},
                )
            fixed = evening.fixed_prevailing_wind()
            if fixed is not None and prevailing_wind != fixed:
                raise InputError(
                    f"under nts game {number} is played in wind {fixed}",
                    code="game_wind",
                    params={"number": number, "wind": fixed},
                )
            game = game_from_seats(number, prevailing_wind, evening.next_seats(), winner, scores, dead)
            db.execute(
                "INSERT INTO games (session_id, number, prevailing_wind, seats, winner, scores, dead, "
                "changes, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    evening_id,
                    game.number,
                    game.prevailing_wind,
                    json.dumps(game.seats),
                    game.winner,
                    json.dumps(game.scores),
                    json.dumps(list(game.dead)),
                    json.dumps(game.changes),
                    datetime.now().isoformat(timespec="seconds"),
                ),
            )
        return game

    def undo_last_game(self, evening_id: int, expected_number: int | None = None) -> GameRecord | None:
        """Remove the last game of a session in one transaction; returns it (None when there was none, or
        when the last game is no longer `expected_number`: two phones undoing at once remove one game)."""
        with self._connect() as db:
            db.execute("BEGIN IMMEDIATE")
            evening = _read_evening(db, evening_id)
            if evening is None or not evening.games:
                return None
            last = evening.games[-1]
            if expected_number is not None and last.number != expected_number:
                return None
            db.execute("DELETE FROM games WHERE session_id = ? AND number = ?", (evening_id, last.number))
        return last


def _read_evening(db: sqlite3.Connection, evening_id: int) -> Evening | None:
    """One session with its games in order, read on the connection (and in the transaction) given."""
    row = db.execute(
        "SELECT id, name, ruleset, seats, created_at FROM sessions WHERE id = ?", (evening_id,)
    ).fetchone()
    if row is None:
        return None
    games = db.execute(
        "SELECT number, prevailing_wind, seats, winner, scores, dead, changes FROM games "
        "WHERE session_id = ? ORDER BY number",
        (evening_id,),
    ).fetchall()
    records = tuple(
        GameRecord(
            g[0],
            g[1],
            json.loads(g[2]),
            g[3],
            json.loads(g[4]),
            tuple(json.loads(g[5])),
            json.loads(g[6]),
        )
        for g in games
    )
    return Evening(row[0], row[1], row[2], json.loads(row[3]), row[4], records)


def evening_csv(evening: Evening) -> str:
    """The session as CSV: one row per game, per player their seat, score, change and running total."""
    out = io.StringIO()
    writer = csv.writer(out)
    players = evening.players
    header = ["game", "prevailing_wind", "winner", "draw"]
    for p in players:
        header += [f"{p} seat", f"{p} score", f"{p} dead", f"{p} change", f"{p} total"]
    writer.writerow(header)
    for game, totals in zip(evening.games, evening.totals(), strict=True):
        row: list[object] = [game.number, game.prevailing_wind, game.winner or "", int(game.draw)]
        for p in players:
            row += [game.seats[p], game.scores.get(p, 0), int(p in game.dead), game.changes[p], totals[p]]
        writer.writerow(row)
    return out.getvalue()


DUTCH_WINDS = {"E": "O", "S": "Z", "W": "W", "N": "N"}
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def excel_cell(value: object) -> object:
    """A cell as Excel should take it: a name that starts like a formula gets a leading apostrophe."""
    if isinstance(value, str) and value.startswith(FORMULA_START):
        return f"'{value}"
    return value


def evening_csv_nl(evening: Evening) -> bytes:
    """The session for Dutch Excel: `;` between cells, Dutch headers, winds O/Z/W/N, the evening's name and
    date on every row, UTF-8 with a byte-order mark (so Excel reads accents). One row per game."""
    out = io.StringIO()
    writer = csv.writer(out, delimiter=";", lineterminator="\r\n")
    players = evening.players
    header = ["Avond", "Datum", "Spel", "Heersende wind", "Winnaar", "Remise"]
    for p in players:
        header += [f"{p} wind", f"{p} score", f"{p} dode hand", f"{p} krijgt/betaalt", f"{p} totaal"]
    writer.writerow([excel_cell(h) for h in header])
    date = evening.created_at[:10]
    for game, totals in zip(evening.games, evening.totals(), strict=True):
        row: list[object] = [
            evening.name,
            date,
            game.number,
            DUTCH_WINDS[game.prevailing_wind],
            game.winner or "",
            "ja" if game.draw else "nee",
        ]
        for p in players:
            row += [
                DUTCH_WINDS[game.seats[p]],
                game.scores.get(p, 0),
                "ja" if p in game.dead else "nee",
                game.changes[p],
                totals[p],
            ]
        writer.writerow([excel_cell(c) for c in row])
    return ("\ufeff" + out.getvalue()).encode("utf-8")
