"""The vocabulary once: the winds, `back`, the uncertain threshold and the grouped-codes text each have one
definition that every layer uses (ARCHITECTURE "one name for one thing")."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import mahjong_nts.app.settle
import mahjong_nts.reading.tiles
import mahjong_nts.tile_art
import recognizer.labels
import scoring
import scoring.settlement
import scoring.tiles
from mahjong_nts.batch.outputs import reading_text

ANNOTATE = sys.modules["recognizer.annotate"]  # the package's `annotate` is the function
ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("mahjong_nts", "scoring", "recognizer")


def sources() -> dict[str, str]:
    return {
        path.relative_to(ROOT).as_posix(): path.read_text(encoding="utf-8")
        for package in PACKAGES
        for path in sorted((ROOT / package).rglob("*.py"))
    }


def defined_in(pattern: str) -> list[str]:
    return [name for name, text in sources().items() if re.search(pattern, text, re.MULTILINE)]


def test_the_four_winds_are_written_out_once() -> None:
    assert defined_in(r"""\(\s*["']E["'],\s*["']S["'],\s*["']W["'],\s*["']N["']\s*\)|["']ESWN["']""") == [
        "scoring/hand.py"
    ]
    assert scoring.WINDS == ("E", "S", "W", "N")
    assert not hasattr(scoring.settlement, "SEATS") and not hasattr(mahjong_nts.app.settle, "SEATS")


def test_back_is_one_name() -> None:
    assert mahjong_nts.tile_art.BACK is scoring.tiles.BACK
    assert mahjong_nts.reading.tiles.BACK is scoring.tiles.BACK
    assert recognizer.labels.BACK == scoring.tiles.BACK  # the classifier's label (recognizer/labels.py)
    owners = defined_in(r"""^BACK\s*=\s*["']back["']""")
    assert set(owners) <= {"scoring/tiles.py", "recognizer/labels.py"}
    assert defined_in(r"""[!=]=\s*["']back["']""") == []  # compared through BACK, never a second literal


def test_tile_art_stays_light() -> None:
    code = (
        "import sys, mahjong_nts.tile_art\n"
        "print(sorted({m.split('.')[0] for m in sys.modules} & {'recognizer', 'numpy', 'cv2'}))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT)
    assert out.stdout.strip() == "[]"


def test_the_uncertain_threshold_is_set_once() -> None:
    assert mahjong_nts.reading.tiles.UNCERTAIN_BELOW is ANNOTATE.UNCERTAIN_BELOW
    assert defined_in(r"^UNCERTAIN_BELOW\s*=") == ["recognizer/annotate.py"]
    assert defined_in(r"(default|low_confidence)\s*[:=][^\n]*\b0\.6\b") == []


def test_batch_groups_codes_as_the_reading_does() -> None:
    tiles = [{"code": c, "row": 0} for c in ("1z", "1z", "1p", "2p", "back", "3p")] + [
        {"code": "4f", "row": 1}
    ]
    assert reading_text(tiles) == "11z 12p back 3p / 4f"
    assert (
        mahjong_nts.reading.tiles.grouped_codes(["1z", "1z", "1p", "2p", "back", "3p"]) == "11z 12p back 3p"
    )
