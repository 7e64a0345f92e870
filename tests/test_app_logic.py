"""The app's decision logic without Streamlit: the hand editor's corrections and the scoring step."""

from __future__ import annotations

import pytest

from mahjong_nts.app.hand import Evaluation, HandProblem, completing_swaps, evaluate
from mahjong_nts.app.photo import PhotoReading
from mahjong_nts.app.state import (
    REMOVE_COLUMN,
    TILE_COLUMN,
    HandEditor,
    NotationError,
    apply_notation,
    apply_table_edits,
    drop_row,
    editor_from_reading,
    photo_rows,
    replace_codes,
    set_tile,
)
from mahjong_nts.reading.table import read_table
from mahjong_nts.reading.tiles import BACK, TileRead
from scoring import InputError, TileError, hand_from_dict, hand_to_dict, parse_tiles, score_hand


def editor_of(text: str, **context: object) -> HandEditor:
    editor = HandEditor()
    apply_notation(editor, text)
    for name, value in context.items():
        setattr(editor, name, value)
    return editor


def melds_of(evaluation: Evaluation) -> list[dict[str, object]]:
    """The declared melds of the hand the app scored, as `score --json` reads them."""
    assert evaluation.hand is not None, evaluation.problem
    return list(hand_to_dict(evaluation.hand)["melds"])


def boxed(codes: list[str]) -> list[TileRead]:
    return [TileRead(c, 0.9, (i * 10.0, 0.0, i * 10.0 + 8, 12.0), (), read_as=c) for i, c in enumerate(codes)]


# --- the editor ----------


def test_reading_puts_bonus_tiles_aside_and_marks_uncertain_tiles() -> None:
    reading = PhotoReading(
        "k",
        (
            TileRead("1z", 0.99),
            TileRead("4f", 0.95),
            TileRead("6z", 0.40, alternatives=("7z", "5z")),
            TileRead("2y", 0.90),
        ),
    )
    editor = editor_from_reading(reading)
    assert editor.codes == ["1z", "6z"]
    assert editor.bonus == ["4f", "2y"]
    assert [tile.uncertain for tile in editor.tiles] == [False, True]
    assert editor.winning_tile is None  # not chosen by the player: the reading's, the last tile read
    assert read_table(editor.tiles).winning_tile == "6z"
    set_tile(editor, 1, "7z")
    assert editor.tiles[1].corrected and not editor.tiles[1].uncertain
    assert editor.tiles[1].state == "corrected"


def test_a_row_of_tiles_beside_the_hand_can_be_left_out() -> None:
    reading = PhotoReading(
        "k",
        (
            TileRead("1z", 0.9, row=0),
            TileRead("2z", 0.9, row=0),
            TileRead(BACK, 0.9, row=1),
            TileRead("4f", 0.9, row=1),
        ),
    )
    editor = editor_from_reading(reading)
    assert photo_rows(editor.tiles) == {0: ["1z", "2z"], 1: [BACK]}
    drop_row(editor, 1)
    assert editor.codes == ["1z", "2z"] and editor.face_down == 0
    assert photo_rows(editor.tiles) == {}
    assert editor.bonus == ["4f"]  # bonus tiles are not part of any row


def test_typing_one_changed_tile_corrects_that_tile_in_place() -> None:
    tiles = boxed(["1z", "1z", "6z", "2p"])
    changed = replace_codes(tiles, ["1z", "1z", "7z", "2p"])
    assert [t.code for t in changed] == ["1z", "1z", "7z", "2p"]
    assert changed[2].box == tiles[2].box and changed[2].corrected


def test_typed_tiles_fill_face_down_places_then_go_to_the_end() -> None:
    tiles = [*boxed(["1z"]), TileRead(BACK, 0.9, (1, 1, 2, 2), (), read_as=BACK), *boxed(["1z"])]
    changed = replace_codes(tiles, ["1z", "1z", "1z", "5m"])
    assert [t.code for t in changed] == ["1z", "1z", "1z", "5m"]
    assert changed[1].box == (1, 1, 2, 2)
    assert changed[3].box is None


def test_typed_hand_names_face_down_tiles_or_drops_them() -> None:
    # A typed hand is the whole hand: its new tiles take face-down places, leftover face-down tiles go.
    back = TileRead(BACK, 0.9, (1, 1, 2, 2), (), read_as=BACK)
    editor = HandEditor(tiles=[*boxed(["1z"]), back, back, *boxed(["1z", "5p"])])
    assert apply_notation(editor, "1111z 5p")
    assert editor.codes == ["1z", "1z", "1z", "1z", "5p"] and editor.face_down == 0
    editor = HandEditor(tiles=[*boxed(["1z"]), back, *boxed(["5p"])])
    assert apply_notation(editor, "1z 5p 6p")
    assert editor.codes == ["1z", "6p", "5p"] and editor.face_down == 0
    editor = HandEditor(tiles=[*boxed(["1z"]), back, back, *boxed(["5p"])])
    assert apply_notation(editor, "1z 5p 9s")
    assert editor.codes == ["1z", "9s", "5p"] and editor.face_down == 0


def test_notation_splits_bonus_and_rejects_bad_tokens_with_one_line() -> None:
    editor = HandEditor()
    assert apply_notation(editor, "123m 456p 789s 11z 555z 4f 1y")
    assert editor.bonus == ["4f", "1y"]
    assert editor.notation == "123m456p789s11555z4f1y"
    version = editor.version
    assert not apply_notation(editor, "11z 555z 789s 456p 123m 1y 4f")  # same hand, other order
    assert editor.version == version
    with pytest.raises(TileError, match="8z"):
        apply_notation(editor, "123m 8z")
    with pytest.raises(NotationError, match="4f appears twice"):
        apply_notation(editor, "123m 4f 4f")
    assert editor.notation == "123m456p789s11555z4f1y"


def test_table_edits_change_remove_and_add_tiles() -> None:
    editor = HandEditor(tiles=boxed(["1z", "6z", "2p", "3p"]))
    labels = {"7z · Rode draak": "7z", "4f · Bloem 4": "4f", "9s · 9 bamboe": "9s"}
    edits = {
        "edited_rows": {1: {TILE_COLUMN: "7z · Rode draak"}, "2": {REMOVE_COLUMN: True}},
        "added_rows": [{TILE_COLUMN: "9s · 9 bamboe"}, {TILE_COLUMN: "4f · Bloem 4"}],
        "deleted_rows": [0],
    }
    assert apply_table_edits(editor, edits, labels)
    assert editor.codes == ["7z", "3p", "9s"]
    assert editor.bonus == ["4f"]


def test_table_row_added_without_a_tile_waits_for_the_choice() -> None:
    editor = HandEditor(tiles=boxed(["1z"]))
    assert not apply_table_edits(editor, {"added_rows": [{}], "edited_rows": {}, "deleted_rows": []}, {})
    assert editor.codes == ["1z"] and editor.version == 0


def test_face_down_tiles_between_two_equal_tiles_are_a_concealed_kong() -> None:
    back = TileRead(BACK, 0.9, None, (), read_as=BACK)
    three = boxed(["3m"])[0]
    editor = editor_of("123p 456p 789p 55s", seat_wind="E", winning_tile="5s")
    editor.tiles = [three, back, back, three, *editor.tiles]
    evaluation = evaluate(editor)
    assert melds_of(evaluation) == [{"tiles": "3333m", "open": False}]
    assert any(a.what == "concealed kong 3333m (3m back back 3m)" for a in evaluation.assumed)


def test_face_down_tiles_that_complete_nothing_are_left_to_the_player() -> None:
    back = TileRead(BACK)
    editor = HandEditor(tiles=[*boxed(["3m"]), back, back, *boxed(["5p"])])
    problem = evaluate(editor).problem
    assert isinstance(problem, HandProblem) and problem.key == "face_down_left"


# --- the scoring step ----------


def test_kongs_follow_the_tile_count() -> None:
    assert evaluate(editor_of("1111z 123p 456p 789p 55s", winning_tile="5s")).kongs == ("1z",)
    assert evaluate(editor_of("1111z 23p 456p 789p 55s", winning_tile="5s")).kongs == ()
    fifteen = evaluate(editor_of("111z 123p 456p 789p 555s 6s", winning_tile="6s"))
    assert isinstance(fifteen.problem, InputError) and "16 tiles" in str(fifteen.problem)


def test_the_winning_tile_cannot_sit_in_a_declared_open_set() -> None:
    editor = editor_of("111z 123p 456p 789p 55s", winning_tile="1z")
    editor.typed_open = "111z"
    problem = evaluate(editor).problem
    assert isinstance(problem, HandProblem) and problem.key == "winning_tile_open"


def test_seed_example_scores_136_once_the_east_pung_is_marked_open() -> None:
    # SCORING.md section 11: seat East, prevailing South, open pung 1z; 234m 567p 777z 88s, 4m self-drawn.
    editor = editor_of(
        "111z 234m 567p 777z 88s", seat_wind="E", prevailing_wind="S", winning_tile="4m", self_drawn=True
    )
    first = evaluate(editor)
    assert first.problem is None
    east = [s for s in first.sets if s.tiles == ("1z", "1z", "1z")]
    assert len(east) == 1
    editor.declared_open[east[0].id] = True
    marked = evaluate(editor)
    assert marked.result is not None and marked.result.total == 136
    assert melds_of(marked) == [{"tiles": "111z", "open": True}]
    assert first.result is not None and first.result.total > 136  # concealed it scored more


def test_concealed_kong_switch_reaches_the_scorer() -> None:
    editor = editor_of("1111z 123p 456p 789p 55s", seat_wind="E", winning_tile="5s")
    open_kong = evaluate(editor)
    assert open_kong.kongs == ("1z",)
    editor.kong_concealed["1z"] = True
    concealed = evaluate(editor)
    assert melds_of(concealed) == [{"tiles": "1111z", "open": False}]
    expected = score_hand(
        hand_from_dict(
            {
                "seat_wind": "E",
                "prevailing_wind": "E",
                "concealed": "123456789p55s",
                "melds": [{"tiles": "1111z", "open": False}],
                "winning_tile": "5s",
            }
        )
    )
    assert concealed.result == expected
    assert open_kong.result is not None and concealed.result.total > open_kong.result.total


def test_invalid_and_malformed_hands_are_results_not_exceptions() -> None:
    too_few = evaluate(editor_of("123m 456m 234p 678s 55s", winning_tile="5s"))
    assert too_few.result is not None and too_few.result.reason_code == "too_few_doublings"
    no_shape = evaluate(editor_of("1357m 2468p 13579s 1z", winning_tile="1z"))
    assert no_shape.result is not None and no_shape.result.reason_code == "no_winning_shape"
    five = evaluate(editor_of("11111z 123p 444p 777z"))
    assert five.problem is not None and "\n" not in str(five.problem)
    empty = evaluate(HandEditor())
    assert isinstance(empty.problem, HandProblem) and empty.problem.key == "no_tiles"


def test_nts_leaves_flowers_out_with_a_note() -> None:
    editor = editor_of("11z 123p 444p 777z 444z 4f", seat_wind="N", winning_tile="1z", ruleset="nts")
    evaluation = evaluate(editor)
    assert evaluation.notes == ("bonus_ignored",)
    assert evaluation.hand is not None and evaluation.hand.bonus == ()
    assert evaluation.result is not None and evaluation.result.ruleset == "nts"


def test_a_loser_is_scored_with_loser_rules() -> None:
    evaluation = evaluate(editor_of("555m 999s 12m 3456s 7p", seat_wind="S"), role="loser")
    assert evaluation.result is not None
    assert evaluation.result.role == "loser" and evaluation.result.total == 4 + 8


def test_typed_open_sets_score_a_split_the_scorer_did_not_propose() -> None:
    editor = editor_of("111222333m 456p 77z 1y", seat_wind="E", winning_tile="7z")
    proposed = evaluate(editor)
    assert [s.kind for s in proposed.sets].count("pung") == 3  # the best split when all is concealed
    editor.typed_open = "123m 123m 123m"
    typed = evaluate(editor)
    assert melds_of(typed) == [{"tiles": "123m", "open": True}] * 3
    assert typed.result is not None and [s.kind for s in typed.result.sets].count("chow") == 4
    assert [s.tiles for s in typed.sets] == [("4p", "5p", "6p")]  # only the concealed chow is left to switch
    editor.typed_open = "12m"
    problem = evaluate(editor).problem
    assert isinstance(problem, HandProblem) and problem.key == "open_set_size"


def test_the_set_a_discard_completed_is_not_offered_as_declared_open() -> None:
    editor = editor_of("11z 123p 444p 777z 444z", seat_wind="N", winning_tile="7z")
    offered = {"".join(s.tiles) for s in evaluate(editor).sets}
    assert "7z7z7z" not in offered and "4z4z4z" in offered
    editor.self_drawn = True
    assert "7z7z7z" in {"".join(s.tiles) for s in evaluate(editor).sets}


def test_swaps_that_complete_the_hand_come_from_the_alternatives_least_certain_first() -> None:
    codes = parse_tiles("11z 123p 444p 77z 6z 444z")
    tiles = [TileRead(c, 0.95, None, (c, "9p"), read_as=c) for c in codes]
    tiles[10] = TileRead("6z", 0.41, None, ("6z", "5z", "7z"), read_as="6z")  # the third red dragon, misread
    tiles[3] = TileRead(
        "2p", 0.55, None, ("2p", "7z"), read_as="2p"
    )  # less sure, but 7z there completes nothing
    editor = HandEditor(tiles=tiles, winning_tile="1z")
    assert evaluate(editor).result.reason_code == "no_winning_shape"  # type: ignore[union-attr]
    swaps = completing_swaps(editor)
    assert [(s.index, s.read, s.to) for s in swaps] == [(10, "6z", "7z")]
    set_tile(editor, 10, "7z")
    assert evaluate(editor).result.valid  # type: ignore[union-attr]
    assert completing_swaps(editor) == []  # nothing to suggest once the hand counts


def test_no_swaps_for_corrected_tiles_tiles_typed_in_or_a_loser() -> None:
    codes = parse_tiles("11z 123p 444p 77z 6z 444z")
    read = [TileRead(c, 0.41, None, ("6z", "7z"), read_as=c) for c in codes]
    editor = HandEditor(
        tiles=[*read[:10], TileRead("6z", 0.41, None, ("6z", "7z"), read_as="5z"), *read[11:]]
    )
    editor.winning_tile = "1z"
    assert completing_swaps(editor) == []  # the player changed that tile from 5z to 6z: left alone
    typed = editor_of("11z 123p 444p 77z 6z 444z", winning_tile="1z")
    assert completing_swaps(typed) == []  # no recognizer readings, nothing to offer
    editor.tiles = [
        *editor.tiles[:10],
        TileRead("6z", 0.41, None, ("6z", "7z"), read_as="6z"),
        *editor.tiles[11:],
    ]
    assert [s.to for s in completing_swaps(editor)] == ["7z"]
    assert completing_swaps(editor, role="loser") == []
