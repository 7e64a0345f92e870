"""`batch` with the real recognizer runtime (load_image, Recognizer, annotate) on the hand-made ONNX models
of tests/fake_models.py: the adapter, worker start-up with MAHJONG_NTS_MODELS and real decoding errors."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from fake_models import LEVELS, draw_tile, write_fake_models
from PIL import Image
from test_batch import SAMPLES, parse_report, read_csv, read_jsonl, run_batch_cli

from scoring import parse_tiles

TILE_W, TILE_H = 40, 56  # photo pixels for a 256-px photo: the fake detector's 20 x 28 input pixels
LEVEL_OF = {f"{n}m": (LEVELS[(n - 1) // 3], LEVELS[(n - 1) % 3]) for n in range(1, 10)}


def fake_world_photo(rows: list[list[str]], path: Path) -> None:
    """A 256 x 256 photo with fake tiles ("1m".."9m" red with green levels, "back" blue), 5 per row."""
    rgb = np.zeros((256, 256, 3), np.uint8)
    for r, row in enumerate(rows):
        for c, code in enumerate(row):
            box = (8 + 48 * c, 8 + 64 * r, 8 + 48 * c + TILE_W, 8 + 64 * r + TILE_H)
            if code == "back":
                draw_tile(rgb, box, back=True)
            else:
                draw_tile(rgb, box, *LEVEL_OF[code])
    Image.fromarray(rgb).save(path)


@pytest.fixture
def fake_models_env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = write_fake_models(tmp_path / "models")
    monkeypatch.setenv("MAHJONG_NTS_MODELS", str(folder))  # reaches the spawned workers
    return folder


def test_real_runtime_reads_scores_and_reports(tmp_path: Path, fake_models_env: Path, capsys) -> None:
    folder = tmp_path / "photos"
    folder.mkdir()
    fake_world_photo(
        [["1m", "2m", "3m", "4m", "5m"], ["6m", "7m", "8m", "9m", "1m"], ["1m", "1m", "9m", "9m"]],
        folder / "a-pure.png",
    )
    fake_world_photo(
        [["2m", "3m", "4m", "5m", "6m"], ["7m", "8m", "8m", "8m", "9m"], ["9m", "back", "1m", "1m", "back"]],
        folder / "b-kong.png",
    )
    real_jpeg = (SAMPLES / "hand1.jpg").read_bytes()
    (folder / "c-corrupt.jpg").write_bytes(real_jpeg[: len(real_jpeg) // 3])  # cut off mid-scan
    (folder / "d-notes.jpg").write_text("geen foto\n")
    (folder / "e-empty.jpg").write_bytes(b"")
    out = tmp_path / "out"

    assert run_batch_cli([str(folder), "--out", str(out), "-q", "--workers", "2"], reader=None) == 1

    rows = {row["file"]: row for row in read_csv(out / "results.csv")}
    records = {record["file"]: record for record in read_jsonl(out / "results.jsonl")}
    pure = records["a-pure.png"]
    assert [tile["code"] for tile in pure["tiles"]] == parse_tiles("123456789m1119m9m")
    assert rows["a-pure.png"]["tiles_read"] == "12345m / 67891m / 1199m"  # one suit: one group per row
    assert pure["error"] is None and pure["hand"]["winning_tile"] == "9m" and pure["result"]["valid"]
    assert pure["tiles"][0]["alternatives"] and len(pure["tiles"][0]["box"]) == 4
    kong = records["b-kong.png"]
    assert kong["error"] is None, kong["error"]
    assert kong["hand"]["melds"] == [{"tiles": "1111m", "open": False}]
    assert "back" in rows["b-kong.png"]["tiles_read"]
    assert rows["c-corrupt.jpg"]["error"].startswith("unreadable image: corrupt or truncated image")
    assert rows["d-notes.jpg"]["error"].startswith("unreadable image: ")
    assert rows["e-empty.jpg"]["error"] == "unreadable image: empty file (0 bytes)"
    assert str(folder) not in "".join(row["error"] for row in rows.values())  # no absolute paths
    report = parse_report(out / "report.html")
    assert len(report.images) == 2 and all((out / src).is_file() for src in report.images)
    assert json.loads(capsys.readouterr().out)["errors"] == 3


def test_missing_models_exit_2_before_touching_results(tmp_path: Path, monkeypatch, capsys) -> None:
    folder = tmp_path / "photos"
    folder.mkdir()
    fake_world_photo([["1m"]], folder / "a.png")
    out = tmp_path / "out"
    out.mkdir()
    (out / "results.jsonl").write_text('{"file": "a.png", "fingerprint": "x"}\n')
    monkeypatch.setenv("MAHJONG_NTS_MODELS", str(tmp_path / "no-models"))
    assert run_batch_cli([str(folder), "--out", str(out)], reader=None) == 2
    err = capsys.readouterr().err
    assert (
        err.startswith("mahjong-nts batch: cannot start the tile recognizer: ModelError:")
        and err.count("\n") == 1
    )
    assert (out / "results.jsonl").read_text() == '{"file": "a.png", "fingerprint": "x"}\n'  # untouched
