"""A ruleset is one file: a third one written here (outside the package, found through
$MAHJONG_NTS_RULESETS) is offered by the app, stored by the scoreboard, accepted by `score --ruleset` and
by batch sidecars, with no other file changed. And an older scoreboard file loses its check on the names."""

from __future__ import annotations

import json
import random
import sqlite3
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

from mahjong_nts.app.deps import AppDeps
from mahjong_nts.app.photo import PhotoReader, PhotoReading
from mahjong_nts.app.scoreboard import ScoreboardStore
from mahjong_nts.batch.photo import PhotoJob, PhotoRead, process_photo
from mahjong_nts.batch.sidecar import ContextReader
from mahjong_nts.cli.main import main
from scoring import InputError, hand_from_dict, prevailing_wind_for_game, ruleset_names, score_hand
from scoring.rulesets import RULESETS_ENV

CLUB = '''"""Ruleset `club`: NTS without flowers, one doubling is enough, two games per wind."""

from scoring.limits import LIMIT_HANDS
from scoring.rules import Options, Ruleset
from scoring.rulesets.common import (
    EVERY_PLAYER_DOUBLINGS,
    HONOUR_PUNG_DOUBLINGS,
    PAIR_OF_DRAGONS,
    SET_POINTS,
    WINNER_DOUBLINGS,
    WINNER_POINTS,
)

RULESET = Ruleset(
    name="club",
    title_nl="Clubregels (1 verdubbeling)",
    title_en="Club rules (1 doubling)",
    options=Options(bonus_tiles=False, min_doublings=1),
    set_rules=(*SET_POINTS, PAIR_OF_DRAGONS, *HONOUR_PUNG_DOUBLINGS),
    bonus_rules=(),
    hand_rules=(*WINNER_POINTS, *EVERY_PLAYER_DOUBLINGS, *WINNER_DOUBLINGS),
    limit_hands=LIMIT_HANDS,
    games_per_wind=2,
)
'''

# open dragon pung and four concealed sets: 1 doubling, too few under app, enough under club
ONE_DOUBLING = {
    "seat_wind": "S",
    "prevailing_wind": "W",
    "concealed": "234p567m99s456s",
    "melds": [{"tiles": "555z", "open": True}],
    "winning_tile": "4p",
}


@pytest.fixture
def club(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "rulesets"
    folder.mkdir()
    (folder / "club.py").write_text(CLUB)
    monkeypatch.setenv(RULESETS_ENV, str(folder))
    return folder


def test_the_registry_lists_it_and_the_scorer_uses_its_options(club: Path) -> None:
    assert ruleset_names() == ("app", "club", "nts")  # the default first, then by name
    app = score_hand(hand_from_dict(ONE_DOUBLING))
    assert not app.valid and app.reason == "too few doublings: a mahjong needs at least 2"
    assert score_hand(hand_from_dict({**ONE_DOUBLING, "ruleset": "club"})).valid
    with pytest.raises(InputError, match="bonus tiles are not played"):
        hand_from_dict({**ONE_DOUBLING, "ruleset": "club", "bonus": "1f"})
    assert [prevailing_wind_for_game("club", i) for i in range(8)] == list("EESSWWNN")
    with pytest.raises(InputError, match="8 games"):
        prevailing_wind_for_game("club", 8)


def test_score_accepts_it(club: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    hand = tmp_path / "hand.json"
    hand.write_text(json.dumps({**ONE_DOUBLING, "ruleset": "club"}))
    assert main(["score", "--json", str(hand), "--compact"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert (result["ruleset"], result["valid"]) == ("club", True)
    args = ["score", "234p567m99s456s", "--meld", "555z", "--win", "4p", "--seat", "S", "--prevailing", "W"]
    assert main([*args, "--ruleset", "club", "--json-out", "--compact"]) == 0
    assert json.loads(capsys.readouterr().out)["valid"] is True
    with pytest.raises(SystemExit):
        main(["score", "--help"])
    assert "club: Club rules (1 doubling)" in " ".join(capsys.readouterr().out.split())  # help is wrapped


class OneHandReader:
    """A batch reader that reads the one-doubling hand in a row."""

    def read(self, path: Path) -> PhotoRead:
        codes = ["2p", "3p", "4p", "5m", "6m", "7m", "9s", "9s", "4s", "5s", "6s", "5z", "5z", "5z"]
        tiles = [
            {"code": c, "confidence": 0.95, "box": [40 * i, 0, 40 * i + 36, 50], "alternatives": [], "row": 0}
            for i, c in enumerate(codes)
        ]
        return PhotoRead(640, 480, tiles, np.zeros((8, 8, 3), np.uint8))


def test_a_batch_sidecar_names_it(club: Path, tmp_path: Path) -> None:
    folder = tmp_path / "photos"
    folder.mkdir()
    photo = folder / "hand.jpg"
    photo.write_bytes(b"not read: the reader is a fake")
    sidecar = {"ruleset": "club", "seat_wind": "S", "prevailing_wind": "W", "melds": ONE_DOUBLING["melds"]}
    (folder / "hand.json").write_text(json.dumps(sidecar))
    context = ContextReader(folder).context_for(photo)
    record = process_photo(PhotoJob("hand.jpg", str(photo), "f", context), OneHandReader(), tmp_path / "out")
    assert record["error"] is None
    assert (record["hand"]["ruleset"], record["result"]["ruleset"], record["result"]["valid"]) == (
        "club",
        "club",
        True,
    )


def test_the_scoreboard_stores_it(club: Path, tmp_path: Path) -> None:
    store = ScoreboardStore(tmp_path / "evening.sqlite")
    seats = {"Anna": "E", "Bas": "S", "Cor": "W", "Dirk": "N"}
    evening = store.create_evening("club night", seats, "club")
    assert store.evening(evening.id).ruleset == "club"  # type: ignore[union-attr]
    assert evening.fixed_prevailing_wind() == "E"
    with pytest.raises(InputError, match="unknown ruleset 'riichi' \\(use app or club or nts\\)"):
        store.create_evening("x", seats, "riichi")


def run_app(deps) -> None:  # type: ignore[no-untyped-def]  # runs as a script
    from mahjong_nts.app.page import main

    main(deps)


def keyed(items: Any, start: str = "", part: str = "") -> Any:
    """The one widget whose key starts with `start` and contains `part`."""
    found = [w for w in items if w.key and w.key.startswith(start) and part in w.key]
    assert len(found) == 1, [w.key for w in items]
    return found[0]


def test_the_app_offers_it_and_scores_with_it(club: Path, tmp_path: Path) -> None:
    deps = AppDeps(
        read_photo=PhotoReader(lambda data, key: PhotoReading(key)),
        store=ScoreboardStore(tmp_path / "evening.sqlite"),
        samples=(),
        rng=random.Random(1),
    )
    at = AppTest.from_function(run_app, args=(deps,), default_timeout=60)
    at.run()
    assert "Clubregels (1 verdubbeling)" in keyed(at.radio, "ruleset-").options
    assert "Clubregels (1 verdubbeling)" in keyed(at.radio, "new-ruleset-nl").options
    keyed(at.text_input, part="-notation-").set_value("234p 567m 99s 456s 555z").run()
    keyed(at.radio, "ruleset-").set_value("club").run()
    keyed(at.radio, part="-seat").set_value("S").run()
    keyed(at.radio, "prevailing").set_value("W").run()
    keyed(at.selectbox, part="-win-").set_value("4p").run()
    keyed(at.toggle, part="-open-pung:5z5z5z").set_value(True).run()
    assert not at.exception
    hand = json.loads(at.json[0].value)
    assert (hand["ruleset"], hand["melds"]) == ("club", [{"tiles": "555z", "open": True}])
    assert any("Geldige mahjong" in s.value for s in at.success), [e.value for e in at.error]


def test_an_older_scoreboard_file_is_migrated(club: Path, tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite"
    db = sqlite3.connect(path)
    db.executescript(
        """
        CREATE TABLE sessions (id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT NOT NULL,
            ruleset TEXT NOT NULL CHECK (ruleset IN ('app', 'nts')), seats TEXT NOT NULL,
            created_at TEXT NOT NULL);
        CREATE TABLE games (session_id INTEGER NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
            number INTEGER NOT NULL, prevailing_wind TEXT NOT NULL, seats TEXT NOT NULL, winner TEXT,
            scores TEXT NOT NULL, dead TEXT NOT NULL, changes TEXT NOT NULL, created_at TEXT NOT NULL,
            PRIMARY KEY (session_id, number));
        INSERT INTO sessions VALUES (1, 'old', 'nts', '{"A": "E", "B": "S", "C": "W", "D": "N"}',
            '2025-01-01');
        INSERT INTO games VALUES (1, 1, 'E', '{"A": "E", "B": "S", "C": "W", "D": "N"}', NULL,
            '{"A": 0, "B": 0, "C": 0, "D": 0}', '[]', '{"A": 0, "B": 0, "C": 0, "D": 0}',
            '2025-01-01');
        """
    )
    db.commit()
    db.close()
    store = ScoreboardStore(path)
    club_night = store.create_evening("club", {"A": "E", "B": "S", "C": "W", "D": "N"}, "club")
    old = store.evening(1)
    assert old is not None and old.ruleset == "nts" and len(old.games) == 1
    assert store.evening(club_night.id).ruleset == "club"  # type: ignore[union-attr]
    schema = sqlite3.connect(path).execute("SELECT sql FROM sqlite_master WHERE name = 'sessions'").fetchone()
    assert "CHECK" not in schema[0]
