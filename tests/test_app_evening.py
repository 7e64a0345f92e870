"""The evening at the table, driven with AppTest (issue 15, the evening side): fresh loser inputs and a fresh
hand for every game, the view kept after every button, confirmations before an invalid hand or a draw is
saved, the sample photo never saved by accident, names entered once, the CSV for Dutch Excel, a dead hand's
score fixed at 0 and no emoji that a phone shows as a box."""

from __future__ import annotations

import csv
import io
import random
from pathlib import Path
from typing import Any

import pytest
from streamlit.testing.v1 import AppTest
from streamlit.testing.v1.element_tree import Element

from mahjong_nts.app.deps import AppDeps, sample_photos
from mahjong_nts.app.photo import PhotoReader, photo_key
from mahjong_nts.app.scoreboard import Evening, ScoreboardStore, evening_csv, evening_csv_nl
from scoring import settle
from tests.test_app_flow import (
    HAND1,
    HAND1_READ,
    MISREAD_INDEX,
    FakeRecognizer,
    fake_deps,
    fake_tiles,
    start,
    start_evening,
    table_with,
    texts,
    widget,
)

NAMES = ["Anna", "Bas", "Cor", "Dirk"]
PREFIX = f"hand-{photo_key(HAND1.read_bytes())}"  # the sample photo's hand in the Hand tab


@pytest.fixture
def deps(tmp_path: Path) -> AppDeps:
    return fake_deps(tmp_path / "club.sqlite")


@pytest.fixture
def at(deps: AppDeps) -> AppTest:
    """The page with an evening of Anna (Oost), Bas, Cor and Dirk (Noord) started."""
    app = start(deps)
    start_evening(app, NAMES)
    return app


def the_evening(deps: AppDeps) -> Evening:
    evening = deps.store.evening(deps.store.evenings()[0].id)
    assert evening is not None
    return evening


def typed_game(
    at: AppTest, winner: str, score: int, losers: dict[str, int], dead: tuple[str, ...] = ()
) -> None:
    """Fill in Afrekenen: `winner` (a seat) with a typed score, losers' typed scores, dead hands."""
    widget(at.radio, "-winner-").set_value(winner).run()
    widget(at.radio, "-source-").set_value("typed").run()
    widget(at.number_input, "-typed-score").set_value(score).run()
    for seat, points in losers.items():
        widget(at.number_input, f"-score-{seat}").set_value(points).run()
    for seat in dead:
        widget(at.checkbox, f"-dead-{seat}").check().run()
    assert not at.exception


def browser_values(at: AppTest) -> dict[str, Any]:
    """What a browser holds: the value of every checkbox and number box on the page, by the widget's id."""
    return {w.id: w.value for w in [*at.checkbox, *at.number_input]}


def as_the_browser_keeps(at: AppTest, held: dict[str, Any]) -> None:
    """A browser keeps the value it shows for a widget whose id comes back after a rerun, whatever default
    the script gives it (AppTest alone would send the default); send those values, as the browser does."""
    for w in [*at.checkbox, *at.number_input]:
        if w.id in held:
            w.set_value(held[w.id])
    at.run()
    assert not at.exception


def standing(at: AppTest) -> dict[str, int]:
    return {m.label: int(m.value) for m in at.metric if m.label in NAMES}


def shown_tab(at: AppTest) -> str:
    """The label of the tab the browser is told to show."""
    containers = [node for node in at._tree if getattr(node, "type", None) == "tab_container"]
    assert len(containers) == 1
    return str(at.tabs[containers[0].proto.tab_container.default_tab_index].label)


def open_tab(at: AppTest, label: str, lang: str = "nl") -> None:
    """The player taps a tab."""
    at.session_state[f"view-{lang}"] = label
    at.run()
    assert not at.exception and shown_tab(at) == label


def button(at: AppTest, label_part: str) -> Any:
    found = [b for b in at.button if label_part in b.label]
    assert len(found) == 1, [b.label for b in at.button]
    return found[0]


# --- item 1: loser inputs belong to one game ------------------------------------------------------


def test_loser_inputs_of_a_saved_game_do_not_carry_over_to_the_next(at: AppTest, deps: AppDeps) -> None:
    # Game 1: Anna (Oost) wins 96; Dirk (Noord) has a dead hand, Bas (Zuid) 10 points.
    typed_game(at, "E", 96, {"S": 10}, dead=("N",))
    held = browser_values(at)
    at.button(key="record_game").click().run()
    assert not at.exception
    as_the_browser_keeps(at, held)
    # Game 2: Bas sits Oost, Anna Noord: nothing of game 1 is ticked or typed for the new players there.
    assert not widget(at.checkbox, "-dead-N").value
    widget(at.radio, "-winner-").set_value("E").run()
    assert [widget(at.number_input, f"-score-{seat}").value for seat in "SWN"] == [0, 0, 0]
    assert not widget(at.checkbox, "-dead-N").value
    typed_game(at, "E", 48, {})
    at.button(key="record_game").click().run()
    games = the_evening(deps).games
    assert [g.dead for g in games] == [("Dirk",), ()]
    assert games[1].scores == {"Bas": 48, "Cor": 0, "Dirk": 0, "Anna": 0}
    game1 = settle({"E": 96, "S": 10, "W": 0, "N": 0}, "E")  # Anna E, Bas S, Cor W, Dirk N
    game2 = settle({"E": 48, "S": 0, "W": 0, "N": 0}, "E")  # Bas E, Cor S, Dirk W, Anna N
    assert standing(at) == {
        "Anna": game1["E"] + game2["N"],
        "Bas": game1["S"] + game2["E"],
        "Cor": game1["W"] + game2["S"],
        "Dirk": game1["N"] + game2["W"],
    }


# --- item 2: the view stays where the player is ---------------------------------------------------


def test_every_button_leaves_the_player_in_the_tab_they_were_in(at: AppTest, deps: AppDeps) -> None:
    assert shown_tab(at) == "Hand"
    open_tab(at, "Afrekenen")
    typed_game(at, "E", 96, {"S": 10})
    assert shown_tab(at) == "Afrekenen"
    at.button(key="record_game").click().run()
    assert shown_tab(at) == "Afrekenen" and len(the_evening(deps).games) == 1
    open_tab(at, "Avond")
    at.button(key="throw_dice").click().run()
    assert shown_tab(at) == "Avond"
    at.button(key="record_draw").click().run()
    assert shown_tab(at) == "Avond"
    at.button(key="record_draw_confirm").click().run()
    assert shown_tab(at) == "Avond" and len(the_evening(deps).games) == 2
    # Undo: one tap on undo shows the question right there, a second removes the game.
    at.button(key="undo").click().run()
    assert shown_tab(at) == "Avond"
    at.button(key="undo_confirm").click().run()
    assert shown_tab(at) == "Avond" and len(the_evening(deps).games) == 1
    assert any("Spel 2 is verwijderd" in i for i in texts(at, "info"))
    # Another language shows the same tab under its own name.
    at.radio(key="lang").set_value("en").run()
    assert shown_tab(at) == "Evening"


# --- item 4: a winner with 0 points and a draw are asked first ------------------------------------


def test_saving_an_invalid_hand_asks_first(at: AppTest, deps: AppDeps) -> None:
    # Four chows and a pair won on a discard: a winning shape with too few doublings, 0 points.
    widget(at.text_input, f"{PREFIX}-notation").set_value("123m 456m 234p 678s 55s").run()
    assert int(at.metric[0].value) == 0
    at.button(key="record_game").click().run()
    assert not the_evening(deps).games  # not saved on one tap
    assert any("De winnaar krijgt 0 punten" in w for w in texts(at, "warning")), texts(at, "warning")
    at.button(key="record_no").click().run()
    assert not the_evening(deps).games and not [b for b in at.button if b.key == "record_confirm"]
    at.button(key="record_game").click().run()
    at.button(key="record_confirm").click().run()
    games = the_evening(deps).games
    assert len(games) == 1 and games[0].winner == "Anna" and games[0].scores["Anna"] == 0


def test_a_draw_is_asked_first_in_both_tabs(at: AppTest, deps: AppDeps) -> None:
    at.button(key="record_draw").click().run()
    assert not the_evening(deps).games
    assert any("opslaan als remise" in w for w in texts(at, "warning")), texts(at, "warning")
    at.button(key="record_draw_no").click().run()
    assert not the_evening(deps).games
    at.button(key="record_draw").click().run()
    at.button(key="record_draw_confirm").click().run()
    assert [g.draw for g in the_evening(deps).games] == [True]
    # In Afrekenen: winner "Remise".
    widget(at.radio, "-winner-").set_value("draw").run()
    at.button(key="record_game").click().run()
    assert len(the_evening(deps).games) == 1
    at.button(key="record_confirm").click().run()
    assert [g.draw for g in the_evening(deps).games] == [True, True]


def test_refusals_of_the_scoreboard_are_said_in_dutch(at: AppTest, deps: AppDeps) -> None:
    typed_game(at, "E", 96, {})
    deps.store.add_game(the_evening(deps).id, "E", "Bas", {"Bas": 48})  # another phone saved game 1
    at.button(key="record_game").click().run()
    errors = texts(at, "error")
    assert any("spel 1 staat al in de avondstand" in e for e in errors), errors
    assert not any("already recorded" in e for e in errors)
    assert len(the_evening(deps).games) == 1
    # Start another evening with a name twice.
    widget(at.selectbox, "evening-picker").set_value(0).run()  # one pick opens the new-evening form
    assert not standing(at) and at.text_input(key="new-player-0").value == ""
    for n, name in enumerate(["Anna", "Anna", "Cor", "Dirk"]):
        at.text_input(key=f"new-player-{n}").set_value(name)
    button(at, "Avond beginnen").click().run()
    errors = texts(at, "error")
    assert any("vier verschillende spelersnamen" in e for e in errors), errors


# --- item 5: a saved game starts a fresh hand; the sample is no game -----------------------------


def test_a_saved_game_starts_a_fresh_hand_without_the_old_open_sets(at: AppTest, deps: AppDeps) -> None:
    notation = widget(at.text_input, f"{PREFIX}-notation")
    notation.set_value("11z 123p 444p 777z 444z 4f").run()
    widget(at.selectbox, f"{PREFIX}-win-").set_value("1z").run()
    widget(at.text_input, "typedopen").set_value("444z").run()  # the Noord pung lay open
    assert not at.exception and int(at.metric[0].value) > 0
    at.button(key="record_game").click().run()
    assert not at.exception and len(the_evening(deps).games) == 1
    # Game 2: the Hand tab holds no tiles and no typed open sets; the same hand is not offered again.
    assert widget(at.text_input, f"{PREFIX}-notation").value == ""
    assert not [w for w in at.text_input if w.key and "typedopen" in w.key and w.value]
    widget(at.text_input, f"{PREFIX}-notation").set_value("11z 123p 444p 777z 444z").run()
    assert not at.exception
    typed_open = [w for w in at.text_input if w.key and "typedopen" in w.key]
    assert all(w.value == "" for w in typed_open)


def sample_read_right(db: Path) -> AppDeps:
    """The app with a recognizer that reads the sample photo hand1.jpg right (a valid hand as it is)."""
    codes = list(HAND1_READ)
    codes[MISREAD_INDEX] = "7z"
    recognizer = FakeRecognizer({HAND1.read_bytes(): fake_tiles(codes, {})})
    return AppDeps(PhotoReader(recognizer), ScoreboardStore(db), sample_photos(), random.Random(7))


def test_the_sample_hand_is_not_saved_as_a_game_unless_chosen(tmp_path: Path) -> None:
    deps = sample_read_right(tmp_path / "club.sqlite")
    at = start(deps)
    start_evening(at, NAMES)
    assert int(at.metric[0].value) > 0  # the sample photo as read is a valid hand
    assert any("voorbeeldfoto" in w for w in texts(at, "warning")), texts(at, "warning")
    assert at.button(key="record_game").disabled  # a browser cannot tap it
    widget(at.checkbox, "-sample-ok").check().run()  # a deliberate choice
    assert not at.button(key="record_game").disabled
    at.button(key="record_game").click().run()
    assert len(the_evening(deps).games) == 1
    # Game 2: the saved hand is gone (no tiles, so no sample warning); 0 points would be asked first.
    assert not any("voorbeeldfoto" in w for w in texts(at, "warning")), texts(at, "warning")
    at.button(key="record_game").click().run()
    assert len(the_evening(deps).games) == 1 and at.button(key="record_confirm")
    # A reload starts a new session: the sample photo is read again, and is not saveable again.
    again = start(deps)
    assert again.button(key="record_game").disabled


# --- item 10: names entered once; CSV for Dutch Excel ---------------------------------------------


def test_names_typed_in_afrekenen_are_not_asked_again(deps: AppDeps) -> None:
    at = start(deps)
    for seat, name in zip("ESWN", NAMES, strict=True):
        widget(at.text_input, f"settle-name-{seat}").set_value(name).run()
    assert [at.text_input(key=f"new-player-{n}").value for n in range(4)] == NAMES
    assert any("namen uit afrekenen" in c.lower() for c in texts(at, "caption"))
    at.text_input(key="new-name").set_value("Vrijdag")
    button(at, "Avond beginnen").click().run()
    assert not at.exception
    assert the_evening(deps).first_seats == {"Anna": "E", "Bas": "S", "Cor": "W", "Dirk": "N"}


def evening_with_games(tmp_path: Path) -> Evening:
    store = ScoreboardStore(tmp_path / "csv.sqlite")
    evening = store.create_evening("Vrijdag", {"Anna": "E", "Bas": "S", "=Cor": "W", "Dirk": "N"})
    store.add_game(evening.id, "E", "Anna", {"Anna": 96, "Bas": 10, "=Cor": 4}, dead=["Dirk"])
    store.add_game(evening.id, "S", None, {})
    loaded = store.evening(evening.id)
    assert loaded is not None
    return loaded


def test_csv_for_dutch_excel_and_the_plain_one(tmp_path: Path) -> None:
    evening = evening_with_games(tmp_path)
    data = evening_csv_nl(evening)
    assert data.startswith("\ufeff".encode())  # Excel reads UTF-8 with a byte-order mark
    rows = list(csv.reader(io.StringIO(data.decode("utf-8-sig")), delimiter=";"))
    header, first, second = rows
    assert header[:6] == ["Avond", "Datum", "Spel", "Heersende wind", "Winnaar", "Remise"]
    assert header[6:11] == ["Anna wind", "Anna score", "Anna dode hand", "Anna krijgt/betaalt", "Anna totaal"]
    assert "'=Cor wind" in header  # a name that starts like a formula stays text
    assert first[:6] == ["Vrijdag", evening.created_at[:10], "1", "O", "Anna", "nee"]
    game1 = settle({"E": 96, "S": 10, "W": 4, "N": 0}, "E")
    dirk = header.index("Dirk wind")
    assert first[dirk : dirk + 5] == ["N", "0", "ja", str(game1["N"]), str(game1["N"])]
    assert second[2:6] == ["2", "Z", "", "ja"]
    bas = header.index("Bas wind")
    assert second[bas] == "O"  # Bas moved from Zuid to Oost
    # The plain CSV stays as it was: commas, English headers, E/S/W/N.
    plain = list(csv.reader(io.StringIO(evening_csv(evening))))
    assert plain[0][:4] == ["game", "prevailing_wind", "winner", "draw"]
    assert plain[1][:4] == ["1", "E", "Anna", "0"] and plain[1][4] == "E"


def test_the_evening_tab_offers_both_csv_files(at: AppTest) -> None:
    labels = [b.proto.label for b in at.get("download_button")]
    assert labels == ["Exporteer CSV", "Exporteer voor Excel (NL, ;)"]


# --- item 11: a dead hand's score stays 0; no dice emoji ------------------------------------------


def test_a_dead_hand_score_cannot_be_changed_and_counts_zero(at: AppTest) -> None:
    typed_game(at, "E", 96, {"S": 10})
    widget(at.checkbox, "-dead-S").check().run()
    score = widget(at.number_input, "-score-S")
    assert score.disabled and score.value == 10  # what was typed is kept, shown, and not counted
    assert widget(at.radio, "-mode-S").disabled
    assert any("telt 0 punten" in c for c in texts(at, "caption"))
    table = table_with(at, "Krijgt / betaalt")
    assert dict(zip(table["Speler"], table["Score"], strict=True))["Bas"] == 0
    widget(at.checkbox, "-dead-S").uncheck().run()
    assert (
        widget(at.number_input, "-score-S").value == 10 and not widget(at.number_input, "-score-S").disabled
    )


def test_no_emoji_on_the_evening_tab(at: AppTest) -> None:
    dice = at.button(key="throw_dice")
    assert "🎲" not in dice.label and "dobbelstenen" in dice.label
    typed_game(at, "E", 96, {}, dead=("N",))
    at.button(key="record_game").click().run()
    games = table_with(at, "Heersend")
    dirk = settle({"E": 96, "S": 0, "W": 0, "N": 0}, "E")["N"]
    assert list(games["Dirk"]) == [f"Noord (dood): {dirk:+d} → {dirk}"]
    assert "☠" not in " ".join(map(str, games.to_numpy().ravel()))


def test_a_saved_game_clears_the_uploaded_photo(at: AppTest, deps: AppDeps) -> None:
    """Issue 15 item 5: the photo of a saved game does not stay in the uploader for the next game."""
    at.file_uploader(key="photo_upload-0").set_value(("game1.jpg", HAND1.read_bytes(), "image/jpeg")).run()
    assert not at.exception
    typed_game(at, "E", 96, {})
    at.button(key="record_game").click().run()
    assert not at.exception and len(the_evening(deps).games) == 1
    uploaders = [
        node
        for node in at._tree
        if isinstance(node, Element) and getattr(node, "type", None) == "file_uploader"
    ]
    assert len(uploaders) == 1
    assert not uploaders[0].value  # an empty uploader: the next game's photo is still to come
