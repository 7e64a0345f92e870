"""report.html in Dutch (the default) and English, with the tiles drawn as pictures (batch/report.py)."""

from __future__ import annotations

import base64
import io
import re
import shutil
from pathlib import Path
from typing import Any

import pytest
from PIL import Image
from test_batch import SAMPLES, StrictHTML, parse_report, run_batch_cli

from mahjong_nts.batch.report import interrupted_note, render_report, report_title
from scoring import hand_from_dict, parse_tiles, score_hand

# Seed 000 (SCORING section 11), as a batch record: 14 tiles read, the 4m read unsure (0.31, or 1m).
HAND: dict[str, Any] = {
    "ruleset": "app",
    "role": "winner",
    "seat_wind": "E",
    "prevailing_wind": "S",
    "concealed": "234m567p777z88s",
    "melds": [{"tiles": "111z", "open": True}],
    "bonus": "",
    "winning_tile": "4m",
    "self_drawn": True,
    "flags": [],
}
READ = ["1z", "1z", "1z", "2m", "3m", "4m", "5p", "6p", "7p", "7z", "7z", "7z", "8s", "8s"]


def record(**changes: Any) -> dict[str, Any]:
    tiles = [
        {"code": code, "confidence": 0.31 if i == 5 else 0.97, "row": 0,
         "alternatives": [{"code": code, "confidence": 0.31}, {"code": "1m", "confidence": 0.28}]}
        for i, code in enumerate(READ)
    ]  # fmt: skip
    return {
        "file": "tafel 3.jpg",
        "tiles": tiles,
        "hand": HAND,
        "result": score_hand(hand_from_dict(HAND)).to_dict(),
        "error": None,
        "assumed": [],
        "annotated": "annotated/tafel 3.jpg",
        "sidecar": None,
        "suggestion": None,
        **changes,
    }


def rendered(tmp_path: Path, records: list[dict[str, Any]], lang: str | None = None) -> tuple[str, str]:
    """The page (checked well-formed) and its visible text."""
    if lang is None:  # the default
        page = render_report(records, tmp_path, report_title("club"), 0.6)
    else:
        page = render_report(records, tmp_path, report_title("club", lang), 0.6, lang=lang)
    path = tmp_path / "report.html"
    path.write_text(page, encoding="utf-8")
    return page, " ".join(" ".join(parse_report(path).text).split())


def visible_text(page: str) -> str:
    """What a reader sees: the page's text without its style sheet."""
    parser = StrictHTML()
    parser.feed(re.sub(r"<style>.*?</style>", "", page, flags=re.DOTALL))
    return " ".join(" ".join(parser.text).split())


# English words that a Dutch handout must not show outside file names and tile codes ("Pung" is left to the
# ruleset's own Dutch item names)
ENGLISH = {
    "the",
    "tiles",
    "tile",
    "read",
    "used",
    "summary",
    "photo",
    "photos",
    "points",
    "doublings",
    "item",
    "result",
    "check",
    "these",
    "confidence",
    "lowest",
    "total",
    "concealed",
    "winner",
    "seat",
    "prevailing",
    "scored",
    "with",
    "error",
    "assumed",
    "sidecar",
    "how",
    "counted",
    "perhaps",
    "base",
    "true",
    "false",
    "context",
    "pair",
    "yes",
    "no",
    "none",
}


def test_the_handout_is_dutch_by_default(tmp_path: Path) -> None:
    page, text = rendered(tmp_path, [record()])
    assert '<html lang="nl">' in page
    headings = ("Mahjonghanden: club", "Overzicht", "Gelezen stenen", "Gebruikte stenen", "Spelsituatie",
                "Onderdeel", "Punten", "Verdubbelingen", "Zo is de hand geteld")  # fmt: skip
    for heading in headings:
        assert heading in text, heading
    assert "1 foto's: 1 geteld als mahjong, 0 gelezen maar geen geldige mahjong, 0 met een fout." in text
    assert "Laagste zekerheid" in text and "eigen wind Oost, heersende wind Zuid, rol winnaar" in text
    assert "winnende steen 4 karakters (4m), zelf gepakt ja, bijzonderheden geen" in text
    assert "Controleer deze stenen (lage zekerheid): steen 6 gelezen als 4m 4 karakters (0,31); " in text
    assert "of misschien 1m (0,28)" in text
    shown = visible_text(page).replace("tafel 3.jpg", "")
    words = set(re.findall(r"[a-z]+", re.sub(r'"[^"]*"', " ", shown).lower()))
    assert not words & ENGLISH, words & ENGLISH


def test_tiles_are_drawn_from_pictures_inlined_once(tmp_path: Path) -> None:
    page, _ = rendered(tmp_path, [record(), record(file="tafel 4.jpg")])
    symbols = re.findall(r'<symbol id="tile-([^"]+)"', page)
    assert sorted(symbols) == sorted(set(READ))  # each picture once, also for two photos
    used = re.findall(r'<use href="#tile-([^"]+)"', page)
    assert set(used) == set(symbols)
    section = page[page.index('id="photo-1"') : page.index('id="photo-2"')]
    read_part = section[section.index("Gelezen stenen") : section.index("Gebruikte stenen")]
    assert re.findall(r'<use href="#tile-([^"]+)"', read_part) == READ
    assert "<title>steen 6: 4 karakters (4m), zeker 31%</title>" in read_part
    first = re.search(r'<image href="data:image/png;base64,([^"]+)"', page)
    assert first is not None
    assert Image.open(io.BytesIO(base64.b64decode(first.group(1)))).size == (96, 128)
    assert re.findall(r"<img ", page) == ["<img ", "<img "]  # only the two annotated photos are <img>


def test_the_sets_counted_are_drawn_with_dutch_kinds(tmp_path: Path) -> None:
    page, text = rendered(tmp_path, [record()])
    counted = page[page.index("Zo is de hand geteld") :]
    assert "pong (open)" in text and "paar" in text and "chow (dicht)" in text
    sets = record()["result"]["sets"]
    assert counted.count("<use ") == sum(len(parse_tiles(found["tiles"])) for found in sets)


def test_an_invalid_hand_and_a_suggestion_in_dutch(tmp_path: Path) -> None:
    cheap = {
        **HAND,
        "concealed": "234m567p789s88s123p",
        "melds": [],
        "winning_tile": "4m",
        "self_drawn": False,
    }
    suggestion = {"tile": 6, "read": "4m", "as": "1m", "total": 64}
    _, text = rendered(
        tmp_path,
        [record(hand=cheap, result=score_hand(hand_from_dict(cheap)).to_dict(), suggestion=suggestion)],
    )
    assert "geen mahjong: te weinig verdubbelingen" in text
    assert "misschien verkeerd gelezen: steen 6 als 4m gelezen; als 1m: mahjong, 64" in text


def test_the_handout_in_english(tmp_path: Path) -> None:
    page, text = rendered(tmp_path, [record()], lang="en")
    assert '<html lang="en">' in page
    assert "Mahjong hands: club" in text and "Summary" in text and "Tiles read" in text
    assert (
        "Check these tiles (low confidence): tile 6 read as 4m 4 characters (0.31); or perhaps 1m (0.28)"
        in text
    )
    assert "pung (open)" in text
    assert (
        interrupted_note(3, 7, "en") == "Interrupted: 3 of 7 photos done. Run again with --resume to finish."
    )
    assert (
        interrupted_note(3, 7)
        == "Onderbroken: 3 van 7 foto's klaar. Start opnieuw met --resume om af te maken."
    )


def test_an_unknown_language_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="language"):
        render_report([record()], tmp_path, "x", 0.6, lang="fr")


def test_batch_lang_en_writes_the_english_handout(tmp_path: Path) -> None:
    folder = tmp_path / "photos"
    folder.mkdir()
    shutil.copy(SAMPLES / "hand1.jpg", folder)
    for lang, heading in (("nl", "Overzicht"), ("en", "Summary")):
        out = tmp_path / lang
        assert run_batch_cli([str(folder), "--out", str(out), "-q", "--lang", lang]) == 0
        page = (out / "report.html").read_text(encoding="utf-8")
        assert f'<html lang="{lang}">' in page and heading in visible_text(page)
        assert '<use href="#tile-' in page


def test_stated_defaults_among_the_assumptions_read_in_dutch(tmp_path: Path) -> None:
    assumed = ["seat_wind E", "self_drawn false", "flags []", "winning_tile 4m (last tile read)"]
    _, text = rendered(tmp_path, [record(assumed=assumed)])
    assert (
        "Aangenomen eigen wind Oost; zelf gepakt nee; bijzonderheden geen; winnende steen 4 karakters "
        "(laatst gelezen)" in text
    )
    _, text = rendered(tmp_path, [record(assumed=assumed)], lang="en")
    assert "Assumed seat E; self-drawn false; flags []; winning_tile 4m (last tile read)" in text


def test_how_the_table_was_read_is_dutch(tmp_path: Path) -> None:
    assumed = [
        "hand in row 2 of 3 (largest tiles); left out: 9p back / 2z",
        "all 14 tiles concealed (no melds declared)",
    ]
    page, text = rendered(tmp_path, [record(assumed=assumed)])
    assert "hand in rij 2 van 3 (grootste stenen); weggelaten: 9p omgekeerd / 2z" in text
    assert "alle 14 stenen gesloten (geen sets gemeld)" in text
    shown = visible_text(page).replace("tafel 3.jpg", "")
    words = set(re.findall(r"[a-z]+", re.sub(r'"[^"]*"', " ", shown).lower()))  # the hand as JSON in quotes
    assert not words & (ENGLISH | {"row", "largest", "left", "out", "melds", "declared"}), words


@pytest.mark.parametrize(
    ("error", "error_nl", "dutch"),
    [
        ("unreadable image: not an image (looks like a text file)", None,
         "onleesbare foto: geen afbeelding (het lijkt een tekstbestand)"),
        ("unreadable image: corrupt or truncated image (broken data stream)", None,
         "onleesbare foto: beschadigde of onvolledige foto (broken data stream)"),
        ("hand: 2 face-down tile(s) are not part of a concealed kong", None,
         "hand: 2 omgekeerde steen/stenen horen bij geen gesloten kong"),
        ("not a photo: a folder", None, "geen foto: een map"),
        ("hand: concealed: tile '8z' does not exist (z goes 1-7)",
         "hand: stenen in de hand: steen '8z' bestaat niet (z gaat van 1 tot 7)",
         "hand: stenen in de hand: steen '8z' bestaat niet (z gaat van 1 tot 7)"),
    ],
)  # fmt: skip
def test_a_photo_error_is_dutch_in_the_dutch_handout(
    tmp_path: Path, error: str, error_nl: str | None, dutch: str
) -> None:
    failed = record(error=error, error_nl=error_nl, tiles=[], hand=None, result=None, annotated=None)
    _, text = rendered(tmp_path, [failed])
    assert f"fout: {dutch}" in text and f"Fout: {dutch}" in text
    _, text = rendered(tmp_path, [failed], lang="en")
    assert f"error: {error}" in text


def test_photos_of_a_set_new_to_the_recognizer_point_to_learn_set(tmp_path: Path) -> None:
    unsure = record(file="vreemde set.jpg")
    unsure["tiles"] = [
        dict(tile, confidence=0.31 if i % 3 == 0 else 0.97) for i, tile in enumerate(unsure["tiles"])
    ]
    _, text = rendered(tmp_path, [record(), unsure, record(file="leeg.jpg", tiles=[])])
    assert "Op 1 van de 3 foto's was het programma van veel stenen onzeker" in text
    assert "mahjong-nts learn-set" in text and "--set-profile" in text
    _, english = rendered(tmp_path, [record(), unsure], lang="en")
    assert "On 1 of the 2 photos the program was unsure of many tiles" in english
    _, plain = rendered(tmp_path, [record()])  # one unsure tile of 14: nothing said
    assert "onzeker: het kent" not in plain
