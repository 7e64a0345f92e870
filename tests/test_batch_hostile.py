"""Hostile folders for `mahjong-nts batch` (issue 16): one bad file costs only its own row, nothing is read
twice or overwritten, names that are not UTF-8 survive every output, and two runs never share an --out."""

from __future__ import annotations

import csv
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from test_batch import SAMPLES, read_csv, read_jsonl, run_batch_cli, start_batch

from mahjong_nts.cli.main import build_parser

BAD_NAME = os.fsdecode(b"bad\xffname-hand1.jpg")  # a name that is not UTF-8, as a surrogate-escaped str


def photos(folder: Path, *names: str) -> Path:
    folder.mkdir(exist_ok=True)
    for name in names:
        shutil.copy(SAMPLES / "hand1.jpg", folder / name)
    return folder


def rows_by_file(out: Path) -> dict[str, dict[str, Any]]:
    return {record["file"]: record for record in read_jsonl(out / "results.jsonl")}


# item 3: a file name that is not UTF-8
def test_a_name_that_is_not_utf8_survives_record_csv_html_and_resume(tmp_path: Path) -> None:
    folder = photos(tmp_path / "photos", "hand1.jpg", BAD_NAME)
    out = tmp_path / "out"
    assert run_batch_cli([str(folder), "--out", str(out), "-q"]) == 0
    records = rows_by_file(out)
    assert set(records) == {"hand1.jpg", BAD_NAME}  # the exact name read back from results.jsonl
    (out / "results.jsonl").read_bytes().decode("utf-8")
    assert [row["file"] for row in read_csv(out / "results.csv")] == ["bad\\xffname-hand1.jpg", "hand1.jpg"]
    html = (out / "report.html").read_bytes().decode("utf-8")
    assert "bad\\xffname-hand1.jpg" in html and "bad%FFname" in html
    assert (out / os.fsdecode(records[BAD_NAME]["annotated"].encode("utf-8", "surrogateescape"))).is_file()
    assert run_batch_cli([str(folder), "--out", str(out), "-q", "--resume"]) == 0
    summary = json.loads((out / "results.jsonl").read_text(encoding="utf-8").splitlines()[0])
    assert summary["file"] == BAD_NAME


def test_resume_keeps_a_photo_with_an_undecodable_name(tmp_path: Path, capsys: Any) -> None:
    folder = photos(tmp_path / "photos", BAD_NAME, "hand2.jpg")
    out = tmp_path / "out"
    run_batch_cli([str(folder), "--out", str(out), "-q"])
    capsys.readouterr()
    run_batch_cli([str(folder), "--out", str(out), "-q", "--resume"])
    assert json.loads(capsys.readouterr().out)["reused"] == 2


# item 5: the output folder inside the photo folder
def test_out_into_the_photo_folder_never_reads_its_own_images(tmp_path: Path, capsys: Any) -> None:
    folder = photos(tmp_path / "photos", "hand1.jpg", "hand2.jpg", "hand3.jpg")
    for _ in range(3):
        assert run_batch_cli([str(folder), "--out", str(folder), "-r", "-q"]) == 0
        assert json.loads(capsys.readouterr().out)["photos"] == 3
    assert sorted(rows_by_file(folder)) == ["hand1.jpg", "hand2.jpg", "hand3.jpg"]


# items 1, 2, 9, 13: sidecars and defaults.json read through the one JSON layer
@pytest.mark.parametrize(
    ("sidecar", "named"),
    [
        ("[" * 1000 + "]" * 1000, "sidecar hand1.json: bad JSON: nested deeper"),
        ('{"seat_wind": ' + "1" * 5000 + "}", "sidecar hand1.json: bad JSON: a number with more than 4300"),
        ('{"role": ["winner"]}', "sidecar hand1.json: role must be a string, not ['winner']"),
        ('{"self_drawn": "yes"}', "sidecar hand1.json: self_drawn must be true or false"),
        ('{"flags": "last_tile"}', "sidecar hand1.json: flags must be a list"),
        ('{"melds": {"tiles": "111z"}}', "sidecar hand1.json: melds must be a list"),
        (json.dumps({"seat_wind": "x" * (2**20 - 99)}), "hand: seat_wind must be one of E, S, W, N, not 'xx"),
        (b'{"seat_wind": "\xff"}', "sidecar hand1.json: not UTF-8 text"),
    ],
)
def test_a_hostile_sidecar_is_that_photos_short_error(
    tmp_path: Path, sidecar: str | bytes, named: str
) -> None:
    folder = photos(tmp_path / "photos", "hand1.jpg", "hand3.jpg")
    data = sidecar.encode() if isinstance(sidecar, str) else sidecar
    (folder / "hand1.json").write_bytes(data)
    out = tmp_path / "out"
    assert run_batch_cli([str(folder), "--out", str(out), "-q"]) == 1
    rows = read_csv(out / "results.csv")  # Python's csv reads it back: no megabyte cell
    assert [row["file"] for row in rows] == ["hand1.jpg", "hand3.jpg"]
    assert rows[0]["error"].startswith(named) and len(rows[0]["error"]) <= 300
    assert rows[1]["error"] == ""


@pytest.mark.parametrize(
    ("defaults", "named"),
    [
        ("[" * 1000 + "]" * 1000, "defaults.json: bad JSON: nested deeper"),
        ('{"ruleset": ' + "9" * 5000 + "}", "defaults.json: bad JSON: a number with more than 4300"),
        ('{"role": ["winner"]}', "defaults.json: role must be a string"),
    ],
)
def test_a_hostile_defaults_json_stops_the_run_with_one_line(
    tmp_path: Path, defaults: str, named: str, capsys: Any
) -> None:
    folder = photos(tmp_path / "photos", "hand1.jpg")
    (folder / "defaults.json").write_text(defaults)
    assert run_batch_cli([str(folder), "--out", str(tmp_path / "out"), "-q"]) == 2
    err = capsys.readouterr().err
    assert len(err.splitlines()) == 1 and named in err and "Traceback" not in err


# item 11: workers capped at the cores
def test_workers_are_capped_at_the_cores(capsys: Any) -> None:
    from mahjong_nts.batch.runner import cpu_cores

    args = build_parser().parse_args(["batch", "photos", "--workers", "100"])
    assert args.workers == cpu_cores()
    assert "capped" in capsys.readouterr().err


# item 14: sidecar case, formula cells, links and FIFOs, two runs on one --out
def test_an_upper_case_sidecar_is_matched(tmp_path: Path) -> None:
    folder = photos(tmp_path / "photos", "TABLE3-hand1.JPG")
    (folder / "TABLE3-hand1.JSON").write_text(json.dumps({"seat_wind": "S"}))
    out = tmp_path / "out"
    run_batch_cli([str(folder), "--out", str(out), "-q"])
    record = rows_by_file(out)["TABLE3-hand1.JPG"]
    assert record["sidecar"] == "TABLE3-hand1.JSON" and record["hand"]["seat_wind"] == "S"


def test_csv_cells_that_start_like_a_formula_are_text(tmp_path: Path) -> None:
    folder = photos(tmp_path / "photos", "=HYPERLINK(1).jpg", "+1.jpg", "-2.jpg", "@x.jpg", "hand1.jpg")
    out = tmp_path / "out"
    run_batch_cli([str(folder), "--out", str(out), "-q"])
    cells = [row["file"] for row in read_csv(out / "results.csv")]
    assert cells == ["'+1.jpg", "'-2.jpg", "'=HYPERLINK(1).jpg", "'@x.jpg", "hand1.jpg"]
    with open(out / "results.csv", newline="", encoding="utf-8") as handle:
        for row in csv.reader(handle):
            assert not any(cell.startswith(("=", "+", "-", "@")) for cell in row)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="POSIX FIFOs")
def test_links_loops_and_fifos_get_an_error_row_and_never_hang(tmp_path: Path) -> None:
    folder = photos(tmp_path / "photos", "hand1.jpg")
    os.symlink("nowhere.jpg", folder / "dangling.jpg")
    os.symlink("loop.jpg", folder / "loop.jpg")
    os.mkfifo(folder / "pipe.jpg")
    os.symlink("hand1.jpg", folder / "linked-hand1.jpg")  # a link to a photo is a photo
    out = tmp_path / "out"
    done = subprocess.run(
        [
            sys.executable,
            "-c",
            "import sys; sys.path.insert(0, 'tests'); import test_batch; "
            "sys.exit(test_batch.run_batch_cli(sys.argv[1:]))",
            str(folder),
            "--out",
            str(out),
            "-q",
        ],
        cwd=Path(__file__).resolve().parents[1],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 1, done.stderr
    errors = {row["file"]: row["error"] for row in read_csv(out / "results.csv")}
    assert set(errors) == {"dangling.jpg", "hand1.jpg", "linked-hand1.jpg", "loop.jpg", "pipe.jpg"}
    assert "dangling" in errors["dangling.jpg"] and "loop" in errors["loop.jpg"]
    assert "FIFO" in errors["pipe.jpg"]
    assert errors["hand1.jpg"] == errors["linked-hand1.jpg"] == ""


def test_two_runs_on_one_out_folder(tmp_path: Path) -> None:
    folder = tmp_path / "photos"
    folder.mkdir()
    for n in range(1, 7):
        shutil.copy(SAMPLES / f"hand{n % 5 + 1}.jpg", folder / f"{n}-hand{n % 5 + 1}.jpg")
    out = tmp_path / "out"
    first = start_batch(folder, out, env={"BATCH_FAKE_DELAY": "0.3"})
    try:
        deadline_lines = out / "results.jsonl"
        for _ in range(600):
            if deadline_lines.exists():
                break
            __import__("time").sleep(0.05)
        second = start_batch(folder, out, env={})
        _, err = second.communicate(timeout=120)
        assert second.returncode == 2
        assert "another batch is writing to" in err.decode() and len(err.splitlines()) == 1
    finally:
        first.communicate(timeout=120)
    assert first.returncode == 0
    assert len(read_jsonl(out / "results.jsonl")) == 6


# item 14: a file name near the 255-byte limit
def test_a_name_near_the_length_limit_is_scored_and_its_image_written(tmp_path: Path) -> None:
    long_a, long_b = "h" * 243 + "a-hand1.jpg", "h" * 243 + "b-hand1.jpg"  # 254 bytes; "<stem>-jpg.jpg": 258
    near = "k" * 230 + "-hand1.jpg"  # fits as "<stem>-jpg.jpg" (244), but not with a temporary file's 18 more
    folder = photos(tmp_path / "photos", long_a, long_b, near)
    out = tmp_path / "out"
    assert run_batch_cli([str(folder), "--out", str(out), "-q"]) == 0
    records = rows_by_file(out)
    assert set(records) == {long_a, long_b, near}
    annotated = [records[name]["annotated"] for name in (long_a, long_b, near)]
    assert all(record["error"] is None and record["result"] for record in records.values()), records
    assert len(set(annotated)) == 3 and all((out / name).is_file() for name in annotated)
    assert all(len(os.fsencode(Path(name).name)) <= 255 for name in annotated)
    assert Path(annotated[0]).name.startswith("h" * 200) and Path(annotated[0]).name.endswith(".jpg")
    assert Path(annotated[2]).name == "k" * 230 + "-hand1-jpg.jpg"  # a name that fits is kept as it was
    assert run_batch_cli([str(folder), "--out", str(out), "-q", "--resume"]) == 0  # and found again
