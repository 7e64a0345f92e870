"""The app driven headlessly with streamlit.testing.v1.AppTest: photo → tiles → corrections → sets → score,
bad input, a loser scored, a settlement, and an evening of three games that survives a restart."""

from __future__ import annotations

import io
import json
import random
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from PIL import Image
from streamlit.testing.v1 import AppTest

from mahjong_nts.app.deps import AppDeps, sample_photos
from mahjong_nts.app.photo import PhotoReader, PhotoReading, TileRead, photo_key, picture_only
from mahjong_nts.app.scoreboard import ScoreboardStore
from scoring import hand_from_dict, parse_tiles, score_hand, settle

ROOT = Path(__file__).resolve().parent.parent
HAND1 = ROOT / "samples" / "hand1.jpg"
TIMEOUT = 60

# hand1.jpg holds 11z 123p 444p 777z 444z and flower 4f; the fake recognizer misreads the third 7z as 6z.
HAND1_READ = ["1z", "1z", "1p", "2p", "3p", "4p", "4p", "4p", "7z", "7z", "6z", "4z", "4z", "4z", "4f"]
MISREAD_INDEX = 10


def total_of(hand: dict[str, Any]) -> int:
    """What `score` gives for a hand object."""
    return score_hand(hand_from_dict(hand)).total


def fake_tiles(codes: list[str], unsure: dict[int, tuple[float, tuple[str, ...]]]) -> tuple[TileRead, ...]:
    """Tiles in one row, 40 px apart, confident unless listed in `unsure`."""
    tiles = []
    for i, code in enumerate(codes):
        confidence, alternatives = unsure.get(i, (0.97, ()))
        tiles.append(TileRead(code, confidence, (10.0 + 40 * i, 100.0, 46.0 + 40 * i, 150.0), alternatives))
    return tuple(tiles)


class FakeRecognizer:
    """Reads photos by their bytes: known photos give fixed tiles, others none; non-images an error."""

    def __init__(self, known: dict[bytes, tuple[TileRead, ...]]) -> None:
        self.known = {photo_key(data): tiles for data, tiles in known.items()}

    def __call__(self, data: bytes, key: str) -> PhotoReading:
        shown = picture_only(data, key, warning="")
        if shown.error:
            return shown
        return PhotoReading(key, self.known.get(key, ()), shown.image, shown.scale)


HAND2 = ROOT / "samples" / "hand2.jpg"
HAND2_ROWS = [  # hand2.jpg's hand, and two rows of tiles lying beside it on the table
    ["1m", "2m", "3m", "6m", "7m", "8m", "6m", "7m", "8m", "5m", "5m", "5m", "5z", "5z", "2f"],
    ["back", "back"],
    ["9s", "3m"],
]


def fake_rows(rows: list[list[str]]) -> tuple[TileRead, ...]:
    """Several rows of confident tiles, 60 px apart."""
    return tuple(
        TileRead(code, 0.95, (10.0 + 40 * i, 100.0 + 60 * r, 46.0 + 40 * i, 150.0 + 60 * r), (), r)
        for r, codes in enumerate(rows)
        for i, code in enumerate(codes)
    )


def fake_deps(db: Path) -> AppDeps:
    hand1 = HAND1.read_bytes()
    recognizer = FakeRecognizer(
        {
            hand1: fake_tiles(HAND1_READ, {MISREAD_INDEX: (0.41, ("7z", "5z"))}),
            HAND2.read_bytes(): fake_rows(HAND2_ROWS),
        }
    )
    return AppDeps(
        read_photo=PhotoReader(recognizer),
        store=ScoreboardStore(db),
        samples=sample_photos(),
        rng=random.Random(7),
    )


def run_app(deps) -> None:  # type: ignore[no-untyped-def]  # runs as a script: no annotations there
    from mahjong_nts.app.page import main

    main(deps)


def start(deps: AppDeps) -> AppTest:
    at = AppTest.from_function(run_app, args=(deps,), default_timeout=TIMEOUT)
    at.run()
    assert not at.exception, at.exception
    return at


def widget(items: Any, key_part: str) -> Any:
    """The one widget of a list whose key contains `key_part`."""
    found = [w for w in items if w.key and key_part in w.key]
    assert len(found) == 1, [w.key for w in items]
    return found[0]


def table_with(at: AppTest, column: str) -> Any:
    """The one table on the page with a column named `column` (as a DataFrame)."""
    found = [table.value for table in at.table if column in table.value.columns]
    assert len(found) == 1, [list(table.value.columns) for table in at.table]
    return found[0]


def metric_total(at: AppTest) -> int:
    return int(at.metric[0].value)


def texts(at: AppTest, kind: str) -> list[str]:
    return [str(e.value) for e in getattr(at, kind)]


@pytest.fixture
def deps(tmp_path: Path) -> AppDeps:
    return fake_deps(tmp_path / "evening.sqlite")


def test_sample_photo_corrected_and_toggled_gives_the_right_total(deps: AppDeps) -> None:
    at = start(deps)
    prefix = f"hand-{photo_key(HAND1.read_bytes())}"
    # The sample photo is read: the notation box holds what was read, the flower is in the bonus list.
    notation = widget(at.text_input, f"{prefix}-notation")
    assert sorted(parse_tiles(notation.value)) == sorted(HAND1_READ)
    assert widget(at.multiselect, f"{prefix}-bonus").value == ["4f"]
    assert len(at.image) == 1
    assert any("onzeker" in c for c in texts(at, "caption"))
    # The uncertain tile is offered with its alternatives; pick the red dragon.
    picker = widget(at.button_group, f"{prefix}-alt-")
    assert picker.value == "6z"
    picker.set_value("7z").run()
    assert not at.exception
    assert sorted(parse_tiles(widget(at.text_input, f"{prefix}-notation").value)) == sorted(
        parse_tiles("11z 123p 444p 777z 444z 4f")
    )
    # Situation: North wins on a discarded East (the pair); the red dragons lay open.
    widget(at.radio, f"{prefix}-seat").set_value("N").run()
    widget(at.selectbox, f"{prefix}-win-").set_value("1z").run()
    widget(at.toggle, f"{prefix}-open-pung:7z7z7z").set_value(True).run()
    assert not at.exception
    # Hand-counted from SCORING.md: 20 mahjong + 2 only tile + 2 pair + 4 open dragon pung + 4 concealed 444p
    # + 8 concealed North pung + 4 flower = 44; doublings dragons, own wind, own flower, schoon spel = 4.
    assert metric_total(at) == 44 * 2**4 == 704
    assert any("Geldige mahjong" in s for s in texts(at, "success"))
    breakdown = table_with(at, "Onderdeel")
    assert "Eigen bloem" in list(breakdown.iloc[:, 0])
    assert "Schoon spel" in list(breakdown.iloc[:, 0])


def test_a_misread_tile_that_breaks_the_hand_is_offered_as_a_one_click_fix(deps: AppDeps) -> None:
    at = start(deps)
    prefix = f"hand-{photo_key(HAND1.read_bytes())}"
    assert any("geen mahjong-vorm" in e for e in texts(at, "error"))
    assert any("Met één van deze stenen" in i for i in texts(at, "info"))
    fix = widget(at.button, f"{prefix}-swap-")
    assert fix.label == "Steen 11: 6z · Groene draak → 7z · Rode draak"
    fix.click().run()
    assert not at.exception
    assert sorted(parse_tiles(widget(at.text_input, f"{prefix}-notation").value)) == sorted(
        parse_tiles("11z 123p 444p 777z 444z 4f")
    )
    assert any("Geldige mahjong" in s for s in texts(at, "success"))
    assert not [b for b in at.button if b.key and "-swap-" in b.key]


def test_corrections_survive_reruns_and_photo_switches(deps: AppDeps) -> None:
    at = start(deps)
    prefix = f"hand-{photo_key(HAND1.read_bytes())}"
    widget(at.text_input, f"{prefix}-notation").set_value("11z 123p 444p 777z 444z 4f").run()
    widget(at.radio, f"{prefix}-seat").set_value("W").run()
    at.selectbox(key="sample_choice").set_value("hand2.jpg").run()
    assert not at.exception
    at.selectbox(key="sample_choice").set_value("hand1.jpg").run()
    assert sorted(parse_tiles(widget(at.text_input, f"{prefix}-notation").value)) == sorted(
        parse_tiles("11z 123p 444p 777z 444z 4f")
    )
    assert widget(at.radio, f"{prefix}-seat").value == "W"
    # Another language relabels the choices; the widgets are drawn afresh at the same values.
    key_before = widget(at.radio, f"{prefix}-seat").key
    at.radio(key="lang").set_value("en").run()
    seat = widget(at.radio, f"{prefix}-seat")
    assert seat.key != key_before and seat.value == "W" and seat.options[2] == "West"
    assert widget(at.radio, "prevailing").options[0] == "East"


def test_camera_photo_is_read_like_an_upload(deps: AppDeps) -> None:
    at = start(deps)
    assert not at.camera_input  # the camera asks for permission only when switched on
    at.toggle(key="use_camera").set_value(True).run()
    camera = at.camera_input(key="photo_camera-0")
    assert camera.proto.resolution_height == 1080  # not the widget's width: a few hundred pixels on a phone
    camera.set_value(("shot.jpg", HAND1.read_bytes(), "image/jpeg")).run()
    assert not at.exception
    prefix = f"hand-{photo_key(HAND1.read_bytes())}"
    assert sorted(parse_tiles(widget(at.text_input, f"{prefix}-notation").value)) == sorted(HAND1_READ)
    assert not any("Voorbeeldfoto" in c for c in texts(at, "caption"))


def test_rows_of_tiles_beside_the_hand_are_left_out_in_one_go(deps: AppDeps) -> None:
    at = start(deps)
    at.selectbox(key="sample_choice").set_value("hand2.jpg").run()
    prefix = f"hand-{photo_key(HAND2.read_bytes())}"
    labels = [b.label for b in at.button]
    assert "Rij 2 weglaten: ▮ ▮" in labels and "Rij 3 weglaten: 9s 3m" in labels
    assert not any(label.startswith("Rij 1 weglaten") for label in labels)  # the hand's own row stays
    widget(at.button, f"{prefix}-keeprow").click().run()
    assert not at.exception
    notation = widget(at.text_input, f"{prefix}-notation").value
    assert sorted(parse_tiles(notation)) == sorted(parse_tiles("123678678m555m55z2f"))
    assert not [b for b in at.button if b.key and "-droprow-" in b.key]


def test_tile_table_edits_change_add_and_remove_tiles(deps: AppDeps) -> None:
    at = start(deps)
    prefix = f"hand-{photo_key(HAND1.read_bytes())}"
    table = widget(at.data_editor, f"{prefix}-tiles")
    at.session_state[table.key] = {
        "edited_rows": {MISREAD_INDEX: {"tile": "7z · Rode draak"}, 0: {"remove": True}},
        "added_rows": [{"tile": "1y · Seizoen 1 lente"}],
        "deleted_rows": [],
    }
    at.run()
    assert not at.exception
    codes = parse_tiles(widget(at.text_input, f"{prefix}-notation").value)
    assert sorted(codes) == sorted(parse_tiles("1z 123p 444p 777z 444z 4f 1y"))
    assert widget(at.multiselect, f"{prefix}-bonus").value == ["4f", "1y"]


def test_notation_box_shows_a_one_line_error_and_keeps_the_text(deps: AppDeps) -> None:
    at = start(deps)
    prefix = f"hand-{photo_key(HAND1.read_bytes())}"
    widget(at.text_input, f"{prefix}-notation").set_value("11z 123p 8z").run()
    assert not at.exception
    errors = texts(at, "error")
    assert any("Notatie niet begrepen" in e and "8z" in e for e in errors), errors
    assert widget(at.text_input, f"{prefix}-notation").value == "11z 123p 8z"


def test_invalid_hand_shows_the_reason(deps: AppDeps) -> None:
    at = start(deps)
    prefix = f"hand-{photo_key(HAND1.read_bytes())}"
    # Four chows and a plain pair, won on a discard: a winning shape with too few doublings.
    widget(at.text_input, f"{prefix}-notation").set_value("123m 456m 234p 678s 55s").run()
    assert not at.exception
    assert any("te weinig verdubbelingen" in e for e in texts(at, "error")), texts(at, "error")
    assert metric_total(at) == 0
    # Not a winning shape at all.
    widget(at.text_input, f"{prefix}-notation").set_value("1357m 2468p 13579s 1z").run()
    assert any("geen mahjong-vorm" in e for e in texts(at, "error")), texts(at, "error")
    # English switch.
    at.radio(key="lang").set_value("en").run()
    assert any("no winning shape" in e for e in texts(at, "error")), texts(at, "error")


def test_bad_uploads_give_clear_messages(deps: AppDeps) -> None:
    at = start(deps)
    at.file_uploader(key="photo_upload-0").set_value(("notes.txt", b"not a photo", "text/plain")).run()
    assert not at.exception
    assert any("kan niet gelezen worden" in e for e in texts(at, "error")), texts(at, "error")
    blank = io.BytesIO()
    Image.fromarray(np.full((240, 320, 3), 200, np.uint8)).save(blank, format="PNG")
    at.file_uploader(key="photo_upload-0").set_value(("table.png", blank.getvalue(), "image/png")).run()
    assert not at.exception
    assert any("Geen stenen gevonden" in w for w in texts(at, "warning")), texts(at, "warning")
    # An impossible hand: five of one tile.
    prefix = f"hand-{photo_key(blank.getvalue())}"
    widget(at.text_input, f"{prefix}-notation").set_value("11111z 123p 444p 777z").run()
    assert not at.exception
    assert any("klopt niet" in e for e in texts(at, "error")), texts(at, "error")


def test_an_unusable_database_is_one_message_and_the_hand_still_scores(tmp_path: Path) -> None:
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("a file where the database folder should be")
    at = start(fake_deps(blocker / "evening.sqlite"))
    assert any("kan niet worden opgeslagen" in e for e in texts(at, "error")), texts(at, "error")
    scored = json.loads(at.json[0].value)  # the Hand tab still scores the sample photo as read
    assert sorted(parse_tiles(scored["concealed"])) == sorted(c for c in HAND1_READ if c != "4f")
    assert int(at.metric[0].value) == total_of(scored)


def test_loser_scored_from_notation_and_settlement_sums_to_zero(deps: AppDeps) -> None:
    at = start(deps)
    prefix = f"hand-{photo_key(HAND1.read_bytes())}"
    widget(at.text_input, f"{prefix}-notation").set_value("11z 123p 444p 777z 444z 4f").run()
    widget(at.radio, f"{prefix}-seat").set_value("N").run()
    widget(at.selectbox, f"{prefix}-win-").set_value("1z").run()
    widget(at.toggle, f"{prefix}-open-pung:7z7z7z").set_value(True).run()
    assert metric_total(at) == 704
    # Settle: North wins with 704; East typed 16; South scored from the hand 555m 999s 12m 3456s 7p.
    assert widget(at.radio, "-winner-").value == "N"
    widget(at.number_input, "-score-E").set_value(16).run()
    widget(at.radio, "-mode-S").set_value("hand").run()
    widget(at.text_input, "-S-typed-notation").set_value("555m 999s 12m 3456s 7p").run()
    assert not at.exception
    loser_hand = {
        "role": "loser",
        "seat_wind": "S",
        "prevailing_wind": "E",
        "concealed": "555m999s12m3456s7p",
    }
    south = total_of(loser_hand)
    assert south == 4 + 8  # concealed pung of simples + concealed pung of terminals, no doublings
    widget(at.checkbox, "-dead-W").check().run()
    table = table_with(at, "Krijgt / betaalt")
    changes = dict(zip(table["Speler"], table["Krijgt / betaalt"], strict=True))
    expected = settle({"E": 16, "S": south, "W": 0, "N": 704}, "N")
    assert changes == {
        "Oost": expected["E"],
        "Zuid": expected["S"],
        "West": expected["W"],
        "Noord": expected["N"],
    }
    assert sum(changes.values()) == 0
    assert any("de som is 0" in s for s in texts(at, "success"))


def start_evening(at: AppTest, names: list[str]) -> None:
    for n, name in enumerate(names):
        at.text_input(key=f"new-player-{n}").set_value(name)
    at.text_input(key="new-name").set_value("Vrijdag")
    at.button[[b.label for b in at.button].index("Avond beginnen")].click().run()
    assert not at.exception


def test_evening_of_three_games_rotates_winds_and_survives_a_restart(tmp_path: Path) -> None:
    db = tmp_path / "club.sqlite"
    at = start(fake_deps(db))
    start_evening(at, ["Anna", "Bas", "Cor", "Dirk"])
    assert widget(at.selectbox, "evening-picker").value != 0
    # Game 1: Anna (Oost) wins with 704 from the hand; everyone else 0.
    prefix = f"hand-{photo_key(HAND1.read_bytes())}"
    widget(at.text_input, f"{prefix}-notation").set_value("11z 123p 444p 777z 444z 4f").run()
    widget(at.radio, f"{prefix}-seat").set_value("E").run()
    assert widget(at.radio, f"{prefix}-seat").options[0] == "Oost (Anna)"
    widget(at.selectbox, f"{prefix}-win-").set_value("1z").run()
    widget(at.toggle, f"{prefix}-open-pung:7z7z7z").set_value(True).run()
    first_total = metric_total(at)
    assert first_total > 0
    at.button(key="record_game").click().run()
    assert not at.exception
    # Game 2: the winds moved on (Bas was Zuid, is now Oost); a draw thrown with the dice.
    assert widget(at.radio, f"{prefix}-seat").options[0] == "Oost (Bas)"
    at.button(key="throw_dice").click().run()
    thrown_wind = at.session_state["game"]["prevailing_wind"]
    at.button(key="record_draw").click().run()
    at.button(key="record_draw_confirm").click().run()  # a draw is asked first
    # Game 3: Cor wins with a typed 96 while sitting Oost; Dirk typed 8.
    assert widget(at.radio, f"{prefix}-seat").options[0] == "Oost (Cor)"
    widget(at.radio, "-winner-").set_value("E").run()
    widget(at.radio, "-source-").set_value("typed").run()
    widget(at.number_input, "-typed-score").set_value(96).run()
    widget(at.number_input, "-score-W").set_value(8).run()
    at.button(key="record_game").click().run()
    assert not at.exception

    def expected_totals() -> dict[str, int]:
        game1 = settle({"E": first_total, "S": 0, "W": 0, "N": 0}, "E")  # Anna E, Bas S, Cor W, Dirk N
        seats1 = {"Anna": "E", "Bas": "S", "Cor": "W", "Dirk": "N"}
        seats3 = {"Anna": "W", "Bas": "N", "Cor": "E", "Dirk": "S"}  # after two rotations
        scores3 = {"E": 96, "S": 0, "W": 8, "N": 0}
        game3 = settle(scores3, "E")
        return {p: game1[seats1[p]] + game3[seats3[p]] for p in seats1}

    totals = expected_totals()
    assert sum(totals.values()) == 0
    # Restart: a new app process on the same SQLite file shows the same evening and totals.
    again = start(fake_deps(db))
    shown = {m.label: int(m.value) for m in again.metric if m.label in totals}
    assert shown == totals
    games = table_with(again, "Heersend")
    assert list(games["Spel"]) == [1, 2, 3]
    assert list(games["Heersend"])[1] == {"E": "Oost", "S": "Zuid", "W": "West", "N": "Noord"}[thrown_wind]
    assert list(games["Winnaar"]) == ["Anna", "Remise (geen winnaar)", "Cor"]
    # Undo the last game (two steps) and the totals go back to game 1's.
    again.button(key="undo").click().run()
    again.button(key="undo_confirm").click().run()
    assert not again.exception
    after_undo = {m.label: int(m.value) for m in again.metric if m.label in totals}
    game1 = settle({"E": first_total, "S": 0, "W": 0, "N": 0}, "E")
    assert after_undo == {"Anna": game1["E"], "Bas": game1["S"], "Cor": game1["W"], "Dirk": game1["N"]}
