"""One table of photo readings and the hands they propose, asserted through the reading package, the app
(Streamlit AppTest), batch and `recognize --hand`: the same photo gives the same hand everywhere."""

from __future__ import annotations

import io
import json
import random
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from PIL import Image
from streamlit.testing.v1 import AppTest

from mahjong_nts.app.deps import AppDeps
from mahjong_nts.app.photo import PhotoReader, PhotoReading, photo_key, picture_only
from mahjong_nts.app.scoreboard import ScoreboardStore
from mahjong_nts.batch.photo import PhotoJob, PhotoRead, process_photo
from mahjong_nts.batch.sidecar import PhotoContext
from mahjong_nts.cli.main import main
from mahjong_nts.reading.hand import propose_hand
from mahjong_nts.reading.tiles import BACK, TileRead
from scoring import format_tiles, hand_from_dict, hand_to_dict, parse_tiles

ROOT = Path(__file__).resolve().parent.parent


@dataclass(frozen=True)
class Case:
    """Rows of a photo (tiles, tile height in pixels; "B" a face-down tile, "|" a gap of a tile) and the
    hand they propose: declared melds, concealed tiles, bonus tiles, winning tile."""

    name: str
    rows: tuple[tuple[str, float], ...]
    melds: tuple[tuple[str, bool], ...]
    concealed: str
    winning_tile: str
    bonus: str = ""

    def tiles(self) -> tuple[TileRead, ...]:
        tiles = []
        for row, (text, size) in enumerate(self.rows):
            width, x = 0.75 * size, 10.0
            for token in text.split():
                if token == "|":
                    x += width
                    continue
                for code in [BACK] if token == "B" else parse_tiles(token):
                    box = (x, 20.0 + 100 * row, x + width, 20.0 + 100 * row + size)
                    tiles.append(TileRead(code, 0.95, box, (), row, read_as=code))
                    x += width * 1.05
        return tuple(tiles)

    def hand(self) -> dict[str, Any]:
        """The expected hand as `score` reads it back (the defaults: winner, seat and wind E, app)."""
        obj = {
            "seat_wind": "E",
            "prevailing_wind": "E",
            "concealed": self.concealed,
            "melds": [{"tiles": tiles, "open": is_open} for tiles, is_open in self.melds],
            "bonus": self.bonus,
            "winning_tile": self.winning_tile,
        }
        return hand_to_dict(hand_from_dict(obj))


HAND = "123m 456p 789s 11z 555z"
TABLE = [
    Case(
        "kong, middle two face down",
        (("789p 567p 333p 22p 4p B B 4p", 60),),
        (("4444p", False),),
        "22333567789p",
        "2p",
    ),
    Case(
        "kong, outer two face down",
        (("789p 567p 333p 22p B 4p 4p B", 60),),
        (("4444p", False),),
        "22333567789p",
        "2p",
    ),
    Case(
        "open set laid apart",
        (("123m 456p 789s 11z | 555z", 60),),
        (("555z", True),),
        "123m456p789s11z",
        "1z",
    ),
    Case("bonus tiles in a row", (("1f 2y", 50), (HAND, 60)), (), HAND, "5z", bonus="1f2y"),
    Case(
        "several rows: a set in front",
        (("123m 456p 789s 11z", 60), ("555z", 62)),
        (("555z", True),),
        "123m456p789s11z",
        "1z",
    ),
    Case("the wall behind the hand", (("B " * 18, 30), (HAND, 60)), (), HAND, "5z"),
    Case("winning tile set apart", (("4p | 123m 56p 789s 11z 555z", 60),), (), "123m456p789s11555z", "4p"),
    Case(
        "two four-of-a-kinds",
        (("5555m 6666m 234p 99s 7z 7z", 60),),
        (("5555m", True),),
        "6666m234p99s77z",
        "7z",
    ),
]
IDS = [case.name for case in TABLE]


@pytest.mark.parametrize("case", TABLE, ids=IDS)
def test_the_reading_proposes_the_hand(case: Case) -> None:
    proposed = propose_hand(case.tiles(), {})
    assert hand_to_dict(hand_from_dict(proposed.hand)) == case.hand()
    assert all(0 < a.sure <= 1 for a in proposed.assumed)


def test_the_table_says_how_sure_it_is() -> None:
    def sure(case: Case, start: str) -> float:
        return next(a.sure for a in propose_hand(case.tiles(), {}).assumed if a.what.startswith(start))

    by_name = {case.name: case for case in TABLE}
    assert sure(by_name["kong, middle two face down"], "concealed kong") > 0.8
    assert sure(by_name["two four-of-a-kinds"], "open kong") < sure(
        by_name["open set laid apart"], "open set"
    )
    assert sure(by_name["winning tile set apart"], "winning_tile") > sure(
        by_name["bonus tiles in a row"], "winning_tile"
    )


# --- batch ---------------------------------------------------------------------------------------------


class TableReader:
    """A batch reader that reads one case's tiles (as the recognizer's CONTRACT tile objects)."""

    def __init__(self, case: Case) -> None:
        self.case = case

    def read(self, path: Path) -> PhotoRead:
        records = [
            {
                "code": t.code,
                "confidence": t.confidence,
                "box": list(t.box or ()),
                "alternatives": [],
                "row": t.row,
            }
            for t in self.case.tiles()
        ]
        return PhotoRead(640, 480, records, np.zeros((48, 64, 3), np.uint8))


@pytest.mark.parametrize("case", TABLE, ids=IDS)
def test_batch_scores_the_same_hand_as_score_does(
    case: Case, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    job = PhotoJob("photo.jpg", str(tmp_path / "photo.jpg"), "f", PhotoContext())
    record = process_photo(job, TableReader(case), tmp_path)
    assert record["error"] is None
    assert record["hand"] == case.hand()
    hand_file = tmp_path / "hand.json"
    hand_file.write_text(json.dumps(record["hand"]))
    assert main(["score", "--json", str(hand_file), "--compact"]) == 0
    assert record["result"] == json.loads(capsys.readouterr().out)


# --- the app -------------------------------------------------------------------------------------------


def photo_bytes(n: int) -> bytes:
    """A small JPEG of its own per case (the app keys its editor by the photo's bytes)."""
    buffer = io.BytesIO()
    Image.new("RGB", (64 + n, 48), (30 * n % 255, 90, 120)).save(buffer, format="JPEG")
    return buffer.getvalue()


class TableRecognizer:
    """The app's photo reader for the table: each case's photo gives that case's tiles."""

    def __init__(self) -> None:
        self.known = {photo_key(photo_bytes(n)): case.tiles() for n, case in enumerate(TABLE)}

    def __call__(self, data: bytes, key: str) -> PhotoReading:
        shown = picture_only(data, key, warning="")
        return PhotoReading(key, self.known[key], shown.image, shown.scale)


def run_app(deps) -> None:  # type: ignore[no-untyped-def]  # runs as a script
    from mahjong_nts.app.page import main

    main(deps)


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory) -> AppTest:
    deps = AppDeps(
        read_photo=PhotoReader(TableRecognizer()),
        store=ScoreboardStore(tmp_path_factory.mktemp("app") / "evening.sqlite"),
        samples=(),
        rng=random.Random(1),
    )
    at = AppTest.from_function(run_app, args=(deps,), default_timeout=60)
    at.run()
    at.toggle(key="use_camera").set_value(True).run()
    return at


@pytest.mark.parametrize("n", range(len(TABLE)), ids=IDS)
def test_the_app_scores_the_same_hand(app: AppTest, n: int) -> None:
    app.camera_input(key="photo_camera-0").set_value((f"{n}.jpg", photo_bytes(n), "image/jpeg")).run()
    assert not app.exception
    shown = [json.loads(element.value) for element in app.json]
    assert len(shown) == 1, [e.value for e in app.json]
    assert hand_to_dict(hand_from_dict(shown[0])) == TABLE[n].hand()


# --- recognize --hand ----------------------------------------------------------------------------------


class TableDetections:
    """Just enough of a recognizer `Detections` for one case."""

    def __init__(self, case: Case) -> None:
        from recognizer.detections import Detections
        from recognizer.labels import LABELS

        tiles = case.tiles()
        n = len(tiles)
        self.detections = Detections(
            xyxy=np.array([t.box for t in tiles], np.float32).reshape(n, 4),
            confidence=np.full(n, 0.95, np.float32),
            class_id=np.array([LABELS.index(t.code) for t in tiles], np.int64),
            alt_class_id=np.full((n, 3), -1, np.int64),
            alt_confidence=np.zeros((n, 3), np.float32),
            row=np.array([t.row for t in tiles], np.int64),
        )

    def recognize(self, image: object) -> Any:
        return self.detections


@pytest.mark.parametrize("case", [TABLE[1], TABLE[6]], ids=[IDS[1], IDS[6]])
def test_recognize_hand_gives_the_same_hand(
    case: Case, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import mahjong_nts.cli.recognize as command

    monkeypatch.setattr(command, "get_recognizer", lambda: TableDetections(case))
    assert main(["recognize", str(ROOT / "samples" / "hand1.jpg"), "--hand"]) == 0
    line = json.loads(capsys.readouterr().out)
    assert line["hand"] == case.hand() and line["reason"] is None
    assert [t["code"] for t in line["tiles"]] == [t.code for t in case.tiles()]
    assert {"what", "sure"} == set(line["assumed"][0])


def test_recognize_hand_without_a_hand_says_why(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import mahjong_nts.cli.recognize as command

    stray = Case("stray backs", (("789p 567p 333p 22p B 4p B", 60),), (), "", "")
    monkeypatch.setattr(command, "get_recognizer", lambda: TableDetections(stray))
    assert main(["recognize", str(ROOT / "samples" / "hand1.jpg"), "--hand"]) == 0
    line = json.loads(capsys.readouterr().out)
    assert line["hand"] is None
    assert line["reason"] == "2 face-down tile(s) are not part of a concealed kong"
    assert format_tiles(t["code"] for t in line["tiles"] if t["code"] != BACK) == "223334567789p"
