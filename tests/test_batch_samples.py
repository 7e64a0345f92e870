"""`batch` with the shipped ONNX models on the real sample photos (skipped while models/ has none).

Bad files, the sidecar-given hand and hand6 (no hand) do not depend on the models; the five hand photos
must be read exactly as their ground truth (the shipped models do) and score without error.
"""

from __future__ import annotations

import json
import shutil
from collections import Counter
from pathlib import Path

import pytest
from test_batch import SAMPLES, parse_report, read_csv, read_jsonl, run_batch_cli

from mahjong_nts.reading.hand import STATED_DEFAULTS
from scoring import hand_from_dict, parse_tiles, score_hand

recognizer_models = pytest.importorskip("recognizer.models")
try:
    recognizer_models.load_model_files()
except Exception as problem:  # ModelError: no trained models yet
    pytest.skip(f"no shipped models: {problem}", allow_module_level=True)

# samples/README.md: the hands in the photos (hand6 is 36 tiles in rows, not a hand)
TRUTH = {
    "hand1.jpg": "11z123p444p777z444z4f",
    "hand2.jpg": "123m678m678m555m55z2f",
    "hand3.jpg": "123s345s789s789s44s2y",
    "hand4.jpg": "678s666s55s777z222z2y",
    "hand5.jpg": "789p456p333p444p22p",
}
HAND2_SIDECAR = {
    "concealed": "123m678m678m555m55z",
    "bonus": "2f",
    "winning_tile": "5z",
    "seat_wind": "S",
    "self_drawn": True,
}


@pytest.mark.slow
def test_sample_photos_with_real_models(tmp_path: Path, capsys) -> None:
    folder = tmp_path / "photos"
    folder.mkdir()
    for n in range(1, 7):
        shutil.copy(SAMPLES / f"hand{n}.jpg", folder)
    (folder / "hand2.json").write_text(json.dumps(HAND2_SIDECAR))
    (folder / "defaults.json").write_text('{"prevailing_wind": "S"}')
    real_jpeg = (SAMPLES / "hand4.jpg").read_bytes()
    (folder / "corrupt.jpg").write_bytes(real_jpeg[: len(real_jpeg) // 3])
    (folder / "notes.jpg").write_text("Tafel 3: Oost wint met een pung groene draken.\n")
    (folder / "empty.jpg").write_bytes(b"")
    out = tmp_path / "out"

    assert run_batch_cli([str(folder), "--out", str(out), "-q", "--workers", "2"], reader=None) == 1

    summary = json.loads(capsys.readouterr().out)
    rows = {row["file"]: row for row in read_csv(out / "results.csv")}
    records = {record["file"]: record for record in read_jsonl(out / "results.jsonl")}
    names = ["corrupt.jpg", "empty.jpg", *(f"hand{n}.jpg" for n in range(1, 7)), "notes.jpg"]
    assert list(rows) == names and list(records) == names and summary["photos"] == len(names)
    for name in ("corrupt.jpg", "notes.jpg", "empty.jpg"):
        assert rows[name]["error"].startswith("unreadable image: "), rows[name]
    assert rows["hand6.jpg"]["error"].startswith("hand: ")  # 36 tiles are no hand

    expected = hand_from_dict({**STATED_DEFAULTS, **HAND2_SIDECAR, "prevailing_wind": "S"})
    assert records["hand2.jpg"]["error"] is None
    assert records["hand2.jpg"]["result"] == score_hand(expected).to_dict()

    for name, truth in TRUTH.items():
        record = records[name]
        assert record["tiles"], f"{name}: no tiles read"
        assert not (record["error"] or "").startswith(("unreadable", "recognizer failed", "scoring failed"))
        read = Counter(tile["code"] for tile in record["tiles"])
        assert not Counter(parse_tiles(truth)) - read, f"{name}: the shipped models missed or misread tiles"
        assert record["error"] is None, f"{name} read correctly but: {record['error']}"
        hand = record["hand"]  # the hand proposed from the rack: discards around it left out
        melds = [tile for meld in hand["melds"] for tile in parse_tiles(meld["tiles"])]
        held = parse_tiles(hand["concealed"]) + melds + parse_tiles(hand["bonus"])
        assert sorted(held) == sorted(parse_tiles(truth)), name
        assert record["hand"]["prevailing_wind"] == "S"

    report = parse_report(out / "report.html")
    readable = {name for name in names if name not in ("corrupt.jpg", "notes.jpg", "empty.jpg")}
    assert {records[name]["annotated"] for name in readable} == set(report.images)
    assert all((out / src).is_file() for src in report.images)
