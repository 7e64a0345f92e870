"""The Hand tab at the table (issue 15, the hand side), driven with AppTest: no stale score after a bad
notation, open sets on their own, Dutch messages, the score in view, tiles tapped as pictures, waits, and
the small things (Pong, no formula for an invalid hand, sorted winning tiles, "geen steen", the count left,
no typed codes painted onto a photo)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from streamlit.testing.v1 import AppTest
from test_app_flow import HAND1, HAND2, MISREAD_INDEX, fake_deps, start, texts, widget

from mahjong_nts.app.deps import AppDeps
from mahjong_nts.app.photo import photo_key, photo_message, typed_over_photo
from mahjong_nts.app.tiles_view import meld_of
from mahjong_nts.app.widgets import streamlit_words_css
from mahjong_nts.cli.waits import waits_object
from mahjong_nts.reading.tiles import TileRead
from mahjong_nts.reading.wording import assumption_text
from recognizer.imageio import NO_HEIF_READER
from scoring import TILE_CODES, hand_from_dict, parse_tiles, score_hand

PREFIX = f"hand-{photo_key(HAND1.read_bytes())}"
HAND = "11z 123p 444p 777z 444z 4f"  # hand1.jpg as it lies, valid


@pytest.fixture
def at(tmp_path: Path) -> AppTest:
    return start(fake_deps(tmp_path / "evening.sqlite"))


@pytest.fixture
def deps(tmp_path: Path) -> AppDeps:
    return fake_deps(tmp_path / "evening.sqlite")


def notation(at: AppTest, text: str) -> None:
    widget(at.text_input, f"{PREFIX}-notation").set_value(text).run()
    assert not at.exception, at.exception


def summary(at: AppTest) -> Any:
    """The compact result block at the top of the Hand tab."""
    found = [node for node in at._tree if getattr(node, "key", None) == "hand-summary"]
    assert len(found) == 1, "no compact result block"
    return found[0]


def summary_texts(at: AppTest) -> list[str]:
    """The texts of the compact result: its messages, total and markdown (waits)."""
    shown = []
    for node in summary(at):
        kind = type(node).__name__
        if kind in ("Error", "Success", "Info", "Warning", "Metric", "Markdown"):
            shown.append(str(node.value))
    return shown


def summary_total(at: AppTest) -> int | None:
    metrics = [node for node in summary(at) if getattr(node, "type", "") == "metric"]
    return int(metrics[0].value) if metrics else None


def keyed(items: Any, part: str) -> list[Any]:
    return [w for w in items if w.key and part in w.key]


# --- item 3: a bad notation clears the score -------------------------------------------------------


def test_a_bad_notation_clears_the_score_and_what_afrekenen_offers(at: AppTest) -> None:
    notation(at, HAND)
    valid_total = summary_total(at)
    assert valid_total and any("Geldige mahjong" in s for s in texts(at, "success"))
    assert widget(at.radio, "-source-").options[0] == f"Uit de hand-tab ({valid_total})"
    notation(at, "11z 123p 8z")
    assert widget(at.text_input, f"{PREFIX}-notation").value == "11z 123p 8z"  # the text is kept
    assert not any("Geldige mahjong" in s for s in texts(at, "success")), texts(at, "success")
    assert all(int(m.value) != valid_total for m in at.metric)
    assert widget(at.radio, "-source-").options[0] == "Uit de hand-tab (0)"
    assert any("8z" in s and "bestaat niet" in s for s in texts(at, "error")), texts(at, "error")
    notation(at, HAND)  # a good notation again scores again
    assert summary_total(at) == valid_total


# --- item 6: other open sets ------------------------------------------------------------------------


def test_other_open_sets_have_a_label_and_help_and_count_on_their_own(at: AppTest) -> None:
    notation(at, "11z 444p 777z 444z 4f")  # the chow 123p lay open and is not in the notation
    box = widget(at.text_input, f"{PREFIX}-typedopen")
    assert box.label == "Andere open sets (notatie)"
    assert box.proto.label_visibility.value == box.proto.label_visibility.VISIBLE
    assert "los" in box.help and "123m" in box.help
    box.set_value("123p").run()
    assert not at.exception
    scored = [j for j in at.json if '"melds"' in j.value]
    assert scored and '"123p"' in scored[0].value
    assert summary_total(at) and any("Geldige mahjong" in s for s in texts(at, "success")), texts(at, "error")
    # a set that does lie among the tiles typed is taken from them, as before
    notation(at, HAND)
    widget(at.text_input, f"{PREFIX}-typedopen").set_value("123p").run()
    assert any("Geldige mahjong" in s for s in texts(at, "success")), texts(at, "error")


# --- item 7: Dutch messages -------------------------------------------------------------------------


def test_engine_errors_are_worded_in_dutch(at: AppTest) -> None:
    notation(at, "11111z 123p 444p 777z")
    errors = " ".join(texts(at, "error"))
    assert "er zijn maar 4 van elke steen" in errors and "only 4" not in errors, errors
    notation(at, "11z 123p 444p 777z")  # 11 tiles
    errors = " ".join(texts(at, "error") + texts(at, "info"))
    assert "wrong tile count" not in errors and "stenen" in errors, errors
    notation(at, HAND)
    widget(at.radio, f"{PREFIX}-how").set_value("self_drawn").run()
    widget(at.multiselect, f"{PREFIX}-flags").set_value(["robbing_kong"]).run()
    errors = " ".join(texts(at, "error"))
    assert "strijdig: 'kongroof' bij zelf gepakt" in errors and "contradicts" not in errors, errors


def test_photo_messages_are_dutch() -> None:
    assert photo_message("<bytes>: not an image (looks like a text file)", "nl") == (
        "geen afbeelding (het lijkt een tekstbestand)"
    )
    assert photo_message("<bytes>: not an image (looks like a text file)", "en") == (
        "not an image (looks like a text file)"
    )
    no_reader = f"<bytes>: {NO_HEIF_READER}"
    assert photo_message(no_reader, "nl") == (
        "voor HEIC/HEIF-foto's is het pakket pi-heif nodig (pip install pi-heif); of bewaar de foto als JPEG"
    )
    assert photo_message("<bytes>: corrupt HEIC/HEIF photo (no picture found in it)", "nl") == (
        "beschadigde HEIC/HEIF-foto (er staat geen beeld in)"
    )
    assert photo_message("<bytes>: empty file (0 bytes)", "nl") == "leeg bestand (0 bytes)"
    assert photo_message("recognition failed: boom", "nl") == "herkennen mislukt: boom"


def test_a_text_file_upload_is_refused_in_dutch(at: AppTest) -> None:
    at.file_uploader(key="photo_upload-0").set_value(("notes.txt", b"not a photo", "text/plain")).run()
    errors = " ".join(texts(at, "error"))
    assert "kan niet gelezen worden" in errors and "not a" not in errors, errors


def test_streamlit_strings_and_tile_names(at: AppTest) -> None:
    for multiselect in at.multiselect:  # no English "Select all" in the choice lists
        assert multiselect.proto.select_all == 0, multiselect.key
    at.radio(key="lang").set_value("en").run()
    labels = " ".join(str(o) for s in at.selectbox for o in s.options)
    assert "1 circle" in labels and "1 circles" not in labels


def test_a_face_down_alternative_reads_omgekeerde_steen(tmp_path: Path) -> None:
    deps = fake_deps(tmp_path / "evening.sqlite")
    reading = deps.read_photo(HAND1.read_bytes())
    tiles = list(reading.tiles)
    misread = tiles[MISREAD_INDEX]
    tiles[MISREAD_INDEX] = replace(misread, alternatives=("7z", "back"))
    deps.read_photo._cache[(reading.key, None)] = replace(reading, tiles=tuple(tiles))  # type: ignore[attr-defined]
    at = start(deps)
    options = widget(at.button_group, f"{PREFIX}-alt-").options
    face_down = [o for o in options if o.endswith(" omgekeerde steen")]
    assert len(face_down) == 1 and "data:image/png;base64," in face_down[0], options
    assert not any(o.endswith("back") for o in options), options


# --- item 8: the score in view ----------------------------------------------------------------------


def test_the_compact_result_comes_first_and_follows_every_change(at: AppTest) -> None:
    nodes = list(at._tree)
    first_upload = next(i for i, n in enumerate(nodes) if getattr(n, "key", None) == "photo_upload-0")
    block = next(i for i, n in enumerate(nodes) if getattr(n, "key", None) == "hand-summary")
    assert block < first_upload
    assert any("geen mahjong-vorm" in s for s in summary_texts(at)), summary_texts(at)
    notation(at, HAND)
    first = summary_total(at)
    assert first and any("Geldige mahjong" in s for s in summary_texts(at))
    widget(at.radio, f"{PREFIX}-seat").set_value("N").run()
    assert summary_total(at) != first  # the own wind changed the score, the summary with it


def test_a_typed_hand_is_scored_in_six_taps_or_fewer(at: AppTest) -> None:
    taps = 0
    notation(at, "234m 567p 777z 88s 111z")  # tap the box, type, Enter
    taps += 2
    widget(at.radio, f"{PREFIX}-seat").set_value("E").run()
    taps += 1
    widget(at.selectbox, f"{PREFIX}-win-").set_value("4m").run()  # open the list, pick
    taps += 2
    assert taps <= 6
    hand = {
        "seat_wind": "E",
        "prevailing_wind": "E",
        "concealed": "234m567p777z88s111z",
        "winning_tile": "4m",
    }
    assert summary_total(at) == score_hand(hand_from_dict(hand)).total


# --- item 9: tiles as pictures ----------------------------------------------------------------------


def hand_tiles(at: AppTest) -> list[Any]:
    return keyed(at.button, f"{PREFIX}-tile-")


def test_the_hand_shows_as_tile_pictures_tapped_to_change_or_remove(at: AppTest) -> None:
    tiles = hand_tiles(at)
    assert len(tiles) == 14 and all("data:image/png;base64," in b.label for b in tiles)
    # tap the misread tile: nothing changes yet, the palette now replaces it
    tiles[MISREAD_INDEX].click().run()
    assert len(hand_tiles(at)) == 14
    widget(at.button, f"{PREFIX}-palette-7z").click().run()
    assert not at.exception
    codes = parse_tiles(widget(at.text_input, f"{PREFIX}-notation").value)
    assert sorted(codes) == sorted(parse_tiles(HAND))
    assert any("Geldige mahjong" in s for s in summary_texts(at))
    # remove takes a tap on the tile and one on "Weg": no instant delete
    hand_tiles(at)[0].click().run()
    assert len(hand_tiles(at)) == 14
    widget(at.button, f"{PREFIX}-remove").click().run()
    assert len(hand_tiles(at)) == 13
    # with nothing chosen a palette tile is added
    widget(at.button, f"{PREFIX}-palette-1z").click().run()
    assert len(hand_tiles(at)) == 14
    assert sorted(parse_tiles(widget(at.text_input, f"{PREFIX}-notation").value)) == sorted(parse_tiles(HAND))


def test_palette_has_every_tile_as_a_picture(at: AppTest) -> None:
    palette = keyed(at.button, f"{PREFIX}-palette-")
    assert sorted(b.key.rsplit("-", 1)[1] for b in palette) == sorted([*TILE_CODES, "back"])
    assert all("data:image/png;base64," in b.label for b in palette)


def test_declared_melds_are_tapped_not_typed(at: AppTest) -> None:
    notation(at, "11z 444p 444z 4f")  # the open chow 123p and the open red dragons still to declare
    widget(at.button_group, f"{PREFIX}-meldkind").set_value("chow").run()
    widget(at.button, f"{PREFIX}-palette-1p").click().run()
    widget(at.button_group, f"{PREFIX}-meldkind").set_value("pung").run()
    widget(at.button, f"{PREFIX}-palette-7z").click().run()
    assert not at.exception
    scored = [j.value for j in at.json if '"melds"' in j.value]
    assert '"123p"' in scored[0] and '"777z"' in scored[0]
    assert any("Geldige mahjong" in s for s in summary_texts(at)), summary_texts(at) + texts(at, "error")
    melds = keyed(at.button, f"{PREFIX}-meldremove-")
    assert len(melds) == 2
    melds[0].click().run()
    assert len(keyed(at.button, f"{PREFIX}-meldremove-")) == 1
    widget(at.button_group, f"{PREFIX}-meldkind").set_value("concealed_kong").run()
    widget(at.button, f"{PREFIX}-palette-9s").click().run()
    assert '"9999s"' in next(j.value for j in at.json if '"melds"' in j.value)


def test_proposed_sets_show_their_tiles_as_pictures(at: AppTest) -> None:
    notation(at, HAND)
    pictures = [m.body for m in at.markdown if 'data-code="7z"' in m.body]
    assert pictures


# --- waits --------------------------------------------------------------------------------------


def test_a_hand_one_tile_short_lists_what_it_waits_on_with_scores(at: AppTest) -> None:
    notation(at, "234m 567p 777z 88s 11z")
    expected = waits_object(
        {"seat_wind": "E", "prevailing_wind": "E", "concealed": "234m567p777z88s11z", "bonus": ""}
    )["waits"]
    assert [w["tile"] for w in expected] == ["8s", "1z"]
    shown = " ".join(summary_texts(at)) + " ".join(m.body for m in at.markdown)
    assert "Wacht op" in shown
    assert expected[1]["valid"] and not expected[0]["valid"]
    for wait in expected:
        assert f'data-code="{wait["tile"]}"' in shown
    assert f"Oost: {expected[1]['total']} punten" in shown
    assert "8 bamboe: geen geldige mahjong (te weinig verdubbelingen)" in shown


# --- item 11 and 10 ---------------------------------------------------------------------------------


def test_small_things(at: AppTest) -> None:
    notation(at, HAND)
    widget(at.radio, f"{PREFIX}-seat").set_value("N").run()
    table = next(t.value for t in at.table if "Onderdeel" in t.value.columns)
    names = " ".join(table["Onderdeel"])
    assert "Pung" not in names and "Pong" in names, names
    options = widget(at.selectbox, f"{PREFIX}-win-").options
    order = {c: i for i, c in enumerate(TILE_CODES)}
    codes = [o.split(" ")[0] for o in options]
    assert codes == sorted(codes, key=order.__getitem__)
    notation(at, "1357m 2468p 13579s 1z")  # no winning shape: the reason, not "32 × 2⁰ = 0"
    assert not any("×" in c for c in texts(at, "caption")), texts(at, "caption")


def test_an_uncertain_tile_may_be_no_tile_at_all(at: AppTest) -> None:
    picker = widget(at.button_group, f"{PREFIX}-alt-")
    assert "geen steen (weglaten)" in picker.options
    picker.set_value("none").run()
    assert not at.exception
    codes = parse_tiles(widget(at.text_input, f"{PREFIX}-notation").value)
    assert len(codes) == 14 and "6z" not in codes


def test_the_count_says_what_is_left_after_rows_are_removed(at: AppTest) -> None:
    at.selectbox(key="sample_choice").set_value("hand2.jpg").run()
    prefix = f"hand-{photo_key(HAND2.read_bytes())}"
    assert any("19 stenen" in c for c in texts(at, "caption")), texts(at, "caption")
    widget(at.button, f"{prefix}-keeprow").click().run()
    assert any("15 stenen" in c for c in texts(at, "caption")), texts(at, "caption")
    assert not any("19 stenen" in c for c in texts(at, "caption"))


def test_a_typed_hand_is_not_painted_onto_the_photo(at: AppTest) -> None:
    notation(at, "123m 456m 789m 123s 55s")  # nothing like the sample photo
    assert any("hoort niet bij de foto" in c for c in texts(at, "caption")), texts(at, "caption")


def test_typed_over_photo_and_meld_of() -> None:
    read = [TileRead(c, 0.9, (0.0, 0.0, 1.0, 1.0), read_as=c) for c in ("1z", "1z", "2p", "3p")]
    assert not typed_over_photo(read)
    one_fixed = [replace(read[0], code="5z"), *read[1:]]
    assert not typed_over_photo(one_fixed)  # a correction of the photo: its boxes stay
    typed = [replace(tile, code="9s") for tile in read[:3]] + [read[3]]
    assert typed_over_photo(typed)
    assert not typed_over_photo([TileRead("1m"), TileRead("2m")])  # typed, no photo at all
    assert meld_of("chow", "7p") == ("789p", True) and meld_of("chow", "8p") is None
    assert meld_of("chow", "5z") is None and meld_of("pung", "back") is None and meld_of("kong", "1f") is None
    assert meld_of("pung", "5z") == ("555z", True) and meld_of("concealed_kong", "9s") == ("9999s", False)


def test_what_the_reading_assumed_is_said_in_dutch(at: AppTest) -> None:
    notation(at, HAND)
    notes = " ".join(c for c in texts(at, "caption") if "Zo gelezen" in c)
    assert "alle 14 stenen gesloten (geen sets gemeld)" in notes, notes
    assert "tiles" not in notes and "winning_tile" not in notes, notes


def test_assumption_wording() -> None:
    assert (
        assumption_text("winning_tile 4z (last tile read)", "nl") == "winnende steen Noord (laatst gelezen)"
    )
    assert assumption_text("winning_tile 7z (set apart)", "nl") == "winnende steen Rode draak (apart gelegd)"
    assert (
        assumption_text("open set 123p (laid apart from the rack)", "nl")
        == "open set 123p (apart van het rek)"
    )
    assert assumption_text("hand in row 1 of 3 (largest tiles); left out: 9s 3m", "nl") == (
        "hand in rij 1 van 3 (grootste stenen); weggelaten: 9s 3m"
    )
    assert assumption_text("all 14 tiles concealed (no melds declared)", "en") == (
        "all 14 tiles concealed (no melds declared)"
    )
    assert assumption_text("something new", "nl") == "something new"


def test_a_bonus_tile_is_tapped_away_and_a_chow_that_cannot_be_is_refused(at: AppTest) -> None:
    widget(at.button, f"{PREFIX}-bonustile-4f").click().run()
    assert any("Bloem 4" in i and "gekozen" in i for i in texts(at, "info")), texts(at, "info")
    widget(at.button, f"{PREFIX}-remove").click().run()
    assert not keyed(at.button, f"{PREFIX}-bonustile-")
    assert "f" not in widget(at.text_input, f"{PREFIX}-notation").value
    widget(at.button_group, f"{PREFIX}-meldkind").set_value("chow").run()
    widget(at.button, f"{PREFIX}-palette-8p").click().run()
    assert any("Een chow begint bij 1 t/m 7" in w for w in texts(at, "warning")), texts(at, "warning")
    assert not keyed(at.button, f"{PREFIX}-meldremove-")


def test_waits_count_a_tapped_set(at: AppTest) -> None:
    notation(at, "234m 567p 88s 11z")  # 10 tiles and the open red dragons still to tap in: one tile short
    widget(at.button_group, f"{PREFIX}-meldkind").set_value("pung").run()
    widget(at.button, f"{PREFIX}-palette-7z").click().run()
    assert any("Wacht op" in s for s in summary_texts(at)), summary_texts(at)
    bodies = " ".join(m.value for m in at.markdown)
    assert 'data-code="8s"' in bodies and 'data-code="1z"' in bodies


def test_a_hand_of_sets_only_says_what_is_missing_in_dutch(at: AppTest) -> None:
    notation(at, "")  # no tiles, then a concealed kong tapped in and nothing else
    widget(at.button_group, f"{PREFIX}-meldkind").set_value("concealed_kong").run()
    widget(at.button, f"{PREFIX}-palette-9s").click().run()
    assert not at.exception
    shown = " ".join(texts(at, "info") + texts(at, "error"))
    assert "buiten de sets" in shown and "missing key" not in shown, shown


def test_a_face_down_layout_is_said_in_dutch() -> None:
    assert assumption_text("concealed kong 1111m (1m back back 1m)", "nl") == (
        "gesloten kong 1111m (1m omgekeerd omgekeerd 1m)"
    )


def test_streamlit_words_the_api_cannot_set_are_relabelled_in_dutch(at: AppTest) -> None:
    def styles() -> str:
        return " ".join(str(getattr(node, "proto", "")) for node in at.get("html"))

    assert 'content: \\"Foto maken\\"' in styles() or 'content: "Foto maken"' in styles(), styles()[:500]
    assert "stFileUploaderDropzone" in styles()
    at.radio(key="lang").set_value("en").run()
    assert "Foto maken" not in styles()
    assert streamlit_words_css("en") == "" and "Foto wissen" in streamlit_words_css("nl")


def test_a_bad_notation_in_a_losers_box_is_said_once(at: AppTest) -> None:
    """Afrekenen: the message of a loser's notation that is no hand stands under the box, not again below."""
    widget(at.radio, "-mode-S").set_value("hand").run()
    widget(at.text_input, "-S-typed-notation").set_value("123m 8z").run()
    assert not at.exception
    said = [e for e in texts(at, "error") if "8z" in e]
    assert len(said) == 1, texts(at, "error")
