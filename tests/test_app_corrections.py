"""The hand editor keeps only the player's changes on top of the reading's proposal (issue 14, item 1):
its session state holds no copy of the tiles read, a change survives reruns and a tab switch, a new photo
starts from its own reading, and the app's hand is `propose_hand` of the reading with those changes."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest
from test_app_evening import open_tab
from test_app_flow import (
    HAND1,
    HAND1_READ,
    HAND2,
    MISREAD_INDEX,
    fake_deps,
    fake_tiles,
    start,
    total_of,
    widget,
)

from mahjong_nts.app.deps import AppDeps
from mahjong_nts.app.hand import evaluate
from mahjong_nts.app.photo import PhotoReading, photo_key
from mahjong_nts.app.state import (
    Corrections,
    HandEditor,
    add_tile,
    apply_notation,
    drop_row,
    editor_from_reading,
    read_bonus,
    read_tiles,
    set_tile,
)
from mahjong_nts.reading.hand import propose_hand
from mahjong_nts.reading.tiles import TileRead
from scoring import hand_from_dict, parse_tiles

KEY1 = photo_key(HAND1.read_bytes())
KEY2 = photo_key(HAND2.read_bytes())
PREFIX = f"hand-{KEY1}"
READ1 = fake_tiles(HAND1_READ, {MISREAD_INDEX: (0.41, ("7z", "5z"))})  # what the fake recognizer reads


@pytest.fixture
def deps(tmp_path: Path) -> AppDeps:
    return fake_deps(tmp_path / "evening.sqlite")


def stored(at: AppTest, key: str) -> HandEditor:
    editor = at.session_state["editors"][key]
    assert isinstance(editor, HandEditor)
    return editor


def tile_reads(value: object) -> list[TileRead]:
    """Every TileRead held in a value of the editor's state (through tuples, lists, dicts, dataclasses)."""
    if isinstance(value, TileRead):
        return [value]
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return [t for f in dataclasses.fields(value) for t in tile_reads(getattr(value, f.name))]
    if isinstance(value, dict):
        return [t for v in value.values() for t in tile_reads(v)]
    if isinstance(value, list | tuple | set | frozenset):
        return [t for v in value for t in tile_reads(v)]
    return []


# --- (1) the state holds the changes only ---------------------------------------------------------


def test_the_editors_state_holds_only_the_players_changes(deps: AppDeps) -> None:
    at = start(deps)
    editor = stored(at, KEY1)
    assert editor.changes == Corrections()  # nothing changed yet: nothing of the tiles is stored
    assert tile_reads(editor) == []
    assert [t.code for t in editor.tiles] == [c for c in HAND1_READ if c != "4f"]  # shown: the reading
    widget(at.button_group, f"{PREFIX}-alt-").set_value("7z").run()
    assert not at.exception
    editor = stored(at, KEY1)
    assert editor.changes == Corrections(changed=((MISREAD_INDEX, "7z"),))  # one tile changed, no copy
    assert tile_reads(editor) == []


def test_changes_record_what_changed_and_give_the_tiles_back() -> None:
    reading = PhotoReading(KEY1, READ1)
    editor = editor_from_reading(reading)
    set_tile(editor, MISREAD_INDEX, "7z")
    add_tile(editor, "5m")
    add_tile(editor, "3f")
    editor.set_tiles([t for i, t in enumerate(editor.tiles) if i != 0])
    assert editor.changes == Corrections(
        changed=((MISREAD_INDEX, "7z"),),
        removed=frozenset({0}),
        added=(TileRead("5m"),),
        bonus=("3f", "4f"),
    )
    assert editor.codes == [*HAND1_READ[1:MISREAD_INDEX], "7z", *HAND1_READ[MISREAD_INDEX + 1 : 14], "5m"]
    assert editor.bonus == ["3f", "4f"]
    assert editor.changes.apply(read_tiles(reading.tiles)) == editor.tiles


def test_an_unchanged_tile_follows_the_reading() -> None:
    first = PhotoReading(KEY1, READ1)
    editor = editor_from_reading(first)
    set_tile(editor, MISREAD_INDEX, "7z")
    again = PhotoReading(
        KEY1, tuple(TileRead("2z", t.confidence, t.box) if i == 0 else t for i, t in enumerate(READ1))
    )
    editor.bind(again)  # the photo read again (another recognizer): the change stays on top of it
    assert editor.codes[0] == "2z" and editor.codes[MISREAD_INDEX] == "7z"
    editor.bind(PhotoReading(KEY2, READ1))  # another photo's reading is not this editor's
    assert editor.tiles == [] and editor.bonus == []


def test_a_typed_hand_and_a_dropped_row_are_changes_too() -> None:
    rows = tuple(
        TileRead(c, 0.95, (40.0 * i, 60.0 * r, 40.0 * i + 36, 60.0 * r + 50), (), r)
        for r, codes in enumerate([["1z", "1z", "1z"], ["9s", "3m"]])
        for i, c in enumerate(codes)
    )
    editor = editor_from_reading(PhotoReading("k", rows))
    drop_row(editor, 1)
    assert editor.changes == Corrections(removed=frozenset({3, 4}))
    apply_notation(editor, "111z 5p")
    assert editor.changes == Corrections(removed=frozenset({3, 4}), added=(TileRead("5p"),))


# --- (2) a change survives reruns and a tab switch ------------------------------------------------


def test_a_change_survives_reruns_and_a_tab_switch(deps: AppDeps) -> None:
    at = start(deps)
    widget(at.button_group, f"{PREFIX}-alt-").set_value("7z").run()
    widget(at.radio, f"{PREFIX}-seat").set_value("W").run()
    at.run()
    at.run()
    open_tab(at, "Afrekenen")
    open_tab(at, "Hand")
    assert not at.exception
    assert stored(at, KEY1).changes == Corrections(changed=((MISREAD_INDEX, "7z"),))
    assert sorted(parse_tiles(widget(at.text_input, f"{PREFIX}-notation").value)) == sorted(
        parse_tiles("11z 123p 444p 777z 444z 4f")
    )
    assert widget(at.radio, f"{PREFIX}-seat").value == "W"


# --- (3) a new photo starts from its own reading --------------------------------------------------


def test_a_new_photo_starts_from_its_own_reading_with_no_changes(deps: AppDeps) -> None:
    at = start(deps)
    widget(at.text_input, f"{PREFIX}-notation").set_value("11z 123p 444p 777z 444z 4f 5m").run()
    assert stored(at, KEY1).changes != Corrections()
    at.file_uploader(key="photo_upload-0").set_value(("next.jpg", HAND2.read_bytes(), "image/jpeg")).run()
    assert not at.exception
    fresh = stored(at, KEY2)
    assert fresh.changes == Corrections() and tile_reads(fresh) == []
    notation = widget(at.text_input, f"hand-{KEY2}-notation").value
    assert "5m" not in notation and sorted(parse_tiles(notation)) != sorted(
        parse_tiles("11z 123p 444p 777z 444z 4f")
    )


# --- (4) the app's hand is propose_hand of the reading with the changes --------------------------


def test_the_apps_hand_is_the_readings_proposal_with_the_changes(deps: AppDeps) -> None:
    at = start(deps)
    widget(at.button_group, f"{PREFIX}-alt-").set_value("7z").run()
    assert not at.exception
    changes = stored(at, KEY1).changes
    assert changes == Corrections(changed=((MISREAD_INDEX, "7z"),))
    expected = propose_hand(
        changes.apply(read_tiles(READ1)), {"role": "winner", "bonus": read_bonus(READ1)}
    ).hand
    app = evaluate(stored(at, KEY1))  # what the page scored: the stored changes on this run's reading
    assert app.hand == hand_from_dict(expected)
    assert app.result is not None and total_of(expected) == app.result.total == int(at.metric[0].value)
